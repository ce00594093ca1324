/// `reel preview` over HTTP: frames byte-identical to `reel still`, hot reload, the located error with
/// the last good frame kept, and bad requests answered 4xx while the server stays up.
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running `reel preview` on a free port, stopped when the test ends.
final class PreviewProcess {
    let process = Process()
    let base: String

    init(_ scene: String) throws {
        process.executableURL = URL(fileURLWithPath: reelBinary())
        process.arguments = ["preview", scene, "--port", "0"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line names the address: "Previewing SCENE at http://127.0.0.1:PORT/ (Ctrl-C stops)".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let start = text.range(of: "http://"), let end = text[start.lowerBound...].firstIndex(of: " ") else {
            process.terminate()
            process.waitUntilExit()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no address in \(text)"])
        }
        base = String(text[start.lowerBound..<end]).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// GET `path`: the status and the body.
    func get(_ path: String) throws -> (status: Int, body: Data) { try request("GET", path) }

    /// A request to the preview: the status and the body.
    func request(_ method: String, _ path: String, headers: [String: String] = [:]) throws -> (status: Int, body: Data) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: (Int, Data)?
        nonisolated(unsafe) var failure: (any Error)?
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            if let error { failure = error } else { result = ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()) }
            done.signal()
        }
        task.resume()
        guard done.wait(timeout: .now() + 60) == .success else { throw CocoaError(.fileReadUnknown) }
        if let failure { throw failure }
        return result!
    }

    /// The scene's state as the page reads it.
    func state() throws -> [String: Any] {
        let (status, body) = try get("/state")
        #expect(status == 200)
        return (try JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
    }

    /// Waits (up to `seconds`) until the state's version passes `version`.
    func waitForVersion(after version: Int, seconds: Double = 15) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let s = try state()
            if (s["version"] as? Int ?? 0) > version { return s }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("the preview did not reload within \(seconds) s")
        return try state()
    }
}

@Suite struct PreviewTests {
    static let scene = """
        width: 80
        height: 40
        fps: 10
        duration: 1
        background: "#f4f1ea"
        layers:
          - name: box
            position: [20, 20]
            bounds: [16, 16]
            backgroundColor: "#3478f6"
            animations:
              - {keyPath: position.x, fromValue: 20, toValue: 60, duration: 1}
        """

