/// Embedded pictures drawn: an SVG's `<image>` elements at their viewports (filling one, meet, slice
/// clipped), a scene layer whose `contents` is a `data:` URI, an SVG shown as contents with an image in
/// it; a bad URI is one error at the contents key that quotes only the URI's start. Pixels checked are
/// where bilinear sampling of the 4×2 red|blue picture is pure (between texel centres of one colour,
/// or on the edge texels), computed by hand below.
import Foundation
import Reel
import ReelRaster
import ReelScene
import Testing

@Suite struct SVGEmbeddedImageTests {
    /// 4×2 RGB PNG (made with Pillow): the left two columns red, the right two blue.
    static let redBlue =
        "iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAAGUlEQVR4nGP8z8DAwMDAyPCfgYGBiQEJAAAqNwIDlBYW1QAAAABJRU5ErkJggg=="
    static var uri: String { "data:image/png;base64," + redBlue }

    func pixel(_ frame: Frame, _ x: Int, _ y: Int) -> [UInt8] {
        let p = frame.pixel(x: x, y: y)
        return [p.r, p.g, p.b, p.a]
    }

    /// 300 × 100 units at scale 1.
    /// - fill: viewport (20, 10) 80 × 40, texels 20 wide: red (centres 30, 50) up to x = 50, blue
    ///   (70, 90) from x = 70; nothing outside the viewport.
    /// - meet: viewport (100, 0) 100 × 100 → picture 100 × 50 at (100, 25): red up to x = 137.5, blue
    ///   from 162.5; nothing above y = 25 or below 75.
    /// - slice xMinYMin: viewport (200, 0) 50 × 100 → picture 200 × 100 at (200, 0), red over x 200–300,
    ///   so the whole viewport is red, and x ≥ 250 is clipped away (it would be red unclipped).
    @Test func imagesAtTheirViewports() throws {
        let ws = try Workspace()
        let file = ws.write(
            "images.svg",
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="300" height="100">
              <image x="20" y="10" width="80" height="40" href="\(Self.uri)"/>
              <image x="100" y="0" width="100" height="100" href="\(Self.uri)"/>
              <image x="200" y="0" width="50" height="100" preserveAspectRatio="xMinYMin slice" href="\(Self.uri)"/>
            </svg>
            """)
        let clip = try Reel.load(file)
        let frame = try clip.renderer(threads: 1).frame(for: clip.scene, at: 0)
        let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255], clear: [UInt8] = [0, 0, 0, 0]
        #expect(pixel(frame, 21, 11) == red && pixel(frame, 45, 45) == red)
        #expect(pixel(frame, 75, 15) == blue && pixel(frame, 98, 48) == blue)
        #expect(pixel(frame, 10, 30) == clear && pixel(frame, 60, 5) == clear && pixel(frame, 60, 55) == clear)
        #expect(pixel(frame, 105, 30) == red && pixel(frame, 130, 70) == red)
        #expect(pixel(frame, 165, 30) == blue && pixel(frame, 198, 73) == blue)
        #expect(pixel(frame, 150, 20) == clear && pixel(frame, 150, 80) == clear)
        #expect(pixel(frame, 201, 1) == red && pixel(frame, 248, 98) == red)
        #expect(pixel(frame, 251, 50) == clear && pixel(frame, 290, 50) == clear)
    }

    /// A layer 40 × 20 at the top left showing the picture by resize: 10-wide texels, red up to x = 15,
    /// blue from 25. Inside an SVG shown as contents, the same picture drawn at the SVG's 4 × 2 → 40 × 20.
    @Test func contentsAsADataURIAndInsideAnSVGContents() throws {
        let ws = try Workspace()
        _ = ws.write(
            "inner.svg",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"2\"><image width=\"4\" height=\"2\" href=\"\(Self.uri)\"/></svg>"
        )
        let file = ws.write(
            "scene.json",
            """
            {"width": 100, "height": 20, "fps": 10, "duration": 1, "layers": [
              {"name": "pic", "position": [0, 0], "anchorPoint": [0, 0], "bounds": [40, 20], "contents": "\(Self.uri)"},
              {"name": "svg", "position": [50, 0], "anchorPoint": [0, 0], "bounds": [40, 20], "contents": "inner.svg"}
            ]}
            """)
        let clip = try Reel.load(file)
        let frame = try clip.renderer(threads: 1).frame(for: clip.scene, at: 0)
        #expect(pixel(frame, 2, 2) == [255, 0, 0, 255] && pixel(frame, 12, 17) == [255, 0, 0, 255])
        #expect(pixel(frame, 26, 2) == [0, 0, 255, 255] && pixel(frame, 38, 18) == [0, 0, 255, 255])
        #expect(pixel(frame, 52, 2) == [255, 0, 0, 255] && pixel(frame, 88, 18) == [0, 0, 255, 255])
        // A batch's inputs: the scene (which holds the URI) and the SVG file, no path made of the URI.
        #expect(Reel.inputFiles(of: clip.scene, path: file) == [file, ws.file("inner.svg")])
    }

    /// Bad base64 in a scene file: one error at the contents key (line 3), quoting the URI's first 40
    /// characters, not the whole.
    @Test func aBadURIIsOneErrorAtItsKey() throws {
        let ws = try Workspace()
        let long = "data:image/png;base64," + String(repeating: "iVBO", count: 1000) + "*#"
        let file = ws.write(
            "bad.json",
            """
            {"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [
              {"name": "pic", "bounds": [10, 10],
               "contents": "\(long)"}
            ]}
            """)
        do {
            _ = try Reel.load(file)
            Issue.record("a bad data: URI was accepted")
        } catch {
            let text = "\(error)"
            #expect(text.contains("bad.json:3:"), "\(text.prefix(300))")
            #expect(
                text.contains("cannot be read as an image") && text.contains("base64 data is not valid"), "\(text.prefix(300))")
            #expect(text.contains("\(long.prefix(40))…") && text.count < 400, "\(text.prefix(300))")
        }
    }
}
