// With --progress json, every line reel render and reel batch write on stderr is a JSON object with an
// "event": progress, notes, errors and the result, whether the command succeeds or fails.
import Foundation
import Testing

@Suite struct JSONStderrTests {
    /// Every stderr line as an object; fails the test on a line that is not one.
    func events(_ stderr: String) -> [[String: Any]] {
        var out: [[String: Any]] = []
        for line in stderr.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON object: «\(line)»")
            #expect(object?["event"] is String, "no event: «\(line)»")
            if let object { out.append(object) }
        }
        #expect(stderr.isEmpty || stderr.hasSuffix("\n"))
        return out
    }

    func kinds(_ events: [[String: Any]]) -> [String] { events.map { $0["event"] as? String ?? "" } }

    /// A transparent clip to MP4 (a note), with --stats: progress, note, stats and the result.
    @Test func renderThatSucceeds() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", smallScene.replacingOccurrences(of: "#ffffff", with: "#00000000"))
        let r = try runReel(["render", scene, "-o", ws.file("out.mp4"), "--progress", "json", "--stats"])
        #expect(r.status == 0, "\(r.stderr)")
        let e = events(r.stderr)
        let k = kinds(e)
        #expect(k.contains("note") && k.contains("progress") && k.contains("stats"), "\(k)")
        #expect(k.last == "done", "\(k)")
        let note = try #require(e.first { $0["event"] as? String == "note" })
        #expect((note["message"] as? String)?.contains("no alpha channel") == true)
        let done = try #require(e.last)
        #expect(done["output"] as? String == ws.file("out.mp4") && done["frames"] as? Int == 10 && done["exit"] as? Int == 0)
        #expect(done["width"] as? Int == 64 && done["height"] as? Int == 48 && (done["bytes"] as? Int ?? 0) > 0)
        // --quiet drops the notes, not the result a script asked for.
        let q = try runReel(["render", scene, "-o", ws.file("q.mp4"), "--progress", "json", "-q"])
        #expect(q.status == 0)
        #expect(!kinds(events(q.stderr)).contains("note") && kinds(events(q.stderr)).last == "done")
    }

    /// A refused option, a missing scene and a malformed command line: one error object each, with the
    /// exit status the process exits with.
    @Test func renderThatFails() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", smallScene)
        for (arguments, status, fragment) in [
            (["render", scene, "-o", ws.file("out.mp4"), "--lossless"], Int32(1), "--lossless applies to WebP only"),
            (["render", ws.file("missing.json"), "-o", ws.file("out.mp4")], 1, "no such file"),
            (["render", scene, "-o", ws.file("out.gif"), "--loop", "-1"], 64, "--loop once"),
            (["render", scene, "-o", ws.file("out.gif"), "--no-such-option"], 64, "--no-such-option"),
        ] {
            let r = try runReel(arguments + ["--progress", "json"])
            #expect(r.status == status, "\(arguments): \(r.stderr)")
            let e = events(r.stderr)
            #expect(kinds(e) == ["error"], "\(arguments): \(r.stderr)")
            #expect((e.last?["message"] as? String)?.contains(fragment) == true, "\(r.stderr)")
            #expect(e.last?["exit"] as? Int == Int(status))
            #expect(ws.listing() == ["scene.json"])
        }
    }

    /// A batch: progress objects, a failed output as its own object, and the counts as the last line;
    /// a bad manifest is one error object with exit status 2.
    @Test func batch() throws {
        let ws = try Workspace()
        _ = ws.write("a.json", smallScene)
        _ = ws.write("broken.json", "{\"width\": 64,")
        _ = ws.write(
            "m.yaml",
            "jobs:\n  - scene: a.json\n    outputs: [out/a.gif, out/a.mp4]\n  - scene: broken.json\n    outputs: [out/b.gif]\n")
        try FileManager.default.createDirectory(atPath: ws.file("out"), withIntermediateDirectories: true)
        let r = try runReel(["batch", ws.file("m.yaml"), "--progress", "json"])
        #expect(r.status == 1, "\(r.stderr)")
        let e = events(r.stderr)
        let failed = try #require(e.first { $0["event"] as? String == "failed" }, "\(r.stderr)")
        #expect((failed["output"] as? String)?.hasSuffix("out/b.gif") == true)
        #expect((failed["message"] as? String)?.contains("broken.json") == true, "\(failed)")
        let done = try #require(e.last)
        #expect(done["event"] as? String == "done", "\(done)")
        #expect(done["outputs"] as? Int == 3 && done["rendered"] as? Int == 2 && done["failed"] as? Int == 1)
        #expect(done["exit"] as? Int == 1)

        _ = ws.write("bad.yaml", "jobs:\n  - scene: a.json\n    outputs: [{path: out/c.mp4, lossless: true}]\n")
        let bad = try runReel(["batch", ws.file("bad.yaml"), "--progress", "json"])
        #expect(bad.status == 2)
        let b = events(bad.stderr)
        #expect(kinds(b) == ["error"] && b[0]["exit"] as? Int == 2, "\(bad.stderr)")
        #expect((b[0]["message"] as? String)?.contains("bad.yaml:3:") == true, "\(bad.stderr)")
    }
}
