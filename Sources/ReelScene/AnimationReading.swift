/// Animations: basic, keyframe, spring, Pop spring and group, their timing and their key paths.
import Foundation
import ReelAnimation
import ReelDocument
import ReelGeometry

extension Reader {
    static let timingKeys = [
        "name", "type", "keyPath", "beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration",
        "autoreverses",
        "fillMode", "removedOnCompletion", "timingFunction", "additive", "cumulative",
    ]
    static let basicKeys = ["fromValue", "toValue", "byValue", "valueFunction"]
    static let keyframeKeys = [
        "values", "path", "rotationMode", "keyTimes", "timingFunctions", "calculationMode", "tensionValues", "continuityValues",
        "biasValues",
    ]
    static let springKeys = [
        "mass", "stiffness", "damping", "initialVelocity", "allowsOverdamping", "perceptualDuration", "bounce",
    ]
    static let popSpringKeys = [
        "name", "type", "keyPath", "fromValue", "toValue", "velocity", "beginTime", "springBounciness", "springSpeed",
        "dynamicsTension",
        "dynamicsFriction", "dynamicsMass", "threshold",
    ]
    static let animationTypes = ["basic", "keyframe", "spring", "popSpring", "group"]
    static let groupKeys = [
        "name", "type", "animations", "beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration",
        "autoreverses",
        "fillMode", "removedOnCompletion", "timingFunction",
    ]

