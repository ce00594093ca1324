// presets/*.yaml: the binary's copies are the files, listed by `reel presets`, applied by `--preset`; letterboxes.
import Foundation
import Reel
import ReelGeometry
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene
import ReelTestSupport
import Testing

/// presets/*.yaml: shipped inside the binary, listed by `reel presets`, applied by `--preset`.
@Suite struct PresetTests {
    static let presetsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("presets").path

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: presetsDirectory)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
    }

    /// The binary's copies are the files (scripts/presets.sh regenerates them).
    @Test func shippedPresetsAreTheFiles() throws {
        #expect(Reel.presetNames == Self.files.map { ($0 as NSString).deletingPathExtension })
        for name in Reel.presetNames {
            #expect(try Reel.preset(name) == Preset.load(contentsOf: Self.presetsDirectory + "/\(name).yaml"), "\(name)")
        }
        for required in [
            "docs-gif", "web-mp4", "hq-mp4", "apple-hevc", "webm-alpha", "prores-alpha", "apng", "webp", "social-square",
        ] {
            #expect(Reel.presetNames.contains(required))
        }
    }

    @Test func listed() throws {
        let r = try runReel(["presets"])
        #expect(r.status == 0)
        for name in Reel.presetNames { #expect(r.stdout.contains(name)) }
        #expect(r.stdout.contains("GIF for READMEs"))
    }

    /// Each preset renders a tiny scene, to its own format (the extension is added when missing).
    @Test(arguments: Reel.presetNames)
    func rendersATinyScene(_ name: String) throws {
        let ws = try Workspace()
        let scene = ws.write(
            "s.json",
            ##"{"width": 64, "height": 40, "fps": 10, "duration": 0.3, "background": "#00000000", "layers": [{"name": "a", "position": [32, 20], "bounds": [20, 20], "backgroundColor": "#3478f6", "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 0.3}]}]}"##
        )
        let preset = try Reel.preset(name)
        let r = try runReel(["render", scene, "-o", ws.file("out"), "--preset", name, "--quiet"])
        #expect(r.status == 0, "\(name): \(r.stderr)")
        let format = preset.format ?? "mp4"
        let output = format == "png" ? ws.file("out/frame_00000.png") : ws.file("out.\(format)")
        #expect(FileManager.default.fileExists(atPath: output), "\(name): \(ws.listing())")
        if ["mp4", "mov", "webm", "gif", "apng"].contains(format) {
            let info = try VideoReader(path: output).info
            if let size = preset.settings.size {
                #expect(info.width == size.width && info.height == size.height)
            }
            if let codec = preset.settings.codec {
                #expect(info.codecName == codec.rawValue.replacingOccurrences(of: "-4444", with: ""))
            }
        }
    }

    @Test func commandLineOverridesThePreset() throws {
        let ws = try Workspace()
        let scene = ws.write(
            "s.json", #"{"width": 64, "height": 40, "fps": 10, "duration": 0.2, "layers": [{"name": "a", "bounds": [10, 10]}]}"#)
        // web-mp4 is 4:2:0 8-bit; the command line asks for 4:4:4.
        #expect(try runReel(["render", scene, "-o", ws.file("o.mp4"), "--preset", "web-mp4", "--chroma", "444"]).status == 0)
        #expect(try VideoReader(path: ws.file("o.mp4")).info.pixelFormat == "yuv444p")
        // social-square is 1080×1080; --width replaces its size.
        #expect(
            try runReel(["render", scene, "-o", ws.file("s.mp4"), "--preset", "social-square", "--width", "128"]).status == 0)
        let info = try VideoReader(path: ws.file("s.mp4")).info
        #expect(info.width == 128 && info.height == 80)
        // A preset's format and a different extension.
        let clash = try runReel(["render", scene, "-o", ws.file("x.mp4"), "--preset", "docs-gif"])
        #expect(clash.status != 0 && clash.stderr.contains("preset docs-gif writes .gif files"))
    }

    @Test func socialSquareLetterboxes() throws {
        // A 2:1 scene in a square: scaled to the width, centred, background above and below.
        var scene = Scene(width: 200, height: 100, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 0.1)
        scene.background = .white
        var box = Layer(name: "box")
        box.position = .init(x: 100, y: 50)
        box.bounds = .init(x: 0, y: 0, width: 200, height: 100)
        box.backgroundColor = Color(hex: "#ff0000")
        scene.layers = [box]
        let fitted = scene.fitted(pixelWidth: 100, pixelHeight: 100)
        #expect(fitted.pixelWidth == 100 && fitted.pixelHeight == 100)
        let f = try ReelRenderTestHelper.frame(fitted)
        func px(_ x: Int, _ y: Int) -> [UInt8] { Array(f.pixels[((y * 100 + x) * 4)..<((y * 100 + x) * 4 + 3)]) }
        #expect(px(50, 10) == [255, 255, 255] && px(50, 50) == [255, 0, 0] && px(50, 90) == [255, 255, 255])
        #expect(px(50, 26) == [255, 0, 0] && px(50, 24) == [255, 255, 255])  // the red fills y 25…75
    }

    @Test func badPresetFilesGetLocatedErrors() throws {
        let ws = try Workspace()
        let scene = ws.write("s.json", #"{"width": 64, "height": 40, "fps": 10, "duration": 0.2}"#)
        let bad = ws.write("mine.yaml", "description: mine\ncodec: h265\ncrf: 20\n")
        let r = try runReel(["render", scene, "-o", ws.file("o.mp4"), "--preset", bad])
        #expect(r.status != 0)
        #expect(r.stderr.contains("mine.yaml:2:8") && r.stderr.contains("\"h265\" is not a codec"), "\(r.stderr)")
        #expect(r.stderr.contains("did you mean \"h264\"?") || r.stderr.contains("did you mean \"hevc\"?"))
        let unknown = ws.write("u.yaml", "description: x\ncolours: 16\n")
        let u = try runReel(["render", scene, "-o", ws.file("o.gif"), "--preset", unknown])
        #expect(u.status != 0 && u.stderr.contains("u.yaml:2:1") && u.stderr.contains("did you mean \"colors\"?"), "\(u.stderr)")
        let missing = try runReel(["render", scene, "-o", ws.file("o.gif"), "--preset", "doc-gif"])
        #expect(missing.status != 0 && missing.stderr.contains("did you mean \"docs-gif\"?"))
        #expect(!ws.listing().contains { $0.hasPrefix("o.") })
    }
}

enum ReelRenderTestHelper {
    static func frame(_ s: Scene) throws -> Frame {
        try SceneRenderer(rasterizer: Rasterizer(threads: 1)).frame(for: s, at: 0)
    }
}

@Suite struct LetterboxTests {
    /// Content outside the original canvas stays hidden in the letterbox, opaque background or not.
    @Test func outsideContentIsHidden() throws {
        for background in [Color.white, Color(red: 1, green: 1, blue: 1, alpha: 0)] {
            var scene = Scene(width: 200, height: 100, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 0.1)
            scene.background = background
            var box = Layer(name: "box")
            box.position = .init(x: 100, y: 50)
            box.bounds = .init(x: 0, y: 0, width: 100, height: 300)  // sticks out above and below
            box.backgroundColor = Color(hex: "#ff0000")
            scene.layers = [box]
            let f = try ReelRenderTestHelper.frame(scene.fitted(pixelWidth: 100, pixelHeight: 100))
            func px(_ x: Int, _ y: Int) -> [UInt8] { Array(f.pixels[((y * 100 + x) * 4)..<((y * 100 + x) * 4 + 4)]) }
            #expect(px(50, 10) == (background.alpha < 1 ? [0, 0, 0, 0] : [255, 255, 255, 255]), "\(background)")
            #expect(px(50, 50) == [255, 0, 0, 255])
            #expect(px(50, 90) == px(50, 10))
        }
    }
}
