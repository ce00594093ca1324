/// Styling: the properties each element ends up with, from presentation attributes, `<style>` sheets
/// (selectors as CSSSelectors reads them, by specificity then order) and `style` attributes, with
/// inheritance, `inherit` and `currentColor`.
import Foundation
import ReelGeometry
import ReelScene

/// One rule of a style sheet: a selector and its declarations.
struct CSSRule {
    var selector: CSSSelector
    var declarations: [(String, String)]
    /// Those marked `!important`, which beat every declaration that is not.
    var important: [(String, String)] = []
    var order: Int

    var specificity: Int { selector.specificity }

    func matches(_ e: SVGElement) -> Bool { selector.matches(e) }
}

/// A document's style rules, indexed by what their last compound needs (an id, a class, a type), so an
/// element is matched only against the rules that could match it.
struct StyleSheet {
    private(set) var rules: [CSSRule] = []
    private var byKey: [String: [Int]] = [:]
    private var unkeyed: [Int] = []

    /// Adds rules in order; past `CSS.maximumRules` they are left out (false).
    @discardableResult mutating func add(_ new: [CSSRule]) -> Bool {
        for rule in new {
            guard rules.count < CSS.maximumRules else { return false }
            if let key = rule.selector.key { byKey[key, default: []].append(rules.count) } else { unkeyed.append(rules.count) }
            rules.append(rule)
        }
        return true
    }

    /// The rules that match `e`, lowest specificity first, then in document order.
    func matching(_ e: SVGElement) -> [CSSRule] {
        guard !rules.isEmpty else { return [] }
        var candidates = unkeyed
        if let id = e.attributes["id"] { candidates += byKey["#" + id] ?? [] }
        for cls in (e.attributes["class"] ?? "").split(whereSeparator: \.isWhitespace) {
            candidates += byKey["." + cls] ?? []
        }
        candidates += byKey[e.name] ?? []
        return Set(candidates).map { rules[$0] }.filter { $0.matches(e) }
            .sorted { ($0.specificity, $0.order) < ($1.specificity, $1.order) }
    }
}

enum CSS {
    /// `prop: value; …` (a `style` attribute or a rule's block).
    static func declarations(_ text: Substring) -> [(String, String)] {
        prioritized(text).map { ($0.0, $0.1) }
    }

    /// The declarations with whether each is `!important`; comments are left out.
    static func prioritized(_ text: Substring) -> [(String, String, important: Bool)] {
        withoutComments(text).split(separator: ";").compactMap { part in
            guard let colon = part.firstIndex(of: ":") else { return nil }
            let name = part[..<colon].trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            var value = part[part.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            var important = false
            // `!important`, `! IMPORTANT`: the bang, optional space, the keyword in any case.
            if let bang = value.lastIndex(of: "!"),
                value[value.index(after: bang)...].trimmingCharacters(in: .whitespaces).lowercased() == "important"
            {
                value = String(value[..<bang]).trimmingCharacters(in: .whitespaces)
                important = true
            }
            return name.isEmpty ? nil : (name, value, important)
        }
    }

    /// The text with `/* … */` comments left out, in one pass (rebuilding it per comment was quadratic).
    static func withoutComments(_ text: Substring) -> Substring {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2 else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0, inComment = false, found = false
        while i < bytes.count {
            if !inComment, i + 1 < bytes.count, bytes[i] == 0x2F, bytes[i + 1] == 0x2A {  // "/*"
                inComment = true
                found = true
                i += 2
            } else if inComment, i + 1 < bytes.count, bytes[i] == 0x2A, bytes[i + 1] == 0x2F {  // "*/"
                inComment = false
                i += 2
            } else {
                if !inComment { out.append(bytes[i]) }
                i += 1
            }
        }
        return found ? Substring(String(decoding: out, as: UTF8.self)) : text
    }

    /// The most rules a document's sheets may hold; the rest are left out (each element is matched
    /// against every rule whose last compound could match it).
    static let maximumRules = 10_000

    /// The rules of a `<style>` sheet; selectors Reel does not match (other pseudo-classes, sibling
    /// combinators) are left out.
    static func sheet(_ text: String, startingAt order: Int) -> [CSSRule] {
        var rules: [CSSRule] = []
        var rest = withoutComments(Substring(text))
        var n = order
        while rules.count < maximumRules, let brace = rest.firstIndex(of: "{") {
            guard let end = rest[brace...].firstIndex(of: "}") else { break }
            let selectors = rest[..<brace].split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            let all = prioritized(rest[rest.index(after: brace)..<end])
            let block = all.filter { !$0.important }.map { ($0.0, $0.1) }
            let important = all.filter(\.important).map { ($0.0, $0.1) }
            for s in selectors {
                guard let selector = CSSSelector.parse(s) else { continue }
                rules.append(CSSRule(selector: selector, declarations: block, important: important, order: n))
                n += 1
            }
            rest = rest[rest.index(after: end)...]
        }
        return rules
    }

}

/// A fill or stroke paint.
enum Paint: Equatable {
    case none
    case color(Color)
    /// `url(#id)` (a gradient or pattern), with its fallback (a colour or currentColor).
    indirect case reference(String, fallback: Paint?)
    case currentColor
}

/// The fill and stroke `context-fill` and `context-stroke` refer to.
struct ContextPaint: Equatable {
    var fill: Paint
    var stroke: Paint
}

/// What `paint-order` orders.
enum PaintPart: String {
    case fill, stroke, markers

