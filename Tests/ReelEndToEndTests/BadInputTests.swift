// Bad input to `reel render`, and Ctrl-C mid-render: a message naming file and place, a non-zero exit, nothing left.
import Foundation
import Testing

/// One test per class of bad input: a clear message that names the file and the place, a non-zero
/// exit, and nothing left in the output directory.
@Suite struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var scene: String?  // nil: the scene file does not exist
        var extraArguments: [String] = []
        var output = "out.mp4"
        var expected: [String]  // fragments the message must contain
        var testDescription: String { name }
    }

    static let valid = #"{"width": 64, "height": 48, "fps": 10, "duration": 1}"#

    static let cases: [Case] = [
        Case(name: "missing scene file", scene: nil, expected: ["missing.json: no such file"]),
        Case(
            name: "malformed JSON", scene: "{\n  \"width\": 64,\n  \"height\": 48\n  \"fps\": 10\n}",
            expected: ["scene.json:4:3: invalid JSON", "expected ',' or '}'"]),
        Case(
            name: "wrong type",
            scene: #"{"width": 64, "height": 48, "fps": 10, "duration": 1, "layers": [{"cornerRadius": "big"}]}"#,
            expected: ["scene.json:1:", "layers[0].cornerRadius: expected a number, found a string"]),
        Case(
            name: "unknown layer type",
            scene: #"{"width": 64, "height": 48, "fps": 10, "duration": 1, "layers": [{"type": "movie"}]}"#,
            expected: ["layers[0].type: unknown layer type \"movie\"", "known types: layer"]),
        Case(
            name: "video layer without a file",
            scene: #"{"width": 64, "height": 48, "fps": 10, "duration": 1, "layers": [{"type": "video"}]}"#,
            expected: ["scene.json:1:", "layers[0]: a video layer needs the \"contents\" it plays", "fix: add \"contents\""]),
        Case(
            name: "zero width", scene: #"{"width": 0, "height": 48, "fps": 10, "duration": 1}"#,
            expected: ["scene.json:1:11: width: width must be a positive number"]),
        Case(
            name: "negative height", scene: #"{"width": 64, "height": -1, "fps": 10, "duration": 1}"#,
            expected: ["height: height must be a positive number"]),
        Case(
            name: "absurd size", scene: #"{"width": 1000000, "height": 1000000, "fps": 10, "duration": 1}"#,
            expected: ["width: the canvas would be", "above the limit"]),
        Case(
            name: "absurd scale", scene: #"{"width": 4000, "height": 3000, "fps": 10, "duration": 1}"#,
            extraArguments: ["--scale", "3"], expected: ["--scale: the canvas would be 12000×9000 pixels"]),
        Case(
            name: "zero fps", scene: #"{"width": 64, "height": 48, "fps": 0, "duration": 1}"#,
            expected: ["fps: fps must be positive"]),
        Case(name: "zero fps option", scene: valid, extraArguments: ["--fps", "0"], expected: ["--fps must be a positive rate"]),
        Case(
            name: "zero duration", scene: #"{"width": 64, "height": 48, "fps": 10, "duration": 0}"#,
            expected: ["duration: duration must be a positive number of seconds"]),
        Case(
            name: "NaN duration option", scene: valid, extraArguments: ["--duration", "nan"],
            expected: ["--duration must be a positive number of seconds"]),
        Case(
            name: "missing output directory", scene: valid, output: "no/such/dir/out.mp4",
            expected: ["the output directory", "does not exist", "mkdir -p"]),
        Case(
            name: "unsupported extension", scene: valid, output: "out.avi",
            expected: ["unsupported output extension '.avi'", ".mp4, .mov, .webm, .gif, .apng, .webp", "for a PNG sequence"]),
        Case(
            name: "no extension", scene: valid, output: "out",
            expected: ["unsupported output extension (none)"]),
    ]

    @Test(arguments: cases)
    func refusedClearly(_ c: Case) throws {
        let ws = try Workspace()
        let scene = c.scene.map { ws.write("scene.json", $0) } ?? ws.file("missing.json")
        let before = ws.listing()
        let r = try runReel(["render", scene, "-o", ws.file(c.output)] + c.extraArguments)
        #expect(r.status != 0)
        for fragment in c.expected {
            #expect(r.stderr.contains(fragment), "message lacks «\(fragment)»: \(r.stderr)")
        }
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack dump"))
        #expect(ws.listing() == before, "files left behind: \(ws.listing())")
    }

    /// Root may write anywhere, so when the suite runs as root the command runs as `nobody` here.
    @Test func unwritableOutputDirectory() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", Self.valid)
        let locked = ws.file("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        chmod(locked, 0o555)
        chmod(ws.path, 0o755)
        chmod(scene, 0o644)
        let asRoot = geteuid() == 0
        let r = try runReel(["render", scene, "-o", locked + "/out.mp4"], asUser: asRoot ? 65534 : nil)
        #expect(r.status != 0)
        #expect(r.stderr.contains("is not writable"), "\(r.stderr)")
        #expect(ws.listing("locked").isEmpty)
    }

    @Test func emptyAndBinaryScenes() throws {
        let ws = try Workspace()
        let empty = ws.write("empty.json", "")
        let r1 = try runReel(["render", empty, "-o", ws.file("a.mp4")])
        #expect(r1.status != 0 && r1.stderr.contains("empty.json:1:1: invalid JSON: the file is empty"))
        let binary = ws.file("bin.json")
        _ = FileManager.default.createFile(atPath: binary, contents: Data([0xFF, 0xFE, 0x00, 0x01]))
        let r2 = try runReel(["render", binary, "-o", ws.file("b.mp4")])
        #expect(r2.status != 0 && r2.stderr.contains("bin.json:1:1: invalid JSON"))
        #expect(ws.listing() == ["bin.json", "empty.json"])
    }
}

@Suite struct InterruptTests {
    /// Ctrl-C in the middle of a render: exit status 130 within a second, and no file left, neither the
    /// output nor its temporary.
    @Test(arguments: [SIGINT, SIGTERM])
    func interruptLeavesNothing(_ signal: Int32) throws {
        let ws = try Workspace()
        // Long enough that it is still rendering when the signal comes (minutes of 1080p frames).
        let scene = ws.write(
            "long.json",
            """
            {"width": 1920, "height": 1080, "fps": 60, "duration": 600,
             "layers": [{"name": "a", "position": [960, 540], "bounds": [0, 0, 900, 500], "cornerRadius": 40,
                         "backgroundColor": "#eecd34",
                         "animations": [{"keyPath": "position.x", "fromValue": 0, "toValue": 1920, "duration": 600}]}]}
            """)
        var signalledAt = Date()
        let r = try runReel(["render", scene, "-o", ws.file("long.mp4")]) { process in
            // Wait until the temporary output exists, so the signal lands mid-render.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline && !ws.listing().contains(where: { $0.hasSuffix(".reel-tmp") }) {
                usleep(20_000)
            }
            usleep(200_000)
            signalledAt = Date()
            kill(process.processIdentifier, signal)
        }
        let elapsed = Date().timeIntervalSince(signalledAt)
        #expect(r.status == 128 + signal, "status \(r.status): \(r.stderr)")
        #expect(elapsed < 1.5, "took \(elapsed) s to stop")
        #expect(r.stderr.contains("interrupted"))
        #expect(ws.listing() == ["long.json"], "left behind: \(ws.listing())")
    }
}
