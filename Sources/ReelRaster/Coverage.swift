/// Coverage from edges: the signed area each edge leaves to its right, accumulated into cells of a row.
import ReelGeometry

/// Signed-area accumulation of edges into cells, then a prefix sum along each row.
///
/// Each edge adds, to the cells of every row it crosses, the signed area it leaves to its right; the
/// running sum along a row is the signed area, which the fill rule maps to coverage: non-zero takes
/// |sum| capped at 1, even-odd folds it (0 → 0, 1 → 1, 2 → 0, …). This is exact wherever at most one
/// edge crosses a pixel, and it is what FreeType's and Blend2D's analytic rasterizers do where several
/// edges share a pixel.
struct CoverageScratch {
    let capacityWidth: Int
    let capacityRows: Int
    /// `capacityRows` lines of `capacityWidth + 2` cells, all zero between uses.
    let cells: UnsafeMutablePointer<Float>
    /// One row of coverage values.
    let coverage: UnsafeMutablePointer<Float>
    /// One bit per cell, set where an edge wrote: the sweep jumps over the untouched (zero) cells of
    /// a row 64 at a time instead of reading them.
    let touched: UnsafeMutablePointer<UInt64>
    let wordsPerRow: Int

    init(width: Int, rows: Int) {
        capacityWidth = width
        capacityRows = rows
        let count = (width + 2) * rows
        cells = .allocate(capacity: count)
        cells.initialize(repeating: 0, count: count)
        // More than a row: `runs` writes zeros three past a stretch's end, where a kernel's last lanes read.
        coverage = .allocate(capacity: width + 6)
        coverage.initialize(repeating: 0, count: width + 6)
        wordsPerRow = (width + 2 + 63) / 64
        touched = .allocate(capacity: wordsPerRow * rows)
        touched.initialize(repeating: 0, count: wordsPerRow * rows)
    }

    func deallocate() {
        cells.deallocate()
        coverage.deallocate()
        touched.deallocate()
    }

    /// Adds every edge of `shape` within the canvas's rows, in canvas-local columns.
    func accumulate(_ shape: PreparedShape, x0: Int, y0: Int, width: Int, rows: Int) {
        let xOrigin = Double(x0)
        guard shape.bucketCount > 0 else {
            shape.edges.withUnsafeBufferPointer { addEdges($0, x0: xOrigin, canvasY0: y0, rows: y0..<(y0 + rows), width: width) }
            return
        }
        // Each bucket's edges, for the rows of that bucket only, so an edge in two buckets is counted once.
        let size = PreparedShape.bucketRows
        let firstRow = max(y0, shape.firstBucket * size),
            lastRow = min(y0 + rows, (shape.firstBucket + shape.bucketCount) * size)
        guard firstRow < lastRow else { return }
        var b = (firstRow / size - shape.firstBucket)
        if firstRow < 0 && firstRow % size != 0 { b -= 1 }
        while b < shape.bucketCount {
            let bucketTop = (shape.firstBucket + b) * size
            let lo = max(firstRow, bucketTop), hi = min(lastRow, bucketTop + size)
            if lo >= lastRow { break }
            if lo < hi {
                let start = shape.bucketStarts[b], end = shape.bucketStarts[b + 1]
                shape.bucketed.withUnsafeBufferPointer {
                    addEdges(
                        UnsafeBufferPointer(rebasing: $0[start..<end]), x0: xOrigin, canvasY0: y0, rows: lo..<hi, width: width)
                }
            }
            b += 1
        }
    }

    /// Adds the parts of `edges` inside `rows`. The one place an edge is added, so the compiler inlines
    /// it here: with two loops, the bucket loop's copy had been a call an edge, every register spilled
    /// around it (butterfly 1.05×, butterfly_stroke 1.04× without it).
    @inline(never) private func addEdges(
        _ edges: UnsafeBufferPointer<Edge>, x0: Double, canvasY0: Int, rows: Range<Int>, width: Int
    ) {
        for e in edges { accumulate(e, x0: x0, canvasY0: canvasY0, rows: rows, width: width) }
    }

