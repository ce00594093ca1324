// Paths: arcs, ovals and rects, SVG path data, trims and dashes, morphs, polyline storage, against hand-computed geometry.
import Foundation
import ReelGeometry
import Testing

func near(_ a: Point, _ b: Point, _ eps: Double = 1e-9) -> Bool { abs(a.x - b.x) <= eps && abs(a.y - b.y) <= eps }

/// Every flattened point of `path`.
func points(_ path: Path, tolerance: Double = 0.01) -> [Point] { path.polylines(tolerance: tolerance).flatMap(\.points) }

@Suite struct ArcTests {
    @Test func clockwiseQuarterInYDownSpace() throws {
        var p = Path()
        p.addArc(center: Point(x: 0, y: 0), radius: 10, startAngle: 0, endAngle: Double.pi / 2, clockwise: true)
        let pts = points(p)
        #expect(near(pts.first!, Point(x: 10, y: 0)))
        #expect(near(pts.last!, Point(x: 0, y: 10), 1e-9))
        // Every flattened point is on the circle (within the cubic approximation, 0.03 % of r) and in
        // the quadrant x ≥ 0, y ≥ 0: the short way round, towards +y.
        for q in pts {
            #expect(abs((q.x * q.x + q.y * q.y).squareRoot() - 10) < 0.003)
            #expect(q.x >= -1e-9 && q.y >= -1e-9)
        }
    }

    @Test func counterClockwiseGoesTheLongWay() {
        var p = Path()
        p.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: Double.pi / 2, clockwise: false)
        let b = p.bounds()!
        // From 0 down to −3π/2: through (0, −10) and (−10, 0), so the bounds cover three quadrants.
        #expect(abs(b.minX + 10) < 0.01 && abs(b.minY + 10) < 0.01 && abs(b.maxX - 10) < 0.01 && abs(b.maxY - 10) < 0.01)
    }

    @Test func searchIconTopHalf() {
        // StrokeAnimation's top half-circle: 5π/4 → π/4 clockwise passes straight up (0, −r) in y-down space.
        var p = Path()
        p.addArc(center: .zero, radius: 9, startAngle: 5 * Double.pi / 4, endAngle: Double.pi / 4, clockwise: true)
        let b = p.bounds()!
        #expect(abs(b.minY + 9) < 0.01)
        #expect(b.maxY < 9 * sin(Double.pi / 4) + 0.01)
        let lines = p.polylines(tolerance: 0.001)
        #expect(abs(PathMeasure.length(lines) - Double.pi * 9) < 0.01)  // half the circumference
    }

    @Test func sweepRules() {
        let twoPi = 2 * Double.pi
        // Measured on the flattened arc (rounded to 1e-6 rad), so compared to 1e-5.
        #expect(abs(Path.arcSweepForTesting(0, twoPi * 3, clockwise: true) - twoPi) < 1e-5)  // at most one turn
        #expect(abs(Path.arcSweepForTesting(1, 0, clockwise: true) - (twoPi - 1)) < 1e-5)
        #expect(abs(Path.arcSweepForTesting(0, 1, clockwise: false) - (1 - twoPi)) < 1e-5)
        #expect(Path.arcSweepForTesting(1, 1, clockwise: true) == 0)
    }

    @Test func arcFromCurrentPointAddsALine() {
        var p = Path()
        p.move(to: Point(x: -5, y: 0))
        p.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: 1, clockwise: true)
        #expect(p.elements[1] == .line(Point(x: 1, y: 0)))
    }
}

@Suite struct OvalAndRectTests {
    @Test func ovalStartsAtThreeOClockAndRunsClockwise() {
        let p = Path(ovalIn: Rect(x: 0, y: 0, width: 20, height: 10))
        let pts = points(p)
        #expect(near(pts[0], Point(x: 20, y: 5)))
        #expect(pts[1].y > 5)  // towards +y: clockwise on screen
        let lines = p.polylines(tolerance: 0.001)
        #expect(lines.count == 1 && lines[0].closed)
        let b = p.bounds()!
        #expect(abs(b.minX) < 1e-3 && abs(b.maxX - 20) < 1e-3 && abs(b.minY) < 1e-3 && abs(b.maxY - 10) < 1e-3)
    }

    @Test func circleCircumference() {
        let lines = Path(ovalIn: Rect(x: 0, y: 0, width: 20, height: 20)).polylines(tolerance: 0.0005)
        #expect(abs(PathMeasure.length(lines) - 20 * Double.pi) < 0.01)
    }

    @Test func transformsAndBounds() {
        let p = Path(rect: Rect(x: 1, y: 2, width: 3, height: 4)).applying(
            .scale(x: 2, y: 3).concatenating(.translation(x: 10, y: 0)))
        #expect(p.controlPointBounds == Rect(x: 12, y: 6, width: 6, height: 12))
    }
}

