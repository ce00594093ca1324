/// Scene variables (`variables:`, `$name`, `${name}`): the declared defaults, and every reference
/// replaced before the scene is read.
import Foundation
import ReelDocument

/// Scene variables: a scene declares names with default values under `variables:` and uses them
/// anywhere a value goes, so one scene renders many variants (`reel render --var`, a batch manifest's
/// `variables`).
///
/// - A string that is exactly `$name` (or `${name}`) takes the variable's value, whatever its type: a
///   number, a colour string, an array such as a point, a whole object.
/// - Inside a longer string, `${name}` is replaced by the variable's text (a string or a number):
///   `"assets/${icon}.png"`, `"M 0 0 L ${w} 0"`. `$${` writes a literal `${`.
///
/// A value that arrives through a variable is checked where it is used, and an error there names the
/// line and column of the reference.
public enum SceneVariables {
    /// The variables a scene file declares, with their defaults.
    public static func declared(in root: JSONNode) -> [(name: String, value: JSONNode)] {
        guard case .object(let members) = root.value,
            let node = members.first(where: { $0.key == "variables" })?.value,
            case .object(let list) = node.value
        else { return [] }
        return list.map { ($0.key, $0.value) }
    }

    /// The scene with its `variables` resolved: every reference replaced by the value given in `values`
    /// or else the declared default, and the `variables` member removed.
    public static func resolve(_ root: JSONNode, file: String, values: [String: JSONNode]) throws(SceneError) -> JSONNode {
        guard case .object(var members) = root.value else {
            if !values.isEmpty {
                throw SceneError(file: file, message: "declares no variables (it is not an object)")
            }
            return root
        }
        var table: [String: JSONNode] = [:]
        var order: [String] = []
        if let index = members.firstIndex(where: { $0.key == "variables" }) {
            let node = members[index].value
            guard case .object(let list) = node.value else {
                throw SceneError(
                    file: file, location: node.location, path: "variables",
                    message: "expected names and their default values (an object), found \(node.kindName)",
                    fix: "write variables: {accent: \"#3478f6\", label: Save}")
            }
            for m in list {
                guard isName(m.key) else {
                    throw SceneError(
                        file: file, location: m.keyLocation, path: "variables.\(m.key)",
                        message: "\"\(m.key)\" is not a variable name",
                        fix: "use letters, digits, _ and -, starting with a letter or _")
                }
                table[m.key] = m.value
                order.append(m.key)
            }
            members.remove(at: index)
        }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard table[name] != nil else {
                let suggestion = didYouMean(name, in: order)
                throw SceneError(
                    file: file,
                    message: "a value is given for the variable \"\(name)\", which the scene does not declare"
                        + (order.isEmpty ? "" : " (it declares \(order.joined(separator: ", ")))"),
                    fix: "\(suggestion)declare it under variables: with a default value")
            }
            table[name] = value
        }
        var resolver = Resolver(file: file, table: table, names: order)
        var out = JSONNode(value: .object([]), location: root.location)
        var resolved: [(key: String, keyLocation: SourceLocation, value: JSONNode)] = []
        for m in members {
            resolver.trail = [.key(m.key)]
            resolved.append((m.key, m.keyLocation, try resolver.node(m.value) ?? m.value))
        }
        out.value = .object(resolved)
        return out
    }

    package static func isName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || $0 == "-" || CharacterSet.alphanumerics.contains($0) }
    }

    /// A value given on a command line: JSON when it parses as JSON (a number, true, [1, 2], "text"),
    /// else the text itself (`#ff3b30`, `Save`).
    public static func value(fromArgument text: String) -> JSONNode {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let node = try? JSONParser.parse(Array(trimmed.utf8)) { return node }
        return JSONNode(value: .string(text), location: SourceLocation(line: 1, column: 1))
    }

    struct Resolver {
        let file: String
        let table: [String: JSONNode]
        let names: [String]
        /// Bytes of variable text copied into strings so far: `${big}` repeated would otherwise grow
        /// the scene by the product of the two sizes.
        var expanded = 0
        /// Where the walk is, written out as a key path only for an error: a path string made for every
        /// node was most of the pass (a scene of 2,000 layers with no variable in it).
        var trail: [Step] = []

        enum Step {
            case key(String)
            case index(Int)
        }

        var path: String {
            var out = ""
            for step in trail {
                switch step {
                case .key(let k): out += out.isEmpty ? k : ".\(k)"
                case .index(let i): out += "[\(i)]"
                }
            }
            return out
        }

        func fail(_ node: JSONNode, _ path: String, _ name: String) -> SceneError {
            let suggestion = didYouMean(name, in: names)
            return SceneError(
                file: file, location: node.location, path: path,
                message: "unknown variable \"\(name)\"" + (names.isEmpty ? "" : " (declared: \(names.joined(separator: ", ")))"),
                fix: "\(suggestion)declare it under variables: with a default value (write $${ for a literal ${)")
        }

        /// The node with its references resolved; nil when it holds none (the node is used as it is, not
        /// copied).
        mutating func node(_ node: JSONNode) throws(SceneError) -> JSONNode? {
            switch node.value {
            case .object(let members):
                var out: [(key: String, keyLocation: SourceLocation, value: JSONNode)]?
                for (k, m) in members.enumerated() {
                    trail.append(.key(m.key))
                    defer { trail.removeLast() }
                    guard let resolved = try self.node(m.value) else {
                        out?.append(m)
                        continue
                    }
                    if out == nil { out = Array(members[..<k]) }
                    out!.append((m.key, m.keyLocation, resolved))
                }
                return out.map { JSONNode(value: .object($0), location: node.location) }
            case .array(let items):
                var out: [JSONNode]?
                for (i, item) in items.enumerated() {
                    trail.append(.index(i))
                    defer { trail.removeLast() }
                    guard let resolved = try self.node(item) else {
                        out?.append(item)
                        continue
                    }
                    if out == nil { out = Array(items[..<i]) }
                    out!.append(resolved)
                }
                return out.map { JSONNode(value: .array($0), location: node.location) }
            // On the bytes: Foundation's `contains` searched each string as text (16 M instructions for
            // the 4,000 strings of a 2,000-layer scene).
            case .string(let s) where s.utf8.contains(UInt8(ascii: "$")):
                return try string(s, node, path)
            default:
                return nil
            }
        }

        mutating func string(_ s: String, _ node: JSONNode, _ path: String) throws(SceneError) -> JSONNode {
            // The whole string names a variable: its value, of any type, where the reference is.
            var whole: String?
            if s.hasPrefix("${") && s.hasSuffix("}") && !s.dropFirst(2).dropLast().contains("}") {
                whole = String(s.dropFirst(2).dropLast())
            } else if s.hasPrefix("$") && !s.hasPrefix("$$") && isName(String(s.dropFirst())) {
                whole = String(s.dropFirst())
            }
            if let name = whole {
                guard let value = table[name] else { throw fail(node, path, name) }
                return JSONNode(value: value.value, location: node.location)
            }
            // References inside a longer string: their text.
            var out = ""
            var rest = Substring(s)
            while let dollar = rest.firstIndex(of: "$") {
                out += rest[..<dollar]
                let after = rest[dollar...].dropFirst()
                if after.hasPrefix("${") {
                    out += "${"
                    rest = after.dropFirst(2)
                } else if after.hasPrefix("{"), let close = after.firstIndex(of: "}") {
                    let name = String(after[after.index(after: after.startIndex)..<close])
                    guard let value = table[name] else { throw fail(node, path, name) }
                    switch value.value {
                    case .string(let text):
                        expanded += text.utf8.count
                        if expanded > DocumentLimits.maximumBytes {
                            throw SceneError(
                                file: file, location: node.location, path: path,
                                message:
                                    "variables expand the scene's text past \(DocumentLimits.maximumBytes >> 20) MiB (\"${\(name)}\" used here)",
                                fix: "use long values less often, or as whole values (\"$\(name)\")")
                        }
                        out += text
                    case .number(let x): out += x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
                    case .bool(let b): out += b ? "true" : "false"
                    default:
                        throw SceneError(
                            file: file, location: node.location, path: path,
                            message: "the variable \"\(name)\" is \(value.kindName), which cannot go inside a string",
                            fix: "write \"$\(name)\" as the whole value to use it as it is")
                    }
                    rest = after[after.index(after: close)...]
                } else {
                    out += "$"
                    rest = after
                }
            }
            out += rest
            return JSONNode(value: .string(out), location: node.location)
        }
    }
}