    /// Adds the part of one edge inside `rows` (absolute), into the cells of a canvas starting at row
    /// `canvasY0` and column `x0`.
    @inline(__always) private func accumulate(_ e: Edge, x0: Double, canvasY0: Int, rows: Range<Int>, width: Int) {
        guard e.y0 != e.y1 else { return }
        // Edges run down and up in about equal numbers around an outline, so the ends are picked by
        // masks rather than a branch (callgrind's branch simulation had that branch mispredicted at
        // 15 % of butterfly_stroke's edge visits).
        let down = UInt64(truncatingIfNeeded: -Int64(e.y0 < e.y1 ? 1 : 0))
        let dir = Float(bitPattern: Float(-1).bitPattern ^ (UInt32(truncatingIfNeeded: down) & 0x8000_0000))
        let xTop = Double(bitPattern: (e.x0.bitPattern & down) | (e.x1.bitPattern & ~down))
        let xBottom = Double(bitPattern: (e.x1.bitPattern & down) | (e.x0.bitPattern & ~down))
        let yTop = min(e.y0, e.y1), yBottom = max(e.y0, e.y1)
        guard yBottom > Double(rows.lowerBound), yTop < Double(rows.upperBound) else { return }
        let dxdy = (xBottom - xTop) / (yBottom - yTop)
        // An edge a subnormal height tall overflows its slope; the x it interpolates would be infinite
        // (`Int(_:)` trapped on it). Its area is below 10⁻³⁰⁰ of a pixel: it adds nothing.
        guard dxdy.isFinite else { return }
        let firstRow = max(rows.lowerBound, Self.floor(yTop))
        let lastRow = min(rows.upperBound - 1, Self.ceil(yBottom) - 1)
        guard firstRow <= lastRow else { return }
        // An edge within the canvas's columns (most) takes the loop without the clipping tests; one
        // within 10⁻⁶ of a side takes the clipping loop, as every edge did, since the x interpolated
        // between its ends may stray past them by a rounding.
        let inside = min(xTop, xBottom) >= x0 + 1e-6 && max(xTop, xBottom) <= x0 + Double(width) - 1e-6
        if inside {
            addRows(
                firstRow...lastRow, xTop, yTop, xBottom, yBottom, dxdy, x0: x0, canvasY0: canvasY0, width: width, dir: dir,
                clip: false)
        } else {
            addRows(
                firstRow...lastRow, xTop, yTop, xBottom, yBottom, dxdy, x0: x0, canvasY0: canvasY0, width: width, dir: dir,
                clip: true)
        }
    }

    /// The rows of one edge (top to bottom): each row's piece from where the edge enters the row to
    /// where it leaves, the leaving x carried to the next row as its entering x.
    @inline(__always) private func addRows(
        _ rows: ClosedRange<Int>, _ xTop: Double, _ yTop: Double, _ xBottom: Double, _ yBottom: Double, _ dxdy: Double,
        x0: Double, canvasY0: Int, width: Int, dir: Float, clip: Bool
    ) {
        var ya = max(Double(rows.lowerBound), yTop)
        // x from the original endpoints, so a row's result does not depend on where canvases start.
        var xa = ya == yTop ? xTop : xTop + (ya - yTop) * dxdy
        var line = cells + (rows.lowerBound &- canvasY0) &* (capacityWidth &+ 2)
        var bits = touched + (rows.lowerBound &- canvasY0) &* wordsPerRow
        // Every row but the last leaves at its bottom; only the last can end inside it, so that is
        // tested once after the loop instead of in every row, where it was a second data-dependent
        // branch beside the loop's own end (with the masks above: text, 1.3 rows an edge, 1.03×).
        var row = rows.lowerBound
        while row < rows.upperBound {
            let next = Double(row &+ 1)
            let xb = xTop + (next - yTop) * dxdy
            if next > ya {
                addSpan(line, bits, width: width, xa: xa - x0, xb: xb - x0, dy: next - ya, dir: dir, clip: clip)
            }
            ya = next
            xa = xb
            line += capacityWidth &+ 2
            bits += wordsPerRow
            row &+= 1
        }
        let next = Double(row &+ 1)
        let last = next >= yBottom
        let yb = last ? yBottom : next
        let xb = last ? xBottom : xTop + (next - yTop) * dxdy
        if yb > ya {
            addSpan(line, bits, width: width, xa: xa - x0, xb: xb - x0, dy: yb - ya, dir: dir, clip: clip)
        }
    }

