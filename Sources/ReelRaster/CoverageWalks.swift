/// Coverage from accumulated cells: each row swept into coverage values, runs and four-pixel lanes under
/// the fill rule, the cells cleared as they are read (the C kernels' `solid_rows`, `axial_rows` and
/// `image_rows` walk a shape's rows the same way).

extension CoverageScratch {
    /// Coverage of columns c0…c1 (canvas-local) of one accumulated row into `coverage[0…]`, clearing the
    /// cells it read. The caller takes c0…c1 from the shape's bounds, so no cell outside c0…c1+1 holds
    /// anything (an edge left of the canvas lands in cell 0, and then c0 is 0).
    func sweep(row: Int, c0: Int, c1: Int, rule: FillRule) {
        let line = cells + row * (capacityWidth + 2)
        var sum: Int32 = 0
        var x = c0
        let evenOdd = rule == .evenOdd
        while x <= c1 {
            sum &+= line[x]
            line[x] = 0
            coverage[x - c0] = Self.coverage(sum, evenOdd: evenOdd)
            x += 1
        }
        Self.endRow(line, touched + row &* wordsPerRow, c0: c0, limit: c1 + 1)
    }

    /// Walks one accumulated row over columns c0…c1 (canvas-local) as runs of constant coverage,
    /// calling `body(start, end, coverage)` for each covered run [start, end) and clearing the cells it
    /// read. Inside a shape the cells are zero, so a whole interior span is one call; the caller takes
    /// c0…c1 from the shape's bounds, as for `sweep`.
    @inline(__always)
    func spans(
        row: Int, c0: Int, c1: Int, rule: FillRule, minimum: Float = 0.5 / 255,
        _ body: (_ start: Int, _ end: Int, _ coverage: Float) -> Void
    ) {
        let line = cells + row &* (capacityWidth &+ 2)
        let bits = touched + row &* wordsPerRow
        let evenOdd = rule == .evenOdd
        let limit = c1 &+ 1
        var sum: Int32 = 0
        var x = c0
        while x <= c1 {
            sum &+= line[x]
            line[x] = 0
            let end = Self.first(bits, from: x &+ 1, limit: limit, set: true)
            let c = Self.coverage(sum, evenOdd: evenOdd)
            if c > minimum { body(x, end, c) }
            x = end
        }
        Self.endRow(line, bits, c0: c0, limit: limit)
    }

    /// Walks one accumulated row over columns c0…c1 (canvas-local) as stretches where the coverage
    /// changes from pixel to pixel (where edges cross the row: `varying(start, end)`, each pixel's
    /// coverage in `coverage[0 ..< end − start]`, zero where it is at most `minimum`) and runs of one
    /// coverage between them (`constant(start, end, coverage)`, for runs above `minimum`), clearing the
    /// cells it read. The same coverage values as `spans`, pixel for pixel: a kernel takes a stretch of
    /// edge pixels in lanes instead of one call each. c0…c1 from the shape's bounds, as for `sweep`.
    @inline(__always)
    func runs(
        row: Int, c0: Int, c1: Int, rule: FillRule, minimum: Float = 0.5 / 255,
        varying: (_ start: Int, _ end: Int) -> Void,
        constant: (_ start: Int, _ end: Int, _ coverage: Float) -> Void
    ) {
        let line = cells + row &* (capacityWidth &+ 2)
        let bits = touched + row &* wordsPerRow
        let evenOdd = rule == .evenOdd
        let limit = c1 &+ 1
        @inline(__always) func first(from x: Int, set: Bool) -> Int { Self.first(bits, from: x, limit: limit, set: set) }
        var sum: Int32 = 0
        var x = c0
        while x <= c1 {
            // Cells x ..< stretchEnd were written by edges; all but the last are pixels of their own.
            let stretchEnd = first(from: x, set: false)
            if stretchEnd &- x >= 2 {
                let last = stretchEnd &- 1
                var i = 0
                while x &+ i < last {
                    sum &+= line[x &+ i]
                    line[x &+ i] = 0
                    let c = Self.coverage(sum, evenOdd: evenOdd)
                    coverage[i] = c > minimum ? c : 0
                    i &+= 1
                }
                coverage[i] = 0
                coverage[i &+ 1] = 0
                coverage[i &+ 2] = 0
                varying(x, last)
                x = last
            }
            sum &+= line[x]
            line[x] = 0
            let end = first(from: x &+ 1, set: true)
            let c = Self.coverage(sum, evenOdd: evenOdd)
            if c > minimum { constant(x, end, c) }
            x = end
        }
        Self.endRow(line, bits, c0: c0, limit: limit)
    }

    /// The first cell from `x` on (x ≤ limit) whose touched bit is `set`, or `limit`: a row's words
    /// scanned 64 cells at a time.
    @inline(__always) static func first(
        _ bits: UnsafeMutablePointer<UInt64>, from x: Int, limit: Int, set: Bool
    ) -> Int {
        let flip: UInt64 = set ? 0 : ~0
        var w = x &>> 6
        var word = (bits[w] ^ flip) & (~0 &<< UInt64(x & 63))
        while word == 0 {
            w &+= 1
            if w &<< 6 >= limit { return limit }
            word = bits[w] ^ flip
        }
        return min(limit, (w &<< 6) &+ word.trailingZeroBitCount)
    }

