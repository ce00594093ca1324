/// Timeline actions (`at`/`after`, `every`/`times`, `set`, `add`, `play`, `retarget`, `remove`) read
/// into calls of the Swift timeline API.
import Foundation
import ReelAnimation
import ReelDocument
import ReelGeometry

extension Reader {
    static let actionKeys = [
        "at", "after", "delay", "every", "times", "layer", "set", "animate", "add", "play", "retarget", "remove",
    ]

    /// Timeline actions, in order: each happens `at` a time or `after` a named animation has stopped (plus
    /// `delay`), on one `layer`: `set` model values (with `animate`, as an implicit animation), `add` or
    /// `play` animations whose times count from the action, `retarget` running Pop springs, `remove` an
    /// animation, repeated `every`/`times`. Each is one call of the Swift timeline API (Timeline.swift).
    func timeline(
        _ node: JSONNode, _ path: String, library: [String: (node: JSONNode, path: String)] = [:], into scene: inout Scene
    ) throws(SceneError) {
        for (i, actionNode) in try array(node, path).enumerated() {
            let ap = "\(path)[\(i)]"
            let m = try members(actionNode, ap, known: Self.actionKeys, what: "a timeline action")
            var time: Double
            var waitsFor: (name: String, stop: Double)?
            switch (m["at"], m["after"]) {
            case (let at?, nil):
                time = try seconds(at, join(ap, "at"))
                guard time >= 0, time.isFinite else {
                    throw fail(at, join(ap, "at"), "an action's time must be ≥ 0, got \(time)")
                }
            case (nil, let after?):
                let name = try string(after, join(ap, "after"))
                guard let end = scene.stopTime(ofAnimation: name) else {
                    let known = scene.animationKeys
                    let suggestion = didYouMean(name, in: known)
                    throw fail(
                        after, join(ap, "after"), "no animation named \"\(name)\" is defined before this action",
                        fix:
                            "\(suggestion)named animations: \(known.isEmpty ? "none (give one a \"name\")" : known.joined(separator: ", "))"
                    )
                }
                guard end.isFinite else {
                    throw fail(after, join(ap, "after"), "animation \"\(name)\" never ends (it repeats forever)")
                }
                time = end
                waitsFor = (name, end)
            default:
                throw fail(
                    actionNode, ap, "an action needs exactly one of \"at\" and \"after\"",
                    fix: "add \"at\": 0.5 or \"after\": \"name\"")
            }
            if let d = m["delay"] {
                let delay = try seconds(d, join(ap, "delay"))
                guard delay >= 0, delay.isFinite else { throw fail(d, join(ap, "delay"), "delay must be ≥ 0, got \(delay)") }
                time += delay
            }
            guard let layerNode = m["layer"] else {
                throw fail(actionNode, join(ap, "layer"), "an action needs the \"layer\" it acts on")
            }
            let layerName = try string(layerNode, join(ap, "layer"))
            func check<T>(_ node: JSONNode, _ path: String, _ body: () throws(TimelineError) -> T) throws(SceneError) -> T {
                do {
                    return try body()
                } catch {
                    throw fail(node, path, error.message, fix: error.fix)
                }
            }
            let layer = try check(layerNode, join(ap, "layer")) { () throws(TimelineError) in try scene.layerNamed(layerName) }
            if let waitsFor {
                scene.cues.append(TimelineCue(after: waitsFor.name, stop: waitsFor.stop, time: time, layer: layerName))
            }
            // Repeats: `every` seconds, `times` times (a number, or "infinity" to the end of the clip).
            var occurrences = [time]
            if let everyNode = m["every"] {
                let every = try number(everyNode, join(ap, "every"))
                try check(everyNode, join(ap, "every")) { () throws(TimelineError) in try Scene.checkRepeatInterval(every) }
                guard let timesNode = m["times"] else {
                    throw fail(actionNode, join(ap, "times"), "\"every\" needs \"times\": a count or \"infinity\"")
                }
                var count: Int?
                if case .string(let t) = timesNode.value, ["infinity", "inf", "forever"].contains(t.lowercased()) {
                    count = nil
                } else {
                    let n = try number(timesNode, join(ap, "times"))
                    guard n >= 1, n == n.rounded(), n <= Double(Scene.maximumRepeats) else {
                        throw fail(
                            timesNode, join(ap, "times"),
                            "times is a whole number from 1 to \(Scene.maximumRepeats) or \"infinity\", got \(n)")
                    }
                    count = Int(n)
                }
                occurrences = try check(everyNode, join(ap, "every")) { () throws(TimelineError) in
                    try scene.repeatTimes(from: time, every: every, times: count)
                }
            } else if let timesNode = m["times"] {
                throw fail(timesNode, join(ap, "times"), "\"times\" needs \"every\"")
            }
            let animate = try m["animate"].map { n throws(SceneError) in try bool(n, join(ap, "animate")) } ?? false
            // Decoded once; applied at each occurrence.
            var sets: [(keyPath: AnimatedKeyPath, value: AnimatableValue, node: JSONNode, path: String)] = []
            if let setNode = m["set"] {
                sets = try keyPathValues(setNode, join(ap, "set"), layer: layer)
            }
            var retargets: [(keyPath: AnimatedKeyPath, value: AnimatableValue, node: JSONNode, path: String)] = []
            if let node = m["retarget"] {
                retargets = try keyPathValues(node, join(ap, "retarget"), layer: layer)
            }
            var toAdd: [(animation: Animation, name: String?)] = []
            if let addNode = m["add"] {
                for (j, a) in try array(addNode, join(ap, "add")).enumerated() {
                    let p = "\(join(ap, "add"))[\(j)]"
                    toAdd.append((try animation(a, p, type: layer.type), try animationName(a, p)))
                }
            }
            if let playNode = m["play"] {
                let name = try string(playNode, join(ap, "play"))
                guard let entry = library[name] else {
                    let known = library.keys.sorted()
                    let suggestion = didYouMean(name, in: known)
                    throw fail(
                        playNode, join(ap, "play"), "no animations are defined as \"\(name)\"",
                        fix:
                            "\(suggestion)defined: \(known.isEmpty ? "none (define them under the scene's \"animations\")" : known.joined(separator: ", "))"
                    )
                }
                for (j, a) in try array(entry.node, entry.path).enumerated() {
                    let p = "\(entry.path)[\(j)]"
                    toAdd.append((try animation(a, p, type: layer.type), try animationName(a, p)))
                }
            }
            for (j, a) in toAdd.enumerated() {
                for keyPath in Self.keyPaths(of: a.animation) {
                    try checkFilterKeyPath(keyPath, of: layer, node, "\(ap)[\(j)]")
                }
            }
            for time in occurrences {
                for s in sets {
                    try check(s.node, s.path) { () throws(TimelineError) in
                        try scene.setValue(s.value, forKeyPath: s.keyPath, onLayer: layerName, at: time, animated: animate)
                    }
                }
                for r in retargets {
                    try check(r.node, r.path) { () throws(TimelineError) in
                        try scene.retargetSpring(keyPath: r.keyPath.rawValue, to: r.value, onLayer: layerName, at: time)
                    }
                }
                for a in toAdd {
                    try check(actionNode, ap) { () throws(TimelineError) in
                        try scene.addAnimation(a.animation, forKey: a.name, toLayer: layerName, at: time)
                    }
                }
                if let removeNode = m["remove"] {
                    let name = try string(removeNode, join(ap, "remove"))
                    try check(removeNode, join(ap, "remove")) { () throws(TimelineError) in
                        try scene.removeAnimation(forKey: name, fromLayer: layerName, at: time)
                    }
                }
            }
        }
    }

    /// An object of layer key paths and values (`set`, `retarget`), checked against the layer's types.
    func keyPathValues(_ node: JSONNode, _ path: String, layer: Layer) throws(SceneError)
        -> [(keyPath: AnimatedKeyPath, value: AnimatableValue, node: JSONNode, path: String)]
    {
        guard case .object(let pairs) = node.value else {
            throw fail(node, path, "expected key paths and values (an object)")
        }
        var out: [(keyPath: AnimatedKeyPath, value: AnimatableValue, node: JSONNode, path: String)] = []
        for pair in pairs {
            let kp = join(path, pair.key)
            guard let keyPath = AnimatedKeyPath(rawValue: pair.key) else {
                let names = LayerKeyPath.allCases.map(\.rawValue)
                let suggestion = didYouMean(pair.key, in: names)
                throw SceneError(
                    file: file, location: pair.keyLocation, path: kp,
                    message: "\"\(pair.key)\" is not an animatable key path of a layer",
                    fix: suggestion.isEmpty ? nil : suggestion)
            }
            try checkFilterKeyPath(pair.key, of: layer, pair.value, kp)
            out.append((keyPath, try value(pair.value, kp, type: keyPath.valueType), pair.value, kp))
        }
        return out
    }
}
