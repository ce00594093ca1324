// Captions over a scene, by pixel: cue times, placement, colours, word highlights; soft subtitle tracks read back by ffmpeg.
import Foundation
import ReelMedia
import ReelTestSupport
import Testing

/// Captions drawn over the scene: a cue's box is on screen from its start to its end and at no other
/// time, where the style puts it, in the style's colours; bad subtitle files are located in both files.
@Suite struct CaptionTests {
    /// The scene's background (#3a6ea5) under the default box (black at 70 %): 0.3 × (58, 110, 165),
    /// rounded, and the background itself.
    static let boxColour = (17, 33, 50)
    static let sceneColour = (58, 110, 165)

    static func pixel(_ png: String, x: Int, y: Int) throws -> (Int, Int, Int) {
        let image = try ImageFile.read(path: png)
        let o = (y * image.width + x) * 4
        return (Int(image.rgba[o]), Int(image.rgba[o + 1]), Int(image.rgba[o + 2]))
    }

    static func near(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Bool {
        abs(a.0 - b.0) <= Tolerance.roundingLevels && abs(a.1 - b.1) <= Tolerance.roundingLevels
            && abs(a.2 - b.2) <= Tolerance.roundingLevels
    }

    /// Two cues from an SRT file: the bottom box's lower padding (2 points above its bottom edge, at the
    /// centre: box, not text) has the box's colour exactly while a cue is on, and the scene's otherwise,
    /// its start included and its end excluded (0.5 s → 2 s, then 2 s → 3.5 s).
    @Test func cuesShowFromTheirStartToTheirEnd() throws {
        let ws = try Workspace()
        _ = ws.write(
            "voice.srt",
            "1\r\n00:00:00,500 --> 00:00:02,000\r\nHello from <i>Reel</i>\r\n\r\n2\r\n00:00:02,000 --> 00:00:03,500\r\nSecond\r\n"
        )
        let scene = ws.write(
            "scene.yaml", "width: 320\nheight: 180\nfps: 30\nduration: 4\nbackground: \"#3a6ea5\"\ncaptions: {file: voice.srt}\n")
        // The box's bottom edge is the margin (24) above the canvas's: y = 180 − 24 − 2.
        for (t, on) in [
            (0.0, false), (0.49, false), (0.5, true), (1.0, true), (2.0, true), (3.49, true), (3.5, false), (3.9, false),
        ] {
            let png = ws.file("t\(t).png")
            let r = try runReel(["still", scene, "--at", "\(t)", "-o", png])
            #expect(r.status == 0, "\(r.stderr)")
            let p = try Self.pixel(png, x: 160, y: 154)
            #expect(Self.near(p, on ? Self.boxColour : Self.sceneColour), "at \(t) s: \(p)")
        }
    }

    /// Inline cues, at the top, in a style's own colours: a red box whose top edge is the margin (10)
    /// below the canvas's top.
    @Test func inlineCuesAtTheTopInTheirStyle() throws {
        let ws = try Workspace()
        let scene = ws.write(
            "scene.yaml",
            """
            width: 320
            height: 180
            fps: 30
            duration: 2
            background: "#3a6ea5"
            captions:
              cues: [{start: 0, end: 1, text: "Top"}]
              position: top
              margin: 10
              background: "#ff0000"
              fontSize: 16
            """)
        let png = ws.file("t.png")
        #expect(try runReel(["still", scene, "--at", "0.5", "-o", png]).status == 0)
        #expect(Self.near(try Self.pixel(png, x: 160, y: 12), (255, 0, 0)))
        #expect(Self.near(try Self.pixel(png, x: 160, y: 8), Self.sceneColour))
    }

    /// With word timestamps, the word being said is drawn in the highlight colour: while the first of
    /// "Hello from Reel" is said, the highlight's pixels lie in the left third of the line; while the
    /// last is, in the right third; after the words, there are none.
    @Test func theWordBeingSaidIsHighlighted() throws {
        let ws = try Workspace()
        _ = ws.write(
            "words.json",
            #"[{"word": " Hello", "start": 0.5, "end": 1.0}, {"word": " from", "start": 1.0, "end": 1.4}, {"word": " Reel", "start": 1.4, "end": 1.9}]"#
        )
        let scene = ws.write(
            "scene.yaml",
            """
            width: 320
            height: 180
            fps: 30
            duration: 3
            background: "#000000"
            captions:
              cues: [{start: 0.5, end: 2.5, text: "Hello from Reel"}]
              words: words.json
              highlightColor: "#ff0000"
              background: null
            """)
        func redColumns(at t: Double) throws -> [Int] {
            let png = ws.file("t\(t).png")
            #expect(try runReel(["still", scene, "--at", "\(t)", "-o", png]).status == 0)
            let image = try ImageFile.read(path: png)
            var xs: [Int] = []
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let o = (y * image.width + x) * 4
                    if image.rgba[o] > 200 && image.rgba[o + 1] < 60 && image.rgba[o + 2] < 60 { xs.append(x) }
                }
            }
            return xs
        }
        let first = try redColumns(at: 0.7), last = try redColumns(at: 1.6), after = try redColumns(at: 2.2)
        #expect(!first.isEmpty && !last.isEmpty && after.isEmpty)
        if let a = first.max(), let b = last.min() { #expect(a < b, "\"Hello\" ends at x \(a), \"Reel\" starts at x \(b)") }
        #expect(first.allSatisfy { $0 < 160 } && last.allSatisfy { $0 > 160 })
    }

