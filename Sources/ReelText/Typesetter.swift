/// Text layout: paragraphs split into runs by bidi level, script and font (falling back per character),
/// shaped, broken into lines, elided, aligned, and placed at HarfBuzz's unrounded positions; the result
/// is cached, so a clip lays out each distinct text once however many frames show it.
import ReelGeometry
import Synchronization

/// Lays out text; shared by every thread that renders (its cache is locked).
public final class Typesetter: Sendable {
    /// The font to draw a character with when the run's font has no glyph for it.
    public typealias Fallback = @Sendable (Unicode.Scalar, FontFace) -> FontFace?

    private struct Key: Hashable {
        var runs: [TextRun]
        var style: ParagraphStyle
        var width: Double
        var height: Double
    }

    /// Most distinct layouts kept; the cache starts over when full (an animated string makes one per
    /// value, and memory must stay flat over a long clip).
    static let cacheLimit = 4096
    private let fallback: Fallback
    private let cache = Mutex<[Key: TypesetText]>([:])

    public init(fallback: @escaping Fallback = { _, _ in nil }) {
        self.fallback = fallback
    }

    /// Lays out `runs` in a box of `size` points (its width wraps, aligns and truncates; its height
    /// truncates wrapped text).
    public func typeset(_ runs: [TextRun], style: ParagraphStyle, in size: Size) -> TypesetText {
        let key = Key(runs: runs, style: style, width: size.width, height: size.height)
        if let hit = cache.withLock({ $0[key] }) { return hit }
        var layout = Layout(runs: runs, style: style, size: size, fallback: fallback)
        let result = layout.run()
        cache.withLock {
            if $0.count >= Self.cacheLimit { $0.removeAll(keepingCapacity: true) }
            $0[key] = result
        }
        return result
    }
}

/// One character with what layout decided for it.
private struct Char {
    var value: UInt32
    /// The run it came from.
    var run: Int
    var font: FontFace
    var level: Int8 = 0
    var script: UInt32 = 0
    /// Its index in the whole text (ellipses inserted by truncation take the index of what they replace).
    var index: Int
    var isSpace: Bool { Unicode.Scalar(value)?.properties.isWhitespace ?? false }
}

/// A line shaped and placed along x from 0, before alignment.
private struct ShapedLine {
    struct Glyph {
        var glyph: UInt32
        var font: FontFace
        var fontSize: Double
        var x: Double
        var y: Double
        /// The pen's span for this glyph (its advance), for unit boxes.
        var penStart: Double
        var penEnd: Double
        /// The character (in the line) its cluster starts at.
        var char: Int
    }
    var chars: [Char]
    var glyphs: [Glyph] = []
    var width: Double = 0
    var ascent: Double = 0
    var descent: Double = 0
    var gap: Double = 0
    /// Per character, the advance of the cluster it starts (0 for the rest of a cluster).
    var advances: [Double] = []
    /// Per character, whether it starts a cluster (has glyphs of its own): lines break and elide there.
    var startsCluster: [Bool] = []
    /// Whether this line ends its paragraph (justification leaves it alone).
    var endsParagraph = true
}

private struct Layout {
    let runs: [TextRun]
    let style: ParagraphStyle
    let size: Size
    let fallback: Typesetter.Fallback
    var features: [FeatureList]
    var fallbacksUsed: Set<String> = []
    var overflows = false

    init(runs: [TextRun], style: ParagraphStyle, size: Size, fallback: @escaping Typesetter.Fallback) {
        self.runs = runs
        self.style = style
        self.size = size
        self.fallback = fallback
        features = runs.map { FeatureList(lenient: $0.attributes.features) }
    }

    mutating func run() -> TypesetText {
        // The whole text as characters, each knowing its run; then paragraphs at line feeds.
        var all: [Char] = []
        for (r, run) in runs.enumerated() {
            for s in run.text.unicodeScalars {
                all.append(Char(value: s.value, run: r, font: run.attributes.font, index: all.count))
            }
        }
        var paragraphs: [[Char]] = [[]]
        var emptyParagraphRuns: [Int] = [runs.isEmpty ? 0 : 0]
        for c in all {
            if c.value == 0x0A || c.value == 0x2029 {
                paragraphs.append([])
                emptyParagraphRuns.append(c.run)
            } else if c.value != 0x0D {
                paragraphs[paragraphs.count - 1].append(c)
            }
        }
        var lines: [ShapedLine] = []
        var paragraphIsRTL: [Bool] = []
        for (p, paragraph) in paragraphs.enumerated() {
            guard !runs.isEmpty else { break }
            let (chars, rtl) = prepare(paragraph)
            var paragraphLines = breakLines(chars).map { layOut($0) }
            if paragraphLines.isEmpty {
                // An empty paragraph still takes a line, of its run's font.
                var empty = ShapedLine(chars: [])
                measureVertically(&empty, runs: [emptyParagraphRuns[p]])
                paragraphLines = [empty]
            }
            for i in paragraphLines.indices { paragraphLines[i].endsParagraph = i == paragraphLines.count - 1 }
            lines += paragraphLines
            paragraphIsRTL += Array(repeating: rtl, count: paragraphLines.count)
        }
        lines = truncatedToHeight(lines, rtl: &paragraphIsRTL)
        if style.truncationMode != .none && !style.isWrapped {
            lines = lines.map { $0.width > size.width + 1e-9 ? elide($0, mode: style.truncationMode) : $0 }
        }
        return place(lines, rtl: paragraphIsRTL)
    }