    func animation(_ node: JSONNode, _ path: String, type: LayerType) throws(SceneError) -> Animation {
        var kind = "basic"
        if case .object(let list) = node.value, let typeNode = list.first(where: { $0.key == "type" })?.value {
            kind = try string(typeNode, join(path, "type"))
            guard Self.animationTypes.contains(kind) else {
                throw fail(
                    typeNode, join(path, "type"), "unknown animation type \"\(kind)\"",
                    fix: "use basic, keyframe, spring, popSpring or group")
            }
        }
        if kind == "popSpring" { return try popSpring(node, path) }
        if kind == "group" { return try group(node, path, type: type) }
        let extra: [String]
        switch kind {
        case "basic": extra = Self.basicKeys
        case "spring": extra = Self.basicKeys + Self.springKeys
        default: extra = Self.keyframeKeys
        }
        let m = try members(node, path, known: Self.timingKeys + extra, what: "a \(kind) animation")
        let (keyName, keyPath) = try animatedKeyPath(m, node, path)
        let timing = try mediaTiming(m, path)
        let timingFunction =
            try m["timingFunction"].map { n throws(SceneError) in try self.timingFunction(n, join(path, "timingFunction")) }
            ?? .linear
        let additive = try m["additive"].map { n throws(SceneError) in try bool(n, join(path, "additive")) } ?? false
        let cumulative = try m["cumulative"].map { n throws(SceneError) in try bool(n, join(path, "cumulative")) } ?? false

        if kind == "basic" || kind == "spring" {
            var a = BasicAnimation(keyPath: keyName, timing: timing, timingFunction: timingFunction)
            if let n = m["valueFunction"] {
                let f = try choice(n, join(path, "valueFunction"), ValueFunction.self)
                guard keyPath.valueType == .transform else {
                    throw fail(
                        n, join(path, "valueFunction"), "a value function makes a transform; \"\(keyName)\" is not one",
                        fix: "use keyPath \"transform\"")
                }
                guard m["fromValue"] != nil, m["toValue"] != nil || m["byValue"] != nil else {
                    throw fail(
                        n, join(path, "valueFunction"),
                        "with a value function, give \"fromValue\" and \"toValue\" (or \"byValue\") as numbers")
                }
                a.valueFunction = f
                func numbers(_ key: String) throws(SceneError) -> AnimatableValue? {
                    guard let node = m[key] else { return nil }
                    if f.arity == 1 { return .number(try number(node, join(path, key))) }
                    let c = try components(
                        node, join(path, key), names: ["x", "y", "z"], what: "three numbers", example: "[1, 1, 1]")
                    return .numbers(c)
                }
                a.fromValue = try numbers("fromValue")
                a.toValue = try numbers("toValue")
                a.byValue = try numbers("byValue")
            } else {
                if let n = m["fromValue"] { a.fromValue = try value(n, join(path, "fromValue"), type: keyPath.valueType) }
                if let n = m["toValue"] { a.toValue = try value(n, join(path, "toValue"), type: keyPath.valueType) }
                if let n = m["byValue"] { a.byValue = try value(n, join(path, "byValue"), type: keyPath.valueType) }
            }
            if a.fromValue == nil && a.toValue == nil && a.byValue == nil {
                throw fail(
                    node, path, "a \(kind) animation needs \"fromValue\", \"toValue\" or \"byValue\"", fix: "add \"toValue\"")
            }
            a.isAdditive = additive
            a.isCumulative = cumulative
            if kind == "basic" { return .basic(a) }
            return .spring(try spring(a, m, path))
        }
        if let pathNode = m["path"] {
            guard keyPath.valueType == .point else {
                throw fail(
                    pathNode, join(path, "path"), "a keyframe path moves a point; \"\(keyName)\" is not one",
                    fix: "use keyPath \"position\"")
            }
            var a = KeyframeAnimation(keyPath: keyName, values: [], timing: timing)
            a.path = KeyframePath(try shapePath(pathNode, join(path, "path")))
            a.timingFunction = timingFunction
            if let n = m["calculationMode"] {
                a.calculationMode = try choice(n, join(path, "calculationMode"), KeyframeAnimation.CalculationMode.self)
            }
            if let n = m["rotationMode"] { a.rotationMode = try choice(n, join(path, "rotationMode"), RotationMode.self) }
            if let n = m["keyTimes"] {
                var k: [Double] = []
                for (i, item) in try array(n, join(path, "keyTimes")).enumerated() {
                    k.append(try number(item, "\(join(path, "keyTimes"))[\(i)]"))
                }
                a.keyTimes = k
            }
            return .keyframe(a)
        }
        guard let valuesNode = m["values"] else {
            throw fail(node, join(path, "values"), "a keyframe animation needs \"values\"", fix: "add \"values\": [v0, v1, …]")
        }
        var values: [AnimatableValue] = []
        for (i, item) in try array(valuesNode, join(path, "values")).enumerated() {
            values.append(try value(item, "\(join(path, "values"))[\(i)]", type: keyPath.valueType))
        }
        guard !values.isEmpty else { throw fail(valuesNode, join(path, "values"), "\"values\" is empty") }
        var a = KeyframeAnimation(keyPath: keyName, values: values, timing: timing)
        a.timingFunction = timingFunction
        a.isAdditive = additive
        a.isCumulative = cumulative
        if let n = m["calculationMode"] {
            a.calculationMode = try choice(n, join(path, "calculationMode"), KeyframeAnimation.CalculationMode.self)
        }
        if let n = m["keyTimes"] {
            let p = join(path, "keyTimes")
            var k: [Double] = []
            for (i, item) in try array(n, p).enumerated() {
                let v = try number(item, "\(p)[\(i)]")
                guard v >= 0 && v <= 1 else { throw fail(item, "\(p)[\(i)]", "key times lie in 0…1, got \(v)") }
                if let last = k.last, v < last {
                    throw fail(
                        item, "\(p)[\(i)]", "key times must not decrease (\(v) after \(last))",
                        fix: "list key times in increasing order")
                }
                k.append(v)
            }
            a.keyTimes = k
        }
        if let n = m["timingFunctions"] {
            let p = join(path, "timingFunctions")
            var fs: [TimingFunction] = []
            for (i, item) in try array(n, p).enumerated() { fs.append(try self.timingFunction(item, "\(p)[\(i)]")) }
            a.timingFunctions = fs
        }
        func numbers(_ key: String) throws(SceneError) -> [Double] {
            guard let n = m[key] else { return [] }
            var out: [Double] = []
            for (i, item) in try array(n, join(path, key)).enumerated() {
                let v = try number(item, "\(join(path, key))[\(i)]")
                guard v >= -1 && v <= 1 else { throw fail(item, "\(join(path, key))[\(i)]", "\(key) lie in −1…1, got \(v)") }
                out.append(v)
            }
            return out
        }
        a.tensionValues = try numbers("tensionValues")
        a.continuityValues = try numbers("continuityValues")
        a.biasValues = try numbers("biasValues")
        try checkCounts(a, m, path)
        return .keyframe(a)
    }

