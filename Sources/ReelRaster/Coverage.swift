import ReelGeometry

/// Signed-area accumulation of edges into a band of cells, then a prefix sum per row.
///
/// Each edge adds, to the cells of every row it crosses, the signed area it leaves to its right; the
/// running sum along a row is the signed area, which the fill rule maps to coverage: non-zero takes
/// |sum| capped at 1, even-odd folds it (0 → 0, 1 → 1, 2 → 0, …). This is exact wherever at most one
/// edge crosses a pixel, and it is what FreeType's and Blend2D's analytic rasterizers do where several
/// edges share a pixel.
struct CoverageScratch {
    let width: Int
    let rows: Int
    /// `rows` lines of `width + 2` cells.
    let cells: UnsafeMutablePointer<Float>

    init(width: Int, rows: Int) {
        self.width = width
        self.rows = rows
        let count = (width + 2) * rows
        cells = .allocate(capacity: count)
        cells.initialize(repeating: 0, count: count)
    }

    func deallocate() { cells.deallocate() }

    mutating func fill(_ shape: PreparedShape, rows band: Range<Int>, pixels: UnsafeMutablePointer<UInt8>, width: Int) {
        for e in shape.edges { accumulate(e, band: band) }
        composite(shape, band: band, pixels: pixels)
    }

    private func accumulate(_ e: Edge, band: Range<Int>) {
        guard e.y0 != e.y1 else { return }
        let dir: Float = e.y1 > e.y0 ? 1 : -1
        let (xTop, yTop, xBottom, yBottom) = e.y0 < e.y1 ? (e.x0, e.y0, e.x1, e.y1) : (e.x1, e.y1, e.x0, e.y0)
        let bandTop = Double(band.lowerBound), bandBottom = Double(band.upperBound)
        guard yBottom > bandTop, yTop < bandBottom else { return }
        let dxdy = (xBottom - xTop) / (yBottom - yTop)
        let firstRow = max(band.lowerBound, Int(yTop.rounded(.down)))
        let lastRow = min(band.upperBound - 1, Int(yBottom.rounded(.up)) - 1)
        guard firstRow <= lastRow else { return }
        for row in firstRow...lastRow {
            let ya = max(Double(row), yTop)
            let yb = min(Double(row + 1), yBottom)
            guard yb > ya else { continue }
            // x from the original endpoints, so a row's result does not depend on where bands start.
            let xa = ya == yTop ? xTop : xTop + (ya - yTop) * dxdy
            let xb = yb == yBottom ? xBottom : xTop + (yb - yTop) * dxdy
            addSpan(row: row - band.lowerBound, xa: xa, xb: xb, dy: yb - ya, dir: dir)
        }
    }

    /// One row's piece of an edge, from x = xa to x = xb, covering `dy` of the row's height.
    private func addSpan(row: Int, xa: Double, xb: Double, dy: Double, dir: Float) {
        let line = cells + row * (width + 2)
        let w = Double(width)
        var lo = min(xa, xb), hi = max(xa, xb)
        var dyInside = dy
        if hi <= 0 {
            line[0] += dir * Float(dy)
            return
        }
        if lo >= w { return }
        // Parts left of the frame cover every visible pixel of the row fully; parts right of it none.
        if lo < 0 {
            let leftPart = dy * (0 - lo) / (hi - lo)
            line[0] += dir * Float(leftPart)
            dyInside -= leftPart
            lo = 0
        }
        if hi > w {
            let rightPart = dyInside * (hi - w) / (hi - lo)
            dyInside -= rightPart
            hi = w
        }
        guard dyInside > 0 else { return }
        let c0 = Int(lo.rounded(.down))
        let c1 = min(width - 1, Int(hi.rounded(.down)))
        if c0 >= c1 || hi - lo < 1e-12 {
            let c = min(c0, width - 1)
            let mid = (lo + hi) / 2 - Double(c)
            let area = dyInside * (1 - mid)
            line[c] += dir * Float(area)
            line[c + 1] += dir * Float(dyInside - area)
            return
        }
        let perX = dyInside / (hi - lo)
        var c = c0
        while c <= c1 {
            let left = max(lo, Double(c)), right = min(hi, Double(c + 1))
            if right > left {
                let part = (right - left) * perX
                let mid = (left + right) / 2 - Double(c)
                let area = part * (1 - mid)
                line[c] += dir * Float(area)
                line[c + 1] += dir * Float(part - area)
            }
            c += 1
        }
    }

    private func composite(_ shape: PreparedShape, band: Range<Int>, pixels: UnsafeMutablePointer<UInt8>) {
        let p = shape.paint
        let evenOdd = shape.rule == .evenOdd
        let stride = width * 4
        for y in band {
            let line = cells + (y - band.lowerBound) * (width + 2)
            var out = pixels + y * stride + shape.minX * 4
            var sum: Float = 0
            var x = 0
            // Cells left of the shape's box can hold contributions from edges clamped to x = 0.
            while x < shape.minX {
                sum += line[x]
                line[x] = 0
                x += 1
            }
            while x <= shape.maxX {
                sum += line[x]
                line[x] = 0
                var coverage = abs(sum)
                if evenOdd {
                    coverage -= 2 * (coverage * 0.5).rounded(.down)
                    if coverage > 1 { coverage = 2 - coverage }
                } else if coverage > 1 {
                    coverage = 1
                }
                if coverage > 0.5 / 255 {
                    let sa = p.a * coverage
                    let keep = 1 - sa / 255
                    out[0] = PremultipliedColor.byte(p.r * coverage + Float(out[0]) * keep)
                    out[1] = PremultipliedColor.byte(p.g * coverage + Float(out[1]) * keep)
                    out[2] = PremultipliedColor.byte(p.b * coverage + Float(out[2]) * keep)
                    out[3] = PremultipliedColor.byte(sa + Float(out[3]) * keep)
                }
                out += 4
                x += 1
            }
            while x < width + 2 {
                line[x] = 0
                x += 1
            }
        }
    }
}
