/// Settings given as text (the command line's values), each read and checked by one rule with one
/// wording: the setting, what was given, the range it must lie in and how to fix it; and the one table
/// of those ranges, which the Swift API's overrides are checked against too.
import ReelMedia
import ReelScene

/// The ranges settings lie in. The readers below, `Reel.load`'s checks of `SceneOverrides` and the
/// manifest's `speed` all take them from here, so no two places can disagree on a bound.
public enum SettingLimits {
    /// Playback speed: a thousandth (slow motion of a second over 17 minutes) to a thousand times.
    public static let speed: ClosedRange<Double> = 0.001...1000
    /// Output width in pixels.
    public static let width: ClosedRange<Int> = 1...Scene.maximumPixelSide
    /// A side of a fixed output size (`--size`), in pixels: a frame of one pixel cannot be centred.
    public static let sizeSide: ClosedRange<Int> = 2...Scene.maximumPixelSide
    /// Rasterizer threads: any number from one; past the frame's bands the extra threads wait.
    public static let threads: PartialRangeFrom<Int> = 1...
    /// More shards than any cluster runs; it bounds the arithmetic on counts.
    public static let shards: ClosedRange<Int> = 1...100_000
    /// A memory limit in MiB: the bound keeps the shift to bytes from overflowing (2^30 MiB is 1 PiB).
    public static let memoryLimitMiB: ClosedRange<Int> = 1...(1 << 30)
    /// Renders of a batch at once (`--jobs`, a manifest's `concurrency`).
    public static let concurrency: ClosedRange<Int> = 1...256
}

/// `--memory-limit`: what a render (or a batch, all its renders together) may use, in MiB.
public struct MemoryLimit: SettingValue, Equatable {
    public let mebibytes: Int

    public init(parsing text: String) throws(ReelError) {
        guard let n = Int(text), SettingLimits.memoryLimitMiB.contains(n) else {
            throw .usage(
                "\(Setting.memoryLimit) is a number of MiB from \(SettingLimits.memoryLimitMiB.lowerBound) to \(SettingLimits.memoryLimitMiB.upperBound), got \(text)",
                fix: "e.g. 4096 for 4 GiB")
        }
        mebibytes = n
    }

    public var bytes: Int { mebibytes << 20 }
}

/// `--jobs`: renders of a batch (or of `render --rows`) at once.
public struct Concurrency: SettingValue, Equatable {
    public let count: Int

    public init(parsing text: String) throws(ReelError) {
        guard let n = Int(text), SettingLimits.concurrency.contains(n) else {
            throw .usage(
                "\(Setting.concurrency) is a whole number of renders at once, \(SettingLimits.concurrency.lowerBound)…\(SettingLimits.concurrency.upperBound), got \(text)",
                fix: "leave it out to render as many at once as there are cores")
        }
        count = n
    }
}

/// A setting read from the text a user gave. Every command that takes the setting reads it this way,
/// so a bad value is refused in the same words whichever command it is given to.
public protocol SettingValue: Sendable {
    init(parsing text: String) throws(ReelError)
}

/// `--speed`: slow motion (< 1) or fast forward (> 1).
public struct Speed: SettingValue, Equatable {
    public let factor: Double

    /// `given` is the value as the user wrote it, for the message.
    public init(_ factor: Double, given: String? = nil) throws(ReelError) {
        guard factor.isFinite, SettingLimits.speed.contains(factor) else {
            throw .usage(
                "\(Setting.speed) must be in \(Self.range), got \(given ?? "\(factor)")",
                fix: "use 0.25 for quarter speed, 2 for double")
        }
        self.factor = factor
    }

    public init(parsing text: String) throws(ReelError) {
        try self.init(Double(text) ?? .nan, given: text)
    }

    static var range: String {
        "\(SettingLimits.speed.lowerBound.formatted)…\(SettingLimits.speed.upperBound.formatted)"
    }
}

/// `--motion-blur`: a shutter angle in degrees, and optionally its samples (`180`, `180,16`); `0` or
/// `off` renders without motion blur, whatever the scene says.
public struct MotionBlurSetting: SettingValue, Equatable {
    /// Nil: no motion blur.
    public let blur: MotionBlur?

