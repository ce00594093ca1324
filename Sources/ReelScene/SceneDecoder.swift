import Foundation
import ReelAnimation
import ReelGeometry

/// Reads a scene file into a `Scene`, reporting the first problem with its line, column and key path.
public enum SceneDecoder {
    /// `variables` are values for the variables the scene declares (see `SceneVariables`).
    public static func load(contentsOf path: String, variables: [String: JSONNode] = [:]) throws(SceneError) -> Scene {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SceneError(
                file: path, message: "no such file",
                fix: "check the path; scenes are JSON or YAML files such as examples/hello.json")
        }
        guard !isDirectory.boolValue else {
            throw SceneError(file: path, message: "is a directory, not a scene file")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= DocumentLimits.maximumBytes else {
            throw SceneError(
                file: path,
                message: "is \(size >> 20) MiB, above the limit of \(DocumentLimits.maximumBytes >> 20) MiB for a scene",
                fix: "split it, or generate the scene in Swift")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SceneError(file: path, message: "cannot be read (permission denied?)")
        }
        let ext = (path as NSString).pathExtension.lowercased()
        if ext == "yaml" || ext == "yml" {
            guard let text = String(data: data, encoding: .utf8) else {
                throw SceneError(
                    file: path, location: DocumentLimits.firstInvalidUTF8([UInt8](data)),
                    message: "invalid YAML: this byte is not UTF-8 text", fix: "save the file as UTF-8")
            }
            return try decode(yaml: text, file: path, variables: variables)
        }
        return try decode([UInt8](data), file: path, variables: variables)
    }

    /// A scene written in YAML: the same keys, values and errors as JSON.
    public static func decode(yaml text: String, file: String, variables: [String: JSONNode] = [:]) throws(SceneError)
        -> Scene
    {
        let root = try SceneVariables.resolve(YAMLReader.parse(text, file: file), file: file, values: variables)
        var reader = Reader(file: file)
        return try reader.scene(root)
    }

    public static func decode(_ bytes: [UInt8], file: String, variables: [String: JSONNode] = [:]) throws(SceneError)
        -> Scene
    {
        var root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw SceneError(file: file, location: error.location, message: "invalid JSON: \(error.message)")
        }
        root = try SceneVariables.resolve(root, file: file, values: variables)
        var reader = Reader(file: file)
        return try reader.scene(root)
    }
}

/// Walks the located JSON tree with the current key path, so every error can say where it is.
struct Reader {
    let file: String
    /// Where the values read sit in a larger document (a preset inside a batch manifest), for messages.
    var base = ""
    /// Each layer's `contents` and where it is written, collected while layers are read.
    let contentsReferences = ReferenceLog()
    /// Where each layer's `instanceCount` is written (for the replication limit's message).
    let layerNodes = ReferenceLog()

    func fail(_ node: JSONNode, _ path: String, _ message: String, fix: String? = nil) -> SceneError {
        SceneError(file: file, location: node.location, path: join(base, path), message: message, fix: fix)
    }

