// Strokes (caps, joins, dashes, hairlines, fill rules) against the exact area of their outline drawn by hand as one polygon.
import Foundation
import ReelGeometry
import ReelRaster
import ReelTestSupport
import Testing

/// Strokes drawn by the rasterizer against the exact area of the stroke's outline, drawn by hand as one
/// simple polygon (an independent description of what the stroke covers). Tolerance as for fills:
/// 1 level of 255. A stroke outline made of overlapping pieces would count the overlap twice along
/// anti-aliased edges and fail this by tens of levels.
@Suite struct StrokeTests {
    func render(_ path: Path, _ style: StrokeStyle, size: Int = 48) throws -> Frame {
        var list = DisplayList(background: .clear)
        list.commands = [.fill(path: Stroker.outline(path, style: style), color: .black, opacity: 1)]
        return try renderEveryWay(list, width: size, height: size)
    }

    func worstError(_ frame: Frame, against polygon: [Point]) -> Double {
        var worst = 0.0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let expected = exactPixelCoverage(polygon, px: x, py: y) * 255
                worst = max(worst, abs(Double(frame.pixel(x: x, y: y).a) - expected))
            }
        }
        return worst
    }

    func line(_ pts: [Point], closed: Bool = false) -> Path {
        var p = Path()
        p.move(to: pts[0])
        for q in pts.dropFirst() { p.addLine(to: q) }
        if closed { p.closeSubpath() }
        return p
    }

    @Test func buttAndSquareCaps() throws {
        let seg = line([Point(x: 10.3, y: 10.6), Point(x: 30.7, y: 10.6)])
        let butt = try render(seg, StrokeStyle(lineWidth: 4.2))
        #expect(
            worstError(
                butt, against: [Point(x: 10.3, y: 8.5), Point(x: 30.7, y: 8.5), Point(x: 30.7, y: 12.7), Point(x: 10.3, y: 12.7)])
                <= 1)
        let square = try render(seg, StrokeStyle(lineWidth: 4.2, lineCap: .square))
        #expect(
            worstError(
                square, against: [Point(x: 8.2, y: 8.5), Point(x: 32.8, y: 8.5), Point(x: 32.8, y: 12.7), Point(x: 8.2, y: 12.7)])
                <= 1)
    }

    @Test func roundCapsAddHalfDiscs() throws {
        // Total ink = 20·4 + π·2² (two half discs). The cap polygons have the disc's exact area, so what
        // is left is 8-bit rounding: ≤ ½ level on each of ~60 edge pixels, 0.12 px².
        let f = try render(line([Point(x: 10, y: 10.5), Point(x: 30, y: 10.5)]), StrokeStyle(lineWidth: 4, lineCap: .round))
        let ink = f.pixels.enumerated().filter { $0.offset % 4 == 3 }.reduce(0.0) { $0 + Double($1.element) / 255 }
        #expect(abs(ink - (80 + Double.pi * 4)) <= 0.12, "ink \(ink)")
    }

    @Test func miterJoinIsExactIncludingTheInnerCorner() throws {
        let corner = line([Point(x: 10.25, y: 10.5), Point(x: 30.5, y: 10.5), Point(x: 30.5, y: 30.75)])
        let f = try render(corner, StrokeStyle(lineWidth: 4))
        let union = [
            Point(x: 10.25, y: 8.5), Point(x: 32.5, y: 8.5), Point(x: 32.5, y: 30.75), Point(x: 28.5, y: 30.75),
            Point(x: 28.5, y: 12.5), Point(x: 10.25, y: 12.5),
        ]
        #expect(worstError(f, against: union) <= Tolerance.exactAreaLevels)
    }

    @Test func bevelJoinAndMiterLimit() throws {
        let corner = line([Point(x: 10.25, y: 10.5), Point(x: 30.5, y: 10.5), Point(x: 30.5, y: 30.75)])
        let bevelled = [
            Point(x: 10.25, y: 8.5), Point(x: 30.5, y: 8.5), Point(x: 32.5, y: 10.5), Point(x: 32.5, y: 30.75),
            Point(x: 28.5, y: 30.75), Point(x: 28.5, y: 12.5), Point(x: 10.25, y: 12.5),
        ]
        #expect(
            worstError(try render(corner, StrokeStyle(lineWidth: 4, lineJoin: .bevel)), against: bevelled)
                <= Tolerance.exactAreaLevels)
        // A right angle's miter is √2 ≈ 1.414 line widths: a limit of 1.4 bevels it, 1.5 does not.
        #expect(
            worstError(try render(corner, StrokeStyle(lineWidth: 4, miterLimit: 1.4)), against: bevelled)
                <= Tolerance.exactAreaLevels)
        let mitred = try render(corner, StrokeStyle(lineWidth: 4, miterLimit: 1.5))
        #expect(mitred.pixel(x: 31, y: 9).a == 255)
    }

    @Test func closedSquareRingHasAHole() throws {
        let square = line(
            [Point(x: 10.5, y: 10.5), Point(x: 30.5, y: 10.5), Point(x: 30.5, y: 30.5), Point(x: 10.5, y: 30.5)], closed: true)
        let f = try render(square, StrokeStyle(lineWidth: 3))
        var worst = 0.0
        let outer = [Point(x: 9, y: 9), Point(x: 32, y: 9), Point(x: 32, y: 32), Point(x: 9, y: 32)]
        let inner = [Point(x: 12, y: 12), Point(x: 29, y: 12), Point(x: 29, y: 29), Point(x: 12, y: 29)]
        for y in 0..<48 {
            for x in 0..<48 {
                let expected = (exactPixelCoverage(outer, px: x, py: y) - exactPixelCoverage(inner, px: x, py: y)) * 255
                worst = max(worst, abs(Double(f.pixel(x: x, y: y).a) - expected))
            }
        }
        #expect(worst <= Tolerance.exactAreaLevels, "worst \(worst)")
        #expect(f.pixel(x: 20, y: 20).a == 0)
    }

    @Test func zeroLengthSubpathsDrawDotsWithRoundAndSquareCaps() throws {
        let dot = line([Point(x: 20, y: 20), Point(x: 20, y: 20)])
        #expect(try render(dot, StrokeStyle(lineWidth: 6)).pixels.allSatisfy { $0 == 0 })  // butt: nothing
        let round = try render(dot, StrokeStyle(lineWidth: 6, lineCap: .round))
        let ink = round.pixels.enumerated().filter { $0.offset % 4 == 3 }.reduce(0.0) { $0 + Double($1.element) / 255 }
        // The dot polygon has the disc's exact area; 8-bit rounding on ~40 edge pixels: ≤ 0.08 px².
        #expect(abs(ink - Double.pi * 9) <= 0.08, "ink \(ink)")
        let square = try render(dot, StrokeStyle(lineWidth: 6, lineCap: .square))
        #expect(
            worstError(square, against: [Point(x: 17, y: 17), Point(x: 23, y: 17), Point(x: 23, y: 23), Point(x: 17, y: 23)])
                <= Tolerance.exactAreaLevels
        )
    }

    @Test func hairlinesKeepTheirInk() throws {
        // A 0.25 px line 20 px long covers 5 px² whatever its sub-pixel position.
        for offset in [0.0, 0.1, 0.5, 0.875] {
            let f = try render(line([Point(x: 10, y: 20 + offset), Point(x: 30, y: 20 + offset)]), StrokeStyle(lineWidth: 0.25))
            let ink = f.pixels.enumerated().filter { $0.offset % 4 == 3 }.reduce(0.0) { $0 + Double($1.element) / 255 }
            #expect(abs(ink - 5) <= 20 * 0.5 / 255 * 2 + 1e-9, "offset \(offset): ink \(ink)")
        }
    }

    @Test func dashesWithPhase() throws {
        var style = StrokeStyle(lineWidth: 2)
        style.lineDashPattern = [4, 4]
        style.lineDashPhase = 2
        // Phase 2: on 0–2, off 2–6, on 6–10, off 10–14, on 14–18, off 18–20 along x = 10…30.
        let f = try render(line([Point(x: 10, y: 20), Point(x: 30, y: 20)]), style)
        for (x, expected) in [
            (10, 255), (11, 255), (12, 0), (15, 0), (16, 255), (19, 255), (20, 0), (24, 255), (27, 255), (28, 0), (29, 0),
        ] {
            #expect(Int(f.pixel(x: x, y: 19).a) == expected, "x = \(x)")
        }
    }

    @Test func strokeEndTrimsAndDashesDoNotSlide() throws {
        var style = StrokeStyle(lineWidth: 2)
        style.lineDashPattern = [4, 4]
        style.strokeEnd = 0.5
        let f = try render(line([Point(x: 10, y: 20), Point(x: 30, y: 20)]), style)
        // The first 10 px of the path, with the dashes where the whole path has them: 10–14 on, 14–18 off, 18–20 on.
        for (x, expected) in [(10, 255), (13, 255), (14, 0), (17, 0), (18, 255), (19, 255), (20, 0), (26, 0)] {
            #expect(Int(f.pixel(x: x, y: 19).a) == expected, "x = \(x)")
        }
    }

    @Test func nearCuspStaysWhole() throws {
        // A cubic that doubles back on itself almost at a point: the stroke must stay solid along it.
        var p = Path()
        p.move(to: Point(x: 8, y: 24))
        p.addCurve(to: Point(x: 16, y: 24), control1: Point(x: 40, y: 24.2), control2: Point(x: -16, y: 23.8))
        let f = try render(p, StrokeStyle(lineWidth: 6))
        for t in stride(from: 0.0, through: 1.0, by: 0.01) {
            let u = 1 - t
            let x = u * u * u * 8 + 3 * u * u * t * 40 + 3 * u * t * t * -16 + t * t * t * 16
            let y = u * u * u * 24 + 3 * u * u * t * 24.2 + 3 * u * t * t * 23.8 + t * t * t * 24
            #expect(f.pixel(x: Int(x), y: Int(y)).a == 255, "hole at t = \(t)")
        }
    }

    @Test func fillRules() throws {
        // A pentagram: its centre winds twice, so non-zero fills it and even-odd leaves it empty.
        var star = Path()
        for i in 0..<5 {
            let a = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
            let p = Point(x: 24 + 20 * cos(a), y: 24 + 20 * sin(a))
            if i == 0 { star.move(to: p) } else { star.addLine(to: p) }
        }
        star.closeSubpath()
        for (rule, centre) in [(FillRule.nonZero, 255), (.evenOdd, 0)] {
            var list = DisplayList(background: .clear)
            list.commands = [.fill(path: star, color: .black, opacity: 1, rule: rule)]
            let f = try renderEveryWay(list, width: 48, height: 48)
            #expect(Int(f.pixel(x: 24, y: 24).a) == centre)
            #expect(f.pixel(x: 24, y: 8).a == 255)  // a point of the star: winding 1 under both rules
        }
    }
}

