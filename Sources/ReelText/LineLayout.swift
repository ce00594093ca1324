/// A line of text shaped and set from x = 0: items (one run, font, level and script each) shaped by
/// HarfBuzz and put in visual order, with letter spacing after each cluster; and a line's height.
import ReelGeometry

extension Layout {
    /// Shapes one line's characters (trailing spaces dropped) item by item, items being maximal runs of
    /// one run, font, level and script, and places them in visual order from x = 0.
    func layOut(_ lineChars: [Char]) -> ShapedLine {
        var chars = lineChars
        while let last = chars.last, last.isSpace { chars.removeLast() }
        var line = ShapedLine(chars: chars)
        line.advances = Array(repeating: 0, count: chars.count)
        line.startsCluster = Array(repeating: false, count: chars.count)
        measureVertically(&line, runs: Set(lineChars.map(\.run)).sorted())
        guard !chars.isEmpty else { return line }
        var items: [Range<Int>] = []
        var start = 0
        for i in 1...chars.count {
            let a = chars[i - 1]
            if i == chars.count
                || chars[i].run != a.run || chars[i].font !== a.font || chars[i].level != a.level || chars[i].script != a.script
            {
                items.append(start..<i)
                start = i
            }
        }
        let values = chars.map(\.value)
        var pen = 0.0
        var lastSpacing = 0.0
        for item in Bidi.visualOrder(levels: items.map { chars[$0.lowerBound].level }).map({ items[$0] }) {
            let first = chars[item.lowerBound]
            let attributes = runs[first.run].attributes
            let scale = attributes.fontSize / Double(first.font.unitsPerEm)
            let shaped = first.font.shape(
                values, range: item, direction: first.level % 2 == 1, features: features[first.run])
            for (k, g) in shaped.enumerated() {
                let advance = g.xAdvance * scale
                line.glyphs.append(
                    ShapedLine.Glyph(
                        glyph: g.glyph, font: first.font, fontSize: attributes.fontSize, x: pen + g.xOffset * scale,
                        y: -g.yOffset * scale, penStart: pen, penEnd: pen + advance, char: g.cluster))
                line.advances[g.cluster] += advance
                line.startsCluster[g.cluster] = true
                pen += advance
                // Letter spacing after each cluster: where the next glyph belongs to another one.
                if k == shaped.count - 1 || shaped[k + 1].cluster != g.cluster {
                    let word = Self.wordSeparators.contains(values[g.cluster]) ? attributes.wordSpacing : 0
                    pen += attributes.letterSpacing + word
                    line.advances[g.cluster] += attributes.letterSpacing + word
                    lastSpacing = attributes.letterSpacing
                }
            }
        }
        line.width = pen - lastSpacing
        return line
    }

    /// A line's ascent, descent and gap: the largest of its runs' fonts at their sizes.
    func measureVertically(_ line: inout ShapedLine, runs indices: [Int]) {
        var fonts: [(FontFace, Double)] = indices.map { (runs[$0].attributes.font, runs[$0].attributes.fontSize) }
        for c in line.chars where c.font !== runs[c.run].attributes.font {
            fonts.append((c.font, runs[c.run].attributes.fontSize))
        }
        line.ascent = 0
        line.descent = 0
        line.gap = 0
        for (font, size) in fonts {
            let e = font.extents, s = size / Double(font.unitsPerEm)
            line.ascent = max(line.ascent, e.ascender * s)
            line.descent = max(line.descent, -e.descender * s)
            line.gap = max(line.gap, e.lineGap * s)
        }
    }

    /// CSS's word-separator characters: word spacing follows each.
    static let wordSeparators: Set<UInt32> = [0x20, 0xA0, 0x1361, 0x10100, 0x10101, 0x1039F, 0x1091F]
}