    public init(parsing text: String) throws(ReelError) {
        let fix: Message = "write a shutter angle in degrees and, if you like, samples: 180 or 180,16 (0 or off: none)"
        if text == "off" || text == "0" {
            blur = nil
            return
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let angle = Double(parts[0]), MotionBlur.angles.contains(angle) else {
            throw .usage("\(Setting.motionBlur): the shutter angle is 0…720 degrees, got '\(text)'", fix: fix)
        }
        var b = MotionBlur(shutterAngle: angle)
        if parts.count == 2 {
            guard let n = Int(parts[1]), MotionBlur.sampleCounts.contains(n) else {
                throw .usage(
                    "\(Setting.motionBlur): samples is a whole number in \(MotionBlur.sampleCounts.lowerBound)…\(MotionBlur.sampleCounts.upperBound), got '\(parts[1])'",
                    fix: fix)
            }
            b.samples = n
        }
        blur = angle > 0 ? b : nil
    }
}

/// `--scale`: pixels per point (the frame's size in pixels is then checked against the scene's limit).
public struct Scale: SettingValue, Equatable {
    public let factor: Double

    public init(parsing text: String) throws(ReelError) {
        guard let factor = Double(text), factor > 0, factor.isFinite else {
            throw .usage(
                "\(Setting.scale) must be a positive number, got \(text)", fix: "1 draws a point as a pixel, 2 as 2×2 pixels")
        }
        self.factor = factor
    }
}

/// `--width`: the output's width in pixels, the scale following from it.
public struct OutputWidth: SettingValue, Equatable {
    public let pixels: Int

    public init(_ pixels: Int, given: String? = nil) throws(ReelError) {
        guard SettingLimits.width.contains(pixels) else { throw Self.refusal(given ?? "\(pixels)") }
        self.pixels = pixels
    }

    public init(parsing text: String) throws(ReelError) {
        guard let pixels = Int(text) else { throw Self.refusal(text) }
        try self.init(pixels, given: text)
    }

    private static func refusal(_ given: String) -> ReelError {
        .usage(
            "\(Setting.width) must be \(SettingLimits.width.lowerBound)…\(SettingLimits.width.upperBound) pixels, got \(given)",
            fix: "e.g. 1920")
    }
}

extension OutputSettings.PixelSize: SettingValue {
    /// `WIDTHxHEIGHT`, each side in `SettingLimits.sizeSide`.
    public init(parsing text: String) throws(ReelError) {
        let parts = text.lowercased().split(separator: "x").map { Int($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1] else {
            throw .usage("\(Setting.size, text) is not WIDTHxHEIGHT in pixels", fix: "e.g. 1920x1080")
        }
        try self.init(checking: w, h, given: text)
    }

    /// A size given as numbers (the Swift API's), refused in the words `--size` is.
    public init(checking width: Int, _ height: Int, given: String? = nil) throws(ReelError) {
        let side = SettingLimits.sizeSide
        guard side.contains(width), side.contains(height) else {
            throw .usage(
                "\(Setting.size, given ?? "\(width)x\(height)") must be \(side.lowerBound)…\(side.upperBound) pixels a side",
                fix: "e.g. 1920x1080")
        }
        self.init(width: width, height: height)
    }
}

/// `--threads`: rasterizer threads; the output is the same for any number.
public struct ThreadCount: SettingValue, Equatable {
    public let count: Int

    public init(parsing text: String) throws(ReelError) {
        guard let count = Int(text), SettingLimits.threads.contains(count) else {
            throw .usage(
                "\(Setting.threads) must be at least \(SettingLimits.threads.lowerBound), got \(text)",
                fix: "leave it out to use every core")
        }
        self.count = count
    }
}

/// `--frames A-B`: frames `first…last` of the clip (from 0, both included), a segment for a later join.
public struct FrameRange: SettingValue, Equatable {
    public let first: Int
    public let last: Int

    public init(parsing text: String) throws(ReelError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= a else {
            throw .usage(
                "\(Setting.frames, text) is not FIRST-LAST with frame numbers from 0 and LAST ≥ FIRST", fix: "e.g. 0-59")
        }
        first = a
        last = b
    }
}

extension Double {
    /// 1000 rather than 1000.0, 0.001 as it is.
    fileprivate var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : "\(self)" }
}