    /// Levels, scripts and fonts of one paragraph's characters.
    mutating func prepare(_ paragraph: [Char]) -> ([Char], Bool) {
        var chars = paragraph
        let values = ArraySlice(chars.map(\.value))
        let (levels, rtl) = Bidi.levels(of: values)
        let scripts = Scripts.resolved(values)
        for i in chars.indices {
            chars[i].level = levels[i]
            chars[i].script = scripts[i]
            chars[i].font = font(for: chars, at: i)
        }
        return (chars, rtl)
    }

    /// The run's font when it has the character; marks, joiners and variation selectors stay with the
    /// character before them (a cluster is drawn from one font); otherwise fontconfig's fallback.
    mutating func font(for chars: [Char], at i: Int) -> FontFace {
        let c = chars[i]
        let own = runs[c.run].attributes.font
        guard let scalar = Unicode.Scalar(c.value) else { return own }
        let category = scalar.properties.generalCategory
        let follows: Bool
        switch category {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: follows = true
        default: follows = scalar.properties.isVariationSelector || scalar.properties.isEmojiModifier
        }
        if follows, i > 0, chars[i - 1].run == c.run { return chars[i - 1].font }
        if own.hasGlyph(for: scalar) || scalar.properties.isWhitespace || category == .control { return own }
        guard let other = fallback(scalar, own) else { return own }
        fallbacksUsed.insert(other.path)
        return other
    }

    /// Lines of one paragraph as ranges of its characters: all of it, or wrapped greedily at line-break
    /// opportunities (a line's trailing spaces do not count towards its width), a word wider than the
    /// box broken between clusters.
    func breakLines(_ chars: [Char]) -> [[Char]] {
        guard !chars.isEmpty else { return [] }
        guard style.isWrapped else { return [chars] }
        // Widths come from shaping the paragraph as one line; each line is shaped again on its own.
        let whole = layOut(chars)
        let limit = size.width + 1e-9
        func width(_ a: Int, _ b: Int) -> Double {
            var last = min(b, whole.advances.count)
            while last > a, chars[last - 1].isSpace { last -= 1 }
            return a < last ? whole.advances[a..<last].reduce(0, +) : 0
        }
        func isClusterStart(_ i: Int) -> Bool { i >= whole.startsCluster.count || whole.startsCluster[i] }
        var lines: [[Char]] = []
        var start = 0, end = 0
        for b in LineBreaks.opportunities(in: ArraySlice(chars.map(\.value))) where b > end {
            if width(start, b) <= limit {
                end = b
                continue
            }
            if end > start {
                lines.append(Array(chars[start..<end]))
                start = end
            }
            // What is left up to this opportunity still does not fit: break it between clusters.
            var i = start
            while width(start, b) > limit {
                var next = i + 1
                while next < b, !isClusterStart(next) { next += 1 }
                if width(start, next) > limit && i > start {
                    lines.append(Array(chars[start..<i]))
                    start = i
                    continue
                }
                if next >= b { break }
                i = next
            }
            end = b
        }
        if start < chars.count { lines.append(Array(chars[start...])) }
        return lines
    }

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
                    pen += attributes.letterSpacing
                    line.advances[g.cluster] += attributes.letterSpacing
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

    /// With truncation on, wrapped lines below the box's bottom are dropped and the last one kept ends in
    /// "…".
    mutating func truncatedToHeight(_ lines: [ShapedLine], rtl: inout [Bool]) -> [ShapedLine] {
        guard style.truncationMode != .none, style.isWrapped, lines.count > 1 else { return lines }
        var bottom = 0.0
        var kept = 0
        for (i, line) in lines.enumerated() {
            let advance = i == 0 ? line.ascent : (line.ascent + line.descent + line.gap) * style.lineHeight
            if i > 0 && bottom + advance + line.descent > size.height + 1e-9 { break }
            bottom += advance
            kept = i + 1
        }
        guard kept < lines.count else { return lines }
        var result = Array(lines.prefix(kept))
        rtl = Array(rtl.prefix(kept))
        result[kept - 1] = elide(result[kept - 1], mode: .end, always: true)
        return result
    }

