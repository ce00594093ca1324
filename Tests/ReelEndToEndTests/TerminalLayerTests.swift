// `type: terminal` layers end to end: the frame each event first shows on (by hand), the cursor, a
// recording rendered alone, scene-file and recording errors, and hostile recordings.
import Foundation
import Reel
import ReelMedia
import ReelScene
import ReelTerminal
import ReelTestSupport
import Testing

@Suite struct TerminalLayerTests {
    /// The dark theme's palette colours 1 (red) and 2 (green), as docs/scene-format.md gives them.
    static let red: [UInt8] = [0xE0, 0x64, 0x71], green: [UInt8] = [0x94, 0xC4, 0x7A]
    static let background: [UInt8] = [0x17, 0x1A, 0x21]

    /// One row of four 10 × 20 cells; an event at 0.3 s paints cell 0 red, one at 5.3 s cell 1 green.
    static let cast = """
        {"version": 2, "width": 4, "height": 1}
        [0.3, "o", "\\u001b[41m \\u001b[0m"]
        [5.3, "o", "\\u001b[42m \\u001b[0m"]
        """

    func pixel(_ path: String, cell: Int) throws -> [UInt8] {
        let png = try ImageFile.read(path: path)
        let o = (10 * png.width + cell * 10 + 5) * 4
        return Array(png.rgba[o..<o + 3])
    }

