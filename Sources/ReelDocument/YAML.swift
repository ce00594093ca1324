/// YAML documents read with Yams (libyaml) into the located tree JSON is read into, refused past the
/// document limits (size, nesting, values an alias expands to) with a line and column.
import Foundation
import Yams

/// YAML scene files: read with Yams (libyaml) into the same located tree as JSON, so both formats
/// share one decoder and every error names a line and column.
package enum YAMLReader {
    package static func parse(_ text: String, file: String) throws(DocumentError) -> JSONNode {
        if text.utf8.count > DocumentLimits.maximumBytes {
            throw DocumentError(
                file: file,
                message: "is \(text.utf8.count >> 20) MiB, above the limit of \(DocumentLimits.maximumBytes >> 20) MiB",
                fix: "split it, or generate the scene in Swift")
        }
        if let here = DocumentLimits.yamlNestingBeyond(DocumentLimits.maximumDepth, in: text) {
            throw DocumentError(
                file: file, location: here, message: "invalid YAML: nesting deeper than \(DocumentLimits.maximumDepth) levels")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.sceneError(error, file: file)
        } catch {
            throw DocumentError(file: file, message: "invalid YAML: \(error)")
        }
        guard let root else {
            throw DocumentError(
                file: file, location: SourceLocation(line: 1, column: 1),
                message: "invalid YAML: the file is empty; a scene is a mapping")
        }
        // Counted first, cheaply (no scalar is resolved), so an alias bomb is refused in a fraction of
        // the time its conversion would take to reach the limit.
        var count = DocumentLimits.maximumValues
        if !withinBudget(root, &count) {
            throw DocumentError(
                file: file, location: location(root),
                message:
                    "invalid YAML: the document expands to more than \(DocumentLimits.maximumValues) values (aliases of aliases?)",
                fix: "write the values out, or use fewer nested aliases")
        }
        return try convert(root, file: file, depth: 0)
    }

    /// False as soon as the tree holds more than `budget` nodes (aliases count as the copies they make).
    static func withinBudget(_ node: Node, _ budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch node {
        case .scalar: return true
        case .sequence(let seq):
            for item in seq where !withinBudget(item, &budget) { return false }
        case .mapping(let map):
            for (k, v) in map where !withinBudget(k, &budget) || !withinBudget(v, &budget) { return false }
        @unknown default:
            return true
        }
        return true
    }

    static func location(_ node: Node) -> SourceLocation {
        node.mark.map { SourceLocation(line: $0.line, column: $0.column) } ?? SourceLocation(line: 1, column: 1)
    }

    static func convert(_ node: Node, file: String, depth: Int) throws(DocumentError) -> JSONNode {
        let here = location(node)
        guard depth < JSONParser.maximumDepth else {
            throw DocumentError(
                file: file, location: here, message: "invalid YAML: nesting deeper than \(JSONParser.maximumDepth) levels")
        }
        switch node {
        case .scalar(let s):
            // Plain scalars are typed by YAML's core resolver; quoted ones stay strings.
            if node.null != nil { return JSONNode(value: .null, location: here) }
            // YAML 1.1's base-60 numbers (`1:30`) are not numbers in a scene, and Yams overflows on long
            // ones (`1:0:0:0:0:0:0:0:0:0:0`): a plain scalar with a colon stays text.
            if s.style == .plain && s.string.contains(":") { return JSONNode(value: .string(s.string), location: here) }
            if let b = node.bool { return JSONNode(value: .bool(b), location: here) }
            if let v = node.int.map(Double.init) ?? node.float {
                // `.inf`, `infinity`: the word scene files use for endless repeats (`"infinity"` in JSON).
                if v == .infinity { return JSONNode(value: .string("infinity"), location: here) }
                guard v.isFinite else {
                    throw DocumentError(file: file, location: here, message: "invalid YAML: number \(s.string) is out of range")
                }
                return JSONNode(value: .number(v), location: here)
            }
            return JSONNode(value: .string(s.string), location: here)
        case .sequence(let seq):
            var items: [JSONNode] = []
            for item in seq { items.append(try convert(item, file: file, depth: depth + 1)) }
            return JSONNode(value: .array(items), location: here)
        case .mapping(let map):
            var members: [(key: String, keyLocation: SourceLocation, value: JSONNode)] = []
            var seen = Set<String>()
            for (k, v) in map {
                guard case .scalar(let ks) = k else {
                    throw DocumentError(file: file, location: location(k), message: "invalid YAML: keys must be plain strings")
                }
                guard seen.insert(ks.string).inserted else {
                    throw DocumentError(
                        file: file, location: location(k), message: "invalid YAML: duplicate key \"\(ks.string)\"")
                }
                members.append((ks.string, location(k), try convert(v, file: file, depth: depth + 1)))
            }
            return JSONNode(value: .object(members), location: here)
        }
    }

    static func sceneError(_ error: YamlError, file: String) -> DocumentError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return DocumentError(
                file: file, location: SourceLocation(line: mark.line, column: mark.column), message: "invalid YAML: \(problem)")
        case .reader(let problem, _, _, _):
            return DocumentError(file: file, message: "invalid YAML: \(problem)")
        default:
            return DocumentError(file: file, message: "invalid YAML: \(error)")
        }
    }
}
