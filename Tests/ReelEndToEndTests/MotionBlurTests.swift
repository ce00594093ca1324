// Motion blur: a rendered frame is the mean of the pictures at its shutter's sample times, worked out by hand;
// a frame with nothing moving is the frame without blur; the setting's limits.
import Foundation
import Reel
import ReelAnimation
import ReelGeometry
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene
import Testing

@Suite struct MotionBlurTests {
    /// A 40 × 20 black frame at 10 fps with a white bar 4 points wide, moving 40 points a second when
    /// `moving`.
    func scene(moving: Bool, blur: MotionBlur?) -> Scene {
        var scene = Scene(width: 40, height: 20, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 1)
        scene.background = .black
        scene.motionBlur = blur
        var bar = Layer(name: "bar")
        bar.position = Point(x: 2, y: 10)
        bar.bounds = Rect(x: 0, y: 0, width: 4, height: 20)
        bar.backgroundColor = .white
        if moving {
            bar.addAnimation(
                .basic(
                    BasicAnimation(
                        keyPath: "position.x", fromValue: .number(2), toValue: .number(42), timing: MediaTiming(duration: 1))))
        }
        scene.layers = [bar]
        return scene
    }

    /// Frame `index` of `scene` rendered to a PNG sequence through the facade, as RGBA bytes.
    func rendered(_ scene: Scene, frame index: Int) throws -> [UInt8] {
        let ws = try Workspace()
        try Reel.render(Clip(scene: scene), to: ws.file("frames/"))
        return try ImageFile.read(path: ws.file(String(format: "frames/frame_%05d.png", index))).rgba
    }

    /// How many bytes differ (every byte, when the sizes differ): a message shorter than the pictures.
    func differing(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.count == b.count ? zip(a, b).filter { $0 != $1 }.count : max(a.count, b.count)
    }

    /// A 360° shutter sampled 4 times: frame 5 (t = 0.5 s, frames 0.1 s apart) is the mean of the
    /// pictures at 0.5 + ((i + ½)/4 − ½) · 0.1 = 0.4625, 0.4875, 0.5125 and 0.5375 s, each drawn without
    /// blur, rounded to nearest: the same bytes.
    @Test func aFrameIsTheMeanOfItsShutterSamples() throws {
        let blurred = try rendered(scene(moving: true, blur: MotionBlur(shutterAngle: 360, samples: 4)), frame: 5)
        let renderer = SceneRenderer(rasterizer: Rasterizer(threads: 1))
        let sharp = scene(moving: true, blur: nil)
        let samples = try [0.4625, 0.4875, 0.5125, 0.5375].map { try renderer.frame(for: sharp, at: $0).pixels }
        let mean = (0..<samples[0].count).map { i in UInt8((samples.reduce(0) { $0 + Int($1[i]) } + 2) / 4) }
        #expect(differing(blurred, mean) == 0)
        // The bar (pixels 20–23 at 0.5 s) at the samples' places, 1 point apart (40 points a second × 0.025 s)
        // and half a pixel off the grid: x 18.5 … 25.5, so 8 pixels of row 10 are lit, against 4 without blur.
        let row = (0..<40).map { blurred[(10 * 40 + $0) * 4] }
        #expect(row.filter { $0 > 0 }.count == 8, "\(row)")
        // Without blur the frame is the picture at 0.5 s alone.
        let unblurred = try rendered(sharp, frame: 5)
        #expect(differing(unblurred, try renderer.frame(for: sharp, at: 0.5).pixels) == 0)
        #expect((0..<40).filter { unblurred[(10 * 40 + $0) * 4] > 0 }.count == 4)
    }

    /// Nothing moves in the shutter's interval: the frame is the one drawn without blur, byte for byte.
    @Test func aStillFrameIsTheFrameWithoutBlur() throws {
        let blurred = try rendered(scene(moving: false, blur: MotionBlur(shutterAngle: 180, samples: 8)), frame: 3)
        #expect(differing(blurred, try rendered(scene(moving: false, blur: nil), frame: 3)) == 0)
    }

    @Test func theSettingIsCheckedWhereverItIsGiven() throws {
        #expect(try MotionBlurSetting(parsing: "180,16").blur == MotionBlur(shutterAngle: 180, samples: 16))
        #expect(try MotionBlurSetting(parsing: "off").blur == nil)
        #expect(throws: ReelError.self) { try MotionBlurSetting(parsing: "900") }
        #expect(throws: ReelError.self) { try MotionBlurSetting(parsing: "180,1") }
        let ws = try Workspace()
        let file = ws.write(
            "s.json",
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "motionBlur": {"shutterAngle": 180, "samples": 100}}"#)
        let r = try runReel(["render", file, "-o", ws.file("x.gif")])
        #expect(r.status != 0 && r.stderr.contains("motionBlur.samples") && r.stderr.contains("2…64"), "\(r.stderr)")
        let cli = try runReel(["render", file, "-o", ws.file("x.gif"), "--motion-blur", "361,1"])
        #expect(cli.status == 64 && cli.stderr.contains("--motion-blur"), "\(cli.stderr)")
    }
}
