// A stroke's outline as closed polygons, what the stroker writes into (`OutlineSink`), and those
// polygons placed on a device as edges.

/// Where the stroker writes its outline: closed polygons, each begun at its first point (`begin` comes
/// before any `add`), added to point by point, then closed.
protocol OutlineSink {
    mutating func begin(_ p: Point)
    mutating func add(_ p: Point)
    mutating func close()
    /// Room for about `points` more points (a hint).
    mutating func reserve(_ points: Int)
}

extension OutlineSink {
    mutating func reserve(_ points: Int) {}
}

extension Path: OutlineSink {
    mutating func begin(_ p: Point) { move(to: p) }
    mutating func add(_ p: Point) { addLine(to: p) }
    mutating func close() { closeSubpath() }
}

/// The outline of a stroke (`Stroker.polygons`): its polygons' points in order and where each polygon
/// ends. What a rasterizer needs of `Stroker.outline` without a path in between: the path's elements,
/// their copy under a transform and their flattening were a fifth of a stroke-heavy frame.
public struct StrokeOutline: Hashable, Sendable {
    public private(set) var points: [Point] = []
    /// The index after each polygon's last point.
    public private(set) var ends: [Int] = []

    public init() {}

    public var isEmpty: Bool { ends.isEmpty }

    /// The polygons as a path (move, lines, close each): `Stroker.outline`'s path.
    public var path: Path {
        var out = Path()
        forEachPolygon {
            out.begin($0)
        } add: {
            out.add($0)
        } close: {
            out.close()
        }
        return out
    }

    /// The polygons' edges with every point placed by `transform`: the same edges, in the same order,
    /// as `path.applying(transform).flattenedEdges()`.
    public func edges(_ transform: Transform2D) -> [Edge] {
        var sink = EdgeSink()
        sink.edges.reserveCapacity(points.count + 8)
        forEachPolygon {
            sink.begin(transform.apply($0))
        } add: {
            sink.add(transform.apply($0), isCorner: true)
        } close: {
            sink.close()
        }
        sink.finish()
        return sink.edges
    }

    @inline(__always) private func forEachPolygon(
        begin: (Point) -> Void, add: (Point) -> Void, close: () -> Void
    ) {
        var start = 0
        for end in ends {
            begin(points[start])
            for i in (start + 1)..<end { add(points[i]) }
            close()
            start = end
        }
    }
}

extension StrokeOutline: OutlineSink {
    mutating func begin(_ p: Point) {
        // A polygon left open is closed by the next one's start, as a path's fill closes it (the
        // stroker closes each; `Stroker.polygons` closes the last).
        close()
        points.append(p)
    }

    mutating func add(_ p: Point) { points.append(p) }

    mutating func reserve(_ count: Int) { points.reserveCapacity(points.count + count) }

    mutating func close() {
        if points.count > (ends.last ?? 0) { ends.append(points.count) }
    }
}
