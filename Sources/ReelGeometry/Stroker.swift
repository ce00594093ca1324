/// Stroking: Core Animation's stroke properties, and a path (trimmed and dashed) turned into an
/// outline that fills with the non-zero rule.
import Foundation

public enum LineCap: String, Sendable, CaseIterable { case butt, round, square }
public enum LineJoin: String, Sendable, CaseIterable { case miter, round, bevel }

/// How a path is stroked: Core Animation's properties and defaults (CORE-ANIMATION.md §9.1).
public struct StrokeStyle: Hashable, Sendable {
    public var lineWidth: Double = 1
    public var lineCap: LineCap = .butt
    public var lineJoin: LineJoin = .miter
    public var miterLimit: Double = 10
    public var lineDashPattern: [Double] = []
    public var lineDashPhase: Double = 0
    public var strokeStart: Double = 0
    public var strokeEnd: Double = 1

    public init(lineWidth: Double = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter, miterLimit: Double = 10) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
    }
}

/// Turns a path into the outline of its stroke.
///
/// The outline is a union of simple pieces — one quadrilateral per straight piece, one polygon per
/// join and per cap — each turned the same way round. Filled with the non-zero rule every point of
/// the stroke has a winding of at least one, so overlaps (inner sides of joins, self-crossing paths,
/// near-cusps) stay whole instead of cancelling out.
public enum Stroker {
    /// The stroke outline of `path` in the same coordinates, flattened to `tolerance`.
    public static func outline(_ path: Path, style: StrokeStyle, tolerance: Double = defaultFlatteningTolerance) -> Path {
        var out = Path()
        stroke(path, style: style, tolerance: tolerance, into: &out)
        return out
    }

    /// The same outline as polygons, for a rasterizer to place (`StrokeOutline.edges`).
    public static func polygons(
        _ path: Path, style: StrokeStyle, tolerance: Double = defaultFlatteningTolerance
    ) -> StrokeOutline {
        var out = StrokeOutline()
        stroke(path, style: style, tolerance: tolerance, into: &out)
        out.close()
        return out
    }

    static func stroke<Sink: OutlineSink>(_ path: Path, style: StrokeStyle, tolerance: Double, into out: inout Sink) {
        guard style.lineWidth > 0, style.lineWidth.isFinite else { return }
        let trimmed = style.strokeStart > 0 || style.strokeEnd < 1
        let dashed = !style.lineDashPattern.isEmpty
        // Lengths are measured on the flattened path, whose chords are shorter than the curve: at a
        // tenth of the tolerance a circle's length comes out 0.001 % short instead of 0.1 %, so dashes
        // and trim ends land within a hundredth of a pixel of where the true curve puts them.
        var lines = path.polylines(tolerance: trimmed || dashed ? tolerance / 10 : tolerance)
        if let dashes = PathMeasure.dashIntervals(lines, pattern: style.lineDashPattern, phase: style.lineDashPhase) {
            var keep = dashes
            if trimmed {
                // Dashes are measured along the whole path, so trimming does not slide them
                // (UNCONFIRMED, CORE-ANIMATION.md §9.1: see `dashesMeasuredFromPathStart`).
                keep = intersect(dashes, with: trimRange(lines, style))
            }
            lines = PathMeasure.extract(lines, intervals: keep, joinAcrossClose: dashesJoinAcrossClose)
        } else if trimmed {
            lines = PathMeasure.trim(lines, start: style.strokeStart, end: style.strokeEnd)
        }
        // About two outline points a polyline point (one each side); joins, caps and round pieces add
        // more, which the outline then grows for.
        out.reserve(lines.reduce(16) { $0 + 2 * $1.points.count })
        for line in lines { strokePolyline(line, style: style, tolerance: tolerance, into: &out) }
    }

    /// UNCONFIRMED (CORE-ANIMATION.md §9.1): dashes are laid out from the start of the full path and
    /// trimming then cuts them, so animating `strokeEnd` does not make dashes slide.
    public static let dashesMeasuredFromPathStart = true

    /// UNCONFIRMED (CORE-ANIMATION.md §9.1 leaves it open): on a closed subpath, a dash that runs
    /// through the closing point is one dash, joined there, rather than two dashes with caps — as
    /// PostScript, Skia and, by all appearances, Core Graphics draw it.
    public static let dashesJoinAcrossClose = true