    /// One row's piece of an edge, from x = xa to x = xb (canvas-local), covering `dy` of the row;
    /// without `clip`, 0 ≤ xa, xb ≤ width.
    @inline(__always)
    private func addSpan(
        _ line: UnsafeMutablePointer<Float>, _ bits: UnsafeMutablePointer<UInt64>, width: Int, xa: Double, xb: Double, dy: Double,
        dir: Float, clip: Bool
    ) {
        let w = Double(width)
        var lo = min(xa, xb), hi = max(xa, xb)
        var dyInside = dy
        if clip && (lo < 0 || hi > w) {
            if hi <= 0 {
                line[0] += dir * Float(dy)
                Self.mark(bits, 0, through: 0)
                return
            }
            if lo >= w { return }
            // Parts left of the canvas cover every column of the row fully; parts right of it none.
            if lo < 0 {
                let leftPart = dy * (0 - lo) / (hi - lo)
                line[0] += dir * Float(leftPart)
                Self.mark(bits, 0, through: 0)
                dyInside -= leftPart
                lo = 0
            }
            if hi > w {
                let rightPart = dyInside * (hi - w) / (hi - lo)
                dyInside -= rightPart
                hi = w
            }
            guard dyInside > 0 else { return }
        }
        // 0 ≤ lo ≤ hi ≤ width here (clipped above, or an edge inside the columns by 10⁻⁶), so c0 is a column.
        let c0 = Self.floor(lo)
        let c1 = min(width &- 1, Self.floor(hi))
        if c0 >= c1 || hi - lo < 1e-12 {
            let c = min(c0, width &- 1)
            let mid = (lo + hi) / 2 - Double(c)
            let area = dyInside * (1 - mid)
            line[c] += dir * Float(area)
            line[c &+ 1] += dir * Float(dyInside - area)
            bits[c &>> 6] |= 1 &<< UInt64(c & 63)
            bits[(c &+ 1) &>> 6] |= 1 &<< UInt64((c &+ 1) & 63)
            return
        }
        // The first and last columns are partly crossed; every column between fully, where the piece's
        // area splits in halves (the same values the general formula gives: right − left = 1, mid = ½).
        // Each cell takes its parts in one expression, in the order a column-by-column walk adds them:
        // a cell stored and read back at once as part of a pair cannot be forwarded from the store
        // (the processor waited on it at the last column of every wide piece).
        let perX = dyInside / (hi - lo)
        let right = min(hi, Double(c0 &+ 1))
        let firstPart = (right - lo) * perX
        let firstArea = firstPart * (1 - ((lo + right) / 2 - Double(c0)))
        let a0 = dir * Float(firstArea), a1 = dir * Float(firstPart - firstArea)
        let left = Double(c1)
        let lastPart = (hi - left) * perX
        let lastArea = lastPart * (1 - ((left + hi) / 2 - left))
        let b0 = dir * Float(lastArea), b1 = dir * Float(lastPart - lastArea)
        line[c0] += a0
        if c1 == c0 &+ 1 {
            if hi > left {
                line[c1] = (line[c1] + a1) + b0
                line[c1 &+ 1] += b1
            } else {
                line[c1] += a1
            }
        } else {
            let half = dir * Float(perX * 0.5)
            line[c0 &+ 1] = (line[c0 &+ 1] + a1) + half
            var c = c0 &+ 2
            while c < c1 {
                line[c] = (line[c] + half) + half
                c &+= 1
            }
            if hi > left {
                line[c1] = (line[c1] + half) + b0
                line[c1 &+ 1] += b1
            } else {
                line[c1] += half
            }
        }
        Self.mark(bits, c0, through: c1 &+ 1)
    }

    /// ⌊v⌋ for −2³¹ ≤ v < 2³¹ − 1 (edges are clipped to ±2²⁴; 0 for ±∞ and NaN): adding 1.5 × 2⁵²
    /// rounds v to an integer in the low bits of the sum, one step down if that rounded up. The same value
    /// as `Int(v.rounded(.down))`, without its call (this target has no SSE4.1 rounding instruction) or
    /// `Int(_:)`'s range checks.
    @inline(__always) static func floor(_ v: Double) -> Int {
        let magic = 6_755_399_441_055_744.0
        let t = v + magic
        let n = Int(Int32(truncatingIfNeeded: Int64(bitPattern: t.bitPattern)))
        return t - magic > v ? n &- 1 : n
    }

    /// ⌈v⌉ for −2³¹ + 1 < v < 2³¹ − 1 (0 for ±∞ and NaN), as −⌊−v⌋.
    @inline(__always) static func ceil(_ v: Double) -> Int { 0 &- floor(-v) }

    /// Marks cells a…b (a ≤ b) of a row as touched.
    @inline(__always) static func mark(_ bits: UnsafeMutablePointer<UInt64>, _ a: Int, through b: Int) {
        let wa = a &>> 6, wb = b &>> 6
        let head: UInt64 = ~0 &<< UInt64(a & 63), tail: UInt64 = ~0 &>> UInt64(63 &- (b & 63))
        if wa == wb {
            bits[wa] |= head & tail
            return
        }
        bits[wa] |= head
        var w = wa &+ 1
        while w < wb {
            bits[w] = ~0
            w &+= 1
        }
        bits[wb] |= tail
    }
}
