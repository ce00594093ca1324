/// `CAKeyframeAnimation`: key times, the calculation modes (linear, discrete, paced, cubic,
/// cubicPaced), and positions along a `path`.
import Foundation
import ReelGeometry

/// `CAKeyframeAnimation` over `values` (CORE-ANIMATION.md §4; paths and `rotationMode` come later).
public struct KeyframeAnimation: Hashable, Sendable {
    public enum CalculationMode: String, Sendable, CaseIterable {
        case linear, discrete, paced, cubic, cubicPaced
    }

    public var keyPath: String
    public var values: [AnimatableValue]
    public var keyTimes: [Double]?
    /// One per segment; missing ones are linear.
    public var timingFunctions: [TimingFunction] = []
    public var calculationMode: CalculationMode = .linear
    public var tensionValues: [Double] = []
    public var continuityValues: [Double] = []
    public var biasValues: [Double] = []
    public var timing: MediaTiming
    public var timingFunction: TimingFunction = .linear
    public var isAdditive = false
    public var isCumulative = false
    /// Overrides `values` when set (points only).
    public var path: KeyframePath?
    public var rotationMode: RotationMode?

    public init(keyPath: String, values: [AnimatableValue], keyTimes: [Double]? = nil, timing: MediaTiming = MediaTiming()) {
        self.keyPath = keyPath
        self.values = values
        self.keyTimes = keyTimes
        self.timing = timing
    }

    /// Whether `keyTimes` can be used (§4.2): each in [0, 1] and none smaller than the one before.
    /// See `keyTimesMayStopShortOfTheEnds` for the ends.
    public static func keyTimesAreValid(_ k: [Double], valueCount n: Int, mode: CalculationMode) -> Bool {
        guard !k.isEmpty else { return false }
        for (i, t) in k.enumerated() where !(t >= 0 && t <= 1) || (i > 0 && t < k[i - 1]) { return false }
        return keyTimesMayStopShortOfTheEnds || (k.first == 0 && k.last == 1)
    }

    /// UNCONFIRMED (CORE-ANIMATION.md §4.2 asks for a first 0 and a last 1; REFERENCE-ANIMATIONS.md's
    /// StarButton uses [0, 0.4, 0.6] and relies on the last value holding from 0.6 on): key times that
    /// start after 0 or end before 1 are kept, and the end values hold outside them, as Lottie pads.
    public static let keyTimesMayStopShortOfTheEnds = true

    /// The key times in force (§4.2): given ones when valid — with a count that differs from the values,
    /// the first min(counts) are paired (UNCONFIRMED) — else evenly spaced.
    public func effectiveKeyTimes() -> [Double] {
        let n = values.count
        if let k = keyTimes, Self.keyTimesAreValid(k, valueCount: n, mode: calculationMode) {
            return k
        }
        return Self.defaultKeyTimes(count: n, mode: calculationMode)
    }

    /// UNCONFIRMED (CORE-ANIMATION.md §4.2): without valid key times, linear and cubic use i/(n−1) and
    /// discrete i/n.
    static func defaultKeyTimes(count n: Int, mode: CalculationMode) -> [Double] {
        guard n > 1 else { return [0] }
        if mode == .discrete { return (0..<n).map { Double($0) / Double(n) } }
        return (0..<n).map { Double($0) / Double(n - 1) }
    }

    public func value(at t: Double, model: AnimatableValue) -> AnimatableValue? {
        if let path, !path.isEmpty {
            guard let (p, _) = timing.progressAndCycle(atParentTime: t) else { return nil }
            return .point(pathPosition(p).point)
        }
        guard !values.isEmpty, let (p, cycle) = timing.progressAndCycle(atParentTime: t) else { return nil }
        guard var v = value(atProgress: p) else { return nil }
        if isCumulative && cycle > 0, let last = values.last {
            v = AnimatableValue.adding(v, BasicAnimation.cumulativeStep(from: values[0], to: last).scaled(by: Double(cycle))) ?? v
        }
        return v
    }

    /// Position and tangent on the path at basic progress p: paced modes ignore the timing functions
    /// and key times; the others ease with the animation's function and use key times per element.
    func pathPosition(_ p: Double) -> (point: Point, tangent: Point) {
        guard let path else { return (.zero, .zero) }
        let paced = calculationMode == .paced || calculationMode == .cubicPaced
        return path.position(paced ? p : timingFunction(p), keyTimes: keyTimes, paced: paced)
    }

    /// The rotation `rotationMode` adds at parent time t: the tangent's angle (θ + π for autoReverse),
    /// or nil. UNCONFIRMED (§4.4): where the tangent is zero, the angle just before is kept.
    public func rotation(at t: Double) -> Double? {
        guard let mode = rotationMode, path != nil, let (p, _) = timing.progressAndCycle(atParentTime: t) else { return nil }
        var probe = p
        var tangent = pathPosition(probe).tangent
        var steps = 0
        while tangent.x == 0 && tangent.y == 0 && probe > 0 && steps < 1000 {
            probe = max(0, probe - 0.001)
            tangent = pathPosition(probe).tangent
            steps += 1
        }
        let theta = atan2(tangent.y, tangent.x)
        return mode == .autoReverse ? theta + Double.pi : theta
    }

