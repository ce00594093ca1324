// Every output format decoded back: codec, pixels, alpha, size, frames, colour tags, loops; GIF palettes, differencing, dither.
import Foundation
import Reel
import ReelMedia
import ReelScene
import ReelTestSupport
import Testing

/// Every output format, decoded back: codec, pixel format, alpha present or absent as expected, size,
/// frame count, duration, colour tags, `hvc1`, loop count, alpha round trip within ±1 level, colour
/// patches within ±2 levels.
@Suite struct OutputFormatTests {
    /// 64×48 px, 5 frames at 10 fps on a transparent background: an opaque blue patch (52, 120, 200)
    /// and a white square at alpha 0.5 (both 16×16 px, still), and a red bar that moves.
    static let scene = """
        {"width": 64, "height": 48, "fps": 10, "duration": 0.5, "background": "#00000000",
         "layers": [
           {"name": "blue", "position": [16, 16], "bounds": [16, 16], "backgroundColor": [0.20392157, 0.47058824, 0.78431373, 1]},
           {"name": "half", "position": [44, 16], "bounds": [16, 16], "backgroundColor": [1, 1, 1, 0.5]},
           {"name": "bar", "position": [4, 40], "bounds": [4, 8], "backgroundColor": "#ff0000",
            "animations": [{"keyPath": "position.x", "fromValue": 4, "toValue": 60, "duration": 0.5}]}]}
        """

    struct Case: CustomTestStringConvertible, Sendable {
        var output: String
        var arguments: [String] = []
        var codec: String
        var pixelFormat: String
        var alpha: Bool
        var tag: String? = nil
        var yuv = true
        var testDescription: String { "\(output) \(arguments.joined(separator: " "))" }
    }

    static let cases: [Case] = [
        Case(output: "a.mp4", codec: "h264", pixelFormat: "yuv420p", alpha: false, tag: "avc1"),
        Case(
            output: "b.mp4", arguments: ["--chroma", "444", "--bit-depth", "10"], codec: "h264", pixelFormat: "yuv444p10le",
            alpha: false),
        Case(output: "c.mp4", arguments: ["--codec", "hevc"], codec: "hevc", pixelFormat: "yuv420p", alpha: false, tag: "hvc1"),
        Case(output: "d.mov", arguments: ["--codec", "hevc"], codec: "hevc", pixelFormat: "yuv420p", alpha: false, tag: "hvc1"),
        Case(output: "e.webm", codec: "vp9", pixelFormat: "yuv420p", alpha: true),  // alpha as a second stream (alpha_mode)
        Case(output: "f.webm", arguments: ["--codec", "av1"], codec: "av1", pixelFormat: "yuv420p", alpha: false),
        Case(output: "g.mp4", arguments: ["--codec", "av1"], codec: "av1", pixelFormat: "yuv420p", alpha: false, tag: "av01"),
        Case(output: "h.mov", codec: "prores", pixelFormat: "yuv422p10le", alpha: false, tag: "apch"),
        Case(
            output: "i.mov", arguments: ["--codec", "prores-4444"], codec: "prores", pixelFormat: "yuva444p", alpha: true,
            tag: "ap4h"),
        Case(output: "j.apng", codec: "apng", pixelFormat: "rgba", alpha: true, yuv: false),
        Case(output: "k.gif", codec: "gif", pixelFormat: "bgra", alpha: true, yuv: false),
    ]

