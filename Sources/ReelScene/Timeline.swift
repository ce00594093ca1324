/// The timeline as Swift calls: adding, removing and retargeting animations, setting model values, repeats.
import ReelAnimation
import ReelGeometry

/// Why a timeline action cannot be applied: what is wrong and how to fix it.
public struct TimelineError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var fix: String?

    public init(_ message: String, fix: String? = nil) {
        self.message = message
        self.fix = fix
    }

    public var description: String { fix.map { "\(message) (\($0))" } ?? message }
}

/// A timeline action that waits for an animation to stop (`after: name` in a scene file).
public struct TimelineCue: Sendable, Equatable {
    /// The animation waited for, by its key.
    public var after: String
    /// When that animation stops (scene seconds), and when the action happens (plus its `delay`).
    public var stop: Double
    public var time: Double
    /// The layer the action acts on.
    public var layer: String

    public init(after: String, stop: Double, time: Double, layer: String) {
        self.after = after
        self.stop = stop
        self.time = time
        self.layer = layer
    }
}

/// The Swift side of a scene's `timeline`: what happens to the layers at given times. A scene file's
/// actions (`set`, `add`, `play`, `retarget`, `remove`) are decoded into exactly these calls, so code and
/// files share one set of rules. Times are scene seconds; an animation's own `beginTime` counts from the
/// time it is added (Core Animation stamps an added animation with the current time, §1.5).
extension Scene {
    /// The layer named `name`, or an error listing the layers there are.
    func layerNamed(_ name: String) throws(TimelineError) -> Layer {
        guard let layer = layers.find(name) else {
            let names = layers.flatMap { $0.flattened().map(\.layer.name) }
            throw TimelineError("no layer is named \"\(name)\"", fix: "layers: \(names.joined(separator: ", "))")
        }
        return layer
    }

    /// `addAnimation(_:forKey:)` at scene time `time`. Keys are unique per layer (§1.5): an animation
    /// already added under `key` stops applying from `time` on and the new one takes its place.
    public mutating func addAnimation(_ animation: Animation, forKey key: String?, toLayer name: String, at time: Double = 0)
        throws(TimelineError)
    {
        try modifyLayer(named: name) { layer in layer.addAnimation(animation.delayed(by: time), forKey: key, at: time) }
    }

    /// Sets a model value from `time` on. With `animated`, as an implicit animation would (§8.4): a
    /// 0.25 s basic animation on the default curve from what is on screen at that moment (the
    /// presentation value) to the new value, added under the key path's name. Without it (the
    /// default, like `CATransaction.setDisableActions(true)`), the value simply changes.
    public mutating func setValue(
        _ value: AnimatableValue, forKeyPath keyPath: LayerKeyPath, onLayer name: String, at time: Double, animated: Bool = false
    ) throws(TimelineError) {
        try setValue(value, forKeyPath: .property(keyPath), onLayer: name, at: time, animated: animated)
    }

    /// The same for any animated key path: a filter's input too (`filters.blur.inputRadius`).
    public mutating func setValue(
        _ value: AnimatableValue, forKeyPath keyPath: AnimatedKeyPath, onLayer name: String, at time: Double,
        animated: Bool = false
    ) throws(TimelineError) {
        try modifyLayer(named: name) { layer throws(TimelineError) in try Self.setValue(value, keyPath, &layer, time, animated) }
    }

    static func setValue(
        _ value: AnimatableValue, _ keyPath: AnimatedKeyPath, _ layer: inout Layer, _ time: Double, _ animated: Bool
    )
        throws(TimelineError)
    {
        guard value.typeName == keyPath.get(layer).typeName else {
            throw TimelineError(
                "\(keyPath.rawValue) takes a \(keyPath.get(layer).typeName), not a \(value.typeName)",
                fix: "give a \(keyPath.get(layer).typeName) value")
        }
        if animated {
            let from = keyPath.get(Scene.present(layer, at: time))
            let implicit = BasicAnimation(
                keyPath: keyPath.rawValue, fromValue: from, toValue: value,
                timing: MediaTiming(beginTime: time, duration: MediaTiming.defaultDuration), timingFunction: .default)
            layer.addAnimation(.basic(implicit), forKey: keyPath.rawValue, at: time)
        }
        // Kept in time order, stable: a change goes after every change at or before its time (usually
        // the end, so a repeated action appends).
        var i = layer.modelChanges.count
        while i > 0 && layer.modelChanges[i - 1].time > time { i -= 1 }
        layer.modelChanges.insert(ModelChange(time: time, keyPath: keyPath, value: value), at: i)
    }

    /// Runs `body` on the layer named `name` in place.
    mutating func modifyLayer(named name: String, _ body: (inout Layer) throws(TimelineError) -> Void) throws(TimelineError) {
        guard try layers.modify(named: name, body) else {
            _ = try layerNamed(name)  // the error naming the layers there are
            return
        }
    }

    /// `removeAnimation(forKey:)` at scene time `time`: the animation stops applying from then on.
    public mutating func removeAnimation(forKey key: String, fromLayer name: String, at time: Double) throws(TimelineError) {
        try modifyLayer(named: name) { layer throws(TimelineError) in try Self.remove(key, from: &layer, name, at: time) }
    }

    static func remove(_ key: String, from layer: inout Layer, _ name: String, at time: Double) throws(TimelineError) {
        guard let index = layer.attachedAnimations.lastIndex(where: { $0.key == key }) else {
            let names = layer.attachedAnimations.compactMap(\.key)
            throw TimelineError(
                "layer \"\(name)\" has no animation named \"\(key)\"",
                fix: names.isEmpty ? "name the animation to remove" : "its animations: \(names.joined(separator: ", "))")
        }
        layer.attachedAnimations[index].remove(at: time)
    }