    static let normal: [PaintPart] = [.fill, .stroke, .markers]

    /// `normal`, or up to three distinct parts with the missing ones after them in their normal order;
    /// nil for anything else (a repeated or unknown word), which leaves the property as it was.
    static func order(_ value: String) -> [PaintPart]? {
        guard value != "normal" else { return normal }
        let words = value.split(whereSeparator: \.isWhitespace)
        let given = words.compactMap { PaintPart(rawValue: String($0)) }
        guard !given.isEmpty, given.count == words.count, Set(given).count == given.count else { return nil }
        return given + normal.filter { !given.contains($0) }
    }
}

/// The properties an element is drawn with once the cascade is done.
struct SVGStyle {
    var fill: Paint = .color(.black)
    var fillOpacity = 1.0
    var fillRuleEvenOdd = false
    var stroke: Paint = .none
    var strokeWidth = 1.0
    var strokeOpacity = 1.0
    var lineCap: LineCap = .butt
    var lineJoin: LineJoin = .miter
    var miterLimit = 4.0
    var dashArray: [Double] = []
    var dashOffset = 0.0
    var color: Color = .black
    /// What `em` and `ex` lengths are of (inherited; resvg's default).
    var fontSize = 12.0
    /// Text: the family list as written, weight (100…900), italic, anchor and letter spacing (inherited).
    var fontFamily = "serif"
    var fontWeight = 400
    var italic = false
    var textAnchor = "start"
    /// `font-variant: small-caps`, drawn with the font's own small capitals (OpenType `smcp`).
    var smallCaps = false
    /// `writing-mode` top to bottom (tb, tb-rl, vertical-rl, vertical-lr), inherited.
    var vertical = false
    var letterSpacing = 0.0
    /// `word-spacing`: points after each space, on top of the letter spacing (inherited).
    var wordSpacing = 0.0
    /// `text-decoration`'s lines (underline, overline, line-through) declared on an ancestor: a text's
    /// characters take every one declared on it or around it, inside the text or outside (resvg), and
    /// no descendant takes them away.
    var decorationsAbove: Set<String> = []
    /// `baseline-shift` as written (not inherited: nested tspans add theirs, `SVGText.swift`).
    var baselineShift: String?
    /// `dominant-baseline` (inherited, as resvg and SVG 2 take it) and `alignment-baseline` (not
    /// inherited), as written: which of a font's baselines a text's characters sit on.
    var dominantBaseline = "auto"
    var alignmentBaseline = "auto"
    var visible = true
    var clipRuleEvenOdd = false
    /// `marker-start`, `marker-mid`, `marker-end`: the ids their `url()`s name (inherited).
    var markerStart: String?
    var markerMid: String?
    var markerEnd: String?
    /// What `context-fill` and `context-stroke` paint: the fill and stroke of the `use` or the marked
    /// shape this element is drawn for (inherited; nil outside them, where they paint nothing).
    var context: ContextPaint?
    /// `paint-order`: the order the fill, the stroke and the markers are painted in (inherited).
    var paintOrder: [PaintPart] = PaintPart.normal
    /// What percentages of lengths are of: the nearest viewport (inherited, set by the importer).
    var viewport = Size(width: 100, height: 100)
    var diagonal: Double { SVGValues.normalizedDiagonal(viewport) }
    // Not inherited:
    var opacity = 1.0
    var displayed = true
    /// `clip-path` and `mask`: `url(#id)` references, or nil.
    var clipPath: String?
    var mask: String?
    /// A `mask` element's `mask-type`: alpha instead of luminance.
    var maskTypeAlpha = false
    /// A CSS `transform` (which replaces the attribute), unparsed.
    var transform: String?
    /// `transform-origin`, unparsed (read against the viewport by `SVGValues.origin`).
    var transformOrigin: String?
    /// `overflow` (markers, nested viewports): true for `visible` or `auto`, which show what passes
    /// the viewport; nil when not declared.
    var overflowVisible: Bool?
    /// `mix-blend-mode` as Core Animation's compositing filter (nil: normal).
    var blendMode: CompositingFilter?
    /// `isolation: isolate`.
    var isolated = false
    /// `filter` as filter functions (`blur(4) grayscale()`); nil for none, or a `url()` (noted).
    var filterFunctions: SVGFilterFunctions?
    /// A `filter` list that refers to `<filter>` elements, as written.
    var filterList: String?
    /// `text-decoration`'s lines declared on this element (the last declaration wins).
    var decorationsHere: Set<String> = []
    /// The lines this element's text is decorated with.
    var decorations: Set<String> { decorationsAbove.union(decorationsHere) }
    /// Properties declared on this element that Reel does not draw yet, with their values
    /// (`undrawnProperties`): each is one note at the element's line, never dropped silently.
    var undrawn: [String: String] = [:]

