/// Lottie slots: properties that carry a slot id (`sid`) take their value from the file's `slots`, or
/// from a value given for that id (a scene layer's `slots`, `--var`, a batch row, a dotLottie theme),
/// applied to the JSON before the model is read. Values are given as a user writes them: a colour as
/// `#ff3366`, text as a string, a number, a point.
import ReelDocument
import ReelGeometry

public enum LottieSlots {
    /// What a slot holds, told by where its properties are used and by its default.
    public enum Kind: String, Sendable {
        case color, scalar, vector, text, other
    }

    /// A slot the file declares: its id, kind, and its default as a user would write it (`#rrggbb`,
    /// a number, a point, the text), which types the values given for it.
    public struct Slot: Sendable {
        public var id: String
        public var kind: Kind
        public var value: JSONNode
    }

    /// The slots `root` declares (in the order of its `slots`), each with a kind and default.
    public static func declared(in root: JSONNode) -> [Slot] {
        guard case .object(let members)? = root["slots"]?.value else { return [] }
        let colours = colourSlots(root)
        return members.map { m in
            let property = m.value["p"] ?? m.value
            let kind = kind(of: property, colour: colours.contains(m.key))
            return Slot(id: m.key, kind: kind, value: userValue(of: property, kind: kind) ?? property)
        }
    }

    /// `root` with every property that names a slot replaced by the slot's property: the value given
    /// for it in `values`, or else the file's. A value for a slot the file does not declare, or of the
    /// wrong kind, is an error naming the slot (and `origin`, where the values come from).
    public static func apply(_ root: JSONNode, file: String, values: [String: JSONNode], origin: String = "a value")
        throws(DocumentError) -> JSONNode
    {
        let slots = declared(in: root)
        guard !slots.isEmpty || !values.isEmpty else { return root }
        var properties: [String: JSONNode] = [:]
        if case .object(let members)? = root["slots"]?.value {
            for m in members { properties[m.key] = m.value["p"] ?? m.value }
        }
        let ids = slots.map(\.id)
        for (id, given) in values.sorted(by: { $0.key < $1.key }) {
            guard let slot = slots.first(where: { $0.id == id }) else {
                throw DocumentError(
                    file: file, path: "slots",
                    message: "\(origin) is given for the slot \"\(id)\", which the animation does not have"
                        + (ids.isEmpty ? " (it has no slots)" : " (it has \(ids.joined(separator: ", ")))"),
                    fix: ids.isEmpty ? "leave it out" : "\(didYouMean(id, in: ids))name one of its slots")
            }
            properties[id] = try property(given, for: slot, default: properties[id], file: file)
        }
        return replaced(root, properties)
    }

    /// The slot's property for a value given as a user writes it.
    static func property(_ given: JSONNode, for slot: Slot, default old: JSONNode?, file: String) throws(DocumentError)
        -> JSONNode
    {
        let at = given.location
        func node(_ v: JSONNode.Value) -> JSONNode { JSONNode(value: v, location: at) }
        // Not located: the value was written elsewhere (a scene, the command line, a table's cell), whose
        // reader names its place.
        func fail(_ expected: String, _ example: String) -> DocumentError {
            let shown = given.string.map { "\"\($0)\"" } ?? given.kindName
            return DocumentError(
                file: file, path: "slots.\(slot.id)", message: "the slot \"\(slot.id)\" holds \(expected), not \(shown)",
                fix: "give e.g. \(example)")
        }
        let value: JSONNode
        switch slot.kind {
        case .color:
            if let s = given.string {
                guard let c = Color(hex: s) else { throw fail("a colour", "\"#ff3366\"") }
                value = node(.array([c.red, c.green, c.blue, c.alpha].map { node(.number($0)) }))
            } else if let n = given.numbers, n.count == 3 || n.count == 4 {
                value = given
            } else {
                throw fail("a colour", "\"#ff3366\"")
            }
        case .scalar:
            if case .number(let v) = given.value, v.isFinite {
                value = node(.number(v))
            } else if let s = given.string, let v = Double(s), v.isFinite {
                value = node(.number(v))
            } else {
                throw fail("a number", "50")
            }
        case .vector:
            guard let n = given.numbers, n.count >= 2 else { throw fail("a point", "[120, 80]") }
            value = given
        case .text:
            let text: String
            if let s = given.string {
                text = s
            } else if case .number(let v) = given.value, v.isFinite {
                text = v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
            } else {
                throw fail("text", "\"Hello\"")
            }
            // The file's document (font, size, colours) with the text given, held from the start.
            var document = old.flatMap(firstDocument) ?? node(.object([]))
            document = setting(document, "t", node(.string(text.replacingOccurrences(of: "\n", with: "\r"))))
            let keyframe = node(.object([("s", at, document), ("t", at, node(.number(0)))]))
            return node(.object([("k", at, node(.array([keyframe])))]))
        case .other:
            // Gradients, pictures: the property as Lottie writes it.
            guard case .object = given.value else { throw fail("a Lottie property", "{\"a\": 0, \"k\": …}") }
            return given
        }
        return node(.object([("a", at, node(.number(0))), ("k", at, value)]))
    }

