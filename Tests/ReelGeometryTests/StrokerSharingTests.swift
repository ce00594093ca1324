/// The stroker's shortcuts against the long way round: a clean polyline's arrays shared instead of
/// copied (`Stroker.isDeduplicated`), and a stroke's round-join circle worked out once
/// (`Stroker.circleOffsets`).
import Foundation
import Testing

@testable import ReelGeometry

@Suite struct StrokerSharingTests {
    @Test func isDeduplicatedTellsCleanPolylines() {
        let a = Point(x: 0, y: 0), b = Point(x: 10, y: 0), c = Point(x: 10, y: 10)
        #expect(Stroker.isDeduplicated(Polyline(points: [a, b, c], closed: false)))
        #expect(Stroker.isDeduplicated(Polyline(points: [a, b, c], closed: true)))
        // A repeated point, the start repeated at the end of a closed line, -0 against +0 (equal by
        // `==`, as the clean-up compares), and flags that do not match the points.
        #expect(!Stroker.isDeduplicated(Polyline(points: [a, b, b, c], closed: false)))
        #expect(!Stroker.isDeduplicated(Polyline(points: [a, b, c, a], closed: true)))
        #expect(!Stroker.isDeduplicated(Polyline(points: [Point(x: -0.0, y: 0), a, b], closed: false)))
        #expect(!Stroker.isDeduplicated(Polyline(points: [a, b, c], corner: [true, true], closed: false)))
        // An open line may end where it starts.
        #expect(Stroker.isDeduplicated(Polyline(points: [a, b, c, a], closed: false)))
    }

    /// A polyline with a repeated point (cleaned up the long way) strokes to the same outline as the
    /// same polyline without it (shared as it is), the repeated point's corner flag kept; so does a
    /// closed line whose last point is its first. Round joins take the cached circle.
    @Test func sharedPolylinesStrokeAsCleanedOnes() {
        let p = [Point(x: 0, y: 0), Point(x: 40, y: 3), Point(x: 42, y: 3.5), Point(x: 10, y: 30), Point(x: 60, y: 50)]
        for join in LineJoin.allCases {
            let style = StrokeStyle(lineWidth: 6, lineCap: .round, lineJoin: join)
            let clean = Polyline(points: p, corner: [true, true, false, true, true], closed: false)
            let repeated = Polyline(
                points: [p[0], p[1], p[1], p[2], p[3], p[4]], corner: [true, false, true, false, true, true], closed: false)
            #expect(outline(clean, style) == outline(repeated, style), "\(join)")
            let ring = Polyline(points: p, closed: true)
            let ringWithEnd = Polyline(points: p + [p[0]], closed: true)
            #expect(outline(ring, style) == outline(ringWithEnd, style), "\(join)")
            #expect(!outline(ring, style).isEmpty)
        }
    }

    /// The circle from its offsets, bit for bit as the formula puts each vertex in place: the
    /// regular n-gon within the tolerance, its circumradius R scaled for the circle's area, vertex i at
    /// c + R·(cos aᵢ, sin aᵢ).
    @Test func circleFromOffsetsIsTheFormulasCircle() {
        for (c, r, tolerance) in [
            (Point(x: 0, y: 0), 1.0, 0.025), (Point(x: 1e6 + 0.3, y: -7.25), 3.5, 0.025), (Point(x: 12.5, y: 9), 0.01, 0.025),
        ] {
            let step = r > tolerance ? 2 * acos(1 - tolerance / r) : Double.pi / 4
            let n = min(1024, max(8, Int((2 * Double.pi / step).rounded(.up))))
            let R = r * (Double.pi / (Double(n) / 2 * sin(2 * Double.pi / Double(n)))).squareRoot()
            let expected = (0..<n).map { i -> Point in
                let a = Double(i) * 2 * Double.pi / Double(n)
                return Point(x: c.x + R * cos(a), y: c.y + R * sin(a))
            }
            #expect(Stroker.circle(around: c, offsets: Stroker.circleOffsets(r, tolerance)) == expected)
            #expect(Stroker.circle(c, r, tolerance) == expected)
        }
    }

    private func outline(_ line: Polyline, _ style: StrokeStyle) -> [Point] {
        var out = StrokeOutline()
        Stroker.strokePolyline(line, style: style, tolerance: 0.1, into: &out)
        out.close()
        return out.points
    }
}
