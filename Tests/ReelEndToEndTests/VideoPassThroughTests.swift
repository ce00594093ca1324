// Video frames passed to the encoder as decoded: which frames pass, the same bytes whatever the threads, and the colours kept.
import Foundation
import Reel
import ReelMedia
import ReelTestSupport
import Testing

/// A frame that is one opaque video picture shown pixel for pixel at the output's size goes to the
/// encoder as the decoded picture (BT.601 sources through the matrix to BT.709), not drawn; every other
/// frame is drawn. The counts are `RenderSummary.passedThrough`; the pictures are checked against the
/// source, decoded by FFmpeg's own RGB conversion, in RGB.
@Suite struct VideoPassThroughTests {
    static let width = 100
    static let height = 64

    /// A moving colour test pattern (the ffmpeg tool's testsrc2), 1 s at 30 fps, H.264 4:2:0; `tags` are
    /// the tool's colour options (none: untagged, which Reel reads as BT.601, as the tool wrote it).
    static func source(_ ws: Workspace, name: String, tags: [String] = []) throws -> String {
        let out = ws.file(name)
        try ffmpeg(
            ["-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30:duration=1"] + tags
                + ["-pix_fmt", "yuv420p", "-c:v", "libx264", "-crf", "8", out])
        return out
    }

    /// The video filling a scene its size, with `extra` layers (YAML list items) over it.
    static func render(
        _ ws: Workspace, source: String, videoKeys: String = "", extra: String = "", threads: Int = 2, workers: Int = 2,
        output: String = "out.mp4"
    ) throws -> (summary: RenderSummary, path: String) {
        let scene = ws.write(
            "scene-\(UUID().uuidString).yaml",
            """
            width: \(width)
            height: \(height)
            fps: 30
            duration: 1
            background: "#000000"
            layers:
              - {name: screen, type: video, contents: \((source as NSString).lastPathComponent), anchorPoint: [0, 0]\(videoKeys)}
            \(extra)
            """)
        var options = RenderOptions()
        options.threads = threads
        options.workers = workers
        let path = ws.file(output)
        let summary = try Reel.render(try Reel.load(scene), to: path, options: options)
        return (summary, path)
    }

    /// PSNR in dB of `a` against `b` over R, G and B.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var sum = 0.0, n = 0
        for i in 0..<min(a.count, b.count) where i % 4 != 3 {
            let d = Double(a[i]) - Double(b[i])
            sum += d * d
            n += 1
        }
        return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(n)))
    }

    @Test(arguments: [[], ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]])
    func aVideoAloneAsItIsPassesThroughTheSameWhateverTheThreads(tags: [String]) throws {
        let ws = try Workspace()
        let source = try Self.source(ws, name: "src.mp4", tags: tags)
        let one = try Self.render(ws, source: source, threads: 1, workers: 1, output: "one.mp4")
        let two = try Self.render(ws, source: source, threads: 2, workers: 2, output: "two.mp4")
        #expect(one.summary.passedThrough == 30)
        #expect(two.summary.passedThrough == 30)
        #expect(try Data(contentsOf: URL(fileURLWithPath: one.path)) == Data(contentsOf: URL(fileURLWithPath: two.path)))
        // The same frames drawn (a layer of one pixel, nearly transparent, keeps them from passing): the
        // video's pictures to RGBA and back.
        let speck = "  - {name: speck, position: [0.5, 0.5], bounds: [0, 0, 1, 1], backgroundColor: \"#00000001\"}"
        let drawn = try Self.render(ws, source: source, extra: speck, output: "drawn.mp4")
        #expect(drawn.summary.passedThrough == 0)
        // Its colours are the source's, read back through each file's own tags (the matrix, BT.601 →
        // BT.709 when untagged, and the chroma siting carried over): at least as close as drawn.
        let want = try VideoReader(path: source).decodeAll()
        let passed = try VideoReader(path: one.path).decodeAll().map(\.rgba)
        let viaRGBA = try VideoReader(path: drawn.path).decodeAll().map(\.rgba)
        #expect(passed.count == want.count && viaRGBA.count == want.count)
        let mean = { (frames: [[UInt8]]) in zip(frames, want).map { Self.psnr($0, $1.rgba) }.reduce(0, +) / Double(want.count) }
        let (new, old) = (mean(passed), mean(viaRGBA))
        #expect(new >= old && new > 25, "passed through \(new) dB, drawn \(old) dB")
    }

    @Test func aFrameWithAnythingElseOnItIsDrawn() throws {
        let ws = try Workspace()
        let source = try Self.source(ws, name: "src.mp4")
        let box = "  - {name: box, position: [10, 10], bounds: [0, 0, 8, 8], backgroundColor: \"#ff0000\"}"
        // Something over the video, the video translucent, scaled, moved: every frame is drawn.
        for (keys, extra) in [
            ("", box), (", opacity: 0.9", ""), (", transform: {scale: 0.5}", ""), (", position: [1, 0]", ""),
        ] {
            let r = try Self.render(ws, source: source, videoKeys: keys, extra: extra)
            #expect(r.summary.passedThrough == 0, "\(keys) \(extra)")
            // The box is drawn where it is (red over the pattern).
            if !extra.isEmpty {
                let frames = try VideoReader(path: r.path).decodeAll()
                let p = (10 * Self.width + 10) * 4
                #expect(frames.allSatisfy { $0.rgba[p] > 200 && $0.rgba[p + 1] < 60 && $0.rgba[p + 2] < 60 })
            }
        }
        // A GIF is drawn (its writer takes RGBA only).
        #expect(try Self.render(ws, source: source, output: "out.gif").summary.passedThrough == 0)
    }

    @Test func layersThatPaintNothingLetItPassUpToABound() throws {
        let ws = try Workspace()
        let source = try Self.source(ws, name: "src.mp4")
        let empty = { (n: Int) in
            (0..<n).map { "  - {name: empty\($0), position: [5, 5], bounds: [0, 0, 4, 4]}" }.joined(separator: "\n")
        }
        // Shown but painting nothing: the list is the video alone.
        #expect(try Self.render(ws, source: source, extra: empty(3)).summary.passedThrough == 30)
        // Past PassThrough.mostLayers shown layers the question is not asked: drawn.
        #expect(try Self.render(ws, source: source, extra: empty(16)).summary.passedThrough == 0)
    }

    @Test func aLayerShownForAFewFramesIsDrawnOnlyThen() throws {
        let ws = try Workspace()
        let source = try Self.source(ws, name: "src.mp4")
        // The bench's flash: white for the first 0.1 s (frames 0–2), transparent after (nothing painted).
        let flash = """
              - name: flash
                position: [\(Self.width / 2), \(Self.height / 2)]
                bounds: [\(Self.width), \(Self.height)]
                backgroundColor: "#ffffff"
                opacity: 0
                animations:
                  - {type: basic, keyPath: opacity, fromValue: 1, toValue: 1, duration: 0.1}
            """
        for threads in [1, 2] {
            let r = try Self.render(ws, source: source, extra: flash, threads: threads, workers: threads)
            #expect(r.summary.passedThrough == 27)
            let frames = try VideoReader(path: r.path).decodeAll()
            let mean = frames.map { f in Double(f.rgba.reduce(0) { $0 + Int($1) }) / Double(f.rgba.count) }
            #expect(mean.prefix(3).allSatisfy { $0 > 250 }, "\(mean.prefix(4))")
            #expect(mean.dropFirst(3).allSatisfy { $0 < 200 }, "\(mean.prefix(4))")
        }
    }
}