    static func trimRange(_ lines: [Polyline], _ style: StrokeStyle) -> (Double, Double) {
        let total = PathMeasure.length(lines)
        let s = min(max(style.strokeStart, 0), 1), e = min(max(style.strokeEnd, 0), 1)
        return (s * total, e * total)
    }

    static func intersect(_ intervals: [(Double, Double)], with range: (Double, Double)) -> [(Double, Double)] {
        guard range.0 < range.1 else { return [] }
        return intervals.compactMap { iv in
            let a = max(iv.0, range.0), b = min(iv.1, range.1)
            return b >= a && !(b == a && iv.1 > iv.0) ? (a, b) : nil
        }
    }

    static func strokePolyline<Sink: OutlineSink>(_ line: Polyline, style: StrokeStyle, tolerance: Double, into out: inout Sink) {
        let hw = style.lineWidth / 2
        var pts: [Point]
        var corner: [Bool]
        if Self.isDeduplicated(line) {
            // Most polylines (all that `Path.polylines` makes) have no repeated points: their arrays are
            // shared, not copied.
            pts = line.points
            corner = line.corner
        } else {
            pts = []
            corner = []
            pts.reserveCapacity(line.points.count)
            corner.reserveCapacity(line.points.count)
            for (p, c) in zip(line.points, line.corner) {
                if pts.last == p {
                    corner[corner.count - 1] = corner[corner.count - 1] || c  // repeated points have no direction
                } else {
                    pts.append(p)
                    corner.append(c)
                }
            }
            if line.closed, pts.count > 1, pts.first == pts.last {
                pts.removeLast()
                corner.removeLast()
            }
        }
        guard pts.count > 1 else {
            // A zero-length subpath: round and square caps still draw a dot (square aligned with x).
            if let p = pts.first {
                switch style.lineCap {
                case .round: addPiece(circle(p, hw, tolerance / 4), to: &out)
                case .square:
                    addPiece(
                        [
                            Point(x: p.x - hw, y: p.y - hw), Point(x: p.x + hw, y: p.y - hw), Point(x: p.x + hw, y: p.y + hw),
                            Point(x: p.x - hw, y: p.y + hw),
                        ],
                        to: &out)
                case .butt: break
                }
            }
            return
        }
        var builder = OutlineBuilder(
            points: pts, corner: corner, closed: line.closed && pts.count > 2, style: style, tolerance: tolerance)
        builder.build(into: &out)
    }

    /// Whether `line` is already what `strokePolyline`'s clean-up makes of it: a flag for every point, no
    /// point equal (`==`) to the one before, and a closed line not ending where it starts.
    static func isDeduplicated(_ line: Polyline) -> Bool {
        let points = line.points
        guard line.corner.count == points.count else { return false }
        if line.closed, points.count > 1, points.first == points.last { return false }
        var i = 1
        while i < points.count {
            if points[i] == points[i - 1] { return false }
            i += 1
        }
        return true
    }

    /// Round caps, joins and dots are drawn at a quarter of the flattening tolerance: they are small,
    /// and on a small circle a coarse polygon shifts coverage between its edge pixels visibly.
    /// A circle as a regular polygon within `tolerance` of it, its vertices pushed out just enough that
    /// the polygon's area equals the circle's (πr²), so round caps, joins and dots carry the right ink.
    static func circle(_ c: Point, _ r: Double, _ tolerance: Double) -> [Point] {
        circle(around: c, offsets: circleOffsets(r, tolerance))
    }

    /// `circle`'s vertices about the origin: a stroke's round joins are all the same circle, so its
    /// cosines and sines are worked out once (`OutlineBuilder.roundJoin`) rather than at every join.
    static func circleOffsets(_ r: Double, _ tolerance: Double) -> [Point] {
        guard r > 0 else { return [] }
        let step = r > tolerance ? 2 * acos(1 - tolerance / r) : Double.pi / 4
        let n = min(1024, max(8, Int((2 * Double.pi / step).rounded(.up))))
        let polygonArea = Double(n) / 2 * sin(2 * Double.pi / Double(n))  // for unit circumradius
        let R = r * (Double.pi / polygonArea).squareRoot()
        return (0..<n).map { i in
            let a = Double(i) * 2 * Double.pi / Double(n)
            return Point(x: R * cos(a), y: R * sin(a))
        }
    }

