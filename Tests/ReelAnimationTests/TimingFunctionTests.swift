// Cubic Bézier timing functions against CORE-ANIMATION.md §2's vectors and a bisection of the curve; ends, extrapolation.
import ReelAnimation
import ReelTestSupport
import Testing

@Suite struct TimingFunctionTests {
    /// CORE-ANIMATION.md §2, "Test vectors, computed" (6 decimals, so compared to 5e-7).
    @Test(arguments: [
        ("easeIn", [0.093465, 0.315357, 0.621862]),
        ("easeOut", [0.378138, 0.684643, 0.906535]),
        ("easeInEaseOut", [0.129162, 0.5, 0.870838]),
        ("default", [0.408511, 0.802403, 0.960459]),
    ])
    func specVectors(_ name: String, _ expected: [Double]) throws {
        let f = try #require(TimingFunction.named[name])
        for (x, y) in zip([0.25, 0.5, 0.75], expected) {
            #expect(abs(f(x) - y) < Tolerance.sixDecimals, "\(name)(\(x)) = \(f(x)), expected \(y)")
        }
    }

    /// Solved to 1e-7: x(t) for the returned t matches x, checked by evaluating the Bézier directly.
    @Test func solvesToTheStatedTolerance() {
        let f = TimingFunction(0.1, 0.9, 0.2, 1.3)  // overshooting y is allowed
        for i in 1..<100 {
            let x = Double(i) / 100
            let y = f(x)
            // Find t independently by dense bisection on the Bézier's x, then compare y.
            func bx(_ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * 0.1 + 3 * (1 - t) * t * t * 0.2 + t * t * t }
            func by(_ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * 0.9 + 3 * (1 - t) * t * t * 1.3 + t * t * t }
            var lo = 0.0, hi = 1.0
            for _ in 0..<80 {
                let m = (lo + hi) / 2
                if bx(m) < x { lo = m } else { hi = m }
            }
            // dy/dx is at most about 9 here, so 1e-7 in x is under 1e-6 in y.
            #expect(abs(y - by(lo)) < 1e-6, "x = \(x)")
        }
        #expect(f(0) == 0 && abs(f(1) - 1) < 1e-12)
    }

    @Test func endsAndExtrapolation() {
        #expect(TimingFunction.linear(0.3) == 0.3)
        #expect(TimingFunction.easeIn(-0.5) == 0)  // the start tangent of easeIn is flat
        #expect(abs(TimingFunction.easeOut(1.5) - 1) < 1e-12)  // and easeOut's end tangent
        #expect(TimingFunction(-1, 0, 2, 1) == TimingFunction(0, 0, 1, 1))  // control x clamped to [0, 1]
    }
}
