/// A scene's sound: the files its `audio` list places on the clip's timeline, with their range, volume,
/// fades and looping; and where each plays at a clip time.
import ReelGeometry

/// One sound file on the clip's timeline (`audio: [{file, at, from, to, volume, fadeIn, fadeOut, loop}]`).
public struct AudioClip: Sendable, Equatable {
    /// The file as the scene names it, and resolved against the scene's folder.
    public var name: String
    public var file: String
    /// When it starts, in seconds of the scene.
    public var at: Double = 0
    /// The seconds of the file played.
    public var from: Double = 0
    public var to: Double
    /// Gain, 1 as recorded.
    public var volume: Double = 1
    /// Seconds over which it rises from silence at its start, and falls to silence at its end (the end
    /// of what plays: the range's end, or the clip's if that comes first or it loops).
    public var fadeIn: Double = 0
    public var fadeOut: Double = 0
    /// Plays the range over and over until the clip ends.
    public var loop = false

    public init(name: String, file: String, to: Double) {
        self.name = name
        self.file = file
        self.to = to
    }

    public var length: Double { max(to - from, 0) }

    /// The file time heard at clip time `t` (the scene played at `speed`, which moves where the sound
    /// starts, not how fast it plays), or nil when it is silent then.
    public func fileTime(atClipTime t: Double, speed: Double) -> Double? {
        var local = t - at / speed
        guard local >= 0, length > 0 else { return nil }
        if loop {
            local = local.truncatingRemainder(dividingBy: length)
        } else if local >= length {
            return nil
        }
        return from + local
    }

    /// The gain at clip time `t` of a clip `duration` seconds long: volume and fades.
    public func gain(atClipTime t: Double, speed: Double, duration: Double) -> Double {
        let start = at / speed
        let end = loop ? duration : min(duration, start + length)
        var g = volume
        if fadeIn > 0 { g *= min(1, max(0, (t - start) / fadeIn)) }
        if fadeOut > 0 { g *= min(1, max(0, (end - t) / fadeOut)) }
        return g
    }
}
