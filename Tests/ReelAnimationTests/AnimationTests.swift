// Basic and keyframe animations and a group's children (CORE-ANIMATION.md §3, §4, §6), against hand-computed values.
import ReelAnimation
import ReelGeometry
import Testing

func number(_ v: AnimatableValue?) -> Double? {
    if case .number(let x)? = v { return x }
    return nil
}

/// Hand-computed values for §3 (basic) and §4 (keyframe) of CORE-ANIMATION.md; arithmetic in comments.
@Suite struct BasicEndpointTests {
    let t = MediaTiming(duration: 1)

    @Test func fromToByTable() {
        let model = AnimatableValue.number(10)
        func at(_ a: BasicAnimation) -> Double? { number(a.value(at: 0.5, model: model)) }
        #expect(at(BasicAnimation(keyPath: "x", fromValue: .number(2), byValue: .number(3), timing: t)) == 3.5)  // 2 → 2+3
        #expect(at(BasicAnimation(keyPath: "x", toValue: .number(8), byValue: .number(3), timing: t)) == 6.5)  // 8−3 → 8
        #expect(at(BasicAnimation(keyPath: "x", byValue: .number(3), timing: t)) == 11.5)  // 10 → 13
        #expect(
            at(BasicAnimation(keyPath: "x", fromValue: .number(0), toValue: .number(4), byValue: .number(100), timing: t)) == 2)
        #expect(at(BasicAnimation(keyPath: "x", timing: t)) == 10)  // nothing set: the model value
    }

    @Test func timingFunctionShapesProgress() {
        let a = BasicAnimation(keyPath: "x", fromValue: .number(0), toValue: .number(100), timing: t, timingFunction: .easeIn)
        #expect(abs(number(a.value(at: 0.5, model: .number(0)))! - 31.5357) < 1e-3)  // 100 · easeIn(0.5)
    }

    @Test func additiveAddsToTheRunningValue() {
        var a = BasicAnimation(keyPath: "x", fromValue: .number(0), toValue: .number(5), timing: t)
        a.isAdditive = true
        let r = Animation.basic(a).apply(at: 0.5, model: .number(10), running: .number(10))
        #expect(number(r) == 12.5)  // 10 ⊕ 2.5
        let replaced = Animation.basic(BasicAnimation(keyPath: "x", toValue: .number(0), timing: t)).apply(
            at: 0.5, model: .number(10), running: .number(99))
        #expect(number(replaced) == 5)  // non-additive: 10 → 0 half way, the running 99 is replaced
    }

    @Test func cumulativeRepeatsBuildOnTheEndValue() {
        var a = BasicAnimation(
            keyPath: "x", fromValue: .number(0), toValue: .number(2), timing: MediaTiming(duration: 1, repeatCount: 3))
        a.isCumulative = true
        #expect(number(a.value(at: 0.5, model: .number(0))) == 1)
        #expect(number(a.value(at: 1.5, model: .number(0))) == 3)  // cycle 1: 1 ⊕ 1·2
        #expect(number(a.value(at: 2.25, model: .number(0))) == 4.5)  // cycle 2: 0.5 ⊕ 2·2
    }
}

@Suite struct KeyframeTests {
    func kf(_ values: [Double], _ keyTimes: [Double]? = nil, mode: KeyframeAnimation.CalculationMode = .linear)
        -> KeyframeAnimation
    {
        var a = KeyframeAnimation(
            keyPath: "x", values: values.map { .number($0) }, keyTimes: keyTimes, timing: MediaTiming(duration: 1))
        a.calculationMode = mode
        return a
    }

    @Test func keyTimesEndingBeforeOneHoldTheLastValue() {
        // StarButton: [1, 1.5, 0.01] at [0, 0.4, 0.6].
        let a = kf([1, 1.5, 0.01], [0, 0.4, 0.6])
        #expect(number(a.value(atProgress: 0.2)) == 1.25)  // half of the first segment
        #expect(abs(number(a.value(atProgress: 0.5))! - 0.755) < 1e-12)  // (0.5 − 0.4)/0.2 = ½: (1.5 + 0.01)/2
        #expect(number(a.value(atProgress: 0.8)) == 0.01)  // after 0.6 the last value holds
        #expect(number(a.value(atProgress: 1)) == 0.01)
    }

    @Test func defaultKeyTimesAndPerSegmentTimingFunctions() {
        var a = kf([0, 10, 20])
        #expect(number(a.value(atProgress: 0.25)) == 5)  // K = [0, ½, 1]
        a.timingFunctions = [.easeIn]
        #expect(abs(number(a.value(atProgress: 0.25))! - 3.15357) < 1e-4)  // 10 · easeIn(½) in segment 0
        #expect(number(a.value(atProgress: 0.75)) == 15)  // segment 1 has no function: linear
    }

