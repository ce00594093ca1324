/// `reel preview`'s page driven in headless Chromium and its layer and export endpoints: outlines placed
/// by hand-computed transforms, the layer under the pointer by `CALayer.hitTest`'s rules, the `after:`
/// chains, exports with the CLI's bytes, and a screenshot whose frame is Reel's still.
import Foundation
import ReelMedia
import Testing

@Suite struct PreviewPageTests {
    /// Layers whose outlines are worked out by hand: a card that clips its sublayers (dot inside,
    /// peek sticking out), a square in front by zPosition, one rotated 45°, a hidden one, a mask, and
    /// a layer that clips to empty bounds (nothing of it or under it is drawn).
    static let scene = """
        width: 200
        height: 100
        fps: 10
        duration: 1
        background: "#ffffff"
        layers:
          - name: over
            zPosition: 1
            position: [100, 50]
            bounds: [20, 20]
            backgroundColor: "#22aa55"
          - name: card
            position: [60, 50]
            bounds: [100, 60]
            backgroundColor: "#dddddd"
            masksToBounds: true
            mask: {name: hole, position: [50, 30], bounds: [100, 60], backgroundColor: "#000000"}
            sublayers:
              - {name: dot, position: [30, 30], bounds: [20, 20], backgroundColor: "#3478f6"}
              - {name: peek, position: [100, 30], bounds: [40, 20], backgroundColor: "#e0567a"}
          - name: tilt
            position: [160, 50]
            bounds: [40, 40]
            transform: {rotation: 0.7853981633974483}
            backgroundColor: "#f0a000"
          - {name: ghost, hidden: true, position: [20, 20], bounds: [10, 10], backgroundColor: "#000000"}
          - name: pocket
            position: [180, 90]
            masksToBounds: true
            sublayers: [{name: lost, position: [0, 0], bounds: [10, 10], backgroundColor: "#000000"}]
        """

