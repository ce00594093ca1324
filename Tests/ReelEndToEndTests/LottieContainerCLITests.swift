// dotLottie archives and Telegram stickers from the command line: rendered alone and as a scene's
// layers, the animation chosen with --animation or the layer's `animation`, the archive's picture drawn,
// `reel info` listing the animations; and a wrong choice refused with the ids that exist.
import Foundation
import ReelMedia
import ReelTestSupport
import Testing

@Suite struct LottieContainerCLITests {
    /// A 100 × 100 composition, 30 fps, one second: a 60 × 60 square of `color` (0–1) at its centre and,
    /// with `picture`, an image layer of the archive's 20 × 20 picture at the top-left corner.
    static func animation(_ color: [Double], picture: Bool = false) -> [UInt8] {
        let asset = picture ? #"{"id": "image_0", "w": 20, "h": 20, "u": "/i/", "p": "img_0.png", "e": 0}"# : ""
        let layer =
            picture
            ? #"{"ty": 2, "ind": 2, "refId": "image_0", "ip": 0, "op": 30, "st": 0, "ks": {"p": {"a": 0, "k": [0, 0]}}},"# : ""
        return Array(
            """
            {"v": "5.7.0", "fr": 30, "ip": 0, "op": 30, "w": 100, "h": 100, "assets": [\(asset)], "layers": [\(layer)
              {"ty": 4, "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {"p": {"a": 0, "k": [50, 50]}}, "shapes": [
                {"ty": "rc", "s": {"a": 0, "k": [60, 60]}, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0}},
                {"ty": "fl", "c": {"a": 0, "k": \(color)}, "o": {"a": 0, "k": 100}}]}]}
            """.utf8)
    }

    func pixel(_ path: String, _ x: Int, _ y: Int) throws -> [UInt8] {
        let png = try ImageFile.read(path: path)
        let o = (y * png.width + x) * 4
        return Array(png.rgba[o..<o + 4])
    }

    @Test func archivesAndStickersRenderAloneAndAsLayers() throws {
        let ws = try Workspace()
        let blue = try ImageFile.encodePNG(
            StillImage(width: 20, height: 20, rgba: Array([[UInt8]](repeating: [0, 0, 255, 255], count: 400).joined())))
        let archive = try TestContainers.zip([
            ("manifest.json", Array(#"{"version": "2", "animations": [{"id": "red"}, {"id": "green"}]}"#.utf8)),
            ("a/red.json", Self.animation([1, 0, 0, 1], picture: true)), ("a/green.json", Self.animation([0, 1, 0, 1])),
            ("i/img_0.png", blue),
        ])
        let lottie = ws.file("two.lottie")
        try Data(archive).write(to: URL(fileURLWithPath: lottie))
        let sticker = ws.file("s.tgs")
        try Data(try TestContainers.gzip(Self.animation([1, 1, 0, 1]))).write(to: URL(fileURLWithPath: sticker))

        // Alone: the manifest's first animation, its picture from the archive at the corner.
        var r = try runReel(["still", lottie, "--at", "0.5", "-o", ws.file("red.png")])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try pixel(ws.file("red.png"), 50, 50) == [255, 0, 0, 255])
        #expect(try pixel(ws.file("red.png"), 10, 10) == [0, 0, 255, 255])
        r = try runReel(["still", lottie, "--animation", "green", "--at", "0.5", "-o", ws.file("green.png")])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try pixel(ws.file("green.png"), 50, 50) == [0, 255, 0, 255])
        #expect(try pixel(ws.file("green.png"), 10, 10) == [0, 0, 0, 0])
        r = try runReel(["render", sticker, "-o", ws.file("s.gif"), "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try runReel(["info", lottie])
        #expect(r.stdout.contains("dotLottie: 2 animation(s): red, green; shown: red"), "\(r.stdout)")

        // As layers of a scene: the archive's second animation beside the sticker.
        let scene = ws.write(
            "scene.yaml",
            """
            width: 200
            height: 100
            fps: 10
            duration: 1
            layers:
              - {name: a, type: lottie, file: two.lottie, animation: green, position: [50, 50], bounds: [100, 100]}
              - {name: b, type: lottie, file: s.tgs, position: [150, 50], bounds: [100, 100]}
            """)
        r = try runReel(["still", scene, "--at", "0.5", "-o", ws.file("scene.png")])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try pixel(ws.file("scene.png"), 50, 50) == [0, 255, 0, 255])
        #expect(try pixel(ws.file("scene.png"), 150, 50) == [255, 255, 0, 255])

        // Wrong choices: an id the manifest lacks, an archive's choice for a file that is none.
        r = try runReel(["render", lottie, "--animation", "blue", "-o", ws.file("x.gif")])
        #expect(
            r.status == 1 && r.stderr.contains("has no animation \"blue\"") && r.stderr.contains("one of red, green"),
            "\(r.stderr)")
        r = try runReel(["render", sticker, "--animation", "a", "-o", ws.file("y.gif")])
        #expect(r.status == 1 && r.stderr.contains("holds one animation"), "\(r.stderr)")
        r = try runReel(["render", scene, "--animation", "green", "-o", ws.file("z.gif")])
        #expect(r.status == 1 && r.stderr.contains("--animation chooses one of a dotLottie archive's animations"), "\(r.stderr)")
        // Files named as containers that are none: told so, not read as a scene.
        let empty = ws.write("empty.lottie", "")
        r = try runReel(["render", empty, "-o", ws.file("e.gif")])
        #expect(r.status == 1 && r.stderr.contains("is not a dotLottie archive (a zip holding manifest.json)"), "\(r.stderr)")
        let text = ws.write("text.tgs", "not a sticker")
        r = try runReel(["render", text, "-o", ws.file("t.gif")])
        #expect(r.status == 1 && r.stderr.contains("is not a Telegram sticker"), "\(r.stderr)")
        // A Lottie's plain JSON named .lottie is read as the JSON it is.
        let plain = ws.write("plain.lottie", String(decoding: Self.animation([0, 1, 0, 1]), as: UTF8.self))
        r = try runReel(["still", plain, "--at", "0.5", "-o", ws.file("plain.png")])
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["x.gif", "y.gif", "z.gif", "e.gif", "t.gif"] {
            #expect(!FileManager.default.fileExists(atPath: ws.file(name)))
        }
    }