    @Test func discrete() {
        let a = kf([1, 2, 3], mode: .discrete)  // K = [0, ⅓, ⅔]
        #expect(number(a.value(atProgress: 0)) == 1)
        #expect(number(a.value(atProgress: 0.5)) == 2)
        #expect(number(a.value(atProgress: 0.9)) == 3)
    }

    @Test func paced() {
        let a = kf([0, 1, 4], [0, 0.9, 1], mode: .paced)  // key times ignored; lengths 1 and 3: K = [0, ¼, 1]
        #expect(number(a.value(atProgress: 0.25)) == 1)
        #expect(number(a.value(atProgress: 0.625)) == 2.5)  // 1 + 3 · (0.625 − 0.25)/0.75
    }

    @Test func cubicIsCatmullRomAtZeroParameters() {
        let a = kf([0, 1, 0, 1], mode: .cubic)  // K = [0, ⅓, ⅔, 1]
        // Segment 0 at s = ½: v0 = 0, v1 = 1, DD0 = ½(v0 − v0) + ½(v1 − v0) = ½, DS1 = ½(1) + ½(−1) = 0:
        // h = ½·0 + (⅛ − ½ + ½)·½ + ½·1 + (⅛ − ¼)·0 = 0.5625.
        #expect(abs(number(a.value(atProgress: 1.0 / 6))! - 0.5625) < 1e-12)
        #expect(abs(number(a.value(atProgress: 0.5))! - 0.5) < 1e-12)  // segment 1 is symmetric
        var tight = kf([0, 1], mode: .cubic)
        tight.tensionValues = [1, 1]  // tension 1: zero tangents, a smoothstep
        #expect(abs(number(tight.value(atProgress: 0.25))! - 0.15625) < 1e-12)  // 3s² − 2s³ at ¼
    }

    @Test func cubicPacedMovesAtConstantSpeed() {
        let a = kf([0, 10], mode: .cubicPaced)
        for p in [0.1, 0.3, 0.5, 0.9] {
            #expect(abs(number(a.value(atProgress: p))! - 10 * p) < 0.01, "p = \(p)")
        }
    }

    @Test func keyTimeValidation() {
        #expect(KeyframeAnimation.keyTimesAreValid([0, 0.5, 1], valueCount: 3, mode: .linear))
        #expect(!KeyframeAnimation.keyTimesAreValid([0, 0.7, 0.5], valueCount: 3, mode: .linear))
        #expect(!KeyframeAnimation.keyTimesAreValid([0, 1.5], valueCount: 2, mode: .linear))
        // Invalid key times fall back to even spacing.
        #expect(number(kf([0, 10, 20], [0, 0.9, 0.1]).value(atProgress: 0.25)) == 5)
    }

    @Test func pointsInterpolateComponentWise() {
        let a = KeyframeAnimation(
            keyPath: "position", values: [.point(Point(x: 0, y: 0)), .point(Point(x: 10, y: 20))],
            timing: MediaTiming(duration: 2))
        #expect(a.value(at: 0.5, model: .point(.zero)) == .point(Point(x: 2.5, y: 5)))
    }
}

@Suite struct GroupChildRemovalTests {
    /// CORE-ANIMATION.md §6: a child's removedOnCompletion is ignored, so a child with a forwards fill
    /// holds its end value while its group (longer, filling forwards) still applies; without a fill it
    /// goes back to the model value.
    @Test func childFillHoldsInsideTheGroup() {
        let held = BasicAnimation(
            keyPath: "opacity", fromValue: .number(1), toValue: .number(0),
            timing: MediaTiming(duration: 0.5, fillMode: .forwards))  // removedOnCompletion true, as by default
        let dropped = BasicAnimation(
            keyPath: "opacity", fromValue: .number(1), toValue: .number(0), timing: MediaTiming(duration: 0.5))
        let group = AnimationGroup(
            animations: [.basic(held), .basic(dropped)],
            timing: MediaTiming(duration: 1, fillMode: .forwards, removedOnCompletion: false))
        let t = group.childTime(at: 0.75)!
        #expect(Animation.basic(held).value(at: t, model: .number(1)) == nil)  // outside a group: removed
        #expect(group.animations[0].value(at: t, model: .number(1)) == .number(0))  // held by its fill
        #expect(group.animations[1].value(at: t, model: .number(1)) == nil)  // no fill: the model shows
    }
}
