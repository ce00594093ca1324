// `reel timeline` (JSON, CSV, SVG path data) and `reel info` on a small scene, against hand-computed values, and their errors.
import Foundation
import Testing

@Suite struct InspectCommandTests {
    let scene = #"""
        {"width": 100, "height": 100, "fps": 10, "duration": 1, "layers": [{"name": "a", "bounds": [10, 10],
          "sublayers": [{"name": "b", "position": [1, 2]}],
          "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1},
                         {"keyPath": "position", "fromValue": [0, 0], "toValue": [10, 20], "duration": 1}]}]}
        """#

    @Test func timelineJSONAndCSV() throws {
        let ws = try Workspace()
        let path = ws.write("s.json", scene)
        let r = try runReel(["timeline", path, "--layer", "a", "--key", "opacity", "--at", "0,0.25,0.5"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
        #expect(json?.map { $0["value"] as? Double } == [0, 0.25, 0.5])
        let p = try runReel(["timeline", path, "--layer", "a", "--key", "position", "--fps", "4", "--format", "csv"])
        #expect(p.stdout == "time,value\n0,0,0\n0.25,2.5,5\n0.5,5,10\n0.75,7.5,15\n")
        let t = try runReel(["timeline", path, "--layer", "b", "--key", "transform", "--at", "0"])
        #expect(t.stdout.contains("[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]"))
    }

    @Test func timelineErrors() throws {
        let ws = try Workspace()
        let path = ws.write("s.json", scene)
        let layer = try runReel(["timeline", path, "--layer", "zz", "--key", "opacity", "--at", "0"])
        #expect(layer.status != 0 && layer.stderr.contains("no layer is named \"zz\"") && layer.stderr.contains("layers: a, b"))
        let key = try runReel(["timeline", path, "--layer", "a", "--key", "opacty", "--at", "0"])
        #expect(key.status != 0 && key.stderr.contains("\"opacty\" is not an animatable key path"))
        let both = try runReel(["timeline", path, "--layer", "a", "--key", "opacity"])
        #expect(both.status != 0 && both.stderr.contains("give either --at or --fps"))
    }

    @Test func info() throws {
        let ws = try Workspace()
        let r = try runReel(["info", ws.write("s.json", scene)])
        #expect(r.status == 0)
        #expect(r.stdout.contains("canvas: 100×100 pt at @1 = 100×100 px"))
        #expect(r.stdout.contains("timing: 10 fps, 1 s, 10 frames"))
        #expect(r.stdout.contains("basic opacity, 0–1 s") && r.stdout.contains("    b (layer)"))
        let bad = try runReel(["info", ws.write("bad.json", "{")])
        #expect(bad.status != 0 && bad.stderr.contains("bad.json:1:2: invalid JSON"))
    }
}

@Suite struct TimelinePathTests {
    @Test func pathsPrintAsSVGData() throws {
        let ws = try Workspace()
        let path = ws.write(
            "p.json",
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "p", "type": "shape", "path": "M0 0 L10 0", "animations": [{"keyPath": "path", "toValue": "M0 10 L10 10", "duration": 1}]}]}"#
        )
        let r = try runReel(["timeline", path, "--layer", "p", "--key", "path", "--at", "0.5"])
        let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
        let data = try #require(rows?.first?["value"] as? String)
        // Half way between the two lines: y = 5, controls at ⅓ and ⅔ of the way along x.
        #expect(data.hasPrefix("M0 5 C3.33333") && data.hasSuffix(" 10 5"), "\(data)")
    }
}
