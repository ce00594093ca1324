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
        // Prefix sums of the advances, and where each prefix ends once its trailing spaces are dropped:
        // the width of any span in constant time, so a paragraph of n characters wraps in O(n).
        var prefix = [0.0]
        prefix.reserveCapacity(chars.count + 1)
        for a in whole.advances { prefix.append(prefix[prefix.count - 1] + a) }
        // The shaped line left out the paragraph's trailing spaces: they add nothing.
        while prefix.count < chars.count + 1 { prefix.append(prefix[prefix.count - 1]) }
        var trimmedEnd = [0]
        trimmedEnd.reserveCapacity(chars.count + 1)
        for i in chars.indices { trimmedEnd.append(chars[i].isSpace ? trimmedEnd[i] : i + 1) }
        func width(_ a: Int, _ b: Int) -> Double {
            let end = max(a, trimmedEnd[min(b, chars.count)])
            return prefix[end] - prefix[a]
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
