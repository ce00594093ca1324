/// Lottie's animatable properties: a static value or keyframes (with per-segment Bézier easing, holds
/// and spatial tangents), evaluated at a frame, and turned into Core Animation keyframe animations —
/// `keyTimes` and one cubic timing function per segment, holds as steps — or, where a case does not map
/// (per-dimension easing, spatial Bézier motion), keyed at every frame of the file.
import Foundation
import ReelAnimation
import ReelGeometry

/// Lottie frames (of one layer's own time) to scene seconds: seconds = scale · frame + offset.
struct TimeMap {
    var scale: Double
    var offset: Double
    /// What the whole import may still key at every frame (shared by every map made from this one).
    var budget = SampleBudget()

    func seconds(_ frame: Double) -> Double { scale * frame + offset }

    /// A keyframe animation of `values` at `frames` (increasing), `functions` one per segment, over the
    /// scene seconds those frames map to, holding its first and last values outside them; nil when the
    /// frames span no time.
    func keyframed(_ keyPath: String, frames: [Double], values: [AnimatableValue], functions: [TimingFunction] = [])
        -> KeyframeAnimation?
    {
        guard let first = frames.first, let last = frames.last else { return nil }
        let begin = seconds(first), end = seconds(last)
        guard end > begin else { return nil }
        var a = KeyframeAnimation(
            keyPath: keyPath, values: values, keyTimes: frames.map { (seconds($0) - begin) / (end - begin) },
            timing: MediaTiming(beginTime: begin, duration: end - begin, fillMode: .both, removedOnCompletion: false))
        a.timingFunctions = functions
        return a
    }

    /// Every frame from `first` to `last` (at most `LottieLimits.maximumSampledFrames` steps), both ends
    /// included: where a value is keyed when its keyframes do not map.
    /// Each frame costs `weight` of the import's budget (a path's elements, say); once it is spent, what
    /// is left is keyed at its two ends only.
    func everyFrame(from first: Double, to last: Double, weight: Int = 1) -> [Double] {
        var count = sampleCount(from: first, to: last)
        if !budget.spend((count + 1) * max(weight, 1)) { count = 1 }
        return (0...count).map { min(first + Double($0) * (last - first) / Double(count), last) }
    }

    /// A layer's time inside this one: its frames are `stretch` times as long and start at `start`.
    func inner(start: Double, stretch: Double) -> TimeMap {
        TimeMap(scale: scale * stretch, offset: offset + scale * start, budget: budget)
    }
}

/// How many values an import may key at every frame, in all: a file's keyframes are bounded, but
/// keying each of 200,000 items at each of 100,000 frames would not be.
final class SampleBudget {
    static let total = 4_000_000
    private(set) var remaining: Int
    private(set) var exhausted = false

    init(_ total: Int = SampleBudget.total) { remaining = total }

    /// Takes `cost` if there is that much left.
    func spend(_ cost: Int) -> Bool {
        guard cost <= remaining else {
            exhausted = true
            return false
        }
        remaining -= cost
        return true
    }
}

/// A property's value over time.
extension Property {
    /// The segment's easing in dimension `d`: out of keyframe k, into k + 1 (linear without handles).
    static func easing(_ a: Keyframe, _ b: Keyframe, dimension d: Int) -> TimingFunction {
        guard let o = a.easeOut, let i = a.easeIn ?? b.easeIn else { return .linear }
        func pick(_ list: [Double]) -> Double { list[min(d, list.count - 1)] }
        return TimingFunction(pick(o.x), pick(o.y), pick(i.x), pick(i.y))
    }

    /// Whether segment k eases every dimension alike (one timing function can stand for it).
    static func easesAlike(_ a: Keyframe, _ b: Keyframe, dimensions n: Int) -> Bool {
        let first = easing(a, b, dimension: 0)
        return (1..<max(n, 1)).allSatisfy { easing(a, b, dimension: $0) == first }
    }

    static func isSpatial(_ a: Keyframe) -> Bool {
        (a.tangentOut?.contains { $0 != 0 } ?? false) || (a.tangentIn?.contains { $0 != 0 } ?? false)
    }

