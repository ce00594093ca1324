/// SVG's `text` as Reel text layers: each run of characters (the text's own and its `tspan`s') a rich
/// text run with its font, size, colour and letter spacing; each character with its own x a new chunk
/// (a layer of its own, placed by its baseline), other per-character positions moves after layout; a
/// `textPath` a chunk set along its path; `text-anchor` as the alignment; white space collapsed as
/// SVG's default `xml:space` does.
import Foundation
import ReelGeometry
import ReelScene

extension Importer {
    /// One positioned chunk of text: where its baseline starts, its anchor, its runs.
    struct TextChunk {
        var origin: Point
        var anchor: String
        var spans: [TextSpan] = []
        /// Whether each span's white space is kept (`xml:space="preserve"` on it or around it).
        var preserved: [Bool] = []
        var name: String?
        /// The path a `textPath` sets the chunk along (in the text's user space) and where along it
        /// the chunk starts (its startOffset; `origin.x` then adds to it, and `origin.y` is unused).
        var path: Path?
        var startOffset = 0.0
        /// The moves of the first character of some spans, by span (their `index` set once white space
        /// is collapsed).
        var moves: [Int: CharacterOffset] = [:]
    }

    /// The layer a `text` element draws: a text layer, or a group of them when tspans start new lines.
    mutating func textLayer(_ e: SVGElement, style: SVGStyle, name: String) -> Layer? {
        let v = style.viewport
        spreadPositionLists(e, style: style)
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

        // Points the pen has moved down in this chunk (a tspan's y or dy without an x).
        var drop = 0.0
        // The textPath being walked: the chunks a tspan starts inside it follow the same path.
        var flow: (path: Path, startOffset: Double)?
        // The chunks that go on after a textPath (placed where Reel cannot know: a note if they show).
        var afterPaths: [Int] = []
        // Where a left-out textPath's stand-in is: (chunk, span).
        var standIns: [(Int, Int)] = []
        // A character's move (a tspan's dx within its chunk, a wrapper's dx, dy and rotate) until its
        // run is added.
        var pendingMove: CharacterOffset?
        // Points the characters' moves have taken the pen down in this chunk (an absolute y undoes them).
        var movedDown = 0.0
        var textLengthGiven = e.attributes["textLength"] != nil
        /// `shift`: points the baseline is raised here (the tspans' baseline-shifts around).
        func walk(_ el: SVGElement, _ s: SVGStyle, shift: Double, preserve: Bool) {
            func add(_ run: TextSpan, _ keep: Bool) {
                var run = run
                if shift != drop { run.baselineOffset = shift - drop }
                let c = chunks.count - 1
                chunks[c].spans.append(run)
                chunks[c].preserved.append(keep)
                // A move waiting for a character: the first of this run that white space leaves.
                if let move = pendingMove, !run.text.isEmpty {
                    chunks[c].moves[chunks[c].spans.count - 1] = move
                    pendingMove = nil
                }
            }
            for child in el.children {
                if child.name == SVGElement.characters {
                    add(span(child.text, s), preserve)
                    continue
                }
                let keep = child.attributes["xml:space"].map { $0 == "preserve" } ?? preserve
                if child.name == "tref" {
                    // The referenced element's character data in the tref's style; the tref's own
                    // children are not drawn.
                    let cs = SVGStyle.computed(for: child, parent: s, sheet: sheet)
                    guard cs.displayed, let href = child.attributes["href"], href.hasPrefix("#"),
                        let target = ids[String(href.dropFirst())]
                    else { continue }
                    add(span(characterData(target), cs), keep)
                    continue
                }
                if child.name == "textPath" {
                    let cs = SVGStyle.computed(for: child, parent: s, sheet: sheet)
                    // Only a text's own child follows a path (as resvg and browsers read SVG); an invalid
                    // one is left out with its text.
                    guard el === e, cs.displayed, let along = textPathFlow(child, cs) else {
                        if el !== e { unsupported.insert("textPath inside a textPath or tspan") }
                        // Left out, it still parts the white space on either side (resvg and Chrome keep
                        // both): a stand-in, not a space, emptied once white space is collapsed.
                        add(TextSpan("\u{FFFC}"), true)
                        standIns.append((chunks.count - 1, chunks[chunks.count - 1].spans.count - 1))
                        continue
                    }
                    if !cs.undrawn.isEmpty { undrawn.append((child, cs)) }
                    // The text's x falls on the path's first character when nothing came before it.
                    let c = chunks.count - 1
                    let opens = chunks[c].spans.allSatisfy { $0.text.allSatisfy(\.isWhitespace) }
                    chunks.append(
                        TextChunk(
                            origin: Point(x: opens && c == 0 ? chunks[c].origin.x : 0, y: 0), anchor: cs.textAnchor,
                            name: child.attributes["id"], path: along.path, startOffset: along.startOffset))
                    // The text's dy, like its x, moves the path's first character (off the path).
                    drop = opens && c == 0 ? first("dy", e, of: v.height, style) ?? 0 : 0
                    flow = along
                    walk(child, cs, shift: shift + Self.baselineShift(cs), preserve: keep)
                    flow = nil
                    // What follows goes on from the path's end (Reel does not measure the text here: resvg
                    // goes on from its last glyph).
                    cursor = Self.endPoint(of: along.path) ?? cursor
                    chunks.append(TextChunk(origin: cursor, anchor: style.textAnchor))
                    movedDown = 0
                    afterPaths.append(chunks.count - 1)
                    continue
                }
                let wrapper = child.name == SVGElement.positionWrapper
                guard child.name == "tspan" || child.name == "a" || wrapper else {
                    if !Self.notDrawn.contains(child.name) { unsupported.insert(child.name) }
                    continue
                }
                // A wrapper only carries a character's position: its parent's style.
                let cs = wrapper ? s : SVGStyle.computed(for: child, parent: s, sheet: sheet)
                guard cs.displayed else { continue }
                if child.attributes["textLength"] != nil { textLengthGiven = true }
                if !wrapper && !cs.undrawn.isEmpty { undrawn.append((child, cs)) }
                let x = first("x", child, of: v.width, cs), y = first("y", child, of: v.height, cs)
                // A wrapper's dx, dy and rotate move its character after layout (shaping untouched).
                let dy = wrapper ? nil : first("dy", child, of: v.height, cs)
                let dx = wrapper ? nil : first("dx", child, of: v.width, cs)
                // Whether this element gives the next character a move (then it is its own to use).
                var movesACharacter = false
                var ownDown = 0.0
                if wrapper {
                    // Added to a tspan's dx that waits for this character.
                    let turn = child.attributes["rotate"].flatMap { SVGValues.numbers($0)?.first } ?? 0
                    var move = pendingMove ?? CharacterOffset(index: 0)
                    move.dx += first("dx", child, of: v.width, cs) ?? 0
                    ownDown = first("dy", child, of: v.height, cs) ?? 0
                    move.dy += ownDown
                    move.rotation = turn.isFinite ? turn * .pi / 180 : 0
                    pendingMove = move
                    movesACharacter = true
                }
                if let x {
                    // A new line (a chunk of its own): at x, and y as given (or where the pen is) plus dy.
                    let c = chunks.count - 1
                    cursor = Point(x: x + (dx ?? 0), y: (y ?? chunks[c].origin.y + drop + movedDown) + (dy ?? 0))
                    chunks.append(
                        TextChunk(
                            origin: cursor, anchor: cs.textAnchor, name: child.attributes["id"], path: flow?.path,
                            startOffset: flow?.startOffset ?? 0))
                    drop = 0
                    movedDown = ownDown
                } else {
                    // Down from the chunk's baseline: the text after it, in the tspan or not, stays there.
                    if let y { drop = y - chunks[chunks.count - 1].origin.y - movedDown }
                    drop += dy ?? 0
                    movedDown += ownDown
                    // Before any character of its chunk, dx moves the chunk; later it moves the
                    // tspan's first character, and all that follows, after layout.
                    if let dx {
                        let c = chunks.count - 1
                        if chunks[c].spans.allSatisfy({ $0.text.allSatisfy(\.isWhitespace) }) {
                            chunks[c].origin.x += dx
                        } else {
                            var move = pendingMove ?? CharacterOffset(index: 0)
                            move.dx += dx
                            pendingMove = move
                            movesACharacter = true
                        }
                    }
                }
                walk(child, cs, shift: wrapper ? shift : shift + Self.baselineShift(cs), preserve: keep)
                // A move with no character of its element to take it goes nowhere (an empty tspan's dx).
                if movesACharacter { pendingMove = nil }
            }
        }

        /// A run in the style's font and fill (a gradient or other paint server draws its first colour).
        /// Hidden or unfilled, it is transparent: it still takes its place in the line.
        func span(_ text: String, _ s: SVGStyle) -> TextSpan {
            var fill = s.visible ? textColor(s.fill, opacity: s.fillOpacity, s) ?? .clear : .clear
            if fill.alpha == 0 { fill = .clear }
            let lines = s.decorations
            var run = TextSpan(
                text, font: Self.fontSpec(s), fontSize: s.fontSize, foregroundColor: fill,
                letterSpacing: s.letterSpacing == 0 ? nil : s.letterSpacing, fontFeatures: s.smallCaps ? ["smcp": 1] : nil,
                underline: lines.contains("underline") ? true : nil, strikethrough: lines.contains("line-through") ? true : nil,
                overline: lines.contains("overline") ? true : nil, wordSpacing: s.wordSpacing == 0 ? nil : s.wordSpacing)
            // Horizontal text only (resvg's: vertical text sits on its central baseline already).
            let baseline = s.textBaseline
            if baseline != .alphabetic && !s.vertical { run.baseline = baseline }
            return run
        }

        walk(e, style, shift: 0, preserve: e.attributes["xml:space"] == "preserve")
        for (span, spanStyle) in undrawn { warnUndrawn(span, spanStyle) }
        for name in unsupported.sorted() {
            warn(
                e,
                name.contains(" ")
                    ? "a \(name) is left out with its text (only a text's own child follows a path)"
                    : "<\(name)> in a <text> is not supported yet and is left out")
        }
        if textLengthGiven {
            warn(e, "textLength is not drawn yet: the text keeps its own length")
        }
        // The text's stroke on all of it (a tspan's own stroke is not followed), over the fill unless
        // paint-order puts it first.
        let stroke = style.visible && style.strokeWidth > 0 ? textColor(style.stroke, opacity: style.strokeOpacity, style) : nil
        let order = style.paintOrder
        let strokeFirst = (order.firstIndex(of: .stroke) ?? 1) < (order.firstIndex(of: .fill) ?? 0)
        Self.collapseWhiteSpace(&chunks)
        for (c, k) in standIns { chunks[c].spans[k].text = "" }
        if afterPaths.contains(where: { chunks[$0].spans.contains { !$0.text.allSatisfy(\.isWhitespace) } }) {
            warn(e, "text after a <textPath> is drawn from the path's end point, not from its last glyph")
        }
        var layers: [Layer] = []
        for (k, chunk) in chunks.enumerated() where chunk.spans.contains(where: { !$0.text.isEmpty }) {
            let layerName = chunks.count == 1 ? name : unique(chunk.name.map { "\(prefix)/\($0)" } ?? "\(name)/line[\(k)]")
            var layer = Layer(name: layerName, type: .text)
            layer.anchorPoint = .zero
            layer.position = chunk.origin
            if let path = chunk.path {
                // In the text's user space, the text box's x along it from the start offset.
                layer.position = .zero
                layer.shape.path = path
                layer.text.pathOffset = chunk.startOffset + chunk.origin.x
            }
            // Each move at its character's index, then runs alike in all but their text merged (split by
            // the moves' wrappers, they would be shaped apart).
            var offsets: [CharacterOffset] = []
            var scalars = 0
            var runs: [TextSpan] = []
            for (k, run) in chunk.spans.enumerated() where !run.text.isEmpty {
                if var move = chunk.moves[k], move != CharacterOffset(index: 0) {
                    move.index = scalars
                    offsets.append(move)
                }
                scalars += run.text.unicodeScalars.count
                if var last = runs.last, last.sameAttributes(as: run) {
                    last.text += run.text
                    runs[runs.count - 1] = last
                } else {
                    runs.append(run)
                }
            }
            layer.text.runs = runs
            layer.text.characterOffsets = offsets
            // A chunk's last spaces are advances in SVG, where a paragraph's hang outside its line: a
            // word joiner after them (no width, not a space) takes their width into the anchoring.
            if var last = layer.text.runs.popLast() {
                if last.text.hasSuffix(" ") { last.text += "\u{2060}" }
                layer.text.runs.append(last)
            }
            layer.text.font = layer.text.runs.first?.font ?? Self.fontSpec(style)
            layer.text.fontSize = layer.text.runs.first?.fontSize ?? style.fontSize
            layer.text.firstBaselineAtTop = true
            layer.text.alignmentMode = ["middle": .center, "end": .right][chunk.anchor] ?? .left
            if style.vertical && chunk.path == nil {
                // Top to bottom: the line turned a quarter clockwise about its start, its central
                // baseline on it — 0.388 em above the alphabetic one, Noto Sans's (ascender 1.069,
                // descender 0.293), as the importer opens no font. Glyphs are not set upright (CJK).
                layer.transform = Transform3D.rotation(.pi / 2)
                for r in layer.text.runs.indices {
                    let size = layer.text.runs[r].fontSize ?? layer.text.fontSize
                    layer.text.runs[r].baselineOffset = (layer.text.runs[r].baselineOffset ?? 0) - 0.388 * size
                }
            }
            if let stroke {
                layer.shape.strokeColor = stroke
                style.applyStrokeGeometry(to: &layer.shape.stroke)
                if strokeFirst { layer.text.paintOrder = .stroke }
            }
            layers.append(layer)
        }
        if chunks.count == 1 { return layers.first }
        guard !layers.isEmpty else { return nil }
        var group = Layer(name: name)
        group.sublayers = layers
        return group
    }

