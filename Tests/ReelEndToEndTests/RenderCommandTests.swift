// `reel render` end to end (MP4 and GIF, frames against the renderer, overrides); layer transforms and replicators, by pixel.
import Foundation
import Reel
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene
import ReelTestSupport
import Testing

@Suite struct RenderCommandTests {
    @Test(arguments: ["mp4", "gif"])
    func rendersAPlayableFile(_ ext: String) throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", smallScene)
        let result = try runReel(["render", scene, "-o", ws.file("clip.\(ext)")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(ws.listing() == ["clip.\(ext)", "scene.json"])  // no temporary file left over
        let reader = try VideoReader(path: ws.file("clip.\(ext)"))
        #expect(reader.info.width == 64 && reader.info.height == 48)
        #expect(try reader.decodeAll().count == 10)
    }

    /// The decoded MP4 frames are the renderer's frames. Threshold: luma PSNR ≥ 40 dB (flat synthetic
    /// content at CRF 18), and the flat background within ±2 levels per channel. Luma, because this box
    /// moves by fractions of a pixel with anti-aliased edges that do not fall on 2×2 chroma blocks, and
    /// 4:2:0 alone then costs the RGB PSNR about 4 dB at the edges, whatever the encoder (ReelMediaTests
    /// checks full RGB PSNR on block-aligned content).
    @Test func decodedFramesMatchTheRenderer() throws {
        let ws = try Workspace()
        let path = ws.write("scene.json", smallScene)
        #expect(try runReel(["render", path, "-o", ws.file("c.mp4"), "--quiet"]).status == 0)
        let scene = try SceneDecoder.load(contentsOf: path)
        let renderer = SceneRenderer()
        let decoded = try VideoReader(path: ws.file("c.mp4")).decodeAll(nearestChroma: true)
        #expect(decoded.count == scene.frameCount)
        for (i, frame) in decoded.enumerated() {
            let rendered = try renderer.frame(for: scene, at: scene.fps.time(ofFrame: i))
            let quality = lumaPSNR(rendered.pixels, frame.rgba)
            #expect(quality >= 40, "frame \(i): luma PSNR \(quality) dB")
            for (x, y) in [(2, 2), (60, 2), (2, 44), (60, 44), (32, 44)] {
                let k = (y * 64 + x) * 4
                for c in 0..<3 {
                    #expect(
                        abs(Int(frame.rgba[k + c]) - Int(rendered.pixels[k + c])) <= 2, "frame \(i) (\(x), \(y)) channel \(c)")
                }
            }
        }
    }

    @Test func overridesApply() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", smallScene)
        let r = try runReel([
            "render", scene, "-o", ws.file("o.mp4"), "--fps", "30000/1001", "--scale", "0.5", "--duration", "0.5",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let reader = try VideoReader(path: ws.file("o.mp4"))
        #expect(reader.info.width == 32 && reader.info.height == 24)
        #expect(reader.info.averageFrameRate.numerator == 30000 && reader.info.averageFrameRate.denominator == 1001)
        #expect(try reader.decodeAll().count == 15)  // ⌈0.5 · 29.97⌉ = 15 frames
    }

    @Test func sixtyFPSGIFIsWrittenAtThirty() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", smallScene)
        let r = try runReel(["render", scene, "-o", ws.file("g.gif"), "--fps", "60"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("written as 30 fps"))
        let (_, delays) = gifLoopAndDelays([UInt8](FileManager.default.contents(atPath: ws.file("g.gif"))!))
        #expect(delays.count == 30 && delays.allSatisfy { $0 == 3 || $0 == 4 } && delays.reduce(0, +) == 100)
    }

    @Test func oddPixelSizeIsPaddedAndSaysSo() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", smallScene.replacingOccurrences(of: "\"width\": 64", with: "\"width\": 63"))
        let r = try runReel(["render", scene, "-o", ws.file("odd.mp4")])
        #expect(r.status == 0)
        #expect(r.stderr.contains("63×48 is encoded as 64×48"))
        #expect(try VideoReader(path: ws.file("odd.mp4")).info.width == 64)
    }

    @Test func helpReadsWell() throws {
        let top = try runReel(["--help"])
        #expect(top.status == 0 && top.stdout.contains("render") && top.stdout.contains("reel render examples/hello.json"))
        let render = try runReel(["render", "--help"])
        #expect(
            render.stdout.contains("--output") && render.stdout.contains("--fps") && render.stdout.contains("--scale")
                && render.stdout.contains("--duration"))
    }
}

@Suite struct LayerTransformRenderTests {
    func render(_ json: String) throws -> ReelRaster.Frame {
        let scene = try SceneDecoder.decode(Array(json.utf8), file: "t.json")
        return try SceneRenderer(rasterizer: Rasterizer(threads: 1)).frame(for: scene, at: 0)
    }

