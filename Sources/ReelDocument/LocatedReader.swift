/// The located reader every document Reel reads is built on (scenes, presets, manifests): key paths,
/// known keys with "did you mean", and the basic values (numbers, strings, points, colours, choices).
import Foundation
import ReelGeometry

/// Something that walks a located JSON tree of one file, so every error can say where it is. The scene
/// decoder's reader adds what it collects on the way; `DocumentReader` is the plain one.
package protocol LocatedReader {
    var file: String { get }
    /// Where the values read sit in a larger document (a preset inside a batch manifest), for messages.
    var base: String { get }
}

package struct DocumentReader: LocatedReader {
    package let file: String
    package var base = ""

    package init(file: String, base: String = "") {
        self.file = file
        self.base = base
    }
}

/// An object's known keys: in order for messages, and as a set for looking keys up.
package struct KnownKeys: Sendable {
    package let list: [String]
    package let set: Set<String>

    package init(_ list: [String]) {
        self.list = list
        set = Set(list)
    }
}

/// An object's members by key, for a reader that asks for many keys of which an object holds few (a
/// layer: 70 asked, 5 held): a key's length and first byte rule most absent keys out before the
/// dictionary hashes it (2,000 layers' look-ups took 34 M instructions).
package struct Members {
    package let all: [String: JSONNode]
    private let held: UInt64

    package init(_ all: [String: JSONNode]) {
        self.all = all
        held = all.keys.reduce(0) { $0 | Self.bit($1) }
    }

    @inline(__always) private static func bit(_ key: String) -> UInt64 {
        let bytes = key.utf8
        return 1 << UInt64(truncatingIfNeeded: (bytes.count &* 5 &+ Int(bytes.first ?? 0)) & 63)
    }

    package subscript(key: String) -> JSONNode? { held & Self.bit(key) == 0 ? nil : all[key] }
}

extension LocatedReader {
    package func fail(_ node: JSONNode, _ path: String, _ message: String, fix: String? = nil) -> DocumentError {
        DocumentError(file: file, location: node.location, path: join(base, path), message: message, fix: fix)
    }

    /// An object's members by key, refusing keys it does not know (with a "did you mean").
    package func members(_ node: JSONNode, _ path: String, known: [String], what: String) throws(DocumentError) -> [String:
        JSONNode]
    {
        try members(node, path, known: known, what: what) { known.contains($0) }
    }

    /// The same, the keys looked up in a set made once (a layer's fifty keys compared with each key of
    /// each of 2,000 layers cost 17 M instructions), and the members asked for quickly (`Members`).
    package func members(_ node: JSONNode, _ path: String, known: KnownKeys, what: String) throws(DocumentError) -> Members {
        Members(try members(node, path, known: known.list, what: what) { known.set.contains($0) })
    }

    private func members(
        _ node: JSONNode, _ path: String, known: [String], what: String, knows: (String) -> Bool
    ) throws(DocumentError) -> [String: JSONNode] {
        guard case .object(let list) = node.value else {
            throw fail(node, path, "expected \(what) (a JSON object), found \(node.kindName)")
        }
        var out: [String: JSONNode] = [:]
        out.reserveCapacity(list.count)
        for m in list {
            guard knows(m.key) else {
                let suggestion = didYouMean(m.key, in: known)
                throw DocumentError(
                    file: file, location: m.keyLocation, path: join(base, join(path, shortened(m.key))),
                    message: "unknown key \"\(shortened(m.key))\" in \(what)",
                    fix: "\(suggestion)known keys: \(known.joined(separator: ", "))")
            }
            out[m.key] = m.value
        }
        return out
    }

    package func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    // The value readers take their path as an autoclosure: it is made only for a message (a 2,000-layer
    // scene made 30,000 path strings and showed none).
    package func number(_ node: JSONNode, _ path: @autoclosure () -> String) throws(DocumentError) -> Double {
        guard case .number(let v) = node.value else {
            throw fail(node, path(), "expected a number, found \(node.kindName)")
        }
        return v
    }

    package func bool(_ node: JSONNode, _ path: @autoclosure () -> String) throws(DocumentError) -> Bool {
        guard case .bool(let v) = node.value else {
            throw fail(node, path(), "expected true or false, found \(node.kindName)")
        }
        return v
    }

    package func string(_ node: JSONNode, _ path: @autoclosure () -> String) throws(DocumentError) -> String {
        guard case .string(let v) = node.value else {
            throw fail(node, path(), "expected a string, found \(node.kindName)")
        }
        return v
    }

    package func array(_ node: JSONNode, _ path: @autoclosure () -> String) throws(DocumentError) -> [JSONNode] {
        guard case .array(let v) = node.value else {
            throw fail(node, path(), "expected an array, found \(node.kindName)")
        }
        return v
    }

