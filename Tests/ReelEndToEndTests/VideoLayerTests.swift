// `type: video` layers: the source frame shown at each output frame, worked out by hand; file metadata honoured; bad files.
import Foundation
import Reel
import ReelMedia
import ReelTestSupport
import Testing

/// `type: video` layers: which source frame is on screen at each output frame (frame-exact, in the
/// layer's own time), the file's display metadata honoured, and bad files refused before rendering.
///
/// The sources are made by FFmpeg's command-line tool from raw pictures this test writes: frame k shows
/// k in binary as ten blocks, white for 1 and black for 0, 16 pixels wide, coarse enough that H.264's
/// 4:2:0 coding cannot flip a bit. The expected index of every output frame is computed here by hand from
/// the timing rules (layer time = (t − beginTime)·speed + timeOffset, file time = from + layer time, held
/// at the range's ends; the frame shown is the last whose timestamp ≤ file time).
@Suite struct VideoLayerTests {
    static let bits = 10
    static let block = 16

    /// A source of `count` frames, frame k at `timestamps(k)` seconds (a constant rate when nil), as
    /// H.264 in MP4 (or `ext`), made by the ffmpeg tool.
    static func indexSource(
        _ ws: Workspace, name: String, count: Int, rate: Int = 30, timestamps: String? = nil, extra: [String] = []
    ) throws -> String {
        let w = bits * block, h = 32
        var raw = [UInt8](repeating: 0, count: w * h * 4 * count)
        for k in 0..<count {
            for y in 0..<h {
                for x in 0..<w {
                    let bit = (k >> (x / block)) & 1
                    let o = ((k * h + y) * w + x) * 4
                    raw[o] = bit == 1 ? 255 : 0
                    raw[o + 1] = raw[o]
                    raw[o + 2] = raw[o]
                    raw[o + 3] = 255
                }
            }
        }
        let rawPath = ws.file(name + ".rgba")
        _ = FileManager.default.createFile(atPath: rawPath, contents: Data(raw))
        var filters = "format=yuv420p"
        if let timestamps { filters = "settb=1/1000,setpts='(\(timestamps))/TB'," + filters }
        let out = ws.file(name)
        try ffmpeg(
            ["-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(w)x\(h)", "-r", "\(rate)", "-i", rawPath, "-vf", filters]
                + (timestamps == nil ? [] : ["-fps_mode", "passthrough"]) + ["-c:v", "libx264", "-crf", "10"] + extra + [out])
        return out
    }

