/// The nearest palette colour in Oklab, found without measuring every entry.
import Foundation

/// The nearest of a fixed set of Oklab colours: the same index as measuring every one of them (the
/// first of equals), found by walking outward in lightness from the query's and stopping on each side
/// where the lightness difference alone is more than the best distance so far. A clip's colours (16,739
/// in a 1080p GIF of 2,000 shapes, most of them anti-aliased edges) each took the full scan of 255
/// entries five times while its palette was built, and again as each first showed in a frame; the walk
/// measures about a sixth of the entries.
///
/// The walk measures eight entries at a time (`SIMD8` lanes over the sorted colours' components, held
/// apart), a block at a time each way from the query's block: a few more entries measured, each for a
/// fraction of what one took alone (the search was 3.7 % of the CPU time of that GIF). The answer does
/// not depend on the order entries are measured in: it is the least distance, computed as the full
/// scan computes it ((x² + y²) + z², in floats), and of equals the first index.
struct OklabNearest {
    /// The colours sorted by lightness, as blocks of eight lanes per component; the last block filled
    /// with NaN, which is never nearest.
    private let l: [SIMD8<Float>]
    private let a: [SIMD8<Float>]
    private let b: [SIMD8<Float>]
    /// Each sorted colour's index among the colours given (Int32.max in the filling).
    private let index: [SIMD8<Int32>]
    /// The sorted lightnesses, one by one, for finding the query's place.
    private let lightness: [Float]
    /// The colours in the order given.
    private let colours: [SIMD3<Float>]
    init(_ colours: [SIMD3<Float>]) {
        let order = colours.indices.sorted { (colours[$0].x, $0) < (colours[$1].x, $1) }
        lightness = order.map { colours[$0].x }
        let blocks = (order.count + 7) / 8
        var l = [SIMD8<Float>](repeating: SIMD8(repeating: .nan), count: blocks)
        var a = l, b = l
        var index = [SIMD8<Int32>](repeating: SIMD8(repeating: .max), count: blocks)
        for (k, i) in order.enumerated() {
            l[k / 8][k % 8] = colours[i].x
            a[k / 8][k % 8] = colours[i].y
            b[k / 8][k % 8] = colours[i].z
            index[k / 8][k % 8] = Int32(i)
        }
        (self.l, self.a, self.b, self.index) = (l, a, b, index)
        self.colours = colours
    }

    /// The index of the colour nearest to `lab`; 0 when there are none.
    func callAsFunction(_ lab: SIMD3<Float>) -> Int { walk(lab, best: Int.max, bestD: .infinity) }

    /// The same index, found sooner when `guess` (an index among the colours) is near it: the walk
    /// bounded from the start by the guess's distance instead of by infinity, so each side stops as soon
    /// as lightness alone puts a colour beyond it. Every colour at the nearest distance is still measured
    /// (the bound is never below it), so the answer and its tie-break are the same. (A radius around
    /// each colour within which it answers at once, a quarter of the squared distance to its nearest
    /// other, saved nothing measurable once the walk went eight colours at a time, and cost a pass over
    /// every pair of colours for each search made.)
    func callAsFunction(_ lab: SIMD3<Float>, near guess: Int) -> Int {
        guard guess >= 0 && guess < colours.count else { return self(lab) }
        let d = lab - colours[guess]
        let dd = (d * d).sum()
        // A query with NaN measures nothing below infinity (answer 0): no guess stands for that.
        guard dd < .infinity else { return self(lab) }
        return walk(lab, best: guess, bestD: dd)
    }

    private func walk(_ lab: SIMD3<Float>, best: Int, bestD: Float) -> Int {
        let n = lightness.count
        // A query that is not a number is nearer to nothing: the full scan answers 0.
        guard n > 0, !lab.x.isNaN, !lab.y.isNaN, !lab.z.isNaN else { return 0 }
        // The first colour at or above the query's lightness, and its block.
        var lo = 0, hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if lightness[mid] < lab.x { lo = mid + 1 } else { hi = mid }
        }
        var best = best, bestD = bestD
        let qx = SIMD8(repeating: lab.x), qy = SIMD8(repeating: lab.y), qz = SIMD8(repeating: lab.z)
        // A colour's squared distance is never below its squared lightness difference (a rounded sum of
        // non-negative terms is at least each term), and that difference only grows away from the query;
        // a side stops after a block whose outermost colour is more than the best away in lightness alone,
        // so a colour at the best distance is still seen and the lower index wins, as in the full scan.
        let blocks = l.count
        var up = min(lo / 8, blocks - 1), down = up - 1
        var upOpen = true, downOpen = down >= 0
        while upOpen || downOpen {
            if upOpen {
                let dx2 = Self.measure(l[up], a[up], b[up], index[up], qx, qy, qz, &best, &bestD)
                // The block's last colour (its last real one, where the block ends the colours).
                upOpen = !(dx2[min(7, n - 1 - up * 8)] > bestD) && up + 1 < blocks
                up += 1
            }
            if downOpen {
                let dx2 = Self.measure(l[down], a[down], b[down], index[down], qx, qy, qz, &best, &bestD)
                downOpen = !(dx2[0] > bestD) && down > 0
                down -= 1
            }
        }
        return best == Int.max ? 0 : best
    }

    /// Measures a block of eight colours against the query, keeping the nearest (the lower index of
    /// equals); gives the lightness differences squared.
    @inline(__always) private static func measure(
        _ l: SIMD8<Float>, _ a: SIMD8<Float>, _ b: SIMD8<Float>, _ indices: SIMD8<Int32>, _ qx: SIMD8<Float>,
        _ qy: SIMD8<Float>, _ qz: SIMD8<Float>, _ best: inout Int, _ bestD: inout Float
    ) -> SIMD8<Float> {
        let dx = qx - l, dy = qy - a, dz = qz - b
        let dx2 = dx * dx
        let dd = dx2 + dy * dy + dz * dz
        if any(dd .<= bestD) {
            for lane in 0..<8 where dd[lane] <= bestD {
                let i = Int(indices[lane])
                if dd[lane] < bestD || i < best {
                    bestD = dd[lane]
                    best = i
                }
            }
        }
        return dx2
    }
}
