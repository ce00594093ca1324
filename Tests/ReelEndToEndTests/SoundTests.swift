// A clip's sound as ffmpeg decodes it: sync with the picture, volume, fades, a video layer's sound; times and levels by hand.
import Foundation
import ReelTestSupport
import Testing

/// A clip's sound: the scene's `audio` files and a video layer's own sound, placed sample-exact, mixed
/// with their volume and fades, encoded AAC in MP4 and Opus in WebM, in sync with the picture. Every
/// expectation is measured on the output as the ffmpeg tool decodes it (48 kHz mono, 32-bit float),
/// against times and levels computed by hand from the scene.
@Suite struct SoundTests {
    /// One audio frame of the encoders (AAC's 1024 samples at 48 kHz, 21.3 ms): the sync the issue asks
    /// for. Opus frames are 20 ms, shorter.
    static let audioFrame = 1024.0 / 48_000

    /// A two-second 64×36 scene at 30 fps: a 1 kHz beep of 0.3 s placed at 1.0 s, and a white flash on
    /// the black background for 0.1 s from 1.0 s.
    static func beepAndFlash(_ ws: Workspace) throws -> String {
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:duration=0.3:sample_rate=44100", ws.file("beep.wav")])
        return ws.write(
            "scene.yaml",
            """
            width: 64
            height: 36
            fps: 30
            duration: 2
            background: "#000000"
            audio:
              - {file: beep.wav, at: 1.0}
            layers:
              - name: flash
                position: [32, 18]
                bounds: [64, 36]
                backgroundColor: "#ffffff"
                opacity: 0
                animations:
                  - {type: basic, keyPath: opacity, fromValue: 1, toValue: 1, duration: 0.1, beginTime: 1.0}
            """)
    }

    /// The frames of a file whose mean brightness is above half, as the ffmpeg tool decodes them.
    static func brightFrames(_ path: String, _ ws: Workspace) throws -> [Int] {
        let frames = ws.file("frames-\(UUID().uuidString).gray")
        try ffmpeg(["-i", path, "-an", "-f", "rawvideo", "-pix_fmt", "gray", frames])
        let gray = [UInt8](FileManager.default.contents(atPath: frames) ?? Data())
        let size = 64 * 36
        return (0..<(gray.count / size)).filter { i in gray[(i * size)..<((i + 1) * size)].reduce(0) { $0 + Int($1) } / size > 128
        }
    }

