/// Where a line may break (UAX #14, through ICU): the positions wrapping chooses from.
import CLineBreak

enum LineBreaks {
    /// The scalar indices at which a new line may start in `text` (one paragraph), ascending; the end of
    /// the text is the last one.
    static func opportunities(in text: ArraySlice<UInt32>) -> [Int] {
        var utf16: [UInt16] = []
        var scalarAt: [Int] = []  // for each UTF-16 offset, the scalar index it falls in
        for (i, value) in text.enumerated() {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for unit in String(scalar).utf16 {
                utf16.append(unit)
                scalarAt.append(i)
            }
        }
        scalarAt.append(text.count)
        guard !utf16.isEmpty else { return [] }
        var breaks = [Int32](repeating: 0, count: utf16.count + 1)
        let count = utf16.withUnsafeBufferPointer { u in
            reel_line_breaks(u.baseAddress, Int32(u.count), &breaks, Int32(breaks.count))
        }
        // ICU failing is unexpected: then the only break is the end (the paragraph is one line).
        guard count > 0 else { return [text.count] }
        return breaks.prefix(Int(min(count, Int32(breaks.count)))).map { scalarAt[Int($0)] }
    }
}
