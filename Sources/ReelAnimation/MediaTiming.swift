// Core Animation's media timing (CAMediaTiming): fill modes, begin time, speed, repeats, autoreverse, and
// the local time an animation sees.

/// How an animation shows outside its active time (`CAMediaTimingFillMode`).
public enum FillMode: String, Sendable, CaseIterable {
    case removed, forwards, backwards, both
}

/// The timing properties of `CAMediaTiming`, evaluated as in CORE-ANIMATION.md §1.3.
public struct MediaTiming: Hashable, Sendable {
    /// Duration used when `duration ≤ 0` at the time an animation is added (§1.5: the transaction's
    /// default animation duration).
    public static let defaultDuration = 0.25

    public var beginTime: Double
    public var duration: Double
    public var speed: Double
    public var timeOffset: Double
    public var repeatCount: Double
    public var repeatDuration: Double
    public var autoreverses: Bool
    public var fillMode: FillMode
    public var removedOnCompletion: Bool

    public init(
        beginTime: Double = 0, duration: Double = 0, speed: Double = 1, timeOffset: Double = 0,
        repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
        fillMode: FillMode = .removed, removedOnCompletion: Bool = true
    ) {
        self.beginTime = beginTime
        self.duration = duration
        self.speed = speed
        self.timeOffset = timeOffset
        self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration
        self.autoreverses = autoreverses
        self.fillMode = fillMode
        self.removedOnCompletion = removedOnCompletion
    }

    /// The duration in force: `duration`, or the default when it is not positive (§1.5).
    public var effectiveDuration: Double { duration > 0 ? duration : Self.defaultDuration }

    /// One cycle: forward leg plus, when autoreversing, the reverse leg (§1.3 step 2).
    public var cycleDuration: Double { effectiveDuration * (autoreverses ? 2 : 1) }

    /// Active duration (§1.3 step 2). `repeatDuration` wins when both repeat properties are set.
    public var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount == .greatestFiniteMagnitude ? .infinity : repeatCount * cycleDuration }
        return cycleDuration
    }

    /// The end of the active phase in parent time (`+∞` for endless animations and for `speed` 0).
    public var endTime: Double {
        speed == 0 ? .infinity : beginTime + activeDuration / abs(speed)
    }

    /// Progress `p = tb/d` in 0…1 at parent time `tp` (before the timing function), or nil when the
    /// animation does not apply at that time (outside its active phase with no fill, or removed).
    public func progress(atParentTime tp: Double) -> Double? {
        progressAndCycle(atParentTime: tp)?.progress
    }

    /// Progress and the index of the repeat it falls in (0 for the first cycle), for `cumulative`.
    public func progressAndCycle(atParentTime tp: Double) -> (progress: Double, cycle: Int)? {
        let d = effectiveDuration
        let c = cycleDuration
        let activeEnd = activeDuration
        var ta: Double
        var atEnd = false

        if speed == 0 {
            guard tp >= beginTime || fillsBackwards else { return nil }
            return basicProgress(timeOffset, d: d, c: c)
        }
        let u = (tp - beginTime) * abs(speed)
        if u < 0 {
            guard fillsBackwards else { return nil }
            ta = timeOffset
        } else if u >= activeEnd {
            guard fillsForwards, !removedOnCompletion else { return nil }
            ta = (speed < 0 ? -activeEnd : activeEnd) + timeOffset
            atEnd = true
        } else {
            ta = (tp - beginTime) * speed + timeOffset
        }
        if atEnd, let held = Self.heldProgressAtExactCycleEnd(ta: ta, cycle: c, autoreverses: autoreverses) {
            // Clamped before the conversion: a timeOffset of 1e300 is a cycle count no Int holds.
            return (held, max(0, Int(min(max((ta / c).rounded(), 0), 1e15)) - 1))
        }
        return basicProgress(ta, d: d, c: c)
    }

    /// A layer's own time at its superlayer's time `tp` (CALayer adopts CAMediaTiming: its animations and
    /// sublayers run in it). Without a duration it runs on: (tp − beginTime)·speed + timeOffset. With one,
    /// it folds into the cycle as an animation's does (repeats, autoreverse); outside the active time it
    /// holds an end where the fill mode says so (the last instant before the end, so that content shown up
    /// to its end stays), and otherwise runs on.
    public func layerTime(atParentTime tp: Double) -> Double {
        let linear = (tp - beginTime) * speed + timeOffset
        guard duration > 0, let p = progress(atParentTime: tp) else { return linear }
        return p >= 1 ? duration.nextDown : p * duration
    }

    private var fillsBackwards: Bool { fillMode == .backwards || fillMode == .both }
    private var fillsForwards: Bool { fillMode == .forwards || fillMode == .both }

    /// §1.3 step 4: fold active local time into one cycle, mirroring the reverse leg.
    private func basicProgress(_ ta: Double, d: Double, c: Double) -> (progress: Double, cycle: Int) {
        let k = (ta / c).rounded(.down)
        let ct = ta - k * c
        let tb = (autoreverses && ct > d) ? c - ct : ct
        return (min(max(tb / d, 0), 1), k.isFinite ? Int(max(min(k, 1e9), -1e9)) : 0)
    }

    /// UNCONFIRMED (CORE-ANIMATION.md §1.3 step 5, "Boundary", as in SMIL): when the forwards fill
    /// lands exactly on a positive multiple of the cycle, hold the end of the last cycle (the
    /// `toValue`, or the start again after an autoreversed cycle) rather than wrapping to the start.
    static func heldProgressAtExactCycleEnd(ta: Double, cycle: Double, autoreverses: Bool) -> Double? {
        guard ta > 0 else { return nil }
        let cycles = ta / cycle
        guard cycles == cycles.rounded() else { return nil }
        return autoreverses ? 0 : 1
    }
}
