// Gradients, images, group opacity, clips, masks and shadows in the rasterizer, against hand-computed pixel values.
import Foundation
import ReelGeometry
import ReelRaster
import ReelTestSupport
import Testing

func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Path { Path(rect: Rect(x: x, y: y, width: w, height: h)) }

@Suite struct GradientTests {
    func render(_ g: Gradient, width: Int = 256, height: Int = 16, background: Color = .clear) throws -> Frame {
        var list = DisplayList(background: background)
        list.commands = [.fill(path: rect(0, 0, Double(width), Double(height)), paint: .gradient(g), opacity: 1, rule: .nonZero)]
        return try renderEveryWay(list, width: width, height: height)
    }

    /// A rasterizer keeps the last frame's ramps for the next (`RampCache`): a frame whose gradients
    /// changed must not get the old ramps, and one whose gradients came back must match a fresh
    /// rasterizer's. Keys differ by stops (colours, opacity), locations and interpolation. Exact: a
    /// kept ramp is the one the frame would make.
    @Test func rampsKeptBetweenFramesAreTheFramesOwn() throws {
        func list(_ paints: [Paint]) -> DisplayList {
            var list = DisplayList(background: .white)
            list.commands = paints.enumerated().map { i, paint in
                .fill(path: rect(0, Double(i) * 4, 64, 4), paint: paint, opacity: i == 3 ? 0.5 : 1, rule: .nonZero)
            }
            return list
        }
        let axial = Gradient.Kind.axial(start: Point(x: 0, y: 0), end: Point(x: 64, y: 0))
        let red = Paint.gradient(Gradient(kind: axial, colors: [Color(red: 1, green: 0, blue: 0), .white]))
        let blue = Paint.gradient(Gradient(kind: axial, colors: [Color(red: 0, green: 0, blue: 1), .white]))
        let clearRed = Color(red: 1, green: 0, blue: 0, alpha: 0.2)
        let premultiplied = Paint.gradient(Gradient(kind: axial, colors: [clearRed, .white]))
        let straight = Paint.gradient(Gradient(kind: axial, colors: [clearRed, .white], interpolation: .unpremultiplied))
        let early = Paint.gradient(
            Gradient(kind: axial, colors: [Color(red: 1, green: 0, blue: 0), .white], locations: [0, 0.25]))
        let late = Paint.gradient(
            Gradient(kind: axial, colors: [Color(red: 1, green: 0, blue: 0), .white], locations: [0.75, 1]))
        // Rows 0–3: the first gradient; 4–7 and 8–11: the same colours mixed two ways; 12–15: the first at
        // half opacity; 16–19: red to white at other locations.
        let a = list([red, premultiplied, straight, red, early]), b = list([blue, straight, premultiplied, blue, late])
        let kept = Rasterizer(threads: 1)
        let a1 = try kept.render(a, width: 64, height: 20), b1 = try kept.render(b, width: 64, height: 20)
        let a2 = try kept.render(a, width: 64, height: 20)
        #expect(a1.pixels == (try Rasterizer(threads: 1).render(a, width: 64, height: 20)).pixels)
        #expect(b1.pixels == (try Rasterizer(threads: 1).render(b, width: 64, height: 20)).pixels)
        #expect(a2.pixels == a1.pixels)
        // By hand, at x = 0 (s = 0.5/64): red then blue, at full and at half opacity over white; at x = 32
        // (s = 0.5078) white past location 0.25, red before location 0.75.
        let p = b1.pixel(x: 0, y: 1), q = b1.pixel(x: 0, y: 13), r = a2.pixel(x: 0, y: 13)
        #expect(a2.pixel(x: 32, y: 17) == (255, 255, 255, 255) && b1.pixel(x: 32, y: 17) == (255, 0, 0, 255))
        #expect(p.r <= 3 && p.b >= 252, "\(p)")
        #expect(abs(Int(q.r) - 129) <= Tolerance.gradientRoundedLevels && q.b == 255, "\(q)")
        #expect(r.r == 255 && abs(Int(r.b) - 129) <= Tolerance.gradientRoundedLevels, "\(r)")
        // The two mixes differ where the colour fades (straight mixing keeps red where premultiplied fades it).
        #expect(a1.pixel(x: 32, y: 5) != a1.pixel(x: 32, y: 9))
    }

    /// Black to white over 256 px: pixel x is (x + ½)/256 of the way, i.e. 255·(x + ½)/256. Tolerance:
    /// ½ level of dither, ½ level of rounding, and the 1024-entry ramp's step of ¼ level: 1.25.
    @Test func axialRamp() throws {
        let g = Gradient(kind: .axial(start: Point(x: 0, y: 0), end: Point(x: 256, y: 0)), colors: [.black, .white])
        let f = try render(g)
        for x in stride(from: 0, to: 256, by: 5) {
            let expected = 255 * (Double(x) + 0.5) / 256
            #expect(abs(Double(f.pixel(x: x, y: 3).r) - expected) <= Tolerance.gradientLevels, "x = \(x)")
        }
    }

