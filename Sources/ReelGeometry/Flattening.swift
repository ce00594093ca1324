// Paths flattened to straight edges and polylines within a tolerance, for the rasterizer and measuring.

/// A straight edge of a flattened path, in device space.
public struct Edge: Hashable, Sendable {
    public var x0, y0, x1, y1: Double

    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
}

/// One subpath flattened to straight pieces.
public struct Polyline: Hashable, Sendable {
    public var points: [Point]
    /// `corner[i]` is true where `points[i]` is a vertex of the original path (a join is drawn there);
    /// false where it only splits a curve into pieces.
    public var corner: [Bool]
    public var closed: Bool

    public init(points: [Point], corner: [Bool]? = nil, closed: Bool) {
        self.points = points
        self.corner = corner ?? Array(repeating: true, count: points.count)
        self.closed = closed
    }

    /// Length of the pieces, including the closing one of a closed polyline.
    public var length: Double {
        var total = 0.0
        for i in 1..<max(points.count, 1) { total += distance(points[i - 1], points[i]) }
        if closed, let first = points.first, let last = points.last { total += distance(last, first) }
        return total
    }
}

/// The flattening tolerance used when none is given: 0.1 device pixel, well inside the 0.25 px that is
/// invisible after anti-aliasing.
public let defaultFlatteningTolerance = 0.1

extension Path {
    /// Every subpath as a polyline, each curve split into uniform pieces so that no point of the
    /// polyline is further than `tolerance` from the curve (see `flatten`).
    public func polylines(tolerance: Double = defaultFlatteningTolerance) -> [Polyline] {
        var sink = PolylineSink(pointsHint: elements.count + 1)
        flatten(tolerance: tolerance, into: &sink)
        sink.finish(closed: false)
        return sink.result
    }

    /// The path as closed polygons of straight edges, as a fill treats it: every subpath is closed.
    ///
    /// The edges of `polylines`' points, in the same order (each subpath's pieces, then its closing
    /// edge), made as the points come: without a polyline's arrays per subpath, which were a fifth of
    /// a text frame's flattening.
    public func flattenedEdges(tolerance: Double = defaultFlatteningTolerance) -> [Edge] {
        var sink = EdgeSink()
        sink.edges.reserveCapacity(elements.count + 8)
        flatten(tolerance: tolerance, into: &sink)
        sink.finish()
        return sink.edges
    }

    /// Walks the path flattened into `sink`: `begin` with each subpath's first point (a move, or the
    /// point drawing goes on from after a close), `add` with every later point (`isCorner` where it is
    /// a vertex of the path, not a split of a curve), `close` at each close. Curves are split into
    /// uniform pieces so that no point of the polyline is further than `tolerance` from the curve. The
    /// bound used: a uniform n-piece polyline of a curve with second-derivative bound M deviates by at
    /// most M/(8n²); for a cubic M ≤ 6·max|Pᵢ − 2Pᵢ₊₁ + Pᵢ₊₂|, for a quad M = 2·|P0 − 2P1 + P2|.
    /// Generic over the sink rather than taking closures: closures over the callers' arrays were not
    /// inlined and cost a tenth of a text frame.
    @inline(__always) func flatten<Sink: FlattenedPathSink>(tolerance: Double, into sink: inout Sink) {
        var current = Point.zero, start = Point.zero
        var open = false
        @inline(__always) func next(_ p: Point, isCorner: Bool) {
            if !open {
                sink.begin(current)
                start = current
                open = true
            }
            sink.add(p, isCorner: isCorner)
            current = p
        }
        for element in elements {
            switch element {
            case .move(let p):
                sink.begin(p)
                start = p
                current = p
                open = true
            case .line(let p):
                next(p, isCorner: true)
            case .quad(let c, let p):
                let p0 = current
                let m = 2 * hypot(p0.x - 2 * c.x + p.x, p0.y - 2 * c.y + p.y)
                let n = Self.pieces(secondDerivativeBound: m, tolerance: tolerance)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let q =
                        i == n
                        ? p
                        : Point(
                            x: u * u * p0.x + 2 * u * t * c.x + t * t * p.x,
                            y: u * u * p0.y + 2 * u * t * c.y + t * t * p.y)
                    next(q, isCorner: i == n)
                }
            case .cubic(let c1, let c2, let p):
                let p0 = current
                let dd1 = hypot(p0.x - 2 * c1.x + c2.x, p0.y - 2 * c1.y + c2.y)
                let dd2 = hypot(c1.x - 2 * c2.x + p.x, c1.y - 2 * c2.y + p.y)
                let n = Self.pieces(secondDerivativeBound: 6 * max(dd1, dd2), tolerance: tolerance)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, cc = 3 * u * t * t, d = t * t * t
                    let q =
                        i == n
                        ? p
                        : Point(
                            x: a * p0.x + b * c1.x + cc * c2.x + d * p.x,
                            y: a * p0.y + b * c1.y + cc * c2.y + d * p.y)
                    next(q, isCorner: i == n)
                }
            case .close:
                sink.close()
                // After a close, drawing goes on from the subpath's start (as in Core Graphics).
                if open { current = start }
                open = false
            }
        }
    }

    static func pieces(secondDerivativeBound m: Double, tolerance: Double) -> Int {
        guard m.isFinite, m > 0 else { return 1 }
        let n = (m / (8 * tolerance)).squareRoot().rounded(.up)
        return Int(min(max(n, 1), 10_000))
    }
}