@Suite struct SVGPathDataTests {
    @Test func absoluteAndRelativeLines() throws {
        let p = try Path(svgPathData: "M10 10 h 5 v5 H10 z m 1 1 l 2 0 L 20,20 V 30")
        #expect(
            p.elements == [
                .move(Point(x: 10, y: 10)), .line(Point(x: 15, y: 10)), .line(Point(x: 15, y: 15)), .line(Point(x: 10, y: 15)),
                .close,
                .move(Point(x: 11, y: 11)), .line(Point(x: 13, y: 11)), .line(Point(x: 20, y: 20)), .line(Point(x: 20, y: 30)),
            ])
    }

    @Test func implicitRepeatsAndCompactNumbers() throws {
        let p = try Path(svgPathData: "M1.5.5-1-2 3e1,4E-1")
        // A moveto's extra pairs are linetos.
        #expect(p.elements == [.move(Point(x: 1.5, y: 0.5)), .line(Point(x: -1, y: -2)), .line(Point(x: 30, y: 0.4))])
    }

    @Test func smoothCurvesReflectTheirControlPoints() throws {
        let p = try Path(svgPathData: "M0 0 C 0 10 10 10 10 0 S 20 -10 20 0 Q 25 5 30 0 T 40 0")
        #expect(p.elements[2] == .cubic(Point(x: 10, y: -10), Point(x: 20, y: -10), Point(x: 20, y: 0)))
        #expect(p.elements[4] == .quad(Point(x: 35, y: -5), Point(x: 40, y: 0)))
        let r = try Path(svgPathData: "m0 0 c0 10 10 10 10 0 s10 -10 10 0")
        #expect(r.elements[2] == .cubic(Point(x: 10, y: -10), Point(x: 20, y: -10), Point(x: 20, y: 0)))
    }

    @Test func ellipticalArcs() throws {
        // From (0,0) to (20,0) with r = 10 and sweep-flag 1: centre (10,0), angles growing from π to 2π,
        // so through (10,−10) in y-down space. Compact flags "0120" are flags 0, 1 then x = 20.
        for data in ["M0 0 A10 10 0 0 1 20 0", "M0 0a10 10 0 0120 0"] {
            let p = try Path(svgPathData: data)
            let b = p.bounds()!
            #expect(abs(b.minY + 10) < 0.01 && abs(b.maxY) < 1e-6, "\(data): \(b)")
            #expect(p.currentPoint == Point(x: 20, y: 0))
        }
        // Radii too small are scaled up (F.6.6): still a half circle of radius 10.
        let scaled = try Path(svgPathData: "M0 0 A1 1 0 0 0 20 0")
        #expect(abs(scaled.bounds()!.maxY - 10) < 0.01)
        // Large arc: 270° of a circle of radius 10 around (10, 10) — from (0, 10) to (10, 0)? Check
        // the bounds reach three sides.
        let large = try Path(svgPathData: "M0 10 A10 10 0 1 0 10 0")
        let lb = large.bounds()!
        #expect(abs(lb.maxX - 20) < 0.01 && abs(lb.maxY - 20) < 0.01 && abs(lb.minX) < 0.01)
    }

    @Test(arguments: [
        ("M 10 10 L 20", 12, "expected a number, found the end of the data"),
        ("M 10 10 X 5", 8, "expected a number, found 'X'"),
        ("L 10 10", 0, "path data must start with a moveto (M or m), found 'L'"),
        ("M0 0 A 5 5 0 2 1 10 10", 13, "expected an arc flag (0 or 1)"),
        ("M0 0 Z 5", 7, "unexpected '5' after closepath"),
        ("M1e999 0", 1, "number 1e999 is out of range"),
    ])
    func errorsNameTheOffset(_ data: String, _ offset: Int, _ message: String) {
        do {
            _ = try Path(svgPathData: data)
            Issue.record("\(data) parsed")
        } catch {
            #expect(error.offset == offset && error.message == message, "\(error)")
        }
    }
}

@Suite struct MeasureTests {
    let square = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))

    @Test func trimHalfASquare() {
        let pieces = PathMeasure.trim(square.polylines(), start: 0, end: 0.5)
        #expect(pieces.count == 1 && !pieces[0].closed)
        #expect(pieces[0].points == [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10)])
    }

    @Test func trimAcrossSubpaths() throws {
        let p = try Path(svgPathData: "M0 0 H10 M0 5 H10")
        let pieces = PathMeasure.trim(p.polylines(), start: 0.25, end: 0.75)
        #expect(pieces.map(\.points) == [[Point(x: 5, y: 0), Point(x: 10, y: 0)], [Point(x: 0, y: 5), Point(x: 5, y: 5)]])
        #expect(PathMeasure.trim(p.polylines(), start: 0.6, end: 0.6).isEmpty)
        #expect(PathMeasure.trim(p.polylines(), start: 0.8, end: 0.2).isEmpty)
        #expect(PathMeasure.trim(p.polylines(), start: -1, end: 2).count == 2)  // confined to 0…1
    }

    @Test func dashIntervals() throws {
        let line = try Path(svgPathData: "M0 0 H10").polylines()
        let plain = try #require(PathMeasure.dashIntervals(line, pattern: [2, 1], phase: 0))
        #expect(plain.map { [$0.0, $0.1] } == [[0, 2], [3, 5], [6, 8], [9, 10]])
        let shifted = try #require(PathMeasure.dashIntervals(line, pattern: [2, 1], phase: 1))
        #expect(shifted.map { [$0.0, $0.1] } == [[0, 1], [2, 4], [5, 7], [8, 10]])
        // An odd pattern repeats: [3] means 3 on, 3 off.
        let odd = try #require(PathMeasure.dashIntervals(line, pattern: [3], phase: 0))
        #expect(odd.map { [$0.0, $0.1] } == [[0, 3], [6, 9]])
        #expect(PathMeasure.dashIntervals(line, pattern: [0, 0], phase: 0) == nil)  // no positive entry: solid
        #expect(PathMeasure.dashIntervals(line, pattern: [1, -1], phase: 0) == nil)
        #expect(PathMeasure.dashIntervals(line, pattern: [1e-9, 1e-9], phase: 0) == nil)  // too fine: solid, no hang
    }

    @Test func dashRestartsAtEachSubpath() throws {
        let two = try Path(svgPathData: "M0 0 H5 M0 5 H5").polylines()
        let d = try #require(PathMeasure.dashIntervals(two, pattern: [2, 2], phase: 0))
        #expect(d.map { [$0.0, $0.1] } == [[0, 2], [4, 5], [5, 7], [9, 10]])
    }
}

