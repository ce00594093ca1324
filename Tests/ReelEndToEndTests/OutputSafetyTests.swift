/// Where outputs land and what they hold (issue #15): every format byte-reproducible, concurrent renders
/// to one PNG folder, a killed run's temporaries, and `--sandbox` confinement.
import Foundation
import Testing

@Suite struct OutputSafetyTests {
    /// Two renders of one scene with the same settings give the same bytes, in every format (WebM once
    /// differed: Matroska's random UIDs and date).
    @Test(arguments: [
        ["a.mp4"], ["b.mp4", "--codec", "hevc"], ["c.mp4", "--codec", "av1"], ["d.webm"], ["e.webm", "--codec", "av1"],
        ["f.mov", "--codec", "prores"], ["g.gif"], ["h.apng"], ["i.webp"], ["j/"],
    ])
    func everyFormatIsByteReproducible(_ output: [String]) throws {
        let ws = try Workspace()
        let scene = ws.write("s.json", smallScene)
        var copies: [[String: Data]] = []
        for run in ["one", "two"] {
            try FileManager.default.createDirectory(atPath: ws.file(run), withIntermediateDirectories: true)
            let r = try runReel(["render", scene, "-o", ws.file("\(run)/\(output[0])"), "-q"] + output.dropFirst())
            #expect(r.status == 0, "\(r.stderr)")
            var files: [String: Data] = [:]
            let root = ws.file(run)
            for name in FileManager.default.subpaths(atPath: root) ?? [] {
                var isDirectory: ObjCBool = false
                let p = (root as NSString).appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: p, isDirectory: &isDirectory), !isDirectory.boolValue {
                    files[name] = FileManager.default.contents(atPath: p)
                }
            }
            copies.append(files)
        }
        #expect(!copies[0].isEmpty)
        #expect(copies[0] == copies[1], "\(output[0]) differs between two identical renders")
    }

    /// Two renders into one PNG-sequence folder at once both succeed, and the folder holds one whole
    /// sequence (once: "cannot replace the earlier frames").
    @Test func concurrentRendersToOnePNGFolder() throws {
        let ws = try Workspace()
        let scene = ws.write("s.json", smallScene)
        for _ in 0..<3 {
            let processes = (0..<2).map { _ in
                let p = Process()
                p.executableURL = URL(fileURLWithPath: reelBinary())
                p.arguments = ["render", scene, "-o", ws.file("frames/"), "-q"]
                p.standardError = FileHandle.nullDevice
                return p
            }
            for p in processes { try p.run() }
            for p in processes { p.waitUntilExit() }
            #expect(processes.allSatisfy { $0.terminationStatus == 0 })
            #expect(ws.listing("frames") == (0..<10).map { String(format: "frame_%05d.png", $0) }, "\(ws.listing("frames"))")
            #expect(ws.listing().filter { $0.contains("reel-tmp") }.isEmpty, "\(ws.listing())")
        }
    }

    /// A killed run's temporary beside an output that is up to date is removed by the next run, though
    /// that run renders nothing.
    @Test func staleTemporariesGoEvenWhenUpToDate() throws {
        let ws = try Workspace()
        _ = ws.write("s.json", smallScene)
        let manifest = ws.write("m.yaml", "jobs:\n  - scene: s.json\n    outputs: [out/s.gif]\n")
        #expect(try runReel(["batch", manifest, "-q"]).status == 0)
        // A process id that cannot be running: above the kernel's pid_max.
        let stale = ws.file("out/.s.gif.2147483646-12345.reel-tmp")
        _ = FileManager.default.createFile(atPath: stale, contents: Data("half".utf8))
        let again = try runReel(["batch", manifest])
        #expect(again.status == 0)
        #expect(again.stdout.contains("up to date") || again.stderr.contains("up to date"), "\(again.stdout)\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale))
    }

    /// `--sandbox`: images only from the scene's folder, refused with the same words whether or not an
    /// outside file exists; a batch only inside its manifest's folder.
    @Test func sandboxConfinesReadsAndWrites() throws {
        let ws = try Workspace()
        try FileManager.default.createDirectory(atPath: ws.file("job/assets"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: ws.file("secret.png"), contents: Data("x".utf8))
        symlink(ws.file("secret.png"), ws.file("job/assets/link.png"))
        let head = #""width": 32, "height": 32, "fps": 10, "duration": 0.2"#
        var messages: [String] = []
        for contents in ["../secret.png", "../absent.png", ws.file("secret.png"), "assets/link.png"] {
            let scene = ws.write("job/s.json", "{\(head), \"layers\": [{\"name\": \"a\", \"contents\": \"\(contents)\"}]}")
            let r = try runReel(["render", scene, "-o", ws.file("job/out.mp4"), "--sandbox"])
            #expect(r.status == 1)
            #expect(r.stderr.contains("s.json:1:") && r.stderr.contains("is outside the scene's folder"), "\(r.stderr)")
            messages.append(r.stderr.replacingOccurrences(of: contents, with: "X"))
        }
        #expect(messages[0] == messages[1], "the message tells whether an outside file exists")
        #expect(!FileManager.default.fileExists(atPath: ws.file("job/out.mp4")))
        // Without --sandbox the same scene reads the file (and fails only because it is not an image).
        let open = try runReel([
            "render", ws.write("job/s.json", "{\(head), \"layers\": [{\"contents\": \"../secret.png\"}]}"),
            "-o", ws.file("job/out.mp4"),
        ])
        #expect(open.stderr.contains("cannot be read as an image"), "\(open.stderr)")

        // A batch: an output outside the manifest's folder, and a variable building a path.
        _ = ws.write("job/b.json", "{\(head)}")
        let outside = ws.write("job/m1.yaml", "jobs:\n  - scene: b.json\n    outputs: [../escaped.gif]\n")
        let r1 = try runReel(["batch", outside, "--sandbox"])
        #expect(r1.status != 0 && r1.stderr.contains("is outside the manifest's folder"), "\(r1.stderr)")
        let variable = ws.write(
            "job/m2.yaml",
            "jobs:\n  - scene: b.json\n    variables: {where: \"../x\"}\n    outputs: [\"out/{where}.gif\"]\n")
        let r2 = try runReel(["batch", variable, "--sandbox"])
        #expect(r2.status != 0 && r2.stderr.contains("allows only plain names"), "\(r2.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: ws.file("escaped.gif"))
                && !FileManager.default.fileExists(atPath: ws.file("x.gif")))
    }
}

/// x264's macroblock-tree rate control reads memory it never wrote: what the allocator hands it must
/// not decide the file. glibc fills allocations with a byte of our choosing under `MALLOC_PERTURB_`;
/// without Reel's zero-fill, star-button's MP4 differed between 0 and 1 (the first IDR frame's last
/// bytes), as it did between renders under load.
@Suite struct AllocatorIndependenceTests {
    @Test(arguments: [["s.mp4"], ["s.mp4", "--codec", "hevc"]])
    func encoderOutputIgnoresHeapContents(_ output: [String]) throws {
        let ws = try Workspace()
        let scene = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/star-button.yaml").path
        var files: [Data] = []
        for perturb in ["0", "1", "85"] {
            let path = ws.file("\(perturb)-\(output[0])")
            let r = try runReel(
                ["render", scene, "-o", path, "-q"] + output.dropFirst(), environment: ["MALLOC_PERTURB_": perturb])
            #expect(r.status == 0, "\(r.stderr)")
            files.append(FileManager.default.contents(atPath: path) ?? Data())
        }
        #expect(!files[0].isEmpty)
        #expect(files[0] == files[1] && files[0] == files[2], "the file depends on the allocator's leftovers")
    }
}
