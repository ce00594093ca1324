// Fill coverage against each pixel's exact area (clipping, shoelace), extreme geometry, the same bytes for any band split.
import ReelGeometry
import ReelRaster
import ReelTestSupport
import Testing

/// Exact area of the part of polygon `poly` inside the unit pixel at (px, py), by Sutherland–Hodgman
/// clipping and the shoelace formula: an independent computation of what the rasterizer should give.
func exactPixelCoverage(_ poly: [Point], px: Int, py: Int) -> Double {
    var pts = poly
    let x0 = Double(px), x1 = Double(px + 1), y0 = Double(py), y1 = Double(py + 1)
    let planes: [(Point) -> Double] = [{ $0.x - x0 }, { x1 - $0.x }, { $0.y - y0 }, { y1 - $0.y }]
    for inside in planes {
        var out: [Point] = []
        for i in 0..<pts.count {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            let da = inside(a), db = inside(b)
            if da >= 0 { out.append(a) }
            if (da >= 0) != (db >= 0) {
                let t = da / (da - db)
                out.append(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
            }
        }
        pts = out
        if pts.isEmpty { return 0 }
    }
    var area = 0.0
    for i in 0..<pts.count {
        let a = pts[i], b = pts[(i + 1) % pts.count]
        area += a.x * b.y - b.x * a.y
    }
    return abs(area) / 2
}

/// The largest difference, in levels, between a frame's alpha and the exact area of `polygon` in each
/// of its pixels.
func worstAlphaError(_ frame: Frame, _ polygon: [Point]) -> Double {
    var worst = 0.0
    for y in 0..<frame.height {
        for x in 0..<frame.width {
            worst = max(worst, abs(Double(frame.pixel(x: x, y: y).a) - exactPixelCoverage(polygon, px: x, py: y) * 255))
        }
    }
    return worst
}

/// A 2×2 image of opaque black texels.
func opaqueBlack() throws -> RasterImage {
    try #require(RasterImage(width: 2, height: 2, premultipliedRGBA: (0..<16).map { $0 % 4 == 3 ? 255 : 0 }))
}

/// Polygons whose edges cross rows in stretches of partly covered pixels: a triangle, a diamond clipped
/// by every frame edge, a long thin sliver.
let edgePolygons: [[Point]] = [
    [Point(x: 1.3, y: 0.7), Point(x: 17.9, y: 5.2), Point(x: 6.1, y: 15.6)],
    [Point(x: 10, y: -3), Point(x: 23, y: 10), Point(x: 10, y: 23), Point(x: -3, y: 10)],
    [Point(x: 0.2, y: 9.6), Point(x: 19.7, y: 10.9), Point(x: 19.7, y: 12.1), Point(x: 0.2, y: 10.4)],
]

func polygonPath(_ pts: [Point]) -> Path {
    var p = Path()
    p.move(to: pts[0])
    for q in pts.dropFirst() { p.addLine(to: q) }
    p.closeSubpath()
    return p
}

@Suite struct CoverageTests {
    let opaqueRed = Color(red: 1, green: 0, blue: 0)

    @Test func pixelAlignedRectIsExact() throws {
        var list = DisplayList(background: .white)
        list.commands = [.fill(path: Path(rect: Rect(x: 2, y: 3, width: 4, height: 4)), color: opaqueRed, opacity: 1)]
        let frame = try renderEveryWay(list, width: 10, height: 10)
        for y in 0..<10 {
            for x in 0..<10 {
                let inside = (2..<6).contains(x) && (3..<7).contains(y)
                let p = frame.pixel(x: x, y: y)
                #expect(
                    inside
                        ? (p.r == 255 && p.g == 0 && p.b == 0 && p.a == 255)
                        : (p.r == 255 && p.g == 255 && p.b == 255 && p.a == 255),
                    "pixel (\(x), \(y)) = \(p)")
            }
        }
    }

    /// Every pixel's alpha against the exact covered area. Tolerance: 1 level of 255 — rounding to 8 bits
    /// gives at most ½ level, and Float accumulation along a row stays far below another ½ level.
    /// Cases: a triangle, clockwise and counter-clockwise; a diamond clipped by every frame edge; a
    /// sliver thinner than a pixel; a triangle with every coordinate at a half, where rounding to the
    /// nearest goes down (2.5) and up (3.5), and one on whole numbers partly off three sides of the frame
    /// (the rows and columns an edge starts and ends in come from a floor and a ceiling done by rounding).
    @Test(arguments: [
        [Point(x: 1.3, y: 0.7), Point(x: 17.9, y: 5.2), Point(x: 6.1, y: 15.6)],
        [Point(x: 6.1, y: 15.6), Point(x: 17.9, y: 5.2), Point(x: 1.3, y: 0.7)],
        [Point(x: 10, y: -3), Point(x: 23, y: 10), Point(x: 10, y: 23), Point(x: -3, y: 10)],
        [Point(x: 2.25, y: 2.75), Point(x: 2.25, y: 13.5), Point(x: 2.4, y: 13.5), Point(x: 2.4, y: 2.75)],
        [Point(x: 2.5, y: 3.5), Point(x: 16.5, y: 2.5), Point(x: 3.5, y: 18.5)],
        [Point(x: -4, y: -2), Point(x: 19, y: 6), Point(x: 5, y: 21)],
    ])
    func coverageIsExactArea(_ polygon: [Point]) throws {
        var list = DisplayList(background: .clear)
        list.commands = [.fill(path: polygonPath(polygon), color: .black, opacity: 1)]
        let frame = try renderEveryWay(list, width: 20, height: 20)
        let worst = worstAlphaError(frame, polygon)
        #expect(worst <= Tolerance.exactAreaLevels, "worst alpha error \(worst) levels")
    }

    /// A column from (5, 0) to (6, 5) whose top edge is a subnormal 2 × 2⁻¹⁰³⁰ (1.7 × 10⁻³¹⁰) tall across row 0: that
    /// edge's slope overflows to infinity (converting the x it gave to a column trapped). Hand-computed:
    /// the column's five pixels fully covered, every other pixel clear; the top edge adds nothing.
    @Test func edgeOfSubnormalHeightAddsNothing() throws {
        var path = Path()
        path.move(to: Point(x: 5, y: -0x1p-1030))
        path.addLine(to: Point(x: 6, y: 0x1p-1030))
        path.addLine(to: Point(x: 6, y: 5))
        path.addLine(to: Point(x: 5, y: 5))
        path.closeSubpath()
        var list = DisplayList(background: .clear)
        list.commands = [.fill(path: path, color: .black, opacity: 1)]
        let frame = try renderEveryWay(list, width: 10, height: 8)
        for y in 0..<8 {
            for x in 0..<10 {
                let expected: UInt8 = x == 5 && y < 5 ? 255 : 0
                #expect(frame.pixel(x: x, y: y).a == expected, "pixel (\(x), \(y))")
            }
        }
    }

    /// The same polygons filled with an axial gradient of one colour (black to black), whose edge pixels
    /// go through the gradient kernel's lanes four at a time, each at its own coverage: every pixel's
    /// alpha against the exact area, as above. Tolerance: 1 level, as above (the kernel's 16-bit
    /// arithmetic holds the colour to 1/256 of a level and the coverage to 1/65536).
    @Test(arguments: edgePolygons)
    func gradientEdgesCoverExactArea(_ polygon: [Point]) throws {
        var list = DisplayList(background: .clear)
        let g = Gradient(kind: .axial(start: Point(x: 0, y: 0), end: Point(x: 20, y: 20)), colors: [.black, .black])
        list.commands = [.fill(path: polygonPath(polygon), paint: .gradient(g), opacity: 1, rule: .nonZero)]
        let frame = try renderEveryWay(list, width: 20, height: 20)
        let worst = worstAlphaError(frame, polygon)
        #expect(worst <= Tolerance.exactAreaLevels, "worst alpha error \(worst) levels")
    }

    /// And with an image of one colour (2×2 opaque black texels stretched over the frame): the image
    /// kernel takes the edge pixels in lanes too, each at its own coverage. Tolerance 1 level, as above.
    @Test(arguments: edgePolygons)
    func imageEdgesCoverExactArea(_ polygon: [Point]) throws {
        let black = try opaqueBlack()
        var list = DisplayList(background: .clear)
        list.commands = [
            .fill(path: polygonPath(polygon), paint: .image(black, transform: .scale(x: 10, y: 10)), opacity: 1, rule: .nonZero)
        ]
        let frame = try renderEveryWay(list, width: 20, height: 20)
        let worst = worstAlphaError(frame, polygon)
        #expect(worst <= Tolerance.exactAreaLevels, "worst alpha error \(worst) levels")
    }

    /// An image squashed to 1/100,000 of a pixel's width (a card seen edge on): its texel steps reach
    /// 100,000 a pixel, past what the image kernel's 16.16 steps hold, though an edge pixel's own sample
    /// lies within the image. Drawn as its clamped edge texels (all opaque black): alpha against the exact
    /// area, 1 level as above. The kernel trapped converting the step before it declined such spans.
    @Test func squashedImagesDrawTheirEdgeTexels() throws {
        let black = try opaqueBlack()
        let polygon = [Point(x: 0.2, y: 0.5), Point(x: 8, y: 0.5), Point(x: 8, y: 8), Point(x: 1.9, y: 8)]
        let squash = Transform2D.scale(x: 1e-5, y: 4).concatenating(.translation(x: 0.5, y: 0))
        var list = DisplayList(background: .clear)
        list.commands = [.fill(path: polygonPath(polygon), paint: .image(black, transform: squash), opacity: 1, rule: .nonZero)]
        let frame = try renderEveryWay(list, width: 10, height: 10)
        let worst = worstAlphaError(frame, polygon)
        #expect(worst <= Tolerance.exactAreaLevels, "worst alpha error \(worst) levels")
    }

    @Test func roundedRectAreaMatchesACircle() throws {
        // A 40×40 square with corner radius 20 is a circle of area π·20² = 1256.64 px². Budget: the cubic
        // corner approximation is ≤ 0.027 % of r outward (≤ 0.7 px² over the perimeter), flattening at
        // 0.1 px tolerance removes at most ⅔·0.1·perimeter (8.4 px²), 8-bit rounding ≤ ½ level on ~260
        // edge pixels (0.5 px²). So |area − π r²| ≤ 9.6 px².
        var list = DisplayList(background: .clear)
        list.commands = [
            .fill(
                path: Path(roundedRect: Rect(x: 5.3, y: 4.6, width: 40, height: 40), cornerRadius: 20), color: .black, opacity: 1)
        ]
        let frame = try renderEveryWay(list, width: 52, height: 52)
        let area = frame.pixels.enumerated().filter { $0.offset % 4 == 3 }.reduce(0.0) { $0 + Double($1.element) / 255 }
        #expect(abs(area - Double.pi * 400) <= 9.6, "area \(area)")
    }

    /// Shapes reaching 1e30 or 1e300 pixels away (a path through a huge coordinate, a scale of 1e200)
    /// are clipped to a square far outside the frame, which must leave what is inside exactly as drawn:
    /// each case is an axis-aligned rectangle in the frame (its far sides only move the edges that
    /// leave it), so the expected alpha is 255 inside it, 0 outside and ½ on a half-covered column.
    /// Before the clipping these trapped converting the coordinates to Int.
    @Test(arguments: [
        // Left side at -1e30: columns 0…4 full, column 5 half (right side at 5.5), rows 2…7.
        ([Point(x: -1e30, y: 2), Point(x: 5.5, y: 2), Point(x: 5.5, y: 8), Point(x: -1e30, y: 8)], (0, 5, 2, 8), 5),
        // Both sides beyond ±1e300: rows 4 and 5 across the whole frame.
        ([Point(x: -1e300, y: 4), Point(x: 1e300, y: 4), Point(x: 1e300, y: 6), Point(x: -1e300, y: 6)], (0, 12, 4, 6), -1),
        // An apex at y = -1e300 above a base from x = 2 to 8 at y = 8: within the frame the sides are
        // vertical to far below a pixel's width (3 / 1e300 per row).
        ([Point(x: 5, y: -1e300), Point(x: 8, y: 8), Point(x: 2, y: 8)], (2, 8, 0, 8), -1),
    ])
    func farGeometryDrawsWhatIsInside(_ polygon: [Point], _ box: (Int, Int, Int, Int), _ halfColumn: Int) throws {
        var list = DisplayList(background: .clear)
        list.commands = [.fill(path: polygonPath(polygon), color: .black, opacity: 1)]
        let frame = try renderEveryWay(list, width: 12, height: 12)
        for y in 0..<12 {
            for x in 0..<12 {
                let rows = (box.2..<box.3).contains(y)
                let expected = rows && (box.0..<box.1).contains(x) ? 255 : rows && x == halfColumn ? 128 : 0
                let a = Int(frame.pixel(x: x, y: y).a)
                #expect(
                    Double(abs(a - expected)) <= Tolerance.exactAreaLevels, "pixel (\(x), \(y)) alpha \(a), expected \(expected)")
            }
        }
    }

    @Test func opacityScalesCoverage() throws {
        var list = DisplayList(background: .white)
        list.commands = [.fill(path: Path(rect: Rect(x: 0, y: 0, width: 4, height: 4)), color: opaqueRed, opacity: 0.5)]
        let frame = try renderEveryWay(list, width: 4, height: 4)
        let p = frame.pixel(x: 1, y: 1)
        // Source-over: r = 255·0.5 + 255·0.5 = 255; g = b = 255·(1 − 0.5) = 127.5 → rounds to 128.
        #expect(p.r == 255 && p.g == 128 && p.b == 128 && p.a == 255)
    }

    @Test func nonFinitePathIsRefused() {
        var list = DisplayList(background: .white)
        list.commands = [
            .fill(path: polygonPath([Point(x: 0, y: 0), Point(x: .nan, y: 4), Point(x: 4, y: 4)]), color: .black, opacity: 1)
        ]
        #expect(throws: RasterError.nonFinitePath(commandIndex: 0)) {
            _ = try Rasterizer().render(list, width: 8, height: 8)
        }
    }
}

