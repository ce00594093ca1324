/// An SVG file alone through the CLI: `reel still icon.svg --width W` draws its viewport at W pixels
/// wide (the scale follows), `reel render` makes a clip of it, an element Reel does not draw yet is
/// named with its line, and a malformed file is one located error.
import Foundation
import ReelMedia
import ReelTestSupport
import Testing

@Suite struct SVGCommandTests {
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">
          <rect x="0" y="0" width="100" height="100" fill="#ff0000"/>
          <circle cx="150" cy="50" r="40" fill="rgb(0, 0, 255)"/>
          <foreignObject x="10" y="10" width="5" height="5"/>
        </svg>
        """

    @Test func aStillAtAWidth() throws {
        let ws = try Workspace()
        let svg = ws.write("icon.svg", Self.icon)
        let r = try runReel(["still", svg, "--at", "0", "-o", ws.file("icon.png"), "--width", "300"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("icon.svg: line 4: <foreignObject> is not supported yet"), "\(r.stderr)")
        let png = try ImageFile.read(path: ws.file("icon.png"))
        #expect(png.width == 300 && png.height == 150)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(png.rgba[(y * 300 + x) * 4..<(y * 300 + x) * 4 + 4]) }
        #expect(pixel(75, 75) == [255, 0, 0, 255])  // the red square's centre (50, 50) at 1.5 px per unit
        #expect(pixel(225, 75) == [0, 0, 255, 255])  // the circle's centre
        #expect(pixel(150, 5)[3] == 0)  // between them: transparent
    }

    @Test func aClipOfAnSVG() throws {
        let ws = try Workspace()
        let svg = ws.write("icon.svg", Self.icon)
        let r = try runReel(["render", svg, "-o", ws.file("icon.mp4"), "--duration", "0.5", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: ws.file("icon.mp4")))
    }

    /// feImage of an embedded picture is decoded with the clip's pictures and drawn: a 2 × 1 PNG (red,
    /// blue; made for this test) filling a 100 × 100 rect's filter region with preserveAspectRatio
    /// none, so the left half red and the right half blue (bilinear between the texel centres at 25 and
    /// 75: pure at 10 and 90). A picture whose header reads but whose data does not is one error at the
    /// filtered element's line, and nothing is written.
    @Test func feImageShowsItsPicture() throws {
        let ws = try Workspace()
        func svg(_ png: String) -> String {
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
              <filter id="f" x="0" y="0" width="1" height="1"><feImage preserveAspectRatio="none" href="data:image/png;base64,\(png)"/></filter>
              <rect width="100" height="100" fill="#00ff00" filter="url(#f)"/>
            </svg>
            """
        }
        let good = ws.write(
            "good.svg",
            svg("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR42mP4z8Dwn4Hh/38AD/kD/RUQ4aQAAAAASUVORK5CYII="))
        let r = try runReel(["still", good, "--at", "0", "-o", ws.file("good.png")])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let png = try ImageFile.read(path: ws.file("good.png"))
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(png.rgba[(y * png.width + x) * 4..<(y * png.width + x) * 4 + 4]) }
        #expect(pixel(10, 50) == [255, 0, 0, 255] && pixel(90, 50) == [0, 0, 255, 255] && pixel(10, 5) == [255, 0, 0, 255])
        let bad = ws.write("bad.svg", svg("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+Kbm90IGEgcGljdHVyZQ=="))
        let b = try runReel(["still", bad, "--at", "0", "-o", ws.file("bad.png")])
        #expect(
            b.status != 0 && b.stderr.contains("bad.svg: line 3: layer") && b.stderr.contains("cannot be read"), "\(b.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.file("bad.png")))
    }

    /// Per-character dy reaches the frame: "II" in DejaVu Sans at 40 px, baseline at y 50, has no ink
    /// below its baseline ("I" sits on it, up to 1493 units of 2048: 29.2 px); with dy="0 30" the second
    /// "I" is drawn 30 px lower, its foot at 80, so rows 60 to 75 hold ink.
    @Test func perCharacterDyMovesItsCharacter() throws {
        let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        guard FileManager.default.fileExists(atPath: dejaVu) else {
            print("SVGCommandTests: \(dejaVu) is not installed (scripts/setup.sh installs it); skipped")
            return
        }
        let ws = try Workspace()
        func inkBelowBaseline(_ dy: String) throws -> Int {
            let file = ws.write(
                "t.svg",
                """
                <svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
                  <text x="10" y="50" \(dy) font-family="DejaVu Sans" font-size="40">II</text>
                </svg>
                """)
            let r = try runReel(["still", file, "--at", "0", "-o", ws.file("t.png")])
            #expect(r.status == 0, "\(r.stderr)")
            let png = try ImageFile.read(path: ws.file("t.png"))
            var ink = 0
            for y in 60...75 { for x in 0..<png.width where png.rgba[(y * png.width + x) * 4 + 3] > 128 { ink += 1 } }
            return ink
        }
        #expect(try inkBelowBaseline("") == 0)
        #expect(try inkBelowBaseline("dy=\"0 30\"") > 16 * 3)
    }

    /// Filter regions held to the frame and half its size around (2000 × 2000 at 1000 px wide) cover
    /// 4 megapixels each: seventeen of them pass the frame's 64 megapixels. The error names the time,
    /// the filtered elements (the first three and how many more) and the fix; nothing is written.
    @Test func filtersOverTooManyPixelsAreOneErrorNamingThem() throws {
        let ws = try Workspace()
        let rects = (0..<17).map { "<rect id=\"r\($0)\" width=\"10\" height=\"10\" filter=\"url(#f)\"/>" }.joined()
        let svg = ws.write(
            "wide.svg",
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000">
              <filter id="f" filterUnits="userSpaceOnUse" x="-1e6" y="-1e6" width="2e6" height="2e6"><feFlood/></filter>
              \(rects)
            </svg>
            """)
        let r = try runReel(["still", svg, "--at", "0", "-o", ws.file("wide.png")])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains(
                "drawing the frame at 0.0 s failed: the SVG filters of layers \"wide/r0\", \"wide/r1\", \"wide/r2\" and 14 more cover more than 64 megapixels together"
            ), "\(r.stderr)")
        #expect(r.stderr.contains("fix: draw fewer filtered elements at once"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.file("wide.png")))
    }

    @Test func aMalformedFileIsOneLocatedError() throws {
        let ws = try Workspace()
        let svg = ws.write("bad.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\">\n  <rect width=\"1\"\n</svg>")
        let r = try runReel(["still", svg, "--at", "0", "-o", ws.file("bad.png")])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: \(svg):3:"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.file("bad.png")))
    }
}

/// SVG text drawn by Reel's text engine, placed by its baseline. DejaVu Sans's H is 1493/2048 em tall
/// on the baseline, with equal side bearings: at 40 px, "HHH" at y = 60 inks rows 30 (0.16 covered:
/// its top is at 60 − 29.16) to 59 and nothing from row 60, and text-anchor middle centres its ink on
/// x = 100 (within a pixel: the ink's edges fall inside pixels).
@Suite struct SVGTextTests {
    @Test func textSitsOnItsBaselineAndAnchor() throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") else {
            print("SVGTextTests skipped: DejaVu Sans is not installed (scripts/setup.sh installs it)")
            return
        }
        let ws = try Workspace()
        let svg = ws.write(
            "text.svg",
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">
              <rect width="200" height="100" fill="white"/>
              <text x="100" y="60" font-family="DejaVu Sans" font-size="40" text-anchor="middle">HHH</text>
            </svg>
            """)
        let r = try runReel(["still", svg, "--at", "0", "-o", ws.file("text.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try ImageFile.read(path: ws.file("text.png"))
        func dark(_ x: Int, _ y: Int) -> Bool { png.rgba[(y * png.width + x) * 4] < 250 }
        let rows = (0..<100).filter { y in (0..<200).contains { dark($0, y) } }
        let columns = (0..<200).filter { x in (0..<100).contains { dark(x, $0) } }
        #expect(rows.first == 30 && rows.last == 59, "\(rows)")
        let centre = Double(columns.first! + columns.last! + 1) / 2
        #expect(abs(centre - 100) <= Tolerance.centringPixels, "ink columns \(columns.first!)…\(columns.last!)")
    }
}

/// An SVG file as a layer's `contents`: drawn as vectors into the frame `contentsGravity` gives it, so
/// edges stay exact at any scale. A 200 × 100 picture in 300 × 100 bounds with resizeAspect sits 50 points
/// in; at scale 2 its red square covers pixels 100…299 exactly and its blue circle is centred at 400.
@Suite struct SVGContentsTests {
    @Test func anSVGAsContentsIsDrawnAsVectors() throws {
        let ws = try Workspace()
        _ = ws.write(
            "logo.svg",
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">
              <rect width="100" height="100" fill="#ff0000"/><circle cx="150" cy="50" r="50" fill="#0000ff"/>
            </svg>
            """)
        let scene = ws.write(
            "scene.yaml",
            """
            width: 300
            height: 100
            scale: 2
            fps: 10
            duration: 1
            background: "#ffffff"
            layers:
              - name: logo
                position: [150, 50]
                bounds: [300, 100]
                contents: logo.svg
                contentsGravity: resizeAspect
            """)
        let r = try runReel(["still", scene, "--at", "0", "-o", ws.file("out.png"), "--sandbox"])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try ImageFile.read(path: ws.file("out.png"))
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(png.rgba[(y * png.width + x) * 4..<(y * png.width + x) * 4 + 3]) }
        #expect(png.width == 600 && png.height == 200)
        #expect(pixel(99, 100) == [255, 255, 255] && pixel(100, 100) == [255, 0, 0] && pixel(299, 100) == [255, 0, 0])
        #expect(pixel(400, 100) == [0, 0, 255] && pixel(550, 100) == [255, 255, 255])
    }
}

/// What a user meets first with SVG files of the wrong size: one error naming the file and the fix,
/// exit 1, no output; a huge SVG renders at a --width that fits.
@Suite struct SVGSizeTests {
    func still(_ ws: Workspace, _ name: String, _ text: String, _ extra: [String] = []) throws -> RunResult {
        let svg = ws.write(name, text)
        return try runReel(["still", svg, "--at", "0", "-o", ws.file("out.png")] + extra)
    }

    @Test func hugeEmptyAndSizelessFiles() throws {
        let ws = try Workspace()
        let huge = #"<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="9" height="9"/></svg>"#
        let r = try still(ws, "huge.svg", huge)
        #expect(r.status == 1 && r.stderr.contains("huge.svg: the canvas would be 100000×100000 pixels"), "\(r.stderr)")
        #expect(r.stderr.contains("--width 1024"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.file("out.png")))
        #expect(try still(ws, "huge2.svg", huge, ["--width", "400"]).status == 0)
        let zero = try still(ws, "zero.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"/>"#)
        #expect(zero.status == 1 && zero.stderr.contains("zero.svg: the SVG's viewport is 0.0×0.0"), "\(zero.stderr)")
        let empty = try still(ws, "empty.svg", "")
        #expect(
            empty.status == 1 && empty.stderr.hasPrefix("error: \(ws.file("empty.svg")): the file is empty"), "\(empty.stderr)")
    }
}