    /// A 10×10 square at (50, 50) scaled 2× about its centre covers 40…60; rotated 45° its corner
    /// reaches 50 + 10√2 = 64.1 along x.
    @Test func transformPivotsOnTheAnchorPoint() throws {
        let f = try render(
            ##"{"width": 100, "height": 100, "fps": 10, "duration": 1, "background": "#ffffff", "layers": [{"name": "s", "position": [50, 50], "bounds": [10, 10], "backgroundColor": "#000000", "transform": {"scale": 2}}]}"##
        )
        #expect(f.pixel(x: 40, y: 40).r == 0 && f.pixel(x: 59, y: 59).r == 0)
        #expect(f.pixel(x: 39, y: 50).r == 255 && f.pixel(x: 60, y: 50).r == 255)
        let r = try render(
            ##"{"width": 100, "height": 100, "fps": 10, "duration": 1, "background": "#ffffff", "layers": [{"name": "s", "position": [50, 50], "bounds": [20, 20], "backgroundColor": "#000000", "transform": {"rotation": 0.7853981633974483}}]}"##
        )
        #expect(r.pixel(x: 62, y: 49).r == 0 && r.pixel(x: 65, y: 49).r == 255)  // |dx| + |dy| ≤ 14.1 inside
        #expect(r.pixel(x: 58, y: 41).r == 255)  // the square's corner is cut away by the rotation
    }

    @Test func zPositionOrdersSiblings() throws {
        let f = try render(
            ##"{"width": 20, "height": 20, "fps": 10, "duration": 1, "layers": [{"name": "front", "zPosition": 1, "position": [10, 10], "bounds": [20, 20], "backgroundColor": "#ff0000"}, {"name": "back", "position": [10, 10], "bounds": [20, 20], "backgroundColor": "#0000ff"}]}"##
        )
        #expect(f.pixel(x: 10, y: 10) == (255, 0, 0, 255))
    }

    @Test func sublayerTransformAboutThePivot() throws {
        // The parent's sublayerTransform scales its sublayers 2× about the parent's centre (50, 50).
        let f = try render(
            ##"{"width": 100, "height": 100, "fps": 10, "duration": 1, "background": "#ffffff", "layers": [{"name": "p", "position": [50, 50], "bounds": [100, 100], "sublayerTransform": {"scale": 2}, "sublayers": [{"name": "c", "position": [50, 50], "bounds": [10, 10], "backgroundColor": "#000000"}]}]}"##
        )
        #expect(f.pixel(x: 41, y: 41).r == 0 && f.pixel(x: 38, y: 50).r == 255)
    }
}

@Suite struct ReplicatorRenderTests {
    func render(_ json: String, at t: Double = 0) throws -> ReelRaster.Frame {
        let scene = try SceneDecoder.decode(Array(json.utf8), file: "r.json")
        return try SceneRenderer(rasterizer: Rasterizer(threads: 1)).frame(for: scene, at: t)
    }

    /// Four instances of a square at the top, each turned a further 90° about the bounds' centre:
    /// top, right, bottom, left; colour offsets take blue down by 0.25 per instance on white.
    @Test func instancesTurnAboutTheCentreAndShiftColour() throws {
        let f = try render(
            ##"{"width": 100, "height": 100, "fps": 10, "duration": 1, "background": "#000000", "layers": [{"name": "r", "type": "replicator", "position": [50, 50], "bounds": [100, 100], "instanceCount": 4, "instanceTransform": {"rotation": 1.5707963267948966}, "instanceBlueOffset": -0.25, "sublayers": [{"name": "s", "position": [50, 10], "bounds": [10, 10], "backgroundColor": "#ffffff"}]}]}"##
        )
        #expect(f.pixel(x: 50, y: 10) == (255, 255, 255, 255))  // k = 0: white × white
        #expect(f.pixel(x: 89, y: 50) == (255, 255, 191, 255))  // k = 1 at the right: blue 1 − 0.25 → 191
        #expect(f.pixel(x: 50, y: 89) == (255, 255, 128, 255))  // k = 2 at the bottom: 0.5 → 128 (127.5 up)
        #expect(f.pixel(x: 10, y: 50) == (255, 255, 64, 255))  // k = 3 at the left: 0.25 → 64 (63.75)
        #expect(f.pixel(x: 50, y: 50) == (0, 0, 0, 255))
    }

    /// Instance k is sampled at t − k·instanceDelay.
    @Test func instanceDelay() throws {
        let json =
            ##"{"width": 40, "height": 20, "fps": 10, "duration": 1, "background": "#000000", "layers": [{"name": "r", "type": "replicator", "position": [20, 10], "bounds": [40, 20], "instanceCount": 2, "instanceDelay": 0.5, "instanceTransform": {"translation": [20, 0]}, "sublayers": [{"name": "s", "position": [10, 10], "bounds": [20, 20], "backgroundColor": "#ffffff", "opacity": 0, "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1, "fillMode": "both", "removedOnCompletion": false}]}]}]}"##
        let f = try render(json, at: 0.75)
        #expect(f.pixel(x: 10, y: 10).r == 191)  // k = 0 at 0.75: opacity 0.75
        #expect(f.pixel(x: 30, y: 10).r == 64)  // k = 1 at 0.25: opacity 0.25
    }
}
