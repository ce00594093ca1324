/// Filter effects evaluated over their region, against hand-computed pixels: subregion clipping, a
/// flood's premultiplied colour, whole-pixel offsets, inputs read from named results, arithmetic
/// compositing, colour-space round trips, and the box widths that stand for a Gaussian.
import Foundation
import ReelGeometry
import Testing

@testable import ReelRaster

@Suite struct FilterEffectTests {
    /// The pixel (x, y) of a picture, as its four bytes.
    func pixel(_ p: FilterPixels, _ x: Int, _ y: Int) -> [UInt8] {
        Array(p.bytes[(y * p.width + x) * 4..<(y * p.width + x) * 4 + 4])
    }

    /// A source of one opaque green pixel at (2, 2) in an 8 × 6 region placed at (10, 20).
    func source() -> FilterPixels {
        var s = FilterPixels(width: 8, height: 6)
        s.bytes.replaceSubrange((2 * 8 + 2) * 4..<(2 * 8 + 2) * 4 + 4, with: [0, 255, 0, 255])
        return s
    }

    func plan(_ primitives: [FilterPrimitive]) throws -> EffectPlan {
        try #require(EffectPlan(FilterEffect(region: Rect(x: 10, y: 20, width: 8, height: 6), primitives: primitives)))
    }

    /// Red at half opacity is (128, 0, 0, 128) premultiplied (0.5 × 255 = 127.5, rounded up), inside
    /// the subregion x 12 ..< 15 only (its rectangle 12.5 … 14.2 floored and its width ceiled, as resvg
    /// takes whole pixels); sRGB so untouched by conversion.
    @Test func floodFillsItsSubregion() throws {
        let sub = Rect(x: 12.5, y: 20, width: 1.7, height: 6)
        let out = FilterKernels.evaluate(
            try plan([
                FilterPrimitive(.flood(Color(red: 1, green: 0, blue: 0, alpha: 0.5)), inputs: [], subregion: sub, linearRGB: true)
            ]),
            source: source())
        #expect(pixel(out, 2, 0) == [128, 0, 0, 128] && pixel(out, 3, 5) == [128, 0, 0, 128])
        #expect(pixel(out, 1, 0) == [0, 0, 0, 0] && pixel(out, 4, 0) == [0, 0, 0, 0])
    }

    /// An offset of (3.7, 1) moves by (3, 1) whole pixels (truncated, as resvg); a merge then reads the
    /// named first result under it: the pixel at (2, 2) and its copy at (5, 3).
    @Test func offsetAndMergeReadResults() throws {
        let whole = Rect(x: 10, y: 20, width: 8, height: 6)
        let out = FilterKernels.evaluate(
            try plan([
                FilterPrimitive(.offset(dx: 3.7, dy: 1), inputs: [.sourceGraphic], subregion: whole, linearRGB: false),
                FilterPrimitive(.merge, inputs: [.sourceGraphic, .result(0)], subregion: whole, linearRGB: false),
            ]), source: source())
        #expect(pixel(out, 2, 2) == [0, 255, 0, 255] && pixel(out, 5, 3) == [0, 255, 0, 255])
        #expect(out.bytes.count { $0 != 0 } == 4)
    }

