/// SVG's `text` as Reel text layers: each run of characters (the text's own and its `tspan`s') a rich
/// text run with its font, size, colour and letter spacing; each `tspan` with its own x or y a new line
/// (a layer of its own, placed by its baseline); `text-anchor` as the alignment; white space collapsed
/// as SVG's default `xml:space` does.
import Foundation
import ReelGeometry
import ReelScene

extension Importer {
    /// One positioned chunk of text: where its baseline starts, its anchor, its runs.
    struct TextChunk {
        var origin: Point
        var anchor: String
        var spans: [TextSpan] = []
        var name: String?
    }

    /// The layer a `text` element draws: a text layer, or a group of them when tspans start new lines.
    mutating func textLayer(_ e: SVGElement, style: SVGStyle, name: String) -> Layer? {
        let v = style.viewport
        func first(_ key: String, _ el: SVGElement, of base: Double, _ s: SVGStyle) -> Double? {
            // x, y, dx and dy are lists (a position per character); Reel places the chunk by the first.
            guard let list = el.attributes[key], let item = list.split(whereSeparator: { $0 == "," || $0.isWhitespace }).first
            else { return nil }
            return SVGValues.length(String(item), percentOf: base, fontSize: s.fontSize)
        }
        var cursor = Point(
            x: (first("x", e, of: v.width, style) ?? 0) + (first("dx", e, of: v.width, style) ?? 0),
            y: (first("y", e, of: v.height, style) ?? 0) + (first("dy", e, of: v.height, style) ?? 0))
        var chunks = [TextChunk(origin: cursor, anchor: style.textAnchor)]
        var unsupported: Set<String> = []
        var undrawn: [(SVGElement, SVGStyle)] = []

        func walk(_ el: SVGElement, _ s: SVGStyle) {
            for child in el.children {
                if child.name == SVGElement.characters {
                    guard s.visible, let span = span(child.text, s) else { continue }
                    chunks[chunks.count - 1].spans.append(span)
                    continue
                }
                guard child.name == "tspan" || child.name == "a" else {
                    if !Self.notDrawn.contains(child.name) { unsupported.insert(child.name) }
                    continue
                }
                let cs = SVGStyle.computed(for: child, parent: s, sheet: sheet)
                guard cs.displayed else { continue }
                if !cs.undrawn.isEmpty { undrawn.append((child, cs)) }
                let x = first("x", child, of: v.width, cs), y = first("y", child, of: v.height, cs)
                let dy = first("dy", child, of: v.height, cs)
                if let x {
                    // A new line (a chunk of its own): at x, and y as given plus dy.
                    cursor = Point(x: x + (first("dx", child, of: v.width, cs) ?? 0), y: (y ?? cursor.y) + (dy ?? 0))
                    chunks.append(TextChunk(origin: cursor, anchor: cs.textAnchor, name: child.attributes["id"]))
                } else if y != nil || dy != nil || child.attributes["dx"] != nil {
                    // A shift within the line (a superscript) needs the advance so far: drawn in line.
                    unsupported.insert("tspan moved by y, dx or dy without an x")
                }
                walk(child, cs)
            }
        }

        /// A run in the style's font and fill (a gradient or other paint server draws its first colour).
        func span(_ text: String, _ s: SVGStyle) -> TextSpan? {
            var color: Color?
            switch s.fill {
            case .none: color = nil
            case .color(let c): color = c
            case .currentColor: color = s.color
            case .reference(let id, _):
                color = ids[id].flatMap { server in
                    server.children.first { $0.name == "stop" }.flatMap { stop in
                        (stop.attributes["stop-color"]).flatMap(SVGValues.color)
                    }
                }
                // Text takes a paint server's first colour; one Reel cannot read draws in currentColor.
                if color == nil { color = ids[id] == nil ? nil : s.color }
            }
            guard var fill = color else { return nil }
            fill.alpha *= s.fillOpacity
            return TextSpan(
                text, font: Self.fontSpec(s), fontSize: s.fontSize, foregroundColor: fill,
                letterSpacing: s.letterSpacing == 0 ? nil : s.letterSpacing)
        }

        walk(e, style)
        for (span, spanStyle) in undrawn { warnUndrawn(span, spanStyle) }
        for name in unsupported.sorted() {
            warn(
                e,
                name.contains(" ") ? "a \(name) is drawn in line" : "<\(name)> in a <text> is not supported yet and is left out")
        }
        if style.stroke != .none { warn(e, "a stroke on text is not supported yet; the text is filled only") }
        Self.collapseWhiteSpace(&chunks)
        var layers: [Layer] = []
        for (k, chunk) in chunks.enumerated() where chunk.spans.contains(where: { !$0.text.isEmpty }) {
            let layerName = chunks.count == 1 ? name : unique(chunk.name.map { "\(prefix)/\($0)" } ?? "\(name)/line[\(k)]")
            var layer = Layer(name: layerName, type: .text)
            layer.anchorPoint = .zero
            layer.position = chunk.origin
            layer.text.runs = chunk.spans.filter { !$0.text.isEmpty }
            layer.text.font = layer.text.runs.first?.font ?? Self.fontSpec(style)
            layer.text.fontSize = layer.text.runs.first?.fontSize ?? style.fontSize
            layer.text.firstBaselineAtTop = true
            layer.text.alignmentMode = ["middle": .center, "end": .right][chunk.anchor] ?? .left
            layers.append(layer)
        }
        if chunks.count == 1 { return layers.first }
        guard !layers.isEmpty else { return nil }
        var group = Layer(name: name)
        group.sublayers = layers
        return group
    }