    /// Lists whose lengths must agree with `values` (CORE-ANIMATION.md §4.2): Core Animation ignores or
    /// pairs mismatched lists without a word, which in a scene file is always a mistake. Paced modes
    /// ignore `keyTimes` and `timingFunctions` whatever their counts: those are noted, not refused.
    func checkCounts(_ a: KeyframeAnimation, _ m: [String: JSONNode], _ path: String) throws(SceneError) {
        let n = a.values.count
        let mode = a.calculationMode
        let paced = mode == .paced || mode == .cubicPaced
        if let node = m["keyTimes"] {
            let k = a.keyTimes?.count ?? 0
            let expected = mode == .discrete ? "\(n) or \(n + 1)" : "\(n)"
            if paced {
                // Core Animation ignores them in paced modes, and code ported from iOS sets them anyway:
                // accepted as there, with a note (the sampler paces by distance whatever they say).
                ignoredInPacedMode("keyTimes", node, path, mode)
            } else if mode == .discrete ? (k != n && k != n + 1) : k != n {
                throw fail(
                    node, join(path, "keyTimes"), "\(k) key times for \(n) values: \(mode.rawValue) mode needs \(expected)",
                    fix: "give one key time per value")
            }
        }
        for key in ["tensionValues", "continuityValues", "biasValues"] {
            guard let node = m[key], case .array(let items) = node.value else { continue }
            if mode != .cubic && mode != .cubicPaced {
                throw fail(
                    node, join(path, key), "only the cubic modes use \(key)", fix: "remove it, or use calculationMode cubic")
            }
            if items.count != n {
                throw fail(node, join(path, key), "\(items.count) \(key) for \(n) values", fix: "give one per value")
            }
        }
        guard let node = m["timingFunctions"] else { return }
        if paced {
            ignoredInPacedMode("timingFunctions", node, path, mode)
            return
        }
        if mode == .discrete {
            throw fail(
                node, join(path, "timingFunctions"), "\(mode.rawValue) mode ignores timingFunctions",
                fix: "remove \"timingFunctions\", or use calculationMode linear")
        }
        let segments = max(n - 1, 1)
        if a.timingFunctions.count != segments {
            throw fail(
                node, join(path, "timingFunctions"),
                "\(a.timingFunctions.count) timing functions for \(segments) segment\(segments == 1 ? "" : "s") between \(n) values",
                fix: "give one per segment (values − 1), or one \"timingFunction\" for the whole animation")
        }
    }

    /// A list that paced modes ignore (`keyTimes`, `timingFunctions`): one note for the scene, naming the
    /// first place, as Core Animation accepts it without a word.
    func ignoredInPacedMode(_ key: String, _ node: JSONNode, _ path: String, _ mode: KeyframeAnimation.CalculationMode) {
        notes.add(key, fail(node, join(path, key), "ignored in \(mode.rawValue) mode, as in Core Animation").description)
    }

    /// A `CAAnimationGroup`: `animations` (basic, keyframe or spring) in the group's time.
    func group(_ node: JSONNode, _ path: String, type: LayerType) throws(SceneError) -> Animation {
        let m = try members(node, path, known: Self.groupKeys, what: "a group animation")
        guard let list = m["animations"] else { throw fail(node, join(path, "animations"), "a group needs \"animations\"") }
        var children: [Animation] = []
        for (i, child) in try array(list, join(path, "animations")).enumerated() {
            let p = "\(join(path, "animations"))[\(i)]"
            let a = try animation(child, p, type: type)
            switch a {
            case .popSpring, .group: throw fail(child, p, "a group holds basic, keyframe and spring animations")
            default: children.append(a)
            }
        }
        let timing = try mediaTiming(m, path)
        var tf = TimingFunction.linear
        if let n = m["timingFunction"] { tf = try timingFunction(n, join(path, "timingFunction")) }
        return .group(AnimationGroup(animations: children, timing: timing, timingFunction: tf))
    }

