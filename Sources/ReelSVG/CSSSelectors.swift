/// CSS selectors for `<style>` sheets: compounds of type, `*`, `#id`, `.class`, attribute tests and
/// `:first-child`, joined by descendant (space) and child (`>`) combinators, with their specificity.
/// What a selector holds beyond that (other pseudo-classes, sibling combinators) drops the rule.
import Foundation

struct CSSSelector: Equatable {
    struct AttributeTest: Equatable {
        enum Operator: Equatable { case exists, equals, includes, dashMatch, prefix, suffix, substring }
        var name: String
        var op: Operator
        var value: String
    }

    /// One compound selector: everything its element must satisfy at once.
    struct Compound: Equatable {
        var type: String?
        var ids: [String] = []
        var classes: [String] = []
        var attributes: [AttributeTest] = []
        var firstChild = false
    }

    enum Combinator: Equatable { case descendant, child }

    /// Compounds left to right; each but the first with the combinator that joins it to the one before.
    var compounds: [(combinator: Combinator, compound: Compound)]

    static func == (a: CSSSelector, b: CSSSelector) -> Bool {
        a.compounds.count == b.compounds.count
            && zip(a.compounds, b.compounds).allSatisfy { $0.combinator == $1.combinator && $0.compound == $1.compound }
    }

    /// (ids, classes + attributes + pseudo-classes, types) as one number that compares as CSS compares
    /// the three in turn (each count held below 1,000, far more than any selector has).
    var specificity: Int {
        var a = 0, b = 0, c = 0
        for (_, x) in compounds {
            a += x.ids.count
            b += x.classes.count + x.attributes.count + (x.firstChild ? 1 : 0)
            c += x.type == nil ? 0 : 1
        }
        return min(a, 999) * 1_000_000 + min(b, 999) * 1_000 + min(c, 999)
    }

    /// What an element must be for the selector's last compound to match it: its id, a class, its type,
    /// or nil (any element), so that a sheet is searched by these keys rather than rule by rule.
    var key: String? {
        guard let last = compounds.last?.compound else { return nil }
        if let id = last.ids.first { return "#" + id }
        if let cls = last.classes.first { return "." + cls }
        return last.type
    }

    func matches(_ e: SVGElement) -> Bool {
        var failed = Set<Pair>()
        return matches(e, upTo: compounds.count - 1, failed: &failed)
    }

    private struct Pair: Hashable {
        let element: ObjectIdentifier
        let index: Int
    }

    /// Whether compounds 0…i match with `e` as compound i's element. Each (element, i) that failed is
    /// remembered, so a descendant selector costs at most elements × compounds, not a walk of every
    /// combination of ancestors.
    private func matches(_ e: SVGElement, upTo i: Int, failed: inout Set<Pair>) -> Bool {
        let pair = Pair(element: ObjectIdentifier(e), index: i)
        guard i >= 0, !failed.contains(pair), Self.matches(compounds[i].compound, e) else { return false }
        if i == 0 { return true }
        var found = false
        switch compounds[i].combinator {
        case .child:
            found = e.parent.map { matches($0, upTo: i - 1, failed: &failed) } ?? false
        case .descendant:
            var ancestor = e.parent
            while let a = ancestor, !found {
                found = matches(a, upTo: i - 1, failed: &failed)
                ancestor = a.parent
            }
        }
        if !found { failed.insert(pair) }
        return found
    }

