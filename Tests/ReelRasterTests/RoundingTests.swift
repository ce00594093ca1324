/// The rasterizer's floor, ceiling and nearest by rounding (`CoverageScratch.floor`/`ceil`,
/// `Fixed87.nearestInt32`) against the standard library's, at the values where rounding to the nearest
/// could go wrong.
import Testing

@testable import ReelRaster

@Suite struct RoundingTests {
    /// Halves both ways (rounding ties to even goes down at 2.5, up at 3.5), signed zeros, the doubles
    /// either side of integers, tiny values, and the ±2²⁴ that edges are clipped to.
    static let values: [Double] = {
        var v: [Double] = [0, -0.0, 1e-300, -1e-300, 0.5, 1.5, 2.5, 3.5, 16_777_216, -16_777_216, 16_777_215.5, 2_000_000_000.25]
        for n in [1.0, 2, 3, 7, 31, 32, 33, 1023, 1024, 1_048_576] {
            for x in [n, -n] { v += [x, x.nextUp, x.nextDown, x + 0.5, x - 0.5] }
        }
        return v
    }()

    @Test func floorAndCeilingMatchTheStandardLibrary() {
        for v in Self.values {
            #expect(CoverageScratch.floor(v) == Int(v.rounded(.down)), "floor(\(v))")
            #expect(CoverageScratch.ceil(v) == Int(v.rounded(.up)), "ceil(\(v))")
        }
    }

    /// `nearestInt32` against `rounded(.toNearestOrEven)` over the same values and the ends of its range
    /// (2³¹ − 1, −2³¹, and the halves next to them, which round to even), where the low bits of the biased double must still be
    /// the rounded value.
    @Test func nearestInt32MatchesTheStandardLibrary() {
        let ends: [Double] = [2_147_483_647, -2_147_483_647, -2_147_483_648, 2_147_483_646.5, -2_147_483_647.5, 2_145_386_496.4]
        var checked = 0
        for v in Self.values + ends {
            guard let expected = Int32(exactly: v.rounded(.toNearestOrEven)) else { continue }
            #expect(Fixed87.nearestInt32(v) == expected, "nearestInt32(\(v))")
            checked += 1
        }
        #expect(checked == Self.values.count + ends.count)
    }

    /// Infinite and NaN give 0, a column in bounds, rather than a trap (the callers never pass them).
    @Test func nonFiniteGivesZero() {
        for v in [Double.infinity, -Double.infinity, Double.nan] {
            #expect(CoverageScratch.floor(v) == 0)
            #expect(CoverageScratch.ceil(v) == 0)
        }
    }
}
