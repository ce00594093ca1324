/// Edges clipped to the square every canvas lies in, so that huge but finite coordinates (a path
/// through 1e300, a scale of 1e200) draw what they draw inside it and never reach an integer conversion
/// out of range.
import ReelGeometry

enum EdgeClipping {
    /// Half the side of the square, in device pixels: far beyond any canvas (16384 pixels a side, plus
    /// a shadow's reach), small enough that every coordinate converts to `Int` and keeps sub-pixel
    /// precision in a `Double`.
    static let bound = Double(1 << 24)

    /// The edges' bounds (infinite and inverted for none; a NaN coordinate is left out) and whether every
    /// coordinate already lies inside the square (the usual case: nothing to clip; false for a NaN). One
    /// pass in lanes, an edge's four coordinates at a time, where a pass for each in scalars had made a
    /// prepared shape's own work 9 % of a stroked frame's drawing (worldmap_stroke).
    static func bounds(_ edges: [Edge]) -> (min: SIMD2<Double>, max: SIMD2<Double>, inside: Bool) {
        let b = SIMD4<Double>(repeating: bound)
        var lo = SIMD4<Double>(repeating: .infinity), hi = SIMD4<Double>(repeating: -.infinity)
        var inside = SIMDMask<SIMD4<Int64>>(repeating: true)
        edges.withUnsafeBufferPointer { edges in
            for e in edges {
                let v = SIMD4(e.x0, e.y0, e.x1, e.y1)
                lo = lo.replacing(with: v, where: v .< lo)
                hi = hi.replacing(with: v, where: v .> hi)
                // Both false for NaN.
                let within = (v .<= b) .& (v .>= -b)
                inside .&= within
            }
        }
        let low = lo.lowHalf.replacing(with: lo.highHalf, where: lo.highHalf .< lo.lowHalf)
        let high = hi.lowHalf.replacing(with: hi.highHalf, where: hi.highHalf .> hi.lowHalf)
        return (low, high, all(inside))
    }

    /// The edges cut to the square with the coverage inside it unchanged: parts above or below it are
    /// dropped (no canvas row meets them), parts left or right of it become vertical edges on its side
    /// over the same rows (a column's coverage depends only on the winding of what lies to its left, so
    /// moving an edge sideways outside the square changes nothing inside). Edges with a non-finite
    /// coordinate make the result nil.
    static func clip(_ edges: [Edge]) -> [Edge]? {
        let b = bound
        var out: [Edge] = []
        out.reserveCapacity(edges.count)
        for e in edges {
            guard e.x0.isFinite, e.y0.isFinite, e.x1.isFinite, e.y1.isFinite else { return nil }
            if abs(e.x0) <= b && abs(e.x1) <= b && abs(e.y0) <= b && abs(e.y1) <= b {
                out.append(e)
                continue
            }
            // Rows first: keep the piece with -b ≤ y ≤ b.
            guard max(e.y0, e.y1) > -b, min(e.y0, e.y1) < b, e.y0 != e.y1 else { continue }
            var (xa, ya, xb, yb) = (e.x0, e.y0, e.x1, e.y1)
            let ta = parameter(ofY: min(max(ya, -b), b), e), tb = parameter(ofY: min(max(yb, -b), b), e)
            (xa, ya) = (at(ta, e.x0, e.x1), min(max(ya, -b), b))
            (xb, yb) = (at(tb, e.x0, e.x1), min(max(yb, -b), b))
            // Then columns: split where the piece crosses x = ±b and clamp each part's x to the square.
            var cuts: [Double] = []
            for side in [-b, b] where (xa < side) != (xb < side) && xa != side && xb != side {
                cuts.append((side / 2 - xa / 2) / (xb / 2 - xa / 2))
            }
            cuts.sort()
            var p0 = (x: min(max(xa, -b), b), y: ya)
            for t in cuts + [1.0] {
                let x = t == 1 ? xb : xa * (1 - t) + xb * t
                let y = t == 1 ? yb : ya * (1 - t) + yb * t
                let p1 = (x: min(max(x, -b), b), y: y)
                if p1.y != p0.y { out.append(Edge(x0: p0.x, y0: p0.y, x1: p1.x, y1: p1.y)) }
                p0 = p1
            }
        }
        return out
    }

    /// Where along `e` (0…1) its y is `y`, by the endpoints' weights so that no difference of two huge
    /// coordinates overflows.
    private static func parameter(ofY y: Double, _ e: Edge) -> Double {
        if y == e.y0 { return 0 }
        if y == e.y1 { return 1 }
        let t = (y / 2 - e.y0 / 2) / (e.y1 / 2 - e.y0 / 2)
        return min(max(t, 0), 1)
    }

    private static func at(_ t: Double, _ a: Double, _ b: Double) -> Double {
        t == 0 ? a : t == 1 ? b : a * (1 - t) + b * t
    }
}
