/// The lighting and turbulence kernels against values worked out by hand (lighting of flat and sloped
/// surfaces, a spot light's cone) and by a separate transcription of the specification's noise code.
import ReelGeometry
import Testing

@testable import ReelRaster

@Suite struct FilterKernelLightingTests {
    /// A `width` × `height` picture whose alpha at (x, y) is `alpha(x, y)` (colour is not read).
    static func heights(_ width: Int, _ height: Int, _ alpha: (Int, Int) -> UInt8) -> FilterPixels {
        var p = FilterPixels(width: width, height: height)
        for y in 0..<height { for x in 0..<width { p.bytes[(y * width + x) * 4 + 3] = alpha(x, y) } }
        return p
    }

    static func pixel(_ p: FilterPixels, _ x: Int, _ y: Int) -> [UInt8] {
        Array(p.bytes[(y * p.width + x) * 4..<(y * p.width + x) * 4 + 4])
    }

    static func diffuse(_ light: Lighting.Light, color: Color = .white, surfaceScale: Double = 1) -> Lighting {
        Lighting(specular: false, surfaceScale: surfaceScale, constant: 1, specularExponent: 1, color: color, light: light)
    }

    /// A flat surface under a distant light at elevation 60°: N·L = sin 60° = 0.866 everywhere, edges
    /// included. Colour bytes (255, 100, 0): 220.8 → 221, 86.6 → 87, 0; diffuse light is opaque.
    @Test func flatSurfaceUnderDistantLight() {
        let color = Color(red: 1, green: 100 / 255, blue: 0)
        let out = FilterKernels.lighting(
            Self.diffuse(.distant(azimuth: 30, elevation: 60), color: color), input: Self.heights(5, 4) { _, _ in 255 },
            originX: 7, originY: 9)
        #expect(out.width == 5 && out.height == 4)
        for y in 0..<4 { for x in 0..<5 { #expect(Self.pixel(out, x, y) == [221, 87, 0, 255]) } }
    }

    /// Alpha rising 10 a column, surfaceScale 12.75: every Sobel kernel (interior, edge, corner, each
    /// with its factor) gives Nx = −12.75 · 20/255 = −1, so N = (−1, 0, 1)/√2 and, lit from straight
    /// above, N·L = 0.7071: 255 · 0.7071 = 180.3 → 180 on every pixel.
    @Test func rampNormalsAgreeAtEdges() {
        let out = FilterKernels.lighting(
            Self.diffuse(.distant(azimuth: 0, elevation: 90), surfaceScale: 12.75),
            input: Self.heights(5, 5) { x, _ in UInt8(50 + 10 * x) }, originX: 0, originY: 0)
        for y in 0..<5 { for x in 0..<5 { #expect(Self.pixel(out, x, y) == [180, 180, 180, 255]) } }
    }

    /// A point light 10 above a flat surface (height surfaceScale · 1 = 2) at device (102, 52), the
    /// input's pixel (2, 2): there L = N, so full colour; one pixel over, N·L = 10/√101 = 0.995 → 254.
    /// Specular with ks 0.6 above the light's pixel: H ∥ N, so 0.6 · 255 = 153 and 0.6 · 102 = 61.2 →
    /// 61, alpha the largest channel.
    @Test func pointLightAbovePixel() {
        let flat = Self.heights(5, 5) { _, _ in 255 }
        let light = Lighting.Light.point(x: 102, y: 52, z: 12)
        let out = FilterKernels.lighting(Self.diffuse(light, surfaceScale: 2), input: flat, originX: 100, originY: 50)
        #expect(Self.pixel(out, 2, 2) == [255, 255, 255, 255])
        #expect(Self.pixel(out, 3, 2) == [254, 254, 254, 255])
        #expect(Self.pixel(out, 2, 1) == [254, 254, 254, 255])
        let specular = Lighting(
            specular: true, surfaceScale: 2, constant: 0.6, specularExponent: 20,
            color: Color(red: 1, green: 102 / 255, blue: 0), light: light)
        let shine = FilterKernels.lighting(specular, input: flat, originX: 100, originY: 50)
        #expect(Self.pixel(shine, 2, 2) == [153, 61, 0, 153])
    }

    /// A spot light 10 above pixel (2, 2) pointing straight down with a 10° cone: beneath it, full; one
    /// pixel over (5.7° off the axis) the spot's colour is 255 · 0.995 → 254, then lit at N·L = 0.995
    /// → 252.7 → 253; two pixels over (11.3°) is outside the cone: black, still opaque.
    @Test func spotLightCone() {
        let light = Lighting.Light.spot(
            x: 2, y: 2, z: 11, pointsAtX: 2, pointsAtY: 2, pointsAtZ: 0, specularExponent: 1, limitingConeAngle: 10)
        let out = FilterKernels.lighting(Self.diffuse(light), input: Self.heights(5, 5) { _, _ in 255 }, originX: 0, originY: 0)
        #expect(Self.pixel(out, 2, 2) == [255, 255, 255, 255])
        #expect(Self.pixel(out, 3, 2) == [253, 253, 253, 255])
        #expect(Self.pixel(out, 4, 2) == [0, 0, 0, 255])
    }

    /// Fewer than three rows leaves nothing to take normals from: transparent, as resvg.
    @Test func tooSmallInputIsTransparent() {
        let out = FilterKernels.lighting(
            Self.diffuse(.distant(azimuth: 0, elevation: 90)), input: Self.heights(4, 2) { _, _ in 255 }, originX: 0,
            originY: 0)
        #expect(out.bytes.allSatisfy { $0 == 0 })
    }

    static func noise(
        frequency: Double, octaves: Int = 1, seed: Double = 0, stitch: Bool = false, fractal: Bool = false,
        toDevice: Transform2D = .identity, originX: Int = 0, originY: Int = 0, size: Int = 8
    ) -> FilterPixels {
        var t = Turbulence(
            baseFrequencyX: frequency, baseFrequencyY: frequency, octaves: octaves, seed: seed, stitchTiles: stitch,
            fractalNoise: fractal, tile: Rect(x: 0, y: 0, width: Double(size), height: Double(size)))
        t.toDevice = toDevice
        return FilterKernels.turbulence(t, originX: originX, originY: originY, width: size, height: size)
    }

    /// Pixel (3, 5) at frequency ¼, from a separate transcription of the specification's code:
    /// seed 0, one octave of turbulence: 255 · (0.1113, 0.0137, 0.3533, 0.1259) → (28, 3, 90, 32),
    /// premultiplied (4, 0, 11, 32); seed 7, two octaves of fractal noise: (122, 134, 83, 92),
    /// premultiplied (44, 48, 30, 92). Through a scale of 2 and an offset the same user point (3, 5)
    /// is device pixel (16, 30).
    @Test func specificationValues() {
        #expect(Self.pixel(Self.noise(frequency: 0.25), 3, 5) == [4, 0, 11, 32])
        #expect(Self.pixel(Self.noise(frequency: 0.25, octaves: 2, seed: 7, fractal: true), 3, 5) == [44, 48, 30, 92])
        let moved = Self.noise(
            frequency: 0.25, toDevice: Transform2D(a: 2, b: 0, c: 0, d: 2, tx: 10, ty: 20), originX: 16, originY: 30)
        #expect(Self.pixel(moved, 0, 0) == [4, 0, 11, 32])
    }

    /// On lattice points (frequency ⅛, every eighth pixel) the noise is 0: transparent turbulence, and
    /// fractal noise (0 · 255 + 255)/2 = 127.5 → 128, premultiplied 128 · 128/255 = 64.3 → 64.
    @Test func latticePointsAreZero() {
        #expect(Self.pixel(Self.noise(frequency: 0.125, seed: 5, size: 9), 8, 0) == [0, 0, 0, 0])
        #expect(Self.pixel(Self.noise(frequency: 0.125, seed: 5, fractal: true, size: 9), 0, 8) == [64, 64, 64, 128])
    }

    /// The seed alone decides the noise; a fractional seed is truncated (1.9 is seed 1, as usvg).
    @Test func seedDeterminism() {
        #expect(Self.noise(frequency: 0.1, seed: 3).bytes == Self.noise(frequency: 0.1, seed: 3).bytes)
        #expect(Self.noise(frequency: 0.1, seed: 3).bytes != Self.noise(frequency: 0.1, seed: 4).bytes)
        #expect(Self.noise(frequency: 0.1, seed: 1.9).bytes == Self.noise(frequency: 0.1, seed: 1).bytes)
    }

    /// Stitching fits whole periods into the region, as resvg: 0.1 over 16 pixels is 1.6 periods,
    /// nearer (by ratio) 2 than 1, so the frequency becomes 2/16. (resvg starts the wrap at the sampled
    /// pixel, so with two or more periods no lattice cell wraps and that is all stitching does.)
    @Test func stitchingRoundsTheFrequency() {
        let stitched = Self.noise(frequency: 0.1, stitch: true, size: 16)
        #expect(stitched.bytes == Self.noise(frequency: 0.125, size: 16).bytes)
        #expect(stitched.bytes != Self.noise(frequency: 0.1, size: 16).bytes)
    }
}