    /// `track: true` also writes the cues as a soft subtitle track (mov_text in MP4, WebVTT in WebM): the
    /// ffmpeg tool reads it back as the SRT these cues make, times and line breaks included; a GIF has
    /// no such track and says so.
    @Test(arguments: [("mp4", "mov_text"), ("webm", "webvtt")])
    func softSubtitleTrack(ext: String, codec: String) throws {
        let ws = try Workspace()
        let scene = ws.write(
            "scene.yaml",
            """
            width: 64
            height: 36
            fps: 30
            duration: 3
            captions:
              cues: [{start: 0.25, end: 1.5, text: "Hello"}, {start: 1.5, end: 2.75, text: "Two\\nlines"}]
              track: true
            """)
        let out = ws.file("out.\(ext)")
        let r = try runReel(["render", scene, "-o", out, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try streamCodecs(out) == [ext == "mp4" ? "h264" : "vp9", codec])
        let srt = ws.file("back.srt")
        try ffmpeg(["-i", out, "-map", "0:s:0", srt])
        let back = String(decoding: FileManager.default.contents(atPath: srt) ?? Data(), as: UTF8.self)
        #expect(
            back.replacingOccurrences(of: "\r\n", with: "\n")
                == "1\n00:00:00,250 --> 00:00:01,500\nHello\n\n2\n00:00:01,500 --> 00:00:02,750\nTwo\nlines\n\n", "\(back)")
        let gif = try runReel(["render", scene, "-o", ws.file("out.gif")])
        #expect(gif.status == 0 && gif.stderr.contains(".gif has no subtitle track"), "\(gif.stderr)")
    }

    @Test func badSubtitlesAreLocatedInBothFiles() throws {
        let ws = try Workspace()
        _ = ws.write("bad.srt", "1\n00:00:01,000 --> 00:00:61,000\nx\n")
        let cases: [(String, [String])] = [
            ("{file: bad.srt}", ["scene.yaml:6:18: captions.file", "bad.srt:2:18: \"00:00:61,000\" is not a time"]),
            ("{file: nowhere.srt}", ["scene.yaml:6:18", "\"nowhere.srt\" cannot be read as subtitles", "no such file"]),
            ("{cues: [{start: 2, end: 1, text: x}]}", ["scene.yaml:6:", "a cue ends after it starts"]),
            ("{file: bad.srt, cues: []}", ["scene.yaml:6:11: captions", "a \"file\" or from \"cues\""]),
            ("{cues: [], position: middle}", ["unknown position \"middle\""]),
        ]
        for (captions, fragments) in cases {
            let scene = ws.write(
                "scene.yaml", "width: 320\nheight: 180\nfps: 30\nduration: 2\nbackground: \"#000\"\ncaptions: \(captions)\n")
            let out = ws.file("out.mp4")
            let r = try runReel(["render", scene, "-o", out])
            #expect(r.status != 0)
            for f in fragments { #expect(r.stderr.contains(f), "«\(f)» not in: \(r.stderr)") }
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