    /// SVG's x, y, dx, dy and rotate are lists: a value for each character of the element (and of its
    /// descendants), counted as white space collapses, the innermost element's value winning (resvg's
    /// reading); rotate's last value goes on to the element's end. The walker reads one x, y, dx and dy
    /// an element, the first, at the element; so each other character given a value (and each given a
    /// rotation) is wrapped, in place, in a stand-in element holding its values. Done once a text (a
    /// `use` may show it again).
    mutating func spreadPositionLists(_ e: SVGElement, style: SVGStyle) {
        guard spreadTexts.insert(ObjectIdentifier(e)).inserted else { return }
        let keys = ["x", "y", "dx", "dy"]
        // Each element's first and past-the-last character, in the walker's order (pre-order), and
        // for each run of character data the index each character takes (nil: collapsed away).
        var ranges: [(element: SVGElement, style: SVGStyle, start: Int, end: Int)] = []
        var indices: [ObjectIdentifier: [Int?]] = [:]
        var count = 0, previousWasSpace = true
        func take(_ ch: Character, preserve: Bool) -> Int? {
            let space = ch == " " || ch == "\n" || ch == "\t" || ch == "\r"
            defer { previousWasSpace = space }
            guard preserve || !space || !previousWasSpace else { return nil }
            count += 1
            return count - 1
        }
        func visit(_ el: SVGElement, _ s: SVGStyle, preserve: Bool, depth: Int) {
            let slot = ranges.count
            ranges.append((el, s, count, count))
            defer { ranges[slot].end = count }
            guard depth < SVGLimits.maximumNesting else { return }
            for child in el.children {
                if child.name == SVGElement.characters {
                    indices[ObjectIdentifier(child)] = child.text.map { take($0, preserve: preserve) }
                    continue
                }
                let keep = child.attributes["xml:space"].map { $0 == "preserve" } ?? preserve
                if child.name == "tref" {
                    if let href = child.attributes["href"], href.hasPrefix("#"), let target = ids[String(href.dropFirst())] {
                        for ch in characterData(target) { _ = take(ch, preserve: keep) }
                    }
                    continue
                }
                guard ["tspan", "a", "textPath"].contains(child.name) else { continue }
                let cs = SVGStyle.computed(for: child, parent: s, sheet: sheet)
                guard cs.displayed else { continue }
                visit(child, cs, preserve: keep, depth: depth + 1)
            }
        }
        visit(e, style, preserve: e.attributes["xml:space"] == "preserve", depth: 0)
        // The value each character takes for each key, and whether its element reads it itself (its
        // first character's).
        var values: [Int: [String: String]] = [:]
        var wanted = false
        for (el, s, start, end) in ranges where end > start && el.name != "textPath" {
            // rotate: a value for each character from the first, the last repeated to the element's end.
            if let list = el.attributes["rotate"], let items = SVGValues.numbers(list), let last = items.last {
                for i in 0..<(end - start) {
                    values[start + i, default: [:]]["rotate"] = String(i < items.count ? items[i] : last)
                }
                wanted = true
            }
            for key in keys {
                guard let list = el.attributes[key] else { continue }
                let items = list.split(whereSeparator: { $0 == "," || $0.isWhitespace })
                // Lengths resolved here, in the declaring element's font size and the viewport.
                let base = key == "x" || key == "dx" ? s.viewport.width : s.viewport.height
                for (i, item) in items.prefix(end - start).enumerated() {
                    if i == 0 {
                        values[start, default: [:]][key] = nil
                    } else if let value = SVGValues.length(String(item), percentOf: base, fontSize: s.fontSize) {
                        values[start + i, default: [:]][key] = "\(value)"
                        wanted = true
                    }
                }
            }
        }
        guard wanted else { return }
        // Each positioned character is a stand-in element (and an x a layer of its own): held to a
        // number an import, past which the positions are not drawn.
        let positioned = values.keys.filter { !(values[$0]?.isEmpty ?? true) }.sorted()
        let room = max(SVGLimits.maximumPositionedCharacters - positionedCharacters, 0)
        if positioned.count > room {
            warn(
                e,
                "per-character positions past the file's first \(SVGLimits.maximumPositionedCharacters) positioned characters are not drawn"
            )
            for index in positioned.dropFirst(room) { values[index] = nil }
        }
        positionedCharacters += min(positioned.count, room)
        func rewrite(_ el: SVGElement) {
            var children: [SVGElement] = []
            for child in el.children {
                guard child.name == SVGElement.characters, let map = indices[ObjectIdentifier(child)] else {
                    if child.name != "tref" && child.name != SVGElement.characters { rewrite(child) }
                    children.append(child)
                    continue
                }
                var pending = ""
                func flush() {
                    guard !pending.isEmpty else { return }
                    let piece = SVGElement(name: SVGElement.characters, attributes: [:], location: child.location)
                    piece.text = pending
                    piece.parent = el
                    children.append(piece)
                    pending = ""
                }
                for (ch, index) in zip(child.text, map) {
                    guard let index, let own = values[index], !own.isEmpty else {
                        pending.append(ch)
                        continue
                    }
                    flush()
                    let wrapper = SVGElement(name: SVGElement.positionWrapper, attributes: own, location: child.location)
                    wrapper.parent = el
                    let inner = SVGElement(name: SVGElement.characters, attributes: [:], location: child.location)
                    inner.text = String(ch)
                    inner.parent = wrapper
                    wrapper.children = [inner]
                    children.append(wrapper)
                }
                flush()
            }
            el.children = children
        }
        rewrite(e)
    }

