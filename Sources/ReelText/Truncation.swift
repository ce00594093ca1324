/// What does not fit: a line elided with "…" at its end, start or middle, and wrapped lines cut at the
/// box's bottom.

extension Layout {
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
}
