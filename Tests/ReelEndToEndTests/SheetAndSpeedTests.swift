// `reel sheet`'s grid of frames labelled with their times, and `--speed` slowing a clip without dropped or repeated frames.
import Foundation
import Reel
import ReelMedia
import ReelScene
import ReelTestSupport
import Testing

/// `reel sheet`: a grid of frames labelled with their times; `--speed`: slow motion without dropped or
/// repeated frames.
@Suite struct SheetAndSpeedTests {
    /// A bar moving right over 1 s at 10 fps, white on black.
    static let bar = """
        {"width": 40, "height": 20, "fps": 10, "duration": 1, "background": "#000000",
         "layers": [{"name": "bar", "position": [5, 10], "bounds": [4, 20], "backgroundColor": "#ffffff",
           "animations": [{"keyPath": "position.x", "fromValue": 5, "toValue": 35, "duration": 1}]}]}
        """

    @Test func evenTimesAreRealFrameTimes() throws {
        let scene = try SceneDecoder.decode(Array(Self.bar.utf8), file: "bar.json")
        // 10 frames (0…0.9 s); 4 spread evenly: indices 0, 3, 6, 9.
        #expect(ContactSheet.evenTimes(count: 4, scene: scene) == [0, 0.3, 0.6, 0.9])
        #expect(ContactSheet.evenTimes(count: 50, scene: scene).count == 10)  // no more than the clip has
        #expect(
            ContactSheet.label(0.3) == "0.3 s" && ContactSheet.label(1) == "1 s" && ContactSheet.label(0.0333333) == "0.033 s")
    }

    @Test func sheetHoldsTheFramesInAGrid() throws {
        let ws = try Workspace()
        let scene = ws.write("bar.json", Self.bar)
        let r = try runReel(["sheet", scene, "-o", ws.file("s.png"), "--at", "0,0.5,0.9", "--columns", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let sheet = try ImageFile.read(path: ws.file("s.png"))
        // Layout for 40×20 frames with the 1× font: pad 4, label 9; 2 columns, 2 rows.
        #expect(sheet.width == 2 * (40 + 4) + 4 && sheet.height == 2 * (20 + 4 + 9) + 4)
        func px(_ x: Int, _ y: Int) -> [UInt8] {
            Array(sheet.rgba[((y * sheet.width + x) * 4)..<((y * sheet.width + x) * 4 + 3)])
        }
        // Each cell is the frame: the bar's centre at x = 5 + 30t, on black.
        #expect(px(4 + 5, 4 + 10) == [255, 255, 255])  // t = 0, first cell
        #expect(px(4 + 20, 4 + 10) == [0, 0, 0])
        #expect(px(48 + 20, 4 + 10) == [255, 255, 255])  // t = 0.5: x = 20, second cell
        #expect(px(4 + 32, 37 + 10) == [255, 255, 255])  // t = 0.9: x = 32, second row
        // The label under the first cell is dark text on the light sheet.
        let label = (4 + 20 + 1)..<(4 + 20 + 8)
        #expect(label.contains { y in (4..<30).contains { px($0, y) == [0x30, 0x30, 0x30] } })
        // Bad input.
        let both = try runReel(["sheet", scene, "-o", ws.file("t.png"), "--at", "0", "--count", "3"])
        #expect(both.status != 0 && both.stderr.contains("not both"))
        // `--frames` is a range (render's); the sheet's count says so instead of taking it.
        let old = try runReel(["sheet", scene, "-o", ws.file("t.png"), "--frames", "3"])
        #expect(old.status != 0 && old.stderr.contains("sheet takes --count 3"), "\(old.stderr)")
        let bad = try runReel(["sheet", scene, "-o", ws.file("t.png"), "--at", "0,x"])
        #expect(bad.status != 0 && bad.stderr.contains("'x' is not a time"))
        #expect(ws.listing() == ["bar.json", "s.png"])
    }

    @Test func speedSlowsTheClipWithoutDroppingFrames() throws {
        let ws = try Workspace()
        let scene = ws.write("bar.json", Self.bar)
        let r = try runReel(["render", scene, "-o", ws.file("slow.gif"), "--speed", "0.25", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        // Four times as long at the same 10 fps: 40 frames, each sampled at scene time t/4.
        let frames = try VideoReader(path: ws.file("slow.gif")).decodeAll()
        #expect(frames.count == 40)
        var slow = try Reel.load(scene, overrides: SceneOverrides(speed: 0.25)).scene
        #expect(slow.duration == 4 && slow.frameCount == 40)
        // Frame 4k of the slow clip is frame k of the normal one.
        let normal = try Reel.load(scene).scene
        slow.background = normal.background
        for k in [0, 3, 7] {
            #expect(
                slow.sample(at: Double(4 * k) / 10).layers[0].position == normal.sample(at: Double(k) / 10).layers[0].position)
        }
        let zero = try runReel(["render", scene, "-o", ws.file("x.gif"), "--speed", "0"])
        #expect(zero.status != 0 && zero.stderr.contains("--speed must be in 0.001…1000"))
    }
}
