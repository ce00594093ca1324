/// Draw commands kept across frames: what a still subtree (or a whole still snapshot) made, by its identity.
import Foundation
import ReelGeometry
import ReelRaster
import ReelScene
import Synchronization

/// The commands made of still presentations (`PresentationLayer.retained`, `Snapshot.retained`), kept
/// while their total estimated size stays within `budget` bytes; once it is reached, new ones are made
/// again each frame and not kept (nothing is evicted: a still subtree's commands are the same at every
/// frame, so the first kept are as good as any). Shared by the renderer's copies and its workers; a list
/// one worker is making is waited for by the others, not made again beside it.
// Its state is read and changed only while `condition` is locked.
public final class RetainedCommands: @unchecked Sendable {
    struct Key: Hashable {
        /// The first still layer's identity, and how many siblings from it on (in drawing order) the list draws.
        let id: RetainedID
        var count = 1
        /// Where the subtree is drawn: the same still subtree under two transforms (a replicator's instances)
        /// makes two lists.
        let toDevice: Transform3D
        /// Whether it is culled to the frame (not under a shadow): culling leaves text out.
        let culled: Bool
    }

    private struct Store {
        var lists: [Key: (commands: [DisplayList.Command], run: DisplayList.KeptRun)] = [:]
        /// Lists a worker is making now.
        var making: Set<Key> = []
        var bytes = 0
    }

    private var store = Store()
    private let condition = NSCondition()
    /// The most bytes kept (estimated: `estimatedBytes`), counted by `--memory-limit`.
    public let budget: Int

    private static let tokens = Atomic<Int>(0)

    /// The budget of a render's renderer.
    public static let defaultBudget = 64 << 20

    public init(budget: Int = defaultBudget) { self.budget = max(0, budget) }

    /// Bytes kept now (estimated).
    public var bytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return store.bytes
    }

    /// The list kept for `key`, or the one `make` gives (kept if it fits), and for a kept list its run:
    /// its token (unique in the process, as the lists of two renderers may be compared) and its rows,
    /// made once (nil for a list not kept). While another worker makes the same
    /// list this one waits for it: the frames drawn at once at the start of a clip would otherwise each
    /// make it (with 100,000 still layers, two lists of 100,000 paths at the same time).
    func commands(_ key: Key, orMake make: () -> [DisplayList.Command]) -> (
        commands: [DisplayList.Command], run: DisplayList.KeptRun?
    ) {
        condition.lock()
        while store.lists[key] == nil && store.making.contains(key) { condition.wait() }
        if let kept = store.lists[key] {
            condition.unlock()
            return (kept.commands, kept.run)
        }
        store.making.insert(key)
        condition.unlock()
        let made = make()
        let size = Self.estimatedBytes(made)
        condition.lock()
        store.making.remove(key)
        var run: DisplayList.KeptRun?
        if store.bytes + size <= budget {
            run = DisplayList.KeptRun(range: made.indices, token: Self.tokens.wrappingAdd(1, ordering: .relaxed).newValue)
            store.lists[key] = (made, run!)
            store.bytes += size
        }
        condition.broadcast()
        condition.unlock()
        return (made, run)
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
