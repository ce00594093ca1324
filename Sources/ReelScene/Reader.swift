/// The located reader the scene decoder is built on: key paths, known keys, and the basic values
/// (numbers, points, colours, transforms) every part of a scene file uses.
import Foundation
import ReelAnimation
import ReelGeometry

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
                let suggestion = didYouMean(m.key, in: known)
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

    /// A time in seconds (a begin time, a duration, an offset): within ±10⁷ s (116 days), far beyond
    /// the 24 h a clip may last, so that no later arithmetic (cycle counts, spring steps) overflows.
    func seconds(_ node: JSONNode, _ path: String) throws(SceneError) -> Double {
        let v = try number(node, path)
        guard abs(v) <= Self.maximumSeconds else {
            throw fail(node, path, "\(v) s is beyond ±\(Int(Self.maximumSeconds)) s", fix: "give a time within the clip")
        }
        return v
    }

    static let maximumSeconds = 1e7

    func finite(_ v: Double, _ node: JSONNode, _ path: String) throws(SceneError) -> Double {
        guard v.isFinite else { throw fail(node, path, "must be finite") }
        return v
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
            let suggestion = didYouMean(s, in: names)
            throw fail(
                node, path, "\"\(s)\" is not one of \(names.joined(separator: ", "))",
                fix: "\(suggestion)use one of \(names.joined(separator: ", "))")
        }
        return v
    }
}

/// The references a `Reader` collects as it goes (its reading functions do not mutate it).
final class ReferenceLog {
    var items: [(String, SourceReference)] = []
}
