/// Text layers through the CLI and the facade: fonts found by name or file (a missing one is a located
/// error with a suggestion), colour emoji, per-unit animation in rendered pixels against hand-computed
/// values, fonts as batch inputs, `reel info`, the notes, and the Swift API drawing what the file does.
import Foundation
import Reel
import ReelGeometry
import ReelMedia
import ReelScene
import ReelText
import Testing

@Suite struct TextLayerTests {
    static let inter = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"
    static let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

    static func installed(_ files: String...) -> Bool {
        for f in files where !FileManager.default.fileExists(atPath: f) {
            print("TextLayerTests: \(f) is not installed (scripts/setup.sh installs it); skipped")
            return false
        }
        return true
    }

    func scene(_ layer: String, width: Int = 200, height: Int = 80, background: String = "#ffffff") -> String {
        """
        width: \(width)
        height: \(height)
        fps: 10
        duration: 1
        background: "\(background)"
        layers:
          - name: t
            type: text
            position: [\(width / 2), \(height / 2)]
            bounds: [\(width), \(height)]
        \(layer.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
        """
    }

    @Test func aFontThatIsNotInstalledIsALocatedErrorWithASuggestion() throws {
        guard Self.installed(Self.inter) else { return }
        let ws = try Workspace()
        let file = ws.write("scene.yaml", scene("string: Hello\nfont: Intr Bold"))
        let r = try runReel(["still", file, "--at", "0", "-o", ws.file("out.png")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("scene.yaml:12:11: layers[0].font: no font \"Intr Bold\""), "\(r.stderr)")
        #expect(r.stderr.contains("did you mean \"Inter Bold\"?"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.file("out.png")))
    }

    /// A number where the text goes (a table's count through `string: $count`) is drawn as the same
    /// digits written as a string would be: the two frames are byte-identical, and a number's fraction
    /// stays (2.5), while a whole number has none (42, not 42.0).
    @Test func aNumberIsDrawnAsItsDigits() throws {
        let ws = try Workspace()
        let black = "#000000"  // under the default white text
        func png(_ name: String, _ body: String) throws -> Data {
            let file = ws.write(name + ".yaml", body)
            let r = try runReel(["still", file, "--at", "0", "-o", ws.file(name + ".png")])
            #expect(r.status == 0, "\(r.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: ws.file(name + ".png")))
        }
        let number = try png("n", "variables: {count: 42, half: 2.5}\n" + scene("string: $count", background: black))
        #expect(number == (try png("s", scene("string: \"42\"", background: black))))
        #expect(number != (try png("f", scene("string: \"42.0\"", background: black))))
        #expect(
            try png("h", "variables: {half: 2.5}\n" + scene("string: $half", background: black))
                == (try png("hs", scene("string: \"2.5\"", background: black))))
    }