    /// A Lottie file's image assets as files beside it (Bodymovin's `images/`): drawn from there, alone
    /// and as a scene's layer; one outside the scene's folder is left out with a note under --sandbox.
    @Test func picturesBesideTheFileAreDrawn() throws {
        let ws = try Workspace()
        try FileManager.default.createDirectory(atPath: ws.file("images"), withIntermediateDirectories: true)
        let green = try ImageFile.encodePNG(
            StillImage(width: 20, height: 20, rgba: Array([[UInt8]](repeating: [0, 200, 0, 255], count: 400).joined())))
        try Data(green).write(to: URL(fileURLWithPath: ws.file("images/a.png")))
        try Data(green).write(to: URL(fileURLWithPath: ws.file("outside.png")))
        try FileManager.default.createDirectory(atPath: ws.file("anim"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: ws.file("anim/images"), withIntermediateDirectories: true)
        try Data(green).write(to: URL(fileURLWithPath: ws.file("anim/images/a.png")))
        let json = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 40, "h": 40, "assets": [
               {"id": "in", "w": 20, "h": 20, "u": "images/", "p": "a.png", "e": 0},
               {"id": "out", "w": 20, "h": 20, "u": "../", "p": "outside.png", "e": 0}],
             "layers": [{"ty": 2, "ind": 1, "refId": "in", "ip": 0, "op": 10, "st": 0, "ks": {"p": {"a": 0, "k": [0, 0]}}},
                        {"ty": 2, "ind": 2, "refId": "out", "ip": 0, "op": 10, "st": 0, "ks": {"p": {"a": 0, "k": [20, 20]}}}]}
            """
        let anim = ws.write("anim/anim.json", json)
        var r = try runReel(["still", anim, "-o", ws.file("o.png")])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try pixel(ws.file("o.png"), 5, 5) == [0, 200, 0, 255] && pixel(ws.file("o.png"), 30, 30) == [0, 200, 0, 255])
        r = try runReel(["still", anim, "--sandbox", "-o", ws.file("s.png")])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try pixel(ws.file("s.png"), 5, 5) == [0, 200, 0, 255] && pixel(ws.file("s.png"), 30, 30) == [0, 0, 0, 0])
        #expect(r.stderr.contains("layers[1]: an image layer whose picture is neither embedded"), "\(r.stderr)")
        // In a scene: its images are read from the Lottie file's folder.
        let scene = ws.write(
            "scene.yaml",
            "width: 40\nheight: 40\nfps: 10\nduration: 1\nlayers:\n  - {name: a, type: lottie, file: anim/anim.json}\n")
        r = try runReel(["still", scene, "-o", ws.file("scene.png")])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try pixel(ws.file("scene.png"), 5, 5) == [0, 200, 0, 255])
    }
}