    /// The circle's vertices about `c`: each offset added to the centre, the same sums `circle` made
    /// when it worked out R · cos a and R · sin a in place.
    static func circle(around c: Point, offsets: [Point]) -> [Point] {
        offsets.map { Point(x: c.x + $0.x, y: c.y + $0.y) }
    }

    /// Points of a circular arc, ends on the circle and inner points pushed out just enough that the fan
    /// from the centre has the sector's exact area (½r²θ): with k pieces of angle φ that area is
    /// ½ sin φ (2rR + (k−2)R²), solved here for R.
    static func arc(
        center c: Point, radius r: Double, from a0: Double, sweep: Double, tolerance: Double, into out: inout [Point]
    ) {
        let step = r > tolerance ? 2 * acos(1 - tolerance / r) : Double.pi / 4
        let k = max(2, Int((abs(sweep) / step).rounded(.up)))
        let phi = abs(sweep) / Double(k)
        let target = r * r * abs(sweep) / sin(phi)
        let R: Double
        if k == 2 {
            R = target / (2 * r)
        } else {
            let a = Double(k - 2), b = 2 * r
            R = (-b + (b * b + 4 * a * target).squareRoot()) / (2 * a)
        }
        for i in 0...k {
            let t = a0 + sweep * Double(i) / Double(k)
            let radius = (i == 0 || i == k) ? r : R
            out.append(Point(x: c.x + radius * cos(t), y: c.y + radius * sin(t)))
        }
    }

    /// Adds a join, cap or dot as a closed subpath turned the same way round as the outline of a stroke
    /// body (negative signed area in y-down coordinates), so every piece adds winding of one sign.
    static func addPiece<Sink: OutlineSink>(_ polygon: [Point], to out: inout Sink) {
        guard polygon.count > 2 else { return }
        var area = 0.0
        for i in 0..<polygon.count {
            let a = polygon[i], b = polygon[i + 1 == polygon.count ? 0 : i + 1]
            area += a.x * b.y - b.x * a.y
        }
        guard area != 0 else { return }
        if area < 0 { addPolygon(polygon, to: &out) } else { addPolygon(polygon.reversed(), to: &out) }
    }

    /// Generic over the collection, so a side written backwards is walked backwards (`reversed()`)
    /// rather than copied into an array first.
    static func addPolygon<Sink: OutlineSink, Points: Collection<Point>>(_ polygon: Points, to out: inout Sink) {
        guard polygon.count > 2, let first = polygon.first else { return }
        out.begin(first)
        for q in polygon.dropFirst() { out.add(q) }
        out.close()
    }
}

/// Builds the outline of one flattened subpath: runs of the stroke body as single polygons (side A
/// forward, side B back), with the inner side of each turn at the crossing of the two offset lines
/// and the outer side shaped by the join. Where the crossing does not exist within the neighbouring
/// pieces (a turn too sharp for segments that short: tight curvature, near-cusps, U-turns), the run
/// ends there and the join is added as a separate piece; only there can coverage be counted twice
/// along an anti-aliased edge.
struct OutlineBuilder {
    let pts: [Point]
    let corner: [Bool]
    let closed: Bool
    let style: StrokeStyle
    let hw: Double
    let tolerance: Double
    var directions: [Point] = []
    var lengths: [Double] = []
    /// The points of every round join's arc on a side (`Side.arc`), held here so that a vertex is a
    /// plain value: an array in a vertex made each copy and destruction of one a call (with a
    /// retain), and they were a tenth of a stroke.
    var arcs: [Point] = []
    /// `Stroker.circleOffsets` for this stroke's round join pieces, made at the first one.
    var roundJoin: [Point]? = nil

