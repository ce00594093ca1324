/// Gradients as SVG paints them, against values computed by hand from the formulas: spreads (pad, reflect,
/// repeat), the two-point conical gradient (a focal circle, a focal point, a cone) and stops mixed
/// unpremultiplied.
import Foundation
import ReelGeometry
import ReelRaster
import ReelTestSupport
import Testing

@Suite struct GradientSpreadTests {
    func render(_ g: Gradient, width: Int, height: Int) throws -> Frame {
        var list = DisplayList(background: .clear)
        list.commands = [.fill(path: rect(0, 0, Double(width), Double(height)), paint: .gradient(g), opacity: 1, rule: .nonZero)]
        return try renderEveryWay(list, width: width, height: height)
    }

    /// Tolerance for every expected level: ½ level of dither, ½ of rounding to a byte, and ¼ for the
    /// 1024-entry ramp's step (the parameter is rounded to the nearest of 1024 entries, 255/1023 levels
    /// apart).
    let tolerance = Tolerance.gradientLevels

    func grey(_ f: Frame, _ x: Int, _ y: Int, _ expected: Double, _ note: String) {
        let p = f.pixel(x: x, y: y)
        #expect(abs(Double(p.r) - expected) <= tolerance && p.r == p.g && p.g == p.b && p.a == 255, "\(note): \(p)")
    }

    /// Black to white from x = 0 to 64: pixel x's centre is at s = (x + ½)/64.
    @Test func axialSpreads() throws {
        func ramp(_ spread: Gradient.Spread) throws -> Frame {
            try render(
                Gradient(
                    kind: .axial(start: .zero, end: Point(x: 64, y: 0)), colors: [.black, .white], spread: spread), width: 256,
                height: 4)
        }
        let pad = try ramp(.pad), reflect = try ramp(.reflect), repeating = try ramp(.repeat)
        // Pixel 32: s = 0.5078, 255·s = 129.49, whatever the spread (inside the ramp).
        for f in [pad, reflect, repeating] { grey(f, 32, 1, 129.49, "inside") }
        // Pixel 96: s = 1.5078. Pad holds white; reflect runs back, 2 − s = 0.4922 → 125.51; repeat takes
        // the fraction, 0.5078 → 129.49.
        grey(pad, 96, 1, 255, "pad 96")
        grey(reflect, 96, 1, 125.51, "reflect 96")
        grey(repeating, 96, 1, 129.49, "repeat 96")
        // Pixel 200: s = 3.1328. Reflect: 3.1328 − 2 = 1.1328, so 2 − 1.1328 = 0.8672 → 221.13; repeat:
        // 0.1328 → 33.87.
        grey(reflect, 200, 1, 221.13, "reflect 200")
        grey(repeating, 200, 1, 33.87, "repeat 200")
        // Before the start, s < 0: pixel 0 of a ramp that starts at x = 64 instead.
        let shifted = try render(
            Gradient(
                kind: .axial(start: Point(x: 64, y: 0), end: Point(x: 128, y: 0)), colors: [.black, .white], spread: .reflect),
            width: 256, height: 4)
        // Pixel 20: s = (20.5 − 64)/64 = −0.6797, reflected to 0.6797 → 173.32.
        grey(shifted, 20, 1, 173.32, "reflect before the start")
    }

    /// White at the centre (32, 8), black at radius 16. Pixel (60, 8)'s centre (60.5, 8.5) is
    /// √(28.5² + 0.5²) = 28.5044 away: s = 1.7815.
    @Test func radialSpreads() throws {
        func disc(_ spread: Gradient.Spread) throws -> Frame {
            try render(
                Gradient(
                    kind: .radial(center: Point(x: 32, y: 8), radiusX: 16, radiusY: 16), colors: [.white, .black],
                    spread: spread), width: 128, height: 16)
        }
        grey(try disc(.pad), 60, 8, 0, "pad")
        // Repeat: 0.7815 of the way to black, 255·(1 − 0.7815) = 55.71.
        grey(try disc(.repeat), 60, 8, 55.71, "repeat")
        // Reflect: 2 − 1.7815 = 0.2185 → 255·(1 − 0.2185) = 199.29.
        grey(try disc(.reflect), 60, 8, 199.29, "reflect")
    }