    /// The ramp of `axialRamp` filling a parallelogram whose sides slant across the rows, starting well
    /// inside the frame: the pixels just inside its sides come four at a time with their own coverages
    /// (`CoverageScratch.quads`), each four's parameter from where it starts in the row. Every
    /// fully covered pixel against 255·(x + ½)/256; tolerance: the ramp's 1.25 levels, and 0.05 for a full
    /// pixel's coverage held to 65535/65536 in the lanes (0.004 level of 255).
    @Test func axialRampInsideSlantedSides() throws {
        let g = Gradient(kind: .axial(start: Point(x: 0, y: 0), end: Point(x: 256, y: 0)), colors: [.black, .white])
        let left = (top: 40.3, bottom: 70.6), right = (top: 200.7, bottom: 230.2)
        let quad = [
            Point(x: left.top, y: 2), Point(x: right.top, y: 2), Point(x: right.bottom, y: 18), Point(x: left.bottom, y: 18),
        ]
        var list = DisplayList(background: .clear)
        list.commands = [.fill(path: polygonPath(quad), paint: .gradient(g), opacity: 1, rule: .nonZero)]
        let f = try renderEveryWay(list, width: 256, height: 20)
        var checked = 0
        for y in 2..<18 {
            // Both sides move right going down: a pixel is whole where its square is right of the left
            // side at its bottom and left of the right side at its top.
            let l = left.top + (left.bottom - left.top) * Double(y + 1 - 2) / 16
            let r = right.top + (right.bottom - right.top) * Double(y - 2) / 16
            for x in Int(l.rounded(.up))..<Int(r.rounded(.down)) {
                let p = f.pixel(x: x, y: y)
                let expected = 255 * (Double(x) + 0.5) / 256
                #expect(
                    p.a == 255 && abs(Double(p.r) - expected) <= Tolerance.gradientInLanesLevels,
                    "(\(x), \(y)): \(p) against \(expected)")
                checked += 1
            }
        }
        #expect(checked > 2000)
    }

    @Test func unevenLocationsAndPadding() throws {
        let red = Color(red: 1, green: 0, blue: 0), green = Color(red: 0, green: 1, blue: 0),
            blue = Color(red: 0, green: 0, blue: 1)
        let g = Gradient(
            kind: .axial(start: Point(x: 64, y: 0), end: Point(x: 192, y: 0)), colors: [red, green, blue],
            locations: [0, 0.25, 1])
        let f = try render(g)
        #expect(f.pixel(x: 10, y: 0) == (255, 0, 0, 255))  // before the start: the first colour
        #expect(f.pixel(x: 250, y: 0) == (0, 0, 255, 255))  // after the end: the last colour
        // Pixel 95's centre is at s = (95.5 − 64)/128 = 0.2461, 98.4 % of the way from red (0) to green
        // (0.25): (4.0, 251.0, 0). Pixel 150's: s = 86.5/128 = 0.6758, 56.8 % from green to blue (1): (0, 110.2, 144.8).
        // Tolerance 1.25 levels, as for the ramp above.
        let p = f.pixel(x: 95, y: 0), q = f.pixel(x: 150, y: 0)
        #expect(
            abs(Double(p.r) - 4.0) <= Tolerance.gradientLevels && abs(Double(p.g) - 251.0) <= Tolerance.gradientLevels
                && p.b == 0, "\(p)")
        #expect(
            q.r == 0 && abs(Double(q.g) - 110.2) <= Tolerance.gradientLevels
                && abs(Double(q.b) - 144.8) <= Tolerance.gradientLevels, "\(q)")
    }

    /// Locations a subnormal distance apart (the first segment's reciprocal is infinite): the padding
    /// before the start takes the colour at location 0, green ((0 − (−10⁻³¹⁰))/10⁻³¹⁰ = 1 of the way from
    /// red), where the reciprocal once made it inf · 10⁻³¹⁰, a colour of infinities. The gradient starts
    /// at x = 128, so pixels left of it are that padding; tolerance: the dither's half level.
    @Test func subnormalSegmentsKeepTheirColours() throws {
        let g = Gradient(
            kind: .axial(start: Point(x: 128, y: 0), end: Point(x: 384, y: 0)),
            colors: [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 1, blue: 0), Color(red: 0, green: 0, blue: 1)],
            locations: [-0x1p-1030, 0, 1])
        let f = try render(g)
        for x in [0, 10, 100] {
            let p = f.pixel(x: x, y: 0)
            #expect(p.r == 0 && p.g >= 254 && p.b == 0 && p.a == 255, "\(x): \(p)")
        }
    }

    /// Interpolation in premultiplied space: opaque red to transparent blue is, half way, red at half
    /// alpha (no blue tint and no darkening), so over white it is (255, 128, 128).
    @Test func premultipliedInterpolation() throws {
        let g = Gradient(
            kind: .axial(start: Point(x: 0, y: 0), end: Point(x: 256, y: 0)),
            colors: [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1, alpha: 0)])
        let f = try render(g, background: .white)
        let p = f.pixel(x: 128, y: 0)
        #expect(
            p.r == 255 && abs(Int(p.g) - 127) <= Tolerance.gradientRoundedLevels
                && abs(Int(p.b) - 127) <= Tolerance.gradientRoundedLevels, "\(p)")
    }

    /// Dithering: a ramp of 4 levels over 512 px would store as 4 flat bands; dithered, the mean of
    /// every 8×8 tile follows the exact ramp within 0.2 level (the tile averages the 64 dither offsets).
    @Test func ditheringLeavesNoBands() throws {
        let a = Color(red: 100.0 / 255, green: 100.0 / 255, blue: 100.0 / 255),
            b = Color(red: 104.0 / 255, green: 104.0 / 255, blue: 104.0 / 255)
        let g = Gradient(kind: .axial(start: .zero, end: Point(x: 512, y: 0)), colors: [a, b])
        let f = try render(g, width: 512, height: 8)
        for tile in 0..<64 {
            var sum = 0.0
            for y in 0..<8 { for x in (tile * 8)..<(tile * 8 + 8) { sum += Double(f.pixel(x: x, y: y).r) } }
            let expected = 100 + 4 * (Double(tile * 8) + 4) / 512
            #expect(abs(sum / 64 - expected) <= Tolerance.ditheredTileMeanLevels, "tile \(tile): \(sum / 64) vs \(expected)")
        }
    }

    @Test func radialAndConic() throws {
        let radial = Gradient(kind: .radial(center: Point(x: 32, y: 32), radiusX: 32, radiusY: 16), colors: [.white, .black])
        let r = try render(radial, width: 64, height: 64)
        // Expected: 255·(1 − s) with s = √(((x+½−32)/32)² + ((y+½−32)/16)²), capped at s = 1; ±1.25.
        for (x, y) in [(31, 31), (40, 35), (47, 31), (63, 32), (32, 47), (10, 50), (20, 38)] {
            let u = (Double(x) + 0.5 - 32) / 32, v = (Double(y) + 0.5 - 32) / 16
            let expected = 255 * (1 - min(1, (u * u + v * v).squareRoot()))
            #expect(abs(Double(r.pixel(x: x, y: y).r) - expected) <= Tolerance.gradientLevels, "(\(x), \(y))")
        }
        // Conic from +x, growing towards +y: straight down from the centre is a quarter of the way.
        let conic = Gradient(kind: .conic(center: Point(x: 32, y: 32), startAngle: 0), colors: [.black, .white])
        let c = try render(conic, width: 64, height: 64)
        for (x, y) in [(32, 60), (4, 31), (50, 10), (60, 33), (10, 20)] {
            var a = atan2(Double(y) + 0.5 - 32, Double(x) + 0.5 - 32)
            if a < 0 { a += 2 * Double.pi }
            #expect(abs(Double(c.pixel(x: x, y: y).r) - 255 * a / (2 * Double.pi)) <= Tolerance.gradientLevels, "(\(x), \(y))")
        }
    }
}

