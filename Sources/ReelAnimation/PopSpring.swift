/// The Pop spring (Facebook's Pop library): bounciness and speed as tension and friction, RK4 steps of
/// 1 ms, the test for coming to rest, and the Pop spring animation.
import Foundation

/// Facebook Pop's spring (CORE-ANIMATION.md §5.2): bounciness and speed converted to tension, friction
/// and mass, integrated with RK4 at a fixed 1 ms step from where the spring was started, so any frame
/// rate sees the same motion. A spring can be retargeted while it runs: it goes on from its current
/// value and velocity toward the new target.
public struct PopSpring: Hashable, Sendable {
    public var tension: Double
    public var friction: Double
    public var mass: Double = 1

    public init(tension: Double, friction: Double, mass: Double = 1) {
        self.tension = tension
        self.friction = friction
        self.mass = mass
    }

    /// Pop's conversion from `springBounciness` and `springSpeed` (defaults 4 and 12).
    public init(bounciness: Double = 4, speed: Double = 12) {
        let b = 0.8 * (bounciness / 1.7) / 20
        let s = (speed / 1.7) / 20
        let qcT = 0.5 + 199.5 * s
        func noBounce(_ t: Double) -> Double {
            if t <= 18 { return 0.0007 * t * t * t - 0.031 * t * t + 0.64 * t + 1.28 }
            if t <= 44 { return 0.000044 * t * t * t - 0.006 * t * t + 0.36 * t + 2 }
            return 0.00000045 * t * t * t - 0.000332 * t * t + 0.1078 * t + 5.84
        }
        let nb = noBounce(qcT)
        let qcF = nb + (0.01 - nb) * (2 * b - b * b)
        self.init(tension: 194 + (qcT - 30) / 50 * 181, friction: 25 + (qcF - 8) / 2 * 6)
    }

    public static let step = 0.001

    /// One state: value components and velocity components.
    public struct State: Hashable, Sendable {
        public var value: [Double]
        public var velocity: [Double]

        public init(value: [Double], velocity: [Double]) {
            self.value = value
            self.velocity = velocity
        }
    }

    /// Classic RK4 for x″ = −(k/m)(x − target) − (c/m)x′, per component.
    public func advance(_ s: State, toward target: [Double], by h: Double) -> State {
        let k = tension / mass, c = friction / mass
        func accel(_ x: Double, _ v: Double, _ t: Double) -> Double { -k * (x - t) - c * v }
        var out = s
        for i in 0..<s.value.count {
            let x = s.value[i], v = s.velocity[i], tg = target[i]
            let k1x = v, k1v = accel(x, v, tg)
            let k2x = v + 0.5 * h * k1v, k2v = accel(x + 0.5 * h * k1x, v + 0.5 * h * k1v, tg)
            let k3x = v + 0.5 * h * k2v, k3v = accel(x + 0.5 * h * k2x, v + 0.5 * h * k2v, tg)
            let k4x = v + h * k3v, k4v = accel(x + h * k3x, v + h * k3v, tg)
            out.value[i] = x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            out.velocity[i] = v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        }
        return out
    }

    /// The state `elapsed` seconds after `start`: whole 1 ms steps, then a lerp between the last two
    /// states for the remainder (Pop's rule), so the result does not depend on the frame rate.
    public func state(from start: State, toward target: [Double], after elapsed: Double) -> State {
        guard elapsed > 0 else { return start }
        // Past ten million steps (10 000 s) the integration stops; the cap also keeps a beginTime of
        // -1e300 from reaching an Int conversion.
        let steps = Int(min((elapsed / Self.step).rounded(.down), 10_000_000))
        var s = start
        for _ in 0..<min(steps, 10_000_000) { s = advance(s, toward: target, by: Self.step) }
        let rest = elapsed - Double(steps) * Self.step
        guard rest > 1e-12 else { return s }
        let next = advance(s, toward: target, by: Self.step)
        let f = rest / Self.step
        return State(
            value: zip(s.value, next.value).map { $0 + ($1 - $0) * f },
            velocity: zip(s.velocity, next.velocity).map { $0 + ($1 - $0) * f })
    }

    /// Pop's convergence test for threshold τ: every |p| < τ/2, ‖v‖² < 25τ and ‖a‖² < 625τ².
    public func hasConverged(_ s: State, target: [Double], threshold tau: Double) -> Bool {
        let k = tension / mass, c = friction / mass
        var v2 = 0.0, a2 = 0.0
        for i in 0..<s.value.count {
            let p = target[i] - s.value[i]
            if abs(p) >= tau / 2 { return false }
            v2 += s.velocity[i] * s.velocity[i]
            let a = k * p - c * s.velocity[i]
            a2 += a * a
        }
        return v2 < 25 * tau && a2 < 625 * tau * tau
    }
}

/// A Pop spring animation on one key path (POPSpringAnimation): from the value it starts from (the
/// given `fromValue`, the value a running spring on the same key path has reached, or the model
/// value) toward `toValue`, until it converges; then it holds `toValue`, as Pop writes the property.
public struct PopSpringAnimation: Hashable, Sendable {
    public var keyPath: String
    public var fromValue: AnimatableValue?
    public var toValue: AnimatableValue
    /// Initial velocity in value units per second (ignored when continuing a running spring).
    public var velocity: AnimatableValue?
    public var beginTime: Double
    public var spring: PopSpring
    /// Pop's convergence threshold τ: 0.01 for opacity, colour and rotation, 1 for points, 0.005 for
    /// scale.
    public var threshold: Double

    /// Without a `threshold`, Pop's default for the property (`defaultThreshold`), the same for the
    /// Swift API and scene files.
    public init(
        keyPath: String, toValue: AnimatableValue, beginTime: Double, spring: PopSpring = PopSpring(), threshold: Double? = nil
    ) {
        self.keyPath = keyPath
        self.toValue = toValue
        self.beginTime = beginTime
        self.spring = spring
        self.threshold = threshold ?? Self.defaultThreshold(keyPath: keyPath, toValue: toValue)
    }

    /// Pop's thresholds by property: 0.005 for scale, 1 for points, sizes and rects, 0.01 for the rest
    /// (opacity, colour, rotation…).
    public static func defaultThreshold(keyPath: String, toValue: AnimatableValue) -> Double {
        if keyPath.hasPrefix("transform.scale") { return 0.005 }
        switch toValue {
        case .point, .size, .rect: return 1
        default: return 0.01
        }
    }

    /// The state it starts from when nothing was running before it.
    public func initialState(model: AnimatableValue) -> PopSpring.State {
        let from = fromValue ?? model
        let v = velocity?.components ?? [Double](repeating: 0, count: from.components.count)
        return PopSpring.State(value: from.components, velocity: v)
    }

    /// The state at time t ≥ beginTime, from `start`.
    public func state(at t: Double, from start: PopSpring.State) -> PopSpring.State {
        spring.state(from: start, toward: toValue.components, after: t - beginTime)
    }

    public func value(at t: Double, from start: PopSpring.State) -> AnimatableValue? {
        guard t >= beginTime, start.value.count == toValue.components.count else { return nil }
        let s = state(at: t, from: start)
        if spring.hasConverged(s, target: toValue.components, threshold: threshold) { return toValue }
        return toValue.withComponents(s.value)
    }
}