    @Test func aFontFileIsReadRelativeToTheSceneAndConfinedBySandbox() throws {
        guard Self.installed(Self.inter) else { return }
        let ws = try Workspace()
        try FileManager.default.createDirectory(atPath: ws.file("fonts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.inter, toPath: ws.file("fonts/Brand.otf"))
        let good = ws.write("good.yaml", scene("string: Hello\nfont: fonts/Brand.otf\nforegroundColor: \"#000000\""))
        #expect(try runReel(["still", good, "--at", "0", "-o", ws.file("a.png"), "--sandbox"]).status == 0)
        let missing = ws.write("missing.yaml", scene("string: Hello\nfont: fonts/Nope.otf"))
        let r = try runReel(["still", missing, "--at", "0", "-o", ws.file("b.png")])
        #expect(r.status == 1 && r.stderr.contains("layers[0].font: \"fonts/Nope.otf\": no such file (looked for"), "\(r.stderr)")
        let outside = ws.write("outside.yaml", scene("string: Hello\nfont: \(Self.inter)"))
        let s = try runReel(["still", outside, "--at", "0", "-o", ws.file("c.png"), "--sandbox"])
        #expect(s.status == 1 && s.stderr.contains("outside the scene's folder"), "\(s.stderr)")
        // Not a font at all.
        _ = ws.write("fonts/Fake.ttf", "not a font")
        let fake = ws.write("fake.yaml", scene("string: Hello\nfont: fonts/Fake.ttf"))
        let f = try runReel(["still", fake, "--at", "0", "-o", ws.file("d.png")])
        #expect(f.status == 1 && f.stderr.contains("cannot be read as a font"), "\(f.stderr)")
    }

    @Test func emojiAreDrawnInColour() throws {
        guard Self.installed(Self.inter, Self.emoji) else { return }
        let ws = try Workspace()
        // 😀 is yellow in Noto Color Emoji; the text colour (black) must not tint it.
        let file = ws.write("e.yaml", scene("string: \"\u{1F600}\"\nfont: Inter\nfontSize: 60\nforegroundColor: \"#000000\""))
        let r = try runReel(["still", file, "--at", "0", "-o", ws.file("e.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try ImageFile.read(path: ws.file("e.png"))
        var yellow = 0
        for i in stride(from: 0, to: png.rgba.count, by: 4) {
            let (red, green, blue) = (Int(png.rgba[i]), Int(png.rgba[i + 1]), Int(png.rgba[i + 2]))
            if red > 200 && green > 150 && blue < 90 { yellow += 1 }
        }
        // A 60-point face is about 55×55 points; most of it is yellow.
        #expect(yellow > 1000, "\(yellow) yellow pixels")
        #expect(r.stderr.contains("NotoColorEmoji.ttf"), "the fallback is named: \(r.stderr)")
    }

    /// Two words, black on white, opacity 0→1 linear over 1 s with a 0.5 s stagger: at t = 0.5 the first
    /// word is at opacity 0.5 (a fully covered pixel is 255·0.5 = 127.5, so 127 or 128) and the second at
    /// 0 (nothing drawn); at 1.0 the first is 1 (0) and the second 0.5.
    @Test func perWordOpacityFollowsTheStagger() throws {
        guard Self.installed(Self.inter) else { return }
        let ws = try Workspace()
        let layer = """
            string: "II II"
            font: Inter
            fontSize: 60
            foregroundColor: "#000000"
            unitAnimations:
              - unit: word
                stagger: 0.5
                animations:
                  - {type: basic, keyPath: opacity, fromValue: 0, toValue: 1, duration: 1, fillMode: both}
            """
        let file = ws.write("u.yaml", scene(layer, width: 200, height: 80))
        func darkest(_ t: Double, _ x: Range<Int>) throws -> Int {
            let out = ws.file("u-\(t).png")
            let r = try runReel(["still", file, "--at", "\(t)", "-o", out])
            #expect(r.status == 0, "\(r.stderr)")
            let png = try ImageFile.read(path: out)
            var low = 255
            for y in 0..<png.height { for xx in x { low = min(low, Int(png.rgba[(y * png.width + xx) * 4])) } }
            return low
        }
        // "II" in Inter 60 is about 40 points wide: the first word lies left of 60, the second right of 70.
        #expect([127, 128].contains(try darkest(0.5, 0..<60)))
        #expect(try darkest(0.5, 70..<200) == 255)
        #expect(try darkest(1.0, 0..<60) == 0)
        #expect([127, 128].contains(try darkest(1.0, 70..<200)))
    }

    /// A run's underline and strikethrough, by hand from DejaVu Sans's tables (`post` underline −40,
    /// thickness 90; `OS/2` strikeout 530; ascender 1901; 2048 units an em) at 40 points: the baseline at
    /// 37.129, the underline 37.031…38.789 (black over white: row 37 covered 0.969 → 255 · 0.031 = 7.9,
    /// row 38 0.789 → 53.8), the strikeout 25.898…27.656 (row 26 whole → 0, row 27 0.656 → 87.7). Both
    /// cross the space after the first "A" (x 27.4…40.1), where no glyph inks; the plain run has neither.
    @Test func underlineAndStrikethroughCrossTheSpaces() throws {
        let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        guard Self.installed(dejaVu) else { return }
        let ws = try Workspace()
        func rows(_ name: String, _ decorations: String) throws -> [Int: [Int]] {
            let layer = """
                font: DejaVu Sans
                fontSize: 40
                foregroundColor: "#000000"
                runs:
                  - {text: "A A"\(decorations)}
                """
            let file = ws.write(name + ".yaml", scene(layer, width: 200, height: 80))
            let r = try runReel(["still", file, "--at", "0", "-o", ws.file(name + ".png")])
            #expect(r.status == 0, "\(r.stderr)")
            let png = try ImageFile.read(path: ws.file(name + ".png"))
            var out: [Int: [Int]] = [:]
            for y in [24, 26, 27, 37, 38, 39] { out[y] = (30..<38).map { Int(png.rgba[(y * png.width + $0) * 4]) } }
            return out
        }
        let lined = try rows("lined", ", underline: true, strikethrough: true"), plain = try rows("plain", "")
        let expected = [24: 255, 26: 0, 27: 88, 37: 8, 38: 54, 39: 255]
        for (y, v) in expected {
            #expect(lined[y] == Array(repeating: v, count: 8), "row \(y)")
            #expect(plain[y] == Array(repeating: 255, count: 8), "row \(y) without decorations")
        }
    }

    /// `paintOrder: stroke` paints the outline under the fill. DejaVu Sans's "I" (fontTools: its stem
    /// from 201 to 403 units, up to 1493) at 102.4 points (0.05 px a unit): the stem spans x 10.05…20.15,
    /// y 20.4…95.05. A 30-point stroke covers 15 px on either side of the outline: the stem's centre
    /// (15, 57) is the stroke's red over the fill and the fill's blue under it; (30, 57), beside the
    /// stem, is red either way; (40, 57) is past the stroke.
    @Test func paintOrderPutsTheStrokeUnderTheFill() throws {
        let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        guard Self.installed(dejaVu) else { return }
        let ws = try Workspace()
        func pixels(_ order: String) throws -> [[UInt8]] {
            let layer = """
                string: I
                font: DejaVu Sans
                fontSize: 102.4
                foregroundColor: "#0000ff"
                strokeColor: "#ff0000"
                lineWidth: 30
                paintOrder: \(order)
                """
            let file = ws.write(order + ".yaml", scene(layer, width: 200, height: 140))
            let r = try runReel(["still", file, "--at", "0", "-o", ws.file(order + ".png")])
            #expect(r.status == 0, "\(r.stderr)")
            let png = try ImageFile.read(path: ws.file(order + ".png"))
            return [(15, 57), (30, 57), (40, 57)].map { x, y in
                Array(png.rgba[(y * png.width + x) * 4..<(y * png.width + x) * 4 + 3])
            }
        }
        #expect(try pixels("normal") == [[255, 0, 0], [255, 0, 0], [255, 255, 255]])
        #expect(try pixels("stroke") == [[0, 0, 255], [255, 0, 0], [255, 255, 255]])
    }

    /// Text along its layer's path: DejaVu Sans's "I" (its stem from 201 to 403 units, up to 1493) at
    /// 102.4 points (0.05 px a unit) on a line heading down from (100, 20). Its pen starts `pathOffset`
    /// (10) along, at y 30; turned a quarter clockwise, its x runs down and its top faces +x, so the
    /// stem covers y 40.05…50.15 and x 100…174.65. Animated to 60 over the second, at 0.5 the offset
    /// is 35 and the stem 25 px further down (65.05…75.15). Nothing is drawn where the text would lie
    /// without its path (its baseline at y 95, from x 0).
    @Test func textFollowsItsPathAndItsOffsetAnimates() throws {
        let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        guard Self.installed(dejaVu) else { return }
        let ws = try Workspace()
        let layer = """
            string: I
            font: DejaVu Sans
            fontSize: 102.4
            foregroundColor: "#0000ff"
            path: "M 100 20 L 100 200"
            pathOffset: 10
            animations:
              - {type: basic, keyPath: pathOffset, fromValue: 10, toValue: 60, duration: 1, beginTime: 0}
            """
        let file = ws.write("p.yaml", scene(layer, width: 200, height: 140))
        func pixels(at t: String, _ points: [(Int, Int)]) throws -> [[UInt8]] {
            let r = try runReel(["still", file, "--at", t, "-o", ws.file("p\(t).png")])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(!r.stderr.contains("overflows"), "\(r.stderr)")
            let png = try ImageFile.read(path: ws.file("p\(t).png"))
            return points.map { x, y in Array(png.rgba[(y * png.width + x) * 4..<(y * png.width + x) * 4 + 3]) }
        }
        let blue: [UInt8] = [0, 0, 255], white: [UInt8] = [255, 255, 255]
        // The stem's middle, beside it on either side, below the path, and where the text would be.
        let start = try pixels(at: "0", [(130, 45), (130, 38), (130, 52), (95, 45), (15, 57)])
        #expect(start == [blue, white, white, white, white])
        let half = try pixels(at: "0.5", [(130, 70), (130, 45)])
        #expect(half == [blue, white])
    }

    /// `strokeEnd` on a unit wipes it in from its reading start: at 0.5 the left half of the word's
    /// advance box is drawn and nothing right of it. The advance comes from shaping (checked against
    /// uharfbuzz in ShapingReferenceTests): "IIII" in Inter at 60 points.
    @Test func aUnitsStrokeEndRevealsItFromItsStart() throws {
        guard Self.installed(Self.inter) else { return }
        let face = try FontFace(path: Self.inter)
        let width = try face.shape("IIII").reduce(0) { $0 + $1.xAdvance } * 60 / Double(face.unitsPerEm)
        let ws = try Workspace()
        let layer = """
            string: "IIII"
            font: Inter
            fontSize: 60
            foregroundColor: "#000000"
            alignmentMode: left
            unitAnimations:
              - unit: word
                animations:
                  - {type: basic, keyPath: strokeEnd, fromValue: 0, toValue: 1, duration: 1, fillMode: both}
            """
        let file = ws.write("r.yaml", scene(layer, width: 200, height: 80))
        let r = try runReel(["still", file, "--at", "0.5", "-o", ws.file("r.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try ImageFile.read(path: ws.file("r.png"))
        func darkest(_ xs: Range<Int>) -> Int {
            var low = 255
            for y in 0..<png.height { for x in xs { low = min(low, Int(png.rgba[(y * png.width + x) * 4])) } }
            return low
        }
        let cut = width / 2
        #expect(width > 40 && width < 200)
        #expect(darkest(0..<Int(cut.rounded(.down))) < 64)  // the left half is drawn
        #expect(darkest(Int(cut.rounded(.up)) + 1..<200) == 255)  // nothing right of the cut
    }

    /// Text wholly off the frame is left out of the drawing, except where a shadow can bring it into
    /// view: here the text sits above the frame and its red shadow, 110 points lower, inside it.
    @Test func textOffTheFrameStillCastsItsShadowIntoIt() throws {
        guard Self.installed(Self.inter) else { return }
        let ws = try Workspace()
        let file = ws.write(
            "s.yaml",
            """
            width: 200
            height: 100
            fps: 10
            duration: 1
            background: "#ffffff"
            layers:
              - type: text
                position: [100, -60]
                bounds: [200, 40]
                string: HHHH
                font: Inter
                fontSize: 30
                foregroundColor: "#000000"
                shadowOpacity: 1
                shadowRadius: 0
                shadowColor: "#ff0000"
                shadowOffset: [0, 110]
            """)
        let r = try runReel(["still", file, "--at", "0", "-o", ws.file("s.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try ImageFile.read(path: ws.file("s.png"))
        var red = 0
        for i in stride(from: 0, to: png.rgba.count, by: 4) where png.rgba[i] > 200 && png.rgba[i + 1] < 60 { red += 1 }
        #expect(red > 200, "\(red) red pixels")
    }

    @Test func fontsAreInputsAndInfoListsThem() throws {
        guard Self.installed(Self.inter) else { return }
        let ws = try Workspace()
        let file = ws.write("i.yaml", scene("string: Hello\nfont: Inter"))
        let scene = try Reel.loadScene(file)
        #expect(Reel.inputFiles(of: scene, path: file).contains(Self.inter))
        let r = try runReel(["info", file])
        #expect(r.status == 0 && r.stdout.contains("Inter: \(Self.inter)"), "\(r.stdout)")
        #expect(r.stdout.contains("text \"Hello\", Inter 36 pt"), "\(r.stdout)")
    }

    @Test func overflowingTextIsDrawnAndNotedOnce() throws {
        guard Self.installed(Self.inter) else { return }
        let ws = try Workspace()
        let file = ws.write("o.yaml", scene("string: This line is far too long for its box\nfont: Inter", width: 100, height: 60))
        let r = try runReel(["still", file, "--at", "0", "-o", ws.file("o.png")])
        #expect(r.status == 0)
        #expect(r.stderr.components(separatedBy: "overflows its bounds").count == 2, "\(r.stderr)")
    }

    /// The Swift API's `Layer.text` and `Reel.clip(for:)` draw exactly what the same scene file does.
    @Test func theSwiftAPIDrawsWhatTheFileDoes() throws {
        guard Self.installed(Self.inter) else { return }
        let ws = try Workspace()
        let file = ws.write(
            "s.yaml",
            scene("string: \"Swift API\"\nfont: Inter\nfontSize: 30\nforegroundColor: \"#102030\"\nalignmentMode: center"))
        let fromFile = try Reel.load(file)
        var scene = Scene(width: 200, height: 80, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 1)
        scene.background = .white
        var layer = Layer.text(
            "t", string: "Swift API", font: "Inter", fontSize: 30, color: Color(hex: "#102030")!, position: Point(x: 100, y: 40),
            bounds: Rect(x: 0, y: 0, width: 200, height: 80))
        layer.text.alignmentMode = .center
        scene.layers = [layer]
        let fromCode = try Reel.clip(for: scene)
        let a = try fromFile.renderer(threads: 1).frame(for: fromFile.scene, at: 0)
        let b = try fromCode.renderer(threads: 1).frame(for: fromCode.scene, at: 0)
        #expect(a.pixels == b.pixels)
        #expect(a.pixels.contains { $0 < 128 })  // text was drawn
    }
}