    @Test(arguments: cases)
    func decodesBack(_ c: Case) throws {
        let ws = try Workspace()
        let scene = ws.write("s.json", Self.scene)
        let r = try runReel(["render", scene, "-o", ws.file(c.output)] + c.arguments)
        #expect(r.status == 0, "\(r.stderr)")
        // Formats without alpha say that they composite.
        #expect(r.stderr.contains("composited over white") == !c.alpha, "\(r.stderr)")
        // ProRes 422 points to the ProRes that keeps alpha.
        #expect(r.stderr.contains("--codec prores-4444 keeps it") == (c.output == "h.mov"), "\(r.stderr)")
        let reader = try VideoReader(path: ws.file(c.output))
        let info = reader.info
        #expect(info.codecName == c.codec)
        #expect(info.width == 64 && info.height == 48)
        if c.codec == "gif" {
            #expect(info.pixelFormat == "bgra" || info.pixelFormat == "pal8")
        } else {
            #expect(info.pixelFormat.hasPrefix(c.pixelFormat), "\(info.pixelFormat)")
        }
        if let tag = c.tag { #expect(info.codecTag == tag) }
        if c.yuv {
            #expect(info.colorPrimaries == "bt709" && info.colorTransfer == "bt709" && info.colorMatrix == "bt709")
            #expect(info.colorRange == "tv")
        }
        if c.codec == "vp9" { #expect(info.metadata["alpha_mode"] == "1" || info.metadata["ALPHA_MODE"] == "1") }
        let frames = try reader.decodeAll(nearestChroma: true)
        #expect(frames.count == 5)
        let total = frames.reduce(0) { $0 + $1.duration }
        #expect(abs(total - 0.5) < 0.011, "duration \(total)")
        // Patches, read in their centres (4:2:0 chroma is flat there).
        for (n, f) in frames.enumerated() {
            func px(_ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(f.rgba[(y * 64 + x) * 4 + $0]) } }
            func near(_ a: [Int], _ b: [Int], _ tolerance: Int) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= tolerance } }
            #expect(
                near(Array(px(16, 16).prefix(3)), [52, 120, 200], Tolerance.encodedPatchLevels), "frame \(n) blue: \(px(16, 16))")
            if c.alpha {
                // Alpha round trip: transparent background, opaque patch, half white (127.5 → 127 or 128).
                #expect(px(4, 4)[3] <= 1, "frame \(n) background: \(px(4, 4))")
                #expect(px(16, 16)[3] >= 254)
                if c.codec == "gif" {
                    #expect(px(44, 16)[3] == 0 || px(44, 16)[3] == 255)  // one-bit alpha
                } else {
                    #expect(abs(px(44, 16)[3] - 128) <= Tolerance.roundingLevels, "frame \(n) half: \(px(44, 16))")
                    #expect(
                        near(Array(px(44, 16).prefix(3)), [255, 255, 255], Tolerance.encodedPatchLevels),
                        "frame \(n) half: \(px(44, 16))")
                }
            } else {
                #expect(near(px(4, 4), [255, 255, 255, 255], Tolerance.encodedPatchLevels), "frame \(n) matte: \(px(4, 4))")
                // Half white over white is white.
                #expect(near(Array(px(44, 16).prefix(3)), [255, 255, 255], Tolerance.encodedPatchLevels))
            }
        }
    }

    @Test func mattesAndFlattening() throws {
        let ws = try Workspace()
        let scene = ws.write("s.json", Self.scene)
        let r = try runReel(["render", scene, "-o", ws.file("m.mp4"), "--matte", "#000000"])
        #expect(r.status == 0 && r.stderr.contains("composited over #000000"), "\(r.stderr)")
        let f = try VideoReader(path: ws.file("m.mp4")).decodeAll(nearestChroma: true)[0]
        func px(_ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(f.rgba[(y * 64 + x) * 4 + $0]) } }
        #expect(px(4, 4).allSatisfy { $0 <= Tolerance.encodedPatchLevels })
        // Half white over black: 127.5 (limited-range rounding: ±2).
        #expect(px(44, 16).allSatisfy { abs($0 - 128) <= Tolerance.encodedPatchLevels }, "\(px(44, 16))")
        let flat = try runReel(["render", scene, "-o", ws.file("m.apng"), "--flatten", "--matte", "#000000"])
        #expect(flat.status == 0)
        let a = try VideoReader(path: ws.file("m.apng")).decodeAll()[0]
        #expect(a.rgba[3] == 255 && a.rgba[0] == 0)
    }

    @Test func pngSequenceAndItsReplacement() throws {
        let ws = try Workspace()
        let scene = ws.write("s.json", Self.scene)
        let r = try runReel(["render", scene, "-o", ws.file("frames") + "/"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(ws.listing("frames") == (0..<5).map { String(format: "frame_%05d.png", $0) })
        let png = try ImageFile.read(path: ws.file("frames/frame_00002.png"))
        #expect(png.width == 64 && png.height == 48)
        #expect(png.rgba[3] == 0 && png.rgba[(16 * 64 + 16) * 4 + 3] == 255)
        #expect(abs(Int(png.rgba[(16 * 64 + 44) * 4 + 3]) - 128) <= Tolerance.roundingLevels)
        // Rendering again replaces the sequence; a folder with other files is refused.
        let again = try runReel(["render", scene, "-o", ws.file("frames") + "/", "--duration", "0.3"])
        #expect(again.status == 0 && ws.listing("frames").count == 3)
        try FileManager.default.createDirectory(atPath: ws.file("other"), withIntermediateDirectories: true)
        _ = ws.write("other/notes.txt", "mine")
        let refused = try runReel(["render", scene, "-o", ws.file("other") + "/"])
        #expect(refused.status != 0 && refused.stderr.contains("holds notes.txt"))
        #expect(ws.listing("other") == ["notes.txt"])
    }

    @Test func loopCounts() throws {
        let ws = try Workspace()
        let scene = ws.write("s.json", Self.scene)
        // GIF: NETSCAPE2.0 loop 0 (forever) by default, 3 on request; delays 10 cs each.
        #expect(try runReel(["render", scene, "-o", ws.file("l.gif"), "--loop", "3"]).status == 0)
        let (loop, delays) = gifLoopAndDelays([UInt8](try Data(contentsOf: URL(fileURLWithPath: ws.file("l.gif")))))
        #expect(loop == 3 && delays == [10, 10, 10, 10, 10])
        // APNG: acTL num_plays = loop + 1 (0 = forever).
        func plays(_ file: String) throws -> UInt32? {
            let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            guard
                let i = (0..<(b.count - 12)).first(where: {
                    b[$0] == 0x61 && b[$0 + 1] == 0x63 && b[$0 + 2] == 0x54 && b[$0 + 3] == 0x4C
                })
            else { return nil }
            return b[(i + 8)..<(i + 12)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        #expect(try runReel(["render", scene, "-o", ws.file("a.apng")]).status == 0)
        #expect(try plays(ws.file("a.apng")) == 0)
        #expect(try runReel(["render", scene, "-o", ws.file("b.apng"), "--loop", "2"]).status == 0)
        #expect(try plays(ws.file("b.apng")) == 3)
    }

    /// FFmpeg 5.1 cannot decode animated WebP; libwebp's own tools (Debian's webp package) read it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/webpmux"), "needs webpmux (scripts/setup.sh)"))
    func webpWithAlpha() throws {
        let ws = try Workspace()
        let scene = ws.write("s.json", Self.scene)
        #expect(try runReel(["render", scene, "-o", ws.file("w.webp")]).status == 0)
        let info = try run("/usr/bin/webpmux", ["-info", ws.file("w.webp")])
        #expect(info.contains("Canvas size: 64 x 48"), "\(info)")
        #expect(info.contains("animation") && info.contains("transparency"))
        #expect(info.contains("Loop Count : 0"))
        // Frames of identical content may be merged by libwebp; their durations still add up to 500 ms.
        let durations = info.split(separator: "\n").compactMap { line -> Int? in
            let cols = line.split(separator: " ").filter { !$0.isEmpty }
            guard cols.count >= 8, cols[0].hasSuffix(":"), Int(cols[0].dropLast()) != nil else { return nil }
            return Int(cols[6])
        }
        #expect(durations.reduce(0, +) == 500, "\(durations)")
        // Frame 1 as libwebp stored it: cropped to what is drawn, at an offset on the transparent canvas.
        let first = info.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("1:") }!
        let cols = first.split(separator: " ").filter { !$0.isEmpty }.map(String.init)
        let (fw, xo, yo) = (Int(cols[1])!, Int(cols[4])!, Int(cols[5])!)
        _ = try run("/usr/bin/webpmux", ["-get", "frame", "1", ws.file("w.webp"), "-o", ws.file("f1.webp")])
        _ = try run("/usr/bin/dwebp", [ws.file("f1.webp"), "-pam", "-o", ws.file("f1.pam")])
        let pam = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ws.file("f1.pam"))))
        // PAM: a text header ending in ENDHDR\n, then RGBA rows.
        let header = String(decoding: pam.prefix(100), as: UTF8.self)
        let start = header.range(of: "ENDHDR\n")!.upperBound.utf16Offset(in: header)
        func px(_ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(pam[start + ((y - yo) * fw + x - xo) * 4 + $0]) } }
        #expect(xo <= 16 && yo <= 16 && fw <= 64, "\(first)")
        #expect(px(30, 30)[3] == 0 && px(16, 16)[3] == 255)  // (30, 30): background, inside the stored frame
        #expect(abs(px(44, 16)[3] - 128) <= Tolerance.roundingLevels)
        // Lossy WebP converts to its own YUV: blue within a few levels (libwebp's rounding, quality 90).
        #expect(
            zip(px(16, 16).prefix(3), [52, 120, 200]).allSatisfy { abs($0 - $1) <= Tolerance.lossyWebPLevels }, "\(px(16, 16))")
    }

    func run(_ tool: String, _ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text
    }

    @Test func badCodecChoicesAreRefused() throws {
        let ws = try Workspace()
        let scene = ws.write("s.json", Self.scene)
        let wrong = try runReel(["render", scene, "-o", ws.file("x.mp4"), "--codec", "vp9"])
        #expect(wrong.status != 0 && wrong.stderr.contains("vp9 cannot go in .mp4") && wrong.stderr.contains("*.webm"))
        let chroma = try runReel(["render", scene, "-o", ws.file("x.webm"), "--codec", "av1", "--chroma", "444"])
        #expect(chroma.status != 0 && chroma.stderr.contains("--chroma 444 is not offered by"), "\(chroma.stderr)")
        let png = try runReel(["render", scene, "-o", ws.file("x.png")])
        #expect(png.status != 0 && png.stderr.contains("reel still"))
        #expect(ws.listing() == ["s.json"])
    }
}

