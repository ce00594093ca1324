/// Lottie import against hand-computed values: keyframes become Core Animation keyframe animations
/// (key times, one cubic timing function per segment, holds as steps), frame f of a file at
/// (f − ip)/fr seconds, a layer's transform as p + R·S·(q − a), shapes filled and stroked, layers shown
/// between their in and out points, and the located errors of a file that is not one.
import Foundation
import ReelAnimation
import ReelDocument
import ReelGeometry
import ReelRaster
import ReelRender
import ReelScene
import ReelTestSupport
import Testing

@testable import ReelLottie

@Suite struct LottieImportTests {
    /// A 100 × 100 composition at 10 fps from frame 10 to 30: one shape layer, a 20 × 20 red square at
    /// (0, 0) in the layer, anchor (0, 0), moving from x 20 to 80 between frames 10 and 20 with the easing
    /// (0.5, 0, 0.5, 1), then held at 80 until frame 25 and jumping to 40; rotated 90°, scaled 50 % in x;
    /// shown from frame 12.
    static let file = """
        {"v": "5.7.0", "fr": 10, "ip": 10, "op": 30, "w": 100, "h": 100, "layers": [
          {"ty": 4, "nm": "box", "ind": 1, "ip": 12, "op": 30, "st": 0, "ks": {
             "a": {"a": 0, "k": [0, 0]},
             "p": {"a": 1, "k": [
                {"t": 10, "s": [20, 50], "o": {"x": [0.5], "y": [0]}, "i": {"x": [0.5], "y": [1]}},
                {"t": 20, "s": [80, 50], "h": 1},
                {"t": 25, "s": [40, 50]}]},
             "r": {"a": 0, "k": 90}, "s": {"a": 0, "k": [50, 100]}, "o": {"a": 0, "k": 100}},
           "shapes": [{"ty": "gr", "it": [
              {"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}},
              {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}},
              {"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
               "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}]}]}]}
        """

    func scene() throws -> (Scene, [String]) { try LottieImport.scene(Array(Self.file.utf8), file: "t.json") }

    @Test func theCompositionIsASceneOfItsTiming() throws {
        let (scene, notes) = try scene()
        #expect(scene.width == 100 && scene.height == 100 && scene.duration == 2)
        #expect(scene.fps == FrameRate(numerator: 10, denominator: 1))
        #expect(notes.isEmpty, "\(notes)")
        #expect(LottieImport.looksLikeLottie(Array(Self.file.utf8)))
        #expect(!LottieImport.looksLikeLottie(Array(#"{"width": 10, "height": 10, "fps": 10, "duration": 1}"#.utf8)))
    }

    /// Position keyed at frames 10, 20, 20 − 0.001 (the hold's step) and 25: scene seconds 0, 1, 1.4999
    /// and 1.5 over a duration of 1.5 s; the first segment's timing function is the file's easing.
    @Test func keyframesBecomeKeyframeAnimations() throws {
        let (scene, _) = try scene()
        let box = try #require(scene.layers.find("box"))
        guard case .keyframe(let k)? = box.animations.first(where: { $0.keyPath == "position" }) else {
            Issue.record("no position animation")
            return
        }
        #expect(k.timing.beginTime == 0 && k.timing.duration == 1.5)
        let times = try #require(k.keyTimes)
        #expect(times.count == 4)
        #expect(abs(times[1] - 1 / 1.5) < 1e-12 && abs(times[2] - 1.4999 / 1.5) < 1e-9 && times[3] == 1)
        #expect(k.values[1] == .point(Point(x: 80, y: 50)) && k.values[2] == .point(Point(x: 80, y: 50)))
        #expect(k.timingFunctions.first == TimingFunction(0.5, 0, 0.5, 1))
    }

    /// At frame 15 (0.5 s) the easing (0.5, 0, 0.5, 1) is symmetric, so x = 50. The square (0…20 in the
    /// layer, centred on its origin: −10…10) is scaled to x −5…5, then turned 90° (x ↦ y, y ↦ −x) to
    /// x −10…10, y −5…5, and placed at (50, 50): x 40…60, y 45…55. The layer is hidden before frame 12.
    @Test func theTransformIsPositionRotationScaleAnchor() throws {
        let (scene, _) = try scene()
        let at = scene.sample(at: 0.5)
        let box = try #require(at.layers.find("box"))
        #expect(abs(box.position.x - 50) < 1e-9 && box.position.y == 50)
        let early = scene.sample(at: 0.1)
        #expect(early.layers.find("box")?.hidden == true && at.layers.find("box")?.hidden == false)
        // After the hold: at 1.45 s (frame 24.5) still 80; at 1.5 s (frame 25) 40.
        #expect(scene.sample(at: 1.45).layers.find("box")?.position.x == 80)
        #expect(scene.sample(at: 1.5).layers.find("box")?.position.x == 40)
        let frame = try SceneRenderer().frame(for: scene, at: 0.5)
        #expect(frame.pixel(x: 41, y: 46) == (255, 0, 0, 255) && frame.pixel(x: 58, y: 53) == (255, 0, 0, 255))
        #expect(frame.pixel(x: 39, y: 50).a == 0 && frame.pixel(x: 60, y: 50).a == 0 && frame.pixel(x: 50, y: 44).a == 0)
        #expect(frame.pixel(x: 50, y: 55).a == 0)
    }

