/// Lines stacked and aligned in the box, and glyphs numbered into the lines, words and clusters that
/// per-unit animation moves.
import ReelGeometry

extension Layout {
    /// Lines stacked from the box's top (first baseline one ascender down) and aligned; glyphs numbered
    /// into lines, words and clusters in reading order.
    mutating func place(_ lines: [ShapedLine], rtl: [Bool]) -> TypesetText {
        var out = TypesetText()
        var baseline = 0.0
        var wordOf: [Int: Int] = [:]  // text index → word
        var clusterOf: [Int: Int] = [:]  // text index of a cluster's start → cluster
        var words: [Rect] = []
        var clusters: [Rect] = []
        var boxes: [Rect] = []  // each placed glyph's advance box
        for (n, line) in lines.enumerated() {
            if n == 0 {
                baseline = style.firstBaselineAtTop ? 0 : line.ascent
            } else {
                baseline += (line.ascent + line.descent + line.gap) * style.lineHeight
            }
            let alignment: TextAlignment
            switch style.alignment {
            case .natural: alignment = rtl[n] ? .right : .left
            case .justified where line.endsParagraph: alignment = rtl[n] ? .right : .left
            default: alignment = style.alignment
            }
            var x0 = 0.0
            var stretch = 0.0
            switch alignment {
            case .left, .natural: x0 = 0
            case .right: x0 = size.width - line.width
            case .center: x0 = (size.width - line.width) / 2
            case .justified:
                let spaces = line.chars.filter { $0.value == 0x20 }.count
                if spaces > 0 && line.width < size.width { stretch = (size.width - line.width) / Double(spaces) }
            }
            // Only drawn text overflows: an empty line takes height but shows nothing.
            if !line.glyphs.isEmpty && !style.firstBaselineAtTop
                && (line.width > size.width + 1e-9 || baseline + line.descent > size.height + 1e-9)
            {
                overflows = true
            }
            // Words and clusters in reading (logical) order on this line.
            for (i, c) in line.chars.enumerated() where !c.isSpace {
                if i == 0 || line.chars[i - 1].isSpace { words.append(.zero) }
                wordOf[c.index] = words.count - 1
            }
            for g in line.glyphs where !line.chars[g.char].isSpace {
                let index = line.chars[g.char].index
                if clusterOf[index] == nil { clusterOf[index] = -1 }
            }
            var lineBox: Rect?
            let top = baseline - line.ascent, height = line.ascent + line.descent
            // Justification moves each glyph right by the stretched spaces before it, in visual order.
            var shift = 0.0
            // A decorated run's stretch of the line so far: its glyphs' advances, spaces included.
            var decorated: (run: Int, start: Double, end: Double)?
            func closeDecoration() {
                guard let d = decorated else { return }
                decorated = nil
                out.decorations += decorationLines(run: d.run, line: n, from: d.start, to: d.end, baseline: baseline)
            }
            for g in line.glyphs {
                let c = line.chars[g.char]
                if !runs[c.run].attributes.decorations.isEmpty {
                    let start = x0 + shift + g.penStart
                    let end = x0 + shift + g.penEnd + (c.isSpace && c.value == 0x20 ? stretch : 0)
                    // The next glyph of the same run continues the line over the letter and word
                    // spacing between them.
                    if let d = decorated, d.run == c.run {
                        decorated?.end = max(d.end, end)
                    } else {
                        closeDecoration()
                        decorated = (c.run, start, end)
                    }
                } else {
                    closeDecoration()
                }
                if c.isSpace {
                    // Spaces draw nothing; justification widens the ones between words.
                    if c.value == 0x20 { shift += stretch }
                    continue
                }
                let box = Rect(x: x0 + shift + g.penStart, y: top, width: g.penEnd - g.penStart, height: height)
                lineBox = lineBox.map { $0.union(box) } ?? box
                boxes.append(box)
                out.glyphs.append(
                    PlacedGlyph(
                        glyph: g.glyph, font: g.font, fontSize: g.fontSize,
                        origin: Point(x: x0 + shift + g.x, y: baseline + g.y - raised(c.run)),
                        penStart: box.minX, penEnd: box.maxX, run: c.run, character: c.index, line: n,
                        word: c.isSpace ? nil : wordOf[c.index],
                        cluster: c.isSpace ? nil : c.index))
            }
            closeDecoration()
            out.lineIsRightToLeft.append(rtl[n])
            out.baselines.append(baseline)
            out.lines.append(lineBox ?? Rect(x: x0, y: baseline - line.ascent, width: 0, height: line.ascent + line.descent))
        }
        // Clusters numbered by their text index (reading order), then boxes gathered.
        let order = clusterOf.keys.sorted()
        for (k, index) in order.enumerated() { clusterOf[index] = k }
        clusters = Array(repeating: .zero, count: order.count)
        var seenWord = Set<Int>(), seenCluster = Set<Int>()
        for i in out.glyphs.indices {
            let g = out.glyphs[i], box = boxes[i]
            if let index = g.cluster, let k = clusterOf[index] {
                out.glyphs[i].cluster = k
                clusters[k] = seenCluster.insert(k).inserted ? box : clusters[k].union(box)
            }
            if let w = g.word {
                words[w] = seenWord.insert(w).inserted ? box : words[w].union(box)
            }
        }
        out.words = words
        out.clusters = clusters
        out.fallbackFonts = fallbacksUsed.sorted()
        out.overflows = overflows
        return out
    }

    /// Points a run's glyphs are raised: its baseline offset, less the height of the baseline it sits
    /// on (a run hung from its ascender is lowered by it).
    func raised(_ run: Int) -> Double {
        let a = runs[run].attributes
        guard a.baseline != .alphabetic else { return a.baselineOffset }
        return a.baselineOffset - a.baseline.height(in: a.font) * a.fontSize / Double(a.font.unitsPerEm)
    }

    /// A run's decorations from x `from` to `to` on the line whose baseline is at `baseline`: each centred
    /// where its font puts it, raised with the run's glyphs (resvg's placement).
    func decorationLines(run: Int, line: Int, from x0: Double, to x1: Double, baseline: Double) -> [DecorationLine] {
        let a = runs[run].attributes
        guard x1 > x0 else { return [] }
        let s = a.fontSize / Double(a.font.unitsPerEm)
        let m = a.font.decorationMetrics
        let y = baseline - raised(run), thickness = m.thickness * s
        var centres: [(kind: TextDecorations, y: Double)] = []
        if a.decorations.contains(.underline) { centres.append((.underline, y - m.underline * s)) }
        if a.decorations.contains(.overline) { centres.append((.overline, y - a.font.extents.ascender * s)) }
        if a.decorations.contains(.strikethrough) { centres.append((.strikethrough, y - m.strikeout * s)) }
        return centres.map {
            DecorationLine(
                rect: Rect(x: x0, y: $0.y - thickness / 2, width: x1 - x0, height: thickness), kind: $0.kind, run: run,
                line: line)
        }
    }
}
