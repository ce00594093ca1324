// The frame rate of a clip (`fps`): read from `30`, `29.97` or `30000/1001`, and the frame times and
// counts that follow from it.

/// A frame rate as an exact fraction, so that 30000/1001 gives exact timestamps.
public struct FrameRate: Hashable, Sendable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int

    public init?(numerator: Int, denominator: Int) {
        guard numerator > 0, denominator > 0 else { return nil }
        let g = Self.gcd(numerator, denominator)
        // Encoders and containers keep a rate as two 32-bit integers; the bounds also keep frame-time
        // arithmetic (GIF delays: 200 · frame · denominator) far from overflow for a 24 h clip.
        guard numerator / g <= Self.maximumTerm, denominator / g <= Self.maximumDenominator else { return nil }
        self.numerator = numerator / g
        self.denominator = denominator / g
    }

    /// The largest numerator and denominator a rate may have, once reduced.
    public static let maximumTerm = 1_000_000_000
    public static let maximumDenominator = 1_000_000

    /// Parses `30`, `29.97`, `59.94` or `30000/1001`. Decimals within 0.01 of an NTSC rate
    /// (N·1000/1001) mean that rate exactly; other decimals are taken to 1/1000 of a frame per second.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let n = Int(parts[0].trimmingSpaces), let d = Int(parts[1].trimmingSpaces) else { return nil }
            self.init(numerator: n, denominator: d)
        } else if parts.count == 1, let v = Double(text.trimmingSpaces) {
            self.init(value: v)
        } else {
            return nil
        }
    }

    public init?(value v: Double) {
        guard v.isFinite, v > 0, v <= 1_000_000 else { return nil }
        if v == v.rounded() {
            self.init(numerator: Int(v), denominator: 1)
            return
        }
        let ntsc = (v * 1.001).rounded()
        if abs(ntsc * 1000 / 1001 - v) < 0.01 {
            self.init(numerator: Int(ntsc) * 1000, denominator: 1001)
            return
        }
        self.init(numerator: Int((v * 1000).rounded()), denominator: 1000)
    }

    public var value: Double { Double(numerator) / Double(denominator) }

    /// The time of frame `index`, exactly `index · denominator / numerator`.
    public func time(ofFrame index: Int) -> Double {
        Double(index) * Double(denominator) / Double(numerator)
    }

    /// Frames whose start time is before `duration`.
    public func frameCount(duration: Double) -> Int {
        let exact = duration * Double(numerator) / Double(denominator)
        return max(1, Int((exact - 1e-9).rounded(.up)))
    }

    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}

extension String {
    var trimmingSpaces: Substring { Substring(self).trimmingSpaces }
}