    /// The index each frame of a PNG sequence shows, read from the blocks' centres (out of the layer's
    /// top-left `origin`, at `scale` output pixels per source pixel).
    static func indices(inFolder folder: String) throws -> [Int] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
        return try names.map { name throws -> Int in
            let image = try ImageFile.read(path: folder + "/" + name)
            return index(image.rgba, width: image.width, x: { block * $0 + block / 2 }, y: 16)
        }
    }

    static func index(_ rgba: [UInt8], width: Int, x: (Int) -> Int, y: Int) -> Int {
        var k = 0
        for b in 0..<bits where rgba[(y * width + x(b)) * 4 + 1] > 128 { k |= 1 << b }
        return k
    }

    /// A scene the source's size showing it with the given layer keys, rendered to PNGs.
    static func render(
        _ ws: Workspace, source: String, keys: String, fps: Int = 30, duration: Double, extra: [String] = []
    ) throws -> [Int] {
        let scene = ws.write(
            "scene.yaml",
            """
            width: \(bits * block)
            height: 32
            fps: \(fps)
            duration: \(duration)
            layers:
              - name: screen
                type: video
                contents: \((source as NSString).lastPathComponent)
                anchorPoint: [0, 0]
            \(keys.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            """)
        let folder = ws.file("frames-\(UUID().uuidString)/")
        let r = try runReel(["render", scene, "-o", folder, "-q"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return try indices(inFolder: folder)
    }

    /// The source frame on screen at output time t for a constant-rate source: the last frame whose
    /// timestamp k/rate ≤ the file time, within the file's frames.
    static func expected(
        frames: Int, fps: Double, rate: Double = 30, count: Int, beginTime: Double = 0, speed: Double = 1,
        timeOffset: Double = 0, from: Double = 0, to: Double? = nil, loop: Bool = false
    ) -> [Int] {
        let end = to ?? Double(count) / rate
        return (0..<frames).map { j in
            var local = (Double(j) / fps - beginTime) * speed + timeOffset
            if loop { local = local.truncatingRemainder(dividingBy: end - from) }
            let file = from + min(max(local, 0), end - from - 1e-5)
            return min(Int((file * rate + 1e-9).rounded(.down)), count - 1)
        }
    }

    @Test func normalSpeedShowsEverySourceFrameOnce() throws {
        let ws = try Workspace()
        let source = try Self.indexSource(ws, name: "src.mp4", count: 60)
        let shown = try Self.render(ws, source: source, keys: "", duration: 2)
        #expect(shown == Array(0..<60))
    }

    @Test(arguments: [0.5, 2.0])
    func speedPlaysSlowerOrFasterFrameExactly(speed: Double) throws {
        let ws = try Workspace()
        let source = try Self.indexSource(ws, name: "src.mp4", count: 90)
        let shown = try Self.render(ws, source: source, keys: "speed: \(speed)\nbeginTime: 0.2", duration: 2)
        let want = Self.expected(frames: 60, fps: 30, count: 90, beginTime: 0.2, speed: speed)
        #expect(shown == want)
        // Held at the first frame before beginTime, and (at double speed) at the last after the end.
        #expect(shown.prefix(6) == [0, 0, 0, 0, 0, 0])
        if speed == 2 { #expect(shown.suffix(3) == [89, 89, 89]) }
    }

    /// An output rate that is not the source's: 24 fps over a 30 fps file skips a frame in five.
    @Test func timeOffsetAndAnotherOutputRate() throws {
        let ws = try Workspace()
        let source = try Self.indexSource(ws, name: "src.mp4", count: 90)
        let shown = try Self.render(ws, source: source, keys: "timeOffset: 1.2", fps: 24, duration: 1.5)
        #expect(shown == Self.expected(frames: 36, fps: 24, count: 90, timeOffset: 1.2))
        #expect(shown.first == 36)
    }

    /// `playbackRange` plays seconds 1–2 of the file; with a timing, `repeatCount` repeats that second.
    @Test func playbackRangeRepeats() throws {
        let ws = try Workspace()
        let source = try Self.indexSource(ws, name: "src.mp4", count: 90)
        let shown = try Self.render(ws, source: source, keys: "playbackRange: [1, 2]\nrepeatCount: 3", duration: 2.5)
        #expect(shown == Self.expected(frames: 75, fps: 30, count: 90, from: 1, to: 2, loop: true))
        #expect(shown[29] == 59 && shown[30] == 30)
    }

    /// A variable-frame-rate file (25 fps for a second, then 10 fps) keeps its timing: the frame on
    /// screen is chosen by its timestamp, not by its position in the stream. The timestamps the
    /// expectation uses are the file's own, as ffprobe reads them.
    @Test func variableFrameRateKeepsItsTiming() throws {
        let ws = try Workspace()
        let source = try Self.indexSource(
            ws, name: "vfr.mkv", count: 35, rate: 25, timestamps: "if(lt(N,25),N/25,1+(N-25)/10)",
            extra: ["-enc_time_base", "1/1000"])
        let stamps = try Self.frameTimes(source)
        #expect(stamps.count == 35 && abs(stamps[26] - 1.1) < 1e-9, "timestamps \(stamps)")
        let shown = try Self.render(ws, source: source, keys: "", fps: 50, duration: 2)
        let want = (0..<100).map { j in stamps.lastIndex { $0 <= Double(j) / 50 + 1e-9 } ?? 0 }
        #expect(shown == want)
        #expect(Set(shown).count == 35)
        // At speed 2 from 0.1 s in (file time j/25 + 0.1), output frames fall halfway between the 25 fps
        // frames in the first second and on the 10 fps frames' instants after it (1.1 s at j = 25, 1.3 s
        // at j = 30…): exact boundaries in a variable-rate file.
        let fast = try Self.render(ws, source: source, keys: "speed: 2\ntimeOffset: 0.1", fps: 50, duration: 0.8)
        let wantFast = (0..<40).map { j in stamps.lastIndex { $0 <= Double(j) / 25 + 0.1 + 1e-9 } ?? 0 }
        #expect(fast == wantFast)
    }

    /// A layer time that lands exactly on a source frame's instant shows that frame, at every speed and
    /// rate and in containers that round timestamps (Matroska keeps milliseconds: frame 17 of 30 fps says
    /// 0.567 s). Four layers with their own timing are stacked in one scene at the source's own rate; the
    /// expectation is worked out in integers (layer time = (j/rate − beginTime)·speed + timeOffset as
    /// fractions, the frame shown ⌊layer time · rate⌋ within the file), so a boundary is a boundary.
    @Test(arguments: [(24, "mkv"), (25, "mkv"), (30, "mkv"), (60, "mkv"), (24, "mp4"), (25, "mp4"), (30, "mp4"), (60, "mp4")])
    func exactBoundariesShowTheirFrame(rate: Int, container: String) throws {
        let ws = try Workspace()
        let count = rate * 4
        let codec = container == "mkv" ? ["-c:v", "ffv1"] : []
        _ = try Self.indexSource(ws, name: "src.\(container)", count: count, rate: rate, extra: codec)
        // (speed, beginTime, timeOffset) as (numerator, denominator) pairs, written in the scene as decimals.
        let timings: [((Int, Int), (Int, Int), (Int, Int))] = [
            ((2, 1), (0, 1), (1, 2)), ((3, 1), (1, 5), (1, 1)), ((1, 2), (0, 1), (1, 4)), ((1, 1), (1, 10), (2, 1)),
        ]
        func decimal(_ f: (Int, Int)) -> String { "\(Double(f.0) / Double(f.1))" }
        let layers = timings.enumerated().map { i, t in
            """
              - {name: v\(i), type: video, contents: src.\(container), anchorPoint: [0, 0], position: [0, \(32 * i)],
                 speed: \(decimal(t.0)), beginTime: \(decimal(t.1)), timeOffset: \(decimal(t.2))}
            """
        }
        let scene = ws.write(
            "scene.yaml",
            "width: \(Self.bits * Self.block)\nheight: \(32 * timings.count)\nfps: \(rate)\nduration: 1\nlayers:\n"
                + layers.joined(separator: "\n") + "\n")
        let folder = ws.file("frames/")
        let r = try runReel(["render", scene, "-o", folder, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
        #expect(names.count == rate)
        let images = try names.map { try ImageFile.read(path: folder + "/" + $0) }
        for (i, ((sn, sd), (bn, bd), (on, od))) in timings.enumerated() {
            let shown = images.map {
                Self.index($0.rgba, width: $0.width, x: { Self.block * $0 + Self.block / 2 }, y: 32 * i + 16)
            }
            // local = ((j·bd − bn·rate)·sn·od + on·rate·bd·sd) / (rate·bd·sd·od); frame = ⌊local · rate⌋.
            let want = (0..<rate).map { j in
                let numerator = ((j * bd - bn * rate) * sn * od + on * rate * bd * sd) * rate
                let denominator = rate * bd * sd * od
                let frame = numerator < 0 ? 0 : numerator / denominator
                return min(frame, count - 1)
            }
            #expect(shown == want, "layer \(i) (speed \(sn)/\(sd), beginTime \(bn)/\(bd), timeOffset \(on)/\(od))")
        }
    }

    /// Each frame's presentation time in a file, as ffprobe reports it.
    static func frameTimes(_ path: String) throws -> [Double] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        p.arguments = [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time", "-of", "csv=p=0", path,
        ]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap {
            Double($0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: ",")))
        }
    }

    /// A segment of a render (as a shard renders it) starts on the exact source frame, whatever the
    /// keyframes: the decoder seeks back to one and decodes forward.
    @Test func segmentStartsOnTheExactFrame() throws {
        let ws = try Workspace()
        let source = try Self.indexSource(ws, name: "src.mp4", count: 150, extra: ["-g", "50"])
        let shown = try Self.render(ws, source: source, keys: "", duration: 5, extra: ["--frames", "77-99"])
        #expect(shown == Array(77...99))
    }

    /// A file whose display matrix turns it a quarter turn is shown turned as FFmpeg's own player turns
    /// it (the ffmpeg tool's autorotate is the expectation): its width as its height, each block where
    /// the tool puts it.
    @Test func rotationMetadataIsHonoured() throws {
        let ws = try Workspace()
        let plain = try Self.indexSource(ws, name: "plain.mp4", count: 30)
        let turned = ws.file("turned.mp4")
        try ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", turned])
        let facts = try VideoSource.facts(path: turned)
        #expect(facts.rotation % 180 == 90 && facts.width == 32 && facts.height == 160)
        let raw = ws.file("turned.rgb")
        // Frame 15 = 0b1111: four white blocks, at one end of the turned picture.
        let frame15 = try VideoSource(path: turned, width: nil, height: nil).picture(at: 0.5)
        try ffmpeg(["-ss", "0.5", "-i", turned, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let theirs15 = [UInt8](FileManager.default.contents(atPath: raw) ?? Data())
        var whites = 0
        for b in 0..<Self.bits {
            let y = Self.block * b + 8
            let mine = frame15.premultipliedRGBA[(y * 32 + 16) * 4] > 128
            let tools = theirs15.count == 32 * 160 * 3 && theirs15[(y * 32 + 16) * 3] > 128
            #expect(mine == tools, "block at y \(y): Reel \(mine ? "white" : "black"), ffmpeg \(tools ? "white" : "black")")
            if mine { whites += 1 }
        }
        #expect(whites == 4 && frame15.width == 32 && frame15.height == 160)
    }

    /// A VP9 file with alpha (WebM's alpha_mode): half-transparent red over a blue background is their
    /// mix, (128, 0, 127) composited by hand, within 8 levels: VP9 codes the red in 4:2:0 Y′CbCr and
    /// the alpha as a plane of its own, each a few levels off.
    @Test func alphaIsHonoured() throws {
        let ws = try Workspace()
        try ffmpeg([
            "-f", "lavfi", "-i", "color=c=red@0.5:s=64x36:r=30:d=1,format=yuva420p", "-c:v", "libvpx-vp9", "-pix_fmt",
            "yuva420p", "-auto-alt-ref", "0", ws.file("alpha.webm"),
        ])
        #expect(try VideoSource.facts(path: ws.file("alpha.webm")).hasAlpha)
        let scene = ws.write(
            "scene.yaml",
            "width: 64\nheight: 36\nfps: 30\nduration: 1\nbackground: \"#0000ff\"\nlayers:\n  - {name: v, type: video, contents: alpha.webm, anchorPoint: [0, 0]}\n"
        )
        let png = ws.file("still.png")
        let r = try runReel(["still", scene, "--at", "0.5", "-o", png])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try ImageFile.read(path: png)
        let o = (18 * image.width + 32) * 4
        let pixel = (Int(image.rgba[o]), Int(image.rgba[o + 1]), Int(image.rgba[o + 2]))
        #expect(
            abs(pixel.0 - 128) <= Tolerance.vp9AlphaLevels && pixel.1 <= Tolerance.vp9AlphaLevels
                && abs(pixel.2 - 127) <= Tolerance.vp9AlphaLevels, "\(pixel)")
    }

    /// The colour matrix and range a file signals are the ones it is read with: (200, 50, 50) coded by
    /// the ffmpeg tool as BT.709 and BT.601 limited range and BT.709 full range (4:4:4, lossless) reads
    /// back as (200, 50, 50) each time, within 3 levels of 8-bit Y′CbCr rounding both ways. Read with
    /// one fixed matrix, the BT.601 file's red would be some 10 levels off.
    @Test(arguments: [("bt709", "bt709", "tv"), ("bt601", "smpte170m", "tv"), ("bt709", "bt709", "pc")])
    func colourMatrixAndRangeAreHonoured(matrix: String, tag: String, range: String) throws {
        let ws = try Workspace()
        let path = ws.file("colour.mp4")
        try ffmpeg([
            "-f", "lavfi", "-i", "color=c=0xC83232:s=64x36:r=30:d=0.2", "-vf",
            "scale=out_color_matrix=\(matrix):out_range=\(range),format=yuv444p", "-colorspace", tag, "-color_range", range,
            "-c:v", "libx264", "-qp", "0", path,
        ])
        let picture = try VideoSource(path: path, width: nil, height: nil).picture(at: 0)
        let o = (18 * 64 + 32) * 4
        let rgb = (
            Int(picture.premultipliedRGBA[o]), Int(picture.premultipliedRGBA[o + 1]), Int(picture.premultipliedRGBA[o + 2])
        )
        #expect(
            abs(rgb.0 - 200) <= Tolerance.yCbCrRoundTripLevels && abs(rgb.1 - 50) <= Tolerance.yCbCrRoundTripLevels
                && abs(rgb.2 - 50) <= Tolerance.yCbCrRoundTripLevels, "\(matrix) \(range): \(rgb)")
    }

    /// A sample aspect ratio of 2:1 (anamorphic) doubles the displayed width.
    @Test func sampleAspectRatioIsHonoured() throws {
        let ws = try Workspace()
        let wide = try Self.indexSource(ws, name: "wide.mp4", count: 10, extra: ["-aspect", "10:1"])
        let facts = try VideoSource.facts(path: wide)
        #expect(facts.width == 320 && facts.height == 32)
    }

    /// Played forward, a clip's decoder seeks once at most (to where the clip starts) however many
    /// frames it draws; going back seeks again and still lands on the exact frame.
    @Test func decodingIsSequential() throws {
        let ws = try Workspace()
        let path = try Self.indexSource(ws, name: "src.mp4", count: 150, extra: ["-g", "40"])
        let source = try VideoSource(path: path, width: nil, height: nil)
        for j in 0..<150 {
            let p = try source.picture(at: Double(j) / 30)
            #expect(Self.index(p.premultipliedRGBA, width: 160, x: { 16 * $0 + 8 }, y: 16) == j)
        }
        #expect(source.seeks == 0)
        let back = try source.picture(at: 1.5)
        #expect(Self.index(back.premultipliedRGBA, width: 160, x: { 16 * $0 + 8 }, y: 16) == 45)
        #expect(source.seeks == 1)
        #expect(abs(back.start - 1.5) < 1e-9 && abs(back.end - 46.0 / 30) < 1e-9)
    }

    @Test func badVideoFilesAreLocatedErrorsBeforeRendering() throws {
        let ws = try Workspace()
        let source = try Self.indexSource(ws, name: "src.mp4", count: 30)
        _ = ws.write("broken.mp4", "this is not a video")
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1", ws.file("voice.m4a")])
        let cases: [(keys: String, contents: String, message: String)] = [
            ("", "missing.mp4", "\"missing.mp4\" cannot be played: no such file"),
            ("", "broken.mp4", "\"broken.mp4\" cannot be played"),
            ("", "voice.m4a", "\"voice.m4a\" cannot be played: the file has no video stream"),
            (
                "\n    playbackRange: [0.5, 3]", (source as NSString).lastPathComponent,
                "playbackRange ends at 3.0 s, past the end of \"src.mp4\", which is 1 s long"
            ),
        ]
        for c in cases {
            let scene = ws.write(
                "bad.yaml",
                """
                width: 160
                height: 32
                fps: 30
                duration: 1
                layers:
                  - name: screen
                    type: video
                    contents: \(c.contents)\(c.keys)
                """)
            let out = ws.file("out.mp4")
            let r = try runReel(["render", scene, "-o", out])
            #expect(r.status != 0)
            #expect(r.stderr.contains("bad.yaml:8:") || r.stderr.contains("bad.yaml:9:"), "\(r.stderr)")
            #expect(r.stderr.contains(c.message), "\(r.stderr)")
            #expect(r.stderr.contains("fix:"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
            #expect(ws.listing().allSatisfy { !$0.hasPrefix(".") }, "a temporary output was left: \(ws.listing())")
        }
    }

    /// A replicated video layer shows each instance at its own time (instance k at t − k·instanceDelay),
    /// every one from the frame's pictures decoded ahead: instance 0 frame j, instance 1 frame j − 15
    /// (0.5 s at 30 fps), held at the first frame before its start.
    @Test func replicatedVideoShowsEachInstanceAtItsOwnTime() throws {
        let ws = try Workspace()
        _ = try Self.indexSource(ws, name: "src.mp4", count: 60)
        let scene = ws.write(
            "scene.yaml",
            """
            width: \(Self.bits * Self.block)
            height: 64
            fps: 30
            duration: 2
            layers:
              - name: copies
                type: replicator
                anchorPoint: [0, 0]
                bounds: [\(Self.bits * Self.block), 64]
                instanceCount: 2
                instanceDelay: 0.5
                instanceTransform: {translation: [0, 32]}
                sublayers:
                  - name: screen
                    type: video
                    contents: src.mp4
                    anchorPoint: [0, 0]
            """)
        let folder = ws.file("frames/")
        let r = try runReel(["render", scene, "-o", folder, "-q", "--workers", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
        var top: [Int] = [], bottom: [Int] = []
        for name in names {
            let image = try ImageFile.read(path: folder + name)
            top.append(Self.index(image.rgba, width: image.width, x: { Self.block * $0 + Self.block / 2 }, y: 16))
            bottom.append(Self.index(image.rgba, width: image.width, x: { Self.block * $0 + Self.block / 2 }, y: 48))
        }
        #expect(top == Array(0..<60))
        #expect(bottom == (0..<60).map { max($0 - 15, 0) })
    }

    /// A video that cannot be decoded once the render has begun (here replaced after the scene was
    /// loaded) stops the render through the pipeline's own error path: one error naming the file and
    /// the time, and nothing written.
    @Test func aDecoderFailureStopsTheRender() throws {
        let ws = try Workspace()
        _ = try Self.indexSource(ws, name: "src.mp4", count: 30)
        let path = ws.write(
            "scene.yaml",
            """
            width: 160
            height: 32
            fps: 30
            duration: 1
            layers:
              - name: screen
                type: video
                contents: src.mp4
                anchorPoint: [0, 0]
            """)
        let clip = try Reel.load(path)
        _ = ws.write("src.mp4", "this is no longer a video")
        for output in ["out.mp4", "out.gif"] {
            var options = RenderOptions()
            options.workers = 2
            #expect {
                try Reel.render(clip, to: ws.file(output), options: options)
            } throws: { error in
                "\(error)".contains("src.mp4: the frame at 0.000 s cannot be decoded")
            }
            #expect(!FileManager.default.fileExists(atPath: ws.file(output)))
        }
        #expect(throws: ReelError.self) { try Reel.still(clip, at: 0.5, to: ws.file("still.png")) }
        #expect(ws.listing().allSatisfy { !$0.hasPrefix(".") && $0 != "still.png" }, "\(ws.listing())")
    }
}