@Suite struct ParallelBandTests {
    func busyList() -> DisplayList {
        var list = DisplayList(background: Color(red: 0.06, green: 0.08, blue: 0.09))
        for i in 0..<12 {
            let d = Double(i)
            list.commands.append(
                .fill(
                    path: Path(
                        roundedRect: Rect(x: 3.3 + d * 9.7, y: 1.6 + d * 6.1, width: 40.25, height: 27.5), cornerRadius: 3 + d),
                    color: Color(red: d / 12, green: 0.8, blue: 1 - d / 12, alpha: 0.8), opacity: 0.9))
        }
        // Slanted quadrilaterals under a translucent axial gradient, the last even-odd: edges through the
        // gradient's four-pixel lanes (non-zero) and through `runs` (even-odd).
        for i in 0..<3 {
            let d = Double(i)
            let g = Gradient(
                kind: .axial(start: Point(x: 10 + d * 30, y: 0), end: Point(x: 150 - d * 20, y: 100)),
                colors: [Color(red: 1, green: 0.2, blue: 0, alpha: 0.7), Color(red: 0, green: 0.4, blue: 1)])
            let quad = [
                Point(x: 12.3 + d * 31, y: 5.2 + d * 20), Point(x: 90.6 + d * 17, y: 9.9 + d * 20),
                Point(x: 120.1 + d * 9, y: 38.4 + d * 22), Point(x: 30.7 + d * 25, y: 31.1 + d * 21),
            ]
            list.commands.append(
                .fill(path: polygonPath(quad), paint: .gradient(g), opacity: 1, rule: i == 2 ? .evenOdd : .nonZero))
        }
        return list
    }