    /// An object's members by key, refusing keys it does not know (with a "did you mean").
    func members(_ node: JSONNode, _ path: String, known: [String], what: String) throws(SceneError) -> [String: JSONNode] {
        guard case .object(let list) = node.value else {
            throw fail(node, path, "expected \(what) (a JSON object), found \(node.kindName)")
        }
        var out: [String: JSONNode] = [:]
        for m in list {
            guard known.contains(m.key) else {
                let suggestion = closest(m.key, in: known).map { "did you mean \"\($0)\"? " } ?? ""
                throw SceneError(
                    file: file, location: m.keyLocation, path: join(base, join(path, shortened(m.key))),
                    message: "unknown key \"\(shortened(m.key))\" in \(what)",
                    fix: "\(suggestion)known keys: \(known.joined(separator: ", "))")
            }
            out[m.key] = m.value
        }
        return out
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func number(_ node: JSONNode, _ path: String) throws(SceneError) -> Double {
        guard case .number(let v) = node.value else {
            throw fail(node, path, "expected a number, found \(node.kindName)")
        }
        return v
    }

    func bool(_ node: JSONNode, _ path: String) throws(SceneError) -> Bool {
        guard case .bool(let v) = node.value else {
            throw fail(node, path, "expected true or false, found \(node.kindName)")
        }
        return v
    }

    func string(_ node: JSONNode, _ path: String) throws(SceneError) -> String {
        guard case .string(let v) = node.value else {
            throw fail(node, path, "expected a string, found \(node.kindName)")
        }
        return v
    }

    func array(_ node: JSONNode, _ path: String) throws(SceneError) -> [JSONNode] {
        guard case .array(let v) = node.value else {
            throw fail(node, path, "expected an array, found \(node.kindName)")
        }
        return v
    }

    /// A list of exactly `count` numbers, or an object with the given component names.
    func components(_ node: JSONNode, _ path: String, names: [String], what: String, example: String) throws(SceneError)
        -> [Double]
    {
        switch node.value {
        case .array(let items):
            guard items.count == names.count else {
                throw fail(
                    node, path,
                    "expected \(what) as \(names.count) numbers [\(names.joined(separator: ", "))], found \(items.count)",
                    fix: "write it as \(example)")
            }
            var out: [Double] = []
            for (i, item) in items.enumerated() { out.append(try number(item, "\(path)[\(i)]")) }
            return out
        case .object:
            let m = try members(node, path, known: names, what: what)
            var out: [Double] = []
            for name in names {
                guard let v = m[name] else {
                    throw fail(node, path, "\(what) is missing \"\(name)\"", fix: "write it as \(example)")
                }
                out.append(try number(v, join(path, name)))
            }
            return out
        default:
            throw fail(node, path, "expected \(what), found \(node.kindName)", fix: "write it as \(example)")
        }
    }

    func point(_ node: JSONNode, _ path: String) throws(SceneError) -> Point {
        let c = try components(node, path, names: ["x", "y"], what: "a point", example: "[x, y]")
        return Point(x: c[0], y: c[1])
    }

    func size(_ node: JSONNode, _ path: String) throws(SceneError) -> Size {
        let c = try components(node, path, names: ["width", "height"], what: "a size", example: "[width, height]")
        return Size(width: c[0], height: c[1])
    }

    func rect(_ node: JSONNode, _ path: String) throws(SceneError) -> Rect {
        let c = try components(
            node, path, names: ["x", "y", "width", "height"], what: "a rect", example: "[x, y, width, height]")
        return Rect(x: c[0], y: c[1], width: c[2], height: c[3])
    }

    func color(_ node: JSONNode, _ path: String) throws(SceneError) -> Color {
        let fix = "write a colour as \"#rrggbb\", \"#rrggbbaa\" or [r, g, b, a] with components in 0…1"
        switch node.value {
        case .string(let s):
            guard let c = Color(hex: s) else { throw fail(node, path, "\"\(s)\" is not a colour", fix: fix) }
            return c
        case .array(let items):
            guard items.count == 3 || items.count == 4 else {
                throw fail(node, path, "a colour array has 3 or 4 components, found \(items.count)", fix: fix)
            }
            var v: [Double] = []
            for (i, item) in items.enumerated() {
                let x = try number(item, "\(path)[\(i)]")
                guard (0...1).contains(x) else {
                    throw fail(item, "\(path)[\(i)]", "colour component \(x) is outside 0…1", fix: fix)
                }
                v.append(x)
            }
            return Color(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1)
        default:
            throw fail(node, path, "expected a colour, found \(node.kindName)", fix: fix)
        }
    }

    func value(_ node: JSONNode, _ path: String, type: LayerKeyPath.ValueType) throws(SceneError) -> AnimatableValue {
        switch type {
        case .number: return .number(try number(node, path))
        case .transform: return .transform(try transform(node, path))
        case .path: return .path(try shapePath(node, path))
        case .colors:
            var out: [Color] = []
            for (i, item) in try array(node, path).enumerated() { out.append(try color(item, "\(path)[\(i)]")) }
            return .colors(out)
        case .numbers:
            var out: [Double] = []
            for (i, item) in try array(node, path).enumerated() { out.append(try number(item, "\(path)[\(i)]")) }
            return .numbers(out)
        case .point: return .point(try point(node, path))
        case .size: return .size(try size(node, path))
        case .rect: return .rect(try rect(node, path))
        case .color: return .color(try color(node, path))
        case .bool: return .bool(try bool(node, path))
        }
    }

    static let transformOps = ["scale", "rotation", "rotationX", "rotationY", "translation", "perspective"]

    /// A `CATransform3D`: 16 numbers (m11 … m44, row by row); an object of parts applied as scale, then
    /// rotations (x, y, z), then translation, then perspective (`"perspective": d` sets m34 = −1/d); or a
    /// list of such objects applied in order.
    func transform(_ node: JSONNode, _ path: String) throws(SceneError) -> Transform3D {
        let fix =
            "write a transform as 16 numbers, as {\"scale\": 1.5, \"rotation\": 0.5, \"translation\": [x, y]}, or as a list of such steps"
        switch node.value {
        case .array(let items):
            if items.count == 16, items.allSatisfy({ if case .number = $0.value { return true } else { return false } }) {
                var v: [Double] = []
                for (i, item) in items.enumerated() {
                    v.append(try finite(try number(item, "\(path)[\(i)]"), item, "\(path)[\(i)]"))
                }
                return Transform3D(v)!
            }
            var t = Transform3D.identity
            for (i, item) in items.enumerated() { t = t.concatenating(try transformStep(item, "\(path)[\(i)]", fix: fix)) }
            return t
        case .object:
            return try transformStep(node, path, fix: fix)
        default:
            throw fail(node, path, "expected a transform, found \(node.kindName)", fix: fix)
        }
    }

    func transformStep(_ node: JSONNode, _ path: String, fix: String) throws(SceneError) -> Transform3D {
        let m = try members(node, path, known: Self.transformOps, what: "a transform")
        var t = Transform3D.identity
        if let n = m["scale"] {
            let p = join(path, "scale")
            if case .number(let v) = n.value {
                t = t.concatenating(.scale(v, v, 1))
            } else {
                let c = try array(n, p)
                guard c.count == 2 || c.count == 3 else { throw fail(n, p, "scale takes 1, 2 or 3 numbers", fix: fix) }
                var v: [Double] = []
                for (i, item) in c.enumerated() { v.append(try number(item, "\(p)[\(i)]")) }
                t = t.concatenating(.scale(v[0], v[1], v.count == 3 ? v[2] : 1))
            }
        }
        if let n = m["rotationX"] { t = t.concatenating(.rotation(try number(n, join(path, "rotationX")), 1, 0, 0)) }
        if let n = m["rotationY"] { t = t.concatenating(.rotation(try number(n, join(path, "rotationY")), 0, 1, 0)) }
        if let n = m["rotation"] { t = t.concatenating(.rotation(try number(n, join(path, "rotation")), 0, 0, 1)) }
        if let n = m["translation"] {
            let p = join(path, "translation")
            let c = try array(n, p)
            guard c.count == 2 || c.count == 3 else { throw fail(n, p, "translation takes 2 or 3 numbers", fix: fix) }
            var v: [Double] = []
            for (i, item) in c.enumerated() { v.append(try number(item, "\(p)[\(i)]")) }
            t = t.concatenating(.translation(v[0], v[1], v.count == 3 ? v[2] : 0))
        }
        if let n = m["perspective"] {
            let d = try number(n, join(path, "perspective"))
            guard d > 0 else { throw fail(n, join(path, "perspective"), "perspective is a positive eye distance, got \(d)") }
            var p = Transform3D.identity
            p.m34 = -1 / d
            t = t.concatenating(p)
        }
        guard t.isFinite else { throw fail(node, path, "the transform is not finite") }
        return t
    }

    func finite(_ v: Double, _ node: JSONNode, _ path: String) throws(SceneError) -> Double {
        guard v.isFinite else { throw fail(node, path, "must be finite") }
        return v
    }

    mutating func scene(_ root: JSONNode) throws(SceneError) -> Scene {
        let m = try members(
            root, "", known: Self.sceneKeys, what: "a scene")
        func required(_ key: String, _ example: String) throws(SceneError) -> JSONNode {
            guard let n = m[key] else {
                throw SceneError(
                    file: file, location: root.location, path: key, message: "missing required key \"\(key)\"",
                    fix: "add \"\(key)\": \(example)")
            }
            return n
        }
        let widthNode = try required("width", "320")
        let heightNode = try required("height", "180")
        let fpsNode = try required("fps", "30")
        let durationNode = try required("duration", "2")
        let fps = try frameRate(fpsNode, "fps")
        var scene = Scene(
            width: try number(widthNode, "width"), height: try number(heightNode, "height"),
            fps: fps, duration: try number(durationNode, "duration"))
        if let n = m["scale"] { scene.scale = try number(n, "scale") }
        if let n = m["background"] { scene.background = try color(n, "background") }
        if let (key, message, fix) = scene.validationProblem() {
            let node = m[key] ?? root
            throw fail(node, key, message, fix: fix)
        }
        if let n = m["layers"] {
            var names = Set<String>()
            for (i, layerNode) in try array(n, "layers").enumerated() {
                scene.layers.append(try self.layer(layerNode, "layers[\(i)]", names: &names))
            }
        }
        for (name, reference) in contentsReferences.items { scene.contentsReferences[name] = reference }
        // Named sets of animations, defined once and played by timeline actions (`play`).
        var library: [String: (node: JSONNode, path: String)] = [:]
        if let n = m["animations"] {
            guard case .object(let pairs) = n.value else {
                throw fail(n, "animations", "expected names and their animation lists (an object)")
            }
            for pair in pairs {
                _ = try array(pair.value, join("animations", pair.key))
                library[pair.key] = (pair.value, join("animations", pair.key))
            }
        }
        if let n = m["timeline"] { try timeline(n, "timeline", library: library, into: &scene) }
        if let (name, count) = scene.replicationBeyond(Scene.maximumDrawnLayers) {
            let layerNode = layerNodes.items.first { $0.0 == name }?.1
            throw SceneError(
                file: file, location: layerNode?.location, path: layerNode?.path ?? "layers",
                message:
                    "replicator \"\(name)\" draws up to \(count < 1e15 ? String(Int(count)) : "\(count)") layers a frame (instances of instances), above the limit of \(Scene.maximumDrawnLayers)",
                fix: "lower instanceCount, or nest fewer replicators")
        }
        return scene
    }

    static let sceneKeys = [
        "width", "height", "scale", "fps", "duration", "background", "variables", "layers", "animations", "timeline",
    ]
    static let actionKeys = [
        "at", "after", "delay", "every", "times", "layer", "set", "animate", "add", "play", "retarget", "remove",
    ]

    /// Timeline actions, in order: each happens `at` a time or `after` a named animation has stopped (plus
    /// `delay`), on one `layer`: `set` model values (with `animate`, as an implicit animation), `add` or
    /// `play` animations whose times count from the action, `retarget` running Pop springs, `remove` an
    /// animation. Each is one call of the Swift timeline API (Timeline.swift).
    /// The most times one action may repeat (`every`/`times`), and actions may happen in all.
    static let maximumRepeats = 10_000
    static let maximumTimelineActions = 100_000

    func timeline(
        _ node: JSONNode, _ path: String, library: [String: (node: JSONNode, path: String)] = [:], into scene: inout Scene
    ) throws(SceneError) {
        var timelineOccurrences = 0
        for (i, actionNode) in try array(node, path).enumerated() {
            let ap = "\(path)[\(i)]"
            let m = try members(actionNode, ap, known: Self.actionKeys, what: "a timeline action")
            var time: Double
            switch (m["at"], m["after"]) {
            case (let at?, nil):
                time = try number(at, join(ap, "at"))
                guard time >= 0, time.isFinite else {
                    throw fail(at, join(ap, "at"), "an action's time must be ≥ 0, got \(time)")
                }
            case (nil, let after?):
                let name = try string(after, join(ap, "after"))
                guard let end = scene.stopTime(ofAnimation: name) else {
                    let known = scene.animationKeys
                    let suggestion = closest(name, in: known).map { "did you mean \"\($0)\"? " } ?? ""
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
            default:
                throw fail(
                    actionNode, ap, "an action needs exactly one of \"at\" and \"after\"",
                    fix: "add \"at\": 0.5 or \"after\": \"name\"")
            }
            if let d = m["delay"] {
                let delay = try number(d, join(ap, "delay"))
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
            // Repeats: `every` seconds, `times` times (a number, or "infinity" to the end of the clip).
            var occurrences = [time]
            if let everyNode = m["every"] {
                let every = try number(everyNode, join(ap, "every"))
                guard every > 0, every.isFinite else {
                    throw fail(everyNode, join(ap, "every"), "every must be a positive number of seconds")
                }
                guard let timesNode = m["times"] else {
                    throw fail(actionNode, join(ap, "times"), "\"every\" needs \"times\": a count or \"infinity\"")
                }
                var count = Int.max
                if case .string(let t) = timesNode.value, ["infinity", "inf", "forever"].contains(t.lowercased()) {
                    count = Int.max
                } else {
                    let n = try number(timesNode, join(ap, "times"))
                    guard n >= 1, n == n.rounded(), n <= Double(Self.maximumRepeats) else {
                        throw fail(
                            timesNode, join(ap, "times"),
                            "times is a whole number from 1 to \(Self.maximumRepeats) or \"infinity\", got \(n)")
                    }
                    count = Int(n)
                }
                // Counted before any is made: `every: 1e-9` over a minute would be 6e10 occurrences.
                let fitting = max(0, ((scene.duration - time) / every).rounded(.up))
                if fitting > Double(Self.maximumRepeats) && count > Self.maximumRepeats {
                    throw fail(
                        everyNode, join(ap, "every"),
                        "every \(every) s repeats the action \(fitting < 1e15 ? String(Int(fitting)) : "\(fitting)") times before the clip ends, above the limit of \(Self.maximumRepeats)",
                        fix: "repeat less often, or give \"times\" a count")
                }
                occurrences = []
                var k = 0
                while k < count, time + Double(k) * every < scene.duration {
                    occurrences.append(time + Double(k) * every)
                    k += 1
                }
                timelineOccurrences += occurrences.count
                if timelineOccurrences > Self.maximumTimelineActions {
                    throw fail(
                        everyNode, join(ap, "every"),
                        "the timeline's actions happen more than \(Self.maximumTimelineActions) times in all",
                        fix: "repeat less often")
                }
            } else if let timesNode = m["times"] {
                throw fail(timesNode, join(ap, "times"), "\"times\" needs \"every\"")
            }
            let animate = try m["animate"].map { n throws(SceneError) in try bool(n, join(ap, "animate")) } ?? false
            // Decoded once; applied at each occurrence.
            var sets: [(keyPath: LayerKeyPath, value: AnimatableValue, node: JSONNode, path: String)] = []
            if let setNode = m["set"] {
                sets = try keyPathValues(setNode, join(ap, "set"), layer: layer)
            }
            var retargets: [(keyPath: LayerKeyPath, value: AnimatableValue, node: JSONNode, path: String)] = []
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
                    let suggestion = closest(name, in: known).map { "did you mean \"\($0)\"? " } ?? ""
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
        -> [(keyPath: LayerKeyPath, value: AnimatableValue, node: JSONNode, path: String)]
    {
        guard case .object(let pairs) = node.value else {
            throw fail(node, path, "expected key paths and values (an object)")
        }
        var out: [(keyPath: LayerKeyPath, value: AnimatableValue, node: JSONNode, path: String)] = []
        for pair in pairs {
            let kp = join(path, pair.key)
            guard let keyPath = LayerKeyPath(rawValue: pair.key) else {
                let names = LayerKeyPath.allCases.map(\.rawValue)
                let suggestion = closest(pair.key, in: names).map { "did you mean \"\($0)\"? " } ?? ""
                throw SceneError(
                    file: file, location: pair.keyLocation, path: kp,
                    message: "\"\(pair.key)\" is not an animatable key path of a layer",
                    fix: suggestion.isEmpty ? nil : suggestion)
            }
            out.append((keyPath, try value(pair.value, kp, type: keyPath.valueType), pair.value, kp))
        }
        return out
    }

    func frameRate(_ node: JSONNode, _ path: String) throws(SceneError) -> FrameRate {
        let fix = "write fps as a number such as 30 or 29.97, or as a fraction string such as \"30000/1001\""
        switch node.value {
        case .number(let v):
            guard v > 0, let r = FrameRate(value: v) else { throw fail(node, path, "fps must be positive, got \(v)", fix: fix) }
            return r
        case .string(let s):
            guard let r = FrameRate(parsing: s) else {
                throw fail(
                    node, path,
                    "\"\(s)\" is not a frame rate Reel can write: positive, with a numerator up to 10^9 and a denominator up to 10^6 once reduced",
                    fix: fix)
            }
            return r
        default:
            throw fail(node, path, "expected a frame rate, found \(node.kindName)", fix: fix)
        }
    }

    static let commonLayerKeys = [
        "name", "type", "position", "bounds", "anchorPoint", "transform", "sublayerTransform", "zPosition", "opacity", "hidden",
        "backgroundColor", "cornerRadius",
        "borderWidth",
        "borderColor", "masksToBounds", "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius", "contents",
        "contentsGravity", "contentsScale", "sublayers",
        "mask", "animations",
    ]
    static let shapeLayerKeys = [
        "path", "fillColor", "strokeColor", "fillRule", "lineWidth", "lineCap", "lineJoin", "miterLimit", "lineDashPattern",
        "lineDashPhase", "strokeStart", "strokeEnd",
    ]
    static let gradientLayerKeys = ["colors", "locations", "startPoint", "endPoint", "gradientType"]
    static let replicatorLayerKeys = [
        "instanceCount", "instanceDelay", "instanceTransform", "instanceColor", "instanceRedOffset", "instanceGreenOffset",
        "instanceBlueOffset", "instanceAlphaOffset",
    ]

    func layerType(_ node: JSONNode, _ path: String) throws(SceneError) -> LayerType {
        guard case .object(let list) = node.value, let typeNode = list.first(where: { $0.key == "type" })?.value else {
            return .layer
        }
        let s = try string(typeNode, join(path, "type"))
        guard let t = LayerType(rawValue: s) else {
            throw fail(
                typeNode, join(path, "type"), "unknown layer type \"\(s)\"",
                fix: "known types: \(LayerType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return t
    }

    func layer(_ node: JSONNode, _ path: String, names: inout Set<String>) throws(SceneError) -> Layer {
        let type = try layerType(node, path)
        var known = Self.commonLayerKeys
        switch type {
        case .layer: break
        case .shape: known += Self.shapeLayerKeys
        case .gradient: known += Self.gradientLayerKeys
        case .replicator: known += Self.replicatorLayerKeys
        }
        let m = try members(node, path, known: known, what: "a layer of type \"\(type.rawValue)\"")
        let name = try m["name"].map { n throws(SceneError) in try string(n, join(path, "name")) } ?? path
        guard names.insert(name).inserted else {
            throw fail(
                m["name"] ?? node, join(path, "name"), "another layer is already named \"\(name)\"",
                fix: "give each layer a unique name")
        }
        var layer = Layer(name: name, type: type)
        func num(_ key: String) throws(SceneError) -> Double? {
            guard let n = m[key] else { return nil }
            return try finite(try number(n, join(path, key)), n, join(path, key))
        }
        if let n = m["position"] { layer.position = try point(n, join(path, "position")) }
        if let n = m["bounds"] {
            switch n.value {
            case .array(let items) where items.count == 2:
                layer.bounds = Rect(origin: .zero, size: try size(n, join(path, "bounds")))
            default:
                layer.bounds = try rect(n, join(path, "bounds"))
            }
        }
        if let n = m["anchorPoint"] { layer.anchorPoint = try point(n, join(path, "anchorPoint")) }
        if let n = m["transform"] { layer.transform = try transform(n, join(path, "transform")) }
        if let n = m["sublayerTransform"] { layer.sublayerTransform = try transform(n, join(path, "sublayerTransform")) }
        if let v = try num("zPosition") { layer.zPosition = v }
        if let v = try num("opacity") { layer.opacity = v }
        if let n = m["hidden"] { layer.hidden = try bool(n, join(path, "hidden")) }
        if let n = m["backgroundColor"] { layer.backgroundColor = try optionalColor(n, join(path, "backgroundColor")) }
        if let v = try num("cornerRadius") { layer.cornerRadius = v }
        if let v = try num("borderWidth") { layer.borderWidth = v }
        if let n = m["borderColor"] { layer.borderColor = try color(n, join(path, "borderColor")) }
        if let n = m["masksToBounds"] { layer.masksToBounds = try bool(n, join(path, "masksToBounds")) }
        if let n = m["shadowColor"] { layer.shadowColor = try color(n, join(path, "shadowColor")) }
        if let v = try num("shadowOpacity") { layer.shadowOpacity = v }
        if let n = m["shadowOffset"] {
            let p = try components(
                n, join(path, "shadowOffset"), names: ["width", "height"], what: "an offset", example: "[width, height]")
            layer.shadowOffset = Point(x: p[0], y: p[1])
        }
        if let v = try num("shadowRadius") {
            guard v <= Scene.maximumShadowRadius else {
                throw fail(
                    m["shadowRadius"]!, join(path, "shadowRadius"),
                    "shadowRadius \(v) is above the limit of \(Int(Scene.maximumShadowRadius)) points",
                    fix: "a blur that wide spreads the shadow to nothing: use a smaller radius or shadowOpacity 0")
            }
            layer.shadowRadius = max(0, v)
        }
        if let n = m["contents"] {
            layer.contents = try string(n, join(path, "contents"))
            contentsReferences.items.append(
                (layer.name, SourceReference(location: n.location, path: join(base, join(path, "contents")))))
        }
        if let n = m["contentsGravity"] {
            layer.contentsGravity = try choice(n, join(path, "contentsGravity"), ContentsGravity.self)
        }
        if let n = m["contentsScale"] {
            let v = try number(n, join(path, "contentsScale"))
            guard v > 0, v.isFinite else {
                throw fail(n, join(path, "contentsScale"), "contentsScale must be positive, got \(v)")
            }
            layer.contentsScale = v
        }
        // Shape layer.
        if let n = m["path"] { layer.shape.path = try shapePath(n, join(path, "path")) }
        if let n = m["fillColor"] { layer.shape.fillColor = try optionalColor(n, join(path, "fillColor")) }
        if let n = m["strokeColor"] { layer.shape.strokeColor = try optionalColor(n, join(path, "strokeColor")) }
        if let n = m["fillRule"] { layer.shape.fillRule = try choice(n, join(path, "fillRule"), FillRuleName.self) }
        if let v = try num("lineWidth") { layer.shape.stroke.lineWidth = v }
        if let n = m["lineCap"] { layer.shape.stroke.lineCap = try choice(n, join(path, "lineCap"), LineCap.self) }
        if let n = m["lineJoin"] { layer.shape.stroke.lineJoin = try choice(n, join(path, "lineJoin"), LineJoin.self) }
        if let v = try num("miterLimit") { layer.shape.stroke.miterLimit = v }
        if let n = m["lineDashPattern"] {
            let p = join(path, "lineDashPattern")
            if case .null = n.value {
                layer.shape.stroke.lineDashPattern = []
            } else {
                var pattern: [Double] = []
                for (i, item) in try array(n, p).enumerated() {
                    let v = try number(item, "\(p)[\(i)]")
                    guard v >= 0, v.isFinite else {
                        throw fail(item, "\(p)[\(i)]", "dash lengths must be zero or more, got \(v)")
                    }
                    pattern.append(v)
                }
                layer.shape.stroke.lineDashPattern = pattern
            }
        }
        if let v = try num("lineDashPhase") { layer.shape.stroke.lineDashPhase = v }
        if let v = try num("strokeStart") { layer.shape.stroke.strokeStart = v }
        if let v = try num("strokeEnd") { layer.shape.stroke.strokeEnd = v }
        // Gradient layer.
        if let n = m["colors"] {
            var colors: [Color] = []
            for (i, item) in try array(n, join(path, "colors")).enumerated() {
                colors.append(try color(item, "\(join(path, "colors"))[\(i)]"))
            }
            layer.gradient.colors = colors
        }
        if let n = m["locations"] {
            let p = join(path, "locations")
            var locations: [Double] = []
            for (i, item) in try array(n, p).enumerated() {
                let v = try number(item, "\(p)[\(i)]")
                if let last = locations.last, v < last {
                    throw fail(
                        item, "\(p)[\(i)]", "locations must not decrease (\(v) after \(last))",
                        fix: "list stop positions in increasing order, within 0…1")
                }
                locations.append(v)
            }
            layer.gradient.locations = locations
            if m["colors"] != nil, locations.count != layer.gradient.colors.count {
                // Core Animation ignores mismatched locations (CORE-ANIMATION.md §9.2): say so instead.
                throw fail(
                    n, p, "\(locations.count) locations for \(layer.gradient.colors.count) colours",
                    fix: "give one location per colour, or leave \"locations\" out for even spacing")
            }
        }
        if let n = m["startPoint"] { layer.gradient.startPoint = try point(n, join(path, "startPoint")) }
        if let n = m["endPoint"] { layer.gradient.endPoint = try point(n, join(path, "endPoint")) }
        if let n = m["gradientType"] { layer.gradient.type = try choice(n, join(path, "gradientType"), GradientType.self) }
        // Replicator layer.
        if let n = m["instanceCount"] {
            let v = try number(n, join(path, "instanceCount"))
            guard v >= 0, v <= Double(Scene.maximumInstances), v == v.rounded() else {
                throw fail(
                    n, join(path, "instanceCount"), "instanceCount is a whole number in 0…\(Scene.maximumInstances), got \(v)")
            }
            layer.replicator.instanceCount = Int(v)
            layerNodes.items.append(
                (layer.name, SourceReference(location: n.location, path: join(base, join(path, "instanceCount")))))
        }
        if let v = try num("instanceDelay") { layer.replicator.instanceDelay = v }
        if let n = m["instanceTransform"] {
            layer.replicator.instanceTransform = try transform(n, join(path, "instanceTransform"))
        }
        if let n = m["instanceColor"] { layer.replicator.instanceColor = try color(n, join(path, "instanceColor")) }
        for (i, key) in ["instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset"].enumerated() {
            if let v = try num(key) { layer.replicator.colorOffsets[i] = v }
        }
        // Children.
        if let n = m["sublayers"] {
            for (i, child) in try array(n, join(path, "sublayers")).enumerated() {
                layer.sublayers.append(try self.layer(child, "\(join(path, "sublayers"))[\(i)]", names: &names))
            }
        }
        if let n = m["mask"] { layer.mask = try self.layer(n, join(path, "mask"), names: &names) }
        if let n = m["animations"] {
            for (i, a) in try array(n, join(path, "animations")).enumerated() {
                let p = "\(join(path, "animations"))[\(i)]"
                layer.addAnimation(try animation(a, p, type: type), forKey: try animationName(a, p))
            }
        }
        return layer
    }

    /// An animation's optional `name` (its key in `addAnimation(_:forKey:)`), which timeline actions
    /// refer to with `after`.
    func animationName(_ node: JSONNode, _ path: String) throws(SceneError) -> String? {
        guard case .object(let list) = node.value, let n = list.first(where: { $0.key == "name" })?.value else { return nil }
        return try string(n, join(path, "name"))
    }

    func optionalColor(_ node: JSONNode, _ path: String) throws(SceneError) -> Color? {
        if case .null = node.value { return nil }
        return try color(node, path)
    }

    func choice<T: RawRepresentable & CaseIterable>(_ node: JSONNode, _ path: String, _ type: T.Type) throws(SceneError) -> T
    where T.RawValue == String {
        let s = try string(node, path)
        guard let v = T(rawValue: s) else {
            let names = T.allCases.map(\.rawValue)
            let suggestion = closest(s, in: names).map { "did you mean \"\($0)\"? " } ?? ""
            throw fail(
                node, path, "\"\(s)\" is not one of \(names.joined(separator: ", "))",
                fix: "\(suggestion)use one of \(names.joined(separator: ", "))")
        }
        return v
    }

    /// A path: SVG path data, or a list of shapes.
    func shapePath(_ node: JSONNode, _ path: String) throws(SceneError) -> Path {
        let result: Path
        switch node.value {
        case .string(let data):
            result = try svg(data, node, path)
        case .array(let items):
            var out = Path()
            for (i, item) in items.enumerated() { out.addPath(try shape(item, "\(path)[\(i)]")) }
            result = out
        default:
            throw fail(
                node, path, "expected a path (SVG path data or a list of shapes), found \(node.kindName)",
                fix: "write e.g. \"M 0 0 L 10 10\" or [{\"oval\": [0, 0, 20, 20]}]")
        }
        // Past this no picture is meaningful, and outlines of strokes through ±1e308 overflow.
        let limit = Scene.maximumCoordinate
        for e in result.elements {
            let points: [Point]
            switch e {
            case .move(let p), .line(let p): points = [p]
            case .quad(let c, let p): points = [c, p]
            case .cubic(let c1, let c2, let p): points = [c1, c2, p]
            case .close: points = []
            }
            for p in points where !(abs(p.x) <= limit && abs(p.y) <= limit) {
                throw fail(
                    node, path, "a path coordinate (\(p.x), \(p.y)) is beyond ±\(limit) points",
                    fix: "keep coordinates within ±1e9; scale the layer instead")
            }
        }
        if result.elements.count > Self.maximumPathElements {
            throw fail(
                node, path, "the path has \(result.elements.count) elements, above the limit of \(Self.maximumPathElements)",
                fix: "simplify the path")
        }
        return result
    }

    /// The most elements one path may have.
    static let maximumPathElements = 1_000_000

    func svg(_ data: String, _ node: JSONNode, _ path: String) throws(SceneError) -> Path {
        let parsed: Path
        do {
            parsed = try Path(svgPathData: data)
        } catch {
            // Point at the bad token: the string's column, past the opening quote, plus the offset.
            var location = node.location
            location.column += 1 + error.offset
            throw SceneError(
                file: file, location: location, path: path, message: "SVG path data: \(error.message) (offset \(error.offset))")
        }
        return parsed
    }

    static let shapeKinds = ["rect", "roundedRect", "oval", "arc", "svg", "lines"]

    func shape(_ node: JSONNode, _ path: String) throws(SceneError) -> Path {
        let m = try members(
            node, path, known: Self.shapeKinds + ["cornerRadius", "radius", "startAngle", "endAngle", "clockwise", "closed"],
            what: "a shape")
        let kinds = Self.shapeKinds.filter { m[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first, let value = m[kind] else {
            throw fail(
                node, path, "a shape needs exactly one of \(Self.shapeKinds.joined(separator: ", "))",
                fix: "e.g. {\"oval\": [x, y, width, height]}")
        }
        let p = join(path, kind)
        switch kind {
        case "rect":
            return Path(rect: try rect(value, p))
        case "roundedRect":
            let r = try m["cornerRadius"].map { n throws(SceneError) in try number(n, join(path, "cornerRadius")) } ?? 0
            return Path(roundedRect: try rect(value, p), cornerRadius: r)
        case "oval":
            return Path(ovalIn: try rect(value, p))
        case "arc":
            let center = try point(value, p)
            func need(_ key: String) throws(SceneError) -> Double {
                guard let n = m[key] else { throw fail(node, join(path, key), "an arc needs \"\(key)\"") }
                return try number(n, join(path, key))
            }
            let clockwise = try m["clockwise"].map { n throws(SceneError) in try bool(n, join(path, "clockwise")) } ?? true
            var out = Path()
            out.addArc(
                center: center, radius: try need("radius"), startAngle: try need("startAngle"), endAngle: try need("endAngle"),
                clockwise: clockwise)
            return out
        case "svg":
            return try svg(try string(value, p), value, p)
        default:  // lines
            var out = Path()
            for (i, item) in try array(value, p).enumerated() {
                let q = try point(item, "\(p)[\(i)]")
                if i == 0 { out.move(to: q) } else { out.addLine(to: q) }
            }
            if try m["closed"].map({ n throws(SceneError) in try bool(n, join(path, "closed")) }) ?? false { out.closeSubpath() }
            return out
        }
    }

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
    /// pairs mismatched lists without a word, which in a scene file is always a mistake.
    func checkCounts(_ a: KeyframeAnimation, _ m: [String: JSONNode], _ path: String) throws(SceneError) {
        let n = a.values.count
        let mode = a.calculationMode
        let paced = mode == .paced || mode == .cubicPaced
        if let node = m["keyTimes"] {
            let k = a.keyTimes?.count ?? 0
            if paced {
                throw fail(
                    node, join(path, "keyTimes"), "\(mode.rawValue) mode ignores keyTimes",
                    fix: "remove \"keyTimes\", or use calculationMode linear")
            }
            let expected = mode == .discrete ? "\(n) or \(n + 1)" : "\(n)"
            if mode == .discrete ? (k != n && k != n + 1) : k != n {
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
        if paced || mode == .discrete {
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
        if let n = m["beginTime"] { begin = try finite(try number(n, join(path, "beginTime")), n, join(path, "beginTime")) }
        var a = PopSpringAnimation(
            keyPath: keyName, toValue: try value(toNode, join(path, "toValue"), type: keyPath.valueType), beginTime: begin,
            spring: spring, threshold: Self.popThreshold(keyPath))
        if let n = m["fromValue"] { a.fromValue = try value(n, join(path, "fromValue"), type: keyPath.valueType) }
        if let n = m["velocity"] { a.velocity = try value(n, join(path, "velocity"), type: keyPath.valueType) }
        if let v = try num("threshold", 1e-9...1e9) { a.threshold = v }
        return .popSpring(a)
    }

    /// Pop's thresholds by property: 1 for points, 0.005 for scale, 0.01 for the rest (opacity, colour,
    /// rotation…).
    static func popThreshold(_ k: LayerKeyPath) -> Double {
        switch k {
        case .transformScale, .transformScaleX, .transformScaleY, .transformScaleZ: return 0.005
        default: return k.valueType == .point || k.valueType == .size || k.valueType == .rect ? 1 : 0.01
        }
    }

    /// An animation's `keyPath`, which must be one a layer can animate.
    func animatedKeyPath(_ m: [String: JSONNode], _ node: JSONNode, _ path: String) throws(SceneError) -> (String, LayerKeyPath) {
        guard let keyNode = m["keyPath"] else {
            throw fail(
                node, join(path, "keyPath"), "an animation needs a \"keyPath\"",
                fix: "add \"keyPath\": \"opacity\" (or position, position.x, bounds, backgroundColor, cornerRadius…)")
        }
        let keyName = try string(keyNode, join(path, "keyPath"))
        guard let keyPath = LayerKeyPath(rawValue: keyName) else {
            let names = LayerKeyPath.allCases.map(\.rawValue)
            let suggestion = closest(keyName, in: names).map { "did you mean \"\($0)\"? " } ?? ""
            throw fail(
                keyNode, join(path, "keyPath"), "\"\(keyName)\" is not an animatable key path of a layer",
                fix: "\(suggestion)animatable: \(names.joined(separator: ", "))")
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
                let suggestion = closest(s, in: names).map { "did you mean \"\($0)\"? " } ?? ""
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

    func mediaTiming(_ m: [String: JSONNode], _ path: String) throws(SceneError) -> MediaTiming {
        var t = MediaTiming()
        if let n = m["beginTime"] { t.beginTime = try finite(try number(n, join(path, "beginTime")), n, join(path, "beginTime")) }
        if let n = m["duration"] {
            let p = join(path, "duration")
            t.duration = try number(n, p)
            guard t.duration >= 0 else {
                throw fail(
                    n, p, "duration must not be negative, got \(t.duration)",
                    fix: "use a duration in seconds; 0 means the default 0.25 s")
            }
        }
        if let n = m["speed"] { t.speed = try number(n, join(path, "speed")) }
        if let n = m["timeOffset"] { t.timeOffset = try number(n, join(path, "timeOffset")) }
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
            t.repeatDuration = try number(n, join(path, "repeatDuration"))
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

extension SceneDecoder {
    /// Every key the decoder accepts, by the kind of object that holds it (the JSON Schema in
    /// `schema/scene.schema.json` is checked against this).
    public static var knownKeys: [String: [String]] {
        [
            "scene": Reader.sceneKeys, "action": Reader.actionKeys, "layer": Reader.commonLayerKeys,
            "shapeLayer": Reader.shapeLayerKeys, "gradientLayer": Reader.gradientLayerKeys,
            "replicatorLayer": Reader.replicatorLayerKeys, "animationTiming": Reader.timingKeys, "basic": Reader.basicKeys,
            "keyframe": Reader.keyframeKeys, "spring": Reader.springKeys, "popSpring": Reader.popSpringKeys,
            "group": Reader.groupKeys, "transform": Reader.transformOps,
        ]
    }
}

/// The known name nearest to a misspelt one, if it is close enough to be a likely typo.
/// The candidate nearest in spelling to `word` when it is plausibly what was meant (for "did you mean").
/// A word from the input as a message quotes it: whole up to 40 characters, else its start and its
/// length (a 1 MB key is not echoed back).
public func shortened(_ word: String) -> String {
    word.count <= 40 ? word : "\(word.prefix(32))… (\(word.utf8.count) bytes)"
}

public func closest(_ word: String, in candidates: [String]) -> String? {
    // No key or name is that long: spare the edit distances (quadratic in the lengths).
    guard word.count <= 64 else { return nil }
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1]
            for (j, cb) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
    let w = Array(word.lowercased())
    let best = candidates.map { ($0, distance(w, Array($0.lowercased()))) }.min { $0.1 < $1.1 }
    guard let (name, d) = best else { return nil }
    // Close in spelling, or a different ending of the same word ("rotate" for "rotation").
    let stem = String(w.dropLast())
    guard d <= max(2, w.count / 3) || (w.count >= 5 && name.lowercased().hasPrefix(stem)) else { return nil }
    return name
}

extension Color {
    /// `#rgb`, `#rrggbb` or `#rrggbbaa`.
    public init?(hex: String) {
        var s = Substring(hex)
        guard s.first == "#" else { return nil }
        s.removeFirst()
        var digits: [Double] = []
        for ch in s {
            guard let v = ch.hexDigitValue else { return nil }
            digits.append(Double(v))
        }
        switch digits.count {
        case 3:
            self.init(red: digits[0] / 15, green: digits[1] / 15, blue: digits[2] / 15)
        case 6, 8:
            var c: [Double] = []
            var i = 0
            while i < digits.count {
                c.append((digits[i] * 16 + digits[i + 1]) / 255)
                i += 2
            }
            self.init(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)
        default:
            return nil
        }
    }
}

/// The references a `Reader` collects as it goes (its reading functions do not mutate it).
final class ReferenceLog {
    var items: [(String, SourceReference)] = []
}
