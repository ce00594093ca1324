/// Shapes ready to draw: flattened, clipped to the drawable square, bounded, bucketed by rows.
import ReelGeometry

/// A shape ready to draw: flattened edges in device space, bounds, paint and fill rule.
final class PreparedShape: @unchecked Sendable {
    /// Rows per edge bucket: a canvas (a band, usually 32 rows) visits only the buckets it overlaps
    /// instead of every edge of a tall shape.
    static let bucketRows = 32

    let edges: [Edge]
    /// For shapes with many edges over several buckets: the edges touching each bucket of
    /// `bucketRows` rows, from bucket `firstBucket` on, bucket after bucket (bucket k's are
    /// `bucketed[bucketStarts[k] ..< bucketStarts[k + 1]]`, in the order of `edges`). Empty otherwise.
    /// One array rather than one per bucket: their appends were a twentieth of a stroke-heavy frame.
    let bucketed: [Edge]
    let bucketStarts: [Int]
    let firstBucket: Int

    /// The number of buckets (0 when the shape has none).
    var bucketCount: Int { max(bucketStarts.count - 1, 0) }
    let paint: PreparedPaint
    let rule: FillRule
    let minX: Double, maxX: Double
    let minY: Double, maxY: Double

    convenience init?(path: Path, paint: PreparedPaint, rule: FillRule, tolerance: Double) {
        self.init(edges: path.flattenedEdges(tolerance: tolerance), paint: paint, rule: rule)
    }

    /// A shape of straight edges in device space (a path flattened, a stroke's polygons placed).
    init?(edges flattened: [Edge], paint: PreparedPaint, rule: FillRule) {
        var edges = flattened
        var bounds = EdgeClipping.bounds(edges)
        if !bounds.inside {
            // Huge or overflowed coordinates (a stroke outline of a path through ±1e308 is NaN): a shape
            // that cannot be placed draws nothing rather than trapping on a conversion.
            guard let clipped = EdgeClipping.clip(edges) else { return nil }
            edges = clipped
            bounds = EdgeClipping.bounds(edges)
        }
        guard !edges.isEmpty else { return nil }
        let (x0, y0, x1, y1) = (bounds.min.x, bounds.min.y, bounds.max.x, bounds.max.y)
        self.edges = edges
        // A large opaque gradient gets its dithered colours packed once (see GradientShader.packed).
        if case .gradient(let g) = paint, g.opaque, (x1 - x0) * (y1 - y0) > Double(GradientShader.packedTableWorth) {
            self.paint = .gradient(g.withPackedTable())
        } else {
            self.paint = paint
        }
        self.rule = rule
        self.minX = x0
        self.maxX = x1
        self.minY = y0
        self.maxY = y1
        let rows = Double(Self.bucketRows)
        let first = Int((max(y0, -1e9) / rows).rounded(.down)), last = Int((min(y1, 1e9) / rows).rounded(.down))
        if edges.count > 64 && last - first >= 2 && last - first < 100_000 {
            let count = last - first + 1
            let buckets = edges.withUnsafeBufferPointer { edges in
                Buckets(count: edges.count, buckets: count) { i in
                    let e = edges[i]
                    // Coordinates are clipped to ±2²⁴ above, in `floor`'s range.
                    return (
                        max(CoverageScratch.floor(min(e.y0, e.y1) / rows) &- first, 0),
                        min(CoverageScratch.floor(max(e.y0, e.y1) / rows) &- first, count &- 1)
                    )
                } item: {
                    edges[$0]
                }
            }
            self.bucketed = buckets.items
            self.bucketStarts = buckets.starts
            self.firstBucket = first
        } else {
            self.bucketed = []
            self.bucketStarts = []
            self.firstBucket = 0
        }
    }
}
