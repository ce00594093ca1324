// Distances along paths against hand-computed lengths, points and directions.
import Foundation
import ReelGeometry
import Testing

@Suite struct ArcLengthTests {
    /// The parabola y = x² from (0, 0) to (1, 1) is the quad with its control at (0.5, 0); its length is
    /// (2√5 + asinh 2) / 4 = 1.478942857544597 (the integral of √(1 + 4x²)).
    static let parabolaLength = (2 * 5.0.squareRoot() + asinh(2.0)) / 4

    /// x where the parabola's length from 0 reaches `s` (bisection on the closed form of the integral).
    static func parabolaX(atLength s: Double) -> Double {
        func length(_ x: Double) -> Double { (2 * x * (1 + 4 * x * x).squareRoot() + asinh(2 * x)) / 4 }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if length(mid) < s { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    @Test func aParabolasLengthPointsAndDirections() throws {
        var p = Path()
        p.move(to: .zero)
        p.addQuadCurve(to: Point(x: 1, y: 1), control: Point(x: 0.5, y: 0))
        let m = ArcLength(p)
        // Each step's length is integrated (five-point Gauss–Legendre): well within a billionth.
        #expect(abs(m.length - Self.parabolaLength) < 1e-9)
        for fraction in [0.0, 0.25, 0.5, 0.9, 1.0] {
            let s = Self.parabolaLength * fraction
            let x = Self.parabolaX(atLength: s)
            let (point, angle) = try #require(m.at(min(s, m.length)))
            #expect(abs(point.x - x) < 1e-9 && abs(point.y - x * x) < 1e-9, "at \(fraction): \(point) against x = \(x)")
            // The direction of (1, 2x), the derivative.
            #expect(abs(angle - atan2(2 * x, 1)) < 1e-9, "at \(fraction)")
        }
        #expect(m.at(-0.001) == nil && m.at(m.length + 0.001) == nil && m.at(.nan) == nil)
    }

    /// Subpaths run on without their gaps; a close counts as a line back to the subpath's start.
    @Test func subpathsFollowOneAnotherAndCloseCounts() throws {
        var p = Path()
        p.move(to: .zero)
        p.addLine(to: Point(x: 10, y: 0))
        p.move(to: Point(x: 100, y: 100))
        p.addLine(to: Point(x: 100, y: 110))
        p.addLine(to: Point(x: 90, y: 110))
        p.closeSubpath()
        let m = ArcLength(p)
        #expect(abs(m.length - (10 + 10 + 10 + 200.0.squareRoot())) < 1e-12)
        let a = try #require(m.at(5))
        #expect(near(a.point, Point(x: 5, y: 0)) && abs(a.angle) < 1e-12)
        let b = try #require(m.at(15))
        #expect(near(b.point, Point(x: 100, y: 105)) && abs(b.angle - .pi / 2) < 1e-12)
        // Halfway along the closing line, from (90, 110) up and right to (100, 100): heading −45°.
        let c = try #require(m.at(30 + 200.0.squareRoot() / 2))
        #expect(near(c.point, Point(x: 95, y: 105)) && abs(c.angle + .pi / 4) < 1e-12)
        // Where one segment ends and the next begins, the one ending there.
        let d = try #require(m.at(10))
        #expect(near(d.point, Point(x: 10, y: 0)) && abs(d.angle) < 1e-12)
    }

    /// A cubic whose first control sits on its start has no derivative there: the direction is the
    /// chord's near it, here along the line it draws.
    @Test func aCuspTakesTheChordsDirection() throws {
        var p = Path()
        p.move(to: .zero)
        p.addCurve(to: Point(x: 0, y: 30), control1: .zero, control2: Point(x: 0, y: 30))
        let m = ArcLength(p)
        #expect(abs(m.length - 30) < 1e-9)
        let start = try #require(m.at(0))
        #expect(near(start.point, .zero) && abs(start.angle - .pi / 2) < 1e-12)
        #expect(ArcLength(Path()).length == 0 && ArcLength(Path()).at(0) == nil)
    }

    /// Coordinates far past any drawing neither trap nor measure what a double cannot hold: a curve to
    /// 1e150 has a finite length; one to 1e200 (its squares overflow) measures nothing.
    @Test func hugeCoordinatesAreSafe() {
        var far = Path()
        far.move(to: .zero)
        far.addQuadCurve(to: Point(x: 1e150, y: 1e150), control: Point(x: 1e150, y: 0))
        let m = ArcLength(far)
        #expect(m.length.isFinite && m.length > 1e150 && m.at(m.length / 2) != nil)
        var farther = Path()
        farther.move(to: .zero)
        farther.addQuadCurve(to: Point(x: 1e200, y: 1e200), control: Point(x: 1e200, y: 0))
        #expect(ArcLength(farther).length == 0 && ArcLength(farther).at(0) == nil)
    }
}
