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
        let tree = try DrawTree(commands, tolerance: tolerance, threads: threads)
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
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let painter = BandPainter(frameWidth: width, tree: tree, maxRows: bandHeight)
                var band = worker
                while band < bands {
                    let y0 = band * bandHeight
                    let rows = min(bandHeight, height - y0)
                    let canvas = Canvas(pixels: pixels.base + y0 * width * 4, x0: 0, y0: y0, width: width, rows: rows)
                    if let word {
                        UnsafeMutableRawPointer(canvas.pixels).bindMemory(to: UInt32.self, capacity: width * rows)
                            .update(repeating: word, count: width * rows)
                    }
                    for i in perBand[band] { painter.paint(tree.nodes[Int(i)], into: canvas) }
                    band += workers
                }
                painter.release()
            }
        }
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

/// A raw pointer handed to band workers; each worker writes only its own rows.
struct SendablePointer: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
}

/// A rectangle of premultiplied RGBA8 pixels: columns x0 ..< x0+width, rows y0 ..< y0+rows of the frame's
/// coordinate space (which may extend beyond the frame, for the content that casts a shadow into it).
struct Canvas {
    let pixels: UnsafeMutablePointer<UInt8>
    let x0: Int
    let y0: Int
    let width: Int
    let rows: Int
    /// Pixels from one row to the next (the width, except for a view into a wider canvas).
    let stride: Int

    init(pixels: UnsafeMutablePointer<UInt8>, x0: Int, y0: Int, width: Int, rows: Int, stride: Int? = nil) {
        self.pixels = pixels
        self.x0 = x0
        self.y0 = y0
        self.width = width
        self.rows = rows
        self.stride = stride ?? width
    }

    var y1: Int { y0 + rows }
    var x1: Int { x0 + width }

    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { pixels + (y - y0) * stride * 4 }

    /// The same pixels, columns x0 ..< x1 and rows y0 ..< y1 only (inside this canvas).
    func view(x0: Int, y0: Int, x1: Int, y1: Int) -> Canvas {
        Canvas(pixels: row(y0) + (x0 - self.x0) * 4, x0: x0, y0: y0, width: x1 - x0, rows: y1 - y0, stride: stride)
    }
}

/// A shape ready to draw: flattened edges in device space, bounds, paint and fill rule.
final class PreparedShape: @unchecked Sendable {
    /// Rows per edge bucket: a canvas (a band, usually 32 rows) visits only the buckets it overlaps
    /// instead of every edge of a tall shape.
    static let bucketRows = 32

    let edges: [Edge]
    /// For shapes with many edges over several buckets: the edges touching each bucket of
    /// `bucketRows` rows, from bucket `firstBucket` on. Empty otherwise.
    let buckets: [[Edge]]
    let firstBucket: Int
    let paint: PreparedPaint
    let rule: FillRule
    let minX: Double, maxX: Double
    let minY: Double, maxY: Double

    init?(path: Path, paint: PreparedPaint, rule: FillRule, tolerance: Double) {
        var edges = path.flattenedEdges(tolerance: tolerance)
        if !EdgeClipping.inside(edges) {
            // Huge or overflowed coordinates (a stroke outline of a path through ±1e308 is NaN): a shape
            // that cannot be placed draws nothing rather than trapping on a conversion.
            guard let clipped = EdgeClipping.clip(edges) else { return nil }
            edges = clipped
        }
        guard !edges.isEmpty else { return nil }
        var x0 = Double.infinity, x1 = -Double.infinity, y0 = Double.infinity, y1 = -Double.infinity
        for e in edges {
            x0 = min(x0, e.x0, e.x1)
            x1 = max(x1, e.x0, e.x1)
            y0 = min(y0, e.y0, e.y1)
            y1 = max(y1, e.y0, e.y1)
        }
        self.edges = edges
        // A large opaque gradient gets its dithered colours packed once (see GradientShader.packed).
        if case .gradient(let g) = paint, g.opaque, (x1 - x0) * (y1 - y0) > Double(GradientShader.packedTableWorth) {
            self.paint = .gradient(g.withPackedTable())
        } else {
            self.paint = paint
        }
        self.rule = rule
        self.minX = x0
        self.maxX = x1
        self.minY = y0
        self.maxY = y1
        let rows = Double(Self.bucketRows)
        let first = Int((max(y0, -1e9) / rows).rounded(.down)), last = Int((min(y1, 1e9) / rows).rounded(.down))
        if edges.count > 64 && last - first >= 2 && last - first < 100_000 {
            var buckets = [[Edge]](repeating: [], count: last - first + 1)
            for e in edges {
                let a = Int((max(min(e.y0, e.y1), -1e9) / rows).rounded(.down)) - first
                let b = Int((min(max(e.y0, e.y1), 1e9) / rows).rounded(.down)) - first
                for k in max(a, 0)...min(b, buckets.count - 1) { buckets[k].append(e) }
            }
            self.buckets = buckets
            self.firstBucket = first
        } else {
            self.buckets = []
            self.firstBucket = 0
        }
    }
}