    /// With idleTimeLimit 1 the 5 s pause lasts 1 s: the second event plays at 1.3 s. The layer begins at
    /// 0.5 s at speed 2, so recording time r shows at clip time 0.5 + r / 2: 0.65 s (frame 13 at 20 fps)
    /// and 1.15 s (frame 23), each exactly on its frame, the frame before without it.
    @Test func eventsLandOnTheFramesTheirTimesSelect() throws {
        let ws = try Workspace()
        _ = ws.write("s.cast", Self.cast)
        let scene = ws.write(
            "scene.json",
            """
            {"width": 40, "height": 20, "fps": 20, "duration": 1.5,
             "layers": [{"name": "t", "type": "terminal", "contents": "s.cast", "bounds": [40, 20], "position": [20, 10],
                         "idleTimeLimit": 1, "beginTime": 0.5, "speed": 2, "cursor": "none"}]}
            """)
        let r = try runReel(["render", scene, "-o", ws.file("frames") + "/", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        func frame(_ k: Int) -> String { ws.file(String(format: "frames/frame_%05d.png", k)) }
        #expect(try pixel(frame(12), cell: 0) == Self.background)
        #expect(try pixel(frame(13), cell: 0) == Self.red)
        #expect(try pixel(frame(22), cell: 1) == Self.background)
        #expect(try pixel(frame(23), cell: 1) == Self.green)
        #expect(try pixel(frame(29), cell: 1) == Self.green)
    }

    /// The block cursor covers its cell in the cursor colour (the dark theme's #f2f4f7); with cursorBlink it
    /// shows in the first half of each second of the layer's time only.
    @Test func theCursorIsDrawnWhereThePlayerLeftIt() throws {
        let ws = try Workspace()
        _ = ws.write("s.cast", "{\"version\": 2, \"width\": 4, \"height\": 1}\n[0.1, \"o\", \"\\u001b[3G\"]\n")
        let scene = ws.write(
            "scene.json",
            """
            {"width": 40, "height": 20, "fps": 4, "duration": 1,
             "layers": [{"name": "t", "type": "terminal", "contents": "s.cast", "bounds": [40, 20], "position": [20, 10],
                         "cursorBlink": true}]}
            """)
        let r = try runReel(["render", scene, "-o", ws.file("frames") + "/", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        let cursor: [UInt8] = [0xF2, 0xF4, 0xF7]
        // Frame 0: before the event, the cursor at column 0; frame 1 (0.25 s): at column 2 (ESC[3G).
        #expect(try pixel(ws.file("frames/frame_00000.png"), cell: 0) == cursor)
        #expect(try pixel(ws.file("frames/frame_00001.png"), cell: 2) == cursor)
        #expect(try pixel(ws.file("frames/frame_00001.png"), cell: 0) == Self.background)
        // Frame 2 (0.5 s) and 3 (0.75 s): the blink's dark half.
        #expect(try pixel(ws.file("frames/frame_00002.png"), cell: 2) == Self.background)
    }

    /// A recording alone at a size with less than a pixel a cell: the natural grid scaled into it. Four
    /// cells at 14 pt make a 62 × 45 canvas; at 4 × 2 pixels (0.0444×) a cell is 0.37 × 0.72 px, and even
    /// one whole pixel a cell (6 × 3 with the padding) would not fit. Cell 0 (x 0.62–0.99, y 0.62–1.34)
    /// turns red at 0.3 s: pixel (0, 0) holds about a seventh of it, redder than it was (the block
    /// cursor's grey at first, white-ish: red and blue alike).
    @Test func aRecordingAloneSmallerThanAPixelACellIsScaled() throws {
        let ws = try Workspace()
        let cast = ws.write("s.cast", Self.cast)
        let r = try runReel(["render", cast, "-o", ws.file("tiny") + "/", "--size", "4x2", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: ws.file("tiny")).sorted()
        // 5.3 s played and 2 s held, at 30 fps.
        #expect(names.count == 219, "\(names.count)")
        let first = try ImageFile.read(path: ws.file("tiny/" + names[0]))
        let later = try ImageFile.read(path: ws.file("tiny/" + names[30]))
        #expect(first.width == 4 && first.height == 2)
        func redness(_ png: StillImage) -> Int { Int(png.rgba[0]) - Int(png.rgba[2]) }
        #expect(redness(later) > redness(first) + 8, "\(first.rgba[0..<4]) \(later.rgba[0..<4])")
    }

    /// An emoji is a wide character (two cells, as libvterm counts it) drawn in colour by the text
    /// engine's fallback (Noto Color Emoji): 😀's yellow face inside its two 20-pt cells, none in the
    /// cells after it (an "x" in the terminal's grey-white, then blank). Skips without the emoji font.
    @Test func anEmojiFillsItsTwoCellsInColour() throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf") else {
            print("skipped: fonts-noto-color-emoji is not installed")
            return
        }
        let ws = try Workspace()
        _ = ws.write("s.cast", "{\"version\": 2, \"width\": 4, \"height\": 1}\n[0.1, \"o\", \"\u{1F600}x\"]\n")
        let scene = ws.write(
            "scene.json",
            """
            {"width": 80, "height": 20, "fps": 4, "duration": 0.5,
             "layers": [{"name": "t", "type": "terminal", "contents": "s.cast", "bounds": [80, 20], "position": [40, 10],
                         "cursor": "none"}]}
            """)
        let r = try runReel(["render", scene, "-o", ws.file("frames") + "/", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        let png = try ImageFile.read(path: ws.file("frames/frame_00001.png"))
        func yellow(_ x: Int, _ y: Int) -> Bool {
            let o = (y * png.width + x) * 4
            let (red, green, blue) = (Int(png.rgba[o]), Int(png.rgba[o + 1]), Int(png.rgba[o + 2]))
            return red > 180 && green > 130 && blue < 90
        }
        let columns = { (xs: Range<Int>) in xs.flatMap { x in (0..<20).map { (x, $0) } }.filter { yellow($0.0, $0.1) }.count }
        #expect(columns(0..<40) > 40, "\(columns(0..<40)) yellow pixels in the emoji's cells")
        #expect(columns(40..<80) == 0)
    }

    /// A program's cursor look (DECSCUSR) wins over the layer's block that blinks: a steady bar (6) at the
    /// cell's left edge, 1.25 pt wide (an eighth of the 10-pt cell), shown in the blink's dark half too;
    /// a blinking underline (3), 2.5 pt high along the bottom of the 20-pt row, hidden in its dark half;
    /// then 0, the terminal's own: the layer's block again. Pixels wholly inside or outside each shape.
    @Test func theProgramsCursorLookWins() throws {
        let ws = try Workspace()
        _ = ws.write(
            "s.cast",
            """
            {"version": 2, "width": 4, "height": 1}
            [0.1, "o", "\\u001b[3G\\u001b[6 q"]
            [1.1, "o", "\\u001b[3 q"]
            [2.1, "o", "\\u001b[0 q"]
            """)
        let scene = ws.write(
            "scene.json",
            """
            {"width": 40, "height": 20, "fps": 4, "duration": 3,
             "layers": [{"name": "t", "type": "terminal", "contents": "s.cast", "bounds": [40, 20], "position": [20, 10],
                         "cursorBlink": true}]}
            """)
        let r = try runReel(["render", scene, "-o", ws.file("frames") + "/", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        let cursor: [UInt8] = [0xF2, 0xF4, 0xF7]
        func at(_ k: Int, _ x: Int, _ y: Int) throws -> [UInt8] {
            let png = try ImageFile.read(path: ws.file(String(format: "frames/frame_%05d.png", k)))
            let o = (y * png.width + x) * 4
            return Array(png.rgba[o..<o + 3])
        }
        // 0.25 s and 0.75 s (the layer's blink would hide it): the bar, column 20 only.
        for k in [1, 3] {
            #expect(try at(k, 20, 10) == cursor, "frame \(k)")
            #expect(try at(k, 22, 10) == Self.background, "frame \(k)")
        }
        // 1.25 s: the underline, rows 18 and 19 only; 1.75 s: its dark half.
        #expect(try at(5, 25, 18) == cursor)
        #expect(try at(5, 25, 16) == Self.background)
        #expect(try at(7, 25, 18) == Self.background)
        // 2.25 s: the layer's block; 2.75 s: its dark half.
        #expect(try at(9, 25, 10) == cursor)
        #expect(try at(11, 25, 10) == Self.background)
    }

    /// A recording alone: a grid of its size with one em of padding at 14 pt, lasting its length and 2 s.
    @Test func aRecordingRendersAlone() throws {
        let ws = try Workspace()
        let cast = ws.write("s.cast", Self.cast)
        let r = try runReel(["render", cast, "-o", ws.file("s.gif"), "--idle-time-limit", "1", "--theme", "light", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        let frames = try VideoReader(path: ws.file("s.gif")).decodeAll()
        let last = try #require(frames.last)
        // 1.3 s played and 2 s held: 330 cs in all, the last change at 1.3 s.
        let delays = gifLoopAndDelays([UInt8](try Data(contentsOf: URL(fileURLWithPath: ws.file("s.gif"))))).delays
        #expect(delays.reduce(0, +) == 330, "\(delays)")
        #expect(abs(last.time - 1.3) < 0.02, "\(last.time)")
        // Its light background, the theme asked for, at the top-left corner (in the padding).
        let corner = Array(last.rgba[0..<3]).map { Int($0) }
        #expect(abs(corner[0] - 0xFA) <= 8 && abs(corner[1] - 0xFA) <= 8 && abs(corner[2] - 0xF8) <= 8, "\(corner)")
        let still = try runReel(["still", cast, "--at", "1", "-o", ws.file("s.png"), "--font-size", "20"])
        #expect(still.status == 0, "\(still.stderr)")
        let png = try ImageFile.read(path: ws.file("s.png"))
        // 4 columns of DejaVu Sans Mono's advance (1233/2048 em) at 20 pt, 12.04 rounded to whole pixels,
        // and 20 pt of padding each side.
        #expect(png.width == 4 * 12 + 40, "\(png.width)")
        let bad = try runReel(["render", cast, "-o", ws.file("x.gif"), "--theme", "solarised"])
        #expect(bad.status != 0 && bad.stderr.contains("\"solarised\" is not a theme"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.file("x.gif")))
        let notCast = ws.write("scene.json", smallScene)
        let misplaced = try runReel(["render", notCast, "-o", ws.file("y.gif"), "--theme", "dark"])
        #expect(
            misplaced.status != 0 && misplaced.stderr.contains("--theme applies to a terminal recording"), "\(misplaced.stderr)")
    }

    /// A preset file and a manifest's output give a recording its looks as the options do (`theme`,
    /// `fontSize`, `idleTimeLimit`); a theme that is none, or those keys for a scene file, are refused at
    /// their line with nothing written.
    @Test func presetsAndManifestsGiveARecordingItsLooks() throws {
        let ws = try Workspace()
        let cast = ws.write("s.cast", Self.cast)
        let looks = ws.write("looks.yaml", "description: \"light, short pauses\"\ntheme: light\nidleTimeLimit: 1\n")
        let r = try runReel(["render", cast, "-o", ws.file("p.gif"), "--preset", looks, "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        // 1.3 s played (the 5 s pause cut to 1 s) and 2 s held; the light theme's background in the corner.
        let delays = gifLoopAndDelays([UInt8](try Data(contentsOf: URL(fileURLWithPath: ws.file("p.gif"))))).delays
        #expect(delays.reduce(0, +) == 330, "\(delays)")
        let first = try #require(try VideoReader(path: ws.file("p.gif")).decodeAll().first)
        let corner = Array(first.rgba[0..<3]).map { Int($0) }
        #expect(abs(corner[0] - 0xFA) <= 8 && abs(corner[1] - 0xFA) <= 8 && abs(corner[2] - 0xF8) <= 8, "\(corner)")
        // Without the preset: 7.3 s, dark.
        let plain = try runReel(["render", cast, "-o", ws.file("d.gif"), "--quiet"])
        try #require(plain.status == 0, "\(plain.stderr)")
        let plainDelays = gifLoopAndDelays([UInt8](try Data(contentsOf: URL(fileURLWithPath: ws.file("d.gif"))))).delays
        #expect(plainDelays.reduce(0, +) == 730, "\(plainDelays)")

        // A manifest's output: 4 columns at 20 pt (12.04 px rounded to 12) and 20 pt of padding each side.
        _ = ws.write(
            "jobs.yaml",
            """
            jobs:
              - scene: s.cast
                outputs:
                  - {path: out/m.gif, fontSize: 20, theme: light}
            """)
        let b = try runReel(["batch", ws.file("jobs.yaml"), "--quiet"])
        try #require(b.status == 0, "\(b.stderr)\(b.stdout)")
        let m = try #require(try VideoReader(path: ws.file("out/m.gif")).decodeAll().first)
        #expect(m.width == 4 * 12 + 40, "\(m.width)")
        let mCorner = Array(m.rgba[0..<3]).map { Int($0) }
        #expect(abs(mCorner[0] - 0xFA) <= 8 && abs(mCorner[2] - 0xF8) <= 8, "\(mCorner)")

        let bad = ws.write("bad.yaml", "description: \"bad\"\ntheme: solarised\n")
        let refused = try runReel(["render", cast, "-o", ws.file("x.gif"), "--preset", bad])
        #expect(
            refused.status == 1 && refused.stderr.contains("bad.yaml:2:8: theme: \"solarised\" is not a theme"),
            "\(refused.stderr)")
        let scene = ws.write("scene.json", smallScene)
        let misplaced = try runReel(["render", scene, "-o", ws.file("y.gif"), "--preset", looks])
        #expect(
            misplaced.status == 1
                && misplaced.stderr.contains("looks.yaml:2:8: theme: theme applies to a terminal recording rendered alone"),
            "\(misplaced.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.file("x.gif")))
        #expect(!FileManager.default.fileExists(atPath: ws.file("y.gif")))
    }

    /// A recording alone at a size is laid out in its pixels, its cells whole pixels: 30 × 8 cells of
    /// DejaVu Sans Mono (advance 1233/2048 em, line 2384/2048 em) at 14 pt with 14 pt of padding make a
    /// natural canvas of 281 × 159 (280.86 × 158.38 rounded up), fitted into 640 × 360 at
    /// min(640/281, 360/159) = 2.26415: cells of 19.08 × 36.90 px, rounded to 19 × 37, padding 32 px, a grid
    /// of 634 × 360 placed 3 px from the left. Once the screen is full, each line printed scrolls it by
    /// exactly 37 rows of pixels: a row's pixels are the row below's a frame before, byte for byte.
    @Test func aRecordingAloneScrollsByWholePixels() throws {
        let ws = try Workspace()
        var cast = "{\"version\": 2, \"width\": 30, \"height\": 8}\n"
        for k in 1...20 {
            cast +=
                "[\(Double(k) / 10), \"o\", \"\\u001b[3\(k % 7 + 1)mline \(k) gjy|\(String(repeating: "#", count: k))\\u001b[0m\\r\\n\"]\n"
        }
        let file = ws.write("s.cast", cast)
        let r = try runReel(["render", file, "-o", ws.file("frames") + "/", "--size", "640x360", "--fps", "10", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        let a = try ImageFile.read(path: ws.file("frames/frame_00012.png"))
        let b = try ImageFile.read(path: ws.file("frames/frame_00013.png"))
        #expect(a.width == 640 && a.height == 360)
        // Frame 13 (line 13 printed at 1.3 s) is frame 12 moved up a row: rows 0–5 of the grid (y 32 to
        // 254) against the same rows 37 px lower a frame before. Shifts of 36 and 38 do not match.
        func rows(_ image: StillImage, from y: Int, count: Int) -> ArraySlice<UInt8> {
            image.rgba[(y * image.width * 4)..<((y + count) * image.width * 4)]
        }
        #expect(rows(b, from: 32, count: 6 * 37) == rows(a, from: 32 + 37, count: 6 * 37))
        #expect(rows(b, from: 32, count: 6 * 37) != rows(a, from: 32 + 36, count: 6 * 37))
        #expect(rows(b, from: 32, count: 6 * 37) != rows(a, from: 32 + 38, count: 6 * 37))
        // The background shows 3 px left of the grid's padding and right of it.
        #expect(Array(b.rgba[(100 * 640 + 1) * 4..<(100 * 640 + 1) * 4 + 3]) == Self.background)
    }

    /// Rows that land on whole pixels are drawn once as pictures and copied (TerminalRowPictures.swift);
    /// a layer whose rounded corners reach into its grid draws them as outlines. The two agree within
    /// the rasterizer's exact-area rounding: the same outlines, moved by whole pixels. 16 × 2 cells of
    /// 10 × 20 px on a layer at (20, 10), no padding; corners of 4 pt make the second draw outlines
    /// (the 4 × 4 corners themselves left out of the comparison).
    @Test func rowsOnWholePixelsArePicturesOfTheirOutlines() throws {
        let ws = try Workspace()
        _ = ws.write(
            "s.cast",
            """
            {"version": 2, "width": 16, "height": 2}
            [0.1, "o", "\\u001b[1;32mok\\u001b[0m make \\u001b[44mall\\u001b[0m\\r\\n"]
            [0.2, "o", "\\u001b[33mwarn\\u001b[0m: 42 nm"]
            """)
        func draw(cornerRadius: Int) throws -> StillImage {
            let scene = ws.write(
                "scene\(cornerRadius).json",
                """
                {"width": 200, "height": 60, "fps": 1, "duration": 1, "background": "#ffffff",
                 "layers": [{"name": "t", "type": "terminal", "contents": "s.cast", "bounds": [160, 40], "position": [100, 30],
                             "padding": 0, "cursor": "none", "cornerRadius": \(cornerRadius)}]}
                """)
            let out = ws.file("still\(cornerRadius).png")
            let r = try runReel(["still", scene, "--at", "0.5", "-o", out])
            try #require(r.status == 0, "\(r.stderr)")
            return try ImageFile.read(path: out)
        }
        let pictures = try draw(cornerRadius: 0), outlines = try draw(cornerRadius: 4)
        var worst = 0, inked = 0
        for y in 10..<50 {
            for x in 20..<180 {
                let corner = (x < 24 || x >= 176) && (y < 14 || y >= 46)
                guard !corner else { continue }
                let o = (y * 200 + x) * 4
                for c in 0..<3 { worst = max(worst, abs(Int(pictures.rgba[o + c]) - Int(outlines.rgba[o + c]))) }
                if Array(pictures.rgba[o..<o + 3]) != Self.background { inked += 1 }
            }
        }
        #expect(Double(worst) <= Tolerance.exactAreaLevels, "worst difference \(worst) levels")
        // Text and a blue cell background drawn, not an empty grid compared with another.
        #expect(inked > 300, "\(inked) pixels not the background")
    }

    /// A sublayer placed by cells covers them exactly (cells of 10 × 20 px), and `cells` animates: from
    /// column 0 to column 3 over 1 s, at 0.5 s it spans columns 1.5 to 2.5 (x 15 to 25 px).
    @Test func sublayersArePlacedByCells() throws {
        let ws = try Workspace()
        _ = ws.write("s.cast", Self.cast)
        let scene = ws.write(
            "scene.json",
            """
            {"width": 40, "height": 40, "fps": 2, "duration": 1,
             "layers": [{"name": "t", "type": "terminal", "contents": "s.cast", "rows": 2, "bounds": [40, 40], "position": [20, 20],
                         "cursor": "none", "sublayers": [
               {"name": "still", "cells": [1, 1, 2, 1], "backgroundColor": "#ff0000"},
               {"name": "moving", "cells": [0, 0, 1, 1], "backgroundColor": "#00ff00",
                "animations": [{"keyPath": "cells", "fromValue": [0, 0, 1, 1], "toValue": [3, 0, 1, 1], "duration": 1}]}]}]}
            """)
        let r = try runReel(["render", scene, "-o", ws.file("frames") + "/", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        func at(_ frame: Int, _ x: Int, _ y: Int) throws -> [UInt8] {
            let png = try ImageFile.read(path: ws.file(String(format: "frames/frame_%05d.png", frame)))
            let o = (y * png.width + x) * 4
            return Array(png.rgba[o..<o + 3])
        }
        let red: [UInt8] = [255, 0, 0], green: [UInt8] = [0, 255, 0]
        #expect(
            try at(0, 15, 30) == red && at(0, 25, 30) == red && at(0, 5, 30) == Self.background
                && at(0, 35, 30) == Self.background)
        #expect(try at(0, 5, 10) == green && at(0, 15, 10) == Self.background)
        #expect(try at(1, 20, 10) == green && at(1, 12, 10) == Self.background && at(1, 28, 10) == Self.background)
        // Cells on a layer that is not a terminal: refused where they are written.
        let bad = ws.write(
            "bad.json",
            "{\"width\": 40, \"height\": 40, \"fps\": 2, \"duration\": 1,\n \"layers\": [{\"name\": \"p\", \"sublayers\": [{\"cells\": [0, 0, 1, 1]}]}]}"
        )
        let b = try runReel(["render", bad, "-o", ws.file("b.gif")])
        #expect(
            b.status != 0 && b.stderr.contains("bad.json:2:") && b.stderr.contains("\"p\" is not a terminal layer"), "\(b.stderr)"
        )
    }

    /// The scene reader's grid limits are the recording reader's (the two modules do not see each other).
    @Test func gridLimitsAgree() {
        #expect(TerminalProperties.maximumColumns == TerminalLimits.maximumColumns)
        #expect(TerminalProperties.maximumRows == TerminalLimits.maximumRows)
        #expect(TerminalProperties.maximumCells == TerminalLimits.maximumCells)
    }

    /// Played backwards (autoreverses) the recording's screens come back in reverse, exactly: the second
    /// half of the clip mirrors the first.
    @Test func aRecordingPlaysBackwards() throws {
        let ws = try Workspace()
        _ = ws.write("s.cast", Self.cast)
        let scene = ws.write(
            "scene.json",
            """
            {"width": 40, "height": 20, "fps": 10, "duration": 2,
             "layers": [{"name": "t", "type": "terminal", "contents": "s.cast", "bounds": [40, 20], "position": [20, 10],
                         "idleTimeLimit": 0.5, "duration": 1, "autoreverses": true, "cursor": "none"}]}
            """)
        let r = try runReel(["render", scene, "-o", ws.file("frames") + "/", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        // Events at 0.3 and (idle-limited) 0.8 s; reversed, frame 20 − k shows what frame k showed.
        for k in [2, 3, 7, 8, 10] {
            for cell in [0, 1] {
                #expect(
                    try pixel(ws.file(String(format: "frames/frame_%05d.png", k)), cell: cell)
                        == (try pixel(ws.file(String(format: "frames/frame_%05d.png", 20 - k)), cell: cell)), "frame \(k)")
            }
        }
        #expect(try pixel(ws.file("frames/frame_00003.png"), cell: 0) == Self.red)
        #expect(try pixel(ws.file("frames/frame_00008.png"), cell: 1) == Self.green)
        #expect(try pixel(ws.file("frames/frame_00017.png"), cell: 0) == Self.red)
    }

    @Test func sceneErrorsNameTheirPlace() throws {
        let ws = try Workspace()
        _ = ws.write("s.cast", Self.cast)
        _ = ws.write("bad.cast", "{\"version\": 2, \"width\": 4, \"height\": 1}\n[-2, \"o\", \"x\"]\n")
        let cases: [(String, String)] = [
            ("\"contents\": \"s.cast\", \"theme\": \"blue\"", "\"blue\" is not a theme"),
            ("\"contents\": \"s.cast\", \"startAt\": 9", "startAt must be a second of the recording in 0…5.3"),
            ("\"contents\": \"s.cast\", \"columns\": 0", "columns is a whole number of cells"),
            ("\"contents\": \"s.cast\", \"cursor\": \"beam\"", "\"beam\" is not one of block, bar, underline, none"),
            ("\"contents\": \"s.cast\", \"theme\": \"recording\"", "the recording saved no colours"),
            ("\"contents\": \"s.cast\", \"fontFamily\": \"No Such Mono\"", "no font \"No Such Mono\""),
            ("\"contents\": \"missing.cast\"", "missing.cast"),
            ("\"contents\": \"bad.cast\"", "bad.cast:2:2"),
            ("\"theme\": \"dark\"", "needs the recording it plays"),
        ]
        for (keys, message) in cases {
            let scene = ws.write(
                "scene.json",
                "{\"width\": 40, \"height\": 20, \"fps\": 10, \"duration\": 1,\n \"layers\": [{\"name\": \"t\", \"type\": \"terminal\", \(keys)}]}"
            )
            let r = try runReel(["render", scene, "-o", ws.file("o.gif")])
            #expect(r.status != 0 && r.stderr.contains(message), "\(keys): \(r.stderr)")
            #expect(r.stderr.contains("scene.json:2:") || message.hasPrefix("bad.cast"), "\(keys): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: ws.file("o.gif")))
        }
    }

    /// A recording past the size limit is refused from its size (a sparse file: nothing is read); an
    /// escape-sequence flood of 8 MiB plays within its limits.
    @Test func hostileRecordings() throws {
        let ws = try Workspace()
        let big = ws.file("big.cast")
        _ = FileManager.default.createFile(atPath: big, contents: Data("{\"version\": 2, \"width\": 4, \"height\": 1}\n".utf8))
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: 65 << 20)
        try handle.close()
        let r = try runReel(["still", big, "--at", "0", "-o", ws.file("big.png")])
        #expect(r.status != 0 && r.stderr.contains("above the limit of 64 MiB for a terminal recording"), "\(r.stderr)")
        var flood = "{\"version\": 2, \"width\": 80, \"height\": 24}\n"
        let chunk = String(
            repeating: "\\u001b[38;5;196m\\u001b[2J\\u001b[999;999H\\u001b[?1049h\\u001b[?1049l\\u001b[3;5r", count: 2_000)
        for i in 0..<40 { flood += "[\(Double(i) / 10), \"o\", \"\(chunk)\"]\n" }
        let cast = ws.write("flood.cast", flood)
        let f = try runReel(["still", cast, "--at", "10", "-o", ws.file("flood.png")])
        #expect(f.status == 0, "\(f.stderr)")
    }
}
