// Lottie slots from the command line: one clip per row of a table filling a Lottie's colour and text
// slots, --var for a Lottie alone, a scene's lottie layer with `slots` (and its scene variables) beside
// one without: each row's values in its clip, the file's defaults elsewhere.
import Foundation
import ReelMedia
import ReelTestSupport
import Testing

@Suite struct LottieSlotsCLITests {
    /// 120 × 60: a 40 × 40 square at (30, 30) filled with the `accent` slot (blue), and the `title` slot's
    /// text ("i", black, DejaVu Sans 24 pt) from x 60 on the baseline at y 40.
    static let animation = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 120, "h": 60,
         "fonts": {"list": [{"fName": "DejaVuSans", "fFamily": "DejaVu Sans", "fStyle": "Book"}]},
         "slots": {"accent": {"p": {"a": 0, "k": [0, 0, 1, 1]}},
                   "title": {"p": {"k": [{"t": 0, "s": {"t": "i", "f": "DejaVuSans", "s": 24, "lh": 28, "j": 0, "fc": [0, 0, 0]}}]}}},
         "layers": [
          {"ty": 5, "ind": 2, "ip": 0, "op": 10, "st": 0, "ks": {"p": {"a": 0, "k": [60, 40]}}, "t": {"d": {"sid": "title"}}},
          {"ty": 4, "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {"p": {"a": 0, "k": [30, 30]}},
           "shapes": [{"ty": "rc", "s": {"a": 0, "k": [40, 40]}, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0}},
                      {"ty": "fl", "c": {"sid": "accent"}, "o": {"a": 0, "k": 100}}]}]}
        """

    /// The first frame of a PNG sequence: the square's centre, and how many pixels of the text's half
    /// (x ≥ 60) are inked (dark).
    func look(_ folder: String) throws -> (centre: [UInt8], inked: Int) {
        let png = try ImageFile.read(path: folder + "/frame_00000.png")
        let o = (30 * png.width + 30) * 4
        var inked = 0
        for y in 0..<png.height {
            for x in 60..<png.width where png.rgba[(y * png.width + x) * 4 + 3] > 128 { inked += 1 }
        }
        return (Array(png.rgba[o..<o + 4]), inked)
    }

    @Test func rowsVariablesAndLayersFillTheSlots() throws {
        let ws = try Workspace()
        _ = ws.write("badge.json", Self.animation)
        _ = ws.write("people.csv", "name,accent,title\nada,#ff0000,Ada Lovelace\ngrace,#00ff00,Grace Hopper\n")
        _ = ws.write(
            "jobs.yaml",
            """
            jobs:
              - scene: badge.json
                rows: people.csv
                outputs: ["out/{name}/"]
            """)
        let b = try runReel(["batch", ws.file("jobs.yaml"), "--quiet"])
        try #require(b.status == 0, "\(b.stderr)\(b.stdout)")
        let plain = try runReel(["render", ws.file("badge.json"), "-o", ws.file("plain") + "/", "--quiet"])
        try #require(plain.status == 0, "\(plain.stderr)")
        let ada = try look(ws.file("out/ada")), grace = try look(ws.file("out/grace")), file = try look(ws.file("plain"))
        #expect(ada.centre == [255, 0, 0, 255] && grace.centre == [0, 255, 0, 255] && file.centre == [0, 0, 255, 255])
        // A name of twelve letters inks many times the pixels of the file's "i".
        #expect(ada.inked > 4 * file.inked && grace.inked > 4 * file.inked, "\(ada.inked) \(grace.inked) \(file.inked)")

        let alone = try runReel([
            "render", ws.file("badge.json"), "--var", "accent=#ffff00", "-o", ws.file("alone") + "/", "--quiet",
        ])
        try #require(alone.status == 0, "\(alone.stderr)")
        #expect(try look(ws.file("alone")).centre == [255, 255, 0, 255])
        // And one frame of it.
        let still = try runReel(["still", ws.file("badge.json"), "--var", "accent=#ff00ff", "-o", ws.file("still.png")])
        try #require(still.status == 0, "\(still.stderr)")
        let frame = try ImageFile.read(path: ws.file("still.png"))
        let centre = (30 * frame.width + 30) * 4
        #expect(Array(frame.rgba[centre..<centre + 4]) == [255, 0, 255, 255])

        // A scene: one layer filling the slot from the scene's variable, one with the file's default.
        let scene = ws.write(
            "scene.yaml",
            """
            width: 240
            height: 60
            fps: 10
            duration: 1
            variables: {tint: "#00ffff"}
            layers:
              - {name: a, type: lottie, file: badge.json, position: [60, 30], slots: {accent: "$tint"}}
              - {name: b, type: lottie, file: badge.json, position: [180, 30]}
            """)
        let r = try runReel(["render", scene, "-o", ws.file("scene") + "/", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        let png = try ImageFile.read(path: ws.file("scene/frame_00000.png"))
        func at(_ x: Int, _ y: Int) -> [UInt8] { Array(png.rgba[(y * png.width + x) * 4..<(y * png.width + x) * 4 + 4]) }
        #expect(at(30, 30) == [0, 255, 255, 255] && at(150, 30) == [0, 0, 255, 255])

        // A cell of the wrong kind names its place in the table; nothing is written for it.
        _ = ws.write("bad.csv", "name,accent\nbob,crimson\n")
        _ = ws.write("bad.yaml", "jobs:\n  - scene: badge.json\n    rows: bad.csv\n    outputs: [\"bad/{name}/\"]\n")
        let bad = try runReel(["batch", ws.file("bad.yaml")])
        #expect(
            bad.status != 0 && bad.stderr.contains("bad.csv:2:5") && bad.stderr.contains("accent is a colour"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.file("bad/bob")))
    }

    /// A dotLottie archive's themes: the animation's initial one ("night", purple) unless --lottie-theme
    /// or a layer's `theme` names another ("day", yellow); `reel info` lists them.
    @Test func archiveThemesFillTheSlots() throws {
        let ws = try Workspace()
        let manifest =
            #"{"version": "2", "animations": [{"id": "badge", "initialTheme": "night"}], "themes": [{"id": "night"}, {"id": "day"}]}"#
        let archive = try TestContainers.zip([
            ("manifest.json", Array(manifest.utf8)), ("a/badge.json", Array(Self.animation.utf8)),
            ("t/night.json", Array(#"{"rules": [{"id": "accent", "type": "Color", "value": [0.5, 0, 0.5, 1]}]}"#.utf8)),
            ("t/day.json", Array(#"{"rules": [{"id": "accent", "type": "Color", "value": [1, 1, 0, 1]}]}"#.utf8)),
        ])
        try Data(archive).write(to: URL(fileURLWithPath: ws.file("badge.lottie")))
        var r = try runReel(["render", ws.file("badge.lottie"), "-o", ws.file("night") + "/", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try look(ws.file("night")).centre == [128, 0, 128, 255])
        r = try runReel(["render", ws.file("badge.lottie"), "--lottie-theme", "day", "-o", ws.file("day") + "/", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try look(ws.file("day")).centre == [255, 255, 0, 255])
        let scene = ws.write(
            "scene.yaml",
            "width: 120\nheight: 60\nfps: 10\nduration: 1\nlayers:\n  - {name: a, type: lottie, file: badge.lottie, theme: day, position: [60, 30]}\n"
        )
        r = try runReel(["render", scene, "-o", ws.file("scene") + "/", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try look(ws.file("scene")).centre == [255, 255, 0, 255])
        r = try runReel(["info", ws.file("badge.lottie")])
        #expect(
            r.stdout.contains("themes: night, day; applied: night") && r.stdout.contains("slots: accent (color"), "\(r.stdout)")
    }
}
