/// The scheduler: a display list drawn into a frame by band workers in parallel, each band from the
/// nodes that meet it.
internal import CRasterKernels
import Dispatch
import Foundation
import ReelGeometry

public enum RasterError: Error, Equatable, CustomStringConvertible {
    case nonFinitePath(commandIndex: Int)
    case unbalancedGroups(commandIndex: Int)
    /// Kernels this CPU does not run, or a name that is no variant: from `REEL_KERNELS`, or set on the
    /// rasterizer (`Rasterizer.kernels`).
    case kernelsUnavailable(requested: String, fromEnvironment: Bool)
    /// The frame's SVG filters (each evaluated whole over its region, its picture held for the frame)
    /// cover more than `limit` pixels together.
    case filterPixels(limit: Int)

    /// How to mend the error, where there is more to say than what went wrong.
    public var fix: String? {
        if case .filterPixels = self {
            return "draw fewer filtered elements at once, or the frame smaller (--width, --scale)"
        }
        guard case .kernelsUnavailable(_, let fromEnvironment) = self else { return nil }
        return Self.kernelsFix(fromEnvironment: fromEnvironment)
    }

    public var description: String {
        switch self {
        case .kernelsUnavailable(let requested, let fromEnvironment):
            return Self.kernelsDescription(requested: requested, fromEnvironment: fromEnvironment)
        case .nonFinitePath(let i):
            return "draw command \(i) has a path with a non-finite coordinate (NaN or infinity)"
        case .unbalancedGroups(let i):
            return "draw command \(i): groups, masks and their ends do not match"
        case .filterPixels(let limit):
            return "the frame's SVG filters cover more than \(limit / 1_000_000) megapixels together"
        }
    }
}

/// Draws a display list into a frame with exact-area anti-aliasing.
///
/// The frame is cut into horizontal bands of `bandHeight` rows, each drawn by one worker from the whole
/// display list. Band boundaries do not depend on the thread count and every row is computed by the
/// same arithmetic whichever band holds it, so the output is byte-identical whatever `threads` is.
public struct Rasterizer: Sendable {
    public var threads: Int
    public var bandHeight: Int
    /// Curve flattening tolerance in device pixels.
    public var tolerance: Double
    /// The pixel kernels to draw with; nil: `REEL_KERNELS`'s choice, or the widest this CPU runs. Every
    /// variant draws the same bytes; a rasterizer of its own lets tests in one process compare them.
    public var kernels: KernelVariant?
    /// Gradient ramps from the last frame, for the next (`RampCache`); shared by copies.
    let ramps = RampCache()
    /// The band painters' memory from the last drawing, for the next (`PainterPool`); shared by copies.
    let painters = PainterPool()

    public init(
        threads: Int = defaultThreadCount, bandHeight: Int = 32, tolerance: Double = defaultFlatteningTolerance,
        kernels: KernelVariant? = nil
    ) {
        self.threads = max(1, threads)
        self.bandHeight = max(1, bandHeight)
        self.tolerance = tolerance
        self.kernels = kernels
    }

    /// The variant this rasterizer draws with, or why it cannot draw: a variant this CPU does not run.
    public func kernelVariant() throws(RasterError) -> KernelVariant {
        guard let kernels else { return try KernelVariant.chosen() }
        guard kernels.isSupported else { throw .kernelsUnavailable(requested: kernels.rawValue, fromEnvironment: false) }
        return kernels
    }

    public static var defaultThreadCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    public func render(_ list: DisplayList, width: Int, height: Int) throws(RasterError) -> Frame {
        var frame = Frame(width: width, height: height)
        try render(list, into: &frame)
        return frame
    }

    /// Draws `list` into an existing frame, background first (reusing its memory).
    public func render(_ list: DisplayList, into frame: inout Frame) throws(RasterError) {
        try draw(list.commands, into: &frame, background: list.background.premultiplied())
    }

    /// Draws `list` into a frame that holds another picture, in the bands of rows meeting `rows` only
    /// (background first): the rows `damage(since:)` gives for the frame's picture, so the whole frame
    /// then holds `list`'s picture. The list may be cut to those rows first (`keeping(rows:)`).
    ///
    /// Where the damage is narrower than the frame, the pixels of those rows outside its columns are put
    /// back as they were: the list may be cut to the commands that paint the damaged columns, and the rows
    /// are drawn whole. A pixel in the damaged columns is drawn from every command that can paint its
    /// column, in order, so it is the pixel the whole list draws; a 1080p docs GIF's moving dot redrew
    /// every shape along its rows, across the frame, in every frame.
    public func render(_ list: DisplayList, into frame: inout Frame, rows: DamagedRows) throws(RasterError) {
        guard !rows.isEmpty else { return }
        let width = frame.width
        guard let damaged = rows.columns, damaged.lowerBound > 0 || damaged.upperBound < width else {
            return try draw(list.commands, into: &frame, background: list.background.premultiplied(), rows: rows)
        }
        // The bytes of the damaged rows left and right of the columns, row by row.
        let lo = min(max(0, damaged.lowerBound), width), hi = max(lo, min(width, damaged.upperBound))
        let left = lo * 4, right = hi * 4, stride = frame.stride, tail = stride - right
        // Written whole below, so not zeroed first (zeroing was 36 M instructions of a 1080p docs GIF
        // whose moving dot crosses 2,000 shapes' rows, 120 frames).
        let kept = [UInt8](unsafeUninitializedCapacity: rows.rowCount * (left + tail)) { kept, count in
            frame.pixels.withUnsafeBufferPointer { pixels in
                var k = 0
                for y in rows.ranges.joined() {
                    let row = pixels.baseAddress! + y * stride
                    (kept.baseAddress! + k).initialize(from: row, count: left)
                    (kept.baseAddress! + k + left).initialize(from: row + right, count: tail)
                    k += left + tail
                }
                count = k
            }
        }
        try draw(list.commands, into: &frame, background: list.background.premultiplied(), rows: rows)
        frame.pixels.withUnsafeMutableBufferPointer { pixels in
            kept.withUnsafeBufferPointer { kept in
                var k = 0
                for y in rows.ranges.joined() {
                    let row = pixels.baseAddress! + y * stride
                    row.update(from: kept.baseAddress! + k, count: left)
                    (row + right).update(from: kept.baseAddress! + k + left, count: tail)
                    k += left + tail
                }
            }
        }
    }