    /// What a child starts from: the inherited properties (all but opacity and display).
    var inherited: SVGStyle {
        var s = self
        s.opacity = 1
        s.displayed = true
        s.clipPath = nil
        s.mask = nil
        s.maskTypeAlpha = false
        s.transform = nil
        s.transformOrigin = nil
        s.overflowVisible = nil
        s.blendMode = nil
        s.isolated = false
        s.filterFunctions = nil
        s.filterList = nil
        s.baselineShift = nil
        s.alignmentBaseline = "auto"
        s.decorationsAbove = decorations
        s.decorationsHere = []
        s.undrawn = [:]
        return s
    }

    /// Applies one declaration (`parent` answers `inherit`); an invalid value leaves the property as it
    /// was, as CSS ignores a declaration it cannot parse.
    mutating func apply(_ name: String, _ raw: String, parent: SVGStyle) {
        let value = raw.trimmingCharacters(in: .whitespaces)
        if value == "inherit" {
            switch name {
            case "fill": fill = parent.fill
            case "stroke": stroke = parent.stroke
            case "fill-opacity": fillOpacity = parent.fillOpacity
            case "stroke-opacity": strokeOpacity = parent.strokeOpacity
            case "stroke-width": strokeWidth = parent.strokeWidth
            case "color": color = parent.color
            case "opacity": opacity = parent.opacity
            case "visibility": visible = parent.visible
            case "paint-order": paintOrder = parent.paintOrder
            case "marker-start": markerStart = parent.markerStart
            case "marker-mid": markerMid = parent.markerMid
            case "marker-end": markerEnd = parent.markerEnd
            case "marker":
                markerStart = parent.markerStart
                markerMid = parent.markerMid
                markerEnd = parent.markerEnd
            default: break
            }
            return
        }
        switch name {
        case "fill": if let p = contextPaint(value) ?? Self.paint(value) { fill = p }
        case "stroke": if let p = contextPaint(value) ?? Self.paint(value) { stroke = p }
        case "fill-opacity": if let v = Self.fraction(value) { fillOpacity = v }
        case "stroke-opacity": if let v = Self.fraction(value) { strokeOpacity = v }
        case "opacity": if let v = Self.fraction(value) { opacity = v }
        case "fill-rule": if value == "evenodd" || value == "nonzero" { fillRuleEvenOdd = value == "evenodd" }
        // A negative width draws no stroke, as resvg and librsvg both do.
        case "stroke-width":
            if let v = SVGValues.length(value, percentOf: diagonal, fontSize: fontSize) { strokeWidth = max(v, 0) }
        case "font-size":
            // Held to 10,000 (Reel's largest text) so that nested em sizes cannot overflow.
            // CSS's relative keywords scale the parent's size by 1.2.
            let relative: [String: Double] = ["larger": 1.2, "smaller": 1 / 1.2]
            if let k = relative[value] {
                fontSize = min(parent.fontSize * k, 10_000)
            } else if let v = SVGValues.length(value, percentOf: parent.fontSize, fontSize: parent.fontSize), v >= 0,
                v.isFinite
            {
                fontSize = min(v, 10_000)
            }
        case "font-variant": if value == "normal" || value == "small-caps" { smallCaps = value == "small-caps" }
        case "font-family": if !value.isEmpty { fontFamily = value }
        case "font-weight":
            switch value {
            case "normal": fontWeight = 400
            case "bold": fontWeight = 700
            // CSS Fonts' table of relative weights.
            case "bolder": fontWeight = parent.fontWeight < 350 ? 400 : parent.fontWeight < 550 ? 700 : 900
            case "lighter": fontWeight = parent.fontWeight < 550 ? 100 : parent.fontWeight < 750 ? 400 : 700
            default: if let w = Int(value), (1...1000).contains(w) { fontWeight = w }
            }
        case "font-style": if ["normal", "italic", "oblique"].contains(value) { italic = value != "normal" }
        case "text-anchor": if ["start", "middle", "end"].contains(value) { textAnchor = value }
        case "writing-mode":
            if ["tb", "tb-rl", "vertical-rl", "vertical-lr"].contains(value) {
                vertical = true
            } else if ["lr", "lr-tb", "rl", "rl-tb", "horizontal-tb"].contains(value) {
                vertical = false
            }
        case "letter-spacing":
            if value == "normal" {
                letterSpacing = 0
            } else if let v = SVGValues.length(value, percentOf: viewport.width, fontSize: fontSize) {
                // A percentage is of the viewport's width, as a length is (resvg and librsvg agree).
                letterSpacing = v
            }
        case "word-spacing":
            if value == "normal" {
                wordSpacing = 0
            } else if let v = SVGValues.length(value, percentOf: viewport.width, fontSize: fontSize) {
                wordSpacing = v
            }
        case "stroke-linecap":
            switch value {
            case "butt": lineCap = .butt
            case "round": lineCap = .round
            case "square": lineCap = .square
            default: break
            }
        case "stroke-linejoin":
            switch value {
            case "miter", "miter-clip": lineJoin = .miter
            case "round": lineJoin = .round
            case "bevel": lineJoin = .bevel
            default: break
            }
        case "stroke-miterlimit": if let v = Double(value), v >= 1 { miterLimit = v }
        case "stroke-dasharray":
            if value == "none" {
                dashArray = []
            } else if let list = Self.lengths(value, percentOf: diagonal, fontSize: fontSize), list.allSatisfy({ $0 >= 0 }) {
                // An odd list repeats to make an even one; all zeros draws a solid line.
                let even = list.count % 2 == 1 ? list + list : list
                dashArray = even.reduce(0, +) > 0 ? even : []
            }
        case "stroke-dashoffset":
            if let v = SVGValues.length(value, percentOf: diagonal, fontSize: fontSize) { dashOffset = v }
        case "color": if let c = SVGValues.color(value) { color = c }
        case "visibility": visible = value == "visible" || (value != "hidden" && value != "collapse" && visible)
        case "display": displayed = value != "none"
        case "clip-rule": if value == "evenodd" || value == "nonzero" { clipRuleEvenOdd = value == "evenodd" }
        case "clip-path": clipPath = value == "none" ? nil : value
        case "mask": mask = value == "none" ? nil : value
        case "transform": transform = value
        case "transform-origin": transformOrigin = value
        case "overflow":
            if ["visible", "auto", "hidden", "scroll", "clip"].contains(value) {
                overflowVisible = value == "visible" || value == "auto"
            }
        case "paint-order": if let order = PaintPart.order(value) { paintOrder = order }
        case "marker-start", "marker-mid", "marker-end", "marker":
            // `none` or a url(); anything else is an invalid declaration, which changes nothing.
            let id = Self.referencedID(value)
            guard value == "none" || id != nil else { break }
            if name != "marker-mid" && name != "marker-end" { markerStart = id }
            if name != "marker-start" && name != "marker-end" { markerMid = id }
            if name != "marker-start" && name != "marker-mid" { markerEnd = id }
        case "mask-type": if value == "alpha" || value == "luminance" { maskTypeAlpha = value == "alpha" }
        case "isolation": if value == "isolate" || value == "auto" { isolated = value == "isolate" }
        case "baseline-shift": baselineShift = value
        case "dominant-baseline":
            let known = [
                "auto", "use-script", "no-change", "reset-size", "ideographic", "alphabetic", "hanging", "mathematical",
                "central", "middle", "text-after-edge", "text-before-edge",
            ]
            // no-change keeps the parent's, which inheritance already gave.
            if known.contains(value) && value != "no-change" { dominantBaseline = value }
        case "alignment-baseline":
            let known = [
                "auto", "baseline", "before-edge", "text-before-edge", "middle", "central", "after-edge", "text-after-edge",
                "ideographic", "alphabetic", "hanging", "mathematical",
            ]
            if known.contains(value) { alignmentBaseline = value }
        case "text-decoration":
            // The line keywords of the list (CSS's shorthand may add a style and a colour, not drawn);
            // a list with commas is invalid and changes nothing (resvg and librsvg agree).
            guard !value.contains(",") else { break }
            let words = value.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
            decorationsHere = Set(words).intersection(["underline", "overline", "line-through"])
        case "filter":
            // Functions as layer filters; a list with url()s as filter effects (`SVGFilters.swift`); an
            // invalid list of functions is a note.
            filterList = value.contains("url(") ? value : nil
            filterFunctions =
                value == "none" || filterList != nil ? nil : SVGFilterFunctions.parse(value, color: color, fontSize: fontSize)
            undrawn[name] = value == "none" || filterFunctions != nil || filterList != nil ? nil : value
        case "mix-blend-mode":
            // An unknown mode (`xor`, say) is an invalid declaration: the mode stays as it was.
            if value == "normal" {
                blendMode = nil
            } else if let mode = Self.blendModes[value] {
                blendMode = mode
            }
        default:
            guard let drawnAnyway = Self.undrawnProperties[name] else { break }
            if drawnAnyway(value.lowercased()) { undrawn[name] = nil } else { undrawn[name] = value }
        }
    }

