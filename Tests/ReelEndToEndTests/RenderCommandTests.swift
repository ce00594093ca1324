// `reel render` end to end: MP4 and GIF, decoded frames against the renderer's, overrides, padding, help.
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
            #expect(quality >= Tolerance.encodedPSNR, "frame \(i): luma PSNR \(quality) dB")
            for (x, y) in [(2, 2), (60, 2), (2, 44), (60, 44), (32, 44)] {
                let k = (y * 64 + x) * 4
                for c in 0..<3 {
                    #expect(
                        abs(Int(frame.rgba[k + c]) - Int(rendered.pixels[k + c])) <= Tolerance.encodedPatchLevels,
                        "frame \(i) (\(x), \(y)) channel \(c)")
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