    /// The output's sound as the ffmpeg tool decodes it: 48 kHz mono floats.
    static func decodedSound(_ path: String, _ ws: Workspace) throws -> [Float] {
        let raw = ws.file("sound-\(UUID().uuidString).f32")
        try ffmpeg(["-i", path, "-vn", "-ac", "1", "-ar", "48000", "-f", "f32le", raw])
        let data = FileManager.default.contents(atPath: raw) ?? Data()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Root mean square of `samples[from..<to]` (in seconds).
    static func rms(_ samples: [Float], _ from: Double, _ to: Double) -> Double {
        let a = max(0, Int(from * 48_000)), b = min(samples.count, Int(to * 48_000))
        guard b > a else { return 0 }
        return (samples[a..<b].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(b - a)).squareRoot()
    }

    static func firstSound(_ samples: [Float], above level: Float = 0.05) -> Double? {
        samples.firstIndex { abs($0) > level }.map { Double($0) / 48_000 }
    }

    /// A 1 kHz beep placed at 1.0 s starts within one audio frame of 1.0 s in the decoded output, and a
    /// flash placed at the same time is on the frame at 1.0 s (frame 30 at 30 fps) and not before.
    @Test(arguments: ["mp4", "webm"])
    func beepAndFlashAreInSync(ext: String) throws {
        let ws = try Workspace()
        let scene = try Self.beepAndFlash(ws)
        let out = ws.file("out.\(ext)")
        let r = try runReel(["render", scene, "-o", out, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try streamCodecs(out) == [ext == "mp4" ? "h264" : "vp9", ext == "mp4" ? "aac" : "opus"])
        let sound = try Self.decodedSound(out, ws)
        let start = try #require(Self.firstSound(sound))
        #expect(abs(start - 1.0) <= Self.audioFrame, "the beep starts at \(start) s")
        // The picture, as the ffmpeg tool decodes it: the flash on frames 30–32.
        #expect(try Self.brightFrames(out, ws) == [30, 31, 32])
        // The sound track lasts as long as the picture (to within the encoder's last frame).
        #expect(abs(Double(sound.count) / 48_000 - 2.0) <= Self.audioFrame, "\(sound.count) samples")
    }

    /// Shards are rendered silent (and say so); `reel concat --sound-from` mixes the scene's sound once
    /// for the whole clip, so the beep at 1.0 s (in the second of two shards' frames, 30–59) is heard
    /// within one audio frame of 1.0 s and the flash is on frame 30, as in a single render.
    @Test(arguments: ["mp4", "webm"])
    func joinedShardsKeepSync(ext: String) throws {
        let ws = try Workspace()
        let scene = try Self.beepAndFlash(ws)
        for i in 0..<2 {
            let r = try runReel(["render", scene, "--shard", "\(i)/2", "-o", ws.file("seg-\(i).\(ext)")])
            #expect(r.status == 0 && r.stderr.contains("reel concat --sound-from"), "\(r.stderr)")
            #expect(try streamCodecs(ws.file("seg-\(i).\(ext)")).count == 1)
        }
        let out = ws.file("joined.\(ext)")
        let r = try runReel(["concat", ws.file("seg-1.\(ext)"), ws.file("seg-0.\(ext)"), "-o", out, "--sound-from", scene, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try streamCodecs(out) == [ext == "mp4" ? "h264" : "vp9", ext == "mp4" ? "aac" : "opus"])
        let sound = try Self.decodedSound(out, ws)
        let start = try #require(Self.firstSound(sound))
        #expect(abs(start - 1.0) <= Self.audioFrame, "the beep starts at \(start) s")
        #expect(abs(Double(sound.count) / 48_000 - 2.0) <= Self.audioFrame, "\(sound.count) samples")
        #expect(try Self.brightFrames(out, ws) == [30, 31, 32])
        // Another scene (other length) is refused before anything is written.
        let other = ws.write("other.yaml", "width: 64\nheight: 36\nfps: 30\nduration: 3\n")
        let bad = try runReel([
            "concat", ws.file("seg-0.\(ext)"), ws.file("seg-1.\(ext)"), "-o", ws.file("bad.\(ext)"), "--sound-from", other,
        ])
        #expect(bad.status != 0 && !FileManager.default.fileExists(atPath: ws.file("bad.\(ext)")))
    }

    /// Volume and fades, on a tone of steady level: at volume 0.5 the level halves; a 1 s fade-in is at
    /// half level half-way through it (a linear ramp: RMS over a window is the ramp's mean there); the
    /// fade-out ends in silence at the clip's end; the sound stops where its range ends. Levels within
    /// 5 %: AAC at 192 kbit/s codes a pure tone to well under that.
    @Test func volumeFadesAndRange() throws {
        let ws = try Workspace()
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=10:sample_rate=48000", ws.file("tone.wav")])
        let toneRMS = 0.125 / 2.0.squareRoot()  // the sine filter's amplitude is 1/8
        let scene = ws.write(
            "scene.yaml",
            """
            width: 32
            height: 32
            fps: 25
            duration: 6
            audio:
              - {file: tone.wav, at: 0, to: 2.5, volume: 0.5}
              - {file: tone.wav, at: 3, from: 1, fadeIn: 1, fadeOut: 1}
            """)
        let out = ws.file("out.mp4")
        let r = try runReel(["render", scene, "-o", out, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let s = try Self.decodedSound(out, ws)
        func level(_ a: Double, _ b: Double) -> Double { Self.rms(s, a, b) / toneRMS }
        #expect(abs(level(0.5, 2.0) - 0.5) < Tolerance.aacToneLevel * 0.5, "volume 0.5: \(level(0.5, 2.0))")
        #expect(level(2.6, 2.9) < 0.01, "silent between the two: \(level(2.6, 2.9))")
        #expect(abs(level(3.45, 3.55) - 0.5) < Tolerance.aacToneLevel, "half-way up the fade-in: \(level(3.45, 3.55))")
        #expect(abs(level(4.1, 4.9) - 1) < Tolerance.aacToneLevel, "full level: \(level(4.1, 4.9))")
        #expect(abs(level(5.45, 5.55) - 0.5) < Tolerance.aacToneLevel, "half-way down the fade-out: \(level(5.45, 5.55))")
        #expect(level(5.98, 6.0) < Tolerance.aacToneLevel, "silent at the end: \(level(5.98, 6.0))")
    }

    /// A video layer's own sound follows the layer's time: a recording whose tone starts 0.5 s into the
    /// file, on a layer starting 1.0 s into the clip, is heard from 1.5 s.
    @Test func videoLayerSoundFollowsTheLayer() throws {
        let ws = try Workspace()
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=64x36:rate=30:duration=2", "-f", "lavfi", "-i",
            "sine=frequency=1000:duration=1.5:sample_rate=48000", "-filter_complex", "[1]adelay=500|500[a]", "-map", "0:v",
            "-map", "[a]", "-c:v", "libx264", "-c:a", "aac", "-shortest", ws.file("rec.mp4"),
        ])
        let scene = ws.write(
            "scene.yaml",
            """
            width: 64
            height: 36
            fps: 30
            duration: 3
            layers:
              - name: screen
                type: video
                contents: rec.mp4
                anchorPoint: [0, 0]
                beginTime: 1
                audio: true
            """)
        let out = ws.file("out.mp4")
        let r = try runReel(["render", scene, "-o", out, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let start = try #require(Self.firstSound(try Self.decodedSound(out, ws)))
        #expect(abs(start - 1.5) <= Self.audioFrame, "the recording's tone starts at \(start) s")
    }

    /// A video layer's `volume` is animatable: rising linearly from 0 to 1 over its first 2 s, the
    /// recording's steady tone is at half its level at 1 s and at full level after 2 s (within 5 %:
    /// the tone went through AAC twice, in the recording and in the output).
    @Test func videoLayerVolumeAnimates() throws {
        let ws = try Workspace()
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=64x36:rate=30:duration=3", "-f", "lavfi", "-i",
            "sine=frequency=440:duration=3:sample_rate=48000", "-c:v", "libx264", "-c:a", "aac", "-b:a", "192k", "-shortest",
            ws.file("rec.mp4"),
        ])
        let scene = ws.write(
            "scene.yaml",
            """
            width: 64
            height: 36
            fps: 30
            duration: 3
            layers:
              - name: screen
                type: video
                contents: rec.mp4
                anchorPoint: [0, 0]
                audio: true
                animations:
                  - {type: basic, keyPath: volume, fromValue: 0, toValue: 1, duration: 2}
            """)
        let out = ws.file("out.mp4")
        let r = try runReel(["render", scene, "-o", out, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let s = try Self.decodedSound(out, ws)
        let full = 0.125 / 2.0.squareRoot()
        func level(_ a: Double, _ b: Double) -> Double { Self.rms(s, a, b) / full }
        #expect(level(0, 0.1) < 0.06, "rising from silence: \(level(0, 0.1))")
        #expect(abs(level(0.95, 1.05) - 0.5) < Tolerance.aacToneLevel, "half-way: \(level(0.95, 1.05))")
        #expect(abs(level(2.2, 2.8) - 1) < Tolerance.aacToneLevel, "full level: \(level(2.2, 2.8))")
    }

    /// `--no-audio` writes no sound track; a GIF has none and says so; sound files that cannot be
    /// played are located errors before anything renders.
    @Test func noAudioGIFsAndBadSound() throws {
        let ws = try Workspace()
        try ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", ws.file("tone.wav")])
        let good = ws.write(
            "good.yaml", "width: 32\nheight: 32\nfps: 10\nduration: 1\naudio:\n  - {file: tone.wav}\n")
        let quiet = ws.file("quiet.mp4")
        #expect(try runReel(["render", good, "-o", quiet, "--no-audio", "-q"]).status == 0)
        #expect(try streamCodecs(quiet) == ["h264"])
        let gif = try runReel(["render", good, "-o", ws.file("out.gif")])
        #expect(gif.status == 0 && gif.stderr.contains(".gif has no sound"), "\(gif.stderr)")
        _ = ws.write("noise.m4a", "not a sound")
        let cases: [(String, String)] = [
            ("{file: missing.wav}", "\"missing.wav\" cannot be played: no such file"),
            ("{file: noise.m4a}", "\"noise.m4a\" cannot be played"),
            ("{file: tone.wav, to: 3}", "to is 3.0 s, past the end of \"tone.wav\", which is 1 s long"),
            ("{file: tone.wav, volume: 9}", "volume must be in 0…4"),
            ("{file: tone.wav, at: -1}", "at must be 0…86400 seconds"),
        ]
        for (entry, message) in cases {
            let bad = ws.write("bad.yaml", "width: 32\nheight: 32\nfps: 10\nduration: 1\naudio:\n  - \(entry)\n")
            let out = ws.file("bad.mp4")
            let r = try runReel(["render", bad, "-o", out])
            #expect(r.status != 0)
            #expect(r.stderr.contains("bad.yaml:6:") && r.stderr.contains(message), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
