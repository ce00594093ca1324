/// A GIF clip's frames kept from the palette pass for the encoding pass, as the rectangles that changed
/// from frame to frame, so a clip that fits is drawn once instead of twice.
import ReelRaster

/// Frames in order, each the same as the one before or the rectangle of pixels where it differs from
/// it. Documentation clips (small changes, long holds) hold a few megabytes; a clip whose changes
/// pass `limit` bytes is not kept (`add` says so), and the palette pass samples it instead.
final class GIFFrameCache {
    private enum Entry {
        case same
        case patch(left: Int, top: Int, width: Int, height: Int, pixels: [UInt8])
    }

    let width: Int
    let height: Int
    let limit: Int
    private var entries: [Entry] = []
    /// Counted from the start: besides the patches, the palette pass holds about three whole frames
    /// (the last added here, the last shown, the last sampled).
    private var bytes: Int
    /// The last frame added.
    private var last: [UInt8]?

    init(width: Int, height: Int, limit: Int) {
        self.width = width
        self.height = height
        self.limit = limit
        bytes = 3 * width * height * 4
    }

    var count: Int { entries.count }

    /// Adds the next frame (nil: the same as the one before, not drawn), with the rows where it may
    /// differ from the one before when the renderer knows them (nil: every row is compared) and, with
    /// them, the columns outside which those rows are the same (nil: any). Returns false, keeping
    /// nothing more, once the changes pass the limit.
    func add(_ pixels: [UInt8]?, changedRows: [Range<Int>]? = nil, changedColumns: Range<Int>? = nil) -> Bool {
        guard let pixels, let previous = last else {
            if let pixels {
                // The first frame: all of it.
                entries.append(.patch(left: 0, top: 0, width: width, height: height, pixels: pixels))
                bytes += pixels.count
                last = pixels
            } else {
                entries.append(.same)
            }
            return bytes <= limit
        }
        guard
            let (left, top, right, bottom) = Frame.changedRect(
                pixels, previous, width: width, height: height, rows: changedRows,
                columns: changedRows == nil ? nil : changedColumns)
        else {
            entries.append(.same)
            // The same pixels, but the newer buffer's: holding the older one, which goes back to the pool
            // now, made the worker that drew into it next copy all of it first (8 MB at 1080p; four of
            // the moving dot's eight copies).
            last = pixels
            return true
        }
        var patch = [UInt8]()
        patch.reserveCapacity((right - left) * (bottom - top) * 4)
        for y in top..<bottom {
            patch.append(contentsOf: pixels[(y * width + left) * 4..<(y * width + right) * 4])
        }
        bytes += patch.count
        entries.append(.patch(left: left, top: top, width: right - left, height: bottom - top, pixels: patch))
        last = pixels
        return bytes <= limit
    }

    /// The frames `range` in order, each whole (the buffer handed to `body` is reused), with the rows
    /// where each differs from the one before (nil for the first) and the columns outside which those
    /// rows are the same (its patch's).
    func replay(
        _ range: Range<Int>, _ body: ([UInt8], [Range<Int>]?, Range<Int>?) throws(ReelError) -> Void
    ) throws(ReelError) {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<range.upperBound {
            var rows: [Range<Int>] = []
            var columns: Range<Int>?
            if case .patch(let left, let top, let w, let h, let pixels) = entries[i] {
                rows = [top..<(top + h)]
                columns = left..<(left + w)
                for y in 0..<h {
                    canvas.replaceSubrange(
                        ((top + y) * width + left) * 4..<((top + y) * width + left + w) * 4,
                        with: pixels[y * w * 4..<(y + 1) * w * 4])
                }
            }
            if i >= range.lowerBound {
                try body(canvas, i == range.lowerBound ? nil : rows, i == range.lowerBound ? nil : columns)
            }
        }
    }
}