    @Test func framesAreReelStillsByteForByte() throws {
        let ws = try Workspace()
        let scene = ws.write("s.yaml", Self.scene)
        let preview = try PreviewProcess(scene)
        for (t, width) in [("0.5", nil), ("0.25", "160"), ("1", "33")] as [(String, String?)] {
            let (status, png) = try preview.get("/frame?t=\(t)" + (width.map { "&width=\($0)" } ?? ""))
            #expect(status == 200)
            let file = ws.file("still-\(t).png")
            let r = try runReel(["still", scene, "--at", t, "-o", file] + (width.map { ["--width", $0] } ?? []))
            #expect(r.status == 0, "\(r.stderr)")
            let written = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(png.count > 100 && png == written, "t=\(t) width=\(width ?? "-")")
        }
        let page = try preview.get("/")
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains("<title>reel preview</title>"))
        let state = try preview.state()
        #expect(state["frames"] as? Int == 10 && state["width"] as? Int == 80 && state["duration"] as? Double == 1)
        let layers = state["layers"] as? [[String: Any]] ?? []
        let bars = layers.first?["animations"] as? [[String: Any]] ?? []
        #expect(layers.count == 1 && bars.first?["keyPath"] as? String == "position.x" && bars.first?["end"] as? Double == 1)
    }

    @Test func badRequestsGet4xxAndTheServerStaysUp() throws {
        let ws = try Workspace()
        let preview = try PreviewProcess(ws.write("s.yaml", Self.scene))
        let cases: [(String, Int, String)] = [
            ("/frame", 400, "t:"), ("/frame?t=abc", 400, "t:"), ("/frame?t=-1", 400, "outside the clip"),
            ("/frame?t=5", 400, "outside the clip"), ("/frame?t=nan", 400, "t:"),
            ("/frame?t=0&width=100000", 400, "at most 4096"), ("/frame?t=0&width=0", 400, "width:"),
            ("/frame?t=0&width=12x", 400, "width:"), ("/frame?t=0&width=9223372036854775807", 400, "at most 4096"),
            ("/../../etc/passwd", 404, "serves /"), ("/%2e%2e/%2e%2e/etc/passwd", 404, "serves /"),
            ("/s.yaml", 404, "serves /"),
        ]
        for (path, status, reason) in cases {
            let r = try preview.get(path)
            #expect(r.status == status, "\(path): \(r.status)")
            #expect(String(decoding: r.body, as: UTF8.self).contains(reason), "\(path)")
        }
        #expect(try preview.get("/frame?t=0").status == 200)
    }

    @Test func editsReloadAndErrorsKeepTheLastGoodFrame() throws {
        let ws = try Workspace()
        let scene = ws.write("s.yaml", Self.scene)
        let preview = try PreviewProcess(scene)
        let v1 = try preview.state()["version"] as? Int ?? 0
        let before = try preview.get("/frame?t=0").body
        // A new colour: the state moves on and the frame is the new scene's still.
        try Self.scene.replacingOccurrences(of: "#3478f6", with: "#e0567a").write(
            toFile: scene, atomically: true, encoding: .utf8)
        let s2 = try preview.waitForVersion(after: v1)
        #expect(s2["error"] == nil || s2["error"] is NSNull)
        let after = try preview.get("/frame?t=0").body
        let still = ws.file("after.png")
        #expect(try runReel(["still", scene, "--at", "0", "-o", still]).status == 0)
        let written = try Data(contentsOf: URL(fileURLWithPath: still))
        #expect(after != before && after == written)
        // A broken scene: the located error, as the CLI words it, and the last good frame still served.
        try Self.scene.replacingOccurrences(of: "duration: 1\n", with: "duration: [1\n").write(
            toFile: scene, atomically: true, encoding: .utf8)
        let s3 = try preview.waitForVersion(after: s2["version"] as? Int ?? 0)
        let message = s3["error"] as? String ?? ""
        let cli = try runReel(["info", scene])
        #expect(message.contains("s.yaml:") && cli.status != 0 && cli.stderr.contains(message), "\(message) / \(cli.stderr)")
        let kept = try preview.get("/frame?t=0").body
        #expect(kept == after)
        // Mended: the error goes.
        try Self.scene.write(toFile: scene, atomically: true, encoding: .utf8)
        let s4 = try preview.waitForVersion(after: s3["version"] as? Int ?? 0)
        #expect(s4["error"] == nil || s4["error"] is NSNull)
    }

    /// An editor that empties the file before writing it (as Python's open(…, "w") does, and editors
    /// that keep the file's inode) shows no error at any save: the empty file, left 50 ms before the new
    /// text is written, is seen by some of the watcher's looks (one every 200 ms) but is not shown, since
    /// the file changes again within the two quiet looks an error waits for. Without that rule two of
    /// the sixteen saves showed an error (tried).
    @Test func aSaveThatEmptiesTheFileFirstShowsNoError() throws {
        let ws = try Workspace()
        let scene = ws.write("s.yaml", Self.scene)
        let preview = try PreviewProcess(scene)
        var version = try preview.state()["version"] as? Int ?? 0
        for i in 0..<16 {
            // The watcher looked just now (it loaded the last save): the saves start at eight phases of
            // its 200 ms, so that some of the emptied files meet a look.
            Thread.sleep(forTimeInterval: 0.2 * Double(i % 8) / 8)
            let handle = try #require(FileHandle(forWritingAtPath: scene))
            try handle.truncate(atOffset: 0)
            Thread.sleep(forTimeInterval: 0.05)
            try handle.write(contentsOf: Data(Self.scene.replacingOccurrences(of: "#3478f6", with: "#e0567\(i % 10)").utf8))
            try handle.close()
            let s = try preview.waitForVersion(after: version)
            #expect(s["error"] == nil || s["error"] is NSNull, "save \(i): \(s["error"] ?? "")")
            version = s["version"] as? Int ?? version
        }
    }

    /// The page in headless Chromium: it loads the frame for ?t=, plays with ?play=1, and shows a broken
    /// scene's located error over the last good frame.
    @Test func thePageLoadsPlaysAndShowsErrors() throws {
        let ws = try Workspace()
        let scene = ws.write("s.yaml", Self.scene)
        let preview = try PreviewProcess(scene)
        guard let still = try chromiumDOM(preview.base + "/?t=0.5", profile: ws.file("p1")) else { return }
        #expect(
            still.contains("data-shown=\"/frame?t=0.500000&amp;width=80") && still.contains("0.500 s · frame 5"),
            "\(still.prefix(600))")
        #expect(still.contains("data-error=\"0\"") && still.contains("80×40 px, 10 fps, 1 s, 10 frames"))
        let playing = try chromiumDOM(preview.base + "/?play=1", profile: ws.file("p2")) ?? ""
        // Playing (loop on): the page has shown more than the first frame.
        let loaded = playing.range(of: #"data-loaded="(\d+)""#, options: .regularExpression).map {
            Int(playing[$0].dropFirst(13).dropLast()) ?? 0
        }
        #expect(playing.contains("❚❚") && (loaded ?? 0) >= 3, "\(playing.prefix(600))")
        let version = try preview.state()["version"] as? Int ?? 0
        try Self.scene.replacingOccurrences(of: "duration: 1\n", with: "duration: [1\n").write(
            toFile: scene, atomically: true, encoding: .utf8)
        _ = try preview.waitForVersion(after: version)
        let broken = try chromiumDOM(preview.base + "/?t=0.5", profile: ws.file("p3")) ?? ""
        #expect(broken.contains("data-error=\"1\"") && broken.contains("s.yaml:"), "\(broken.prefix(900))")
    }
}
