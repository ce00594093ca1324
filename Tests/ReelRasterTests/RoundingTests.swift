/// The rasterizer's floor and ceiling by rounding (`CoverageScratch.floor`/`ceil`) against the standard
/// library's, at the values where rounding to the nearest could go wrong.
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

    /// Infinite and NaN give 0, a column in bounds, rather than a trap (the callers never pass them).
    @Test func nonFiniteGivesZero() {
        for v in [Double.infinity, -Double.infinity, Double.nan] {
            #expect(CoverageScratch.floor(v) == 0)
            #expect(CoverageScratch.ceil(v) == 0)
        }
    }
}