    /// CSS's separable and non-separable blend modes by Core Animation's names for them.
    static let blendModes: [String: CompositingFilter] = [
        "multiply": .multiplyBlendMode, "screen": .screenBlendMode, "overlay": .overlayBlendMode,
        "darken": .darkenBlendMode, "lighten": .lightenBlendMode, "color-dodge": .colorDodgeBlendMode,
        "color-burn": .colorBurnBlendMode, "hard-light": .hardLightBlendMode, "soft-light": .softLightBlendMode,
        "difference": .differenceBlendMode, "exclusion": .exclusionBlendMode, "hue": .hueBlendMode,
        "saturation": .saturationBlendMode, "color": .colorBlendMode, "luminosity": .luminosityBlendMode,
    ]

    /// Properties Reel does not draw yet (issue #49), each with the values that draw the same as not
    /// drawing it (its initial value, and those that change nothing Reel draws); any other value is a
    /// note. A later declaration of a value that changes nothing takes an earlier one's note back.
    static let undrawnProperties: [String: @Sendable (String) -> Bool] = {
        let none: @Sendable (String) -> Bool = { $0 == "none" }
        return [
            "filter": none,
            // transform-origin is read against the viewport (view-box), as resvg does.
            "transform-box": { $0 == "view-box" },
        ]
    }()

