/// The nearest palette colour in Oklab, found without measuring every entry.
import Foundation

/// The nearest of a fixed set of Oklab colours: the same index as measuring every one of them (the
/// first of equals), found by walking outward in lightness from the query's and stopping on each side
/// where the lightness difference alone is more than the best distance so far. A clip's colours (16,739
/// in a 1080p GIF of 2,000 shapes, most of them anti-aliased edges) each took the full scan of 255
/// entries five times while its palette was built, and again as each first showed in a frame; the walk
/// measures about a sixth of the entries.
struct OklabNearest {
    /// The colours sorted by lightness (then by index, so the walk meets equals in a fixed order).
    private let sorted: [SIMD3<Float>]
    /// `sorted[i]`'s index among the colours given.
    private let index: [Int]
    /// The colours in the order given.
    private let colours: [SIMD3<Float>]
    /// For each colour, a squared distance within which a query has it as its one nearest: a quarter of
    /// the squared distance to its nearest other colour, less a margin. By the triangle inequality a
    /// query closer than half that distance is closer to it than to any other; the margin (10⁻⁴, where
    /// a squared distance in floats is within about 3 · 10⁻⁷ of the exact one) keeps that strict as the
    /// walk computes it, so the walk would answer the same.
    private let clear: [Float]

    init(_ colours: [SIMD3<Float>]) {
        let order = colours.indices.sorted { (colours[$0].x, $0) < (colours[$1].x, $1) }
        sorted = order.map { colours[$0] }
        index = order
        self.colours = colours
        var closest = [Float](repeating: .infinity, count: colours.count)
        for i in colours.indices {
            for j in colours.indices where j > i {
                let d = colours[i] - colours[j]
                let dd = (d * d).sum()
                closest[i] = min(closest[i], dd)
                closest[j] = min(closest[j], dd)
            }
        }
        clear = closest.map { $0.isFinite ? $0 / 4 * (1 - 1e-4) : 0 }
    }

    /// The index of the colour nearest to `lab`; 0 when there are none.
    func callAsFunction(_ lab: SIMD3<Float>) -> Int { walk(lab, best: Int.max, bestD: .infinity) }

    /// The same index, found sooner when `guess` (an index among the colours) is near it: the guess
    /// itself where the query is well inside its clear radius (`clear`), else the walk bounded from the
    /// start by the guess's distance instead of by infinity, so each side stops as soon as lightness
    /// alone puts a colour beyond it. Every colour at the nearest distance is still measured (the bound
    /// is never below it), so the answer and its tie-break are the same.
    func callAsFunction(_ lab: SIMD3<Float>, near guess: Int) -> Int {
        guard guess >= 0 && guess < colours.count else { return self(lab) }
        let d = lab - colours[guess]
        let dd = (d * d).sum()
        if dd < clear[guess] { return guess }
        // A query with NaN measures nothing below infinity (answer 0): no guess stands for that.
        guard dd < .infinity else { return self(lab) }
        return walk(lab, best: guess, bestD: dd)
    }

    private func walk(_ lab: SIMD3<Float>, best: Int, bestD: Float) -> Int {
        let n = sorted.count
        guard n > 0 else { return 0 }
        var best = best, bestD = bestD
        // The first colour at or above the query's lightness.
        var lo = 0, hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid].x < lab.x { lo = mid + 1 } else { hi = mid }
        }
        // A colour's squared distance is never below its squared lightness difference (a rounded sum of
        // non-negative terms is at least each term), and that difference only grows away from the
        // query; a side stops where it is more than the best, so a colour at the same distance is still
        // seen and the lower index wins, as in the full scan.
        /// Measures the colour at `j`; false once its side is done (past the end, or too far in lightness).
        @inline(__always) func visit(_ j: Int) -> Bool {
            guard j >= 0 && j < n else { return false }
            let d = lab - sorted[j]
            if d.x * d.x > bestD { return false }
            let dd = (d * d).sum()
            if dd < bestD || (dd == bestD && index[j] < best) {
                bestD = dd
                best = index[j]
            }
            return true
        }
        var up = lo, down = lo - 1
        var upOpen = true, downOpen = true
        while upOpen || downOpen {
            if upOpen {
                upOpen = visit(up)
                up += 1
            }
            if downOpen {
                downOpen = visit(down)
                down -= 1
            }
        }
        // Only a NaN query measures nothing below infinity; the full scan answers 0 then.
        return best == Int.max ? 0 : best
    }
}
