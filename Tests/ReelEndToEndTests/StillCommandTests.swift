// `reel still`: one frame as a PNG with alpha, by pixel; bad input and missing images refused; a still as a layer's image.
import Foundation
import ReelMedia
import ReelTestSupport
import Testing

@Suite struct StillCommandTests {
    static let shapes = """
        {
          "width": 60, "height": 40, "scale": 2, "fps": 10, "duration": 1, "background": [0, 0, 0, 0],
          "layers": [
            {"name": "dot", "type": "shape", "position": [15, 20], "bounds": [0, 0, 20, 20], "fillColor": "#ff0000",
             "path": [{"oval": [0, 0, 20, 20]}]},
            {"name": "bar", "type": "gradient", "position": [42, 20], "bounds": [0, 0, 24, 30],
             "colors": ["#000000", "#ffffff"], "startPoint": [0, 0.5], "endPoint": [1, 0.5],
             "animations": [{"keyPath": "opacity", "fromValue": 1, "toValue": 0, "duration": 1}]},
            {"name": "tick", "type": "shape", "position": [30, 5], "bounds": [0, 0, 10, 4], "fillColor": null,
             "strokeColor": "#00ff00", "lineWidth": 2, "path": "M0 2 H10"}
          ]
        }
        """

    @Test func writesAPNGWithAlpha() throws {
        let ws = try Workspace()
        let scene = ws.write("s.json", Self.shapes)
        let r = try runReel(["still", scene, "--at", "0.5", "-o", ws.file("f.png")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(ws.listing() == ["f.png", "s.json"])
        let png = try ImageFile.read(path: ws.file("f.png"))
        #expect(png.width == 120 && png.height == 80)
        func px(_ x: Int, _ y: Int) -> [UInt8] { Array(png.rgba[((y * 120 + x) * 4)..<((y * 120 + x) * 4 + 4)]) }
        #expect(px(30, 40) == [255, 0, 0, 255])  // the dot's centre, opaque red
        #expect(px(2, 2) == [0, 0, 0, 0])  // the transparent background stays transparent
        // The gradient at half opacity (t = 0.5 of a 1 s fade): alpha 128 (premultiplied read back).
        #expect(abs(Int(px(84, 40)[3]) - 128) <= Tolerance.roundingLevels)
        #expect(px(60, 10)[1] == 255 && px(60, 10)[3] == 255)  // the 2 pt stroke, 4 px tall: solid green
    }

    @Test func refusesBadInput() throws {
        let ws = try Workspace()
        let scene = ws.write("s.json", Self.shapes)
        let wrongExt = try runReel(["still", scene, "-o", ws.file("f.jpg")])
        #expect(wrongExt.status != 0 && wrongExt.stderr.contains("a still is written as PNG"))
        let negative = try runReel(["still", scene, "--at=-1", "-o", ws.file("f.png")])
        #expect(negative.status != 0 && negative.stderr.contains("--at must be a time"))
        let badPath = ws.write("bad.json", Self.shapes.replacingOccurrences(of: "M0 2 H10", with: "M0 2 Q10"))
        let svg = try runReel(["still", badPath, "-o", ws.file("f.png")])
        #expect(svg.status != 0)
        #expect(
            svg.stderr.contains("layers[2].path: SVG path data: expected a number, found the end of the data (offset 8)"),
            "\(svg.stderr)")
        #expect(ws.listing() == ["bad.json", "s.json"])
    }

    @Test func missingImageAssetIsNamed() throws {
        let ws = try Workspace()
        let scene = ws.write(
            "s.json",
            ##"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "pic", "bounds": [10, 10], "contents": "assets/star.png"}]}"##
        )
        let r = try runReel(["still", scene, "-o", ws.file("f.png")])
        // The line, column and key path of the `contents` value, like every other scene error.
        #expect(
            r.status != 0 && r.stderr.contains("s.json:1:114: layers[0].contents: \"assets/star.png\": no such file (looked for"),
            "\(r.stderr)")
    }

    /// An image layer shows the decoded PNG: write one with `still`, use it as `contents`, render again.
    @Test func imageContentsRoundTrip() throws {
        let ws = try Workspace()
        let scene = ws.write("s.json", Self.shapes)
        #expect(try runReel(["still", scene, "-o", ws.file("dot.png")]).status == 0)
        let viewer = ws.write(
            "v.json",
            ##"{"width": 120, "height": 80, "fps": 10, "duration": 1, "background": "#ffffff", "layers": [{"name": "pic", "position": [60, 40], "bounds": [120, 80], "contents": "dot.png"}]}"##
        )
        #expect(try runReel(["still", viewer, "-o", ws.file("v.png")]).status == 0)
        let v = try ImageFile.read(path: ws.file("v.png"))
        let i = (40 * 120 + 30) * 4
        #expect(Array(v.rgba[i..<(i + 4)]) == [255, 0, 0, 255])
        #expect(Array(v.rgba[(2 * 120 + 2) * 4..<(2 * 120 + 2) * 4 + 4]) == [255, 255, 255, 255])  // transparent over white
    }
}