    /// /layers: one entry per timeline row, corners in the frame's pixels. The card's anchor is its
    /// centre, so its bounds (0…100, 0…60) sit at (10…110, 20…80); its sublayers are offset by (10, 20);
    /// tilt's corner (−20, −20) about its centre turns 45° to (0, −20√2) = (160, 21.72).
    @Test func layerOutlinesAreTheLayersPlaces() throws {
        let ws = try Workspace()
        let preview = try PreviewProcess(ws.write("s.yaml", Self.scene))
        let (status, body) = try preview.get("/layers?t=0.5")
        #expect(status == 200)
        let answer = (try JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
        let layers = answer["layers"] as? [[String: Any]] ?? []
        let rows = (try preview.state()["layers"] as? [[String: Any]] ?? []).map { $0["name"] as? String ?? "" }
        #expect(layers.map { $0["name"] as? String ?? "" } == rows)
        #expect(rows == ["over", "card", "dot", "peek", "hole", "tilt", "ghost", "pocket", "lost"])
        func corners(_ name: String) -> [[Double]]? { layers.first { $0["name"] as? String == name }?["corners"] as? [[Double]] }
        func field(_ name: String, _ key: String) -> Any? { layers.first { $0["name"] as? String == name }?[key] }
        #expect(corners("over") == [[90, 40], [110, 40], [110, 60], [90, 60]])
        #expect(corners("card") == [[10, 20], [110, 20], [110, 80], [10, 80]])
        #expect(corners("dot") == [[30, 40], [50, 40], [50, 60], [30, 60]])
        #expect(corners("peek") == [[90, 40], [130, 40], [130, 60], [90, 60]])
        #expect(corners("tilt") == [[160, 21.72], [188.28, 50], [160, 78.28], [131.72, 50]])
        #expect(corners("ghost") == nil && corners("pocket") == nil && corners("lost") == nil)
        // Drawn in zPosition order: over (z 1) after everything else; the card clips dot and peek.
        #expect(field("over", "order") as? Int == 7 && field("card", "order") as? Int == 0)
        #expect(field("dot", "clippedBy") as? Int == 1 && field("peek", "clippedBy") as? Int == 1)
        #expect(field("hole", "inMask") as? Bool == true && field("card", "clippedBy") == nil)
        for bad in ["/layers", "/layers?t=2", "/layers?t=x"] { #expect(try preview.get(bad).status == 400, "\(bad)") }
    }

    /// The page names the layer under the pointer (the dot over the card; the card's clip hides peek's
    /// overhang; `over` in front by zPosition) and outlines the layer clicked, or named by ?layer=.
    @Test func thePageNamesAndOutlinesLayers() throws {
        let ws = try Workspace()
        let preview = try PreviewProcess(ws.write("s.yaml", Self.scene))
        // The frame's place on the page, then the pointer at frame pixels (the frame is shown 1:1).
        guard
            let rect = try drivePage(
                preview.base + "/?t=0.5", steps: [.wait("document.body.dataset.loaded >= 1"), .read(Self.frameRect)], in: ws)
        else { return }
        let origin = (try? JSONDecoder().decode([Double].self, from: Data((rect.first ?? "[]").utf8))) ?? []
        try #require(origin.count == 4 && origin[2] == 200 && origin[3] == 100, "\(rect)")
        func at(_ x: Double, _ y: Double) -> (Double, Double) { (origin[0] + x, origin[1] + y) }
        var steps: [PageStep] = [.wait("document.body.dataset.loaded >= 1")]
        let hover = "document.body.dataset.hover"
        for (i, (x, y)) in [(40.0, 50.0), (20.0, 30.0), (120.0, 50.0), (100.0, 50.0), (160.0, 30.0), (135.0, 30.0), (5.0, 5.0)]
            .enumerated()
        {
            let (px, py) = at(x, y)
            steps.append(.move(x: px, y: py))
            // The first move fetches the outlines; later ones are answered from them as the event is handled.
            if i == 0 { steps.append(.wait("document.body.dataset.outlines === 'ready'")) }
            steps.append(.read(hover))
        }
        let (cx, cy) = at(40, 50)
        steps += [
            .click(x: cx, y: cy), .wait("document.body.dataset.pickedCorners"),
            .read("document.body.dataset.picked + ' ' + document.body.dataset.pickedCorners"),
        ]
        guard let read = try drivePage(preview.base + "/?t=0.5", steps: steps, in: ws) else { return }
        #expect(
            read.prefix(7) == [#""dot""#, #""card""#, #""""#, #""over""#, #""tilt""#, #""""#, #""""#],
            "\(read)")
        #expect(read.last == #""dot [[30,40],[50,40],[50,60],[30,60]]""#, "\(read)")
        let named = try drivePage(
            preview.base + "/?t=0.5&layer=tilt",
            steps: [.wait("document.body.dataset.pickedCorners"), .read("document.body.dataset.pickedCorners")], in: ws)
        #expect(named == [#""[[160,21.72],[188.28,50],[160,78.28],[131.72,50]]""#])
        // A layer added in front of it: the page keeps tilt picked (now a row further down).
        let version = try preview.state()["version"] as? Int ?? 0
        let edited = Self.scene.replacingOccurrences(
            of: "\nlayers:\n", with: "\nlayers:\n  - {name: extra, position: [5, 5], bounds: [4, 4]}\n")
        let kept = try drivePage(
            preview.base + "/?t=0.5&layer=tilt",
            steps: [
                .wait("document.body.dataset.pickedCorners"), .write(path: ws.file("s.yaml"), text: edited),
                .wait("document.body.dataset.version === '\(version + 1)'"),
                .read(
                    "document.body.dataset.error + ' ' + document.body.dataset.picked + ' ' + document.querySelector('.row.picked').dataset.index"
                ),
            ], in: ws)
        #expect(kept == [#""0 tilt 6""#], "\(kept ?? [])")
    }

    /// A screenshot of the page (a 1100×900 window, one device pixel per CSS pixel) holds, where the
    /// page lays out its frame, exactly the PNG `reel still` writes for that time: decoded by FFmpeg,
    /// every channel of every pixel equal (tolerance 0: the PNG is untagged sRGB, shown 1:1 under
    /// --force-color-profile=srgb, so Chromium has nothing to convert or resample). The frame is
    /// searched within one pixel of its layout box, which may fall on half pixels. With
    /// REEL_PREVIEW_SCREENSHOT set, the page with a layer outlined and another named under the pointer
    /// is saved there (scripts/preview-screenshot.sh: the README's picture).
    @Test func aScreenshotShowsReelsFrame() throws {
        let ws = try Workspace()
        let scene = ExamplesTests.examplesDirectory + "/star-button.yaml"
        let preview = try PreviewProcess(scene)
        let shot = ws.file("page.png")
        guard
            let read = try drivePage(
                preview.base + "/?t=0.9",
                steps: [
                    .wait("document.body.dataset.loaded >= 1"), .read(Self.frameRect), .read("document.body.dataset.chains"),
                    .screenshot(path: shot, clip: nil),
                ], in: ws, width: 1100, height: 900)
        else { return }
        let rect = (try? JSONDecoder().decode([Double].self, from: Data((read.first ?? "[]").utf8))) ?? []
        try #require(rect.count == 4 && rect[2] == 400 && rect[3] == 400, "\(read)")
        // star-button's `after: favorite` and `after: hideFill` actions: four chains on the timeline.
        #expect(read.dropFirst().first == #""4""#)
        let still = ws.file("still.png")
        #expect(try runReel(["still", scene, "--at", "0.9", "-o", still]).status == 0)
        let page = try ImageFile.read(path: shot), frame = try ImageFile.read(path: still)
        var best = Int.max
        for dy in -1...1 {
            for dx in -1...1 {
                let x0 = Int(rect[0].rounded()) + dx, y0 = Int(rect[1].rounded()) + dy
                guard x0 >= 0, y0 >= 0, x0 + frame.width <= page.width, y0 + frame.height <= page.height else { continue }
                var worst = 0
                for y in 0..<frame.height {
                    for x in 0..<frame.width {
                        let a = ((y0 + y) * page.width + x0 + x) * 4, b = (y * frame.width + x) * 4
                        for c in 0..<3 { worst = max(worst, abs(Int(page.rgba[a + c]) - Int(frame.rgba[b + c]))) }
                    }
                }
                best = min(best, worst)
            }
        }
        #expect(best == 0, "the frame on the page differs from reel still's by up to \(best)/255")
        guard let keep = ProcessInfo.processInfo.environment["REEL_PREVIEW_SCREENSHOT"] else { return }
        let (x, y) = (rect[0] + 110, rect[1] + 300)
        _ = try drivePage(
            preview.base + "/?t=0.9&layer=star",
            steps: [
                // The frame laid out first: a pointer that has not moved gets no event when it arrives.
                .wait("document.body.dataset.loaded >= 1 && document.body.dataset.pickedCorners"), .move(x: x, y: y),
                .wait("document.body.dataset.hover === 'fill'"), .screenshot(path: keep, clip: nil),
            ], in: ws, width: 1100, height: 900)
    }

    /// The export: only from the page (a header another site's page cannot send), only built-in
    /// presets, one at a time, cancellable with nothing left behind; the file is byte for byte what
    /// `reel render --preset` writes, and the page's button reports the CLI's closing line.
    @Test func exportsAreRendersWithAPreset() throws {
        let ws = try Workspace()
        let scene = ws.write("s.yaml", PreviewTests.scene)
        let preview = try PreviewProcess(scene)
        let page = ["X-Reel-Preview": "1"]
        func text(_ r: (status: Int, body: Data)) -> String { String(decoding: r.body, as: UTF8.self) }
        let foreign = try preview.request("POST", "/export?preset=docs-gif")
        #expect(foreign.status == 403 && ws.listing() == ["s.yaml"])
        let unknown = try preview.request("POST", "/export?preset=../../x.yaml", headers: page)
        #expect(unknown.status == 400 && text(unknown).contains("give one of apng,"), "\(text(unknown))")
        // A page of another site reaching this machine by a name of its own (DNS rebinding), or posting
        // from its own origin, is refused.
        let rebound = try preview.request(
            "POST", "/export?preset=docs-gif", headers: page.merging(["Host": "evil.example:80"]) { a, _ in a })
        #expect(rebound.status == 403 && text(rebound).contains("Host: evil.example"), "\(text(rebound))")
        #expect(try preview.request("GET", "/state", headers: ["Host": "evil.example"]).status == 403)
        let crossSite = try preview.request(
            "POST", "/export?preset=docs-gif", headers: page.merging(["Origin": "http://evil.example"]) { a, _ in a })
        #expect(crossSite.status == 403 && ws.listing() == ["s.yaml"])
        #expect(try preview.request("POST", "/export", headers: page).status == 400)
        #expect(try preview.request("POST", "/export?cancel=1", headers: page).status == 409)
        let started = try preview.request("POST", "/export?preset=docs-gif", headers: page)
        #expect(started.status == 202 && text(started).contains(#""state":"running""#), "\(text(started))")
        let done = try Self.exportStatus(preview, until: { $0 != "running" })
        #expect(
            done["state"] as? String == "done"
                && (done["line"] as? String ?? "").hasPrefix("wrote \(ws.file("s-docs-gif.gif")): 30 frames, 80×40, 30 fps"),
            "\(done)")
        let cli = ws.file("cli.gif")
        #expect(try runReel(["render", scene, "--preset", "docs-gif", "-o", cli, "-q"]).status == 0)
        let exported = try Data(contentsOf: URL(fileURLWithPath: ws.file("s-docs-gif.gif")))
        let rendered = try Data(contentsOf: URL(fileURLWithPath: cli))
        #expect(exported.count > 100 && exported == rendered)

        // A long clip: a second export is refused while it runs; cancelled, it leaves nothing.
        let long = PreviewTests.scene.replacingOccurrences(of: "duration: 1\n", with: "duration: 600\n")
            .replacingOccurrences(of: "fps: 10", with: "fps: 30")
        let before = try preview.state()["version"] as? Int ?? 0
        try long.write(toFile: scene, atomically: true, encoding: .utf8)
        #expect(try preview.waitForVersion(after: before)["duration"] as? Double == 600)
        #expect(try preview.request("POST", "/export?preset=web-mp4", headers: page).status == 202)
        _ = try Self.exportStatus(preview, until: { _ in true }, frames: 1)
        let second = try preview.request("POST", "/export?preset=webp", headers: page)
        #expect(second.status == 409 && text(second).contains("an export is running"))
        #expect(try preview.request("POST", "/export?cancel=1", headers: page).status == 200)
        let cancelled = try Self.exportStatus(preview, until: { $0 != "running" })
        #expect(cancelled["state"] as? String == "cancelled", "\(cancelled)")
        #expect(ws.listing() == ["cli.gif", "s-docs-gif.gif", "s.yaml"], "\(ws.listing())")

        // The page's button: the preset menu opens on docs-gif; the line is the CLI's.
        let longVersion = try preview.state()["version"] as? Int ?? 0
        try PreviewTests.scene.write(toFile: scene, atomically: true, encoding: .utf8)
        #expect(try preview.waitForVersion(after: longVersion)["duration"] as? Double == 1)
        guard
            let read = try drivePage(
                preview.base + "/",
                steps: [
                    .wait("document.body.dataset.loaded >= 1"), .read("document.getElementById('preset').value"),
                    .clickOn("#exportbutton"), .wait("document.body.dataset.export === 'done'"),
                    .read("document.getElementById('exportline').textContent"),
                ], in: ws)
        else { return }
        #expect(read.first == #""docs-gif""# && read.last?.contains("wrote ") == true, "\(read)")
    }

    /// Polls GET /export until `until` holds for its state (and at least `frames` frames are done).
    static func exportStatus(_ preview: PreviewProcess, until: (String) -> Bool, frames: Int = 0) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let s = (try JSONSerialization.jsonObject(with: preview.get("/export").body) as? [String: Any]) ?? [:]
            if until(s["state"] as? String ?? ""), (s["frame"] as? Int ?? 0) >= frames { return s }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("the export did not reach the state asked for within 60 s")
        return [:]
    }

    static let frameRect = """
        (() => { const r = document.getElementById("frame").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()
        """
}
