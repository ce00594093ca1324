/// `CASpringAnimation`: the damped spring in closed form (under-, critically and over-damped), its
/// settling time, and SwiftUI's perceptual duration and bounce.
import Foundation

/// `CASpringAnimation` (CORE-ANIMATION.md §5.1): a basic animation whose progress is a damped spring's,
/// evaluated in closed form at the basic local time in seconds; it may overshoot past 1.
public struct SpringAnimation: Hashable, Sendable {
    public var base: BasicAnimation
    public var mass: Double = 1
    public var stiffness: Double = 100
    public var damping: Double = 10
    /// In from→to distances per second; positive moves toward the target.
    public var initialVelocity: Double = 0
    public var allowsOverdamping = false

    public init(_ base: BasicAnimation) {
        self.base = base
    }

    /// `init(perceptualDuration:bounce:)` with SwiftUI's documented mapping (UNCONFIRMED for CA, §5.1):
    /// m = 1, k = (2π/duration)², ζ = 1 − bounce (bounce ≥ 0) or 1/(1 + bounce), c = 2ζ√k; it allows
    /// overdamping.
    public mutating func setPerceptual(duration: Double, bounce: Double) {
        mass = 1
        stiffness = pow(2 * Double.pi / duration, 2)
        let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        damping = 2 * zeta * stiffness.squareRoot()
        allowsOverdamping = true
    }

    var omega0: Double { (stiffness / mass).squareRoot() }
    var zeta: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// The displacement x(t), from 1 at t = 0 toward 0 (the closed forms of §5.1).
    public func displacement(at t: Double) -> Double {
        let w0 = omega0, z = zeta, v0 = initialVelocity
        if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            return exp(-z * w0 * t) * (cos(wd * t) + ((z * w0 - v0) / wd) * sin(wd * t))
        }
        if z == 1 || !allowsOverdamping {
            return (1 + (w0 - v0) * t) * exp(-w0 * t)
        }
        let root = (z * z - 1).squareRoot()
        let r1 = -w0 * (z - root), r2 = -w0 * (z + root)
        let c2 = (-v0 - r1) / (r2 - r1)
        return (1 - c2) * exp(r1 * t) + c2 * exp(r2 * t)
    }

    /// Output fraction f = 1 − x(t).
    public func fraction(at t: Double) -> Double { 1 - displacement(at: t) }

    /// UNCONFIRMED (§5.1): the settling time is when the envelope A·e^(−ζω0t) falls below 8·10⁻⁴, with
    /// A = √(1 + ((ζω0 − v0)/ωd)²); for ζ ≥ 1, the last time |x| ≥ 8·10⁻⁴ (searched in 1 ms steps).
    public var settlingDuration: Double {
        let eps = 8e-4
        let w0 = omega0, z = zeta
        if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            let a = (1 + pow((z * w0 - initialVelocity) / wd, 2)).squareRoot()
            return log(a / eps) / (z * w0)
        }
        var last = 0.0
        var t = 0.0
        while t < 600 {
            if abs(displacement(at: t)) >= eps { last = t }
            if t - last > 1 { break }
            t += 0.001
        }
        return last
    }

    /// Endpoints as §3.1; progress from the spring at the basic local time in seconds (the animation's
    /// timing function is ignored, UNCONFIRMED §5.1).
    public func value(at t: Double, model: AnimatableValue) -> AnimatableValue? {
        guard let (p, _) = base.timing.progressAndCycle(atParentTime: t), let (a, b) = base.endpoints(model: model) else {
            return nil
        }
        return AnimatableValue.interpolate(a, b, fraction(at: p * base.timing.effectiveDuration))
    }
}
