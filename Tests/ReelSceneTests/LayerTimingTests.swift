/// A layer's own timing (CALayer's CAMediaTiming), against hand-computed times: its animations and
/// sublayers run in the local time it gives, and scene files set it with the animation timing keys.
import ReelAnimation
import ReelDocument
import ReelGeometry
import Testing

@testable import ReelScene

@Suite struct LayerTimingTests {
    @Test func localTimeFollowsCoreAnimationsRules() {
        // Unbounded (no duration): (t − beginTime)·speed + timeOffset.
        let plain = MediaTiming(beginTime: 1, speed: 2, timeOffset: 0.5)
        #expect(plain.layerTime(atParentTime: 1.25) == 1 && plain.layerTime(atParentTime: 0) == -1.5)
        // One second, three times: 2.5 s is 0.5 s into the third cycle; after the end it runs on…
        let repeated = MediaTiming(duration: 1, repeatCount: 3)
        #expect(repeated.layerTime(atParentTime: 2.5) == 0.5 && repeated.layerTime(atParentTime: 3.5) == 3.5)
        // …unless it fills forwards: the last instant of the cycle.
        let held = MediaTiming(duration: 1, repeatCount: 3, fillMode: .forwards, removedOnCompletion: false)
        #expect(held.layerTime(atParentTime: 3.5) == (1.0).nextDown)
        // Autoreversing: 1.25 s is a quarter into the way back.
        #expect(MediaTiming(duration: 1, repeatCount: 1, autoreverses: true).layerTime(atParentTime: 1.25) == 0.75)
    }

    /// A layer beginning at 1 s at double speed, holding a sublayer whose position.x runs 0 → 100 over
    /// 1 s (linear): at scene time 1.25 the sublayer is half way.
    @Test func sublayersRunInTheLayersTime() throws {
        var child = Layer(name: "child")
        child.addAnimation(.basic(BasicAnimation("position.x", from: .number(0), to: .number(100), duration: 1)))
        var parent = Layer(name: "parent")
        parent.timing = MediaTiming(beginTime: 1, speed: 2)
        parent.sublayers = [child]
        var scene = Scene(width: 10, height: 10, fps: try #require(FrameRate(value: 10)), duration: 2)
        scene.layers = [parent]
        #expect(scene.sample(at: 1.25).layers.find("child")?.position.x == 50)
        #expect(scene.sample(at: 0.5).layers.find("child")?.position.x == 0)
    }

    @Test func sceneFilesSetIt() throws {
        let scene = try SceneDecoder.decode(
            Array(
                #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "a", "beginTime": 0.5, "speed": 2, "repeatCount": "infinity", "duration": 0.25, "autoreverses": true}]}"#
                    .utf8), file: "t.json")
        let timing = try #require(scene.layers.first?.timing)
        #expect(timing.beginTime == 0.5 && timing.speed == 2 && timing.repeatCount == .infinity && timing.duration == 0.25)
        #expect(timing.autoreverses)
        do {
            _ = try SceneDecoder.decode(
                Array(#"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "a", "duration": -1}]}"#.utf8),
                file: "t.json")
            Issue.record("no error")
        } catch {
            #expect(error.path == "layers[0].duration" && error.fix?.contains("lets the layer's time run on") == true, "\(error)")
        }
    }
}
