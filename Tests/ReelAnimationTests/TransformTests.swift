// 3D transforms (CORE-ANIMATION.md §7.2–7.3) against hand-computed values: order, decomposition, slerp, the short-path quirk.
import Foundation
import ReelAnimation
import ReelGeometry
import Testing

func close(_ a: Transform3D, _ b: Transform3D, _ eps: Double = 1e-9) -> Bool {
    zip(a.values, b.values).allSatisfy { abs($0 - $1) <= eps }
}

/// CORE-ANIMATION.md §7.2–7.3, values worked out by hand.
@Suite struct TransformTests {
    @Test func constructionAndOrder() {
        let r = Transform3D.rotation(Double.pi / 2)
        // Row vectors, y down: +x turns to +y (clockwise on screen).
        #expect(abs(r.apply(Point(x: 1, y: 0)).x) < 1e-12 && abs(r.apply(Point(x: 1, y: 0)).y - 1) < 1e-12)
        // Scale first, then translate.
        let t = Transform3D.scale(2, 3).concatenating(.translation(10, 20))
        #expect(t.apply(Point(x: 1, y: 1)) == Point(x: 12, y: 23))
        #expect(close(t.concatenating(t.inverse!), .identity))
    }

    @Test func decomposeRoundTrip() throws {
        let m = Transform3D.scale(1.5, 0.5, 2).concatenating(.rotation(0.7, 1, 2, 3)).concatenating(.translation(5, -7, 3))
        let d = try #require(DecomposedTransform(m))
        #expect(close(d.transform, m, 1e-9))
        #expect(abs(d.scale.x - 1.5) < 1e-9 && abs(d.scale.y - 0.5) < 1e-9 && abs(d.scale.z - 2) < 1e-9)
        #expect(abs(d.translation.x - 5) < 1e-9 && abs(d.translation.y + 7) < 1e-9 && abs(d.translation.z - 3) < 1e-9)
        // With perspective the matrix comes back normalised by m44 (the same projective map).
        var persp = Transform3D.identity
        persp.m34 = -1.0 / 500
        let p = m.concatenating(persp)
        let normalised = Transform3D(p.values.map { $0 / p.m44 })!
        #expect(close(try #require(DecomposedTransform(p)).transform, normalised, 1e-9))
    }

    @Test func interpolationSlerpsTheRotation() {
        let mid = TransformInterpolation.interpolate(.identity, .rotation(Double.pi / 2), 0.5)
        #expect(close(mid, .rotation(Double.pi / 4)))
        let scaled = TransformInterpolation.interpolate(.scale(1, 1), .scale(3, 2), 0.25)
        #expect(close(scaled, .scale(1.5, 1.25)))
        #expect(TransformInterpolation.interpolate(.identity, .identity, 0.3) == .identity)
    }

    /// The quirk: a whole-matrix animation to 270° takes the short way, through −45° at the midpoint.
    @Test func shortPathQuirk() {
        let mid = TransformInterpolation.interpolate(.identity, .rotation(3 * Double.pi / 2), 0.5)
        #expect(close(mid, .rotation(-Double.pi / 4)))
    }

    @Test func singularEndsLerpEntries() {
        let mid = TransformInterpolation.interpolate(.scale(0, 0), .scale(2, 2), 0.5)
        #expect(close(mid, .scale(1, 1, 1)))
    }

    @Test func transformValuesInBasicAnimations() {
        let a = BasicAnimation(
            keyPath: "transform", fromValue: .transform(.identity), toValue: .transform(.scale(3, 3)),
            timing: MediaTiming(duration: 1))
        guard case .transform(let t)? = a.value(at: 0.5, model: .transform(.identity)) else {
            Issue.record("no transform")
            return
        }
        #expect(close(t, .scale(2, 2)))
        // Additive transforms concatenate (§3.2): running translation, then the animation's scale first.
        var add = a
        add.isAdditive = true
        guard
            case .transform(let r) = Animation.basic(add).apply(
                at: 0.5, model: .transform(.identity), running: .transform(.translation(10, 0)))
        else {
            Issue.record("no transform")
            return
        }
        #expect(close(r, Transform3D.scale(2, 2).concatenating(.translation(10, 0))))
    }
}