    /// SVG's `fr` larger than `r`: black on the focal circle (radius 56), white on the end circle (40),
    /// both centred at (128, 8). A point d away lies on the circle of radius 56 − 16t: t = (56 − d)/16.
    @Test func focalCircleAroundTheEndCircle() throws {
        let f = try render(
            Gradient(
                kind: .conical(start: Point(x: 128, y: 8), startRadius: 56, end: Point(x: 128, y: 8), endRadius: 40),
                colors: [.black, .white]), width: 256, height: 16)
        // Pixel (175, 8): d = √(47.5² + 0.5²) = 47.5026, t = 0.5311 → 135.43.
        grey(f, 175, 8, 135.43, "between the circles")
        // Pixel (140, 8): d = 12.51, t = 2.72, padded: white. Pixel (250, 8): d = 122.5, t < 0: black.
        grey(f, 140, 8, 255, "inside the end circle")
        grey(f, 250, 8, 0, "outside the focal circle")
    }

    /// A focal point (64, ½) inside the end circle (96, ½), radius 64, on a one-pixel row through both:
    /// circles have centre 64 + 32t and radius 64t. Right of the focus P = 64 + 96t, so t = (x − 64)/96;
    /// left of it P = 64 − 32t, so t = (64 − x)/32.
    @Test func focalPoint() throws {
        func row(_ spread: Gradient.Spread) throws -> Frame {
            try render(
                Gradient(
                    kind: .conical(start: Point(x: 64, y: 0.5), startRadius: 0, end: Point(x: 96, y: 0.5), endRadius: 64),
                    colors: [.black, .white], spread: spread), width: 200, height: 1)
        }
        let pad = try row(.pad)
        grey(pad, 111, 0, 126.17, "right of the focus")  // t = 47.5/96 = 0.4948
        grey(pad, 40, 0, 187.27, "left of the focus")  // t = 23.5/32 = 0.7344
        grey(pad, 5, 0, 255, "past the end circle")  // t = 58.5/32 = 1.828, padded
        grey(try row(.repeat), 5, 0, 211.17, "past the end circle, repeated")  // 0.828
    }

    /// A focal point (32, 15.5) outside the end circle (64, 15.5), radius 16: only the cone the circles
    /// span is painted. On the axis, circles have centre 32 + 32t and radius 16t; a point x between them
    /// is on the circle whose near side reaches back to it, 32 + 32t − 16t = x, t = (x − 32)/16 (the
    /// larger root; the far side's t = (x − 32)/48 is smaller).
    @Test func coneOfAFocalPointOutside() throws {
        let f = try render(
            Gradient(
                kind: .conical(start: Point(x: 32, y: 15.5), startRadius: 0, end: Point(x: 64, y: 15.5), endRadius: 16),
                colors: [.black, .white]), width: 128, height: 32)
        grey(f, 40, 15, 135.47, "in the cone")  // t = 8.5/16 = 0.5313
        // Behind the focus (x = 10.5) both roots are negative, radius < 0: nothing.
        #expect(f.pixel(x: 10, y: 15) == (0, 0, 0, 0))
        // (33.5, 0.5) is 84° off the axis seen from the focus, the cone's half-angle is asin(16/32) = 30°.
        #expect(f.pixel(x: 33, y: 0) == (0, 0, 0, 0))
    }

    /// White to black at alpha 0.2 over 256 px; pixel 127's centre is at s = 127.5/256 = 0.4980.
    /// Unpremultiplied: grey 255·(1 − s) = 128.00 at alpha 255 − 204·s = 153.40, stored premultiplied as
    /// 128.00·153.40/255 = 77.00. Premultiplied (Core Animation's, unchanged): 255·(1 − s) = 128.00.
    @Test func straightAndPremultipliedMixing() throws {
        let fade = Color(red: 0, green: 0, blue: 0, alpha: 0.2)
        func ramp(_ mixing: Gradient.Interpolation) throws -> Frame {
            try render(
                Gradient(
                    kind: .axial(start: .zero, end: Point(x: 256, y: 0)), colors: [.white, fade], interpolation: mixing),
                width: 256, height: 2)
        }
        let straight = try ramp(.unpremultiplied).pixel(x: 127, y: 0)
        #expect(abs(Double(straight.r) - 77.00) <= tolerance && abs(Double(straight.a) - 153.40) <= tolerance, "\(straight)")
        let premultiplied = try ramp(.premultiplied).pixel(x: 127, y: 0)
        #expect(abs(Double(premultiplied.r) - 128.00) <= tolerance, "\(premultiplied)")
        #expect(abs(Double(premultiplied.a) - 153.40) <= tolerance, "\(premultiplied)")
    }
}
