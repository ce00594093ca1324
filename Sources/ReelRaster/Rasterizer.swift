/// The scheduler: a display list drawn into a frame by band workers in parallel, each band from the
/// nodes that meet it.
import Dispatch
import Foundation
import ReelGeometry

public enum RasterError: Error, Equatable, CustomStringConvertible {
    case nonFinitePath(commandIndex: Int)
    case unbalancedGroups(commandIndex: Int)

    public var description: String {
        switch self {
        case .nonFinitePath(let i):
            return "draw command \(i) has a path with a non-finite coordinate (NaN or infinity)"
        case .unbalancedGroups(let i):
            return "draw command \(i): groups, masks and their ends do not match"
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
    /// Gradient ramps from the last frame, for the next (`RampCache`); shared by copies.
    let ramps = RampCache()

    public init(threads: Int = defaultThreadCount, bandHeight: Int = 32, tolerance: Double = defaultFlatteningTolerance) {
        self.threads = max(1, threads)
        self.bandHeight = max(1, bandHeight)
        self.tolerance = tolerance
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

    /// Draws over what the frame holds.
    public func draw(_ commands: [DisplayList.Command], into frame: inout Frame) throws(RasterError) {
        try draw(commands, into: &frame, background: nil)
    }

    /// Each worker also clears its own bands to `background`, so clearing the frame is parallel too.
    func draw(_ commands: [DisplayList.Command], into frame: inout Frame, background: PremultipliedColor?) throws(RasterError) {
        // Each drawing is a frame for the ramps kept (`RampCache`): those of the drawing before stay.
        ramps.nextFrame()
        let tree = try DrawTree(commands, tolerance: tolerance, threads: threads, ramps: ramps)
        guard !tree.nodes.isEmpty || background != nil else { return }
        // A group that reads content around its canvas (a shadow's blur and offset) paints that margin again
        // in every band: bands at least 4× the reach keep the repeated work under half.
        let reach = tree.nodes.map(\.reach).max() ?? 0
        let width = frame.width, height = frame.height, bandHeight = max(self.bandHeight, min(4 * reach, height))
        let bands = (height + bandHeight - 1) / bandHeight
        let workers = min(threads, bands)
        let word: UInt32? = background.map { c in
            let b = c.bytes
            return UInt32(b.0) | UInt32(b.1) << 8 | UInt32(b.2) << 16 | UInt32(b.3) << 24
        }
        // The top-level nodes each band meets, in drawing order: a band visits only those instead of every
        // node of the frame (400 small shapes on a 1080p frame each touch 1–2 of its 34 bands). Exact: a node
        // paints nothing outside its rows.
        let perBand = Self.nodesPerBand(tree.nodes, bands: bands, bandHeight: bandHeight)
        frame.pixels.withUnsafeMutableBufferPointer { buffer in
            let pixels = SendablePointer(base: buffer.baseAddress!)
            // Bands handed out in order as workers come for them, not dealt in turn: a frame's work is
            // uneven down its rows (lines of text, a stroke-heavy diagram), and a band dealt to a busy
            // worker waited while the other had none (text_glyphs on two threads: 1.63× one thread).
            let queue = BandQueue(count: bands)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                BandPainter.with(frameWidth: width, tree: tree, maxRows: bandHeight) { painter in
                    while let band = queue.next() {
                        let y0 = band * bandHeight
                        let rows = min(bandHeight, height - y0)
                        let canvas = Canvas(pixels: pixels.base + y0 * width * 4, x0: 0, y0: y0, width: width, rows: rows)
                        if let word {
                            UnsafeMutableRawPointer(canvas.pixels).bindMemory(to: UInt32.self, capacity: width * rows)
                                .update(repeating: word, count: width * rows)
                        }
                        for i in perBand[band] { painter.paint(tree.nodes[Int(i)], into: canvas) }
                    }
                }
            }
        }
        tree.release(workers: workers)
    }
}

extension Rasterizer {
    /// For each band of `bandHeight` rows, the indices of the nodes whose rows meet it, in order.
    static func nodesPerBand(_ nodes: [DrawTree.Node], bands: Int, bandHeight: Int) -> [[Int32]] {
        var perBand = [[Int32]](repeating: [], count: bands)
        for (i, node) in nodes.enumerated() {
            var first = 0, last = bands - 1
            if let rows = node.rows {
                guard rows.lowerBound < rows.upperBound else { continue }
                first = max(first, rows.lowerBound >= 0 ? rows.lowerBound / bandHeight : 0)
                last = min(last, rows.upperBound <= 0 ? -1 : (rows.upperBound - 1) / bandHeight)
            }
            guard first <= last else { continue }
            for b in first...last { perBand[b].append(Int32(i)) }
        }
        return perBand
    }
}

/// The bands of a frame, handed out one at a time to whichever worker asks.
final class BandQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = 0
    private let count: Int

    init(count: Int) { self.count = count }

    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard taken < count else { return nil }
        taken += 1
        return taken - 1
    }
}

/// A raw pointer handed to band workers; each worker writes only its own rows.
struct SendablePointer: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
}
