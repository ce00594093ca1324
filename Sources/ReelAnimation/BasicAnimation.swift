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
        return v
    }

    /// UNCONFIRMED (CORE-ANIMATION.md §3.3): what each cumulative repeat adds — the end value V_end, as
    /// SMIL's accumulate="sum" does (the same as the delta when the animation starts at zero).
    static func cumulativeStep(from a: AnimatableValue, to b: AnimatableValue) -> AnimatableValue { b }
}
