// 4×4 transforms: the product against the sum written entry by entry, bit for bit; finiteness.
import ReelGeometry
import Testing

@Suite struct Transform3DTests {
    /// The textbook product, r[i][j] = Σₖ a[i][k]·b[k][j] summed from 0 in k's order.
    static func product(_ a: Transform3D, _ b: Transform3D) -> [Double] {
        let a = a.values, b = b.values
        var r = [Double](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                var sum = 0.0
                for k in 0..<4 { sum += a[i * 4 + k] * b[k * 4 + j] }
                r[i * 4 + j] = sum
            }
        }
        return r
    }

    /// Entries from a fixed linear congruential sequence, with zeros of both signs and values whose
    /// products round, so that any change of order or of fusing would show in the bits.
    @Test func productIsTheSumEntryByEntryBitForBit() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            switch state >> 61 {
            case 0: return 0
            case 1: return -0.0
            default: return (Double(state >> 11) / Double(1 << 53) - 0.5) * 1e3 / 3
            }
        }
        for _ in 0..<500 {
            let a = Transform3D((0..<16).map { _ in next() })!, b = Transform3D((0..<16).map { _ in next() })!
            let got = a.concatenating(b).values.map(\.bitPattern), expected = Self.product(a, b).map(\.bitPattern)
            #expect(got == expected)
        }
        // A product of zeros of opposite signs sums to +0, as the entry-by-entry sum from 0 does.
        let minusZero = Transform3D([-0.0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])!
        #expect(minusZero.concatenating(.identity).m11.sign == .plus)
    }

    @Test func finiteUnlessAnEntryIsNot() {
        #expect(Transform3D.identity.isFinite)
        #expect(Transform3D([Double](repeating: 1e308, count: 16))!.isFinite)
        for i in 0..<16 {
            for bad in [Double.nan, .infinity, -.infinity] {
                var v = Transform3D.identity.values
                v[i] = bad
                #expect(!Transform3D(v)!.isFinite, "entry \(i): \(bad)")
            }
        }
    }
}
