/// `CAMediaTimingFunction`: a cubic Bézier from (0,0) to (1,1) through two control points, mapping
/// progress x to eased progress y (CORE-ANIMATION.md §2).
public struct TimingFunction: Hashable, Sendable {
    public let c1: (x: Double, y: Double)
    public let c2: (x: Double, y: Double)
    private let ax, bx, cx, ay, by, cy: Double

    public static let linear = TimingFunction(0, 0, 1, 1)
    public static let easeIn = TimingFunction(0.42, 0, 1, 1)
    public static let easeOut = TimingFunction(0, 0, 0.58, 1)
    public static let easeInEaseOut = TimingFunction(0.42, 0, 0.58, 1)
    /// The curve Core Animation uses for its own implicit animations.
    public static let `default` = TimingFunction(0.25, 0.1, 0.25, 1)

    /// The five named curves, by Core Animation's names, and `easeInOut` (SwiftUI's and CSS's name for
    /// `easeInEaseOut`).
    public static let named: [String: TimingFunction] = [
        "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut, "easeInEaseOut": .easeInEaseOut, "easeInOut": .easeInEaseOut,
        "default": .default,
    ]

    public init(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
        let x1 = Self.clampControlX(c1x), x2 = Self.clampControlX(c2x)
        c1 = (x1, c1y)
        c2 = (x2, c2y)
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * c1y
        by = 3 * (c2y - c1y) - cy
        ay = 1 - cy - by
    }

    /// UNCONFIRMED (CORE-ANIMATION.md §2, "Range"): control point x values are clamped into [0, 1], so
    /// x(t) stays monotonic and the curve is a function of x.
    static func clampControlX(_ x: Double) -> Double { x.isNaN ? 0 : min(max(x, 0), 1) }

    public static func == (a: TimingFunction, b: TimingFunction) -> Bool {
        a.c1 == b.c1 && a.c2 == b.c2
    }

    public func hash(into h: inout Hasher) {
        h.combine(c1.x)
        h.combine(c1.y)
        h.combine(c2.x)
        h.combine(c2.y)
    }

    public var isLinear: Bool { c1.x == c1.y && c2.x == c2.y }

    @inline(__always) func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inline(__always) func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inline(__always) func slopeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// Tolerance of the solve: x(t) is matched to 1e-7 (§2, "Tolerance").
    public static let epsilon = 1e-7

    /// y at progress x. Outside [0, 1] the curve continues along its end tangents (as WebKit does).
    public func callAsFunction(_ x: Double) -> Double {
        if isLinear { return x }
        if x <= 0 {
            let slope = c1.x > 0 ? c1.y / c1.x : (c2.x > 0 ? c2.y / c2.x : 0)
            return x * slope
        }
        if x >= 1 {
            let slope = c2.x < 1 ? (c2.y - 1) / (c2.x - 1) : (c1.x < 1 ? (c1.y - 1) / (c1.x - 1) : 0)
            return 1 + (x - 1) * slope
        }
        return sampleY(solve(x))
    }

    /// t with x(t) = x: Newton from t = x, then bisection on [0, 1] if Newton stalls.
    func solve(_ x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let e = sampleX(t) - x
            if abs(e) < Self.epsilon { return t }
            let d = slopeX(t)
            if abs(d) < 1e-6 { break }
            t -= e / d
        }
        var lo = 0.0, hi = 1.0
        t = x
        while lo < hi {
            let v = sampleX(t)
            if abs(v - x) < Self.epsilon { return t }
            if x > v { lo = t } else { hi = t }
            let next = (hi - lo) / 2 + lo
            if next == t { break }
            t = next
        }
        return t
    }
}