    /// An image primitive draws its picture where `place` puts it: a 2 × 1 picture (opaque red, then
    /// opaque blue) scaled 2× to device (12, 21), its rectangle x 12 ..< 16, y 21 ..< 23 (region pixels
    /// 2 ..< 6, 1 ..< 3). A pixel's centre maps back to (x − 12 + 0.5) / 2 in the picture, its texel
    /// centres at 0.5 and 1.5: 0.25 reads red alone (the edge texel extends), 0.75 is 0.75 red and 0.25
    /// blue (191, 0, 64, 255 from 191.25 and 63.75), 1.25 the other way round, 1.75 blue alone; nothing
    /// outside the rectangle. Linear-light work leaves a picture's sRGB bytes alone. A name with no
    /// picture draws nothing.
    @Test func imagePlacesItsPicture() throws {
        let whole = Rect(x: 10, y: 20, width: 8, height: 6)
        let picture = try #require(RasterImage(width: 2, height: 1, premultipliedRGBA: [255, 0, 0, 255, 0, 0, 255, 255]))
        let place = Transform2D.scale(x: 2, y: 2).concatenating(.translation(x: 12, y: 21))
        let effect = FilterEffect(
            region: whole,
            primitives: [FilterPrimitive(.image(name: "p", place: place), inputs: [], subregion: whole, linearRGB: true)])
        let out = FilterKernels.evaluate(try #require(EffectPlan(effect, images: ["p": picture])), source: source())
        for y in [1, 2] {
            #expect(pixel(out, 2, y) == [255, 0, 0, 255] && pixel(out, 3, y) == [191, 0, 64, 255])
            #expect(pixel(out, 4, y) == [64, 0, 191, 255] && pixel(out, 5, y) == [0, 0, 255, 255])
            #expect(pixel(out, 1, y) == [0, 0, 0, 0] && pixel(out, 6, y) == [0, 0, 0, 0])
        }
        #expect(pixel(out, 3, 0) == [0, 0, 0, 0] && pixel(out, 3, 3) == [0, 0, 0, 0])
        let none = FilterKernels.evaluate(try #require(EffectPlan(effect)), source: source())
        #expect(none.bytes.allSatisfy { $0 == 0 })
    }

    /// Arithmetic k2 = 0.5, k3 = 1, k4 = 0.1 of the source over a flood of (0, 0, 255, 255): at the green
    /// pixel 0.5·(0, 1, 0, 1) + (0, 0, 1, 1) + 0.1 = (0.1, 0.6, 1.1 → 1, 1.6 → 1), so (26, 153, 255, 255);
    /// elsewhere (0.1, 0.1, 1, 1): (26, 26, 255, 255).
    @Test func arithmeticComposite() throws {
        let whole = Rect(x: 10, y: 20, width: 8, height: 6)
        let out = FilterKernels.evaluate(
            try plan([
                FilterPrimitive(.flood(Color(red: 0, green: 0, blue: 1)), inputs: [], subregion: whole, linearRGB: false),
                FilterPrimitive(
                    .composite(.arithmetic(k1: 0, k2: 0.5, k3: 1, k4: 0.1)), inputs: [.sourceGraphic, .result(0)],
                    subregion: whole,
                    linearRGB: false),
            ]), source: source())
        #expect(pixel(out, 2, 2) == [26, 153, 255, 255])
        #expect(pixel(out, 0, 0) == [26, 26, 255, 255])
    }

    /// In linearRGB a matrix halving red acts on light, not on sRGB levels: sRGB 255 → linear 255 →
    /// 127.5 → 128 linear → sRGB 1.055·(128/255)^(1/2.4) − 0.055 = 0.7372 → 188.
    @Test func linearLightMatrix() throws {
        let whole = Rect(x: 10, y: 20, width: 8, height: 6)
        var s = FilterPixels(width: 8, height: 6)
        for k in stride(from: 0, to: s.bytes.count, by: 4) {
            s.bytes[k] = 255
            s.bytes[k + 3] = 255
        }
        let halfRed: [Double] = [0.5, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]
        let linear = FilterKernels.evaluate(
            try plan([FilterPrimitive(.colorMatrix(halfRed), inputs: [.sourceGraphic], subregion: whole, linearRGB: true)]),
            source: s)
        let srgb = FilterKernels.evaluate(
            try plan([FilterPrimitive(.colorMatrix(halfRed), inputs: [.sourceGraphic], subregion: whole, linearRGB: false)]),
            source: s)
        #expect(pixel(linear, 0, 0) == [188, 0, 0, 255])
        #expect(pixel(srgb, 0, 0) == [128, 0, 0, 255])
    }

    /// Five boxes standing for σ = 3: the odd widths around √(12·9/5 + 1) = 4.75 are 3 and 5; one of
    /// width 3 and four of 5 give (9 − 1)/12 + 4·(25 − 1)/12 = 8.67 ≈ σ² = 9 (two of 3: 7.3). For any σ
    /// from 2 to 200 the boxes' variance is within 0.6 px² of σ² plus the rounding of a width.
    @Test func boxesMatchTheGaussian() {
        #expect(FilterKernels.boxSizes(sigma: 3) == [3, 5, 5, 5, 5])
        for sigma in stride(from: 2.0, through: 200, by: 0.37) {
            let v = FilterKernels.boxSizes(sigma: sigma).reduce(0.0) { $0 + Double($1 * $1 - 1) / 12 }
            #expect(abs(v - sigma * sigma) <= 2.0 * (Double(FilterKernels.boxSizes(sigma: sigma).max() ?? 1) + 1) / 3 + 0.6)
        }
    }

    /// An offset of 10³⁰⁰ (or NaN) is held to whole pixels past any region: the picture moves out of it,
    /// transparent, and nothing traps.
    @Test func hugeOffsetsMoveThePictureOut() throws {
        let whole = Rect(x: 10, y: 20, width: 8, height: 6)
        for d in [1e300, -1e300, Double.nan] {
            let out = FilterKernels.evaluate(
                try plan([FilterPrimitive(.offset(dx: d, dy: 0), inputs: [.sourceGraphic], subregion: whole, linearRGB: false)]),
                source: source())
            #expect(out.bytes.allSatisfy { $0 == 0 } == !d.isNaN, "\(d)")
        }
    }
}
