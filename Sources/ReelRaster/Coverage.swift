/// Coverage from edges: the signed area each edge leaves to its right, accumulated into cells of a row.
internal import CRasterKernels
import ReelGeometry

/// Signed-area accumulation of edges into cells, then a prefix sum along each row.
///
/// Each edge adds, to the cells of every row it crosses, the signed area it leaves to its right; the
/// running sum along a row is the signed area, which the fill rule maps to coverage: non-zero takes
/// |sum| capped at 1, even-odd folds it (0 → 0, 1 → 1, 2 → 0, …). This is exact wherever at most one
/// edge crosses a pixel, and it is what FreeType's and Blend2D's analytic rasterizers do where several
/// edges share a pixel. Cells are integers, edges taken in 23.9 fixed point, a whole pixel's area
/// `one` (2¹⁹), as theirs: sums inside a shape are exact, and the same on every CPU.
struct CoverageScratch {
    let capacityWidth: Int
    let capacityRows: Int
    /// The cells' value for a wholly covered pixel (`REEL_CELL_ONE`).
    static let one = Int32(REEL_CELL_ONE)
    /// `capacityRows` lines of `capacityWidth + 2` cells, all zero between uses.
    let cells: UnsafeMutablePointer<Int32>
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

    /// Bytes held: the cells, the row of coverage and the touched bits.
    var bytes: Int { (capacityWidth + 2) * capacityRows * 4 + (capacityWidth + 6) * 4 + wordsPerRow * capacityRows * 8 }

    func deallocate() {
        cells.deallocate()
        coverage.deallocate()
        touched.deallocate()
    }

    /// Adds every edge of `shape` within the canvas's rows, in canvas-local columns.
    func accumulate(_ shape: PreparedShape, x0: Int, y0: Int, width: Int, rows: Int) {
        guard shape.bucketCount > 0 else {
            shape.edges.withUnsafeBufferPointer { addEdges($0, x0: x0, canvasY0: y0, rows: y0..<(y0 + rows), width: width) }
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
                        UnsafeBufferPointer(rebasing: $0[start..<end]), x0: x0, canvasY0: y0, rows: lo..<hi, width: width)
                }
            }
            b += 1
        }
    }

    /// Adds the parts of `edges` inside `rows` (absolute), in the C kernels' fixed point
    /// (`reel_accumulate_edges`): integer steps down the rows and across the columns, where the float
    /// cells had taken each row piece's ends in doubles, with a `floor` and conversions each (butterfly:
    /// 45 % of its time in that walk).
    private func addEdges(_ edges: UnsafeBufferPointer<Edge>, x0: Int, canvasY0: Int, rows: Range<Int>, width: Int) {
        guard let base = edges.baseAddress else { return }
        let target = reel_cells(
            cells: cells, cell_stride: capacityWidth &+ 2, touched: touched, words_per_row: wordsPerRow, canvas_y0: canvasY0,
            x0: Int64(x0), width: width)
        // An edge is four doubles, x0 y0 x1 y1, as the C side reads them.
        assert(MemoryLayout<Edge>.stride == 4 * MemoryLayout<Double>.stride)
        UnsafeRawPointer(base).withMemoryRebound(to: Double.self, capacity: edges.count &* 4) {
            reel_accumulate_edges(target, $0, edges.count, rows.lowerBound, rows.upperBound)
        }
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