    init(points: [Point], corner: [Bool], closed: Bool, style: StrokeStyle, tolerance: Double) {
        self.pts = points
        self.corner = corner
        self.closed = closed
        self.style = style
        self.hw = style.lineWidth / 2
        self.tolerance = tolerance
        let n = points.count
        directions.reserveCapacity(n)
        lengths.reserveCapacity(n)
        for s in 0..<(closed ? n : n - 1) {
            let a = points[s], b = points[s + 1 == n ? 0 : s + 1]
            let d = distance(a, b)
            directions.append(Point(x: (b.x - a.x) / d, y: (b.y - a.y) / d))
            lengths.append(d)
        }
    }

    // Indices here wrap by a test, not `%`: each `%` is a 64-bit division, and a vertex's loads waited
    // on two (butterfly_stroke 1.02× without them, alternating runs).

    /// The segment that ends at vertex v (0 ≤ v < n; 0 < v on an open polyline): before vertex 0 of a
    /// closed one, its closing segment.
    @inline(__always) func segment(before v: Int) -> Int { v == 0 ? directions.count - 1 : v - 1 }

    /// The segment that starts at vertex v (0 ≤ v < n; v < n − 1 on an open polyline): v, wrapped to 0
    /// past the last segment as `%` did.
    @inline(__always) func segment(after v: Int) -> Int { v == directions.count ? 0 : v }

    /// Left-hand normal (−dy, dx) of segment s, scaled to the half width.
    func normal(_ s: Int) -> Point { Point(x: -directions[s].y * hw, y: directions[s].x * hw) }

    enum Vertex {
        case straight
        /// The body continues through the vertex: points for side A and side B.
        case through(a: Side, b: Side)
        /// The body ends here; a separate join piece covers the turn.
        case breakWith(LineJoin)
    }

    /// One side's points at a vertex: one (the inner crossing, a miter), two (a bevel) or an arc (its
    /// points in `arcs`). Held inline: an array per vertex was most of a stroke's allocations.
    enum Side {
        case one(Point)
        case two(Point, Point)
        case arc(Range<Int>)

        func append(to side: inout [Point], arcs: [Point]) {
            switch self {
            case .one(let p): side.append(p)
            case .two(let p, let q):
                side.append(p)
                side.append(q)
            case .arc(let range): side.append(contentsOf: arcs[range])
            }
        }
    }

    mutating func vertex(_ v: Int) -> Vertex {
        let s0 = segment(before: v), s1 = segment(after: v)
        let d0 = directions[s0], d1 = directions[s1]
        let cross = d0.x * d1.y - d0.y * d1.x
        let dot = d0.x * d1.x + d0.y * d1.y
        if abs(cross) < 1e-12 && dot > 0 { return .straight }
        var join = style.lineJoin
        var limit = style.miterLimit
        if !corner[v] {
            // Inside a flattened curve: a tiny turn, except at a near-cusp where a round join keeps
            // the stroke whole.
            join = dot > cos(10 * Double.pi / 180) ? .miter : .round
            limit = .infinity
        }
        guard dot > -1 + 1e-9 else { return .breakWith(join) }
        // The offset lines cross hw·tan(θ/2) from the vertex along each segment.
        let reach = hw * abs(cross) / (1 + dot)
        guard reach <= 0.5 * min(lengths[s0], lengths[s1]) else { return .breakWith(join) }
        let p = pts[v]
        let n0 = normal(s0), n1 = normal(s1)
        let k = 1 / (1 + dot)  // (n0 + n1)/(1 + n0·n1) is the offset to the crossing, scaled by hw
        let crossA = Point(x: p.x + (n0.x + n1.x) * k, y: p.y + (n0.y + n1.y) * k)
        let crossB = Point(x: p.x - (n0.x + n1.x) * k, y: p.y - (n0.y + n1.y) * k)
        // Turning towards +cross bends towards side A (left in these coordinates): B is outer.
        let aIsOuter = cross < 0
        let outer = outerPoints(
            p, aIsOuter ? n0 : Point(x: -n0.x, y: -n0.y), aIsOuter ? n1 : Point(x: -n1.x, y: -n1.y), join: join,
            miterLimit: limit, dot: dot, miter: aIsOuter ? crossA : crossB)
        return aIsOuter ? .through(a: outer, b: .one(crossB)) : .through(a: .one(crossA), b: outer)
    }