    /// The value at a frame of the property's own time.
    func value(at frame: Double) -> [Double] {
        guard isAnimated, let first = keyframes.first, let last = keyframes.last else { return value }
        if frame <= first.frame { return first.value }
        if frame >= last.frame { return last.value }
        var k = 0
        while k + 1 < keyframes.count - 1 && keyframes[k + 1].frame <= frame { k += 1 }
        let a = keyframes[k], b = keyframes[k + 1]
        if a.hold || b.frame <= a.frame { return a.value }
        let p = (frame - a.frame) / (b.frame - a.frame)
        let n = min(a.value.count, b.value.count)
        if Self.isSpatial(a), n >= 2 {
            let e = Self.easing(a, b, dimension: 0)(p)
            let point = Self.alongCurve(a, b, fraction: e)
            return [point.x, point.y] + (2..<n).map { a.value[$0] + (b.value[$0] - a.value[$0]) * e }
        }
        return (0..<n).map { d in
            let e = Self.easing(a, b, dimension: d)(p)
            return a.value[d] + (b.value[d] - a.value[d]) * e
        }
    }

    /// The point a fraction of the way along a spatial segment's cubic, by arc length (as After Effects
    /// moves a layer along its motion path).
    static func alongCurve(_ a: Keyframe, _ b: Keyframe, fraction: Double) -> Point {
        let p0 = Point(x: a.value[0], y: a.value[1]), p3 = Point(x: b.value[0], y: b.value[1])
        let to = a.tangentOut ?? [0, 0], ti = a.tangentIn ?? [0, 0]
        let p1 = Point(x: p0.x + (to.first ?? 0), y: p0.y + (to.count > 1 ? to[1] : 0))
        let p2 = Point(x: p3.x + (ti.first ?? 0), y: p3.y + (ti.count > 1 ? ti[1] : 0))
        func at(_ t: Double) -> Point {
            let u = 1 - t
            return Point(
                x: u * u * u * p0.x + 3 * u * u * t * p1.x + 3 * u * t * t * p2.x + t * t * t * p3.x,
                y: u * u * u * p0.y + 3 * u * u * t * p1.y + 3 * u * t * t * p2.y + t * t * t * p3.y)
        }
        let steps = 64
        var lengths = [0.0]
        var previous = p0
        for s in 1...steps {
            let q = at(Double(s) / Double(steps))
            lengths.append(lengths[s - 1] + hypot(q.x - previous.x, q.y - previous.y))
            previous = q
        }
        let total = lengths[steps]
        guard total > 0 else { return at(fraction) }
        let target = fraction * total
        // Extrapolated for overshooting easing (fraction outside 0…1) along the end tangents.
        if target <= 0 { return at(0) + (at(1.0 / Double(steps)) - at(0)) * (target / max(lengths[1], 1e-12)) }
        if target >= total {
            let tail = at(1) - at(1 - 1.0 / Double(steps))
            return at(1) + tail * ((target - total) / max(lengths[steps] - lengths[steps - 1], 1e-12))
        }
        var s = 1
        while lengths[s] < target { s += 1 }
        let f = (target - lengths[s - 1]) / max(lengths[s] - lengths[s - 1], 1e-12)
        return at((Double(s - 1) + f) / Double(steps))
    }

    /// The property as a Core Animation keyframe animation on `keyPath` (nil when it is not animated):
    /// its keyframes' values at their times, one timing function per segment, a hold as a step; keyed
    /// at every frame instead where easing differs between dimensions or the motion is spatial.
    func animation(_ keyPath: String, _ time: TimeMap, _ make: ([Double]) -> AnimatableValue) -> Animation? {
        guard isAnimated, let first = keyframes.first, let last = keyframes.last, last.frame > first.frame else { return nil }
        let n = keyframes.map(\.value.count).min() ?? 0
        let maps = zip(keyframes, keyframes.dropFirst()).allSatisfy { a, b in
            a.hold || (Self.easesAlike(a, b, dimensions: n) && !(n >= 2 && Self.isSpatial(a)))
        }
        var times: [Double] = [], values: [AnimatableValue] = [], functions: [TimingFunction] = []
        if maps {
            for (k, kf) in keyframes.enumerated() {
                times.append(kf.frame)
                values.append(make(kf.value))
                guard k + 1 < keyframes.count else { break }
                let next = keyframes[k + 1]
                if kf.hold {
                    // Held until the next keyframe, which it meets a thousandth of a frame early (so that a
                    // frame at 43.9999999 shows the new value, as at 44).
                    times.append(max(next.frame - 0.001, kf.frame))
                    values.append(make(kf.value))
                    functions += [.linear, .linear]
                } else {
                    functions.append(Self.easing(kf, next, dimension: 0))
                }
            }
        } else {
            times = time.everyFrame(from: first.frame, to: last.frame)
            values = times.map { make(value(at: $0)) }
        }
        return time.keyframed(keyPath, frames: times, values: values, functions: functions).map { .keyframe($0) }
    }
}
