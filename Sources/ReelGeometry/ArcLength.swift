/// Distances along a path: its length, and the point and direction at a distance from its start
/// (text set along a path). Subpaths follow one another without the gaps between them, as SVG's
/// `textPath` measures; a closing segment counts.
import Foundation

public struct ArcLength: Sendable {
    /// One segment as a cubic (a line's controls at its thirds, a quad raised exactly), with its chord
    /// lengths sampled at even steps of t.
    struct Segment: Sendable {
        var p0, p1, p2, p3: Point
        /// Distance from the path's start at each sample; `start` at t = 0.
        var lengths: [Double]
        var start: Double { lengths[0] }
        var end: Double { lengths[lengths.count - 1] }

        func point(_ t: Double) -> Point {
            let u = 1 - t
            return p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)
        }

        func derivative(_ t: Double) -> Point {
            let u = 1 - t
            return (p1 - p0) * (3 * u * u) + (p2 - p1) * (6 * u * t) + (p3 - p2) * (3 * t * t)
        }

        func speed(_ t: Double) -> Double {
            let d = derivative(t)
            return (d.x * d.x + d.y * d.y).squareRoot()
        }

        /// The length from t = a to b: the speed integrated by five-point Gauss–Legendre (exact for a
        /// polynomial of degree 9; the speed, a square root of one of degree 4, is smooth over a step).
        func length(from a: Double, to b: Double) -> Double {
            let nodes = [0.0, 0.5384693101056831, 0.9061798459386640]
            let weights = [0.5688888888888889, 0.4786286704993665, 0.2369268850561891]
            let mid = (a + b) / 2, half = (b - a) / 2
            var sum = weights[0] * speed(mid)
            for k in 1..<3 { sum += weights[k] * (speed(mid - half * nodes[k]) + speed(mid + half * nodes[k])) }
            return sum * half
        }
    }

    /// Most segments measured: a path's drawing is limited elsewhere, this keeps a text's path cheap.
    public static let maximumSegments = 100_000
    /// Most length samples a path keeps (8 bytes each): a path of many curves takes fewer steps a curve.
    public static let maximumSamples = 1 << 18

    let segments: [Segment]
    /// The path's length, in its own units.
    public let length: Double

    /// Measures `path`: each curve in steps of t (more for a longer control polygon, `tolerance` the
    /// scale), each step's length integrated; a distance is found within its step by Newton's method.
    public init(_ path: Path, tolerance: Double = 0.001) {
        var segments: [Segment] = []
        var start = Point.zero, pen = Point.zero, total = 0.0
        // Steps a curve may take: the sample budget shared by the path's elements.
        let share = max(8, Self.maximumSamples / max(path.elements.count, 1))
        /// `line`: controls at the thirds, so t runs evenly along it and one step measures it.
        func add(_ p1: Point, _ p2: Point, _ p3: Point, line: Bool = false) {
            guard segments.count < Self.maximumSegments else { return }
            var s = Segment(p0: pen, p1: p1, p2: p2, p3: p3, lengths: [])
            let polygon = Self.distance(pen, p1) + Self.distance(p1, p2) + Self.distance(p2, p3)
            guard polygon > 0, polygon.isFinite else {
                pen = p3
                return
            }
            // A line needs one step; a curve more the longer its polygon, 8 to 1,024 (each step's length
            // is integrated, so steps only bound how far Newton's method starts from its answer).
            // Held in floating point before it becomes a count: a curve 1e150 long must not trap.
            let wanted = min(Double(min(1024, share)), max(8, (polygon / tolerance).squareRoot().rounded(.up)))
            let steps = line ? 1 : Int(wanted)
            s.lengths.reserveCapacity(steps + 1)
            s.lengths.append(total)
            for i in 1...steps {
                total += s.length(from: Double(i - 1) / Double(steps), to: Double(i) / Double(steps))
                s.lengths.append(total)
            }
            segments.append(s)
            pen = p3
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                start = p
                pen = p
            case .line(let p): add(pen + (p - pen) * (1.0 / 3), pen + (p - pen) * (2.0 / 3), p, line: true)
            case .quad(let c, let p): add(pen + (c - pen) * (2.0 / 3), p + (c - p) * (2.0 / 3), p)
            case .cubic(let c1, let c2, let p): add(c1, c2, p)
            case .close:
                add(pen + (start - pen) * (1.0 / 3), pen + (start - pen) * (2.0 / 3), start, line: true)
                pen = start
            }
        }
        // Lengths past what a double holds (coordinates near 1e154 and beyond) measure nothing.
        self.segments = total.isFinite ? segments : []
        length = total.isFinite ? total : 0
    }

    /// The point `distance` along the path and the direction it heads there (radians from the x axis,
    /// toward y); nil before its start or past its end. Where a segment ends exactly at `distance`,
    /// the segment ending there is used (SVG's rule for a glyph on a corner is not defined; resvg's).
    public func at(_ distance: Double) -> (point: Point, angle: Double)? {
        guard distance >= 0, distance <= length, distance.isFinite, !segments.isEmpty else { return nil }
        // The first segment ending at or past the distance (their ends only grow).
        var first = 0, last = segments.count - 1
        while first < last {
            let mid = (first + last) / 2
            if segments[mid].end < distance { first = mid + 1 } else { last = mid }
        }
        let s = segments[first]
        // The sample interval holding the distance, and t between its ends in proportion.
        var lo = 0, hi = s.lengths.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if s.lengths[mid] < distance { lo = mid } else { hi = mid }
        }
        let steps = Double(s.lengths.count - 1)
        let span = s.lengths[hi] - s.lengths[lo]
        let f = span > 0 ? min(max((distance - s.lengths[lo]) / span, 0), 1) : 0
        let t0 = Double(lo) / steps, t1 = Double(hi) / steps
        // t in proportion to the length within the step, then Newton's steps on the length to it.
        var t = t0 + f * (t1 - t0)
        for _ in 0..<3 {
            let v = s.speed(t)
            guard v > 0 else { break }
            t = min(max(t - (s.lengths[lo] + s.length(from: t0, to: t) - distance) / v, t0), t1)
        }
        var d = s.derivative(t)
        if d.x == 0 && d.y == 0 {
            // A cusp or coincident controls: the direction of the chord around t.
            d = s.point(t1) - s.point(t0)
        }
        return (s.point(t), atan2(d.y, d.x))
    }

    static func distance(_ a: Point, _ b: Point) -> Double {
        ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    }
}
