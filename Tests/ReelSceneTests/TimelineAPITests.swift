// The timeline's Swift calls against their scene-file spellings: replacement, retargeting, removal, repeats, presentation layers.
import ReelAnimation
import ReelGeometry
import Testing

@testable import ReelScene

/// The timeline's Swift calls and their scene-file spellings: same-key replacement, retargeting,
/// removal and when an animation is said to stop.
@Suite struct TimelineAPITests {
    func blank(duration: Double = 3) -> Scene {
        var s = Scene(width: 10, height: 10, fps: FrameRate(numerator: 10, denominator: 1)!, duration: duration)
        s.layers = [Layer(name: "a")]
        return s
    }

    func fade(_ from: Double, _ to: Double, _ duration: Double) -> Animation {
        .basic(
            BasicAnimation(
                keyPath: "opacity", fromValue: .number(from), toValue: .number(to), timing: MediaTiming(duration: duration)))
    }

    func opacity(_ s: Scene, _ t: Double) -> Double { s.sample(at: t).layers[0].opacity }

    /// CORE-ANIMATION.md §1.5: keys are unique per layer, so adding under a used key replaces the
    /// animation from that moment.
    @Test func addingUnderAUsedKeyReplaces() throws {
        var s = blank()
        try s.addAnimation(fade(0, 1, 2), forKey: "fade", toLayer: "a", at: 0)
        try s.addAnimation(fade(1, 0.5, 1), forKey: "fade", toLayer: "a", at: 1)
        #expect(abs(opacity(s, 0.5) - 0.25) < 1e-12)  // the first: 0.5/2
        #expect(abs(opacity(s, 1.5) - 0.75) < 1e-12)  // the second half way: 1 − 0.5·0.5
        // The first one stopped when it was replaced, so a chained action waits for 1 s, not 2 s.
        #expect(s.layers[0].attachedAnimations[0].removalTime == 1)
        // The stop time of "fade" is the one added last: 1 + 1.
        #expect(s.stopTime(ofAnimation: "fade") == 2)
        // Without the replacement, the first one would still show after the second ends.
        var kept = blank()
        try kept.addAnimation(fade(0, 1, 2.5), forKey: "one", toLayer: "a")
        try kept.addAnimation(fade(1, 0.5, 1), forKey: "two", toLayer: "a", at: 1)
        #expect(abs(opacity(kept, 2.25) - 0.9) < 1e-12)
        var replaced = blank()
        try replaced.addAnimation(fade(0, 1, 2.5), forKey: "one", toLayer: "a")
        try replaced.addAnimation(fade(1, 0.5, 1), forKey: "one", toLayer: "a", at: 1)
        #expect(opacity(replaced, 2.25) == 1)  // the model value
    }

    @Test func removalIsAStop() throws {
        var s = blank()
        try s.addAnimation(fade(0, 1, 2), forKey: "fade", toLayer: "a")
        #expect(s.stopTime(ofAnimation: "fade") == 2)
        try s.removeAnimation(forKey: "fade", fromLayer: "a", at: 0.5)
        #expect(s.stopTime(ofAnimation: "fade") == 0.5)
        #expect(opacity(s, 0.75) == 1)
        #expect(s.stopTime(ofAnimation: "nothing") == nil)
        #expect(throws: TimelineError.self) { try s.removeAnimation(forKey: "nothing", fromLayer: "a", at: 1) }
        #expect(throws: TimelineError.self) { try s.addAnimation(fade(0, 1, 1), forKey: nil, toLayer: "b") }
    }