    /// CASpringAnimation's physical parameters; without a `duration` the animation lasts its
    /// settling duration (what callers of Core Animation usually set).
    func spring(_ base: BasicAnimation, _ m: [String: JSONNode], _ path: String) throws(SceneError) -> SpringAnimation {
        var s = SpringAnimation(base)
        func positive(_ key: String, allowZero: Bool = false) throws(SceneError) -> Double? {
            guard let n = m[key] else { return nil }
            let v = try number(n, join(path, key))
            guard v.isFinite, allowZero ? v >= 0 : v > 0 else {
                throw fail(n, join(path, key), "\(key) must be \(allowZero ? "zero or more" : "positive"), got \(v)")
            }
            return v
        }
        if let v = try positive("mass") { s.mass = v }
        if let v = try positive("stiffness") { s.stiffness = v }
        if let v = try positive("damping", allowZero: true) { s.damping = v }
        if let n = m["initialVelocity"] {
            s.initialVelocity = try finite(try number(n, join(path, "initialVelocity")), n, join(path, "initialVelocity"))
        }
        if let n = m["allowsOverdamping"] { s.allowsOverdamping = try bool(n, join(path, "allowsOverdamping")) }
        if let d = try positive("perceptualDuration") {
            var bounce = 0.0
            if let n = m["bounce"] {
                bounce = try number(n, join(path, "bounce"))
                guard bounce > -1 && bounce < 1 else {
                    throw fail(n, join(path, "bounce"), "bounce lies in (−1, 1), got \(bounce)")
                }
            }
            s.setPerceptual(duration: d, bounce: bounce)
        }
        if m["duration"] == nil { s.base.timing.duration = s.settlingDuration }
        return s
    }

    /// A Pop spring: `springBounciness`/`springSpeed` (0…20; defaults 4 and 12) or
    /// `dynamicsTension`/`dynamicsFriction`/`dynamicsMass`.
    func popSpring(_ node: JSONNode, _ path: String) throws(SceneError) -> Animation {
        let m = try members(node, path, known: Self.popSpringKeys, what: "a popSpring animation")
        let (keyName, keyPath) = try animatedKeyPath(m, node, path)
        guard let toNode = m["toValue"] else { throw fail(node, join(path, "toValue"), "a popSpring needs \"toValue\"") }
        func num(_ key: String, _ range: ClosedRange<Double>) throws(SceneError) -> Double? {
            guard let n = m[key] else { return nil }
            let v = try number(n, join(path, key))
            guard range.contains(v) else {
                throw fail(n, join(path, key), "\(key) lies in \(range.lowerBound)…\(range.upperBound), got \(v)")
            }
            return v
        }
        var spring = PopSpring(bounciness: try num("springBounciness", 0...20) ?? 4, speed: try num("springSpeed", 0...20) ?? 12)
        if let v = try num("dynamicsTension", 1e-9...1e9) { spring.tension = v }
        if let v = try num("dynamicsFriction", 0...1e9) { spring.friction = v }
        if let v = try num("dynamicsMass", 1e-9...1e9) { spring.mass = v }
        var begin = 0.0
        if let n = m["beginTime"] { begin = try seconds(n, join(path, "beginTime")) }
        var a = PopSpringAnimation(
            keyPath: keyName, toValue: try value(toNode, join(path, "toValue"), type: keyPath.valueType), beginTime: begin,
            spring: spring)
        if let n = m["fromValue"] { a.fromValue = try value(n, join(path, "fromValue"), type: keyPath.valueType) }
        if let n = m["velocity"] { a.velocity = try value(n, join(path, "velocity"), type: keyPath.valueType) }
        if let v = try num("threshold", 1e-9...1e9) { a.threshold = v }
        return .popSpring(a)
    }