/// The display list as a tree: shapes and groups holding their content (and mask) nodes.
struct DrawTree: @unchecked Sendable {
    indirect enum Node {
        case shape(PreparedShape)
        case group(PreparedGroup)
    }

    struct PreparedGroup {
        let opacity: Float
        /// Per-channel factors on the premultiplied picture, or nil.
        let tint: SIMD4<Float>?
        let clip: PreparedShape?
        /// True when the clip path covers nothing: the group draws nothing.
        let clippedAway: Bool
        let shadow: PreparedShadow?
        var content: [Node]
        var mask: [Node]?
        /// Extra rows and columns of content needed around a canvas to draw this group's shadows.
        var reach: Int
        /// Device pixels the group can paint (its content's, widened by its shadow), as whole pixels
        /// x0 ..< x1, y0 ..< y1: offscreen work is limited to them.
        var bounds: (x0: Int, y0: Int, x1: Int, y1: Int) = (Int.min / 4, Int.min / 4, Int.max / 4, Int.max / 4)
    }

    struct PreparedShadow {
        let color: SIMD4<Float>
        let offset: Point
        let sigma: Double
        let kernel: [Float]
        /// Rows/columns of content around the canvas that reach it through blur and offset.
        let margin: Int
    }

    var nodes: [Node] = []

