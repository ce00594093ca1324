/// Text layers: `CATextLayer`'s keys, rich runs, font features and per-unit animations, read with their
/// places so that a font that is not installed is reported where the scene names it.
import ReelAnimation
import ReelDocument
import ReelGeometry

extension Reader {
    static let textLayerKeys = [
        "string", "runs", "font", "fontSize", "foregroundColor", "alignmentMode", "isWrapped", "truncationMode", "lineHeight",
        "letterSpacing", "wordSpacing", "fontFeatures", "unitAnimations", "strokeColor", "lineWidth", "lineJoin", "paintOrder",
        "path", "pathOffset",
    ]
    static let runKeys = [
        "text", "font", "fontSize", "foregroundColor", "letterSpacing", "wordSpacing", "fontFeatures", "baselineOffset",
        "underline", "strikethrough", "overline", "baseline",
    ]
    static let unitAnimationKeys = ["unit", "stagger", "order", "seed", "animations"]

    /// The text keys of a layer of type `text`.
    func readText(_ m: [String: JSONNode], _ path: String, into layer: inout Layer) throws(SceneError) {
        var text = TextProperties()
        if let n = m["string"] { text.string = try limitedText(n, join(path, "string")) }
        if let n = m["font"] { text.font = try fontName(n, join(path, "font"), layer: layer.name) }
        if let n = m["fontSize"] { text.fontSize = try fontSize(n, join(path, "fontSize")) }
        if let n = m["foregroundColor"] { text.foregroundColor = try color(n, join(path, "foregroundColor")) }
        if let n = m["alignmentMode"] {
            text.alignmentMode = try choice(n, join(path, "alignmentMode"), TextAlignmentMode.self)
        }
        if let n = m["isWrapped"] { text.isWrapped = try bool(n, join(path, "isWrapped")) }
        if let n = m["paintOrder"] { text.paintOrder = try choice(n, join(path, "paintOrder"), TextPaintOrder.self) }
        if let n = m["truncationMode"] {
            text.truncationMode = try choice(n, join(path, "truncationMode"), TextTruncationMode.self)
        }
        if let n = m["lineHeight"] {
            let v = try number(n, join(path, "lineHeight"))
            guard v > 0, v <= 100 else {
                throw fail(
                    n, join(path, "lineHeight"), "lineHeight is a multiple of the font's line height in (0, 100], got \(v)")
            }
            text.lineHeight = v
        }
        if let n = m["letterSpacing"] { text.letterSpacing = try spacing(n, join(path, "letterSpacing")) }
        if let n = m["wordSpacing"] { text.wordSpacing = try spacing(n, join(path, "wordSpacing"), name: "wordSpacing") }
        if let n = m["fontFeatures"] { text.fontFeatures = try features(n, join(path, "fontFeatures")) }
        if let n = m["pathOffset"] {
            let v = try number(n, join(path, "pathOffset"))
            guard v.isFinite else { throw fail(n, join(path, "pathOffset"), "pathOffset must be a finite number of points") }
            text.pathOffset = v
        }
        if let n = m["runs"] {
            if m["string"] != nil {
                throw fail(n, join(path, "runs"), "give either \"string\" or \"runs\", not both", fix: "put all the text in runs")
            }
            var total = 0
            for (i, item) in try array(n, join(path, "runs")).enumerated() {
                let p = "\(join(path, "runs"))[\(i)]"
                let r = try members(item, p, known: Self.runKeys, what: "a text run")
                guard let t = r["text"] else { throw fail(item, join(p, "text"), "a run needs its \"text\"") }
                var span = TextSpan(try limitedText(t, join(p, "text")))
                total += span.text.unicodeScalars.count
                if total > TextProperties.maximumTextLength {
                    throw fail(
                        t, join(p, "text"), "the runs hold more than \(TextProperties.maximumTextLength) characters",
                        fix: "split the text over several layers")
                }
                if let f = r["font"] { span.font = try fontName(f, join(p, "font"), layer: layer.name) }
                if let f = r["fontSize"] { span.fontSize = try fontSize(f, join(p, "fontSize")) }
                if let f = r["foregroundColor"] { span.foregroundColor = try color(f, join(p, "foregroundColor")) }
                if let f = r["letterSpacing"] { span.letterSpacing = try spacing(f, join(p, "letterSpacing")) }
                if let f = r["wordSpacing"] { span.wordSpacing = try spacing(f, join(p, "wordSpacing"), name: "wordSpacing") }
                if let f = r["fontFeatures"] { span.fontFeatures = try features(f, join(p, "fontFeatures")) }
                if let f = r["baselineOffset"] {
                    span.baselineOffset = try spacing(f, join(p, "baselineOffset"), name: "baselineOffset")
                }
                if let f = r["underline"] { span.underline = try bool(f, join(p, "underline")) }
                if let f = r["strikethrough"] { span.strikethrough = try bool(f, join(p, "strikethrough")) }
                if let f = r["overline"] { span.overline = try bool(f, join(p, "overline")) }
                if let f = r["baseline"] { span.baseline = try choice(f, join(p, "baseline"), TextBaseline.self) }
                text.runs.append(span)
            }
        }
        if m["font"] == nil {
            // The default font is named nowhere in the file: a missing one is reported at the layer.
            fontReferences.items.append((text.font, SourceReference(location: nil, path: join(base, join(path, "font")))))
        }
        if let n = m["unitAnimations"] {
            for (i, item) in try array(n, join(path, "unitAnimations")).enumerated() {
                text.unitAnimations.append(try unitAnimation(item, "\(join(path, "unitAnimations"))[\(i)]"))
            }
        }
        layer.text = text
    }