    /// An animation's `keyPath`, which must be one a layer can animate.
    func animatedKeyPath(_ m: [String: JSONNode], _ node: JSONNode, _ path: String) throws(SceneError) -> (
        String, AnimatedKeyPath
    ) {
        guard let keyNode = m["keyPath"] else {
            throw fail(
                node, join(path, "keyPath"), "an animation needs a \"keyPath\"",
                fix: "add \"keyPath\": \"opacity\" (or position, position.x, bounds, backgroundColor, cornerRadius…)")
        }
        let keyName = try string(keyNode, join(path, "keyPath"))
        guard let keyPath = AnimatedKeyPath(rawValue: keyName) else {
            let names = LayerKeyPath.allCases.map(\.rawValue)
            let suggestion = didYouMean(keyName, in: names)
            throw fail(
                keyNode, join(path, "keyPath"), "\"\(keyName)\" is not an animatable key path of a layer",
                fix: "\(suggestion)animatable: \(names.joined(separator: ", ")), and filters.<name>.<input> of a filter")
        }
        return (keyName, keyPath)
    }

    /// A timing function: a name (`linear`, `easeIn`, `easeOut`, `easeInEaseOut`, `default`) or control
    /// points [c1x, c1y, c2x, c2y].
    func timingFunction(_ node: JSONNode, _ path: String) throws(SceneError) -> TimingFunction {
        let names = TimingFunction.named.keys.sorted()
        switch node.value {
        case .string(let s):
            guard let f = TimingFunction.named[s] else {
                let suggestion = didYouMean(s, in: names)
                throw fail(
                    node, path, "unknown timing function \"\(s)\"",
                    fix: "\(suggestion)use \(names.joined(separator: ", ")) or [c1x, c1y, c2x, c2y]")
            }
            return f
        default:
            let c = try components(
                node, path, names: ["c1x", "c1y", "c2x", "c2y"], what: "a timing function", example: "[0.42, 0, 0.58, 1]")
            guard c.allSatisfy({ $0.isFinite }) else { throw fail(node, path, "control points must be finite") }
            return TimingFunction(c[0], c[1], c[2], c[3])
        }
    }

    /// An animation's timing, or a layer's (`layer`: a duration of 0 leaves the layer's time unbounded).
    func mediaTiming(_ m: [String: JSONNode], _ path: String, layer: Bool = false) throws(SceneError) -> MediaTiming {
        var t = MediaTiming()
        if let n = m["beginTime"] { t.beginTime = try seconds(n, join(path, "beginTime")) }
        if let n = m["duration"] {
            let p = join(path, "duration")
            t.duration = try seconds(n, p)
            guard t.duration >= 0 else {
                throw fail(
                    n, p, "duration must not be negative, got \(t.duration)",
                    fix: layer
                        ? "use a duration in seconds; 0 (or none) lets the layer's time run on"
                        : "use a duration in seconds; 0 means the default 0.25 s")
            }
        }
        if let n = m["speed"] {
            t.speed = try number(n, join(path, "speed"))
            guard abs(t.speed) <= 1000 else {
                throw fail(n, join(path, "speed"), "speed \(t.speed) is beyond ±1000", fix: "use a speed such as 0.5 or 2")
            }
        }
        if let n = m["timeOffset"] { t.timeOffset = try seconds(n, join(path, "timeOffset")) }
        if let n = m["repeatCount"] {
            let p = join(path, "repeatCount")
            if case .string(let s) = n.value, ["infinity", "inf", "forever"].contains(s.lowercased()) {
                t.repeatCount = .infinity
            } else {
                t.repeatCount = try number(n, p)
                guard t.repeatCount >= 0 else {
                    throw fail(n, p, "repeatCount must not be negative", fix: "use a count such as 2, 1.5 or \"infinity\"")
                }
            }
        }
        if let n = m["repeatDuration"] {
            t.repeatDuration = try seconds(n, join(path, "repeatDuration"))
            guard t.repeatDuration >= 0 else {
                throw fail(n, join(path, "repeatDuration"), "repeatDuration must not be negative")
            }
        }
        if let n = m["autoreverses"] { t.autoreverses = try bool(n, join(path, "autoreverses")) }
        if let n = m["fillMode"] { t.fillMode = try choice(n, join(path, "fillMode"), FillMode.self) }
        if let n = m["removedOnCompletion"] { t.removedOnCompletion = try bool(n, join(path, "removedOnCompletion")) }
        return t
    }
}