    /// The line with clusters removed (from the end, the start or the middle) and "…" put in their
    /// place, so that it fits the width; `always` adds the ellipsis even to a line that fits (text was
    /// cut below it).
    func elide(_ line: ShapedLine, mode: TruncationMode, always: Bool = false) -> ShapedLine {
        let chars = line.chars
        guard !chars.isEmpty else { return line }
        let anchor = mode == .start ? chars[0] : chars[chars.count - 1]
        var ellipsis = Char(value: 0x2026, run: anchor.run, font: anchor.font, level: anchor.level, index: anchor.index)
        ellipsis.script = anchor.script
        if !anchor.font.hasGlyph(for: "\u{2026}") { ellipsis.value = 0x2E }
        // Clusters as ranges of characters; keeping k of them (from the end kept by the mode) is a guess
        // from the line's advances, corrected by shaping (kerning changes at the cut).
        let starts = chars.indices.filter { line.startsCluster[$0] }
        let clusters = starts.indices.map { i in starts[i]..<(i + 1 < starts.count ? starts[i + 1] : chars.count) }
        func kept(_ k: Int) -> [Char] {
            func trim(_ c: ArraySlice<Char>) -> [Char] {
                Array(c.drop(while: \.isSpace).reversed().drop(while: \.isSpace).reversed())
            }
            let n = clusters.count
            guard k > 0 else { return [ellipsis] }
            switch mode {
            case .start: return [ellipsis] + trim(chars[clusters[n - k].lowerBound...])
            case .middle:
                let head = (k + 1) / 2, tail = k / 2
                let front = trim(chars[..<clusters[head - 1].upperBound])
                let back = tail > 0 ? trim(chars[clusters[n - tail].lowerBound...]) : []
                return front + [ellipsis] + back
            default: return trim(chars[..<clusters[k - 1].upperBound]) + [ellipsis]
            }
        }
        let ellipsisWidth = layOut([ellipsis]).width + runs[anchor.run].attributes.letterSpacing
        var k = clusters.count
        if !always || layOut(kept(k)).width > size.width + 1e-9 {
            k = clusters.count - 1
            var estimate = line.width + ellipsisWidth
            // Drop clusters (from the mode's side) until the estimate fits, then check by shaping.
            var order: [Int] = []
            switch mode {
            case .start: order = Array(clusters.indices)
            case .middle:
                var lo = clusters.count / 2, hi = lo + 1
                while order.count < clusters.count {
                    if lo >= 0 { order.append(lo) }
                    if hi < clusters.count { order.append(hi) }
                    lo -= 1
                    hi += 1
                }
            default: order = Array(clusters.indices.reversed())
            }
            for (dropped, i) in order.enumerated() {
                estimate -= line.advances[clusters[i]].reduce(0, +)
                k = clusters.count - dropped - 1
                if estimate <= size.width + 1e-9 { break }
            }
        }
        var result = layOut(kept(k))
        while result.width > size.width + 1e-9 && k > 0 {
            k -= 1
            result = layOut(kept(k))
        }
        result.endsParagraph = line.endsParagraph
        return result
    }

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
            baseline += n == 0 ? line.ascent : (line.ascent + line.descent + line.gap) * style.lineHeight
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
            if line.width > size.width + 1e-9 || baseline + line.descent > size.height + 1e-9 { overflows = true }
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
            for g in line.glyphs {
                let c = line.chars[g.char]
                if c.isSpace {
                    // Spaces draw nothing; justification widens the ones between words.
                    if c.value == 0x20 { shift += stretch }
                    continue
                }
                let box = Rect(x: x0 + shift + g.penStart, y: top, width: g.penEnd - g.penStart, height: height)
                lineBox = lineBox.map { union($0, box) } ?? box
                boxes.append(box)
                out.glyphs.append(
                    PlacedGlyph(
                        glyph: g.glyph, font: g.font, fontSize: g.fontSize, origin: Point(x: x0 + shift + g.x, y: baseline + g.y),
                        run: c.run, line: n, word: c.isSpace ? nil : wordOf[c.index], cluster: c.isSpace ? nil : c.index))
            }
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
                clusters[k] = seenCluster.insert(k).inserted ? box : union(clusters[k], box)
            }
            if let w = g.word {
                words[w] = seenWord.insert(w).inserted ? box : union(words[w], box)
            }
        }
        out.words = words
        out.clusters = clusters
        out.fallbackFonts = fallbacksUsed.sorted()
        out.overflows = overflows
        return out
    }

    func union(_ a: Rect, _ b: Rect) -> Rect {
        let minX = min(a.minX, b.minX), minY = min(a.minY, b.minY)
        return Rect(x: minX, y: minY, width: max(a.maxX, b.maxX) - minX, height: max(a.maxY, b.maxY) - minY)
    }
}