    /// The stroke's width, caps, joins, miter limit and dashes on a layer's stroke (its start and end
    /// stay): a shape's and a text's stroke alike.
    func applyStrokeGeometry(to stroke: inout StrokeStyle) {
        stroke.lineWidth = strokeWidth
        stroke.lineCap = lineCap
        stroke.lineJoin = lineJoin
        stroke.miterLimit = miterLimit
        stroke.lineDashPattern = dashArray
        stroke.lineDashPhase = dashOffset
    }

    /// `context-fill` or `context-stroke` as the paint they stand for here (nil: another value).
    func contextPaint(_ value: String) -> Paint? {
        switch value {
        case "context-fill": return context?.fill ?? Paint.none
        case "context-stroke": return context?.stroke ?? Paint.none
        default: return nil
        }
    }

    /// This element's fill and stroke as what its content's `context-fill` and `context-stroke` paint
    /// (currentColor taken here, where it is this element's colour).
    var asContext: ContextPaint {
        func here(_ p: Paint) -> Paint { p == .currentColor ? .color(color) : p }
        return ContextPaint(fill: here(fill), stroke: here(stroke))
    }

    /// A list of lengths separated by commas or white space (`stroke-dasharray: 5mm, 2%`).
    static func lengths(_ value: String, percentOf base: Double, fontSize: Double) -> [Double]? {
        var out: [Double] = []
        for item in value.split(whereSeparator: { $0 == "," || $0.isWhitespace }) {
            guard let v = SVGValues.length(String(item), percentOf: base, fontSize: fontSize) else { return nil }
            out.append(v)
        }
        return out
    }