    /// SVG's default white space: line breaks and tabs are spaces, runs of spaces one space (across
    /// tspans), none at the start or end of the text.
    static func collapseWhiteSpace(_ chunks: inout [TextChunk]) {
        var previousWasSpace = true  // drops the text's leading spaces
        for c in chunks.indices {
            for s in chunks[c].spans.indices {
                var out = ""
                for ch in chunks[c].spans[s].text {
                    let space = ch == " " || ch == "\n" || ch == "\t" || ch == "\r"
                    if space {
                        if !previousWasSpace { out.append(" ") }
                    } else {
                        out.append(ch)
                    }
                    previousWasSpace = space
                }
                chunks[c].spans[s].text = out
            }
        }
        // The trailing space of the text, wherever it ended up.
        for c in chunks.indices.reversed() {
            guard let s = chunks[c].spans.lastIndex(where: { !$0.text.isEmpty }) else { continue }
            if chunks[c].spans[s].text.hasSuffix(" ") { chunks[c].spans[s].text.removeLast() }
            break
        }
    }

    /// The font a style asks for, as a list Reel resolves in order (`Family Style, Family, …`): each
    /// family of `font-family` with the weight and slant, then each alone; a generic family stands for
    /// the usual installed ones. Reel opens the first installed and never fails on such a list.
    static func fontSpec(_ s: SVGStyle) -> String {
        let generic: [String: [String]] = [
            "serif": ["Noto Serif", "DejaVu Serif", "Liberation Serif"],
            "sans-serif": ["Noto Sans", "DejaVu Sans", "Liberation Sans", "Inter"],
            "monospace": ["Noto Sans Mono", "DejaVu Sans Mono", "Liberation Mono"],
            "cursive": ["Noto Sans"], "fantasy": ["Noto Sans"], "system-ui": ["Noto Sans", "DejaVu Sans"],
        ]
        var families: [String] = []
        for raw in s.fontFamily.split(separator: ",") {
            let name = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \t\n'\""))
            guard !name.isEmpty else { continue }
            families += generic[name.lowercased()] ?? [name]
        }
        families += generic["sans-serif"]!
        var style: [String] = []
        switch s.fontWeight {
        case ..<250: style.append("Thin")
        case ..<350: style.append("Light")
        case ..<450: break
        case ..<550: style.append("Medium")
        case ..<650: style.append("SemiBold")
        case ..<750: style.append("Bold")
        case ..<850: style.append("ExtraBold")
        default: style.append("Black")
        }
        if s.italic { style.append("Italic") }
        var list: [String] = []
        if !style.isEmpty { list += families.map { "\($0) \(style.joined(separator: " "))" } }
        list += families
        var seen = Set<String>()
        return list.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }
}