    /// The outer side of a turn from offset `o0` to offset `o1` (both of length hw from `p`).
    mutating func outerPoints(_ p: Point, _ o0: Point, _ o1: Point, join: LineJoin, miterLimit: Double, dot: Double, miter: Point)
        -> Side
    {
        let a = Point(x: p.x + o0.x, y: p.y + o0.y), b = Point(x: p.x + o1.x, y: p.y + o1.y)
        switch join {
        case .miter:
            // Miter length over line width is 1/sin(φ/2) for an angle φ between the segments, which is
            // 1/√((1 + cos θ)/2) for a turn θ; past `miterLimit` Core Graphics bevels.
            if 1 / ((1 + dot) / 2).squareRoot() <= miterLimit { return .one(miter) }
            return .two(a, b)
        case .bevel:
            return .two(a, b)
        case .round:
            let a0 = atan2(o0.y, o0.x)
            var sweep = atan2(o1.y, o1.x) - a0
            if sweep > Double.pi { sweep -= 2 * Double.pi }
            if sweep < -Double.pi { sweep += 2 * Double.pi }
            let first = arcs.count
            Stroker.arc(center: p, radius: hw, from: a0, sweep: sweep, tolerance: tolerance / 4, into: &arcs)
            return .arc(first..<arcs.count)
        }
    }

    mutating func build<Sink: OutlineSink>(into out: inout Sink) {
        let n = pts.count
        let segs = directions.count
        var kinds: [Vertex?] = []
        kinds.reserveCapacity(n)
        for v in 0..<n { kinds.append(!closed && (v == 0 || v == n - 1) ? nil : vertex(v)) }
        // A side takes at most two points a vertex (a bevel's), an arc's points at a round join and one at
        // each end of a run, so room for all of them is made at once: grown append by append, the sides
        // were copied into new storage at every doubling.
        var sideA: [Point] = []
        var sideB: [Point] = []
        sideA.reserveCapacity(2 * n + arcs.count + 2)
        sideB.reserveCapacity(2 * n + arcs.count + 2)
        // Cap outlines are part of the first and last run's polygon, so they never overlap the body.
        var startCap: [Point] = []
        var endCap: [Point] = []
        func startRun(at v: Int, segment s: Int) {
            let m = normal(s)
            // The sides' storage kept from run to run (a run ends at every break).
            sideA.removeAll(keepingCapacity: true)
            sideB.removeAll(keepingCapacity: true)
            sideA.append(Point(x: pts[v].x + m.x, y: pts[v].y + m.y))
            sideB.append(Point(x: pts[v].x - m.x, y: pts[v].y - m.y))
        }
        func endRun(at v: Int, segment s: Int) {
            let m = normal(s)
            sideA.append(Point(x: pts[v].x + m.x, y: pts[v].y + m.y))
            sideB.append(Point(x: pts[v].x - m.x, y: pts[v].y - m.y))
            // Side A, the end cap, side B back and the start cap, as one polygon (sides of two points
            // each at least), written as they are rather than joined into one array first.
            out.begin(sideA[0])
            for p in sideA.dropFirst() { out.add(p) }
            for p in endCap { out.add(p) }
            for p in sideB.reversed() { out.add(p) }
            for p in startCap { out.add(p) }
            out.close()
            startCap = []
        }
        func passThrough(_ v: Int, _ kind: Vertex) {
            switch kind {
            case .straight:
                break
            case .through(let a, let b):
                a.append(to: &sideA, arcs: arcs)
                b.append(to: &sideB, arcs: arcs)
            case .breakWith(let join):
                endRun(at: v, segment: segment(before: v))
                addJoinPiece(at: v, join: join, into: &out)
                startRun(at: v, segment: segment(after: v))
            }
        }

        if !closed {
            // Start cap: from side B round the back to side A; end cap: from side A round the front to B.
            startCap = capPoints(
                at: pts[0], direction: Point(x: -directions[0].x, y: -directions[0].y),
                fromNormal: Point(x: -normal(0).x, y: -normal(0).y))
            startRun(at: 0, segment: 0)
            for v in 1..<(n - 1) { passThrough(v, kinds[v]!) }
            endCap = capPoints(at: pts[n - 1], direction: directions[segs - 1], fromNormal: normal(segs - 1))
            endRun(at: n - 1, segment: segs - 1)
            return
        }
        if let first = (0..<n).first(where: { if case .breakWith = kinds[$0]! { return true } else { return false } }) {
            // Go round once, from one break to the same break.
            startRun(at: first, segment: segment(after: first))
            for i in 1..<n {
                let v = first + i < n ? first + i : first + i - n
                passThrough(v, kinds[v]!)
            }
            endRun(at: first, segment: segment(before: first))
            addJoinPiece(
                at: first, join: { if case .breakWith(let j) = kinds[first]! { return j } else { return .round } }(), into: &out)
            return
        }
        // Unbroken closed body: two loops, side A forward and side B back (both still empty here).
        for v in 0..<n {
            switch kinds[v]! {
            case .straight:
                let m = normal(segment(after: v))
                sideA.append(Point(x: pts[v].x + m.x, y: pts[v].y + m.y))
                sideB.append(Point(x: pts[v].x - m.x, y: pts[v].y - m.y))
            case .through(let a, let b):
                a.append(to: &sideA, arcs: arcs)
                b.append(to: &sideB, arcs: arcs)
            case .breakWith:
                break
            }
        }
        Stroker.addPolygon(sideA, to: &out)
        Stroker.addPolygon(sideB.reversed(), to: &out)
    }