    /// Where a path ends: its last point (a close's, its subpath's start).
    static func endPoint(of path: Path) -> Point? {
        var start: Point?, pen: Point?
        for element in path.elements {
            switch element {
            case .move(let p):
                start = p
                pen = p
            case .line(let p), .quad(_, let p), .cubic(_, _, let p): pen = p
            case .close: pen = start
            }
        }
        return pen
    }

    /// The path a `textPath` follows (the shape its href names, in the text's user space with the
    /// shape's own transform) and its start offset (a percentage is of the path's length); nil when it
    /// names nothing that is a shape.
    mutating func textPathFlow(_ e: SVGElement, _ s: SVGStyle) -> (path: Path, startOffset: Double)? {
        if e.attributes["path"] != nil {
            warn(e, "the path attribute of a <textPath> (SVG 2) is not drawn: resvg and browsers follow its href")
        }
        for key in ["side", "method", "spacing"] {
            if let v = e.attributes[key], v != ["side": "left", "method": "align", "spacing": "exact"][key] {
                warn(e, "\(key)=\"\(v)\" on a <textPath> is not drawn (the text follows the path as \(key) defaults)")
            }
        }
        guard let href = e.attributes["href"], href.hasPrefix("#"), let target = ids[String(href.dropFirst())],
            var path = SVGShapes.path(of: target, viewport: s.viewport, fontSize: s.fontSize), !path.isEmpty
        else { return nil }
        if let t = target.attributes["transform"].flatMap(SVGValues.transform) { path = path.applying(t) }
        var offset = 0.0
        if let raw = e.attributes["startOffset"]?.trimmingCharacters(in: .whitespaces) {
            if raw.hasSuffix("%"), let p = Double(raw.dropLast()) {
                offset = ArcLength(path).length * p / 100
            } else {
                offset = SVGValues.length(raw, percentOf: 0, fontSize: s.fontSize) ?? 0
            }
        }
        return (path, offset.isFinite ? offset : 0)
    }

