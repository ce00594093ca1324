/// A video layer's media (what AVPlayerLayer's player item is): the file, the part of it played, and how
/// the layer's own time becomes file time.
import ReelGeometry

/// The file a `type: video` layer plays and the seconds of it that play. The layer's timing
/// (`beginTime`, `speed`, `timeOffset`, `repeatCount`…) gives its own time t, as for any layer; the frame
/// on screen is the file's frame at `from + t`, held at the range's first frame before it and at its last
/// after it.
public struct VideoPlayback: Sendable, Equatable {
    /// The file as the scene names it.
    public var name: String
    /// The file, resolved against the scene's folder.
    public var file: String
    /// The picture as displayed, in pixels: the layer's natural size.
    public var size: Size
    /// The seconds of the file played (`playbackRange`), the whole file by default.
    public var from: Double
    public var to: Double
    /// Whether its own sound plays (following the layer's time), and at what gain.
    public var audio = false
    public var volume = 1.0

    public init(name: String, file: String, size: Size, from: Double, to: Double) {
        self.name = name
        self.file = file
        self.size = size
        self.from = from
        self.to = to
    }

    /// Seconds of the file played once.
    public var length: Double { max(to - from, 0) }

    /// The file time on screen at the layer's own time `t`.
    public func fileTime(atLayerTime t: Double) -> Double {
        // Held just short of `to`: a frame starting exactly there is past the range.
        from + min(max(t.isFinite ? t : 0, 0), max(length - Self.endMargin, 0))
    }

    /// Further than a decoder's tolerance for a frame boundary, and far less than any frame lasts.
    static let endMargin = 1e-5
}

/// What a video file says that a scene needs while it is read: its size as displayed and its length.
public struct VideoFileFacts: Sendable {
    public var size: Size
    public var duration: Double
    public var hasAudio: Bool

    public init(size: Size, duration: Double, hasAudio: Bool = false) {
        self.size = size
        self.duration = duration
        self.hasAudio = hasAudio
    }
}

extension Scene {
    /// The video layers' own times at clip time `t` (by layer name), as `sample(at:)` gives them to the
    /// presentation layers, without sampling anything else: what a decoder reading ahead needs.
    public func videoLayerTimes(at t: Double) -> [(name: String, playback: VideoPlayback, time: Double)] {
        var out: [(name: String, playback: VideoPlayback, time: Double)] = []
        func visit(_ layer: Layer, _ parentTime: Double) {
            let time = layer.timing?.layerTime(atParentTime: parentTime) ?? parentTime
            if layer.type == .video, let playback = layer.video { out.append((layer.name, playback, time)) }
            for s in layer.sublayers { visit(s, time) }
            if let mask = layer.mask { visit(mask, time) }
        }
        for layer in layers { visit(layer, t * speed) }
        return out
    }
}

extension Layer {
    /// A video layer's sound level at its own time `t`: its `volume` with its animations applied (the
    /// timeline's `set`s are not), kept within 0…4.
    public func presentedVolume(atLayerTime t: Double) -> Double {
        var presented = properties
        // A group has no key path of its own: one may hold a volume animation.
        if attachedAnimations.contains(where: { ["", LayerKeyPath.volume.rawValue].contains($0.animation.keyPath) }) {
            Scene.animate(attachedAnimations, &presented, at: t)
        }
        let v = presented.video?.volume ?? 1
        return v.isFinite ? min(max(v, 0), 4) : 0
    }
}
