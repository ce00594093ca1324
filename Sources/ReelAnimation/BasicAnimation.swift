/// `CABasicAnimation`: from/to/by endpoints, additive and cumulative values, and the
/// `CAValueFunction`s that turn numbers into transforms.
import ReelGeometry

/// `CABasicAnimation` (CORE-ANIMATION.md §3): from/to/by endpoints, a timing function, `additive` and
/// `cumulative`.
public struct BasicAnimation: Hashable, Sendable {
    public var keyPath: String
    public var fromValue: AnimatableValue?
    public var toValue: AnimatableValue?
    public var byValue: AnimatableValue?
    public var timing: MediaTiming
    public var timingFunction: TimingFunction = .linear
    public var isAdditive = false
    public var isCumulative = false
    /// When set, the endpoints are numbers (`.number` or `.numbers`) turned into a transform.
    public var valueFunction: ValueFunction?

    public init(
        keyPath: String, fromValue: AnimatableValue? = nil, toValue: AnimatableValue? = nil, byValue: AnimatableValue? = nil,
        timing: MediaTiming = MediaTiming(), timingFunction: TimingFunction = .linear
    ) {
        self.keyPath = keyPath
        self.fromValue = fromValue
        self.toValue = toValue
        self.byValue = byValue
        self.timing = timing
        self.timingFunction = timingFunction
    }

    /// The common case in code: `BasicAnimation("opacity", from: 0, to: 1, duration: 0.3, .easeIn)`.
    public init(
        _ keyPath: String, from: AnimatableValue? = nil, to: AnimatableValue? = nil, by: AnimatableValue? = nil,
        duration: Double, beginTime: Double = 0, _ timingFunction: TimingFunction = .linear, fillMode: FillMode = .removed
    ) {
        self.init(
            keyPath: keyPath, fromValue: from, toValue: to, byValue: by,
            timing: MediaTiming(beginTime: beginTime, duration: duration, fillMode: fillMode), timingFunction: timingFunction)
    }

    /// The endpoints A and B of §3.1's table. "current" is the model value, re-read every frame (WL1);
    /// "previous" — nothing set — is approximated by the model value too, since a scene has no earlier
    /// presentation value to capture: the animation then shows the model value throughout.
    public func endpoints(model current: AnimatableValue) -> (AnimatableValue, AnimatableValue)? {
        switch (fromValue, toValue, byValue) {
        case (let f?, let t?, _):
            return Self.fromToWinOverBy(f, t)
        case (let f?, nil, let b?):
            return AnimatableValue.adding(f, b).map { (f, $0) }
        case (nil, let t?, let b?):
            return AnimatableValue.subtracting(t, b).map { ($0, t) }
        case (let f?, nil, nil):
            return (f, current)
        case (nil, let t?, nil):
            return (current, t)
        case (nil, nil, let b?):
            return AnimatableValue.adding(current, b).map { (current, $0) }
        case (nil, nil, nil):
            return (current, current)
        }
    }

    /// UNCONFIRMED (CORE-ANIMATION.md §3.1): with from, to and by all set, by is ignored.
    static func fromToWinOverBy(_ from: AnimatableValue, _ to: AnimatableValue) -> (AnimatableValue, AnimatableValue) {
        (from, to)
    }

    /// This animation's own value at parent time `t` (before combining with the running value), or nil
    /// when it does not apply then.
    public func value(at t: Double, model: AnimatableValue) -> AnimatableValue? {
        guard let (p, cycle) = timing.progressAndCycle(atParentTime: t), let (a, b) = endpoints(model: model) else { return nil }
        guard var v = AnimatableValue.interpolate(a, b, timingFunction(p)) else { return nil }
        if isCumulative && cycle > 0 {
            // §3.3: each repeat builds on the previous one's end value: f_k ⊕ k·V_end.
            v = AnimatableValue.adding(v, Self.cumulativeStep(from: a, to: b).scaled(by: Double(cycle))) ?? v
        }
        if let valueFunction {
            switch v {
            case .number(let x): return .transform(valueFunction.transform([x]))
            case .numbers(let xs): return .transform(valueFunction.transform(xs))
            default: return nil
            }
        }
        return v
    }

    /// UNCONFIRMED (CORE-ANIMATION.md §3.3): what each cumulative repeat adds — the end value V_end, as
    /// SMIL's accumulate="sum" does (the same as the delta when the animation starts at zero).
    static func cumulativeStep(from a: AnimatableValue, to b: AnimatableValue) -> AnimatableValue { b }
}

/// `CAValueFunction` (CORE-ANIMATION.md §3.4): the animation interpolates numbers and the function
/// turns them into a transform, so a rotation of 2π animates as a full turn.
public enum ValueFunction: String, Sendable, CaseIterable {
    case rotateX, rotateY, rotateZ, scale, scaleX, scaleY, scaleZ, translate, translateX, translateY, translateZ

    /// How many numbers it takes: 3 for `scale` and `translate`, 1 for the others.
    public var arity: Int { self == .scale || self == .translate ? 3 : 1 }

    public func transform(_ v: [Double]) -> Transform3D {
        let x = v.first ?? 0
        switch self {
        case .rotateX: return .rotation(x, 1, 0, 0)
        case .rotateY: return .rotation(x, 0, 1, 0)
        case .rotateZ: return .rotation(x, 0, 0, 1)
        case .scale: return v.count == 3 ? .scale(v[0], v[1], v[2]) : .scale(x, x, x)
        case .scaleX: return .scale(x, 1, 1)
        case .scaleY: return .scale(1, x, 1)
        case .scaleZ: return .scale(1, 1, x)
        case .translate: return v.count == 3 ? .translation(v[0], v[1], v[2]) : .translation(x, 0, 0)
        case .translateX: return .translation(x, 0, 0)
        case .translateY: return .translation(0, x, 0)
        case .translateZ: return .translation(0, 0, x)
        }
    }
}