    static func fraction(_ value: String) -> Double? {
        if value.hasSuffix("%"), let v = Double(value.dropLast()) { return Color.unit(v / 100) }
        return Double(value).map(Color.unit)
    }

    static func paint(_ value: String) -> Paint? {
        if value == "none" { return Paint.none }
        if value == "currentColor" { return .currentColor }
        if value.hasPrefix("url(") {
            guard let id = referencedID(value), let close = value.firstIndex(of: ")") else { return nil }
            let rest = value[value.index(after: close)...].trimmingCharacters(in: .whitespaces)
            // A fallback that cannot be read (an ICC colour) makes the whole value invalid, as in resvg
            // and librsvg.
            if rest.isEmpty || rest == "none" { return .reference(id, fallback: nil) }
            if rest == "currentColor" { return .reference(id, fallback: .currentColor) }
            guard let color = SVGValues.color(rest) else { return nil }
            return .reference(id, fallback: .color(color))
        }
        return SVGValues.color(value).map(Paint.color)
    }

    /// The style of `e`: its parent's inherited properties, then its presentation attributes, the sheet's
    /// rules that match it (lowest specificity first), and its `style` attribute last.
    static func computed(for e: SVGElement, parent: SVGStyle, sheet: StyleSheet) -> SVGStyle {
        var s = parent.inherited
        for name in properties { if let v = e.attributes[name] { s.apply(name, v, parent: parent) } }
        let rules = sheet.matching(e)
        for rule in rules { for (name, value) in rule.declarations { s.apply(name, value, parent: parent) } }
        let inline = e.attributes["style"].map { CSS.prioritized(Substring($0)) } ?? []
        for (name, value, important) in inline where !important { s.apply(name, value, parent: parent) }
        // `!important` beats the rest: the sheet's, then the style attribute's.
        for rule in rules { for (name, value) in rule.important { s.apply(name, value, parent: parent) } }
        for (name, value, important) in inline where important { s.apply(name, value, parent: parent) }
        return s
    }

    /// Presentation attributes, in the order they apply (font-size first: `em` lengths need it).
    /// `mix-blend-mode` and `isolation` are not among them: SVG 2 takes those from CSS only (a `style`
    /// attribute or a sheet; resvg's `as-property` tests); nor is the `marker` shorthand.
    static let properties =
        [
            "font-size", "font-family", "font-weight", "font-style", "text-anchor", "letter-spacing", "fill", "fill-opacity",
            "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
            "stroke-linejoin",
            "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "opacity", "color", "visibility", "display",
            "clip-rule", "clip-path", "mask", "mask-type", "marker-start", "marker-mid", "marker-end", "paint-order",
            "transform-origin", "overflow", "baseline-shift", "writing-mode", "font-variant", "text-decoration",
            "word-spacing", "dominant-baseline", "alignment-baseline",
        ] + undrawnProperties.keys.sorted()

    /// The id in `url(#id)`, or nil.
    static func referencedID(_ value: String) -> String? {
        guard value.hasPrefix("url("), let close = value.firstIndex(of: ")") else { return nil }
        let id = value[value.index(value.startIndex, offsetBy: 4)..<close].trimmingCharacters(
            in: CharacterSet(charactersIn: " '\""))
        return id.hasPrefix("#") ? String(id.dropFirst()) : nil
    }
}

extension SVGStyle {
    /// The font baseline the characters sit on: `alignment-baseline` unless it is auto or baseline, then
    /// `dominant-baseline` (resvg's reading, Chrome's; `use-script` and `reset-size` as auto).
    var textBaseline: TextBaseline {
        let value = ["auto", "baseline"].contains(alignmentBaseline) ? dominantBaseline : alignmentBaseline
        switch value {
        case "before-edge", "text-before-edge": return .textTop
        case "after-edge", "text-after-edge", "ideographic": return .textBottom
        case "central": return .central
        case "middle": return .middle
        case "hanging": return .hanging
        case "mathematical": return .mathematical
        default: return .alphabetic
        }
    }
}
