/// A frame as the display lists of its shutter's samples, and how they are drawn: the first whole, the
/// others only where they differ from it, and there their mean.
import ReelRaster

/// A frame's display lists: one, or one for each sample time of its shutter (`MotionBlur`).
struct FrameLists: Sendable {
    let lists: [DisplayList]

    /// The one list whose picture the frame is, when every sample draws the same (no motion in the
    /// shutter's interval: the frame is drawn once); nil when the samples differ.
    var still: DisplayList? { lists.dropFirst().allSatisfy { $0 == lists[0] } ? lists[0] : nil }

    /// The rows where this frame may differ from `before`: where any sample differs from the same sample
    /// of it (the mean of equal pictures is equal).
    func damage(since before: FrameLists, height: Int) -> DamagedRows {
        guard lists.count == before.lists.count else { return .all(height: height) }
        var rows = DamagedRows.none
        for (a, b) in zip(lists, before.lists) { rows.formUnion(a.damage(since: b, height: height)) }
        return rows
    }

    /// Draws the frame into `frame`, which holds `shown`'s picture (nil: nothing known). Returns the
    /// list whose picture `frame` then holds: nil for a mean of samples. The mean is taken of
    /// premultiplied bytes, rounded to nearest, in the rows where a sample differs from the first; the
    /// other rows are the first sample's (the same in every sample). Byte for byte the same however the
    /// rasterizer is run.
    func draw(into frame: inout Frame, over shown: DisplayList?, rasterizer: Rasterizer) throws(RasterError)
        -> DisplayList?
    {
        try rasterizer.render(lists[0], into: &frame, over: shown)
        if let still { return still }
        var rows = DamagedRows.none
        for list in lists.dropFirst() { rows.formUnion(list.damage(since: lists[0], height: frame.height)) }
        let rowBytes = frame.width * 4
        var sums = [UInt16](repeating: 0, count: rows.rowCount * rowBytes)
        func add(_ f: Frame) {
            f.pixels.withUnsafeBufferPointer { px in
                sums.withUnsafeMutableBufferPointer { sums in
                    var o = 0
                    for r in rows.ranges {
                        for y in r {
                            let row = px.baseAddress! + y * rowBytes
                            for i in 0..<rowBytes { sums[o + i] &+= UInt16(row[i]) }
                            o += rowBytes
                        }
                    }
                }
            }
        }
        add(frame)
        // Each sample drawn over the one before, where it differs from it.
        var sample = frame, previous = lists[0]
        for list in lists.dropFirst() {
            try rasterizer.render(list, into: &sample, over: previous)
            previous = list
            add(sample)
        }
        let n = UInt16(lists.count)
        frame.pixels.withUnsafeMutableBufferPointer { px in
            var o = 0
            for r in rows.ranges {
                for y in r {
                    let row = px.baseAddress! + y * rowBytes
                    for i in 0..<rowBytes { row[i] = UInt8((sums[o + i] + n / 2) / n) }
                    o += rowBytes
                }
            }
        }
        return nil
    }
}