/// What a flattened path is walked into (`Path.flatten`).
protocol FlattenedPathSink {
    mutating func begin(_ p: Point)
    mutating func add(_ p: Point, isCorner: Bool)
    mutating func close()
}

/// Collects polylines, a closing point equal to the start dropped.
struct PolylineSink: FlattenedPathSink {
    var result: [Polyline] = []
    /// The subpath being collected, in storage made for `hint` points when it begins. Grown append by
    /// append from one point instead, a 120-vertex polygon's two arrays were copied into new storage
    /// 16 times.
    var points: [Point] = []
    var corner: [Bool] = []
    /// The path's element count (a point each, curves adding more).
    let hint: Int

    init(pointsHint: Int = 1) { hint = max(pointsHint, 1) }

    mutating func finish(closed: Bool) {
        if !points.isEmpty {
            // A closing point equal to the start is the start.
            if closed, points.count > 1, points.last == points.first {
                points.removeLast()
                corner.removeLast()
            }
            // A subpath filling at least half its storage (the whole path, most often) keeps it, and the
            // next one gets storage of its own; a smaller one is copied to its size (by `map`: an array
            // made from the whole array shares its storage, capacity and all), the storage kept for the
            // next. So the polylines hold at most about twice their points, whatever the number of
            // subpaths.
            if points.capacity <= 2 * points.count + 16 {
                result.append(Polyline(points: points, corner: corner, closed: closed))
                points = []
                corner = []
                return
            }
            result.append(Polyline(points: points.map { $0 }, corner: corner.map { $0 }, closed: closed))
        }
        points.removeAll(keepingCapacity: true)
        corner.removeAll(keepingCapacity: true)
    }

    mutating func begin(_ p: Point) {
        finish(closed: false)
        if points.capacity == 0 {
            points.reserveCapacity(hint)
            corner.reserveCapacity(hint)
        }
        points.append(p)
        corner.append(true)
    }

    mutating func add(_ p: Point, isCorner: Bool) {
        if p != points.last {
            points.append(p)
            corner.append(isCorner)
        } else if isCorner {
            corner[corner.count - 1] = true
        }
    }

    mutating func close() { finish(closed: true) }
}

/// Collects the edges of every subpath closed, as a fill takes them.
struct EdgeSink: FlattenedPathSink {
    var edges: [Edge] = []
    var first = Point.zero, last = Point.zero, count = 0

    /// The closing edge, unless the subpath came back to its start (then its last piece was it).
    mutating func finish() {
        if count > 1 && last != first { edges.append(Edge(x0: last.x, y0: last.y, x1: first.x, y1: first.y)) }
        count = 0
    }

    mutating func begin(_ p: Point) {
        finish()
        first = p
        last = p
        count = 1
    }

    @inline(__always) mutating func add(_ p: Point, isCorner: Bool) {
        if p != last {
            edges.append(Edge(x0: last.x, y0: last.y, x1: p.x, y1: p.y))
            last = p
            count += 1
        }
    }

    mutating func close() { finish() }
}

@inline(__always) func hypot(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
@inline(__always) func distance(_ a: Point, _ b: Point) -> Double { hypot(b.x - a.x, b.y - a.y) }
