/// The scene decoder's reader: the located basics (ReelDocument) and the values only scenes have
/// (animatable values by key path, transforms), and the references it collects on the way.
import Foundation
import ReelAnimation
import ReelDocument
import ReelGeometry

/// Walks a scene file's located JSON tree; the basic readers come from `LocatedReader`.
struct Reader: LocatedReader {
    let file: String
    var base = ""
    /// Each layer's `contents` and where it is written, collected while layers are read.
    let contentsReferences = ReferenceLog()
    /// Where each layer's `instanceCount` is written (for the replication limit's message).
    let layerNodes = ReferenceLog()
    /// Each font a text layer names and where (the first place wins), for a font not installed.
    let fontReferences = ReferenceLog()
    /// Imports `type: svg` layers (nil: such layers are an error).
    var importer: LayerImporter?
    /// The files imported on the way.
    let imports = ImportLog()
    /// What the scene sets that Core Animation would ignore, said as notes rather than refused.
    let notes = NoteLog()

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
        case .string: return .string(try limitedText(node, path))
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
}

/// The references a `Reader` collects as it goes (its reading functions do not mutate it).
final class ReferenceLog {
    var items: [(String, SourceReference)] = []
}

/// Notes a `Reader` leaves for a scene it accepts, one per kind, naming the first place: a scene ported
/// from iOS may set the same ignored list on every animation, and a note each would bury the others.
final class NoteLog {
    private(set) var items: [String] = []
    private var kinds = Set<String>()

    func add(_ kind: String, _ note: String) {
        guard !kinds.contains(kind) else { return }
        kinds.insert(kind)
        items.append(note)
    }
}
