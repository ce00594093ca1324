// Typed option values (--scale, --width, --size, --speed, --threads, --frames, --memory-limit, --jobs) read by one rule: render, still and sheet refuse a bad value in the same words and status.
import Foundation
import Reel
import ReelTestSupport
import Testing

/// Each value the library reads (`SettingValue`) is refused the same way by every command that takes
/// it, and by the Swift API, as `--shard` is (SegmentTests.shardIsReadOneWay).
@Suite struct OptionValueTests {
    /// The words each refusal must hold: the option, the value as typed and the range; then a fix.
    static let cases: [(option: String, value: String, words: String, commands: [String])] = [
        ("--scale", "0", "--scale must be a positive number, got 0", ["render", "still", "sheet"]),
        ("--scale", "-1", "--scale must be a positive number, got -1", ["render", "still", "sheet"]),
        ("--scale", "x", "--scale must be a positive number, got x", ["render", "still", "sheet"]),
        ("--scale", "inf", "--scale must be a positive number, got inf", ["render", "still", "sheet"]),
        ("--threads", "0", "--threads must be at least 1, got 0", ["render", "still", "sheet"]),
        ("--threads", "two", "--threads must be at least 1, got two", ["render", "still", "sheet"]),
        ("--width", "0", "--width must be 1…16384 pixels, got 0", ["render", "still"]),
        ("--width", "20000", "--width must be 1…16384 pixels, got 20000", ["render", "still"]),
        ("--speed", "0", "--speed must be in 0.001…1000, got 0", ["render"]),
        ("--speed", "fast", "--speed must be in 0.001…1000, got fast", ["render"]),
        ("--size", "1x1080", "--size 1x1080 must be 2…16384 pixels a side", ["render"]),
        ("--size", "1920", "--size 1920 is not WIDTHxHEIGHT in pixels", ["render"]),
        ("--frames", "9-3", "--frames 9-3 is not FIRST-LAST", ["render"]),
        ("--memory-limit", "0", "--memory-limit is a number of MiB from 1 to 1073741824, got 0", ["render", "still"]),
        ("--memory-limit", "lots", "--memory-limit is a number of MiB from 1 to 1073741824, got lots", ["render", "still"]),
    ]

    @Test func valuesAreReadOneWay() throws {
        let ws = try Workspace()
        let scene = ExamplesTests.examplesDirectory + "/star-button.yaml"
        for c in Self.cases {
            // `--option=value`, so that a negative number is read as the value.
            let runs = try c.commands.map { command in
                try runReel([command, scene, "-o", ws.file(command == "render" ? "x.mp4" : "x.png"), "\(c.option)=\(c.value)"])
            }
            let lines = runs.map { $0.stderr.split(separator: "\n").prefix(2).map(String.init) }
            #expect(
                lines[0].first == "Error: \(c.words)" || lines[0].first?.hasPrefix("Error: \(c.words) ") == true, "\(lines[0])")
            #expect(lines[0].count == 2 && lines[0][1].hasPrefix("  fix: "), "\(c.option) \(c.value): \(lines[0])")
            #expect(Set(lines).count == 1, "\(c.option) \(c.value): \(lines)")
            #expect(runs.allSatisfy { $0.status == 64 }, "\(c.option) \(c.value): \(runs.map(\.status))")
        }
        #expect(ws.listing().isEmpty)
    }

    /// `--jobs` and `--memory-limit` of the two batch commands (`batch`, `render --rows`): the same
    /// words as each other and as a single render's, status 64, before any file is read.
    @Test func batchValuesAreReadOneWay() throws {
        let ws = try Workspace()
        let scene = ExamplesTests.examplesDirectory + "/star-button.yaml"
        for (option, value, words) in [
            ("--jobs", "0", "--jobs is a whole number of renders at once, 1…256, got 0"),
            ("--jobs", "many", "--jobs is a whole number of renders at once, 1…256, got many"),
            ("--memory-limit", "-5", "--memory-limit is a number of MiB from 1 to 1073741824, got -5"),
        ] {
            let runs = [
                try runReel(["batch", ws.file("jobs.yaml"), "\(option)=\(value)"]),
                try runReel(["render", scene, "--rows", ws.file("rows.csv"), "-o", ws.file("{row}.mp4"), "\(option)=\(value)"]),
            ]
            for r in runs {
                let lines = r.stderr.split(separator: "\n").prefix(2).map(String.init)
                #expect(lines.first == "Error: \(words)", "\(lines)")
                #expect(lines.count == 2 && lines[1].hasPrefix("  fix: "), "\(lines)")
                #expect(r.status == 64, "\(option) \(value): \(r.status)")
            }
        }
        #expect(ws.listing().isEmpty)
    }

    /// The Swift API's overrides are checked by the same rule, in the same words (settings spelled as keys).
    @Test func swiftAPIRefusesInTheSameWords() {
        let scene = ExamplesTests.examplesDirectory + "/star-button.yaml"
        for (overrides, words) in [
            (SceneOverrides(speed: 0), "speed must be in 0.001…1000, got 0.0"),
            (SceneOverrides(width: 0), "width must be 1…16384 pixels, got 0"),
            (SceneOverrides(size: (1, 1080)), "size: 1x1080 must be 2…16384 pixels a side"),
        ] {
            do {
                _ = try Reel.load(scene, overrides: overrides)
                Issue.record("accepted: \(words)")
            } catch {
                #expect("\(error)".hasPrefix(words + "\n  fix: "), "\(error)")
            }
        }
    }
}