    init(_ commands: [DisplayList.Command], tolerance: Double, threads: Int = 1) throws(RasterError) {
        // Flatten every fill's path first, in parallel: it is most of the preparation.
        var fillIndices: [Int] = []
        for (i, c) in commands.enumerated() {
            switch c {
            case .fill(let path, _, let opacity, _):
                guard path.isFinite else { throw .nonFinitePath(commandIndex: i) }
                if opacity > 0 { fillIndices.append(i) }
            case .stroke(let path, let style, let transform, _, let opacity):
                guard path.isFinite, transform.isFinite, style.lineWidth.isFinite else { throw .nonFinitePath(commandIndex: i) }
                if opacity > 0 && style.lineWidth > 0 { fillIndices.append(i) }
            default:
                break
            }
        }
        let fills = fillIndices
        let prepared = UnsafeMutableBufferPointer<PreparedShape?>.allocate(capacity: fills.count)
        prepared.initialize(repeating: nil)
        defer {
            prepared.deinitialize()
            prepared.deallocate()
        }
        let slots = SendableShapes(base: prepared.baseAddress!)
        let chunks = min(max(1, threads), max(1, fills.count))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            // Strokes of the same path and style in a row (a replicator's instances, repeated icons) share
            // one outline: only its transform to the device differs. Exact: the outline is a function of
            // these three values alone.
            var last: (path: Path, style: StrokeStyle, tolerance: Double, outline: Path)?
            var k = chunk
            while k < fills.count {
                switch commands[fills[k]] {
                case .fill(let path, let paint, let opacity, let rule):
                    if let p = PreparedPaint(paint, opacity: min(opacity, 1)) {
                        slots.base[k] = PreparedShape(path: path, paint: p, rule: rule, tolerance: tolerance)
                    }
                case .stroke(let path, let style, let transform, let paint, let opacity):
                    if let p = PreparedPaint(paint, opacity: min(opacity, 1)) {
                        // The flattening tolerance in the path's own units, rounded down to a step of
                        // 2^(1/8): instances that differ only by a rotation then ask for the same outline
                        // (their scale factors differ in the last bits), at most 9 % finer than asked.
                        let t = exp2((log2(tolerance / max(transform.maxScale, 1e-9)) * 8).rounded(.down) / 8)
                        let outline: Path
                        if let m = last, m.tolerance == t, m.style == style, m.path == path {
                            outline = m.outline
                        } else {
                            outline = Stroker.outline(path, style: style, tolerance: t)
                            last = (path, style, t, outline)
                        }
                        slots.base[k] = PreparedShape(
                            path: outline.applying(transform), paint: p, rule: .nonZero, tolerance: tolerance)
                    }
                default:
                    break
                }
                k += chunks
            }
        }
        var shapes: [Int: PreparedShape] = [:]
        for (k, i) in fills.enumerated() { if let s = prepared[k] { shapes[i] = s } }
        var index = 0
        nodes = try Self.parse(commands, &index, shapes: shapes, tolerance: tolerance, depth: 0)
        if index != commands.count { throw .unbalancedGroups(commandIndex: index) }
    }

    /// Parses until `endGroup`/`beginMask` (left unconsumed) or the end.
    static func parse(
        _ commands: [DisplayList.Command], _ index: inout Int, shapes: [Int: PreparedShape], tolerance: Double, depth: Int
    ) throws(RasterError)
        -> [Node]
    {
        var out: [Node] = []
        while index < commands.count {
            let i = index
            switch commands[i] {
            case .fill, .stroke:
                index += 1
                if let shape = shapes[i] { out.append(.shape(shape)) }
            case .beginGroup(let g):
                index += 1
                let content = try parse(commands, &index, shapes: shapes, tolerance: tolerance, depth: depth + 1)
                var mask: [Node]?
                if g.hasMask {
                    guard index < commands.count, case .beginMask = commands[index] else {
                        throw .unbalancedGroups(commandIndex: index)
                    }
                    index += 1
                    mask = try parse(commands, &index, shapes: shapes, tolerance: tolerance, depth: depth + 1)
                }
                guard index < commands.count, case .endGroup = commands[index] else {
                    throw .unbalancedGroups(commandIndex: index)
                }
                index += 1
                if let clip = g.clip, !clip.isFinite { throw .nonFinitePath(commandIndex: i) }
                let clip = g.clip.flatMap { PreparedShape(path: $0, paint: .solid(.zero), rule: .nonZero, tolerance: tolerance) }
                let shadow = g.shadow.flatMap(Self.prepare)
                let innerReach = (content + (mask ?? [])).map(\.reach).max() ?? 0
                let group = PreparedGroup(
                    opacity: Float(min(max(g.opacity, 0), 1)),
                    tint: g.tint.map { t in
                        let a = Float(Color.unit(t.alpha))
                        return SIMD4(
                            Float(Color.unit(t.red)) * a, Float(Color.unit(t.green)) * a, Float(Color.unit(t.blue)) * a, a)
                    }, clip: clip, clippedAway: g.clip != nil && clip == nil,
                    shadow: shadow, content: content, mask: mask, reach: innerReach + (shadow?.margin ?? 0))
                var bounded = group
                bounded.bounds = Self.bounds(of: content, shadow: shadow)
                if group.opacity > 0 && !group.clippedAway && !content.isEmpty { out.append(.group(bounded)) }
            case .beginMask, .endGroup:
                if depth == 0 { throw .unbalancedGroups(commandIndex: i) }
                return out
            }
        }
        return out
    }

    static func prepare(_ s: Shadow) -> PreparedShadow? {
        let p = s.color.premultiplied()
        guard p.a > 0, s.offset.isFinite, s.sigma.isFinite else { return nil }
        // Capped: a blur's reach is content the painter must hold around every band (3σ each side), so
        // an unbounded σ is unbounded memory (σ = 1e6 asked for 225 TB). Documented with the limits.
        let sigma = min(max(s.sigma, 0), maximumShadowSigma)
        let kernel = gaussianKernel(sigma: sigma)
        let offset = max(abs(s.offset.x), abs(s.offset.y))
        // A coarse shadow (BandPainter.coarseShadowSigma) also reads whole cells and bilinear neighbours.
        let coarse = sigma >= BandPainter.coarseShadowSigma ? 3 * BandPainter.coarseFactor(sigma: sigma) : 0
        let margin = kernel.count / 2 + Int(min(offset, 4096).rounded(.up)) + 2 + coarse
        return PreparedShadow(color: SIMD4(p.r, p.g, p.b, p.a), offset: s.offset, sigma: sigma, kernel: kernel, margin: margin)
    }
}