    /// `retarget` is the same as a later spring on the key path without a fromValue: both continue the
    /// running spring from its value and velocity. And it keeps the spring's parameters.
    @Test func retargetContinuesTheRunningSpring() throws {
        let springs = #"""
            {"width": 10, "height": 10, "fps": 60, "duration": 1.6, "layers": [{"name": "b", "animations": [
              {"name": "press", "type": "popSpring", "keyPath": "transform.scale", "toValue": 0.8, "beginTime": 0.1, "springBounciness": 20, "springSpeed": 18}
              %@]}] %@}
            """#
        func scene(_ extra: String, _ timeline: String) throws -> Scene {
            let parts = springs.components(separatedBy: "%@")
            return try decode(parts[0] + extra + parts[1] + timeline + parts[2])
        }
        let twoSprings = try scene(
            #", {"type": "popSpring", "keyPath": "transform.scale", "toValue": 1, "beginTime": 0.45, "springBounciness": 20, "springSpeed": 18}"#,
            "")
        let retarget = try scene("", #", "timeline": [{"at": 0.45, "layer": "b", "retarget": {"transform.scale": 1}}]"#)
        for t in stride(from: 0.0, through: 1.6, by: 0.05) {
            let a = twoSprings.sample(at: t).layers[0].transform.m11, b = retarget.sample(at: t).layers[0].transform.m11
            #expect(abs(a - b) < 1e-12, "t = \(t)")
        }
        // The retargeted spring keeps the key: removing "press" stops it.
        let removed = try scene(
            "",
            #", "timeline": [{"at": 0.45, "layer": "b", "retarget": {"transform.scale": 1}}, {"at": 0.5, "layer": "b", "remove": "press"}]"#
        )
        #expect(removed.sample(at: 0.6).layers[0].transform.m11 == 1)  // the model value
        // A spring removed before the next one begins is not continued: that one starts from the model.
        var s = blank()
        var press = PopSpringAnimation(
            keyPath: "opacity", toValue: .number(0.2), beginTime: 0, spring: PopSpring(bounciness: 4, speed: 12))
        press.threshold = 0.01
        try s.addAnimation(.popSpring(press), forKey: "p", toLayer: "a")
        try s.removeAnimation(forKey: "p", fromLayer: "a", at: 0.2)
        press.toValue = .number(0.5)
        try s.addAnimation(.popSpring(press), forKey: "q", toLayer: "a", at: 0.3)
        #expect(opacity(s, 0.3) == 1)  // starts from the model value 1, not from where "p" was
    }

    /// Pop's default thresholds (0.005 for scale, 1 for points, 0.01 for the rest) are the same whether
    /// a spring is built in Swift or read from a scene file.
    @Test func popThresholdDefaultsAgree() throws {
        let cases: [(String, AnimatableValue, String, Double)] = [
            ("transform.scale", .number(0.8), "0.8", 0.005), ("position", .point(Point(x: 1, y: 2)), "[1, 2]", 1),
            ("opacity", .number(0.5), "0.5", 0.01), ("bounds", .rect(Rect(x: 0, y: 0, width: 4, height: 4)), "[0, 0, 4, 4]", 1),
        ]
        for (keyPath, value, json, expected) in cases {
            #expect(PopSpringAnimation(keyPath: keyPath, toValue: value, beginTime: 0).threshold == expected, "\(keyPath)")
            let file = try SceneDecoder.decode(
                Array(
                    #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "a", "animations": [{"type": "popSpring", "keyPath": "\#(keyPath)", "toValue": \#(json)}]}]}"#
                        .utf8), file: "s.json")
            guard case .popSpring(let p) = file.layers[0].animations[0] else {
                Issue.record("not a Pop spring")
                continue
            }
            #expect(p.threshold == expected, "\(keyPath) from a file")
        }
    }

    @Test func retargetErrorsNameThePlace() {
        let none = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "a"}], "timeline": [{"at": 0.5, "layer": "a", "retarget": {"opacity": 1}}]}"#
        )
        #expect(none?.path == "timeline[0].retarget.opacity")
        #expect(none?.message == "layer \"a\" has no Pop spring on opacity running at 0.5 s")
        #expect(none?.fix == "add a popSpring on opacity before retargeting it")
        let typo = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "a"}], "timeline": [{"at": 0.5, "layer": "a", "retarget": {"opacty": 1}}]}"#
        )
        #expect(typo?.fix?.hasPrefix("did you mean \"opacity\"?") == true)
    }

    /// Sets through the API are the file's `set`, with and without animation.
    @Test func setValueMatchesTheFile() throws {
        let file = try decode(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 2, "layers": [{"name": "a"}], "timeline": [{"at": 0.5, "layer": "a", "set": {"opacity": 0.2}, "animate": true}, {"at": 1, "layer": "a", "set": {"cornerRadius": 4}}]}"#
        )
        var code = blank(duration: 2)
        try code.setValue(.number(0.2), forKeyPath: .opacity, onLayer: "a", at: 0.5, animated: true)
        try code.setValue(.number(4), forKeyPath: .cornerRadius, onLayer: "a", at: 1)
        for t in stride(from: 0.0, through: 2, by: 0.05) {
            let f = file.sample(at: t).layers[0], c = code.sample(at: t).layers[0]
            #expect(f.opacity == c.opacity && f.cornerRadius == c.cornerRadius, "t = \(t)")
        }
        #expect(abs(code.sample(at: 0.625).layers[0].opacity - (1 - 0.8 * TimingFunction.default(0.5))) < 1e-12)
        #expect(throws: TimelineError.self) { try code.setValue(.color(.black), forKeyPath: .opacity, onLayer: "a", at: 0) }
    }
}

@Suite struct HiddenTests {
    /// QuartzCode's show/hide sets `hidden` when a group completes; an animation of it steps half way.
    @Test func hiddenIsSetAndSteps() throws {
        let s = try decode(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 2, "layers": [{"name": "a", "animations": [{"keyPath": "hidden", "fromValue": false, "toValue": true, "duration": 1}]}], "timeline": [{"at": 1.5, "layer": "a", "set": {"hidden": true}}]}"#
        )
        #expect(s.sample(at: 0.49).layers[0].hidden == false)
        #expect(s.sample(at: 0.5).layers[0].hidden == true)  // f = 0.5 switches (UNCONFIRMED rule)
        #expect(s.sample(at: 1.2).layers[0].hidden == false)  // removed: the model value
        #expect(s.sample(at: 1.5).layers[0].hidden == true)  // set by the timeline
        #expect(
            decodeError(
                #"{"width": 10, "height": 10, "fps": 10, "duration": 2, "layers": [{"name": "a"}], "timeline": [{"at": 1, "layer": "a", "set": {"hidden": 1}}]}"#
            )?.message == "expected true or false, found a number")
    }
}

@Suite struct AddedAnimationTests {
    /// An animation added at 1 s with a backwards fill shows its first value from 1 s (when it was
    /// added) until it begins — not before: until then it was not on the layer.
    @Test func backwardsFillStartsWhenAdded() throws {
        var s = Scene(width: 10, height: 10, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 3)
        s.layers = [Layer(name: "a")]
        var fade = BasicAnimation(
            keyPath: "opacity", fromValue: 0.2, toValue: 0.6, timing: MediaTiming(beginTime: 0.5, duration: 1))
        fade.timing.fillMode = .backwards
        try s.addAnimation(.basic(fade), forKey: nil, toLayer: "a", at: 1)
        #expect(s.sample(at: 0.9).layers[0].opacity == 1)  // not added yet: the model value
        #expect(s.sample(at: 1.2).layers[0].opacity == 0.2)  // added, before its begin (1.5): backwards fill
        #expect(abs(s.sample(at: 2).layers[0].opacity - 0.4) < 1e-12)
    }
}

/// `repeatTimes`, the Swift side of a scene file's `every`/`times`: the same expansion and limits.
@Suite struct TimelineRepeatTests {
    func blank(duration: Double = 3) -> Scene {
        var s = Scene(width: 10, height: 10, fps: FrameRate(numerator: 10, denominator: 1)!, duration: duration)
        s.layers = [Layer(name: "a")]
        return s
    }

    @Test func repeatsUntilTheClipEndsOrTheCount() throws {
        var s = blank()
        #expect(try s.repeatTimes(from: 0.5, every: 1, times: nil) == [0.5, 1.5, 2.5])
        #expect(try s.repeatTimes(from: 0, every: 0.75, times: 10) == [0, 0.75, 1.5, 2.25])  // 3 is the end: not played
        #expect(try s.repeatTimes(from: 0.5, every: 1, times: 2) == [0.5, 1.5])
        #expect(try s.repeatTimes(from: 3, every: 1, times: nil) == [])
        #expect(s.repeatedOccurrences == 3 + 4 + 2)
    }

    @Test func repeatedActionsApplyAtEachTime() throws {
        var s = blank()
        let fade = Animation.basic(
            BasicAnimation(keyPath: "opacity", fromValue: .number(0), toValue: .number(1), timing: MediaTiming(duration: 0.5)))
        for t in try s.repeatTimes(from: 0, every: 1, times: nil) {
            try s.addAnimation(fade, forKey: nil, toLayer: "a", at: t)
        }
        #expect(s.layers[0].attachedAnimations.map(\.additionTime) == [nil, 1, 2])  // added at 0: there from the start
        #expect(s.sample(at: 1.25).layers[0].opacity == 0.5)  // half way through the second
        #expect(s.sample(at: 1.75).layers[0].opacity == 1)  // between: the model value
    }

    @Test func limits() throws {
        var s = blank()
        for interval in [0, -1, .infinity, .nan] {
            #expect(throws: TimelineError.self) { try s.repeatTimes(from: 0, every: interval, times: 1) }
        }
        #expect(throws: TimelineError.self) { try s.repeatTimes(from: 0, every: 1, times: 0) }
        #expect(throws: TimelineError.self) { try s.repeatTimes(from: 0, every: 1, times: 10_001) }
        // 3 s every 0.1 ms is 30,000 times: refused without a count, cut to the count with one.
        do throws(TimelineError) {
            _ = try s.repeatTimes(from: 0, every: 1e-4, times: nil)
            Issue.record("expected the repeat limit")
        } catch {
            #expect(error.message.contains("times before the clip ends, above the limit of 10000"))
        }
        #expect(s.repeatedOccurrences == 0)  // refused ones count for nothing
        #expect(try s.repeatTimes(from: 0, every: 1e-4, times: 10_000).count == 10_000)

        // 10 actions of 10,000 each reach the limit of 100,000 in all; one more is refused.
        var long = blank(duration: 20_000)
        for _ in 0..<10 { #expect(try long.repeatTimes(from: 0, every: 1, times: 10_000).count == 10_000) }
        #expect(long.repeatedOccurrences == 100_000)
        do throws(TimelineError) {
            _ = try long.repeatTimes(from: 0, every: 1, times: 1)
            Issue.record("expected the total limit")
        } catch {
            #expect(error.message == "the timeline's actions happen more than 100000 times in all")
        }
    }
}

/// The model keeps what was added and when; `sample(at:)` gives presentation layers.
@Suite struct PresentationTests {
    @Test func attachedAnimationsKeepKeyAndTimes() throws {
        var s = Scene(width: 10, height: 10, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 3)
        s.layers = [Layer(name: "a")]
        let fade = Animation.basic(
            BasicAnimation(keyPath: "opacity", fromValue: .number(0), toValue: .number(1), timing: MediaTiming(duration: 2)))
        try s.addAnimation(fade, forKey: "fade", toLayer: "a", at: 0)
        try s.addAnimation(fade, forKey: "fade", toLayer: "a", at: 1)
        try s.removeAnimation(forKey: "fade", fromLayer: "a", at: 2.5)
        let attached = s.layers[0].attachedAnimations
        #expect(attached.map(\.key) == ["fade", "fade"])
        #expect(attached.map(\.additionTime) == [nil, 1])
        #expect(attached.map(\.removalTime) == [1, 2.5])  // replaced at 1; the second removed at 2.5
        #expect(attached[0].isApplied(at: 0.99) && !attached[0].isApplied(at: 1))
        #expect(!attached[1].isApplied(at: 0.99) && attached[1].isApplied(at: 1) && !attached[1].isApplied(at: 2.5))
    }

    /// A replicator's presentation holds each instance's sublayers at t − k·instanceDelay.
    @Test func replicatorInstancesAreSampledLater() throws {
        var s = Scene(width: 10, height: 10, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 3)
        var replicator = Layer(name: "r", type: .replicator)
        replicator.replicator.instanceCount = 3
        replicator.replicator.instanceDelay = 0.5
        var dot = Layer(name: "dot")
        dot.addAnimation(
            .basic(
                BasicAnimation(
                    keyPath: "opacity", fromValue: .number(0), toValue: .number(1), timing: MediaTiming(duration: 2))))
        replicator.addSublayer(dot)
        s.layers = [replicator]
        let presented = s.sample(at: 1).layers
        #expect(presented[0].instances.map { $0[0].opacity } == [0.5, 0.25, 0])  // at 1, 0.5 and 0 s of a 2 s fade
        #expect(presented.find("dot")?.opacity == 0.5)
        #expect(LayerKeyPath.opacity.get(presented[0].sublayers[0]) == .number(0.5))
        #expect(s.layers[0].sublayers[0].opacity == 1)  // the model is untouched
    }
}