    /// The ids of slots some fill's or stroke's colour (`c`) names.
    static func colourSlots(_ root: JSONNode) -> Set<String> {
        var out = Set<String>()
        func walk(_ n: JSONNode, depth: Int) {
            guard depth < JSONParser.maximumDepth else { return }
            switch n.value {
            case .object(let members):
                for m in members {
                    if m.key == "c", let sid = m.value["sid"]?.string { out.insert(sid) }
                    if m.key != "slots" { walk(m.value, depth: depth + 1) }
                }
            case .array(let items): for i in items { walk(i, depth: depth + 1) }
            default: break
            }
        }
        walk(root, depth: 0)
        return out
    }

    static func kind(of property: JSONNode, colour: Bool) -> Kind {
        if firstDocument(property) != nil { return .text }
        guard let k = property["k"] else { return .other }
        // A keyframed property's first value, else the static one.
        let v = k.items?.first?["s"] ?? k
        if colour, let n = v.numbers, n.count == 3 || n.count == 4 { return .color }
        if let n = v.numbers { return n.count == 1 ? .scalar : .vector }
        return .other
    }

    /// A text property's first document (`k[0].s`, holding the text `t`).
    static func firstDocument(_ property: JSONNode) -> JSONNode? {
        guard let s = property["k"]?.items?.first?["s"], s["t"]?.string != nil else { return nil }
        return s
    }

    /// The slot's default as a user writes it, nil where there is no such form.
    static func userValue(of property: JSONNode, kind: Kind) -> JSONNode? {
        let at = property.location
        let v = property["k"].map { $0.items?.first?["s"] ?? $0 }
        switch kind {
        case .color:
            guard let n = v?.numbers, n.count >= 3 else { return nil }
            // #rrggbb, and aa where the colour is not opaque: what `Color(hex:)` reads back.
            let channels = (n.count > 3 && n[3] < 1 ? n.prefix(4) : n.prefix(3)).map { v -> String in
                let byte = Int((Color.unit(v) * 255).rounded())
                return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
            }
            return JSONNode(value: .string("#" + channels.joined()), location: at)
        case .scalar: return v?.number.map { JSONNode(value: .number($0), location: at) }
        case .vector:
            // A point (two numbers) as scenes write one; a third (z) dropped.
            guard let n = v?.numbers, n.count >= 2 else { return nil }
            return JSONNode(value: .array(n.prefix(2).map { JSONNode(value: .number($0), location: at) }), location: at)
        case .text: return firstDocument(property)?["t"].map { JSONNode(value: .string($0.string ?? ""), location: at) }
        case .other: return nil
        }
    }

    /// `object` with `key` set to `value` (added when absent).
    static func setting(_ object: JSONNode, _ key: String, _ value: JSONNode) -> JSONNode {
        guard case .object(var members) = object.value else { return object }
        if let i = members.firstIndex(where: { $0.key == key }) {
            members[i].value = value
        } else {
            members.append((key, value.location, value))
        }
        return JSONNode(value: .object(members), location: object.location)
    }

    /// The tree with each object naming a slot (`sid`) in `properties` replaced by that property.
    static func replaced(_ n: JSONNode, _ properties: [String: JSONNode], depth: Int = 0) -> JSONNode {
        guard depth < JSONParser.maximumDepth else { return n }
        switch n.value {
        case .object(let members):
            if let sid = members.first(where: { $0.key == "sid" })?.value.string, let p = properties[sid] {
                return p
            }
            return JSONNode(
                value: .object(
                    members.map { m in
                        (m.key, m.keyLocation, m.key == "slots" ? m.value : replaced(m.value, properties, depth: depth + 1))
                    }), location: n.location)
        case .array(let items):
            return JSONNode(value: .array(items.map { replaced($0, properties, depth: depth + 1) }), location: n.location)
        default: return n
        }
    }
}