    func limitedText(_ node: JSONNode, _ path: String) throws(SceneError) -> String {
        // A number shows as it is written in a longer string (`string: $count` as `"${count}"` would).
        if case .number(let x) = node.value { return x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
        let s = try string(node, path)
        guard s.unicodeScalars.count <= TextProperties.maximumTextLength else {
            throw fail(
                node, path,
                "the text is \(s.unicodeScalars.count) characters, above the limit of \(TextProperties.maximumTextLength)",
                fix: "split the text over several layers")
        }
        return s
    }

    /// A font's name, kept with its place (the first place it is named) for the error if it is not installed.
    func fontName(_ node: JSONNode, _ path: String, layer: String) throws(SceneError) -> String {
        let s = try string(node, path)
        guard !s.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw fail(node, path, "the font name is empty", fix: "name a font, e.g. \"Inter\" (reel fonts lists them)")
        }
        fontReferences.items.append((s, SourceReference(location: node.location, path: join(base, path))))
        return s
    }

    func fontSize(_ node: JSONNode, _ path: String) throws(SceneError) -> Double {
        let v = try number(node, path)
        guard v >= 0, v <= TextProperties.maximumFontSize else {
            throw fail(node, path, "fontSize is in points, 0…\(Int(TextProperties.maximumFontSize)), got \(v)")
        }
        return v
    }

    func spacing(_ node: JSONNode, _ path: String, name: String = "letterSpacing") throws(SceneError) -> Double {
        let v = try number(node, path)
        guard abs(v) <= TextProperties.maximumFontSize else {
            throw fail(node, path, "\(name) is in points, within ±\(Int(TextProperties.maximumFontSize)), got \(v)")
        }
        return v
    }

    /// `{"tnum": 1, "liga": 0}`: four-letter OpenType tags with whole values (true and false are 1 and 0).
    func features(_ node: JSONNode, _ path: String) throws(SceneError) -> [String: UInt32] {
        guard case .object(let list) = node.value else {
            throw fail(node, path, "fontFeatures is an object of OpenType tags", fix: "write e.g. {\"tnum\": 1, \"liga\": 0}")
        }
        var out: [String: UInt32] = [:]
        for (key, _, value) in list {
            let p = join(path, key)
            let chars = Array(key.utf8)
            guard chars.count == 4, chars.allSatisfy({ (0x20...0x7e).contains($0) }) else {
                throw fail(
                    value, p, "\"\(key)\" is not an OpenType feature tag",
                    fix: "tags are four letters, such as liga, kern, tnum, ss01, smcp")
            }
            if case .bool(let b) = value.value {
                out[key] = b ? 1 : 0
                continue
            }
            let v = try number(value, p)
            guard v >= 0, v <= 65_535, v == v.rounded() else {
                throw fail(value, p, "a feature's value is a whole number (0 off, 1 on, n for an alternate), got \(v)")
            }
            out[key] = UInt32(v)
        }
        return out
    }

    func unitAnimation(_ node: JSONNode, _ path: String) throws(SceneError) -> UnitAnimation {
        let m = try members(node, path, known: Self.unitAnimationKeys, what: "a unit animation")
        guard let u = m["unit"] else {
            throw fail(node, join(path, "unit"), "a unit animation needs its \"unit\"", fix: "use line, word or cluster")
        }
        var a = UnitAnimation(unit: try choice(u, join(path, "unit"), TextUnit.self), animations: [])
        if let n = m["stagger"] {
            let v = try number(n, join(path, "stagger"))
            guard v >= 0, v <= Scene.maximumDuration else {
                throw fail(n, join(path, "stagger"), "stagger is seconds between units, 0 or more, got \(v)")
            }
            a.stagger = v
        }
        if let n = m["order"] { a.order = try choice(n, join(path, "order"), StaggerOrder.self) }
        if let n = m["seed"] {
            let v = try number(n, join(path, "seed"))
            guard v >= 0, v <= 9_007_199_254_740_991, v == v.rounded() else {
                throw fail(n, join(path, "seed"), "seed is a whole number, 0 or more, got \(v)")
            }
            a.seed = UInt64(v)
        }
        guard let list = m["animations"] else {
            throw fail(node, join(path, "animations"), "a unit animation needs its \"animations\"")
        }
        for (i, item) in try array(list, join(path, "animations")).enumerated() {
            let p = "\(join(path, "animations"))[\(i)]"
            let animation = try self.animation(item, p, type: .text)
            try checkUnitKeyPaths(animation, item, p)
            a.animations.append(animation)
        }
        return a
    }

    /// A unit has an opacity, a transform and a colour, and nothing else to animate; a group's
    /// animations are checked where each is written.
    func checkUnitKeyPaths(_ animation: Animation, _ node: JSONNode, _ path: String) throws(SceneError) {
        guard case .object(let members) = node.value else { return }
        func member(_ key: String) -> JSONNode? { members.first { $0.key == key }?.value }
        if case .group(let g) = animation, let list = member("animations"), case .array(let nodes) = list.value {
            for (i, (child, childNode)) in zip(g.animations, nodes).enumerated() {
                try checkUnitKeyPaths(child, childNode, "\(join(path, "animations"))[\(i)]")
            }
            return
        }
        guard let k = LayerKeyPath(rawValue: animation.keyPath), UnitAnimation.keyPaths.contains(k) else {
            throw fail(
                member("keyPath") ?? node, join(path, "keyPath"), "a text unit cannot animate \"\(animation.keyPath)\"",
                fix: "a unit animates \(UnitAnimation.keyPaths.map(\.rawValue).joined(separator: ", "))")
        }
    }
}