@Suite struct ImageTests {
    let image: RasterImage = {
        var px: [UInt8] = []
        for y in 0..<4 { for x in 0..<4 { px += [UInt8(x * 60), UInt8(y * 60), 0, 255] } }
        return RasterImage(width: 4, height: 4, premultipliedRGBA: px)!
    }()

    func draw(_ t: Transform2D, size: Int = 8) throws -> Frame {
        var list = DisplayList(background: .clear)
        list.commands = [
            .fill(path: rect(0, 0, 4, 4).applying(t), paint: .image(image, transform: t), opacity: 1, rule: .nonZero)
        ]
        return try renderEveryWay(list, width: size, height: size)
    }

    /// A size that does not match the bytes is refused, and so is one whose byte count overflows
    /// (the product trapped before).
    @Test func sizesThatDoNotMatchAreRefused() {
        #expect(RasterImage(width: 1, height: 1, premultipliedRGBA: [1, 2, 3, 255]) != nil)
        #expect(RasterImage(width: 1, height: 2, premultipliedRGBA: [1, 2, 3, 255]) == nil)
        #expect(RasterImage(width: 0, height: 1, premultipliedRGBA: []) == nil)
        #expect(RasterImage(width: Int.max, height: 2, premultipliedRGBA: []) == nil)
        #expect(RasterImage(width: 1 << 62, height: 1, premultipliedRGBA: []) == nil)
        // 2⁶² pixels: the pixel count fits in an Int, their 2⁶⁴ bytes do not.
        #expect(RasterImage(width: 1 << 31, height: 1 << 31, premultipliedRGBA: []) == nil)
    }

