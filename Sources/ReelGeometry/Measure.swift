/// Lengths along flattened subpaths, and the pieces of them that trimming (`strokeStart`/`strokeEnd`)
/// and dashing (`lineDashPattern`/`lineDashPhase`) keep.
public enum PathMeasure {
    /// Total length of every subpath, in order, closing pieces included.
    public static func length(_ lines: [Polyline]) -> Double {
        lines.reduce(0) { $0 + $1.length }
    }

    /// The part between fractions `start` and `end` of the total length of all subpaths taken in order
    /// (CORE-ANIMATION.md §9.1): both are confined to 0…1, and nothing is kept when `start ≥ end`.
    public static func trim(_ lines: [Polyline], start: Double, end: Double) -> [Polyline] {
        let s = min(max(start.isNaN ? 0 : start, 0), 1), e = min(max(end.isNaN ? 1 : end, 0), 1)
        if s == 0 && e == 1 { return lines }
        guard s < e else { return [] }
        let total = length(lines)
        return extract(lines, intervals: [(s * total, e * total)])
    }

    /// The "on" intervals of a dash pattern along all subpaths, in the same length coordinates as
    /// `trim` uses. The pattern restarts at each subpath, shifted by `phase` (as Core Graphics does);
    /// an odd-length pattern is repeated to make it even. A pattern with a negative entry or no positive
    /// entry draws solid. More than `maximumDashes` dashes (a pattern far finer than a pixel) also draws
    /// solid, rather than hanging on millions of dashes.
    public static let maximumDashes = 200_000

    public static func dashIntervals(_ lines: [Polyline], pattern: [Double], phase: Double) -> [(Double, Double)]? {
        guard !pattern.isEmpty, pattern.allSatisfy({ $0 >= 0 && $0.isFinite }), pattern.contains(where: { $0 > 0 }),
            phase.isFinite
        else { return nil }
        let p = pattern.count % 2 == 1 ? pattern + pattern : pattern
        let period = p.reduce(0, +)
        var intervals: [(Double, Double)] = []
        var offset = 0.0
        for line in lines {
            let len = line.length
            defer { offset += len }
            guard len > 0 || line.points.count == 1 else { continue }
            if len / period * Double(p.count) > Double(maximumDashes) - Double(intervals.count) { return nil }
            var shift = phase.truncatingRemainder(dividingBy: period)
            if shift < 0 { shift += period }
            // Walk the pattern from `-shift` along this subpath.
            var position = -shift
            var index = 0
            while position <= len {
                let segment = p[index]
                if index % 2 == 0 {
                    let a = max(position, 0), b = min(position + segment, len)
                    if b > a || (segment == 0 && position >= 0 && position <= len) {
                        intervals.append((offset + a, offset + b))
                    }
                }
                position += segment
                index = (index + 1) % p.count
            }
        }
        return intervals
    }

    /// The pieces of `lines` inside the given length intervals (sorted, non-overlapping). A closed
    /// subpath kept whole stays closed; any other piece is open. A zero-length interval keeps a
    /// zero-length piece, so that round and square caps still draw a dot there; it is written as two
    /// points a hair apart along the path, which gives the cap its direction.
    public static func extract(_ lines: [Polyline], intervals: [(Double, Double)], joinAcrossClose: Bool = false) -> [Polyline] {
        var out: [Polyline] = []
        var offset = 0.0
        var k = 0
        for line in lines {
            let len = line.length
            let lineStart = offset, lineEnd = offset + len
            offset = lineEnd
            while k < intervals.count, intervals[k].1 < lineStart { k += 1 }
            var pieces: [Polyline] = []
            var startsAtStart = false, endsAtEnd = false
            var j = k
            while j < intervals.count, intervals[j].0 <= lineEnd {
                let a = max(intervals[j].0, lineStart) - lineStart
                let b = min(intervals[j].1, lineEnd) - lineStart
                if line.closed && a <= 0 && b >= len && len > 0 {
                    pieces.append(line)
                } else if b >= a, let piece = slice(line, from: a, to: b) {
                    if pieces.isEmpty && a <= 0 && b > a { startsAtStart = true }
                    endsAtEnd = b >= len && b > a
                    pieces.append(piece)
                }
                j += 1
            }
            if joinAcrossClose, line.closed, pieces.count > 1, startsAtStart, endsAtEnd {
                // One piece through the closing point: the last piece runs on into the first.
                let first = pieces.removeFirst(), last = pieces.removeLast()
                pieces.append(
                    Polyline(
                        points: last.points + first.points.dropFirst(), corner: last.corner + first.corner.dropFirst(),
                        closed: false))
            }
            out += pieces
        }
        return out
    }

    /// The open piece of one polyline between lengths `a` and `b` from its start.
    static func slice(_ line: Polyline, from a: Double, to b: Double) -> Polyline? {
        var pts = line.points
        var corner = line.corner
        if line.closed, let first = pts.first {
            pts.append(first)
            corner.append(true)
        }
        guard pts.count > 1 else { return pts.isEmpty ? nil : Polyline(points: pts, closed: false) }
        var out: [Point] = []
        var outCorner: [Bool] = []
        var travelled = 0.0
        for i in 1..<pts.count {
            let p = pts[i - 1], q = pts[i]
            let segment = distance(p, q)
            let s0 = travelled, s1 = travelled + segment
            travelled = s1
            guard segment > 0, s1 >= a, s0 <= b else { continue }
            func at(_ s: Double) -> Point {
                let t = min(max((s - s0) / segment, 0), 1)
                return Point(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t)
            }
            if out.isEmpty {
                out.append(at(max(a, s0)))
                outCorner.append(true)
            }
            if s1 <= b {
                if out.last != q {
                    out.append(q)
                    outCorner.append(corner[i])
                }
            } else {
                let e = at(b)
                if out.last != e || out.count == 1 {
                    out.append(e)
                    outCorner.append(true)
                }
                break
            }
        }
        guard !out.isEmpty else { return nil }
        if out.count == 1 || (out.count == 2 && out[0] == out[1]) {
            // Zero length: keep the direction of the path here for the caps.
            let p = out[0]
            var direction = Point(x: 1, y: 0)
            for i in 1..<pts.count where distance(pts[i - 1], pts[i]) > 0 {
                let d = distance(pts[i - 1], pts[i])
                direction = Point(x: (pts[i].x - pts[i - 1].x) / d, y: (pts[i].y - pts[i - 1].y) / d)
                if distanceAlong(pts, upTo: i) >= a { break }
            }
            return Polyline(points: [p, Point(x: p.x + direction.x * 1e-9, y: p.y + direction.y * 1e-9)], closed: false)
        }
        return Polyline(points: out, corner: outCorner, closed: false)
    }

    static func distanceAlong(_ pts: [Point], upTo index: Int) -> Double {
        var s = 0.0
        for i in 1...index { s += distance(pts[i - 1], pts[i]) }
        return s
    }
}
