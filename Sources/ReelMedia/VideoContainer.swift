/// The output formats, chosen from the file extension.
public enum VideoContainer: String, Sendable, CaseIterable {
    case mp4
    case gif

    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "mp4", "m4v": self = .mp4
        case "gif": self = .gif
        default: return nil
        }
    }

    /// GIF frame delays are whole centiseconds, and browsers replace delays under 2 cs with 10 cs, so a
    /// GIF cannot honestly play faster than 50 fps. Clips above that are written at `fps / k` with the
    /// smallest whole `k` that brings the rate to 50 or below (60 → 30, 120 → 40): every k-th frame,
    /// the same moments in time, none invented.
    public static let gifMaximumFrameRate = 50

    /// The frame-rate divisor for this container (1 when the rate is kept).
    public func frameRateDivisor(numerator: Int, denominator: Int) -> Int {
        guard self == .gif else { return 1 }
        var k = 1
        while numerator > Self.gifMaximumFrameRate * denominator * k { k += 1 }
        return k
    }
}

/// GIF timing: frame i is shown at `round(i · 100 / fps)` centiseconds, so the delays alternate
/// (30 fps: 3, 4, 3, 3, 4, 3 … cs) and the average rate is exact; the last frame's delay completes the
/// clip's exact length.
public enum GIFTiming {
    /// Presentation time of frame `index` in centiseconds, rounded half up.
    public static func centiseconds(ofFrame index: Int, numerator: Int, denominator: Int) -> Int {
        (2 * index * 100 * denominator + numerator) / (2 * numerator)
    }
}
