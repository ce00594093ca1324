/// A Lottie animation as a layer of a scene (`type: lottie`, `file:`), and a Lottie file alone through
/// the CLI (told by its content, whatever its name): its layers named under the scene layer, fitted into
/// the bounds, its frames at (f − ip)/fr seconds.
import Foundation
import Reel
import ReelMedia
import ReelScene
import Testing

@Suite struct LottieLayerTests {
    /// 40 × 40 at 10 fps, frames 0…10: a 20 × 20 red square at (0, 0)…(20, 20) moving right by 20
    /// between frames 0 and 10, linearly.
    static let animation = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 40, "h": 40, "layers": [
          {"ty": 4, "nm": "square", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {
             "a": {"a": 0, "k": [0, 0]},
             "p": {"a": 1, "k": [{"t": 0, "s": [0, 0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}},
                                 {"t": 10, "s": [20, 0]}]}},
           "shapes": [{"ty": "rc", "p": {"a": 0, "k": [10, 10]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}},
                      {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]}]}
        """

    @Test func aLottieInsideAScene() throws {
        let ws = try Workspace()
        _ = ws.write("anim.json", Self.animation)
        let file = ws.write(
            "scene.yaml",
            """
            width: 80
            height: 40
            fps: 10
            duration: 1
            background: "#ffffff"
            layers:
              - {name: anim, type: lottie, file: anim.json, position: [40, 20], bounds: [80, 40], contentsGravity: resizeAspect}
            """)
        let clip = try Reel.load(file)
        #expect(clip.scene.layers.find("anim/square") != nil)
        // Centred: the 40 × 40 canvas at x 20…60. At 0.5 s the square is at x 10…30 of it: scene x 30…50.
        let frame = try clip.renderer(threads: 1).frame(for: clip.scene, at: 0.5)
        func red(_ x: Int, _ y: Int) -> Bool {
            let p = frame.pixel(x: x, y: y)
            return p.r == 255 && p.g == 0 && p.b == 0
        }
        #expect(red(31, 10) && red(49, 10) && !red(29, 10) && !red(51, 10))
    }

    /// A Lottie played at a moment of the scene's timeline: beginTime 1, speed 2, repeatCount 2. Its 1 s
    /// runs in 0.5 s of the scene, twice: nothing before 1 s; at 1.25 s it is half way (the square at
    /// x 10…30 of the canvas, 30…50 of the scene) and again at 1.75 s; nothing after 2 s.
    @Test func aLottieAtAMomentOfTheTimeline() throws {
        let ws = try Workspace()
        _ = ws.write("anim.json", Self.animation)
        let file = ws.write(
            "scene.yaml",
            """
            width: 80
            height: 40
            fps: 20
            duration: 3
            background: "#ffffff"
            layers:
              - {name: anim, type: lottie, file: anim.json, position: [40, 20], beginTime: 1, speed: 2, repeatCount: 2}
            """)
        let clip = try Reel.load(file)
        #expect(clip.scene.layers.find("anim")?.timing?.duration == 1)
        let renderer = clip.renderer(threads: 1)
        func red(_ t: Double, _ x: Int) throws -> Bool {
            let p = try renderer.frame(for: clip.scene, at: t).pixel(x: x, y: 10)
            return p.r == 255 && p.g == 0 && p.b == 0
        }
        #expect(try !red(0.5, 25) && !red(0.95, 25))
        #expect(try red(1, 21) && red(1, 39) && !red(1, 41))
        #expect(try red(1.25, 31) && red(1.25, 49) && !red(1.25, 29) && !red(1.25, 51))
        #expect(try red(1.75, 31) && red(1.75, 49) && !red(1.75, 29))
        #expect(try !red(2.05, 35) && !red(2.5, 35))
    }

    /// `reel info` on a Lottie file lists what it uses and whether Reel draws it.
    @Test func infoListsWhatTheFileUses() throws {
        let ws = try Workspace()
        let anim = ws.write("anim.json", Self.animation)
        let r = try runReel(["info", anim])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("lottie: Bodymovin 5.7.0, 10 fps, frames 0–10, 40×40"), "\(r.stdout)")
        #expect(r.stdout.contains("drawn   shape:rc") && r.stdout.contains("first at layers[0].shapes[0]"), "\(r.stdout)")
        #expect(r.stdout.contains("Reel draws every feature this file uses"), "\(r.stdout)")
    }

    /// A composition too big to render at its own size is one error naming the file and the fix (not
    /// an option the user did not give), and renders at a --width that fits.
    @Test func aHugeCompositionNamesTheFixThatWorks() throws {
        let ws = try Workspace()
        let anim = ws.write("big.json", #"{"v": "5", "fr": 30, "ip": 0, "op": 30, "w": 100000, "h": 100000, "layers": []}"#)
        let r = try runReel(["still", anim, "--at", "0", "-o", ws.file("big.png")])
        #expect(r.status == 1 && r.stderr.contains("\(anim): the canvas would be") && r.stderr.contains("--width"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.file("big.png")))
        let fits = try runReel(["still", anim, "--at", "0", "-o", ws.file("big.png"), "--width", "64"])
        #expect(fits.status == 0, "\(fits.stderr)")
    }

    @Test func aLottieFileAloneIsToldByItsContent() throws {
        let ws = try Workspace()
        let anim = ws.write("anim.lottie.txt", Self.animation)
        let r = try runReel(["still", anim, "--at", "0.5", "-o", ws.file("f.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try ImageFile.read(path: ws.file("f.png"))
        #expect(png.width == 40 && png.height == 40)
        func alpha(_ x: Int, _ y: Int) -> UInt8 { png.rgba[(y * 40 + x) * 4 + 3] }
        #expect(alpha(11, 10) == 255 && alpha(29, 10) == 255 && alpha(9, 10) == 0 && alpha(31, 10) == 0)
    }
}
