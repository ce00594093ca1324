// Every scene in examples/ renders to MP4 and GIF that ffprobe reads with the scene's frame count; the assets are their scenes' stills.
import Foundation
import Reel
import ReelMedia
import ReelScene
import ReelTestSupport
import Testing

/// Every scene in examples/ renders to MP4 and GIF that ffprobe reads without a warning and that hold
/// the scene's frame count (what scripts/demo.sh promises, checked in the suite with the debug build at
/// 320 pixels wide to keep it quick: the demo video's recording is drawn at every pixel of every frame).
@Suite struct ExamplesTests {
    static let examplesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples").path

    static var scenes: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: examplesDirectory)) ?? []
        return names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".yaml") }.sorted()
    }

    /// Examples drawn narrower here: effects.yaml's blurs and motion blur run their SIMD code about 150×
    /// slower in the debug build than in the release one (465 s for its MP4 at 320 px, 3 s released);
    /// at 64 px it takes 14 s. scripts/demo.sh draws it in full with the release build.
    /// terminal.yaml's window casts a shadow of radius 16 over text that changes, blurred anew each frame
    /// (15 s a format at 320 px in the debug build, 4 s at 160).
    static let narrower = ["effects.yaml": 64, "terminal.yaml": 160]

    @Test func thereAreExamples() {
        #expect(!Self.scenes.isEmpty)
    }

    @Test(arguments: scenes)
    func rendersPlayableFiles(_ name: String) throws {
        let ws = try Workspace()
        for ext in ["mp4", "gif"] {
            let output = ws.file("\((name as NSString).deletingPathExtension).\(ext)")
            let width = Self.narrower[name] ?? 320
            let r = try runReel(["render", Self.examplesDirectory + "/" + name, "-o", output, "--quiet", "--width", "\(width)"])
            #expect(r.status == 0, "\(name) → \(ext): \(r.stderr)")
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
            probe.arguments = [
                "-v", "warning", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of",
                "csv=p=0", output,
            ]
            let err = Pipe(), out = Pipe()
            probe.standardError = err
            probe.standardOutput = out
            try probe.run()
            let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let frames = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            probe.waitUntilExit()
            #expect(probe.terminationStatus == 0 && warnings.isEmpty, "ffprobe on \(output): \(warnings)")
            // GIF above 50 fps is written at half the rate (see the render notes); these scenes are ≤ 30 fps.
            // A GIF merges repeated frames into one longer frame: its delays add up to the clip instead.
            let scene = try Reel.loadScene(Self.examplesDirectory + "/" + name)
            let count = Int(frames.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            if ext == "gif" {
                let delays = gifLoopAndDelays([UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))).delays
                let fps = scene.fps, n = scene.frameCount
                #expect(count == delays.count && count >= 1 && count <= n, "\(output): \(frames)")
                #expect(delays.reduce(0, +) == (2 * n * 100 * fps.denominator + fps.numerator) / (2 * fps.numerator))
            } else {
                #expect(count == scene.frameCount, "\(output): \(frames)")
            }
        }
    }

    /// examples/assets/terminal-session.cast is what `reel record examples/terminal.tape` writes, byte for
    /// byte, every time: its times come from the tape (scripts/demo.sh checks it with the release build).
    @Test func theTerminalTapeRecordsItsCast() throws {
        let ws = try Workspace()
        let repository = (Self.examplesDirectory as NSString).deletingLastPathComponent
        let r = try runReel(["record", "examples/terminal.tape", "-o", ws.file("s.cast"), "--quiet"], directory: repository)
        try #require(r.status == 0, "\(r.stderr)")
        let made = try Data(contentsOf: URL(fileURLWithPath: ws.file("s.cast")))
        let shipped = try Data(contentsOf: URL(fileURLWithPath: Self.examplesDirectory + "/assets/terminal-session.cast"))
        #expect(made == shipped, "examples/terminal.tape recorded differently: re-run reel record and look at the difference")
    }

    @Test func assetsAreTheStillsOfTheirScenes() throws {
        // examples/assets/*.png are `reel still` of the scene files beside them (made once, committed).
        let dir = Self.examplesDirectory + "/assets"
        for name in ["star-filled", "star-empty"] {
            let ws = try Workspace()
            let r = try runReel(["still", "\(dir)/\(name).yaml", "--at", "0", "-o", ws.file("s.png")])
            #expect(r.status == 0)
            let made = try ImageFile.read(path: ws.file("s.png")), shipped = try ImageFile.read(path: "\(dir)/\(name).png")
            #expect(made.rgba == shipped.rgba, "\(name).png differs from its scene: re-run reel still")
        }
    }
}