    /// A mask (add, 50 % opacity) on a 40 × 40 red solid keeps the left half at half strength; an
    /// inverted alpha matte (the layer above, a 20 × 40 rect on the left) keeps only the right half.
    @Test func masksAndMattes() throws {
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 40, "h": 40, "layers": [
              {"ty": 4, "nm": "matte", "ind": 1, "td": 1, "ip": 0, "op": 10, "st": 0,
               "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}},
               "shapes": [{"ty": "rc", "p": {"a": 0, "k": [10, 20]}, "s": {"a": 0, "k": [20, 40]}, "r": {"a": 0, "k": 0}},
                          {"ty": "fl", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]},
              {"ty": 1, "nm": "matted", "ind": 2, "tt": 2, "ip": 0, "op": 10, "st": 0, "sw": 40, "sh": 40, "sc": "#ff0000",
               "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}}},
              {"ty": 1, "nm": "masked", "ind": 3, "ip": 0, "op": 10, "st": 0, "sw": 40, "sh": 40, "sc": "#0000ff",
               "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}},
               "masksProperties": [{"mode": "a", "inv": false, "o": {"a": 0, "k": 50},
                 "pt": {"a": 0, "k": {"c": true, "v": [[0, 0], [20, 0], [20, 40], [0, 40]], "i": [[0, 0], [0, 0], [0, 0], [0, 0]],
                                      "o": [[0, 0], [0, 0], [0, 0], [0, 0]]}}}]}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "m.json")
        #expect(notes.isEmpty, "\(notes)")
        let frame = try SceneRenderer().frame(for: scene, at: 0)
        // Left: the masked blue at half strength (the matted red is cut away there); right: the red.
        #expect(frame.pixel(x: 5, y: 20) == (0, 0, 128, 128) || frame.pixel(x: 5, y: 20) == (0, 0, 127, 127))
        #expect(frame.pixel(x: 30, y: 20) == (255, 0, 0, 255))
    }

    /// A fill paints the shapes before it in nested groups too, through their transforms: a 10 × 10
    /// rect in a group moved by (30, 0) and scaled 200 % gives a fill path of x 20…40. A star of 5
    /// points (outer 10, inner 5) at (50, 50) starts straight up from its centre, at (50, 40).
    @Test func fillsReachIntoGroupsAndStarsStartUp() throws {
        let rect = #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}}"#
        let tr =
            #"{"ty": "tr", "p": {"a": 0, "k": [30, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [200, 200]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}"#
        let fill = #"{"ty": "fl", "c": {"a": 0, "k": [0, 0, 1, 1]}, "o": {"a": 0, "k": 100}}"#
        let star =
            #"{"ty": "sr", "sy": 1, "p": {"a": 0, "k": [50, 50]}, "pt": {"a": 0, "k": 5}, "or": {"a": 0, "k": 10}, "ir": {"a": 0, "k": 5}, "r": {"a": 0, "k": 0}}"#
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [
              {"ty": 4, "nm": "s", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {},
               "shapes": [{"ty": "gr", "it": [\(rect), \(tr)]}, \(fill), \(star), \(fill)]}]}
            """
        let (scene, _) = try LottieImport.scene(Array(file.utf8), file: "g.json")
        let shapes = scene.layers.flatMap { $0.flattened() }.map(\.layer).filter { $0.type == .shape }
        let boxes = shapes.compactMap { $0.shape.path.bounds() }
        #expect(boxes.contains { abs($0.minX - 20) < 1e-9 && abs($0.maxX - 40) < 1e-9 }, "\(boxes)")
        // The second fill paints the group's rect and the star (10 points and a close).
        #expect(shapes.contains { $0.shape.path.elements.contains(.move(Point(x: 50, y: 40))) })
    }

    /// Items listed first are drawn on top: a stroke listed before the fill of the same rect covers the
    /// fill's edge.
    @Test func itemsListedFirstAreOnTop() throws {
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 40, "h": 40, "layers": [
              {"ty": 4, "nm": "s", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "shapes": [
                {"ty": "rc", "p": {"a": 0, "k": [20, 20]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}},
                {"ty": "st", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 4}},
                {"ty": "fl", "c": {"a": 0, "k": [0, 0, 1, 1]}, "o": {"a": 0, "k": 100}}]}]}
            """
        let (scene, _) = try LottieImport.scene(Array(file.utf8), file: "o.json")
        let frame = try SceneRenderer().frame(for: scene, at: 0)
        // The rect's left edge is x = 10; the stroke covers 8…12, the fill from 10: pixel 10 is red.
        #expect(frame.pixel(x: 10, y: 20) == (255, 0, 0, 255) && frame.pixel(x: 20, y: 20) == (0, 0, 255, 255))
    }

    /// A 20 × 20 red solid scaled from 0 % to 100 % between frames 0 and 10 (linear) covers 0…10 at
    /// frame 5. A 40 × 40 blue solid keeps everything but its subtracted mask, a 20 × 40 rect moving
    /// from x 0…20 at frame 0 to 20…40 at frame 10: at frame 5 the hole is x 10…30.
    @Test func aScaleFromZeroAndAnAnimatedSubtractedMask() throws {
        func rect(_ x: Double) -> String {
            #"{"c": true, "v": [[\#(x), 0], [\#(x + 20), 0], [\#(x + 20), 40], [\#(x), 40]], "i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]]}"#
        }
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 40, "h": 80, "layers": [
              {"ty": 1, "nm": "grows", "ind": 1, "ip": 0, "op": 10, "st": 0, "sw": 20, "sh": 20, "sc": "#ff0000",
               "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]},
                      "s": {"a": 1, "k": [{"t": 0, "s": [0, 0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}},
                                          {"t": 10, "s": [100, 100]}]}}},
              {"ty": 1, "nm": "holed", "ind": 2, "ip": 0, "op": 10, "st": 0, "sw": 40, "sh": 40, "sc": "#0000ff",
               "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 40]}},
               "masksProperties": [{"mode": "s", "inv": false, "o": {"a": 0, "k": 100},
                 "pt": {"a": 1, "k": [{"t": 0, "s": [\(rect(0))], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}},
                                      {"t": 10, "s": [\(rect(20))]}]}}]}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "z.json")
        #expect(notes.isEmpty, "\(notes)")
        let frame = try SceneRenderer().frame(for: scene, at: 0.5)
        #expect(frame.pixel(x: 5, y: 5) == (255, 0, 0, 255) && frame.pixel(x: 12, y: 5).a == 0)
        #expect(frame.pixel(x: 5, y: 60) == (0, 0, 255, 255) && frame.pixel(x: 35, y: 60) == (0, 0, 255, 255))
        #expect(frame.pixel(x: 12, y: 60).a == 0 && frame.pixel(x: 28, y: 60).a == 0)
    }

    /// Trim paths measure from where the players start a shape: an ellipse at its top, clockwise; a
    /// rectangle at its top right corner, down the right side. Two ellipses trimmed 0…50 % together
    /// (`m` 1) each keep their right half; a window moved past the end by its offset wraps to the start.
    @Test func trimsStartWhereThePlayersStartAndWrap() throws {
        func ellipse(_ x: Double) -> String {
            #"{"ty": "el", "p": {"a": 0, "k": [\#(x), 50]}, "s": {"a": 0, "k": [80, 80]}}"#
        }
        func trim(_ s: Double, _ e: Double, _ o: Double) -> String {
            #"{"ty": "tm", "s": {"a": 0, "k": \#(s)}, "e": {"a": 0, "k": \#(e)}, "o": {"a": 0, "k": \#(o)}, "m": 1}"#
        }
        let stroke = #"{"ty": "st", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 4}, "lc": 1}"#
        let rect = #"{"ty": "rc", "p": {"a": 0, "k": [250, 50]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}}"#
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 300, "h": 200, "layers": [
              {"ty": 4, "nm": "s", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "shapes": [
                {"ty": "gr", "it": [\(ellipse(50)), \(ellipse(150)), \(trim(0, 50, 0)), \(stroke)]},
                {"ty": "gr", "it": [\(rect), \(trim(0, 25, 0)), \(stroke)]},
                {"ty": "gr", "it": [{"ty": "el", "p": {"a": 0, "k": [50, 150]}, "s": {"a": 0, "k": [80, 80]}},
                                    \(trim(90, 100, 18)), \(stroke)]}]}]}
            """
        let (scene, _) = try LottieImport.scene(Array(file.utf8), file: "t.json")
        let frame = try SceneRenderer().frame(for: scene, at: 0)
        for x in [50, 150] {
            // Top, right and bottom of each circle (radius 40) are on; the left is off.
            #expect(frame.pixel(x: x, y: 11).a == 255 && frame.pixel(x: x + 39, y: 50).a == 255)
            #expect(frame.pixel(x: x, y: 89).a > 0 && frame.pixel(x: x - 39, y: 50).a == 0)
        }
        // The rectangle (230…270 × 30…70): its right side is on, its top and bottom sides off.
        #expect(frame.pixel(x: 270, y: 50).a == 255 && frame.pixel(x: 250, y: 30).a == 0 && frame.pixel(x: 250, y: 70).a == 0)
        // 90…100 % moved by 18° (5 %): 342°…378°, through the top; ±10° from the top (x = 50 ∓ 6.9,
        // y = 150 − 39.4) are on, 90° is off.
        #expect(frame.pixel(x: 43, y: 111).a == 255 && frame.pixel(x: 57, y: 111).a == 255)
        #expect(frame.pixel(x: 89, y: 150).a == 0)
    }

    /// A time remap plays a precomp backwards: its 10 × 10 solid moves x 0 → 100 over the precomp's frames
    /// 0…10 (linear, 10 fps); the remap runs 1 s → 0 s over the layer's frames 0…10. At frame 2 the
    /// content is at 0.8 s, frame 8: x 80…90.
    @Test func timeRemappingPlaysTheContentAtTheRemappedTime() throws {
        let linear = #""o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}"#
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 200, "h": 20,
             "assets": [{"id": "a", "layers": [
               {"ty": 1, "nm": "dot", "ind": 1, "ip": 0, "op": 10, "st": 0, "sw": 10, "sh": 10, "sc": "#ff0000",
                "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 1, "k": [{"t": 0, "s": [0, 0], \(linear)}, {"t": 10, "s": [100, 0]}]}}}]}],
             "layers": [
               {"ty": 0, "nm": "back", "ind": 1, "refId": "a", "w": 200, "h": 20, "ip": 0, "op": 10, "st": 0,
                "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}},
                "tm": {"a": 1, "k": [{"t": 0, "s": [1], \(linear)}, {"t": 10, "s": [0]}]}}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "r.json")
        #expect(notes.isEmpty, "\(notes)")
        let frame = try SceneRenderer().frame(for: scene, at: 0.2)
        #expect(frame.pixel(x: 85, y: 5) == (255, 0, 0, 255))
        #expect(frame.pixel(x: 25, y: 5).a == 0 && frame.pixel(x: 75, y: 5).a == 0 && frame.pixel(x: 95, y: 5).a == 0)
    }

    /// A gradient whose two stops turn from red to blue over frames 0…10 (linear) is half way, (128, 0,
    /// 128) give or take a rounding, at frame 5.
    @Test func aKeyedGradientRampMoves() throws {
        let linear = #""o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}"#
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 20, "h": 20, "layers": [
              {"ty": 4, "nm": "s", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "shapes": [
                {"ty": "rc", "p": {"a": 0, "k": [10, 10]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}},
                {"ty": "gf", "t": 1, "o": {"a": 0, "k": 100}, "s": {"a": 0, "k": [0, 0]}, "e": {"a": 0, "k": [20, 0]},
                 "g": {"p": 2, "k": {"a": 1, "k": [{"t": 0, "s": [0, 1, 0, 0, 1, 1, 0, 0], \(linear)},
                                                   {"t": 10, "s": [0, 0, 0, 1, 1, 0, 0, 1]}]}}}]}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "g.json")
        #expect(notes.isEmpty, "\(notes)")
        let start = try SceneRenderer().frame(for: scene, at: 0), half = try SceneRenderer().frame(for: scene, at: 0.5)
        #expect(start.pixel(x: 10, y: 10) == (255, 0, 0, 255))
        let p = half.pixel(x: 10, y: 10)
        #expect(
            abs(Int(p.r) - 128) <= Tolerance.roundingLevels && p.g == 0 && abs(Int(p.b) - 128) <= Tolerance.roundingLevels
                && p.a == 255, "\(p)")
    }

    /// A red-to-blue gradient whose end moves from (20, 0) to (0, 20) over frames 0…10 runs across at
    /// frame 0 and down at frame 10: the top row is red there, the bottom row blue.
    @Test func aGradientsMovingEndTurnsIt() throws {
        let linear = #""o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}"#
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 11, "w": 20, "h": 20, "layers": [
              {"ty": 4, "nm": "s", "ind": 1, "ip": 0, "op": 11, "st": 0, "ks": {}, "shapes": [
                {"ty": "rc", "p": {"a": 0, "k": [10, 10]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}},
                {"ty": "gf", "t": 1, "o": {"a": 0, "k": 100}, "s": {"a": 0, "k": [0, 0]},
                 "e": {"a": 1, "k": [{"t": 0, "s": [20, 0], \(linear)}, {"t": 10, "s": [0, 20]}]},
                 "g": {"p": 2, "k": {"a": 0, "k": [0, 1, 0, 0, 1, 0, 0, 1]}}}]}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "g.json")
        #expect(notes.isEmpty, "\(notes)")
        let start = try SceneRenderer().frame(for: scene, at: 0), end = try SceneRenderer().frame(for: scene, at: 1)
        // Frame 0: left red, right blue; frame 10: top red, bottom blue (pixel centres 0.5 from the ends).
        #expect(start.pixel(x: 0, y: 10).r > 240 && start.pixel(x: 19, y: 10).b > 240)
        #expect(end.pixel(x: 10, y: 0).r > 240 && end.pixel(x: 10, y: 19).b > 240 && end.pixel(x: 0, y: 10).r < 140)
    }

    /// An anchor point keyed from (0, 0) to (10, 0) over frames 0…10 (linear) pulls a 10 × 10 solid at
    /// position (50, 50) left: at frame 5 it covers x 45…55.
    @Test func aMovingAnchorPointMovesTheContent() throws {
        let linear = #""o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}"#
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [
              {"ty": 1, "nm": "dot", "ind": 1, "ip": 0, "op": 10, "st": 0, "sw": 10, "sh": 10, "sc": "#ff0000",
               "ks": {"p": {"a": 0, "k": [50, 50]}, "a": {"a": 1, "k": [{"t": 0, "s": [0, 0], \(linear)}, {"t": 10, "s": [10, 0]}]}}}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "a.json")
        #expect(notes.isEmpty, "\(notes)")
        let frame = try SceneRenderer().frame(for: scene, at: 0.5)
        #expect(frame.pixel(x: 45, y: 55).a == 255 && frame.pixel(x: 54, y: 55).a == 255)
        #expect(frame.pixel(x: 44, y: 55).a == 0 && frame.pixel(x: 55, y: 55).a == 0)
    }

    /// Rounded corners of radius 10 on a 40 × 40 square path (10…50): each corner is cut back 10 along
    /// both edges and joined by a cubic whose handles reach 0.5519 of the way to the old corner; its middle
    /// is at (12.93, 12.93) near the top left, so pixel (11, 11) is empty and (14, 14) full.
    @Test func roundedCornersRoundSharpCorners() throws {
        let zero = "[[0, 0], [0, 0], [0, 0], [0, 0]]"
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 60, "h": 60, "layers": [
              {"ty": 4, "nm": "s", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "shapes": [
                {"ty": "sh", "ks": {"a": 0, "k": {"c": true, "v": [[10, 10], [50, 10], [50, 50], [10, 50]], "i": \(zero), "o": \(zero)}}},
                {"ty": "rd", "r": {"a": 0, "k": 10}},
                {"ty": "fl", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "r.json")
        #expect(notes.isEmpty, "\(notes)")
        let frame = try SceneRenderer().frame(for: scene, at: 0)
        #expect(frame.pixel(x: 11, y: 11).a == 0 && frame.pixel(x: 48, y: 48).a == 0)
        #expect(frame.pixel(x: 14, y: 14).a == 255 && frame.pixel(x: 30, y: 10).a == 255 && frame.pixel(x: 10, y: 30).a == 255)
        // The top left corner's cubic, whichever way round the rectangle runs.
        let handles = RoundCorners.rounded(Path(rect: Rect(x: 10, y: 10, width: 40, height: 40)), radius: 10).elements
            .compactMap { e -> [Point]? in if case .cubic(let c1, let c2, _) = e { return [c1, c2] } else { return nil } }
        func near(_ p: Point, _ x: Double, _ y: Double) -> Bool { abs(p.x - x) < 1e-9 && abs(p.y - y) < 1e-9 }
        #expect(handles.count == 4)
        #expect(
            handles.contains {
                near($0[0], 10, 14.481) && near($0[1], 14.481, 10) || near($0[0], 14.481, 10) && near($0[1], 10, 14.481)
            })
    }

    /// A repeater of 3 copies moved 20 apart, fading from 100 % to 50 %: the 10 × 10 square at x 5…15
    /// again at 25…35 (75 %) and 45…55 (50 %), and nothing further. A copy turned 90° about the anchor
    /// (10, 0) takes (20, 0) to (10, 10).
    @Test func aRepeaterCopiesWhatIsBeforeIt() throws {
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 80, "h": 20, "layers": [
              {"ty": 4, "nm": "s", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "shapes": [
                {"ty": "rc", "p": {"a": 0, "k": [10, 10]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}},
                {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}},
                {"ty": "rp", "c": {"a": 0, "k": 3}, "o": {"a": 0, "k": 0}, "m": 1,
                 "tr": {"p": {"a": 0, "k": [20, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
                        "r": {"a": 0, "k": 0}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 50}}}]}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "p.json")
        #expect(notes.isEmpty, "\(notes)")
        let frame = try SceneRenderer().frame(for: scene, at: 0)
        #expect(frame.pixel(x: 10, y: 10) == (255, 0, 0, 255))
        #expect(
            abs(Int(frame.pixel(x: 30, y: 10).a) - 191) <= Tolerance.roundingLevels
                && abs(Int(frame.pixel(x: 50, y: 10).a) - 128) <= Tolerance.roundingLevels)
        #expect(frame.pixel(x: 20, y: 10).a == 0 && frame.pixel(x: 70, y: 10).a == 0)
        // Each copy's layers have names of their own.
        let names = scene.layers.flatMap { $0.flattened() }.map(\.layer.name)
        #expect(Set(names).count == names.count, "\(names)")
        let tr = try JSONParser.parse(Array(#"{"a": {"a": 0, "k": [10, 0]}, "r": {"a": 0, "k": 90}}"#.utf8))
        let moved = LottieImporter.copyPlacement(LottieTransform(tr), copy: 1, offset: 0, at: 0).apply(Point(x: 20, y: 0))
        #expect(abs(moved.x - 10) < 1e-9 && abs(moved.y - 10) < 1e-9)
    }

    /// Merge paths: a 40 × 40 square less (mode 3) or intersected with (mode 4) a 20 × 20 one in its middle.
    @Test func mergePathsSubtractAndIntersect() throws {
        func file(_ mode: Int) -> String {
            """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 40, "h": 40, "layers": [
              {"ty": 4, "nm": "s", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {}, "shapes": [
                {"ty": "rc", "p": {"a": 0, "k": [20, 20]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}},
                {"ty": "rc", "p": {"a": 0, "k": [20, 20]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}},
                {"ty": "mm", "mm": \(mode)},
                {"ty": "fl", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]}]}
            """
        }
        let subtracted = try SceneRenderer().frame(for: try LottieImport.scene(Array(file(3).utf8), file: "m.json").0, at: 0)
        #expect(subtracted.pixel(x: 5, y: 5).a == 255 && subtracted.pixel(x: 20, y: 20).a == 0)
        let intersected = try SceneRenderer().frame(for: try LottieImport.scene(Array(file(4).utf8), file: "m.json").0, at: 0)
        #expect(intersected.pixel(x: 5, y: 5).a == 0 && intersected.pixel(x: 20, y: 20).a == 255)
    }

    /// A text layer's document: one text layer a line, line k's baseline k line heights (30) down, in
    /// the font the file's list names (then its family and style, then common fonts), 20 points, red,
    /// tracking 50/1000 em = 1 point; a second document switches the string at frame 5 (its
    /// justification stays the first document's: alignment does not animate).
    @Test func textLayersDrawTheirDocuments() throws {
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 200, "h": 100,
             "fonts": {"list": [{"fName": "NotoSans-Bold", "fFamily": "Noto Sans", "fStyle": "Bold"}]},
             "layers": [
              {"ty": 5, "nm": "title", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {"p": {"a": 0, "k": [10, 40]}},
               "t": {"d": {"k": [
                 {"t": 0, "s": {"t": "Hi\\rYo", "f": "NotoSans-Bold", "s": 20, "lh": 30, "j": 0, "tr": 50, "fc": [1, 0, 0]}},
                 {"t": 5, "s": {"t": "Ok\\rGo", "f": "NotoSans-Bold", "s": 20, "lh": 30, "j": 2, "tr": 50, "fc": [1, 0, 0]}}]}}}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "t.json")
        #expect(notes.isEmpty, "\(notes)")
        let texts = scene.layers.flatMap { $0.flattened() }.map(\.layer).filter { $0.type == .text }
        #expect(texts.map(\.text.string) == ["Hi", "Yo"])
        #expect(texts.map(\.position.y) == [0, 30] && texts.allSatisfy { $0.text.firstBaselineAtTop })
        #expect(
            texts.allSatisfy {
                $0.text.fontSize == 20 && $0.text.letterSpacing == 1
                    && $0.text.foregroundColor == Color(red: 1, green: 0, blue: 0)
            })
        #expect(texts[0].text.font.hasPrefix("NotoSans-Bold, Noto Sans Bold, Noto Sans"))
        let later = scene.sample(at: 0.5).layers
        #expect(later.find("title/line 0")?.text.string == "Ok" && later.find("title/line 1")?.text.string == "Go")
    }

    /// Auto-orient turns a layer along its motion: a 20 × 4 bar (anchor at its middle) moving straight
    /// down is drawn upright, x 48…52, y 40…60 at (50, 50). A track matte named by `tp` is the layer
    /// with that index, wherever it is listed.
    @Test func autoOrientAndMatteParents() throws {
        let linear = #""o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}"#
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [
              {"ty": 1, "nm": "matte", "ind": 7, "td": 1, "ip": 0, "op": 10, "st": 0, "sw": 50, "sh": 100, "sc": "#000000",
               "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}}},
              {"ty": 1, "nm": "other", "ind": 8, "ip": 0, "op": 10, "st": 0, "sw": 1, "sh": 1, "sc": "#00ff00",
               "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [99, 99]}}},
              {"ty": 1, "nm": "bar", "ind": 9, "ao": 1, "tt": 1, "tp": 7, "ip": 0, "op": 10, "st": 0, "sw": 20, "sh": 4, "sc": "#ff0000",
               "ks": {"a": {"a": 0, "k": [10, 2]}, "p": {"a": 1, "k": [{"t": 0, "s": [50, 0], \(linear)}, {"t": 10, "s": [50, 100]}]}}}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "o.json")
        #expect(notes.isEmpty, "\(notes)")
        let frame = try SceneRenderer().frame(for: scene, at: 0.5)
        // The matte keeps x < 50: the bar's left half, x 48…50.
        #expect(frame.pixel(x: 48, y: 42) == (255, 0, 0, 255) && frame.pixel(x: 49, y: 57) == (255, 0, 0, 255))
        #expect(frame.pixel(x: 42, y: 50).a == 0 && frame.pixel(x: 51, y: 50).a == 0)
        #expect(frame.pixel(x: 99, y: 99) == (0, 255, 0, 255))
    }

    /// Skew 45° along the x axis: (x, y) ↦ (x − y, y), between scale and rotation. A 20 × 20 solid at
    /// (50, 20) skewed so: its bottom row (y 39) spans x 31…51, its top row x 50…70.
    @Test func skewShearsBetweenScaleAndRotation() throws {
        let m = LottieImporter.skew(45, axis: 0)
        #expect(abs(m.apply(Point(x: 0, y: 10)).x + 10) < 1e-9 && abs(m.apply(Point(x: 10, y: 0)).x - 10) < 1e-9)
        let turned = LottieImporter.skew(45, axis: 90).apply(Point(x: 10, y: 0))
        #expect(abs(turned.x - 10) < 1e-9 && abs(turned.y - 10) < 1e-9, "\(turned)")
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 60, "layers": [
              {"ty": 1, "nm": "s", "ind": 1, "ip": 0, "op": 10, "st": 0, "sw": 20, "sh": 20, "sc": "#000000",
               "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [50, 20]}, "sk": {"a": 0, "k": 45}, "sa": {"a": 0, "k": 0}}}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "k.json")
        #expect(notes.isEmpty, "\(notes)")
        let frame = try SceneRenderer().frame(for: scene, at: 0)
        #expect(frame.pixel(x: 33, y: 39).a > 200 && frame.pixel(x: 29, y: 39).a == 0 && frame.pixel(x: 53, y: 39).a == 0)
        #expect(frame.pixel(x: 67, y: 20).a == 255 && frame.pixel(x: 48, y: 20).a == 0)
    }

    /// A Drop Shadow effect is the layer's shadow: black, opacity 255 of 255, direction 180° (down),
    /// distance 10, no softness, under a 10 × 10 red solid at (10, 10): black at y 20…30.
    @Test func aDropShadowEffectIsTheLayersShadow() throws {
        func param(_ v: String) -> String { #"{"ty": 0, "v": {"a": 0, "k": \#(v)}}"# }
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 40, "h": 40, "layers": [
              {"ty": 1, "nm": "s", "ind": 1, "ip": 0, "op": 10, "st": 0, "sw": 10, "sh": 10, "sc": "#ff0000",
               "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [10, 10]}},
               "ef": [{"ty": 25, "nm": "Drop Shadow", "en": 1, "ef": [\(param("[0, 0, 0, 1]")), \(param("255")), \(param("180")),
                       \(param("10")), \(param("0")), \(param("0"))]}]}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "d.json")
        #expect(notes.isEmpty, "\(notes)")
        let frame = try SceneRenderer().frame(for: scene, at: 0)
        #expect(frame.pixel(x: 15, y: 15) == (255, 0, 0, 255) && frame.pixel(x: 15, y: 25) == (0, 0, 0, 255))
        #expect(frame.pixel(x: 15, y: 31).a == 0 && frame.pixel(x: 25, y: 25).a == 0)
    }

    /// A Gaussian Blur effect is a blur filter on a layer holding the layer's content: σ = 0.24 × the
    /// blurriness (20 → 4.8 points), keyed where the blurriness is (0 → 40 over frames 0…10: 4.8 at frame 5
    /// on a linear ramp); one blurred in one direction only is blurred in both, with a note. Drawn, a
    /// straight edge blurred by a Gaussian keeps half its opacity on the edge: the pixel straddling it is
    /// within 3 levels of 128.
    @Test func aGaussianBlurEffectIsABlurFilter() throws {
        func file(_ blurriness: String, dimensions: Int = 1) -> [UInt8] {
            let p =
                #"{"ty": 0, "v": \#(blurriness)}, {"ty": 7, "v": {"a": 0, "k": \#(dimensions)}}, {"ty": 7, "v": {"a": 0, "k": 0}}"#
            return Array(
                """
                {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [
                  {"ty": 1, "nm": "s", "ind": 1, "ip": 0, "op": 10, "st": 0, "sw": 100, "sh": 100, "sc": "#000000",
                   "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [50, 0]}},
                   "ef": [{"ty": 29, "nm": "Gaussian Blur", "en": 1, "ef": [\(p)]}]}]}
                """.utf8)
        }
        let (scene, notes) = try LottieImport.scene(file(#"{"a": 0, "k": 20}"#), file: "b.json")
        #expect(notes.isEmpty, "\(notes)")
        let blurred = try #require(scene.layers[0].flattened().map(\.layer).first { !$0.filters.isEmpty })
        #expect(blurred.filters.map(\.type) == [.gaussianBlur] && blurred.filters[0].inputRadius == 0.24 * 20)
        // The solid's left edge at x 50: pixel 49 holds a little under half, pixel 50 a little over.
        let frame = try SceneRenderer().frame(for: scene, at: 0)
        let a49 = Int(frame.pixel(x: 49, y: 50).a), a50 = Int(frame.pixel(x: 50, y: 50).a)
        #expect(abs((a49 + a50) / 2 - 128) <= 3 && a49 < a50, "\(a49) \(a50)")
        let ramp =
            #"{"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [40]}]}"#
        let (moving, _) = try LottieImport.scene(file(ramp), file: "b.json")
        let halfway = moving.sample(at: 0.5).layers.flatMap { $0.flattened() }.compactMap { $0.layer.filters.first }
        #expect(halfway.count == 1 && abs(halfway[0].inputRadius - 4.8) < 1e-9, "\(halfway.map(\.inputRadius))")
        let (_, across) = try LottieImport.scene(file(#"{"a": 0, "k": 20}"#, dimensions: 2), file: "b.json")
        #expect(across.contains { $0.contains("in one direction only") }, "\(across)")
    }

    /// Tint and Fill effects are colour matrices over the layer's pixels, by hand: an opaque orange
    /// (1, 0.6, 0.1) tinted from black (0.1, 0, 0.3) to white (1, 0.9, 0.6) at 70 %: luma (Rec. 709) 0.6489,
    /// mapped to (0.684, 0.584, 0.495), mixed 70 % with the orange: (0.779, 0.589, 0.376) = (199, 150, 96);
    /// filled with (0.2, 0.8, 0.4) at opacity 0.5: (51, 204, 102) at alpha 128. ThorVG draws the same within
    /// 3 levels where the layer is opaque (Fill at 57 dB over a translucent shape too).
    @Test func tintAndFillEffectsAreColourMatrices() throws {
        func file(_ effect: String) -> [UInt8] {
            Array(
                """
                {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 20, "h": 20, "layers": [
                  {"ty": 1, "nm": "s", "ind": 1, "ip": 0, "op": 10, "st": 0, "sw": 20, "sh": 20, "sc": "#ff991a",
                   "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]}}, "ef": [\(effect)]}]}
                """.utf8)
        }
        func param(_ v: String) -> String { #"{"ty": 0, "v": {"a": 0, "k": \#(v)}}"# }
        let tint = #"{"ty": 20, "en": 1, "ef": [\#(param("[0.1, 0, 0.3, 1]")), \#(param("[1, 0.9, 0.6, 1]")), \#(param("70"))]}"#
        let (tinted, tintNotes) = try LottieImport.scene(file(tint), file: "t.json")
        #expect(tintNotes.isEmpty, "\(tintNotes)")
        let t = try SceneRenderer().frame(for: tinted, at: 0).pixel(x: 10, y: 10)
        #expect(abs(Int(t.r) - 199) <= 1 && abs(Int(t.g) - 150) <= 1 && abs(Int(t.b) - 96) <= 1 && t.a == 255, "\(t)")
        let fill =
            #"{"ty": 21, "en": 1, "ef": [\#(param("0")), \#(param("0")), \#(param("[0.2, 0.8, 0.4, 1]")), \#(param("0")), \#(param("0")), \#(param("0")), \#(param("0.5"))]}"#
        let (filled, _) = try LottieImport.scene(file(fill), file: "f.json")
        let f = try SceneRenderer().frame(for: filled, at: 0).pixel(x: 10, y: 10)
        // Premultiplied in the frame: (51, 204, 102) at half opacity.
        #expect(abs(Int(f.a) - 128) <= 1 && abs(Int(f.g) - 102) <= 1 && abs(Int(f.r) - 26) <= 1, "\(f)")
    }

    /// A file that would key 60 layers at each of 100,000 frames (easing that differs per dimension) keys
    /// what the import's budget allows (here 400,000 values, a tenth of the real one, to keep the test
    /// quick), the rest at their ends, and says so.
    @Test func keyingAtEveryFrameIsBounded() throws {
        let layer = """
            {"ty": 3, "nm": "n", "ip": 0, "op": 100000, "st": 0, "ks": {"p": {"a": 1, "k": [
              {"t": 0, "s": [0, 0], "o": {"x": [0.1, 0.9], "y": [0, 0]}, "i": {"x": [0.9, 0.1], "y": [1, 1]}},
              {"t": 100000, "s": [100, 100]}]}}}
            """
        let solids = (0..<60).map { _ in
            layer.replacingOccurrences(of: #""ty": 3"#, with: ##""ty": 1, "sw": 1, "sh": 1, "sc": "#000000""##)
        }
        let file =
            #"{"v": "5.7.0", "fr": 30, "ip": 0, "op": 100000, "w": 10, "h": 10, "layers": ["#
            + solids.joined(separator: ",") + "]}"
        let (scene, notes) = try LottieImport.scene(
            root: try JSONParser.parse(Array(file.utf8)), file: "big.json", prefix: nil, budget: 400_000)
        #expect(notes.contains { $0.contains("keyed at their first and last frames only") }, "\(notes)")
        let keyed = scene.layers.flatMap { $0.flattened() }.flatMap { $0.layer.animations }.reduce(0) { sum, a in
            guard case .keyframe(let k) = a else { return sum }
            return sum + k.values.count
        }
        #expect(keyed <= 400_000 + 60 * 2, "\(keyed)")
    }

    /// What Reel does not draw is one note each, at its JSON path: hard mix, a 3-D layer, an expression; a
    /// blend mode Reel has is the layer's `compositingFilter`.
    @Test func whatIsNotDrawnIsNotedWhereItIs() throws {
        let file = """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 10, "h": 10, "layers": [
              {"ty": 1, "nm": "s", "ind": 1, "ip": 0, "op": 10, "st": 0, "sw": 10, "sh": 10, "sc": "#ff0000", "bm": 17, "ddd": 1,
               "ks": {"o": {"a": 0, "k": 100, "x": "var $bm_rt = 50;"}}},
              {"ty": 1, "nm": "m", "ind": 2, "ip": 0, "op": 10, "st": 0, "sw": 10, "sh": 10, "sc": "#ff0000", "bm": 1, "ks": {}}]}
            """
        let (scene, notes) = try LottieImport.scene(Array(file.utf8), file: "n.json")
        #expect(notes.contains("layers[0].bm: the blend mode \"hard mix\" is not supported; drawn as normal"), "\(notes)")
        #expect(scene.layers.find("m")?.compositingFilter == .multiplyBlendMode && notes.count == 3, "\(notes)")
        #expect(notes.contains("layers[0]: a 3-D layer is drawn flat"))
        #expect(notes.contains("layers[0].ks.o.x: expressions are not run; the keyframed value is drawn"))
    }

    /// An out point past a scene's 24 h is refused naming the limit in the file's frames: at 30 fps
    /// from frame 10, 10 + 86,400 · 30 = 2,592,010. One frame less than an in point is still "not after".
    @Test func anOutPointPastTheLimitNamesIt() {
        func error(_ op: String) -> DocumentError? {
            do {
                _ = try LottieImport.scene(
                    Array(#"{"v": "5.7.0", "fr": 30, "ip": 10, "op": \#(op), "w": 5, "h": 5, "layers": []}"#.utf8), file: "x.json"
                )
                return nil
            } catch {
                return error
            }
        }
        let far = error("1e12")
        #expect(far?.path == "op" && far?.location?.column == 42, "\(String(describing: far))")
        #expect(
            far?.message
                == "the out point 1000000000000.0 is beyond the limit of 2592010.0 (24 h at 30.0 fps after the in point 10.0)",
            "\(String(describing: far))")
        #expect(error("2592010") == nil)
        #expect(error("2592010.5")?.message.contains("beyond the limit of 2592010.0") == true)
        #expect(error("9")?.message == "the out point 9.0 is not after the in point 10.0")
    }

    /// A file with Lottie's version, timing and size but no `layers` is told as Lottie, and says what it
    /// lacks (it was read as a scene, which said `unknown key "v"`).
    @Test func aLottieWithoutLayersSaysSo() {
        let text = #"{"v": "5.7.0", "fr": 30, "ip": 0, "op": 60, "w": 5, "h": 5}"#
        #expect(LottieImport.looksLikeLottie(Array(text.utf8)))
        #expect(LottieImport.looksLikeLottie(Array(#"{"v": "5.7.0", "ip": 0, "op": 60, "w": 5, "h": 5, "layers": []}"#.utf8)))
        #expect(!LottieImport.looksLikeLottie(Array(#"{"width": 5, "fr": 30, "ip": 0, "op": 60}"#.utf8)))
        do {
            _ = try LottieImport.scene(Array(text.utf8), file: "x.json")
            Issue.record("no error")
        } catch {
            #expect(error.path == "layers" && error.message == "this Lottie file has no \"layers\"", "\(error)")
            #expect(error.location?.line == 1 && error.location?.column == 1)
        }
        do {
            _ = try LottieImport.scene(
                Array(#"{"v": "5.7.0", "fr": 30, "ip": 0, "op": 60, "w": 5, "h": 5, "layers": {}}"#.utf8), file: "x.json")
            Issue.record("no error")
        } catch {
            #expect(error.message == "\"layers\" is an object, not a list of layers", "\(error)")
        }
    }

    @Test func notLottieIsALocatedError() {
        #expect(throws: DocumentError.self) {
            try LottieImport.scene(Array(#"{"fr": 10, "ip": 0, "layers": []}"#.utf8), file: "x.json")
        }
        do {
            _ = try LottieImport.scene(
                Array("{\"fr\": 10,\n \"ip\": 0, \"op\": [1], \"w\": 5, \"h\": 5, \"layers\": []}".utf8), file: "x.json")
            Issue.record("no error")
        } catch {
            #expect(error.path == "op" && error.message.contains("\"op\""))
        }
    }
}