    /// The end of a walked row: its cell past c1 (which only an edge's right part reaches) and its
    /// touched bits cleared.
    @inline(__always) static func endRow(
        _ line: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>, c0: Int, limit: Int
    ) {
        line[limit] = 0
        for w in (c0 &>> 6)...(limit &>> 6) { bits[w] = 0 }
    }

    /// Walks one accumulated row over columns c0…c1 (canvas-local) four cells at a time where edges
    /// wrote: `varying(start, count, coverages)` for four pixels (one to three where fewer are left
    /// before c1) starting at a cell an edge wrote, their coverages in lanes (zero where at most
    /// `minimum`), and `constant(start, end, coverage)` for the runs of untouched cells between, above
    /// `minimum`. The same coverage values as `spans` and `runs`, pixel for pixel: the running sum is
    /// taken cell by cell in the same order, and the rule applied in lanes (`coverages`). Clears the
    /// cells it read; c0…c1 from the shape's bounds, as for `sweep`.
    ///
    /// Why lanes of four and not `runs`' stretches: a stretch of edge pixels went through a loop writing
    /// each coverage to memory and a kernel reading it back, after a bit scan to find where it ended;
    /// most stretches are one to three pixels (a shape's sides), and that scaffolding cost more than the
    /// pixels. Callers pass a rule that is a constant where they are compiled (a literal): with the rule
    /// tested in the loop, the compiler copied the loop for each rule and stopped inlining the callers'
    /// closures.
    @inline(__always)
    func quads(
        row: Int, c0: Int, c1: Int, rule: FillRule, minimum: Float = 0.5 / 255,
        varying: (_ start: Int, _ count: Int, _ coverages: SIMD4<Float>) -> Void,
        constant: (_ start: Int, _ end: Int, _ coverage: Float) -> Void
    ) {
        let line = cells + row &* (capacityWidth &+ 2)
        let bits = touched + row &* wordsPerRow
        let limit = c1 &+ 1
        let evenOdd = rule == .evenOdd
        let cellBytes = UnsafeMutableRawPointer(line)
        var sum: Int32 = 0
        var x = c0
        while x < limit {
            if bits[x &>> 6] & (1 &<< UInt64(x & 63)) == 0 {
                let end = Self.first(bits, from: x, limit: limit, set: true)
                let c = Self.coverage(sum, evenOdd: evenOdd)
                if c > minimum { constant(x, end, c) }
                x = end
                continue
            }
            let count = min(4, limit &- x)
            let v: SIMD4<Int32>
            if count == 4 {
                v = cellBytes.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<Int32>.self)
                cellBytes.storeBytes(of: SIMD4<Int32>(), toByteOffset: x &* 4, as: SIMD4<Int32>.self)
            } else {
                // The last one to three cells lane by lane, not a zero vector filled in a loop: Swift 6.3's
                // optimizer merged that vector with a splat's shuffle mask at -O with -enable-testing (the
                // fuzz build), and IRGen crashed on the mask it had made a loop variable.
                v = SIMD4(line[x], count > 1 ? line[x &+ 1] : 0, count > 2 ? line[x &+ 2] : 0, 0)
                for i in 0..<count { line[x &+ i] = 0 }
            }
            let s0 = sum &+ v[0], s1 = s0 &+ v[1], s2 = s1 &+ v[2], s3 = s2 &+ v[3]
            sum = s3  // the lanes past c1 hold zero
            var c = Self.coverages(SIMD4(s0, s1, s2, s3), evenOdd: evenOdd)
            c.replace(with: 0, where: .!(c .> minimum))  // as `runs`' `c > minimum ? c : 0`
            varying(x, count, c)
            x &+= count
        }
        Self.endRow(line, bits, c0: c0, limit: limit)
    }

    /// `coverage` over four sums in lanes, the same values bit for bit (the same integer operations).
    @inline(__always) static func coverages(_ s: SIMD4<Int32>, evenOdd: Bool) -> SIMD4<Float> {
        let m = s &>> 31
        var a = (s ^ m) &- m
        if evenOdd {
            a &= 2 &* one &- 1
            a.replace(with: 2 &* one &- a, where: a .> one)
        } else {
            a.replace(with: one, where: a .> one)
        }
        return SIMD4<Float>(a) * (1 / Float(one))
    }

    /// The fill rule applied to an accumulated signed area: non-zero caps |sum| at `one`, even-odd folds
    /// it; then scaled to 0…1, exactly (at most 2²⁰ times a power of two). |sum| as (s ^ m) − m with m
    /// its sign, wrapping, as the lanes and the C kernels take it.
    @inline(__always) static func coverage(_ sum: Int32, evenOdd: Bool) -> Float {
        let m = sum &>> 31
        var a = (sum ^ m) &- m
        if evenOdd {
            a &= 2 &* one &- 1
            if a > one { a = 2 &* one &- a }
        } else if a > one {
            a = one
        }
        return Float(a) * (1 / Float(one))
    }
}
