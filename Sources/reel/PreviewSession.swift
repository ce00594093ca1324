// The scene `reel preview` shows: loaded, loaded again when it or a file it uses changes, the last good
// clip kept (with the located error that replaced it) so the page never goes blank.
import Foundation
import Reel
import ReelAnimation
import ReelScene

final class PreviewSession: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    /// Bumped at every load, good or bad: the page reloads its frame and timeline when it changes.
    private var version = 0
    private var good: Clip?
    private var error: String?
    /// The scene loaded again at a width the page asked for, for the current version (a few kept).
    private var sized: [Int: Clip] = [:]
    /// The watched files and what they were at the last load (size and modification time; nil: missing).
    private var stamps: [String: String?] = [:]

    init(path: String) {
        self.path = path
        load()
    }

    struct State: Encodable {
        struct Bar: Encodable {
            var kind: String
            var keyPath: String
            var begin: Double
            /// nil: it never ends (repeats forever, or a fill).
            var end: Double?
        }
        struct Row: Encodable {
            var name: String
            var depth: Int
            var type: String
            var animations: [Bar]
        }
        var version: Int
        var scene: String
        var error: String?
        /// The last good load's clip (absent when the scene never loaded).
        var duration: Double?
        var fps: Double?
        var frames: Int?
        var width: Int?
        var height: Int?
        var transparent: Bool?
        var layers: [Row]
    }

    func state() -> State {
        lock.withLock {
            var state = State(
                version: version, scene: URL(fileURLWithPath: path).lastPathComponent, error: error, layers: [])
            guard let scene = good?.scene else { return state }
            state.duration = scene.duration
            state.fps = Double(scene.fps.numerator) / Double(scene.fps.denominator)
            state.frames = scene.frameCount
            state.width = scene.pixelWidth
            state.height = scene.pixelHeight
            state.transparent = scene.background.alpha < 1
            for root in scene.layers {
                for (layer, depth) in root.flattened() {
                    state.layers.append(
                        State.Row(
                            name: layer.name, depth: depth, type: layer.type.rawValue,
                            animations: layer.animations.map(Self.bar)))
                }
            }
            return state
        }
    }

    private static func bar(_ a: Animation) -> State.Bar {
        func bar(_ kind: String, _ keyPath: String, _ t: MediaTiming) -> State.Bar {
            State.Bar(kind: kind, keyPath: keyPath, begin: t.beginTime, end: t.endTime.isFinite ? t.endTime : nil)
        }
        switch a {
        case .basic(let b): return bar("basic", b.keyPath, b.timing)
        case .keyframe(let k): return bar("keyframe", k.keyPath, k.timing)
        case .spring(let s): return bar("spring", s.base.keyPath, s.base.timing)
        case .popSpring(let p): return State.Bar(kind: "popSpring", keyPath: p.keyPath, begin: p.beginTime, end: nil)
        case .group(let g): return bar("group", g.animations.map(\.keyPath).joined(separator: ", "), g.timing)
        }
    }

    /// The clip to draw at `width` pixels (nil: the scene's own size): the last good load, loaded again
    /// at that width when asked for one. Nil when the scene never loaded.
    func clip(width: Int?) throws -> Clip? {
        let (base, cached) = lock.withLock { (good, width.flatMap { sized[$0] }) }
        guard let base else { return nil }
        guard let width, width != base.scene.pixelWidth else { return base }
        if let cached { return cached }
        let clip = try Reel.load(path, overrides: SceneOverrides(width: width))
        lock.withLock {
            if sized.count >= 4 { sized.removeAll() }
            sized[width] = clip
        }
        return clip
    }

    /// Loads the scene again if a watched file changed since the last load; true if it did.
    @discardableResult
    func reloadIfChanged() -> Bool {
        let seen = lock.withLock { stamps }
        guard seen.contains(where: { file, stamp in Self.stamp(file) != stamp }) else { return false }
        load()
        return true
    }

    private func load() {
        do {
            let clip = try Reel.load(path)
            let files = Reel.inputFiles(of: clip.scene, path: path)
            lock.withLock {
                good = clip
                error = nil
                sized = [:]
                stamps = Dictionary(uniqueKeysWithValues: files.map { ($0, Self.stamp($0)) })
                version += 1
            }
        } catch {
            let message = ErrorReport.describe(error)?.message ?? "\(error)"
            lock.withLock {
                self.error = message
                // Still watched: the scene itself and whatever the last good load used.
                stamps[path] = Self.stamp(path)
                for file in stamps.keys { stamps[file] = Self.stamp(file) }
                version += 1
            }
        }
    }

    private static func stamp(_ file: String) -> String? {
        guard let a = try? FileManager.default.attributesOfItem(atPath: file) else { return nil }
        let size = (a[.size] as? Int) ?? -1
        let time = (a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(size) \(time)"
    }

    /// Watches the files on a thread of its own, every `interval` seconds, for as long as the process runs.
    func watch(every interval: Double = 0.2) {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: interval)
                reloadIfChanged()
            }
        }
        thread.start()
    }
}
