/// `type: svg` layers: an SVG imported as layers, each element with an id a layer named `layer/id` that
/// the timeline animates like any other; fitted into the bounds by `contentsGravity`; its file an input
/// of the render; and every mistake one error at the `file` key.
import Foundation
import Reel
import ReelGeometry
import ReelMedia
import ReelScene
import Testing

@Suite struct SVGLayerTests {
    /// A 100 × 50 drawing: a red bar along y = 25 from x = 0 to 100 (20 units thick, butt caps), and a
    /// blue square in a group.
    static let drawing = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50">
          <path id="bar" d="M 0 25 L 100 25" stroke="#ff0000" stroke-width="20" fill="none"/>
          <g id="group"><rect id="square" x="60" y="0" width="10" height="10" fill="#0000ff"/></g>
        </svg>
        """

    func scene(_ ws: Workspace, layer extra: String = "", timeline: String = "") -> String {
        _ = ws.write("drawing.svg", Self.drawing)
        return ws.write(
            "scene.yaml",
            """
            width: 200
            height: 100
            fps: 10
            duration: 2
            background: "#ffffff"
            layers:
              - name: art
                type: svg
                file: drawing.svg
                position: [100, 50]
            \(extra)
            timeline:
            \(timeline.isEmpty ? "  []" : timeline)
            """)
    }

    @Test func elementsWithAnIdAreLayersNamedUnderTheSVGLayer() throws {
        let ws = try Workspace()
        let scene = try Reel.loadScene(scene(ws))
        let art = try #require(scene.layers.first)
        // With no bounds, the layer takes the SVG's size; its first sublayer is the SVG's viewport.
        #expect(art.bounds.width == 100 && art.bounds.height == 50)
        #expect(art.sublayers.map(\.name) == ["art/svg"])
        #expect(scene.layers.find("art/bar")?.type == .shape)
        #expect(scene.layers.find("art/group")?.sublayers.map(\.name) == ["art/square"])
        #expect(scene.importedFiles["art"] == ws.file("drawing.svg"))
        #expect(Reel.inputFiles(of: scene, path: ws.file("scene.yaml")).contains(ws.file("drawing.svg")))
        let r = try runReel(["info", ws.file("scene.yaml")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("art (svg drawing.svg) at [100, 50], bounds 100×50"), "\(r.stdout)")
        #expect(r.stdout.contains("art/square (shape)"), "\(r.stdout)")
    }

    /// strokeEnd 0 → 1 over 1 s, linear, on the imported bar: at 0.5 s the bar reaches x = 50 units, i.e.
    /// scene x 100 (the layer's left edge is at 50); pixel centres at x 99.5 and 100.5 lie either side.
    @Test func theTimelineAnimatesAnImportedElement() throws {
        let ws = try Workspace()
        let file = scene(
            ws,
            timeline: """
                  - {at: 0, layer: art/bar, add: [{type: basic, keyPath: strokeEnd, fromValue: 0, toValue: 1, duration: 1}]}
                """)
        let r = try runReel(["still", file, "--at", "0.5", "-o", ws.file("half.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try ImageFile.read(path: ws.file("half.png"))
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(png.rgba[(y * png.width + x) * 4..<(y * png.width + x) * 4 + 3]) }
        #expect(pixel(60, 50) == [255, 0, 0] && pixel(99, 50) == [255, 0, 0])
        #expect(pixel(100, 50) == [255, 255, 255] && pixel(140, 50) == [255, 255, 255])
        #expect(pixel(115, 30) == [0, 0, 255])  // the square (60…70, 0…10) is not animated
    }

    /// Bounds 200 × 50 with resizeAspect: the 100 × 50 drawing keeps its aspect, centred, so it spans
    /// scene x 50…150; with the default resize it is stretched across 0…200.
    @Test func contentsGravityFitsTheSVGIntoTheBounds() throws {
        for (gravity, left, right) in [("resizeAspect", 50, 150), ("resize", 0, 200)] {
            let ws = try Workspace()
            _ = ws.write("drawing.svg", Self.drawing)
            let file = ws.write(
                "scene.yaml",
                """
                width: 200
                height: 100
                fps: 10
                duration: 1
                background: "#ffffff"
                layers:
                  - {name: art, type: svg, file: drawing.svg, position: [100, 50], bounds: [200, 50], contentsGravity: \(gravity)}
                """)
            let r = try runReel(["still", file, "--at", "0", "-o", ws.file("out.png")])
            #expect(r.status == 0, "\(r.stderr)")
            let png = try ImageFile.read(path: ws.file("out.png"))
            func red(_ x: Int) -> Bool {
                Array(png.rgba[(50 * png.width + x) * 4..<(50 * png.width + x) * 4 + 3]) == [255, 0, 0]
            }
            #expect(red(left) && red(right - 1), "\(gravity)")
            #expect(left == 0 || !red(left - 1), "\(gravity)")
            #expect(right == 200 || !red(right), "\(gravity)")
        }
    }

    /// The Swift API's `Reel.svgLayer` draws what `type: svg` in a scene file does, and its names match.
    @Test func theSwiftAPIDrawsWhatTheFileDoes() throws {
        let ws = try Workspace()
        _ = ws.write("drawing.svg", Self.drawing)
        let file = ws.write(
            "scene.yaml",
            """
            width: 200
            height: 100
            fps: 10
            duration: 1
            background: "#ffffff"
            layers:
              - {name: art, type: svg, file: drawing.svg, position: [100, 50], bounds: [200, 50], contentsGravity: resizeAspect}
            """)
        let fromFile = try Reel.load(file)
        var scene = Scene(width: 200, height: 100, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 1)
        scene.background = .white
        let imported = try Reel.svgLayer(
            contentsOf: ws.file("drawing.svg"), name: "art", bounds: Rect(x: 0, y: 0, width: 200, height: 50),
            gravity: .resizeAspect)
        var art = imported.layer
        art.position = Point(x: 100, y: 50)
        scene.layers = [art]
        #expect(imported.notes.isEmpty)
        #expect(scene.layers.find("art/square")?.type == .shape)
        let fromCode = try Reel.clip(for: scene)
        let a = try fromFile.renderer(threads: 1).frame(for: fromFile.scene, at: 0)
        let b = try fromCode.renderer(threads: 1).frame(for: fromCode.scene, at: 0)
        #expect(a.pixels == b.pixels)
        #expect(a.pixels.contains { $0 < 128 })  // the drawing was drawn
    }

    @Test func mistakesAreOneErrorAtTheFileKey() throws {
        let ws = try Workspace()
        _ = ws.write("drawing.svg", Self.drawing)
        _ = ws.write("broken.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\">\n<rect\n</svg>")
        func error(_ layer: String) throws -> String {
            let file = ws.write(
                "scene.yaml",
                """
                width: 200
                height: 100
                fps: 10
                duration: 1
                layers:
                  - \(layer)
                """)
            let r = try runReel(["still", file, "--at", "0", "-o", ws.file("out.png"), "--sandbox"])
            #expect(r.status == 1)
            #expect(!FileManager.default.fileExists(atPath: ws.file("out.png")))
            return r.stderr
        }
        let scene = ws.file("scene.yaml")
        let missing = try error("{name: art, type: svg, file: nowhere.svg}")
        #expect(
            missing.contains("\(scene):6:") && missing.contains("layers[0].file") && missing.contains("no such file"),
            "\(missing)")
        let noFile = try error("{name: art, type: svg}")
        #expect(noFile.contains("needs the \"file\""), "\(noFile)")
        let broken = try error("{name: art, type: svg, file: broken.svg}")
        #expect(broken.contains("\(scene):6:") && broken.contains("broken.svg:3:"), "\(broken)")
        let outside = try error("{name: art, type: svg, file: ../elsewhere.svg}")
        #expect(outside.contains("outside the scene's folder"), "\(outside)")
        // A scene layer before the svg layer with an imported name; one after it is refused as any duplicate.
        let clash = try error("{name: art/bar}\n  - {name: art, type: svg, file: drawing.svg}")
        #expect(clash.contains("\(scene):7:") && clash.contains("makes a layer named \"art/bar\""), "\(clash)")
        let later = try error("{name: art, type: svg, file: drawing.svg, sublayers: [{name: art/bar}]}")
        #expect(later.contains("another layer is already named \"art/bar\""), "\(later)")
        let wrongKey = try error("{name: art, type: svg, file: drawing.svg, fillColor: red}")
        #expect(wrongKey.contains("fillColor"), "\(wrongKey)")
    }
}
