/// Layer `filters`: the Gaussian blur against SciPy's `gaussian_filter` on the same unblurred frame, the
/// colour filters against matrices worked out by hand, and `filters.<name>.<input>` animating.
import Foundation
import ReelAnimation
import ReelGeometry
import ReelRaster
import ReelRender
import ReelScene
import ReelTestSupport
import Testing

@Suite struct LayerFilterTests {
    /// A transparent 240 × 160 canvas; a layer holding a red square, a translucent blue triangle and a
    /// thin white line, with `filters`.
    func scene(_ filters: [LayerFilter], scale: Double = 1) throws -> Scene {
        var scene = Scene(width: 240, height: 160, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 1)
        scene.scale = scale
        scene.background = .clear
        var card = Layer(name: "card")
        card.anchorPoint = .zero
        card.bounds = Rect(x: 0, y: 0, width: 240, height: 160)
        card.filters = filters
        var red = Layer(name: "red")
        red.anchorPoint = .zero
        red.position = Point(x: 50, y: 45)
        red.bounds = Rect(x: 0, y: 0, width: 60, height: 50)
        red.backgroundColor = Color(red: 0.88, green: 0.19, blue: 0.13)
        var blue = Layer(name: "blue", type: .shape)
        blue.shape.path = try Path(svgPathData: "M150 40 L200 120 L110 120 Z")
        blue.shape.fillColor = Color(red: 0.13, green: 0.31, blue: 0.88, alpha: 0.75)
        var line = Layer(name: "line")
        line.anchorPoint = .zero
        line.position = Point(x: 20, y: 139)
        line.bounds = Rect(x: 0, y: 0, width: 200, height: 2.5)
        line.backgroundColor = .white
        card.sublayers = [red, blue, line]
        scene.layers = [card]
        return scene
    }