/// GIF: the clip palette, frame differencing and the options.
@Suite struct GIFOutputTests {
    @Test func differencingChangesNothingButTheSize() throws {
        // The reference star button: large still areas, one moving star.
        let scene = ExamplesTests.examplesDirectory + "/star-button.yaml"
        let ws = try Workspace()
        let diffed = ws.file("d.gif"), full = ws.file("f.gif")
        let clip = try Reel.load(scene, overrides: SceneOverrides(scale: 0.5))
        // Every frame written (not merged), so that differencing alone makes the difference in size.
        var options = RenderOptions()
        options.gif.mergeFrames = false
        try Reel.render(clip, to: diffed, options: options)
        options.gif.differencing = false
        try Reel.render(clip, to: full, options: options)
        let a = shownAtClipFrames(try VideoReader(path: diffed).decodeAll(), count: 66, fps: 30),
            b = shownAtClipFrames(try VideoReader(path: full).decodeAll(), count: 66, fps: 30)
        for (i, (x, y)) in zip(a, b).enumerated() { #expect(!x.isEmpty && x == y, "clip frame \(i)") }
        let sa = try Data(contentsOf: URL(fileURLWithPath: diffed)).count,
            sb = try Data(contentsOf: URL(fileURLWithPath: full)).count
        #expect(sa * 2 < sb, "differenced \(sa) B vs \(sb) B")
    }

    @Test func undifferencedTransparentFramesAreWhole() throws {
        // Without differencing every frame is cleared and drawn whole; a transparent clip's frame is first
        // cut to what it shows, so clearing must code it again over the whole screen (not just widen its
        // rectangle): decoded, both files show the same frames.
        let ws = try Workspace()
        let clip = try Reel.load(ws.write("m.json", OutputFormatTests.scene))
        var options = RenderOptions()
        options.gif.mergeFrames = false
        try Reel.render(clip, to: ws.file("d.gif"), options: options)
        options.gif.differencing = false
        try Reel.render(clip, to: ws.file("f.gif"), options: options)
        let a = try VideoReader(path: ws.file("d.gif")).decodeAll(), b = try VideoReader(path: ws.file("f.gif")).decodeAll()
        #expect(a.count == 5 && a.count == b.count)
        for (i, (x, y)) in zip(a, b).enumerated() {
            let same = x.rgba == y.rgba  // compared apart: a failure would print both frames' bytes
            #expect(same, "frame \(i)")
        }
    }

    @Test func keptFramesWriteTheSameBytesAsDrawingTwice() throws {
        // The palette pass keeps the frames it draws (as changed rectangles) and the encoding pass replays
        // them; drawing them again instead must give the same file, byte for byte: an opaque clip with
        // holds, and a transparent clip cut to a segment (frames 1…3 of 5, replayed from frame 0).
        let ws = try Workspace()
        let star = try Reel.load(
            ExamplesTests.examplesDirectory + "/star-button.yaml", overrides: SceneOverrides(scale: 0.5))
        let moving = try Reel.load(ws.write("m.json", OutputFormatTests.scene))
        for (name, clip, segment) in [("star", star, nil), ("moving", moving, SegmentRequest.frames(1, 3))] {
            var options = RenderOptions()
            options.segment = segment
            try Reel.render(clip, to: ws.file("\(name)-kept.gif"), options: options)
            options.keepsGIFFrames = false
            try Reel.render(clip, to: ws.file("\(name)-drawn.gif"), options: options)
            let kept = try Data(contentsOf: URL(fileURLWithPath: ws.file("\(name)-kept.gif"))),
                drawn = try Data(contentsOf: URL(fileURLWithPath: ws.file("\(name)-drawn.gif")))
            #expect(kept.count > 100 && kept == drawn, "\(name): \(kept.count) B vs \(drawn.count) B")
        }
    }

    @Test func clipPaletteKeepsFlatColoursExact() throws {
        // Flat colours that cover the frame are palette entries: drawn exactly, no dither.
        let ws = try Workspace()
        let scene = ws.write("s.json", OutputFormatTests.scene.replacingOccurrences(of: "#00000000", with: "#f4f1ea"))
        #expect(try runReel(["render", scene, "-o", ws.file("p.gif"), "--colors", "16"]).status == 0)
        let f = try VideoReader(path: ws.file("p.gif")).decodeAll()[0]
        for y in 10..<22 {
            for x in 10..<22 { #expect(Array(f.rgba[((y * 64 + x) * 4)..<((y * 64 + x) * 4 + 3)]) == [52, 120, 200]) }
        }
        #expect(Array(f.rgba[0..<3]) == [0xf4, 0xf1, 0xea])
        // 16 colours at most (and the transparent entry).
        var colours = Set<[UInt8]>()
        for i in stride(from: 0, to: f.rgba.count, by: 4) { colours.insert(Array(f.rgba[i..<(i + 3)])) }
        #expect(colours.count <= 16)
    }
}

@Suite struct GIFToleranceTests {
    /// Lossy differencing: a slow fade changes every pixel of a large square by a level or two per frame.
    /// With --tolerance 3 a pixel keeps its colour until the clip has moved more than 3 levels away, so the
    /// file shrinks, and every decoded pixel stays within 3 levels of the exact GIF (the fade's colours
    /// are all in the palette, so the exact GIF is the source itself).
    @Test func toleranceTradesLevelsForBytes() throws {
        let ws = try Workspace()
        let scene = ws.write(
            "f.json",
            ##"{"width": 64, "height": 64, "fps": 10, "duration": 2, "layers": [{"name": "a", "position": [32, 32], "bounds": [48, 48], "backgroundColor": "#3478f6", "animations": [{"keyPath": "opacity", "fromValue": 1, "toValue": 0.8, "duration": 2}]}]}"##
        )
        #expect(try runReel(["render", scene, "-o", ws.file("exact.gif")]).status == 0)
        #expect(try runReel(["render", scene, "-o", ws.file("lossy.gif"), "--tolerance", "3"]).status == 0)
        let exact = shownAtClipFrames(try VideoReader(path: ws.file("exact.gif")).decodeAll(), count: 20, fps: 10),
            lossy = shownAtClipFrames(try VideoReader(path: ws.file("lossy.gif")).decodeAll(), count: 20, fps: 10)
        var worst = 0
        for (a, b) in zip(exact, lossy) {
            #expect(a.count == 64 * 64 * 4 && b.count == a.count)
            for i in 0..<min(a.count, b.count) where i % 4 != 3 { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
        }
        #expect(worst <= 3 && worst > 0, "worst difference \(worst)")
        let a = try Data(contentsOf: URL(fileURLWithPath: ws.file("exact.gif"))).count
        let b = try Data(contentsOf: URL(fileURLWithPath: ws.file("lossy.gif"))).count
        #expect(b * 10 < a * 8, "exact \(a) B, lossy \(b) B")
        let bad = try runReel(["render", scene, "-o", ws.file("x.gif"), "--tolerance", "40"])
        #expect(bad.status != 0 && bad.stderr.contains("--tolerance must be in 0…32"))
    }

    /// --gif-lossy and a preset's gifLossy take 0…200 (gifsicle's --lossy scale): 200 writes a GIF, 201
    /// is refused by both, in their own words, and nothing is written.
    @Test func gifLossyLevelsRunTo200() throws {
        let ws = try Workspace()
        let scene = ws.write(
            "f.json",
            ##"{"width": 32, "height": 32, "fps": 10, "duration": 0.5, "layers": [{"name": "a", "position": [16, 16], "bounds": [20, 20], "backgroundColor": "#3478f6", "animations": [{"keyPath": "position.x", "fromValue": 10, "toValue": 22, "duration": 0.5}]}]}"##
        )
        #expect(try runReel(["render", scene, "-o", ws.file("heavy.gif"), "--gif-lossy", "200", "-q"]).status == 0)
        let preset = ws.write("heavy.yaml", "description: \"heavy\"\ngifLossy: 201\n")
        let before = ws.listing()
        let bad = try runReel(["render", scene, "-o", ws.file("x.gif"), "--gif-lossy", "201"])
        #expect(bad.status != 0 && bad.stderr.contains("--gif-lossy must be in 0…200, got 201"), "\(bad.stderr)")
        let fromPreset = try runReel(["render", scene, "-o", ws.file("y.gif"), "--preset", preset])
        #expect(
            fromPreset.status != 0 && fromPreset.stderr.contains("gifLossy must be a whole number in 0…200, got 201"),
            "\(fromPreset.stderr)")
        #expect(ws.listing() == before, "\(ws.listing())")
    }
}

@Suite struct GIFAlphaTests {
    /// A half-transparent square: with the threshold (128) it is all drawn or all not; dithered, a
    /// Bayer tile draws 32 of its 64 pixels.
    @Test func thresholdOrDither() throws {
        let ws = try Workspace()
        let scene = ws.write(
            "a.json",
            ##"{"width": 32, "height": 32, "fps": 10, "duration": 0.1, "background": "#00000000", "layers": [{"name": "a", "position": [16, 16], "bounds": [32, 32], "backgroundColor": [0, 0, 1, 0.5]}]}"##
        )
        #expect(try runReel(["render", scene, "-o", ws.file("t.gif"), "--alpha-threshold", "200"]).status == 0)
        #expect(try runReel(["render", scene, "-o", ws.file("d.gif"), "--alpha-dither"]).status == 0)
        let t = try VideoReader(path: ws.file("t.gif")).decodeAll()[0], d = try VideoReader(path: ws.file("d.gif")).decodeAll()[0]
        func drawn(_ f: DecodedFrame, _ rows: Range<Int>, _ cols: Range<Int>) -> Int {
            rows.reduce(0) { n, y in n + cols.filter { f.rgba[(y * 32 + $0) * 4 + 3] > 128 }.count }
        }
        #expect(drawn(t, 0..<32, 0..<32) == 0)  // alpha 128 < 200: nothing
        #expect(drawn(d, 8..<16, 8..<16) == 32)  // half of an 8×8 tile
    }
}
