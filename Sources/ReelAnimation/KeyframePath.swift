/// `CAKeyframeAnimation.path` and `rotationMode`: positions and tangents along a path, linear or paced.
import Foundation
import ReelGeometry

/// `CAKeyframeAnimation.path` (CORE-ANIMATION.md §4.4): the keyframes are the path's start and the end
/// of every element after it (a later move is not one); a point follows each element's own curve
/// parameter within its time slot (linear), or the whole path at constant speed (paced).
public struct KeyframePath: Hashable, Sendable {
    /// Each element as a cubic (p0, c1, c2, p1); a close is a line back to the subpath's start.
    let segments: [(Point, Point, Point, Point)]

    public static func == (a: KeyframePath, b: KeyframePath) -> Bool {
        a.segments.count == b.segments.count
            && zip(a.segments, b.segments).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 && $0.3 == $1.3 }
    }

    public func hash(into h: inout Hasher) {
        for s in segments {
            h.combine(s.0)
            h.combine(s.3)
        }
    }

    public let path: Path

    public init(_ path: Path) {
        self.path = path
        var segs: [(Point, Point, Point, Point)] = []
        var current = Point.zero, start = Point.zero
        for e in path.normalizedToCubics().elements {
            switch e {
            case .move(let p):
                current = p
                start = p
            case .cubic(let c1, let c2, let p):
                segs.append((current, c1, c2, p))
                current = p
            case .close:
                segs.append((current, current + (start - current) * (1.0 / 3), current + (start - current) * (2.0 / 3), start))
                current = start
            default: break
            }
        }
        segments = segs
    }

    public var isEmpty: Bool { segments.isEmpty }

    static func point(_ s: (Point, Point, Point, Point), _ t: Double) -> Point {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return Point(
            x: a * s.0.x + b * s.1.x + c * s.2.x + d * s.3.x, y: a * s.0.y + b * s.1.y + c * s.2.y + d * s.3.y)
    }

    static func tangent(_ s: (Point, Point, Point, Point), _ t: Double) -> Point {
        let u = 1 - t
        let a = 3 * u * u, b = 6 * u * t, c = 3 * t * t
        return Point(
            x: a * (s.1.x - s.0.x) + b * (s.2.x - s.1.x) + c * (s.3.x - s.2.x),
            y: a * (s.1.y - s.0.y) + b * (s.2.y - s.1.y) + c * (s.3.y - s.2.y))
    }

    /// Segment and its parameter at eased progress y: `keyTimes` give the slots (one per keyframe, the
    /// count-mismatch rule of §4.2 applies), else equal slots.
    func locate(_ y: Double, keyTimes: [Double]?) -> (Int, Double) {
        let n = segments.count
        var k = (0...n).map { Double($0) / Double(n) }
        if let given = keyTimes, given.count >= 2, KeyframeAnimation.keyTimesAreValid(given, valueCount: n + 1, mode: .linear) {
            k = Array(given.prefix(n + 1))
        }
        let pairs = k.count
        if y <= k[0] { return (0, 0) }
        if y >= k[pairs - 1] { return (pairs - 2, 1) }
        var i = 0
        while i < pairs - 2 && y >= k[i + 1] { i += 1 }
        let span = k[i + 1] - k[i]
        return (i, span > 0 ? (y - k[i]) / span : 1)
    }

    /// At constant speed: segment and parameter at fraction y of the total length (64 samples per
    /// segment).
    func locatePaced(_ y: Double) -> (Int, Double) {
        var table: [(length: Double, segment: Int, t: Double)] = [(0, 0, 0)]
        var total = 0.0
        for (i, s) in segments.enumerated() {
            var previous = s.0
            for k in 1...64 {
                let t = Double(k) / 64
                let q = Self.point(s, t)
                total += ((q.x - previous.x) * (q.x - previous.x) + (q.y - previous.y) * (q.y - previous.y)).squareRoot()
                table.append((total, i, t))
                previous = q
            }
        }
        guard total > 0 else { return (0, 0) }
        let target = min(max(y, 0), 1) * total
        var j = 1
        while j < table.count - 1 && table[j].length < target { j += 1 }
        let a = table[j - 1], b = table[j]
        let f = b.length > a.length ? (target - a.length) / (b.length - a.length) : 0
        let t0 = a.segment == b.segment ? a.t : 0
        return (b.segment, t0 + (b.t - t0) * f)
    }

    public func position(_ y: Double, keyTimes: [Double]?, paced: Bool) -> (point: Point, tangent: Point) {
        let (i, t) = paced ? locatePaced(y) : locate(y, keyTimes: keyTimes)
        let s = segments[i]
        return (Self.point(s, t), Self.tangent(s, t))
    }
}

/// `rotationMode`: turn the layer along the path's tangent (§4.4).
public enum RotationMode: String, Sendable, CaseIterable {
    case auto
    case autoReverse
}
