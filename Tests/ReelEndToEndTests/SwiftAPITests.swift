// A scene built with the Swift API renders like the same scene file; the StarButton Swift example writes the same GIF bytes.
import Foundation
import Reel
import ReelAnimation
import ReelGeometry
import ReelRaster
import ReelRender
import ReelScene
import Testing

/// The Swift API builds the same scene as a scene file: same types, same frames.
@Suite struct SwiftAPITests {
    @Test func sceneInCodeRendersLikeTheFile() throws {
        var scene = Scene(width: 120, height: 80, scale: 2, fps: FrameRate(numerator: 30, denominator: 1)!, duration: 1)
        scene.background = Color(hex: "#101418")!
        var card = Layer(name: "card", type: .shape)
        card.position = Point(x: 60, y: 40)
        card.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        card.shape.path = Path(ovalIn: Rect(x: 0, y: 0, width: 40, height: 40))
        card.shape.fillColor = Color(hex: "#eecd34")
        var grow = KeyframeAnimation(
            keyPath: "transform.scale", values: [.number(1), .number(1.5), .number(1)], timing: MediaTiming(duration: 1))
        grow.timingFunction = .easeInEaseOut
        card.addAnimation(.keyframe(grow))
        scene.layers = [card]

        let file = try SceneDecoder.decode(
            Array(
                ##"""
                {"width": 120, "height": 80, "scale": 2, "fps": 30, "duration": 1, "background": "#101418",
                 "layers": [{"name": "card", "type": "shape", "position": [60, 40], "bounds": [40, 40], "fillColor": "#eecd34",
                   "path": [{"oval": [0, 0, 40, 40]}],
                   "animations": [{"type": "keyframe", "keyPath": "transform.scale", "values": [1, 1.5, 1], "duration": 1, "timingFunction": "easeInEaseOut"}]}]}
                """##.utf8), file: "card.json")
        let renderer = SceneRenderer(rasterizer: Rasterizer(threads: 1))
        for t in [0.0, 0.3, 0.5, 0.9] {
            #expect(try renderer.frame(for: scene, at: t).pixels == renderer.frame(for: file, at: t).pixels, "t = \(t)")
        }
        // And to a file through the facade.
        let ws = try Workspace()
        let summary = try Reel.render(Clip(scene: scene), to: ws.file("card.gif"))
        #expect(summary.frames == 30)
    }
}

/// The executable example `star-button-swift` (examples/swift/StarButton) builds examples/star-button.yaml
/// in code; rendered to GIF, the two files are byte for byte the same.
@Suite struct SwiftExampleTests {
    /// A terminal layer made in Swift renders the same frame as `type: terminal` in a scene file.
    @Test func terminalLayerInCodeRendersLikeTheFile() throws {
        let ws = try Workspace()
        let cast = ws.write("s.cast", "{\"version\": 2, \"width\": 6, \"height\": 2}\n[0.1, \"o\", \"\\u001b[31mhi\"]\n")
        var scene = Scene(width: 80, height: 40, scale: 1, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 1)
        var terminal = try Reel.terminalLayer(contentsOf: cast, name: "t")
        terminal.anchorPoint = .zero
        terminal.terminal?.padding = 4
        scene.layers = [terminal]
        let file = ws.write(
            "scene.json",
            """
            {"width": 80, "height": 40, "fps": 10, "duration": 1,
             "layers": [{"name": "t", "type": "terminal", "contents": "s.cast", "anchorPoint": [0, 0], "padding": 4}]}
            """)
        let fromCode = try Reel.clip(for: scene, folder: ws.path)
        let fromFile = try Reel.load(file)
        #expect(fromCode.scene.layers[0].bounds == fromFile.scene.layers[0].bounds)
        #expect(fromCode.scene.layers[0].bounds.width > 40)
        try Reel.still(fromCode, at: 0.5, to: ws.file("a.png"))
        try Reel.still(fromFile, at: 0.5, to: ws.file("b.png"))
        let a = try Data(contentsOf: URL(fileURLWithPath: ws.file("a.png")))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: ws.file("b.png")))))
    }

    @Test func starButtonInSwiftMatchesTheSceneFile() throws {
        let ws = try Workspace()
        let binary = URL(fileURLWithPath: reelBinary()).deletingLastPathComponent().appendingPathComponent("star-button-swift")
            .path
        let fromCode = ws.file("code.gif"), fromFile = ws.file("file.gif")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = [fromCode]
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let r = try runReel(["render", ExamplesTests.examplesDirectory + "/star-button.yaml", "-o", fromFile, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let a = try Data(contentsOf: URL(fileURLWithPath: fromCode)), b = try Data(contentsOf: URL(fileURLWithPath: fromFile))
        #expect(a.count > 10_000 && a == b)
    }
}
