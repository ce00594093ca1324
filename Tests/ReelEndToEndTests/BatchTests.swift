// `reel batch`: manifests, variants, up-to-date skips, failures, kill -9, Ctrl-C, dry runs and JSON progress.
import Foundation
import ReelMedia
import ReelTestSupport
import Testing

/// `reel batch`: manifests, variants, concurrency, failures, resuming.
@Suite struct BatchTests {
    /// A 64×48 clip, 10 frames, whose box takes the colour of the variable `accent`.
    static let scene = """
        width: 64
        height: 48
        fps: 10
        duration: 1
        variables:
          accent: "#ff0000"
        background: "#ffffff"
        layers:
          - name: box
            position: [32, 24]
            bounds: [0, 0, 24, 24]
            backgroundColor: $accent
            animations: [{keyPath: opacity, fromValue: 1, toValue: 0.5, duration: 1}]
        """

    static let manifest = """
        jobs:
          - scene: scenes/*.yaml
            outputs:
              - out/{scene}.gif
              - {path: "out/{scene}.mp4", width: 32}
          - scene: scenes/a.yaml
            variants:
              green: {accent: "#00ff00"}
              blue: {accent: "#0000ff"}
            outputs: ["out/a-{variant}.gif"]
        """

    func workspace() throws -> Workspace {
        let ws = try Workspace()
        try FileManager.default.createDirectory(atPath: ws.file("scenes"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: ws.file("out"), withIntermediateDirectories: true)
        _ = ws.write("scenes/a.yaml", Self.scene)
        _ = ws.write("scenes/b.yaml", Self.scene.replacingOccurrences(of: "duration: 1\n", with: "duration: 2\n"))
        _ = ws.write("m.yaml", Self.manifest)
        return ws
    }

    /// The centre pixel of a GIF's first frame.
    func centre(_ path: String) throws -> [UInt8] {
        let f = try VideoReader(path: path).decodeAll()[0]
        let i = (24 * f.width + 32) * 4
        return Array(f.rgba[i..<(i + 3)])
    }

    /// `reel batch m.yaml` in the background, quiet.
    func startBatch(_ ws: Workspace, jobs: Int) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: reelBinary())
        p.arguments = ["batch", ws.file("m.yaml"), "--jobs", "\(jobs)", "-q"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// Waits until a render is under way (a temporary output exists in out/).
    func waitForARender(_ ws: Workspace, _ p: Process, until deadline: Date) {
        while !ws.listing("out").contains(where: { $0.hasSuffix(".reel-tmp") }) && p.isRunning && Date() < deadline {
            usleep(5_000)
        }
    }

    func visible(_ ws: Workspace) -> [String] { ws.listing("out").filter { !$0.hasPrefix(".") } }

    @Test func rendersGlobsTimesOutputsAndVariants() throws {
        let ws = try workspace()
        let r = try runReel(["batch", ws.file("m.yaml"), "--jobs", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(visible(ws) == ["a-blue.gif", "a-green.gif", "a.gif", "a.mp4", "b.gif", "b.mp4"])
        // 20 frames at 10 fps: 2 s of delays (repeated frames merged into longer ones).
        #expect(
            gifLoopAndDelays([UInt8](try Data(contentsOf: URL(fileURLWithPath: ws.file("out/b.gif"))))).delays.reduce(0, +) == 200
        )
        #expect(try VideoReader(path: ws.file("out/a.mp4")).info.width == 32)
        #expect(try centre(ws.file("out/a.gif")) == [255, 0, 0])
        #expect(try centre(ws.file("out/a-green.gif")) == [0, 255, 0])
        #expect(try centre(ws.file("out/a-blue.gif")) == [0, 0, 255])
        // The summary: one row per job with its outputs and frames.
        let rows = r.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.first == ["job", "outputs", "frames", "seconds", "status"])
        #expect(rows.contains { $0.first == "b" && $0[1] == "2" && $0[2] == "40" && $0.last == "ok" }, "\(r.stdout)")
        #expect(rows.contains { $0.first == "a-green" && $0[1] == "1" && $0[2] == "10" }, "\(r.stdout)")
        #expect(r.stdout.contains("6 outputs: 6 rendered, 0 up to date, 0 failed, 0 not run"))
    }

    /// A second run skips what is up to date; a changed scene, image or setting re-renders only what
    /// depends on it; --force renders everything.
    @Test func skipsWhatIsUpToDate() throws {
        let ws = try workspace()
        #expect(try runReel(["batch", ws.file("m.yaml")]).status == 0)
        let again = try runReel(["batch", ws.file("m.yaml")])
        #expect(again.status == 0)
        #expect(again.stdout.contains("6 outputs: 0 rendered, 6 up to date"), "\(again.stdout)")
        _ = ws.write("scenes/b.yaml", Self.scene.replacingOccurrences(of: "#ff0000", with: "#ff00ff"))
        let changed = try runReel(["batch", ws.file("m.yaml")])
        #expect(changed.stdout.contains("6 outputs: 2 rendered, 4 up to date"), "\(changed.stdout)")
        #expect(try centre(ws.file("out/b.gif")) == [255, 0, 255])
        // A setting changed in the manifest re-renders that output only.
        _ = ws.write("m.yaml", Self.manifest.replacingOccurrences(of: "width: 32", with: "width: 40"))
        let setting = try runReel(["batch", ws.file("m.yaml")])
        #expect(setting.stdout.contains("6 outputs: 2 rendered, 4 up to date"), "\(setting.stdout)")
        let forced = try runReel(["batch", ws.file("m.yaml"), "--force"])
        #expect(forced.stdout.contains("6 outputs: 6 rendered, 0 up to date"), "\(forced.stdout)")
    }

    /// An image the scene shows is an input too: replacing it re-renders the job.
    @Test func aChangedImageReRenders() throws {
        let ws = try Workspace()
        let still = ws.write("dot.yaml", Self.scene)
        #expect(try runReel(["still", still, "-o", ws.file("pic.png")]).status == 0)
        _ = ws.write(
            "s.yaml",
            "width: 32\nheight: 24\nfps: 10\nduration: 0.5\nlayers:\n  - {name: pic, position: [16, 12], bounds: [0, 0, 32, 24], contents: pic.png}\n"
        )
        _ = ws.write("m.yaml", "jobs:\n  - {scene: s.yaml, outputs: [s.gif]}\n")
        #expect(try runReel(["batch", ws.file("m.yaml")]).stdout.contains("1 rendered"))
        #expect(try runReel(["batch", ws.file("m.yaml")]).stdout.contains("1 up to date"))
        #expect(try runReel(["still", still, "--at", "0.9", "-o", ws.file("pic.png")]).status == 0)
        #expect(try runReel(["batch", ws.file("m.yaml")]).stdout.contains("1 rendered"))
    }

    /// A failing job does not stop the others; the exit status says one failed; the summary says why.
    @Test func aFailureDoesNotStopTheOthers() throws {
        let ws = try workspace()
        _ = ws.write("scenes/b.yaml", Self.scene.replacingOccurrences(of: "$accent", with: "$acent"))
        let r = try runReel(["batch", ws.file("m.yaml"), "--jobs", "1"])
        #expect(r.status == 1)
        #expect(visible(ws) == ["a-blue.gif", "a-green.gif", "a.gif", "a.mp4"])
        #expect(r.stdout.contains("FAILED: "), "\(r.stdout)")
        #expect(r.stderr.contains("b.yaml:12:22: layers[0].backgroundColor: unknown variable \"acent\""), "\(r.stderr)")
        #expect(r.stdout.contains("6 outputs: 4 rendered, 0 up to date, 2 failed"), "\(r.stdout)")
        // --fail-fast: with one job at a time, nothing after the first failure runs.
        let ws2 = try workspace()
        _ = ws2.write("scenes/a.yaml", "width: oops\n")
        let f = try runReel(["batch", ws2.file("m.yaml"), "--jobs", "1", "--fail-fast"])
        #expect(f.status == 1)
        #expect(visible(ws2).isEmpty, "\(visible(ws2))")
        #expect(f.stdout.contains("not run: another job failed (--fail-fast)"), "\(f.stdout)")
    }

    @Test func dryRunListsAndWritesNothing() throws {
        let ws = try workspace()
        let r = try runReel(["batch", ws.file("m.yaml"), "--dry-run"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("4 jobs, 6 outputs"), "\(r.stdout)")
        #expect(r.stdout.contains("a-blue: ") && r.stdout.contains("[accent=#0000ff]"), "\(r.stdout)")
        #expect(r.stdout.contains("out/a-green.gif  render"), "\(r.stdout)")
        #expect(ws.listing("out").isEmpty)
    }

    /// Manifest mistakes are refused before anything renders, with the line and column.
    @Test(arguments: [
        ("jobs:\n  - scene: scenes/a.yaml\n    output: [x.gif]\n", "m.yaml:3:5: jobs[0].output: unknown key \"output\""),
        ("jobs:\n  - scene: nothing/*.yaml\n    outputs: [x.gif]\n", "m.yaml:2:5: jobs[0].scene: no file matches nothing/*.yaml"),
        ("jobs:\n  - scene: scenes/a.yaml\n    outputs: [\"out/{scnee}.gif\"]\n", "unknown placeholder {scnee}"),
        (
            "jobs:\n  - scene: scenes/a.yaml\n    outputs: [\"out/{variant}.gif\"]\n",
            "{variant} is used but the job has no variants"
        ),
        ("jobs:\n  - scene: scenes/*.yaml\n    outputs: [out/x.gif]\n", "out/x.gif is also written by jobs[0]"),
        (
            "jobs:\n  - scene: scenes/a.yaml\n    outputs: [{path: out/a.mp4, preset: docs-gif}]\n",
            "preset docs-gif writes .gif files"
        ),
        (
            "jobs:\n  - scene: scenes/a.yaml\n    outputs: [{path: out/a.mp4, crf: 99}]\n",
            "m.yaml:3:38: jobs[0].outputs[0].crf: crf must be a whole number in 0…63"
        ),
        ("jobs:\n  - scene: scenes/a.yaml\n    outputs: [out/a.png]\n", "unsupported output extension"),
    ])
    func refusesManifestMistakes(manifest: String, expected: String) throws {
        let ws = try workspace()
        _ = ws.write("m.yaml", manifest)
        let r = try runReel(["batch", ws.file("m.yaml")])
        #expect(r.status == 2)
        #expect(r.stderr.contains(expected), "\(r.stderr)")
        #expect(ws.listing("out").isEmpty)
    }

    /// `kill -9` in the middle of a batch leaves only complete outputs; the next run finishes the rest
    /// and removes the killed run's temporary files.
    @Test func resumesAfterKill9() throws {
        let ws = try Workspace()
        try FileManager.default.createDirectory(atPath: ws.file("out"), withIntermediateDirectories: true)
        // Eight jobs of 40 frames at 640×480, one at a time: long enough to be killed in the middle.
        _ = ws.write("s.yaml", Self.scene.replacingOccurrences(of: "duration: 1\n", with: "duration: 4\nscale: 10\n"))
        _ = ws.write(
            "m.yaml",
            "jobs:\n  - scene: s.yaml\n    variants: {"
                + (0..<8).map { "v\($0): {accent: \"#\(String(format: "%02x", $0 * 30))0000\"}" }.joined(separator: ", ")
                + "}\n    outputs: [\"out/{variant}.mp4\"]\n")
        let p = try startBatch(ws, jobs: 1)
        // Wait for the first output's record, then for the next render to be under way.
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: ws.file("out/.v0.mp4.reel-batch")) && Date() < deadline {
            usleep(20_000)
        }
        waitForARender(ws, p, until: deadline)
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let left = ws.listing("out")
        #expect(left.contains { $0.hasSuffix(".reel-tmp") }, "the kill came between renders: \(left)")
        // Whatever is visible is complete.
        let finished = visible(ws)
        #expect(!finished.isEmpty && finished.count < 8, "\(finished)")
        for name in finished { #expect(try VideoReader(path: ws.file("out/\(name)")).decodeAll().count == 40) }
        let r = try runReel(["batch", ws.file("m.yaml")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\(8 - finished.count) rendered, \(finished.count) up to date"), "\(r.stdout)")
        #expect(visible(ws).count == 8)
        #expect(!ws.listing("out").contains { $0.hasSuffix(".reel-tmp") }, "\(ws.listing("out"))")
    }

    @Test func anOutputOverTheMemoryLimitFailsAlone() throws {
        let ws = try workspace()
        let r = try runReel(["batch", ws.file("m.yaml"), "--memory-limit", "1"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("more than the batch's memory limit of 1 MiB"), "\(r.stderr)")
    }

    /// The shipped manifests expand as documented: demo.yaml covers every example scene twice (MP4 and
    /// GIF) and its two tables' rows, variants.yaml the button's three variants in two formats.
    @Test func shippedManifestsExpand() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples").path
        let scenes = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
            $0.hasSuffix(".yaml") || $0.hasSuffix(".json")
        }
        let demo = try runReel(["batch", dir + "/batch/demo.yaml", "--dry-run"])
        #expect(demo.status == 0, "\(demo.stderr)")
        // Every example scene to two outputs, a badge for each of the three rows of badges.csv, and a
        // personalised Lottie clip for each of the three rows of lottie-slots.csv.
        #expect(demo.stdout.contains("\(scenes.count + 6) jobs, \(2 * scenes.count + 6) outputs"), "\(demo.stdout)")
        #expect(demo.stdout.contains("badge-bo: ") && demo.stdout.contains("label=Docs, examples"), "\(demo.stdout)")
        let variants = try runReel(["batch", dir + "/batch/variants.yaml", "--dry-run"])
        #expect(variants.status == 0, "\(variants.stderr)")
        #expect(variants.stdout.contains("3 jobs, 6 outputs"), "\(variants.stdout)")
        #expect(variants.stdout.contains("button-red: ") && variants.stdout.contains("press=0.85"), "\(variants.stdout)")
    }

    /// Ctrl-C stops the whole batch: exit 130, no temporary file left, nothing half-written.
    @Test func ctrlCStopsTheBatch() throws {
        let ws = try Workspace()
        try FileManager.default.createDirectory(atPath: ws.file("out"), withIntermediateDirectories: true)
        _ = ws.write("s.yaml", Self.scene.replacingOccurrences(of: "duration: 1\n", with: "duration: 4\nscale: 10\n"))
        _ = ws.write("m.yaml", "jobs:\n  - scene: s.yaml\n    outputs: [out/a.mp4, out/b.mp4, out/c.mp4, out/d.mp4]\n")
        let p = try startBatch(ws, jobs: 2)
        waitForARender(ws, p, until: Date().addingTimeInterval(60))
        let sent = Date()
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        #expect(Date().timeIntervalSince(sent) < 1.5)
        #expect(!ws.listing("out").contains { $0.hasSuffix(".reel-tmp") }, "\(ws.listing("out"))")
        for name in visible(ws) { #expect(try VideoReader(path: ws.file("out/\(name)")).decodeAll().count == 40) }
    }

    /// `--progress json`: lines of JSON on stderr for scripts, the last one with the final counts.
    @Test func progressAsJSON() throws {
        let ws = try workspace()
        let r = try runReel(["batch", ws.file("m.yaml"), "--progress", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(!lines.isEmpty)
        let last = try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as! [String: Any]
        #expect(last["outputs"] as? Int == 6 && last["rendered"] as? Int == 6 && last["failed"] as? Int == 0, "\(last)")
    }

    /// Output folders that do not exist yet are made (a batch writes trees of files).
    @Test func makesOutputFolders() throws {
        let ws = try workspace()
        _ = ws.write("m.yaml", "jobs:\n  - scene: scenes/a.yaml\n    outputs: [\"new/{scene}/clip.gif\", \"new/frames/\"]\n")
        let r = try runReel(["batch", ws.file("m.yaml")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try VideoReader(path: ws.file("new/a/clip.gif")).decodeAll().count == 10)
        #expect(ws.listing("new/frames").count == 10)
    }
}
