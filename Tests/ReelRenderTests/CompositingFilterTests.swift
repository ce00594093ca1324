/// `compositingFilter`: a layer blended with what is below it, against values worked out by hand from
/// W3C Compositing and Blending Level 1 (B(Cb, Cs) per mode; co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B).
import ReelGeometry
import ReelRaster
import ReelRender
import ReelScene
import ReelTestSupport
import Testing

@Suite struct CompositingFilterTests {
    /// A 10 × 10 backdrop of `below`, and over it a layer of `above` blended by `filter`: the pixel.
    func blended(_ below: Color, _ above: Color, _ filter: CompositingFilter?) throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8)
    {
        var scene = Scene(width: 10, height: 10, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 1)
        var backdrop = Layer(name: "backdrop")
        backdrop.anchorPoint = .zero
        backdrop.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        backdrop.backgroundColor = below
        var top = backdrop
        top.name = "top"
        top.backgroundColor = above
        top.compositingFilter = filter
        scene.layers = [backdrop, top]
        let p = try renderEveryWay { try SceneRenderer(rasterizer: $0).frame(for: scene, at: 0) }.pixel(x: 5, y: 5)
        return (p.r, p.g, p.b, p.a)
    }

    @Test func separableModes() throws {
        let gray = Color(red: 0.5, green: 0.5, blue: 0.5), red = Color(red: 1, green: 0, blue: 0)
        // Multiply: 0.5 × (1, 0, 0) = (0.5, 0, 0) → 128 (127.5 rounds to even 128).
        #expect(try blended(gray, red, .multiplyBlendMode) == (128, 0, 0, 255))
        // Screen: both grays are stored as 128/255 = 0.50196 (0.5·255 rounds to even); 2·0.50196 − 0.50196²
        // = 0.75196 → 192 (191.75).
        #expect(try blended(gray, gray, .screenBlendMode) == (192, 192, 192, 255))
        // Difference of white over 0.2: 0.8 → 204.
        let dark = Color(red: 0.2, green: 0.2, blue: 0.2)
        #expect(try blended(dark, Color(red: 1, green: 1, blue: 1), .differenceBlendMode) == (204, 204, 204, 255))
        // Addition: 0.2 + 0.2 = 0.4 → 102.
        #expect(try blended(dark, dark, .additionCompositing) == (102, 102, 102, 255))
        // Without a filter the top layer covers the backdrop.
        #expect(try blended(gray, red, nil) == (255, 0, 0, 255))
    }

    /// Half-transparent red multiplied over white: cs·0 + white·0.5 + 0.5·1·(1, 0, 0) = (1, 0.5, 0.5).
    @Test func aTranslucentSourceMixesAsTheFormulaSays() throws {
        let p = try blended(Color(red: 1, green: 1, blue: 1), Color(red: 1, green: 0, blue: 0, alpha: 0.5), .multiplyBlendMode)
        #expect(
            p.r == 255 && abs(Int(p.g) - 128) <= Tolerance.roundingLevels && abs(Int(p.b) - 128) <= Tolerance.roundingLevels
                && p.a == 255, "\(p)")
    }

    /// Luminosity keeps the backdrop's hue and saturation with the source's luminosity: a gray source of
    /// lum m = 0.50196 (128/255) over pure red (lum 0.3) moves red up by 0.20196 to (1.20196, 0.20196,
    /// 0.20196), then clips it into 0…1 about m: m + (c − m)·(1 − m)/(1.20196 − m) = (1, 0.2885, 0.2885)
    /// → (255, 74, 74).
    @Test func nonSeparableModes() throws {
        let p = try blended(Color(red: 1, green: 0, blue: 0), Color(red: 0.5, green: 0.5, blue: 0.5), .luminosityBlendMode)
        #expect(
            p.r == 255 && abs(Int(p.g) - 74) <= Tolerance.roundingLevels && abs(Int(p.b) - 74) <= Tolerance.roundingLevels, "\(p)"
        )
    }
}
