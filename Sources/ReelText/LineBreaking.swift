/// Where lines break: a paragraph wrapped greedily at Unicode line-break opportunities, a word wider
/// than the box broken between clusters.

extension Layout {

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
}
