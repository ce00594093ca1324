/// The Unicode bidirectional algorithm (UAX #9) through FriBidi: each character's embedding level in a
/// paragraph, from which runs are reordered for display line by line.
internal import CText

enum Bidi {
    /// The levels of `text` (one paragraph, no line breaks): even is left-to-right, odd right-to-left;
    /// and whether the paragraph itself is right-to-left (its first strong character, P2–P3).
    static func levels(of text: ArraySlice<UInt32>) -> (levels: [Int8], rightToLeft: Bool) {
        let chars = Array(text)
        let n = chars.count
        guard n > 0 else { return ([], false) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(0), count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var levels = [FriBidiLevel](repeating: 0, count: n)
        var base = reel_fribidi_par_auto()
        let ok = chars.withUnsafeBufferPointer { s in
            fribidi_get_bidi_types(s.baseAddress, FriBidiStrIndex(n), &types)
            fribidi_get_bracket_types(s.baseAddress, FriBidiStrIndex(n), types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(n), &base, &levels)
        }
        let rtl = base == reel_fribidi_par_rtl()
        // On failure (out of memory), lay the paragraph out left to right rather than not at all.
        guard ok != 0 else { return ([Int8](repeating: 0, count: n), false) }
        return (levels.map { Int8($0) }, rtl)
    }

    /// The display order of runs with these levels (rule L2): from the highest level down to the lowest
    /// odd one, every maximal sequence of runs at that level or higher is reversed.
    static func visualOrder(levels: [Int8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowestOdd = levels.filter({ $0 % 2 == 1 }).min() else { return order }
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                if levels[order[i]] >= level {
                    var j = i
                    while j < order.count, levels[order[j]] >= level { j += 1 }
                    order[i..<j].reverse()
                    i = j
                } else {
                    i += 1
                }
            }
            level -= 1
        }
        return order
    }
}