    /// A paint on text as one colour: a paint server draws its first stop's colour (currentColor when it
    /// has none Reel reads); nil for none or a reference to nothing.
    func textColor(_ paint: Paint, opacity: Double, _ s: SVGStyle) -> Color? {
        var color: Color?
        switch paint {
        case .none: color = nil
        case .color(let c): color = c
        case .currentColor: color = s.color
        case .reference(let id, _):
            color = ids[id].flatMap { server in
                server.children.first { $0.name == "stop" }.flatMap { stop in
                    (stop.attributes["stop-color"]).flatMap(SVGValues.color)
                }
            }
            if color == nil { color = ids[id] == nil ? nil : s.color }
        }
        color?.alpha *= opacity
        return color
    }

    /// Points a tspan's `baseline-shift` raises its text: a length, a percentage of the font size, or
    /// `sub` and `super` as Noto Sans's subscript and superscript offsets (0.075 and 0.35 em: the
    /// importer opens no font, and Noto Sans is the first sans-serif Reel looks for).
    static func baselineShift(_ s: SVGStyle) -> Double {
        guard let v = s.baselineShift else { return 0 }
        switch v {
        case "sub": return -0.075 * s.fontSize
        case "super": return 0.35 * s.fontSize
        case "baseline": return 0
        default: return SVGValues.length(v, percentOf: s.fontSize, fontSize: s.fontSize) ?? 0
        }
    }