    @Test func identityIsExact() throws {
        let f = try draw(.translation(x: 2, y: 1))
        for y in 0..<4 { for x in 0..<4 { #expect(f.pixel(x: x + 2, y: y + 1) == (UInt8(x * 60), UInt8(y * 60), 0, 255)) } }
    }

    /// Drawn on whole pixels at its own size, an opaque image's texels are copied; a translucent texel
    /// is composited, not copied: premultiplied (0, 0, 128, 128) over white is (127, 127, 255), by hand
    /// (255 · (1 − 128/255) = 127; 128 + 127 = 255).
    @Test func translucentTexelsAreCompositedNotCopied() throws {
        var px: [UInt8] = []
        for x in 0..<6 { px += x == 3 ? [0, 0, 128, 128] : [UInt8(x * 40), 200, 10, 255] }
        let image = RasterImage(width: 6, height: 1, premultipliedRGBA: px)!
        let t = Transform2D.translation(x: 1, y: 2)
        var list = DisplayList(background: .white)
        list.commands = [
            .fill(path: rect(0, 0, 6, 1).applying(t), paint: .image(image, transform: t), opacity: 1, rule: .nonZero)
        ]
        let f = try renderEveryWay(list, width: 8, height: 4)
        for x in 0..<6 where x != 3 { #expect(f.pixel(x: x + 1, y: 2) == (UInt8(x * 40), 200, 10, 255), "texel \(x)") }
        let p = f.pixel(x: 4, y: 2)
        #expect(abs(Int(p.r) - 127) <= 1 && abs(Int(p.g) - 127) <= 1 && p.b == 255 && p.a == 255, "\(p)")
    }

    @Test func bilinearBetweenPixels() throws {
        // Scaled 2×: device pixel 3's centre (3.5) maps to image x 1.75 → between texels 1 and 2 at ¼: 60 + 60·¼ = 75.
        let f = try draw(.scale(x: 2, y: 2))
        #expect(f.pixel(x: 3, y: 2).r == 75)
        #expect(f.pixel(x: 0, y: 0).r == 0)  // clamped at the edge
    }

    /// An image whose rows stay level (dv = 0: not turned) takes the kernel's one-row path, its texel row
    /// and vertical weight worked out once a span; the same transform with b = 10⁻³⁰⁰, turned by nothing
    /// a pixel can show, takes the general path. They sample the same texels at the same weights, so the
    /// bytes must be the same, edges included (each pixel at its own coverage).
    @Test func levelRowsMatchTheGeneralPath() throws {
        let level = Transform2D(a: 9.3, b: 0, c: 0, d: 7.1, tx: 3.2, ty: 1.7)
        var turned = level
        turned.b = 1e-300
        let a = try draw(level, size: 48), b = try draw(turned, size: 48)
        #expect(a.pixels == b.pixels)
        #expect(Set(stride(from: 0, to: a.pixels.count, by: 4).map { a.pixels[$0] }).count > 20, "a varied image drawn")
    }

    @Test func rotatedQuarterTurn() throws {
        // (x, y) → (−y, x) then moved right by 4: image column x lands on device row x.
        let t = Transform2D(a: 0, b: 1, c: -1, d: 0, tx: 4, ty: 0)
        let f = try draw(t)
        for y in 0..<4 { for x in 0..<4 { #expect(f.pixel(x: 3 - y, y: x) == (UInt8(x * 60), UInt8(y * 60), 0, 255)) } }
    }

    /// A black and a white texel stretched over 3,800 px: the span kernel steps its texel coordinate in
    /// fixed point, whose rounding must not add up along the span. Pixel x samples u = (x + ½)/1900 − ½,
    /// so its value is 255·u between the texel centres (hand-computed); tolerance 1 level (rounding,
    /// and the kernel's 16-bit products). Before the steps were taken again every 64 pixels, the right
    /// part was ~5 levels off.
    @Test func longMagnifiedSpansKeepTheirPlace() throws {
        let image = RasterImage(
            width: 2, height: 2, premultipliedRGBA: [0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255])!
        let t = Transform2D.scale(x: 1900, y: 2)
        var list = DisplayList(background: .clear)
        list.commands = [.fill(path: rect(0, 0, 3800, 4), paint: .image(image, transform: t), opacity: 1, rule: .nonZero)]
        let f = try renderEveryWay(list, width: 3800, height: 2)
        var worst = 0.0
        for x in stride(from: 0, to: 3800, by: 7) {
            let u = min(max((Double(x) + 0.5) / 1900 - 0.5, 0), 1)
            worst = max(worst, abs(Double(f.pixel(x: x, y: 1).r) - 255 * u))
        }
        #expect(worst <= Tolerance.imageSamplingLevels, "worst difference \(worst) levels")
    }

    /// A transform whose determinant is a subnormal passes `det != 0` but has no finite inverse: the
    /// paint is dropped (nothing drawn), where a sample once trapped converting a NaN.
    @Test func nearlySingularTransformsDrawNothing() throws {
        let t = Transform2D(a: 1, b: 0, c: 0, d: 0x1p-1063, tx: 0, ty: 0)
        #expect(t.inverted == nil)
        var list = DisplayList(background: .clear)
        list.commands = [
            .fill(path: rect(0, 0, 8, 8), paint: .image(image, transform: t), opacity: 1, rule: .nonZero),
            .fill(
                path: rect(0, 0, 8, 8),
                paint: .gradient(
                    Gradient(
                        kind: .axial(start: Point(x: 0, y: 0), end: Point(x: 8, y: 0)),
                        colors: [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1)], transform: t)),
                opacity: 1, rule: .nonZero),
        ]
        let f = try renderEveryWay(list, width: 8, height: 8)
        #expect(f.pixel(x: 4, y: 4) == (0, 0, 0, 0))
    }
}

@Suite struct GroupTests {
    let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)

    @Test func groupOpacityFlattensFirst() throws {
        var list = DisplayList(background: .white)
        list.commands = [
            .beginGroup(Group(opacity: 0.5)),
            .fill(path: rect(0, 0, 6, 8), color: red),
            .fill(path: rect(4, 0, 6, 8), color: blue),
            .endGroup,
        ]
        let f = try renderEveryWay(list, width: 12, height: 8)
        // The overlap shows only blue, at half opacity over white: (127.5, 127.5, 255).
        #expect(f.pixel(x: 5, y: 4) == (128, 128, 255, 255))
        #expect(f.pixel(x: 1, y: 4) == (255, 128, 128, 255))
    }

    @Test func clipIsExactArea() throws {
        let triangle = [Point(x: 1.3, y: 0.7), Point(x: 17.9, y: 5.2), Point(x: 6.1, y: 15.6)]
        var clip = Path()
        clip.move(to: triangle[0])
        clip.addLine(to: triangle[1])
        clip.addLine(to: triangle[2])
        clip.closeSubpath()
        var list = DisplayList(background: .clear)
        list.commands = [.beginGroup(Group(clip: clip)), .fill(path: rect(-5, -5, 40, 40), color: .black), .endGroup]
        let f = try renderEveryWay(list, width: 20, height: 20)
        let worst = worstAlphaError(f, triangle)
        #expect(worst <= Tolerance.exactAreaLevels, "worst \(worst)")
    }

    @Test func maskMultipliesByAlpha() throws {
        var list = DisplayList(background: .clear)
        list.commands = [
            .beginGroup(Group(hasMask: true)),
            .fill(path: rect(0, 0, 8, 8), color: red),
            .beginMask,
            .fill(path: rect(0, 0, 4, 8), color: Color(red: 0, green: 0, blue: 0, alpha: 0.5)),
            .endGroup,
        ]
        let f = try renderEveryWay(list, width: 8, height: 8)
        #expect(f.pixel(x: 1, y: 1) == (128, 0, 0, 128))
        #expect(f.pixel(x: 6, y: 1) == (0, 0, 0, 0))
    }

    /// A luminance mask multiplies by 0.2125·R + 0.7154·G + 0.0721·B of its premultiplied colour. Over
    /// columns 0–1 the mask is opaque green: 0.7154 × 255 = 182.4 → 182, so red 255 becomes 182; over 2–3
    /// half-transparent white: luminance 1 × alpha ½ → 128 (the premultiplied 8-bit value, 127.5 rounded);
    /// over 4–5 opaque black (luminance 0): nothing; 6–7 have no mask: nothing. Rounding: ±1 level.
    @Test func maskMultipliesByLuminance() throws {
        var list = DisplayList(background: .clear)
        var group = Group(hasMask: true)
        group.maskByLuminance = true
        list.commands = [
            .beginGroup(group),
            .fill(path: rect(0, 0, 8, 8), color: red),
            .beginMask,
            .fill(path: rect(0, 0, 2, 8), color: Color(red: 0, green: 1, blue: 0)),
            .fill(path: rect(2, 0, 2, 8), color: Color(red: 1, green: 1, blue: 1, alpha: 0.5)),
            .fill(path: rect(4, 0, 2, 8), color: .black),
            .endGroup,
        ]
        let f = try renderEveryWay(list, width: 8, height: 8)
        func near(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ r: Int, _ a: Int) -> Bool {
            abs(Int(p.r) - r) <= Tolerance.roundingLevels && p.g == 0 && p.b == 0 && abs(Int(p.a) - a) <= Tolerance.roundingLevels
        }
        #expect(near(f.pixel(x: 1, y: 3), 182, 182), "\(f.pixel(x: 1, y: 3))")
        #expect(near(f.pixel(x: 3, y: 3), 128, 128), "\(f.pixel(x: 3, y: 3))")
        #expect(f.pixel(x: 5, y: 3) == (0, 0, 0, 0) && f.pixel(x: 7, y: 3) == (0, 0, 0, 0))
    }

    /// An inverted mask multiplies by what the mask leaves: 255 − 128 = 127 under the half-transparent
    /// left half, all of it where the mask draws nothing.
    @Test func invertedMaskMultipliesByWhatTheMaskLeaves() throws {
        var list = DisplayList(background: .clear)
        var group = Group(hasMask: true)
        group.maskInverted = true
        list.commands = [
            .beginGroup(group),
            .fill(path: rect(0, 0, 8, 8), color: red),
            .beginMask,
            .fill(path: rect(0, 0, 4, 8), color: Color(red: 0, green: 0, blue: 0, alpha: 0.5)),
            .endGroup,
        ]
        let f = try renderEveryWay(list, width: 8, height: 8)
        #expect(f.pixel(x: 1, y: 1) == (127, 0, 0, 127))
        #expect(f.pixel(x: 6, y: 1) == (255, 0, 0, 255))
    }

    /// Across a long straight edge the blurred shadow is the Gaussian's CDF: with the edge on a pixel
    /// boundary at x = e, pixel x's alpha is Φ((e − (x + ½) + offset)/σ)… computed here from erf; the
    /// kernel is the density integrated over each pixel, so this holds to rounding (1 level).
    @Test func shadowIsAGaussianOfTheAlpha() throws {
        let sigma = 3.0
        var list = DisplayList(background: .clear)
        list.commands = [
            .beginGroup(Group(shadow: Shadow(color: .black, offset: Point(x: 4, y: 0), sigma: sigma))),
            .fill(path: rect(-100, -100, 120, 300), color: Color(red: 1, green: 1, blue: 1, alpha: 0)),
            .fill(path: rect(-100, -100, 120, 300), color: .white),
            .endGroup,
        ]
        let f = try renderEveryWay(list, width: 64, height: 16)
        for x in 20..<40 {
            // The shape covers x < 20; its shadow covers x < 24 before blurring.
            let d = (24 - (Double(x) + 0.5)) / sigma
            let expected = 255 * 0.5 * (1 + erf(d / 2.0.squareRoot()))
            #expect(
                abs(Double(f.pixel(x: x, y: 8).a) - expected) <= Tolerance.gaussianShadowLevels,
                "x = \(x): \(f.pixel(x: x, y: 8).a) vs \(expected)")
        }
        #expect(f.pixel(x: 10, y: 8) == (255, 255, 255, 255))  // the content sits on its shadow
    }

    @Test func shadowKeepsTheInkOfTheShape() throws {
        var list = DisplayList(background: .clear)
        list.commands = [
            .beginGroup(Group(opacity: 0.999_999, shadow: Shadow(color: .black, offset: Point(x: 0, y: 30), sigma: 2))),
            .fill(path: rect(10, 5, 10, 10), color: Color(red: 1, green: 0, blue: 0)),
            .endGroup,
        ]
        let f = try renderEveryWay(list, width: 40, height: 60)
        var ink = 0.0
        for y in 25..<60 { for x in 0..<40 { ink += Double(f.pixel(x: x, y: y).a) / 255 } }
        #expect(abs(ink - 100) <= Tolerance.blurInkPixels, "shadow ink \(ink)")  // blur moves ink, it does not make or lose it
    }

    /// A large soft shadow (σ = 24 px) is blurred on a coarse grid (BandPainter.coarseShadowSigma); across a
    /// long straight edge it still follows the Gaussian's CDF, within 2 levels (the grid widens σ by about
    /// 1 %: under 1.5 levels of slope error here, plus rounding), keeps its ink, and gives the same bytes
    /// for any band split.
    @Test func largeShadowsAreCoarseButGaussian() throws {
        let sigma = 24.0
        var list = DisplayList(background: .clear)
        list.commands = [
            .beginGroup(Group(shadow: Shadow(color: .black, offset: Point(x: 10, y: 0), sigma: sigma))),
            .fill(path: rect(-400, -400, 500, 1000), color: Color(red: 1, green: 1, blue: 1, alpha: 0)),
            .endGroup,
            .beginGroup(Group(shadow: Shadow(color: .black, offset: Point(x: 10, y: 0), sigma: sigma))),
            .fill(path: rect(-400, -400, 500, 1000), color: .white),
            .endGroup,
        ]
        let f = try renderEveryWay(list, width: 260, height: 40)
        for x in 100..<200 {
            // The shape covers x < 100; its shadow covers x < 110 before blurring.
            let d = (110 - (Double(x) + 0.5)) / sigma
            let expected = 255 * 0.5 * (1 + erf(d / 2.0.squareRoot()))
            #expect(
                abs(Double(f.pixel(x: x, y: 20).a) - expected) <= Tolerance.coarseShadowLevels,
                "x = \(x): \(f.pixel(x: x, y: 20).a) vs \(expected)")
        }
        var square = DisplayList(background: .clear)
        square.commands = [
            .beginGroup(Group(opacity: 0.999_999, shadow: Shadow(color: .black, offset: Point(x: 0, y: 200), sigma: 20))),
            .fill(path: rect(90, 10, 20, 20), color: Color(red: 1, green: 0, blue: 0)),
            .endGroup,
        ]
        let g = try renderEveryWay(square, width: 200, height: 400)
        var ink = 0.0
        for y in 100..<400 { for x in 0..<200 { ink += Double(g.pixel(x: x, y: y).a) / 255 } }
        // 400 px of ink; pixels under half a level are not drawn (about 1 % of a σ = 20 blur's tail).
        #expect(abs(ink - 400) <= Tolerance.coarseBlurInkPixels, "shadow ink \(ink)")
    }

    /// An opaque group's shadow is drawn straight into the band and its content over it; a group that
    /// needs an offscreen picture (here: clipped to the whole frame, which cuts nothing) draws content over
    /// shadow first, then that over the band. Source-over is associative, so only rounding tells them
    /// apart: the direct way rounds twice (within 1 level of the exact value), the offscreen way three
    /// times with the picture's rounded alpha scaling the background (within 2.5 levels), so they agree
    /// within 3 levels — with translucent content over the shadow and the shadow over a coloured
    /// background, where the order of operations shows.
    @Test func shadowIntoTheBandEqualsShadowedPicture() throws {
        for sigma in [3.0, 14.0] {  // the exact blur and the coarse one
            let shadow = Shadow(color: Color(red: 0, green: 0, blue: 0.5, alpha: 0.6), offset: Point(x: 5, y: 7), sigma: sigma)
            let content: [DisplayList.Command] = [
                .fill(
                    path: Path(ovalIn: Rect(x: 30, y: 20, width: 60, height: 50)),
                    color: Color(red: 1, green: 0, blue: 0, alpha: 0.5)),
                .fill(path: rect(60, 40, 50, 30), color: Color(red: 0, green: 0.8, blue: 0.2)),
            ]
            func render(clip: Path?) throws -> Frame {
                var list = DisplayList(background: Color(red: 0.9, green: 0.8, blue: 0.3))
                list.commands = [.beginGroup(Group(clip: clip, shadow: shadow))] + content + [.endGroup]
                return try renderEveryWay(list, width: 160, height: 120)
            }
            let direct = try render(clip: nil), offscreen = try render(clip: rect(-10, -10, 200, 200))
            let worst = zip(direct.pixels, offscreen.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= Tolerance.shadowPathsLevels, "σ \(sigma): differs by up to \(worst) levels")
            // And the shadow is there: below the rectangle, outside the content, the background (r 229.5)
            // darkens under the shadow of the rectangle's opaque paint (alpha 0.6 before the blur).
            #expect(direct.pixel(x: 100, y: 75).r < 200, "σ \(sigma): \(direct.pixel(x: 100, y: 75))")
        }
    }

    @Test func unbalancedGroupsAreAnError() {
        #expect(throws: RasterError.unbalancedGroups(commandIndex: 1)) {
            _ = try Rasterizer().render(
                DisplayList(background: .white, commands: [.beginGroup(Group()), .beginMask]), width: 4, height: 4)
        }
        #expect(throws: RasterError.unbalancedGroups(commandIndex: 0)) {
            _ = try Rasterizer().render(DisplayList(background: .white, commands: [.endGroup]), width: 4, height: 4)
        }
    }

    /// Groups, clips, masks, shadows and gradients give the same bytes for any thread count and band
    /// height — shadows read content across band edges.
    @Test func bitIdenticalAcrossThreadsAndBands() throws {
        var clip = Path(roundedRect: Rect(x: 20.5, y: 10.25, width: 90, height: 70), cornerRadius: 17)
        clip.addPath(Path(ovalIn: Rect(x: 100, y: 60, width: 40, height: 40)))
        let g = Gradient(
            kind: .radial(center: Point(x: 70, y: 50), radiusX: 60, radiusY: 40), colors: [red, blue, .white],
            locations: [0, 0.3, 1])
        var list = DisplayList(background: Color(red: 0.1, green: 0.1, blue: 0.1))
        list.commands = [
            .beginGroup(
                Group(
                    opacity: 0.8, clip: clip, hasMask: true,
                    shadow: Shadow(color: .black, offset: Point(x: 3.5, y: 7.25), sigma: 4.5))),
            .fill(path: rect(0, 0, 160, 120), paint: .gradient(g), opacity: 1, rule: .nonZero),
            .beginGroup(Group(opacity: 0.5, shadow: Shadow(color: blue, offset: Point(x: -5, y: 9), sigma: 2))),
            .fill(path: Path(ovalIn: Rect(x: 40, y: 20, width: 50, height: 50)), color: .white),
            .endGroup,
            .beginMask,
            .fill(
                path: rect(0, 0, 160, 120),
                paint: .gradient(Gradient(kind: .axial(start: .zero, end: Point(x: 0, y: 120)), colors: [.black, .clear])),
                opacity: 1, rule: .nonZero),
            .endGroup,
            // Opaque groups with a shadow draw it straight into the band; a coarse one too (σ ≥ 8).
            .beginGroup(Group(shadow: Shadow(color: blue, offset: Point(x: 2.5, y: -3), sigma: 3))),
            .fill(path: Path(ovalIn: Rect(x: 100, y: 70, width: 30, height: 30)), color: red),
            .endGroup,
            .beginGroup(Group(shadow: Shadow(color: .black, offset: Point(x: 0, y: 6), sigma: 12))),
            .fill(path: rect(10, 90, 60, 20), color: Color(red: 1, green: 1, blue: 1, alpha: 0.5)),
            .endGroup,
        ]
        let reference = try renderEveryWay(list, width: 160, height: 120)
        // Seven workers on 5-row bands as well, beyond `renderEveryWay`'s ways.
        let seven = try Rasterizer(threads: 7, bandHeight: 5).render(list, width: 160, height: 120)
        #expect(seven.pixels == reference.pixels)
    }

    /// A clipped group with a tint (the general composite path) whose clip reaches rows its content
    /// does not: the clip's coverage in those rows must not be left in the band's scratch for the next
    /// shape. Here the clip spans rows 0…19 and columns 0…19, the content only rows 2…3; a red bar at
    /// columns 0…9 of rows 10…11 drawn next must stay within its own columns (with the clip's left edge
    /// still in the cells, the bar's right edge only brought the winding down to 1: column 10 red too).
    @Test func clipRowsOutsideTheContentLeaveNoCoverageBehind() throws {
        var list = DisplayList(background: .white)
        list.commands = [
            .beginGroup(Group(clip: Path(rect: Rect(x: 0, y: 0, width: 20, height: 20)), tint: Color(red: 1, green: 1, blue: 1))),
            .fill(path: Path(rect: Rect(x: 2, y: 2, width: 4, height: 2)), color: Color(red: 0, green: 0, blue: 1)),
            .endGroup,
            .fill(path: Path(rect: Rect(x: 0, y: 10, width: 10, height: 2)), color: Color(red: 1, green: 0, blue: 0)),
        ]
        let frame = try renderEveryWay(list, width: 24, height: 24)
        for y in 10..<12 {
            for x in 0..<24 {
                let p = frame.pixel(x: x, y: y)
                let red = (0..<10).contains(x)
                #expect(
                    red ? (p.r == 255 && p.g == 0 && p.b == 0) : (p.r == 255 && p.g == 255 && p.b == 255),
                    "pixel (\(x), \(y)) = \(p)")
            }
        }
        #expect(frame.pixel(x: 3, y: 2).b == 255 && frame.pixel(x: 3, y: 2).r == 0)
    }
}