@Suite struct StrokeCommandTests {
    /// The rasterizer's stroke command is the stroker's outline, made in the path's own space at the
    /// tolerance divided by the transform's scale, then mapped: the same bytes as doing it by hand.
    @Test func strokeCommandIsTheTransformedOutline() throws {
        var p = Path()
        p.move(to: Point(x: 2, y: 3))
        p.addCurve(to: Point(x: 20, y: 15), control1: Point(x: 10, y: -5), control2: Point(x: 15, y: 25))
        let style = StrokeStyle(lineWidth: 3, lineCap: .round, lineJoin: .round)
        let t = Transform2D.scale(x: 2, y: 1).concatenating(.translation(x: 3.5, y: 10.25))
        var a = DisplayList(background: .white)
        a.commands = [.stroke(path: p, style: style, color: .black, transform: t)]
        var b = DisplayList(background: .white)
        b.commands = [.fill(path: Stroker.outline(p, style: style, tolerance: 0.05).applying(t), color: .black)]
        let fa = try Rasterizer(threads: 2).render(a, width: 60, height: 50)
        let fb = try Rasterizer(threads: 1).render(b, width: 60, height: 50)
        #expect(fa.pixels == fb.pixels)
        #expect(fa.pixel(x: 7, y: 13).r == 0)  // the start point, (2, 3) mapped to (7.5, 13.25)
    }

    @Test func nonFiniteStrokeIsRefused() {
        var p = Path()
        p.move(to: .zero)
        p.addLine(to: Point(x: 10, y: 10))
        let bad = Transform2D(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        #expect(throws: RasterError.nonFinitePath(commandIndex: 0)) {
            _ = try Rasterizer().render(
                DisplayList(
                    background: .white, commands: [.stroke(path: p, style: StrokeStyle(), color: .black, transform: bad)]),
                width: 8, height: 8)
        }
    }
}