extension DrawTree {
    /// The pixels nodes can touch, widened by a shadow's offset and reach; one pixel of slack each side.
    static func bounds(of nodes: [Node], shadow: PreparedShadow?) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        var x0 = Int.max / 4, y0 = Int.max / 4, x1 = Int.min / 4, y1 = Int.min / 4
        for node in nodes {
            switch node {
            case .shape(let s):
                guard s.minX.isFinite, s.maxX.isFinite, s.minY.isFinite, s.maxY.isFinite else {
                    return (Int.min / 4, Int.min / 4, Int.max / 4, Int.max / 4)
                }
                x0 = min(x0, Int(max(s.minX, -1e9).rounded(.down)) - 1)
                y0 = min(y0, Int(max(s.minY, -1e9).rounded(.down)) - 1)
                x1 = max(x1, Int(min(s.maxX, 1e9).rounded(.up)) + 1)
                y1 = max(y1, Int(min(s.maxY, 1e9).rounded(.up)) + 1)
            case .group(let g):
                x0 = min(x0, g.bounds.x0)
                y0 = min(y0, g.bounds.y0)
                x1 = max(x1, g.bounds.x1)
                y1 = max(y1, g.bounds.y1)
            }
        }
        guard x0 < x1, y0 < y1 else { return (0, 0, 0, 0) }
        if let shadow {
            let m = shadow.margin
            let dx = Int(shadow.offset.x.rounded(.down)), dy = Int(shadow.offset.y.rounded(.down))
            x0 = min(x0, x0 + dx - m)
            y0 = min(y0, y0 + dy - m)
            x1 = max(x1, x1 + dx + 1 + m)
            y1 = max(y1, y1 + dy + 1 + m)
        }
        return (x0, y0, x1, y1)
    }
}

extension DrawTree.Node {
    /// The frame rows the node can paint (an empty range: none), or nil when unbounded.
    var rows: Range<Int>? {
        switch self {
        case .shape(let s):
            guard s.minY.isFinite, s.maxY.isFinite else { return nil }
            let lo = Int(min(max(s.minY, -1e9), 1e9).rounded(.down)), hi = Int(max(min(s.maxY, 1e9), -1e9).rounded(.up))
            return lo..<max(lo, hi)
        case .group(let g):
            return g.bounds.y0..<max(g.bounds.y0, g.bounds.y1)
        }
    }

    var reach: Int {
        switch self {
        case .shape: return 0
        case .group(let g): return g.reach
        }
    }
}

/// The largest shadow blur drawn, as a Gaussian's σ in device pixels; larger ones are drawn at it.
public let maximumShadowSigma = 256.0

/// A normalised Gaussian of standard deviation `sigma`, sampled by the exact integral of the density
/// over each pixel (so small sigmas keep their shape), out to 3σ.
func gaussianKernel(sigma: Double) -> [Float] {
    guard sigma > 0.05 else { return [1] }
    let radius = Int((3 * sigma).rounded(.up))
    func cdf(_ x: Double) -> Double { 0.5 * (1 + erf(x / (sigma * 2.0.squareRoot()))) }
    var k = (-radius...radius).map { i in cdf(Double(i) + 0.5) - cdf(Double(i) - 0.5) }
    let sum = k.reduce(0, +)
    k = k.map { $0 / sum }
    return k.map(Float.init)
}

/// The preparation slots, each written by exactly one worker.
struct SendableShapes: @unchecked Sendable {
    let base: UnsafeMutablePointer<PreparedShape?>
}
