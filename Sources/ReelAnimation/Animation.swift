// Any animation a layer can run (basic, keyframe, spring, Pop spring, group) and what they share: key
// path, timing, sampling.

/// Any animation a layer can run.
public enum Animation: Hashable, Sendable {
    case basic(BasicAnimation)
    case keyframe(KeyframeAnimation)
    case spring(SpringAnimation)
    case popSpring(PopSpringAnimation)
    case group(AnimationGroup)

    /// The animated key path; empty for a group, whose children each have their own.
    public var keyPath: String {
        switch self {
        case .basic(let a): return a.keyPath
        case .keyframe(let a): return a.keyPath
        case .spring(let a): return a.base.keyPath
        case .popSpring(let a): return a.keyPath
        case .group: return ""
        }
    }

    public var isAdditive: Bool {
        switch self {
        case .basic(let a): return a.isAdditive
        case .keyframe(let a): return a.isAdditive
        case .spring(let a): return a.base.isAdditive
        case .popSpring, .group: return false
        }
    }

    /// The value at t. A Pop spring that continues a running one on the same key path gets that
    /// spring's state as `springStart` (see `Animation.popSpringStarts`).
    public func value(at t: Double, model: AnimatableValue, springStart: PopSpring.State? = nil) -> AnimatableValue? {
        switch self {
        case .basic(let a): return a.value(at: t, model: model)
        case .keyframe(let a): return a.value(at: t, model: model)
        case .spring(let a): return a.value(at: t, model: model)
        case .popSpring(let a): return a.value(at: t, from: springStart ?? a.initialState(model: model))
        case .group: return nil  // applied child by child, see AnimationGroup.childTime
        }
    }

    /// The time it stops affecting the layer (parent time): the end of the active duration; a Pop
    /// spring's convergence (searched in 10 ms steps up to a minute); +∞ for endless ones.
    public func endTime(model: AnimatableValue?) -> Double {
        switch self {
        case .basic(let a): return a.timing.endTime
        case .keyframe(let a): return a.timing.endTime
        case .spring(let a): return a.base.timing.endTime
        case .group(let g): return g.timing.endTime
        case .popSpring(let a):
            guard let model else { return a.beginTime }
            let start = a.initialState(model: model)
            var t = a.beginTime
            while t < a.beginTime + 60 {
                t += 0.01
                if a.spring.hasConverged(a.state(at: t, from: start), target: a.toValue.components, threshold: a.threshold) {
                    return t
                }
            }
            return .infinity
        }
    }

    /// The same animation started `delta` seconds later.
    public func delayed(by delta: Double) -> Animation {
        switch self {
        case .basic(var a):
            a.timing.beginTime += delta
            return .basic(a)
        case .keyframe(var a):
            a.timing.beginTime += delta
            return .keyframe(a)
        case .spring(var a):
            a.base.timing.beginTime += delta
            return .spring(a)
        case .group(var g):
            g.timing.beginTime += delta
            return .group(g)
        case .popSpring(var a):
            a.beginTime += delta
            return .popSpring(a)
        }
    }

    /// Combines this animation's value with the running presentation value (§3.2): a non-additive
    /// animation replaces it, an additive one adds to it.
    public func apply(at t: Double, model: AnimatableValue, running: AnimatableValue, springStart: PopSpring.State? = nil)
        -> AnimatableValue
    {
        guard let v = value(at: t, model: model, springStart: springStart) else { return running }
        return isAdditive ? (AnimatableValue.adding(running, v) ?? running) : v
    }

    /// Whether this is a Pop spring (whose start `popSpringStarts` works out).
    public var isPopSpring: Bool {
        if case .popSpring = self { return true }
        return false
    }

    /// Where each Pop spring starts (by index in `animations`): retargeting — a later spring on the same
    /// key path takes over from the state the earlier one has reached at its begin time, value and
    /// velocity, unless it names its own `fromValue` or the earlier one was removed before it began
    /// (`removals`: index → time from which an animation no longer applies).
    public static func popSpringStarts(
        _ animations: [Animation], removals: [Int: Double] = [:], model: (String) -> AnimatableValue?
    ) -> [Int: PopSpring.State] {
        var starts: [Int: PopSpring.State] = [:]
        var running: [String: (index: Int, animation: PopSpringAnimation)] = [:]
        let springs = animations.enumerated().compactMap { item -> (Int, PopSpringAnimation)? in
            if case .popSpring(let a) = item.element { return (item.offset, a) }
            return nil
        }
        for (index, a) in springs.sorted(by: { $0.1.beginTime < $1.1.beginTime }) {
            guard let m = model(a.keyPath) else { continue }
            var start = a.initialState(model: m)
            if a.fromValue == nil, let previous = running[a.keyPath], let previousStart = starts[previous.index],
                removals[previous.index].map({ $0 >= a.beginTime }) ?? true
            {
                start = previous.animation.state(at: a.beginTime, from: previousStart)
            }
            starts[index] = start
            running[a.keyPath] = (index, a)
        }
        return starts
    }
}

/// `CAAnimationGroup` (CORE-ANIMATION.md §6): children run together in the group's time, which its
/// timing function warps; a child longer than the group is cut off at the group's end.
public struct AnimationGroup: Hashable, Sendable {
    public var animations: [Animation]
    public var timing: MediaTiming
    public var timingFunction: TimingFunction = .linear

    public init(animations: [Animation], timing: MediaTiming = MediaTiming(), timingFunction: TimingFunction = .linear) {
        self.animations = animations.map { Self.ignoringRemoval(Self.inheritingDuration($0, from: timing)) }
        self.timing = timing
        self.timingFunction = timingFunction
    }

    /// §6: only the group's `removedOnCompletion` is honoured, the children's are ignored — a child's
    /// own fill mode decides what it shows after it ends, for as long as the group applies.
    static func ignoringRemoval(_ a: Animation) -> Animation {
        switch a {
        case .basic(var b):
            b.timing.removedOnCompletion = false
            return .basic(b)
        case .keyframe(var k):
            k.timing.removedOnCompletion = false
            return .keyframe(k)
        case .spring(var s):
            s.base.timing.removedOnCompletion = false
            return .spring(s)
        default:
            return a
        }
    }

    /// UNCONFIRMED (§6): a child with no duration of its own runs for the group's whole duration.
    static func inheritingDuration(_ a: Animation, from g: MediaTiming) -> Animation {
        switch a {
        case .basic(var b) where b.timing.duration <= 0:
            b.timing.duration = g.effectiveDuration
            return .basic(b)
        case .keyframe(var k) where k.timing.duration <= 0:
            k.timing.duration = g.effectiveDuration
            return .keyframe(k)
        default:
            return a
        }
    }

    /// The children's parent time at the group's parent time t: d·TF(tb/d), or nil when the group does
    /// not apply (outside its active time without a fill, or removed). While the group fills, its
    /// children see the clamped time and their own fills decide (UNCONFIRMED, §6).
    public func childTime(at t: Double) -> Double? {
        guard let p = timing.progress(atParentTime: t) else { return nil }
        return timing.effectiveDuration * timingFunction(p)
    }
}
