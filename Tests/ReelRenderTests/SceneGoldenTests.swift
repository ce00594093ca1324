// Scene files rendered by Reel every way against Skia's drawing of the same layers (scripts/scene-goldens.py).
import Foundation
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene
import ReelTestSupport
import Testing

/// Whole scenes — a rounded rectangle with a border, a gradient layer, a stroked shape, a group's opacity,
/// a transformed sublayer — read from the YAML files scripts/scene-goldens.py wrote, rendered through
/// `SceneDecoder` and `SceneRenderer` every way (`renderEveryWay`), and compared with the PNG the script
/// drew of the same layers with Skia by Core Animation's rules (written out in the script). The bounds
/// are the rasterizer goldens' (`GoldenComparison`: `Tolerance.goldenPSNR`, `Tolerance.goldenFlatLevels`):
/// what differs here beyond the rasterizer is the layer-to-draw-call translation, and a wrong anchor
/// point, border inset, group opacity or gradient direction is tens of levels off over whole areas. On a
/// failure, expected | difference ×8 | actual is written to test-artifacts/scene-goldens/NAME.png.
@Suite struct SceneGoldenTests {
    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Goldens")

    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }()

    @Test func theGoldensAreThere() {
        #expect(
            Self.names == ["gradient_layer", "opacity_group", "rounded_border", "shape_stroke", "transformed_sublayer"],
            "\(Self.names)")
    }

    @Test(arguments: names)
    func matchesSkia(_ name: String) throws {
        let scene = try SceneDecoder.load(contentsOf: Self.directory.appendingPathComponent("\(name).yaml").path)
        let frame = try renderEveryWay { try SceneRenderer(rasterizer: $0).frame(for: scene, at: 0) }
        let golden = try ImageFile.read(path: Self.directory.appendingPathComponent("\(name).png").path)
        try #require(golden.width == frame.width && golden.height == frame.height)

        let result = GoldenComparison(actual: frame.pixels, golden: golden.rgba, width: frame.width, height: frame.height)
        #expect(result.psnr >= Tolerance.goldenPSNR, "\(name): PSNR \(result.psnr) dB")
        #expect(
            result.worstFlat <= Tolerance.goldenFlatLevels,
            "\(name): \(result.worstFlat) levels off at \(result.worstAt), away from edges")
        if !result.passes {
            let px = GoldenComparison.sideBySide(
                golden: golden.rgba, actual: frame.pixels, width: frame.width, height: frame.height)
            try? ImageFile.writePNG(
                StillImage(width: frame.width * 3, height: frame.height, rgba: px),
                to: GoldenComparison.artifactsDirectory("scene-goldens").appendingPathComponent("\(name).png").path)
        }
    }
}