    /// An element's text as `tref` takes it: its character data and its descendants' (a tref inside
    /// it shows nothing, as in resvg), 10,000 elements read at most.
    func characterData(_ e: SVGElement) -> String {
        var out = "", visits = 0
        func read(_ e: SVGElement) {
            if !SVGElement.textContainers.contains(e.name) { out += e.text }
            for child in e.children {
                visits += 1
                guard visits <= 10_000 else { return }
                if child.name == SVGElement.characters {
                    out += child.text
                } else if child.name != "tref" && !Self.notDrawn.contains(child.name) {
                    read(child)
                }
            }
        }
        read(e)
        return out
    }

    /// SVG's default white space: line breaks and tabs are spaces, runs of spaces one space (across
    /// tspans), none at the start or end of the text. Where `xml:space="preserve"` holds, line breaks
    /// and tabs become spaces (SVG 1.1), every space kept.
    static func collapseWhiteSpace(_ chunks: inout [TextChunk]) {
        var previousWasSpace = true  // drops the text's leading spaces
        for c in chunks.indices {
            for s in chunks[c].spans.indices {
                var out = ""
                let keep = s < chunks[c].preserved.count && chunks[c].preserved[s]
                for ch in chunks[c].spans[s].text {
                    let space = ch == " " || ch == "\n" || ch == "\t" || ch == "\r"
                    if keep {
                        out.append(space ? " " : ch)
                        previousWasSpace = space
                    } else if space {
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
            let kept = s < chunks[c].preserved.count && chunks[c].preserved[s]
            if !kept && chunks[c].spans[s].text.hasSuffix(" ") { chunks[c].spans[s].text.removeLast() }
            break
        }
    }

    /// The font a style asks for, as a list Reel resolves in order (`Family Style, Family, …`): each
    /// family of `font-family` with the weight and slant, then each alone; a generic family stands for
    /// the usual installed ones, after fontconfig's choice for it. Reel opens the first installed and never
    /// fails on such a list.
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
            // A generic family as the system's fontconfig sets it, else the usual installed ones.
            families += generic[name.lowercased()].map { [name.lowercased()] + $0 } ?? [name]
        }
        // Where no family listed is installed: serif, as resvg, librsvg and browsers fall back.
        families += ["serif"] + generic["serif"]!
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
        // A generic family resolves alone (fontconfig's choice), so it takes no style.
        let named = families.filter { !generic.keys.contains($0) }
        if !style.isEmpty { list += named.map { "\($0) \(style.joined(separator: " "))" } }
        list += families
        var seen = Set<String>()
        return list.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }
}

extension TextSpan {
    /// Whether the runs differ in their text only (and so may be one run).
    func sameAttributes(as other: TextSpan) -> Bool {
        var a = self
        a.text = other.text
        return a == other
    }
}