    @Test func outputIsIdenticalForAnyThreadCount() throws {
        let one = try Rasterizer(threads: 1).render(busyList(), width: 160, height: 110)
        for threads in [2, 7] {
            let many = try Rasterizer(threads: threads).render(busyList(), width: 160, height: 110)
            #expect(many.pixels == one.pixels, "\(threads) threads differ from 1")
        }
    }

    /// Band edges leave no seam: cutting the frame into 3-row bands or into one band gives the same bytes.
    @Test func noSeamsAtBandEdges() throws {
        let thin = try Rasterizer(threads: 2, bandHeight: 3).render(busyList(), width: 160, height: 110)
        let whole = try Rasterizer(threads: 1, bandHeight: 1000).render(busyList(), width: 160, height: 110)
        #expect(thin.pixels == whole.pixels)
    }

    /// The fixed-point walk takes x at a band's first row from the edge's top (in 128 bits when the top
    /// is far above): slivers from 10⁶ and 2 × 10⁷ px above the frame to as far below, crossing its left
    /// and right sides, and short ones wholly inside, give the same bytes for bands of 1, 3, 7 and 1000
    /// rows, and none is dropped (each leaves some coverage in the frame).
    @Test func farEdgesGiveTheSameRowsForAnyBandStart() throws {
        var list = DisplayList(background: .clear)
        let polygons: [[Point]] = [
            [Point(x: -30, y: -1e6), Point(x: -29.3, y: -1e6), Point(x: 90.7, y: 1e6), Point(x: 90, y: 1e6)],
            [Point(x: 70.2, y: -2e7), Point(x: 71.1, y: -2e7), Point(x: -20.4, y: 2e7), Point(x: -21, y: 2e7)],
            [Point(x: 12.3, y: 3.7), Point(x: 41.9, y: 9.2), Point(x: 20.1, y: 30.6)],
            [Point(x: -5.5, y: 20.25), Point(x: 65.75, y: 24.5), Point(x: 64.5, y: 27.125), Point(x: -6.25, y: 22)],
        ]
        for p in polygons { list.commands.append(.fill(path: polygonPath(p), color: .black, opacity: 0.7)) }
        let whole = try Rasterizer(threads: 1, bandHeight: 1000).render(list, width: 60, height: 40)
        for height in [1, 3, 7] {
            let banded = try Rasterizer(threads: 2, bandHeight: height).render(list, width: 60, height: 40)
            #expect(banded.pixels == whole.pixels, "bands of \(height) rows differ from one band")
        }
        for y in [0, 20, 39] {
            #expect((0..<60).contains { whole.pixel(x: $0, y: y).a > 0 }, "row \(y) is empty")
        }
    }
}
