/// `CABasicAnimation` with from/to endpoints on one key path (the by-cases come with the animation
/// engine issue).
public struct BasicAnimation: Hashable, Sendable {
    public var keyPath: String
    public var fromValue: AnimatableValue?
    public var toValue: AnimatableValue?
    public var timing: MediaTiming

    public init(
        keyPath: String, fromValue: AnimatableValue? = nil, toValue: AnimatableValue? = nil,
        timing: MediaTiming = MediaTiming()
    ) {
        self.keyPath = keyPath
        self.fromValue = fromValue
        self.toValue = toValue
        self.timing = timing
    }

    /// The presentation value at parent time `t`, or nil when the animation does not apply then.
    /// A missing endpoint is the model value, re-read at every frame (CORE-ANIMATION.md §3.1, WL1).
    public func value(at t: Double, model: AnimatableValue) -> AnimatableValue? {
        guard let p = timing.progress(atParentTime: t) else { return nil }
        let a = fromValue ?? model
        let b = toValue ?? model
        return AnimatableValue.interpolate(a, b, p)
    }
}