extension Path {
    static func arcSweepForTesting(_ a: Double, _ b: Double, clockwise: Bool) -> Double {
        var p = Path()
        p.addArc(center: .zero, radius: 1, startAngle: a, endAngle: b, clockwise: clockwise)
        // Sum the signed angle the flattened arc turns through.
        let pts = p.polylines(tolerance: 1e-4).flatMap(\.points)
        var total = 0.0
        for i in 1..<max(pts.count, 1) {
            var d = atan2(pts[i].y, pts[i].x) - atan2(pts[i - 1].y, pts[i - 1].x)
            if d > Double.pi { d -= 2 * Double.pi }
            if d < -Double.pi { d += 2 * Double.pi }
            total += d
        }
        return (total * 1e6).rounded() / 1e6
    }
}

@Suite struct MorphTests {
    @Test func matchingPathsLerpEveryPoint() throws {
        let a = try Path(svgPathData: "M0 0 L10 0 L10 10"), b = try Path(svgPathData: "M0 10 L20 10 Q30 20 40 40")
        let m = Path.morph(a, b, 0.5)
        // Lines and quads become cubics first; half way every point is the midpoint.
        #expect(m.elements[0] == .move(Point(x: 0, y: 5)))
        #expect(m.currentPoint == Point(x: 25, y: 25))
        #expect(Path.morph(a, b, 0) == a && Path.morph(a, b, 1) == b)
        // Line (0,0)→(10,0) has controls at ⅓ and ⅔; line (0,10)→(20,10) too: midway controls (5, 5)/(10, 5).
        #expect(m.elements[1] == .cubic(Point(x: 5, y: 5), Point(x: 10, y: 5), Point(x: 15, y: 5)))
    }

    @Test func differentStructuresSwitchAtHalfway() throws {
        let a = try Path(svgPathData: "M0 0 L10 0"), b = try Path(svgPathData: "M0 0 L10 0 L10 10 Z")
        #expect(Path.morph(a, b, 0.4).elements.count == 2)  // the common prefix, then the source's (nothing)
        #expect(Path.morph(a, b, 0.6).elements.count == 4)  // the rest from the target
    }

    @Test func svgPathDataRoundTrip() throws {
        let p = try Path(svgPathData: "M1 2 L3.5 4 Q5 6 7 8 C9 10 11 12 13 14 Z")
        #expect(try Path(svgPathData: p.svgPathData) == p)
    }
}

/// `polylines` makes room for a subpath's points at once (room for the whole path's elements), and
/// must not leave that room in every polyline: a path of many small subpaths would hold memory in
/// proportion to subpaths × elements.
@Suite struct PolylineStorageTests {
    @Test func polylinesHoldAboutTheirOwnPoints() {
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        for i in 1...3_000 { path.addLine(to: Point(x: Double(i), y: Double(i % 7))) }
        for k in 0..<500 {
            let x = Double(k) * 3
            path.move(to: Point(x: x, y: 100))
            path.addLine(to: Point(x: x + 2, y: 100))
            path.addLine(to: Point(x: x + 1, y: 102))
            path.closeSubpath()
        }
        let lines = path.polylines()
        #expect(lines.count == 501)
        #expect(lines[0].points.count == 3_001)
        for line in lines {
            // Twice the points and a little: what growing append by append could leave, and more than a
            // copy to size takes (the allocator rounds a size up to 16 bytes and more: an element for
            // points, up to a few dozen one-byte flags).
            #expect(line.points.capacity <= 2 * line.points.count + 16)
            #expect(line.corner.capacity <= 2 * line.corner.count + 48)
        }
        #expect(lines[1].points == [Point(x: 0, y: 100), Point(x: 2, y: 100), Point(x: 1, y: 102)])
    }
}
