// Media timing (CORE-ANIMATION.md §1.3) against hand-computed values: fills, autoreverse, repeats, speed, offset; interpolation.
import ReelAnimation
import ReelGeometry
import Testing

// Expected values are worked out by hand from CORE-ANIMATION.md §1.3; the arithmetic is in the comments.
@Suite struct MediaTimingTests {
    @Test func activeWindowAndRemovedFill() {
        let t = MediaTiming(beginTime: 1, duration: 2)
        #expect(t.progress(atParentTime: 0.5) == nil)  // before, fill removed
        #expect(t.progress(atParentTime: 1) == 0)  // ta = 0
        #expect(t.progress(atParentTime: 2) == 0.5)  // ta = 1, p = 1/2
        #expect(t.progress(atParentTime: 3) == nil)  // u = 2 = D: after, removed
    }

    @Test func fillModes() {
        let back = MediaTiming(beginTime: 1, duration: 2, fillMode: .backwards)
        #expect(back.progress(atParentTime: 0) == 0)  // before phase evaluated at ta = timeOffset = 0
        let forwardsRemoved = MediaTiming(beginTime: 1, duration: 2, fillMode: .forwards)
        #expect(forwardsRemoved.progress(atParentTime: 4) == nil)  // removedOnCompletion hides the fill
        let forwards = MediaTiming(beginTime: 1, duration: 2, fillMode: .forwards, removedOnCompletion: false)
        #expect(forwards.progress(atParentTime: 4) == 1)  // ta_end = 2 = 1·c → end of last cycle
        #expect(forwards.progress(atParentTime: 0) == nil)
        let both = MediaTiming(beginTime: 1, duration: 2, fillMode: .both, removedOnCompletion: false)
        #expect(both.progress(atParentTime: 0) == 0 && both.progress(atParentTime: 9) == 1)
    }

    @Test func autoreverseMirrorsTime() {
        let t = MediaTiming(duration: 1, autoreverses: true, fillMode: .forwards, removedOnCompletion: false)
        #expect(t.progress(atParentTime: 0.25) == 0.25)
        #expect(t.progress(atParentTime: 1.25) == 0.75)  // c = 2, ct = 1.25 > d → tb = 2 − 1.25
        #expect(t.progress(atParentTime: 1.75) == 0.25)
        #expect(t.progress(atParentTime: 5) == 0)  // ta_end = 2 = c, autoreversed → back at the start
    }

    @Test func fractionalAndWholeRepeatCounts() {
        let half = MediaTiming(duration: 1, repeatCount: 1.5, fillMode: .forwards, removedOnCompletion: false)
        #expect(half.progress(atParentTime: 1.25) == 0.25)  // second cycle, ct = 0.25
        #expect(half.progress(atParentTime: 3) == 0.5)  // D = 1.5; ta_end = 1.5 → holds the midpoint
        let two = MediaTiming(duration: 1, repeatCount: 2, fillMode: .forwards, removedOnCompletion: false)
        #expect(two.progress(atParentTime: 3) == 1)  // ta_end = 2 = 2·c → toValue held
        let forever = MediaTiming(duration: 1, repeatCount: .infinity)
        #expect(forever.progress(atParentTime: 1000.25) == 0.25)
        #expect(forever.endTime == .infinity)
    }

    @Test func repeatDurationWinsOverRepeatCount() {
        let t = MediaTiming(duration: 1, repeatCount: 5, repeatDuration: 1.5)
        #expect(t.activeDuration == 1.5)
        #expect(t.progress(atParentTime: 1.6) == nil)
    }

    @Test func speedAndTimeOffset() {
        let fast = MediaTiming(duration: 1, speed: 2)
        #expect(fast.progress(atParentTime: 0.25) == 0.5)  // ta = 0.25·2
        #expect(fast.progress(atParentTime: 0.5) == nil)  // u = 1 = D
        #expect(fast.endTime == 0.5)
        let offset = MediaTiming(duration: 1, timeOffset: 0.5)
        #expect(offset.progress(atParentTime: 0) == 0.5)  // ta = 0.5
        #expect(abs(offset.progress(atParentTime: 0.6)! - 0.1) < 1e-12)  // ta = 1.1 wraps: ct = 0.1
        #expect(offset.progress(atParentTime: 1) == nil)  // u = 1 = D: the offset does not extend the phase
        let paused = MediaTiming(duration: 1, speed: 0, timeOffset: 0.3)
        #expect(paused.progress(atParentTime: 5) == 0.3)  // speed 0: ta = timeOffset while tp ≥ beginTime
    }

    @Test func zeroDurationMeansDefault() {
        let t = MediaTiming(duration: 0)
        #expect(t.effectiveDuration == 0.25)
        #expect(t.progress(atParentTime: 0.125) == 0.5)
    }
}

@Suite struct BasicAnimationTests {
    @Test func missingEndpointIsTheModelValue() {
        let toOnly = BasicAnimation(keyPath: "opacity", toValue: .number(1), timing: MediaTiming(duration: 2))
        #expect(toOnly.value(at: 0.5, model: .number(0.2)) == .number(0.4))  // 0.2 + (1 − 0.2)·0.25
        let fromOnly = BasicAnimation(keyPath: "opacity", fromValue: .number(0), timing: MediaTiming(duration: 2))
        #expect(fromOnly.value(at: 1, model: .number(0.8)) == .number(0.4))  // 0 + 0.8·0.5
        #expect(fromOnly.value(at: 3, model: .number(0.8)) == nil)
    }

    @Test func interpolatesEachType() {
        let p = AnimatableValue.interpolate(.point(Point(x: 0, y: 10)), .point(Point(x: 10, y: 30)), 0.25)
        #expect(p == .point(Point(x: 2.5, y: 15)))
        let r = AnimatableValue.interpolate(
            .rect(Rect(x: 0, y: 0, width: 10, height: 20)), .rect(Rect(x: 10, y: 10, width: 30, height: 40)), 0.5)
        #expect(r == .rect(Rect(x: 5, y: 5, width: 20, height: 30)))
        let c = AnimatableValue.interpolate(
            .color(Color(red: 1, green: 0, blue: 0, alpha: 0)), .color(Color(red: 0, green: 0, blue: 1, alpha: 1)), 0.5)
        #expect(c == .color(Color(red: 0.5, green: 0, blue: 0.5, alpha: 0.5)))  // straight RGBA, §7.1
        #expect(AnimatableValue.interpolate(.number(1), .point(.zero), 0.5) == nil)
    }
}
