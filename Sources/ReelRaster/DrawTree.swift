/// The display list parsed into a tree of shapes and groups (clips, masks, tints, shadows), its fills
/// prepared in parallel.
import Dispatch
import Foundation
import ReelGeometry

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
        /// The mask's luminance × alpha multiplies the group, not its alpha.
        var maskByLuminance = false
        var maskInverted = false
        var blendMode = BlendMode.normal
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

    init(_ commands: [DisplayList.Command], tolerance: Double, threads: Int = 1, ramps: RampCache? = nil) throws(RasterError) {
        // Flatten every fill's path first, in parallel: it is most of the preparation. Paths are checked
        // there too (a walk over every element); the first bad one in drawing order is reported.
        var fillIndices: [Int] = []
        for (i, c) in commands.enumerated() {
            switch c {
            case .fill, .stroke: fillIndices.append(i)
            default: break
            }
        }
        let fills = fillIndices
        let prepared = UnsafeMutableBufferPointer<PreparedShape?>.allocate(capacity: fills.count)
        prepared.initialize(repeating: nil)
        let finite = UnsafeMutableBufferPointer<Bool>.allocate(capacity: fills.count)
        finite.initialize(repeating: true)
        defer {
            prepared.deinitialize()
            prepared.deallocate()
            finite.deallocate()
        }
        let slots = SendableShapes(base: prepared.baseAddress!, finite: finite.baseAddress!)
        let chunks = min(max(1, threads), max(1, fills.count))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            // Strokes of the same path and style in a row (a replicator's instances, repeated icons) share
            // one outline: only its transform to the device differs. Exact: the outline is a function of
            // these three values alone.
            var last: (path: Path, style: StrokeStyle, tolerance: Double, outline: StrokeOutline)?
            var k = chunk
            while k < fills.count {
                switch commands[fills[k]] {
                case .fill(let path, let paint, let opacity, let rule):
                    guard path.isFinite else {
                        slots.finite[k] = false
                        break
                    }
                    if opacity > 0, let p = PreparedPaint(paint, opacity: min(opacity, 1), ramps: ramps) {
                        slots.base[k] = PreparedShape(path: path, paint: p, rule: rule, tolerance: tolerance)
                    }
                case .stroke(let path, let style, let transform, let paint, let opacity):
                    guard path.isFinite, transform.isFinite, style.lineWidth.isFinite else {
                        slots.finite[k] = false
                        break
                    }
                    if opacity > 0, style.lineWidth > 0, let p = PreparedPaint(paint, opacity: min(opacity, 1), ramps: ramps) {
                        // The flattening tolerance in the path's own units, rounded down to a step of
                        // 2^(1/8): instances that differ only by a rotation then ask for the same outline
                        // (their scale factors differ in the last bits), at most 9 % finer than asked.
                        let t = exp2((log2(tolerance / max(transform.maxScale, 1e-9)) * 8).rounded(.down) / 8)
                        let outline: StrokeOutline
                        if let m = last, m.tolerance == t, m.style == style, m.path == path {
                            outline = m.outline
                        } else {
                            outline = Stroker.polygons(path, style: style, tolerance: t)
                            last = (path, style, t, outline)
                        }
                        // The polygons' edges placed on the device directly: the same edges as the
                        // outline's path transformed and flattened.
                        slots.base[k] = PreparedShape(edges: outline.edges(transform), paint: p, rule: .nonZero)
                    }
                default:
                    break
                }
                k += chunks
            }
        }
        if let k = finite.firstIndex(of: false) { throw .nonFinitePath(commandIndex: fills[k]) }
        // Each command's prepared shape, by command index.
        var shapes = [PreparedShape?](repeating: nil, count: commands.count)
        for (k, i) in fills.enumerated() { shapes[i] = prepared[k] }
        var index = 0
        nodes = try Self.parse(commands, &index, shapes: shapes, tolerance: tolerance, depth: 0)
        if index != commands.count { throw .unbalancedGroups(commandIndex: index) }
    }

    /// Frees the tree's shapes on `workers` threads at once, leaving the tree empty: a frame of
    /// thousands of small shapes (a page of glyphs) spent a tenth of its two-thread time freeing them
    /// on one thread after its bands were drawn.
    consuming func release(workers: Int) {
        var nodes = self.nodes
        self.nodes = []
        let count = nodes.count
        guard workers > 1, count > 256 else { return }
        let slots = UnsafeMutablePointer<Node>.allocate(capacity: count)
        for (i, node) in nodes.enumerated() { (slots + i).initialize(to: node) }
        nodes = []
        let held = SendableNodes(base: slots)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var i = w
            while i < count {
                (held.base + i).deinitialize(count: 1)
                i += workers
            }
        }
        slots.deallocate()
    }

    /// Parses until `endGroup`/`beginMask` (left unconsumed) or the end.
    static func parse(
        _ commands: [DisplayList.Command], _ index: inout Int, shapes: [PreparedShape?], tolerance: Double, depth: Int
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
                bounded.maskByLuminance = g.maskByLuminance
                bounded.maskInverted = g.maskInverted
                bounded.blendMode = g.blendMode
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

/// Nodes being freed, each slot by exactly one worker.
struct SendableNodes: @unchecked Sendable {
    let base: UnsafeMutablePointer<DrawTree.Node>
}

/// The preparation slots, each written by exactly one worker.
struct SendableShapes: @unchecked Sendable {
    let base: UnsafeMutablePointer<PreparedShape?>
    /// Per fill: false where its path (or stroke) is not finite.
    let finite: UnsafeMutablePointer<Bool>
}
