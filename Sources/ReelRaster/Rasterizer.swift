import Dispatch
import Foundation
import ReelGeometry

public enum RasterError: Error, Equatable, CustomStringConvertible {
    case nonFinitePath(commandIndex: Int)

    public var description: String {
        switch self {
        case .nonFinitePath(let i):
            return "draw command \(i) has a path with a non-finite coordinate (NaN or infinity)"
        }
    }
}

/// Draws a display list into a frame with exact-area anti-aliasing.
///
/// The frame is cut into horizontal bands of `bandHeight` rows. Band boundaries do not depend on the
/// thread count and every row is computed by the same arithmetic in the same order, so the output is
/// byte-identical whatever `threads` is.
public struct Rasterizer: Sendable {
    public var threads: Int
    public var bandHeight: Int
    /// Curve flattening tolerance in device pixels.
    public var tolerance: Double

    public init(threads: Int = defaultThreadCount, bandHeight: Int = 32, tolerance: Double = 0.1) {
        self.threads = max(1, threads)
        self.bandHeight = max(1, bandHeight)
        self.tolerance = tolerance
    }

    public static var defaultThreadCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    public func render(_ list: DisplayList, width: Int, height: Int) throws(RasterError) -> Frame {
        var frame = Frame(width: width, height: height, fill: list.background.premultiplied())
        try draw(list.commands, into: &frame)
        return frame
    }

    public func draw(_ commands: [DisplayList.Command], into frame: inout Frame) throws(RasterError) {
        // Flatten once per frame, shared read-only by every band.
        var shapes: [PreparedShape] = []
        shapes.reserveCapacity(commands.count)
        for (index, command) in commands.enumerated() {
            switch command {
            case .fill(let path, let color, let opacity, let rule):
                guard path.isFinite else { throw .nonFinitePath(commandIndex: index) }
                let paint = color.premultiplied(opacity: opacity)
                guard paint.a > 0 else { continue }
                if let shape = PreparedShape(
                    edges: path.flattenedEdges(tolerance: tolerance), paint: paint, rule: rule,
                    width: frame.width, height: frame.height)
                {
                    shapes.append(shape)
                }
            }
        }
        guard !shapes.isEmpty else { return }
        let prepared = shapes

        let width = frame.width, height = frame.height, bandHeight = self.bandHeight
        let bands = (height + bandHeight - 1) / bandHeight
        let workers = min(threads, bands)
        frame.pixels.withUnsafeMutableBufferPointer { buffer in
            let pixels = SendablePointer(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                var scratch = CoverageScratch(width: width, rows: bandHeight)
                var band = worker
                while band < bands {
                    let y0 = band * bandHeight
                    let y1 = min(height, y0 + bandHeight)
                    for shape in prepared where shape.maxY > Double(y0) && shape.minY < Double(y1) {
                        scratch.fill(shape, rows: y0..<y1, pixels: pixels.base, width: width)
                    }
                    band += workers
                }
                scratch.deallocate()
            }
        }
    }
}

/// A raw pointer handed to band workers; each worker writes only its own rows.
struct SendablePointer: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
}

struct PreparedShape: Sendable {
    let edges: [Edge]
    let paint: PremultipliedColor
    let rule: FillRule
    let minX: Int, maxX: Int
    let minY: Double, maxY: Double

    init?(edges: [Edge], paint: PremultipliedColor, rule: FillRule, width: Int, height: Int) {
        guard !edges.isEmpty else { return nil }
        var x0 = Double.infinity, x1 = -Double.infinity, y0 = Double.infinity, y1 = -Double.infinity
        for e in edges {
            x0 = min(x0, e.x0, e.x1)
            x1 = max(x1, e.x0, e.x1)
            y0 = min(y0, e.y0, e.y1)
            y1 = max(y1, e.y0, e.y1)
        }
        guard x1 > 0, x0 < Double(width), y1 > 0, y0 < Double(height) else { return nil }
        self.edges = edges
        self.paint = paint
        self.rule = rule
        self.minX = max(0, Int(x0.rounded(.down)))
        self.maxX = min(width - 1, Int(x1.rounded(.up)))
        self.minY = y0
        self.maxY = y1
    }
}