    private static func matches(_ c: Compound, _ e: SVGElement) -> Bool {
        if let t = c.type, t != e.name { return false }
        if !c.ids.allSatisfy({ e.attributes["id"] == $0 }) { return false }
        if !c.classes.isEmpty {
            let classes = (e.attributes["class"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
            if !c.classes.allSatisfy(classes.contains) { return false }
        }
        // The first element child: the character data of text elements does not count, nor the
        // stand-ins that carry a character's position (`SVGElement.positionWrapper`).
        if c.firstChild, let parent = e.parent,
            parent.children.first(where: { $0.name != SVGElement.characters && $0.name != SVGElement.positionWrapper }) !== e
        {
            return false
        }
        for test in c.attributes {
            guard let v = e.attributes[test.name] else { return false }
            let ok: Bool
            switch test.op {
            case .exists: ok = true
            case .equals: ok = v == test.value
            case .includes: ok = v.split(whereSeparator: \.isWhitespace).contains { $0 == test.value }
            case .dashMatch: ok = v == test.value || v.hasPrefix(test.value + "-")
            case .prefix: ok = !test.value.isEmpty && v.hasPrefix(test.value)
            case .suffix: ok = !test.value.isEmpty && v.hasSuffix(test.value)
            case .substring: ok = !test.value.isEmpty && v.contains(test.value)
            }
            if !ok { return false }
        }
        return true
    }

    /// Reads one selector (no commas), or nil when it holds something Reel does not match.
    static func parse(_ text: String) -> CSSSelector? {
        var s = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        var out: [(Combinator, Compound)] = []
        var pending: Combinator = .descendant
        while !s.isEmpty {
            guard let compound = Self.compound(&s) else { return nil }
            out.append((pending, compound))
            let hadSpace = s.first?.isWhitespace ?? false
            s = s.drop { $0.isWhitespace }
            if s.first == ">" {
                pending = .child
                s = s.dropFirst().drop { $0.isWhitespace }
                if s.isEmpty { return nil }
            } else if hadSpace || s.isEmpty {
                pending = .descendant
            } else {
                return nil  // `+`, `~` or something else between compounds
            }
        }
        return out.isEmpty ? nil : CSSSelector(compounds: out.map { (combinator: $0.0, compound: $0.1) })
    }

    private static func name(_ s: inout Substring) -> String? {
        let n = s.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        guard !n.isEmpty else { return nil }
        s = s.dropFirst(n.count)
        return String(n)
    }

    private static func compound(_ s: inout Substring) -> Compound? {
        var c = Compound()
        var any = false
        if s.first == "*" {
            s = s.dropFirst()
            any = true
        } else if let t = name(&s) {
            c.type = t
            any = true
        }
        while let first = s.first, !first.isWhitespace, first != ">" {
            switch first {
            case "#":
                s = s.dropFirst()
                guard let id = name(&s) else { return nil }
                c.ids.append(id)
            case ".":
                s = s.dropFirst()
                guard let cls = name(&s) else { return nil }
                c.classes.append(cls)
            case "[":
                guard let close = s.firstIndex(of: "]") else { return nil }
                guard let test = attributeTest(s[s.index(after: s.startIndex)..<close]) else { return nil }
                c.attributes.append(test)
                s = s[s.index(after: close)...]
            case ":":
                s = s.dropFirst()
                guard name(&s) == "first-child" else { return nil }
                c.firstChild = true
            default:
                return nil
            }
            any = true
        }
        return any ? c : nil
    }

    private static func attributeTest(_ body: Substring) -> AttributeTest? {
        let ops: [(String, AttributeTest.Operator)] = [
            ("~=", .includes), ("|=", .dashMatch), ("^=", .prefix), ("$=", .suffix), ("*=", .substring), ("=", .equals),
        ]
        for (token, op) in ops {
            if let r = body.range(of: token) {
                let attr = body[..<r.lowerBound].trimmingCharacters(in: .whitespaces)
                var value = body[r.upperBound...].trimmingCharacters(in: .whitespaces)
                if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q {
                    value = String(value.dropFirst().dropLast())
                }
                guard !attr.isEmpty else { return nil }
                return AttributeTest(name: attr, op: op, value: value)
            }
        }
        let attr = body.trimmingCharacters(in: .whitespaces)
        return attr.isEmpty ? nil : AttributeTest(name: attr, op: .exists, value: "")
    }
}