/// A clipped group whose clip lies wholly above or below what the group drew (a Lottie precomp's
/// bounds clipping content placed off them, ios-pr_1592.json at 160 pixels wide) draws nothing of it,
/// and leaves nothing behind for the next shape: the rows the two share are none.
@Suite struct ClipBesideContentTests {
    @Test(arguments: [(clip: 0.0, content: 12.0), (clip: 14.0, content: 2.0)])
    func aClipThatMissesTheContentDrawsNothing(clip: Double, content: Double) throws {
        var list = DisplayList(background: .clear)
        list.commands = [
            .beginGroup(Group(opacity: 1, clip: rect(0, clip, 20, 5))),
            .fill(path: rect(0, content, 20, 4), color: Color(red: 1, green: 0, blue: 0)),
            .endGroup,
            // Drawn after: must show only its own coverage (no clip cells left in the band's scratch).
            .fill(path: rect(0, 8, 20, 2), color: Color(red: 0, green: 0, blue: 1)),
        ]
        let frame = try renderEveryWay(list, width: 20, height: 20)
        for y in 0..<20 {
            for x in [0, 10, 19] {
                let expected: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (8..<10).contains(y) ? (0, 0, 255, 255) : (0, 0, 0, 0)
                #expect(frame.pixel(x: x, y: y) == expected, "(\(x), \(y))")
            }
        }
    }
}
