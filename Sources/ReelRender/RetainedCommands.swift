/// Draw commands kept across frames: what a still subtree (or a whole still snapshot) made, by its identity.
import ReelGeometry
import ReelRaster
import ReelScene
import Synchronization

/// The commands made of still presentations (`PresentationLayer.retained`, `Snapshot.retained`), kept
/// while their total estimated size stays within `budget` bytes; once it is reached, new ones are made
/// again each frame and not kept (nothing is evicted: a still subtree's commands are the same at every
/// frame, so the first kept are as good as any). Shared by the renderer's copies and its workers.
public final class RetainedCommands: Sendable {
    struct Key: Hashable {
        let id: RetainedID
        /// Where the subtree is drawn: the same still subtree under two transforms (a replicator's instances)
        /// makes two lists.
        let toDevice: Transform3D
        /// Whether it is culled to the frame (not under a shadow): culling leaves text out.
        let culled: Bool
    }

    private struct Store {
        var lists: [Key: [DisplayList.Command]] = [:]
        var bytes = 0
    }

    private let store = Mutex(Store())
    /// The most bytes kept (estimated: `estimatedBytes`), counted by `--memory-limit`.
    public let budget: Int

    /// The budget of a render's renderer.
    public static let defaultBudget = 64 << 20

    public init(budget: Int = defaultBudget) { self.budget = max(0, budget) }

    /// Bytes kept now (estimated).
    public var bytes: Int { store.withLock { $0.bytes } }

    func commands(_ key: Key) -> [DisplayList.Command]? { store.withLock { $0.lists[key] } }

    func keep(_ commands: [DisplayList.Command], for key: Key) {
        let size = Self.estimatedBytes(commands)
        store.withLock { s in
            guard s.lists[key] == nil, s.bytes + size <= budget else { return }
            s.lists[key] = commands
            s.bytes += size
        }
    }

    /// A command's size: the enum and its path's elements (a path element is a tag and up to three points).
    static func estimatedBytes(_ commands: [DisplayList.Command]) -> Int {
        commands.reduce(64) { total, command in
            switch command {
            case .fill(let path, _, _, _), .stroke(let path, _, _, _, _): return total + 96 + 56 * path.elements.count
            case .beginGroup(let g): return total + 160 + 56 * (g.clip?.elements.count ?? 0)
            case .beginMask, .endGroup: return total + 48
            }
        }
    }
}