    /// Gives the Pop spring running on `keyPath` a new target at `time` (Pop: setting `toValue` on a
    /// running `POPSpringAnimation`): it goes on from the value and velocity it has reached, with the
    /// same spring. The spring keeps its key.
    public mutating func retargetSpring(keyPath: String, to value: AnimatableValue, onLayer name: String, at time: Double)
        throws(TimelineError)
    {
        try modifyLayer(named: name) { layer throws(TimelineError) in
            try Self.retarget(keyPath, to: value, &layer, name, at: time)
        }
    }

    static func retarget(_ keyPath: String, to value: AnimatableValue, _ layer: inout Layer, _ name: String, at time: Double)
        throws(TimelineError)
    {
        var latest: (index: Int, animation: PopSpringAnimation)?
        for (i, a) in layer.attachedAnimations.enumerated() {
            guard case .popSpring(let s) = a.animation, s.keyPath == keyPath, s.beginTime <= time else { continue }
            if let removed = a.removalTime, removed < time { continue }
            if latest == nil || s.beginTime >= latest!.animation.beginTime { latest = (i, s) }
        }
        guard let (index, running) = latest else {
            throw TimelineError(
                "layer \"\(name)\" has no Pop spring on \(keyPath) running at \(time) s",
                fix: "add a popSpring on \(keyPath) before retargeting it")
        }
        guard value.typeName == running.toValue.typeName else {
            throw TimelineError(
                "the spring on \(keyPath) animates a \(running.toValue.typeName), not a \(value.typeName)",
                fix: "give a \(running.toValue.typeName) value")
        }
        var next = running
        next.toValue = value
        next.beginTime = time
        next.fromValue = nil
        next.velocity = nil
        layer.addAnimation(.popSpring(next), forKey: layer.attachedAnimations[index].key, at: time)
    }

    /// The most times one action may repeat, and repeated actions may happen in all (`repeatTimes`).
    public static let maximumRepeats = 10_000
    public static let maximumRepeatedOccurrences = 100_000

    /// The times at which an action first at `time` happens when it repeats every `interval` seconds,
    /// `count` times (nil: until the clip ends) — a scene file's `every`/`times`. Only occurrences before
    /// the end of the clip happen. They count towards `repeatedOccurrences`; a repeat beyond the limits is
    /// refused before any time is made (`every: 1e-9` over a minute would be 6·10¹⁰ of them).
    public mutating func repeatTimes(from time: Double, every interval: Double, times count: Int?) throws(TimelineError)
        -> [Double]
    {
        try Self.checkRepeatInterval(interval)
        if let count, !(1...Self.maximumRepeats).contains(count) {
            throw TimelineError(
                "times is a whole number from 1 to \(Self.maximumRepeats), got \(count)",
                fix: "pass nil to repeat to the end of the clip")
        }
        let limit = count ?? Int.max
        let fitting = max(0, ((duration - time) / interval).rounded(.up))
        if fitting > Double(Self.maximumRepeats) && limit > Self.maximumRepeats {
            throw TimelineError(
                "every \(interval) s repeats the action \(fitting < 1e15 ? String(Int(fitting)) : "\(fitting)") times before the clip ends, above the limit of \(Self.maximumRepeats)",
                fix: "repeat less often, or give \"times\" a count")
        }
        var times: [Double] = []
        var k = 0
        while k < limit, time + Double(k) * interval < duration {
            times.append(time + Double(k) * interval)
            k += 1
        }
        guard repeatedOccurrences + times.count <= Self.maximumRepeatedOccurrences else {
            throw TimelineError(
                "the timeline's actions happen more than \(Self.maximumRepeatedOccurrences) times in all",
                fix: "repeat less often")
        }
        repeatedOccurrences += times.count
        return times
    }

    /// Refuses a repeat interval that is not a positive number of seconds.
    static func checkRepeatInterval(_ interval: Double) throws(TimelineError) {
        guard interval > 0, interval.isFinite else { throw TimelineError("every must be a positive number of seconds") }
    }

    /// When the animation last added under `key` (on any layer) stops: its end, or the moment it was
    /// removed or replaced if that is earlier — when Core Animation calls `animationDidStop`. Nil when
    /// no animation has that key.
    public func stopTime(ofAnimation key: String) -> Double? {
        var found: Double?
        func visit(_ layer: Layer) {
            if let attached = layer.attachedAnimations.last(where: { $0.key == key }) {
                let a = attached.animation
                let end = a.endTime(model: AnimatedKeyPath(rawValue: a.keyPath)?.get(layer))
                found = min(end, attached.removalTime ?? .infinity)
            }
            for s in layer.sublayers { visit(s) }
            if let m = layer.mask { visit(m) }
        }
        for l in layers { visit(l) }
        return found
    }

    /// Every animation key used in the scene, sorted.
    public var animationKeys: [String] {
        Set(layers.flatMap { $0.flattened().flatMap { $0.layer.attachedAnimations.compactMap(\.key) } }).sorted()
    }
}

extension Layer {
    /// `addAnimation(_:forKey:)` on the layer itself, for building a scene in code: `animation` keeps
    /// its own times. Adding under a key already in use replaces that animation from `time` on (§1.5).
    public mutating func addAnimation(_ animation: Animation, forKey key: String? = nil, at time: Double = 0) {
        if let key {
            for i in attachedAnimations.indices where attachedAnimations[i].key == key { attachedAnimations[i].remove(at: time) }
        }
        attachedAnimations.append(AttachedAnimation(animation, key: key, additionTime: time > 0 ? time : nil))
    }

    /// `addSublayer(_:)`: in front of the existing sublayers.
    public mutating func addSublayer(_ layer: Layer) {
        sublayers.append(layer)
    }
}