    mutating func addJoinPiece<Sink: OutlineSink>(at v: Int, join: LineJoin, into out: inout Sink) {
        let s0 = segment(before: v), s1 = segment(after: v)
        let p = pts[v]
        if join == .round {
            let offsets = roundJoin ?? Stroker.circleOffsets(hw, tolerance / 4)
            roundJoin = offsets
            Stroker.addPiece(Stroker.circle(around: p, offsets: offsets), to: &out)
            return
        }
        let d0 = directions[s0], d1 = directions[s1]
        let cross = d0.x * d1.y - d0.y * d1.x
        let dot = d0.x * d1.x + d0.y * d1.y
        let sign: Double = cross < 0 ? 1 : -1  // towards the outer side
        let o0 = Point(x: normal(s0).x * sign, y: normal(s0).y * sign), o1 = Point(x: normal(s1).x * sign, y: normal(s1).y * sign)
        var miter = p
        if dot > -1 + 1e-9 {
            let k = 1 / (1 + dot)
            miter = Point(x: p.x + (o0.x + o1.x) * k, y: p.y + (o0.y + o1.y) * k)
        }
        let limit = corner[v] ? style.miterLimit : .infinity
        var piece = [p, Point(x: p.x + o0.x, y: p.y + o0.y)]
        outerPoints(p, o0, o1, join: dot > -1 + 1e-9 ? join : .bevel, miterLimit: limit, dot: dot, miter: miter)
            .append(to: &piece, arcs: arcs)
        piece.append(Point(x: p.x + o1.x, y: p.y + o1.y))
        Stroker.addPiece(piece, to: &out)
    }

    /// The outline of a cap between the two sides at an end `p` of the stroke, `direction` pointing
    /// out of the stroke and `fromNormal` the offset of the side the outline comes from.
    func capPoints(at p: Point, direction d: Point, fromNormal m: Point) -> [Point] {
        switch style.lineCap {
        case .butt:
            return []
        case .square:
            let e = Point(x: p.x + d.x * hw, y: p.y + d.y * hw)
            return [Point(x: e.x + m.x, y: e.y + m.y), Point(x: e.x - m.x, y: e.y - m.y)]
        case .round:
            // Half a turn from the `fromNormal` side through `direction` to the other side.
            let a0 = atan2(m.y, m.x)
            let through = atan2(d.y, d.x)
            var quarter = through - a0
            if quarter > Double.pi { quarter -= 2 * Double.pi }
            if quarter < -Double.pi { quarter += 2 * Double.pi }
            var arc: [Point] = []
            Stroker.arc(
                center: p, radius: hw, from: a0, sweep: quarter > 0 ? Double.pi : -Double.pi, tolerance: tolerance / 4,
                into: &arc)
            return Array(arc.dropFirst().dropLast())
        }
    }
}