    /// SciPy's Gaussian (sampled, out to 4σ, zero outside: Core Image's clamp-to-transparent) of each
    /// premultiplied channel of `frame`, or nil when /usr/bin/python3 has no SciPy.
    func scipyBlur(_ frame: Frame, sigma: Double) throws -> [Double]? {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/in.raw", output = dir + "/out.raw"
        try Data(frame.pixels).write(to: URL(fileURLWithPath: input))
        let script = """
            import sys, numpy as np
            from scipy.ndimage import gaussian_filter
            a = np.fromfile(sys.argv[1], np.uint8).reshape(\(frame.height), \(frame.width), 4).astype(np.float64)
            out = np.stack([gaussian_filter(a[..., c], \(sigma), mode="constant", cval=0, truncate=4.0)
                            for c in range(4)], -1)
            out.astype(np.float64).tofile(sys.argv[2])
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", script, input, output]
        p.standardError = FileHandle.nullDevice
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return nil }
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
    }

    /// Blurs below the coarse grid's σ (8 px) and on it, one drawn at scale 2 (σ = inputRadius ×
    /// scale), each drawn every way (threads, bands, kernels) and within `Tolerance.blurFilterPSNR`
    /// of SciPy's blur of the same unblurred frame.
    @Test(arguments: [(3.0, 1.0), (7.5, 1.0), (12.0, 1.0), (20.0, 1.0), (6.0, 2.0)])
    func blurMatchesSciPysGaussian(radius: Double, scale: Double) throws {
        let sharp = try SceneRenderer(rasterizer: Rasterizer(threads: 1)).frame(for: try scene([], scale: scale), at: 0)
        var filter = LayerFilter(.gaussianBlur)
        filter.inputRadius = radius
        let blurred = try renderEveryWay {
            try SceneRenderer(rasterizer: $0).frame(for: try scene([filter], scale: scale), at: 0)
        }
        guard let reference = try scipyBlur(sharp, sigma: radius * scale) else {
            print("skipped: needs /usr/bin/python3 with SciPy (python3-scipy, scripts/setup.sh)")
            return
        }
        var squared = 0.0
        for (i, v) in blurred.pixels.enumerated() { squared += (Double(v) - reference[i]) * (Double(v) - reference[i]) }
        let db = 10 * log10(255 * 255 / (squared / Double(reference.count)))
        #expect(db >= Tolerance.blurFilterPSNR, "σ \(radius * scale): \(db) dB")
        // It is a blur: the sharp frame is far from it.
        #expect(psnr(sharp.pixels, blurred.pixels) < 30)
    }

    /// Frosted glass: a layer whose `backgroundFilters` blur what is below it, inside its bounds. Inside,
    /// the frame is SciPy's blur of the frame drawn without the glass (within `Tolerance.blurFilterPSNR`);
    /// outside, it is that frame byte for byte. The glass keeps 4σ from the canvas's edges, where what
    /// lies beyond the frame would count.
    @Test(arguments: [5.0, 12.0])
    func backgroundBlurIsTheBlurOfWhatIsBelow(radius: Double) throws {
        var scene = try self.scene([])
        scene.background = Color(red: 0.95, green: 0.9, blue: 0.8)
        let sharp = try SceneRenderer(rasterizer: Rasterizer(threads: 1)).frame(for: scene, at: 0)
        var glass = Layer(name: "glass")
        glass.anchorPoint = .zero
        glass.position = Point(x: 70, y: 50)
        glass.bounds = Rect(x: 0, y: 0, width: 100, height: 60)
        var blur = LayerFilter(.gaussianBlur)
        blur.inputRadius = radius
        glass.backgroundFilters = [blur]
        scene.layers.append(glass)
        let frosted = try renderEveryWay { try SceneRenderer(rasterizer: $0).frame(for: scene, at: 0) }
        guard let reference = try scipyBlur(sharp, sigma: radius) else {
            print("skipped: needs /usr/bin/python3 with SciPy (python3-scipy, scripts/setup.sh)")
            return
        }
        var squared = 0.0, inside = 0, outsideChanged = 0
        for y in 0..<frosted.height {
            for x in 0..<frosted.width {
                let i = (y * frosted.width + x) * 4
                if (70..<170).contains(x) && (50..<110).contains(y) {
                    for c in 0..<4 { squared += pow(Double(frosted.pixels[i + c]) - reference[i + c], 2) }
                    inside += 4
                } else if frosted.pixels[i..<(i + 4)] != sharp.pixels[i..<(i + 4)] {
                    outsideChanged += 1
                }
            }
        }
        let db = 10 * log10(255 * 255 / (squared / Double(inside)))
        #expect(db >= Tolerance.blurFilterPSNR, "σ \(radius): \(db) dB")
        #expect(outsideChanged == 0)
    }

    /// One opaque pixel's colour (r, g, b in 0…1, as bytes) under `filters`.
    func filtered(_ color: Color, _ filters: [LayerFilter]) throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        var scene = Scene(width: 8, height: 8, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 1)
        scene.background = .clear
        var layer = Layer(name: "swatch")
        layer.anchorPoint = .zero
        layer.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
        layer.backgroundColor = color
        layer.filters = filters
        scene.layers = [layer]
        let p = try renderEveryWay { try SceneRenderer(rasterizer: $0).frame(for: scene, at: 0) }.pixel(x: 4, y: 4)
        return (p.r, p.g, p.b, p.a)
    }

    func near(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ expected: (Double, Double, Double, Double)) -> Bool {
        let e = [expected.0, expected.1, expected.2, expected.3].map { ($0 * 255).rounded() }
        let got = [p.r, p.g, p.b, p.a].map(Double.init)
        return zip(got, e).allSatisfy { abs($0 - $1) <= Double(Tolerance.roundingLevels) }
    }

    @Test func colourFiltersAreTheirMatrices() throws {
        // The swatch as stored: 0.2, 0.4, 0.6 are 51, 102, 153.
        let c = Color(red: 0.2, green: 0.4, blue: 0.6)
        // Invert: 1 − c.
        #expect(near(try filtered(c, [LayerFilter(.colorInvert)]), (0.8, 0.6, 0.4, 1)))
        // Saturation 0: each channel the Rec. 709 luminance 0.2125·0.2 + 0.7154·0.4 + 0.0721·0.6 = 0.37193.
        var gray = LayerFilter(.colorControls)
        gray.inputSaturation = 0
        #expect(near(try filtered(c, [gray]), (0.37193, 0.37193, 0.37193, 1)))
        // Brightness 0.1 and contrast 2: (c + 0.1 − 0.5)·2 + 0.5 = (0.1, 0.5, 0.9).
        var controls = LayerFilter(.colorControls)
        controls.inputBrightness = 0.1
        controls.inputContrast = 2
        #expect(near(try filtered(c, [controls]), (0.1, 0.5, 0.9, 1)))
        // Full sepia: 0.393·0.2 + 0.769·0.4 + 0.189·0.6 = 0.4996; 0.349·0.2 + 0.686·0.4 + 0.168·0.6 =
        // 0.4450; 0.272·0.2 + 0.534·0.4 + 0.131·0.6 = 0.3466.
        #expect(near(try filtered(c, [LayerFilter(.sepiaTone)]), (0.4996, 0.4450, 0.3466, 1)))
        // A colour matrix that swaps red and blue and halves alpha: (0.6, 0.4, 0.2) at alpha 0.5,
        // premultiplied (0.3, 0.2, 0.1, 0.5).
        var swap = LayerFilter(.colorMatrix)
        swap.inputRVector = [0, 0, 1, 0]
        swap.inputBVector = [1, 0, 0, 0]
        swap.inputAVector = [0, 0, 0, 0.5]
        #expect(near(try filtered(c, [swap]), (0.3, 0.2, 0.1, 0.5)))
        // Filters apply in order: invert, then saturation 0, is the luminance of (0.8, 0.6, 0.4):
        // 0.2125·0.8 + 0.7154·0.6 + 0.0721·0.4 = 0.62807.
        #expect(near(try filtered(c, [LayerFilter(.colorInvert), gray]), (0.62807, 0.62807, 0.62807, 1)))
    }

    /// `filters.blur.inputRadius` animates like any number: half-way through a linear 0 → 10 it is 5,
    /// and the frame drawn then is the frame of a still radius of 5.
    @Test func inputsAnimateByKeyPath() throws {
        var moving = try scene([LayerFilter(.gaussianBlur, name: "blur")])
        moving.layers[0].filters[0].inputRadius = 0
        moving.layers[0].addAnimation(
            .basic(
                BasicAnimation(
                    keyPath: "filters.blur.inputRadius", fromValue: .number(0), toValue: .number(10),
                    timing: MediaTiming(duration: 1))))
        let presented = moving.sample(at: 0.5).layers[0]
        #expect(AnimatedKeyPath(rawValue: "filters.blur.inputRadius")?.get(presented) == .number(5))
        var still = try scene([LayerFilter(.gaussianBlur)])
        still.layers[0].filters[0].inputRadius = 5
        let renderer = SceneRenderer(rasterizer: Rasterizer(threads: 2))
        #expect(try renderer.frame(for: moving, at: 0.5) == renderer.frame(for: still, at: 0))
        #expect(AnimatedKeyPath(rawValue: "filters.blur.inputSpeed") == nil)
    }
}