    /// A list of exactly `count` numbers, or an object with the given component names.
    package func components(_ node: JSONNode, _ path: @autoclosure () -> String, names: [String], what: String, example: String)
        throws(DocumentError)
        -> [Double]
    {
        switch node.value {
        case .array(let items):
            guard items.count == names.count else {
                throw fail(
                    node, path(),
                    "expected \(what) as \(names.count) numbers [\(names.joined(separator: ", "))], found \(items.count)",
                    fix: "write it as \(example)")
            }
            var out: [Double] = []
            for (i, item) in items.enumerated() { out.append(try number(item, "\(path())[\(i)]")) }
            return out
        case .object:
            let m = try members(node, path(), known: names, what: what)
            var out: [Double] = []
            for name in names {
                guard let v = m[name] else {
                    throw fail(node, path(), "\(what) is missing \"\(name)\"", fix: "write it as \(example)")
                }
                out.append(try number(v, join(path(), name)))
            }
            return out
        default:
            throw fail(node, path(), "expected \(what), found \(node.kindName)", fix: "write it as \(example)")
        }
    }

    package func point(_ node: JSONNode, _ path: @autoclosure () -> String) throws(DocumentError) -> Point {
        let c = try components(node, path(), names: ["x", "y"], what: "a point", example: "[x, y]")
        return Point(x: c[0], y: c[1])
    }

    package func size(_ node: JSONNode, _ path: @autoclosure () -> String) throws(DocumentError) -> Size {
        let c = try components(node, path(), names: ["width", "height"], what: "a size", example: "[width, height]")
        return Size(width: c[0], height: c[1])
    }

    package func rect(_ node: JSONNode, _ path: @autoclosure () -> String) throws(DocumentError) -> Rect {
        let c = try components(
            node, path(), names: ["x", "y", "width", "height"], what: "a rect", example: "[x, y, width, height]")
        return Rect(x: c[0], y: c[1], width: c[2], height: c[3])
    }

    package func color(_ node: JSONNode, _ path: @autoclosure () -> String) throws(DocumentError) -> Color {
        let fix = "write a colour as \"#rrggbb\", \"#rrggbbaa\" or [r, g, b, a] with components in 0…1"
        switch node.value {
        case .string(let s):
            guard let c = Color(hex: s) else { throw fail(node, path(), "\"\(s)\" is not a colour", fix: fix) }
            return c
        case .array(let items):
            guard items.count == 3 || items.count == 4 else {
                throw fail(node, path(), "a colour array has 3 or 4 components, found \(items.count)", fix: fix)
            }
            var v: [Double] = []
            for (i, item) in items.enumerated() {
                let x = try number(item, "\(path())[\(i)]")
                guard (0...1).contains(x) else {
                    throw fail(item, "\(path())[\(i)]", "colour component \(x) is outside 0…1", fix: fix)
                }
                v.append(x)
            }
            return Color(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1)
        default:
            throw fail(node, path(), "expected a colour, found \(node.kindName)", fix: fix)
        }
    }

    /// A time in seconds (a begin time, a duration, an offset): within ±10⁷ s (116 days), far beyond
    /// the 24 h a clip may last, so that no later arithmetic (cycle counts, spring steps) overflows.
    /// ±10⁷ s: see `seconds`.
    package static var maximumSeconds: Double { 1e7 }

    package func seconds(_ node: JSONNode, _ path: @autoclosure () -> String) throws(DocumentError) -> Double {
        let v = try number(node, path())
        guard abs(v) <= Self.maximumSeconds else {
            throw fail(node, path(), "\(v) s is beyond ±\(Int(Self.maximumSeconds)) s", fix: "give a time within the clip")
        }
        return v
    }

    package func finite(_ v: Double, _ node: JSONNode, _ path: @autoclosure () -> String) throws(DocumentError) -> Double {
        guard v.isFinite else { throw fail(node, path(), "must be finite") }
        return v
    }

    package func optionalColor(_ node: JSONNode, _ path: @autoclosure () -> String) throws(DocumentError) -> Color? {
        if case .null = node.value { return nil }
        return try color(node, path())
    }

    package func choice<T: RawRepresentable & CaseIterable>(_ node: JSONNode, _ path: @autoclosure () -> String, _ type: T.Type)
        throws(DocumentError) -> T
    where T.RawValue == String {
        let s = try string(node, path())
        guard let v = T(rawValue: s) else {
            let names = T.allCases.map(\.rawValue)
            let suggestion = didYouMean(s, in: names)
            throw fail(
                node, path(), "\"\(s)\" is not one of \(names.joined(separator: ", "))",
                fix: "\(suggestion)use one of \(names.joined(separator: ", "))")
        }
        return v
    }
}