    /// The value at basic progress p (§4.1).
    public func value(atProgress p: Double) -> AnimatableValue? {
        let n = values.count
        if n == 1 { return values[0] }
        switch calculationMode {
        case .paced:
            return interpolateLinear(p, keyTimes: pacedKeyTimes())
        case .cubicPaced:
            return cubicPaced(p)
        case .discrete:
            let y = timingFunction(p)
            let k = effectiveKeyTimes()
            var j = 0
            for (i, kt) in k.enumerated() where kt <= y { j = i }
            return values[min(j, n - 1)]
        case .linear:
            return interpolateLinear(timingFunction(p), keyTimes: effectiveKeyTimes(), perSegment: true)
        case .cubic:
            let y = timingFunction(p)
            let (i, s) = segment(y, keyTimes: effectiveKeyTimes(), perSegment: true)
            return hermite(i, s)
        }
    }

    /// Segment i and local s for eased progress y (§4.1 steps 2–4).
    func segment(_ y: Double, keyTimes k: [Double], perSegment: Bool) -> (Int, Double) {
        let pairs = min(k.count, values.count)
        guard pairs > 1 else { return (0, 1) }
        var i = 0
        while i < pairs - 2 && y >= k[i + 1] { i += 1 }
        if y < k[0] { return (0, 0) }
        if y >= k[pairs - 1] { return (pairs - 2, 1) }
        let span = k[i + 1] - k[i]
        var s = span > 0 ? (y - k[i]) / span : 1
        if perSegment && i < timingFunctions.count { s = timingFunctions[i](s) }
        return (i, s)
    }

    func interpolateLinear(_ y: Double, keyTimes k: [Double], perSegment: Bool = false) -> AnimatableValue? {
        let pairs = min(k.count, values.count)
        // Past the last paired key time the last paired value holds (StarButton's [0, 0.4, 0.6]).
        if pairs < 2 { return values[0] }
        let (i, s) = segment(y, keyTimes: k, perSegment: perSegment)
        return AnimatableValue.interpolate(values[i], values[i + 1], s)
    }

    /// §4.3 paced: key times proportional to the distance between values; uniform if it is all zero.
    func pacedKeyTimes() -> [Double] {
        let n = values.count
        let lengths = (0..<(n - 1)).map { AnimatableValue.distance(values[$0], values[$0 + 1]) }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return Self.defaultKeyTimes(count: n, mode: .linear) }
        var k = [0.0]
        for l in lengths { k.append(k.last! + l / total) }
        k[n - 1] = 1
        return k
    }

    /// Kochanek–Bartels segment i at s (§4.3 cubic), with end tangents from repeated end values.
    func hermite(_ i: Int, _ s: Double) -> AnimatableValue? {
        let n = values.count
        func v(_ j: Int) -> AnimatableValue { values[min(max(j, 0), n - 1)] }
        func param(_ a: [Double], _ j: Int) -> Double { j < a.count ? a[j] : 0 }
        func tangents(_ j: Int) -> (incoming: AnimatableValue?, outgoing: AnimatableValue?) {
            let t = param(tensionValues, j), c = param(continuityValues, j), b = param(biasValues, j)
            guard let back = AnimatableValue.subtracting(v(j), v(j - 1)), let fwd = AnimatableValue.subtracting(v(j + 1), v(j))
            else {
                return (nil, nil)
            }
            let ds = AnimatableValue.combine([((1 - t) * (1 + b) * (1 - c) / 2, back), ((1 - t) * (1 - b) * (1 + c) / 2, fwd)])
            let dd = AnimatableValue.combine([((1 - t) * (1 + b) * (1 + c) / 2, back), ((1 - t) * (1 - b) * (1 - c) / 2, fwd)])
            return (ds, dd)
        }
        guard let dd = tangents(i).outgoing, let ds = tangents(i + 1).incoming else { return nil }
        let s2 = s * s, s3 = s2 * s
        return AnimatableValue.combine([
            (2 * s3 - 3 * s2 + 1, v(i)), (s3 - 2 * s2 + s, dd), (-2 * s3 + 3 * s2, v(i + 1)), (s3 - s2, ds),
        ])
    }

    /// §4.3 cubicPaced: the cubic spline re-parameterised by arc length (32 samples per segment).
    func cubicPaced(_ p: Double) -> AnimatableValue? {
        let segments = values.count - 1
        let samples = 32
        var table: [(length: Double, segment: Int, s: Double)] = [(0, 0, 0)]
        var total = 0.0
        var previous = values[0]
        for i in 0..<segments {
            for k in 1...samples {
                let s = Double(k) / Double(samples)
                guard let q = hermite(i, s) else { return nil }
                total += AnimatableValue.distance(previous, q)
                table.append((total, i, s))
                previous = q
            }
        }
        guard total > 0 else { return values[0] }
        let target = min(max(p, 0), 1) * total
        var j = 1
        while j < table.count - 1 && table[j].length < target { j += 1 }
        let a = table[j - 1], b = table[j]
        let f = b.length > a.length ? (target - a.length) / (b.length - a.length) : 0
        let s = b.segment == a.segment ? a.s + (b.s - a.s) * f : b.s * f
        return hermite(b.segment, s)
    }
}