    /// Draws `list` into a frame that holds `shown`'s picture (nil: a picture not known): only the rows
    /// where the two differ are drawn, from the list cut to them, so the frame then holds `list`'s picture
    /// byte for byte as if drawn whole.
    public func render(_ list: DisplayList, into frame: inout Frame, over shown: DisplayList?) throws(RasterError) {
        if let shown {
            let rows = list.damage(since: shown, height: frame.height).narrowed(for: list)
            let narrow = rows.columns.map { $0.lowerBound > 0 || $0.upperBound < frame.width } ?? false
            if !rows.covers(height: frame.height) || narrow, let cut = list.keeping(rows: rows) {
                return try render(cut, into: &frame, rows: rows)
            }
        }
        try render(list, into: &frame)
    }

    /// Draws over what the frame holds.
    public func draw(_ commands: [DisplayList.Command], into frame: inout Frame) throws(RasterError) {
        try draw(commands, into: &frame, background: nil)
    }

    /// Each worker also clears its own bands to `background`, so clearing the frame is parallel too.
    ///
    /// One set of workers for the whole frame (`FrameWork`): they prepare the shapes run by run, the one
    /// finishing the last run assembles the tree and its bands, all draw bands, and once every band is
    /// drawn each frees the shapes it made. A round of `concurrentPerform` for each stage cost a
    /// worker's wake-up each (~45 µs on a 2-core machine, measured), and freeing shapes another thread
    /// made contended for its allocator's arena.
    func draw(
        _ commands: [DisplayList.Command], into frame: inout Frame, background: PremultipliedColor?, rows: DamagedRows? = nil
    ) throws(RasterError) {
        let kernels = try kernelVariant().table
        // Each drawing is a frame for the ramps kept (`RampCache`): those of the drawing before stay.
        ramps.nextFrame()
        let width = frame.width, height = frame.height
        // No more workers than there are fills to prepare or bands of the usual height to draw (shadows
        // may make bands taller, and fewer: a worker left without one makes no painter).
        let word: UInt32? = background.map { c in
            let b = c.bytes
            return UInt32(b.0) | UInt32(b.1) << 8 | UInt32(b.2) << 16 | UInt32(b.3) << 24
        }
        let preparation = DrawTree.Preparation(commands, tolerance: tolerance, ramps: ramps, background: word)
        // `bandHeight` is a settable property: held to a row here, as `init` holds it.
        let rowsPerBand = max(1, bandHeight)
        let workers = max(1, min(threads, max(preparation.fills.count, (height + rowsPerBand - 1) / rowsPerBand)))
        let work = FrameWork(
            preparation, workers: workers, height: height, bandHeight: rowsPerBand, background: word != nil, rows: rows)
        // Without fills the plan is made already: nothing to draw (or an error) leaves the frame's pixels
        // untouched, not even copied where the frame shares them.
        if work.runs == 0 && work.lists == nil {
            if let error = work.error { throw error }
            return
        }
        frame.pixels.withUnsafeMutableBufferPointer { buffer in
            let pixels = SendablePointer(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                var made: [Range<Int>] = []
                var outline: DrawTree.Preparation.Outline?
                while let run = work.takeRun() {
                    preparation.prepare(run, last: &outline)
                    made.append(run)
                    work.finishRun()
                }
                work.planned.wait()
                // A painter only for a worker with a band to draw: a shadow's reach makes its memory large
                // (38 MB for a blur of σ 256 at 1080p) where its taller bands leave some workers none, and
                // the pool keeps what was taken.
                if let tree = work.tree, let lists = work.lists, let first = work.takeBand() {
                    BandPainter.with(
                        frameWidth: width, reach: work.reach, maxRows: work.bandHeight, kernels: kernels, pool: painters
                    ) { painter in
                        var next: (band: Int, rows: Range<Int>)? = first
                        while let piece = next {
                            let y0 = piece.rows.lowerBound, rows = piece.rows.count
                            let canvas = Canvas(pixels: pixels.base + y0 * width * 4, x0: 0, y0: y0, width: width, rows: rows)
                            if let word {
                                UnsafeMutableRawPointer(canvas.pixels).bindMemory(to: UInt32.self, capacity: width * rows)
                                    .update(repeating: word, count: width * rows)
                            }
                            for i in lists.band(piece.band) { painter.paint(tree.nodes[Int(i)], into: canvas) }
                            work.finishBand()
                            next = work.takeBand()
                        }
                    }
                }
                work.drawn.wait()
                for run in made { preparation.release(run) }
            }
        }
        if let error = work.error { throw error }
    }
}

/// A raw pointer handed to band workers; each worker writes only its own rows.
struct SendablePointer: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
}
