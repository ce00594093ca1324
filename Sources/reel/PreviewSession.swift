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
    /// The scene loaded again at a width the page asked for, with the version it was loaded at.
    private var sized: [Int: (version: Int, clip: Clip)] = [:]
    /// The watched files and what they were at the last load (size, inode, change and modification
    /// times; nil: missing).
    private var stamps: [String: String?] = [:]
    /// A failed load not shown yet, and how many looks since found nothing changed: shown after
    /// `quietLooks` of them.
    private var unsettledError: (message: String, looks: Int)?
    static let quietLooks = 2

    init(path: String) {
        self.path = path
        load(settled: true)
    }

    struct State: Encodable {
        /// Times are clip seconds, as the page's axis.
        struct Bar: Encodable {
            var kind: String
            var keyPath: String
            /// The key it was added under: the name `after:` actions wait for.
            var key: String?
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
        /// The scene file's `after:` actions, as chains from an animation's stop to the action.
        var cues: [Cue] = []
        /// The built-in presets the page can export with.
        var presets: [Preset] = []
        struct Cue: Encodable {
            var after: String
            var stop: Double
            var time: Double
            var layer: String
        }
        struct Preset: Encodable {
            var name: String
            var format: String?
            var description: String
        }
    }

    /// The last good load's clip (nil if it never loaded), the version and the current error: what a
    /// frame request checks, without the timeline `state` lists.
    func current() -> (clip: Clip?, version: Int, error: String?) { lock.withLock { (good, version, error) } }

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
            // The page's axis is clip time; animations and actions are timed in scene time (speed ×).
            let speed = scene.speed > 0 ? scene.speed : 1
            for root in scene.layers {
                for (layer, depth) in root.flattened() {
                    state.layers.append(
                        State.Row(
                            name: layer.name, depth: depth, type: layer.type.rawValue,
                            animations: layer.attachedAnimations.map { a in
                                var bar = Self.bar(a.animation)
                                bar.key = a.key
                                bar.begin /= speed
                                bar.end = bar.end.map { $0 / speed }
                                return bar
                            }))
                }
            }
            state.cues = scene.cues.map {
                State.Cue(after: $0.after, stop: $0.stop / speed, time: $0.time / speed, layer: $0.layer)
            }
            state.presets = Self.presets
            return state
        }
    }

    static let presets: [State.Preset] = Reel.presetNames.compactMap { name in
        (try? Reel.preset(name)).map { State.Preset(name: $0.name, format: $0.format, description: $0.description) }
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
    /// at that width as `reel still --width` loads it. While the file on disk has an error, the last
    /// good clip at its own size (the page scales it). Nil when the scene never loaded.
    func clip(width: Int?) throws -> Clip? {
        let (base, version, failing, cached) = lock.withLock {
            (good, self.version, error != nil, width.flatMap { sized[$0] })
        }
        guard let base else { return nil }
        guard let width else { return base }
        if let cached, cached.version == version { return cached.clip }
        if failing { return base }
        let clip = try Reel.load(path, overrides: SceneOverrides(width: width))
        lock.withLock {
            // Kept only if no reload happened meanwhile; a few widths at a time.
            guard self.version == version else { return }
            if sized.count >= 8 { sized.removeAll() }
            sized[width] = (version, clip)
        }
        return clip
    }

    /// Loads the scene again if a watched file changed since the last load; true if it did.
    @discardableResult
    func reloadIfChanged() -> Bool {
        let seen = lock.withLock { stamps }
        guard seen.contains(where: { file, stamp in Self.stamp(file) != stamp }) else {
            return lock.withLock {
                guard let (message, looks) = unsettledError else { return false }
                guard looks + 1 >= Self.quietLooks else {
                    unsettledError = (message, looks + 1)
                    return false
                }
                unsettledError = nil
                error = message
                sized = [:]
                version += 1
                return true
            }
        }
        load(settled: false)
        return true
    }

    /// An error found while the files may still be changing (`settled` false) is held until they have
    /// stayed unchanged for `quietLooks` looks: an editor that empties a file before writing it would
    /// otherwise flash an error at some saves.
    private func load(settled: Bool) {
        // Stamped before reading: an edit saved while the scene loads is seen at the next look.
        let before = lock.withLock { Dictionary(uniqueKeysWithValues: stamps.keys.map { ($0, Self.stamp($0)) }) }
            .merging([(path, Self.stamp(path))]) { a, _ in a }
        do {
            let clip = try Reel.load(path)
            let files = Reel.inputFiles(of: clip.scene, path: path)
            lock.withLock {
                good = clip
                error = nil
                unsettledError = nil
                sized = [:]
                stamps = Dictionary(uniqueKeysWithValues: files.map { ($0, before[$0] ?? Self.stamp($0)) })
                version += 1
            }
        } catch {
            let message = ErrorReport.describe(error)?.message ?? "\(error)"
            // While it fails, the scene's folder is watched too: the missing image or font it names
            // may be added (or renamed into place) to mend it.
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            lock.withLock {
                stamps = before.merging([(folder, before[folder] ?? Self.stamp(folder))]) { a, _ in a }
                guard settled else {
                    unsettledError = (message, 0)
                    return
                }
                self.error = message
                sized = [:]
                version += 1
            }
        }
    }

    private static func stamp(_ file: String) -> String? {
        var st = stat()
        guard stat(file, &st) == 0 else { return nil }
        return "\(st.st_size) \(st.st_ino) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec) \(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec)"
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
