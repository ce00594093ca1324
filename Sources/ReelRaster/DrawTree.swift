/// The display list parsed into a tree of shapes and groups (clips, masks, tints, shadows).
import Foundation
import ReelGeometry
import Synchronization

/// The display list as a tree: shapes and groups holding their content (and mask) nodes.
///
/// The fills' shapes belong to the preparation's slots, which the tree keeps alive, not to the nodes:
/// each worker of a frame then frees the shapes it made itself (`Preparation.release`), into its own
/// allocator's arena. Freed through the nodes, by workers taking every other node, a frame of 2,300
/// glyphs on two threads spent ~200 µs (7 % of it) freeing them, twice as long when the nodes were
/// dealt in runs of 16 (more of them another thread's), and 62–81 µs a worker now (measured).
struct DrawTree: @unchecked Sendable {
    enum Node {
        /// A fill's or stroke's shape, held by the tree's preparation (see above). Not boxed: with the
        /// whole enum `indirect`, every shape's node was an allocation of its own (a third of the
        /// allocations of a frame of glyphs, and a pointer more to follow for each node a band draws).
        case shape(Unmanaged<PreparedShape>)
        /// Boxed, as a group holds nodes.
        indirect case group(PreparedGroup)
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
        /// Applied to the content in order (`BandPainter.applyFilters`).
        var filters: [PreparedFilter] = []
        /// The content around a canvas the filters read: their margins added.
        var filterMargin = 0
        /// With an SVG filter among `filters`: the pixels all of them are applied over, once a frame
        /// (`BandPainter.filteredPicture`), and the picture they give.
        var evaluated: EvaluatedFilters?
        /// Background filters (`BandPainter.drawBackdrop`): what is drawn before the group at its level,
        /// filtered and shown within the clip. Nil without background filters.
        var backdrop: Backdrop?
        /// Extra rows and columns of content needed around a canvas to draw this group's shadows.
        var reach: Int
        /// Device pixels the group can paint (its content's, widened by its shadow), as whole pixels
        /// x0 ..< x1, y0 ..< y1: offscreen work is limited to them.
        var bounds: (x0: Int, y0: Int, x1: Int, y1: Int) = (Int.min / 4, Int.min / 4, Int.max / 4, Int.max / 4)
    }

    /// A group's filters run once over `area` (whole pixels) for every band: an SVG filter's primitives
    /// may read any pixel of its region (an offset, a tile, a flood), so no band's margin would do.
    final class EvaluatedFilters: Sendable {
        let area: (x0: Int, y0: Int, x1: Int, y1: Int)
        /// The first band to need the picture makes it; the others wait for it.
        let picture = Mutex<FilterPixels?>(nil)

        init(area: (x0: Int, y0: Int, x1: Int, y1: Int)) { self.area = area }
    }

    struct Backdrop {
        /// The nodes drawn before the group at its level, in order.
        let nodes: [Node]
        /// The colour below them: the bands' background at the top level, else transparent.
        let background: UInt32?
        let filters: [PreparedFilter]
        /// The content around the clip the filters read.
        let margin: Int
        let clip: PreparedShape
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
    /// The owner of the shapes in `nodes`.
    let preparation: Preparation

    /// The tree of the shapes `preparation` made: `parse` over its commands.
    init(_ preparation: Preparation) throws(RasterError) {
        self.preparation = preparation
        var index = 0, fill = 0
        var filterPixels = 0
        nodes = try Self.parse(
            preparation.commands, &index, shapes: preparation.slots, fill: &fill, tolerance: preparation.tolerance, depth: 0,
            background: preparation.background, filterPixels: &filterPixels)
        if index != preparation.commands.count { throw .unbalancedGroups(commandIndex: index) }
    }

    /// Parses until `endGroup`/`beginMask` (left unconsumed) or the end. `fill` counts the fills and
    /// strokes passed: the next one's shape is in `shapes.base[fill]`, referred to without a retain (on
    /// two threads the parse of 2,300 glyphs took ~57 µs so, ~85 moving each shape into its node: it
    /// runs while the other worker waits).
    static func parse(
        _ commands: [DisplayList.Command], _ index: inout Int, shapes: SendableShapes, fill: inout Int, tolerance: Double,
        depth: Int, background: UInt32? = nil, filterPixels: inout Int
    ) throws(RasterError)
        -> [Node]
    {
        var out: [Node] = []
        while index < commands.count {
            let i = index
            switch commands[i] {
            case .fill, .stroke:
                index += 1
                if let shape = shapes.base[fill] { out.append(.shape(shape)) }
                fill += 1
            case .beginGroup(let g):
                index += 1
                let content = try parse(
                    commands, &index, shapes: shapes, fill: &fill, tolerance: tolerance, depth: depth + 1,
                    filterPixels: &filterPixels)
                var mask: [Node]?
                if g.hasMask {
                    guard index < commands.count, case .beginMask = commands[index] else {
                        throw .unbalancedGroups(commandIndex: index)
                    }
                    index += 1
                    mask = try parse(
                        commands, &index, shapes: shapes, fill: &fill, tolerance: tolerance, depth: depth + 1,
                        filterPixels: &filterPixels)
                }
                guard index < commands.count, case .endGroup = commands[index] else {
                    throw .unbalancedGroups(commandIndex: index)
                }
                index += 1
                if let clip = g.clip, !clip.isFinite { throw .nonFinitePath(commandIndex: i) }
                let clip = g.clip.flatMap { PreparedShape(path: $0, paint: .solid(.zero), rule: .nonZero, tolerance: tolerance) }
                let shadow = g.shadow.flatMap(Self.prepare)
                let filters = Self.prepare(g.filters)
                var filterMargin = filters.reduce(0) { $0 + $1.margin }
                let plans = filters.compactMap { f -> EffectPlan? in
                    if case .effect(let plan) = f { return plan }
                    return nil
                }
                let effectsAsked = g.filters.count { if case .effect = $0 { true } else { false } }
                // An SVG filter whose region holds no pixel draws nothing (resvg: an invalid region).
                if plans.count != effectsAsked { continue }
                var evaluated: EvaluatedFilters?
                if let first = plans.first {
                    // All the filters over the effects' regions and what the others spread around them.
                    let m = filterMargin
                    let a = plans.dropFirst().reduce((first.x0, first.y0, first.x1, first.y1)) {
                        (min($0.0, $1.x0), min($0.1, $1.y0), max($0.2, $1.x1), max($0.3, $1.y1))
                    }
                    evaluated = EvaluatedFilters(area: (a.0 - m, a.1 - m, a.2 + m, a.3 + m))
                    filterMargin = 0
                    // Each filtered group's picture is held for the frame: their pixels together are
                    // bounded (each region already is, to the frame and half its size around).
                    let (w, h) = (a.2 - a.0 + 2 * m, a.3 - a.1 + 2 * m)
                    filterPixels += w * h
                    if filterPixels > maximumFilterPixels { throw .filterPixels(limit: maximumFilterPixels) }
                }
                var backdrop: Backdrop?
                if let path = g.backdropClip, !g.backdropFilters.isEmpty {
                    if !path.isFinite { throw .nonFinitePath(commandIndex: i) }
                    let filters = Self.prepare(g.backdropFilters)
                    if !filters.isEmpty,
                        let clip = PreparedShape(path: path, paint: .solid(.zero), rule: .nonZero, tolerance: tolerance)
                    {
                        backdrop = Backdrop(
                            nodes: out, background: depth == 0 ? background : nil, filters: filters,
                            margin: filters.reduce(0) { $0 + $1.margin }, clip: clip)
                    }
                }
                // Evaluated filters paint the content over their whole area: it needs no reach around a band.
                let innerReach = evaluated != nil ? 0 : (content + (mask ?? [])).map(\.reach).max() ?? 0
                let group = PreparedGroup(
                    opacity: Float(min(max(g.opacity, 0), 1)),
                    tint: g.tint.map { t in
                        let a = Float(Color.unit(t.alpha))
                        return SIMD4(
                            Float(Color.unit(t.red)) * a, Float(Color.unit(t.green)) * a, Float(Color.unit(t.blue)) * a, a)
                    }, clip: clip, clippedAway: g.clip != nil && clip == nil,
                    shadow: shadow, content: content, mask: mask,
                    reach: max(
                        innerReach + filterMargin + (shadow?.margin ?? 0),
                        backdrop.map { $0.margin + innerBackdropReach(out) } ?? 0))
                var bounded = group
                bounded.maskByLuminance = g.maskByLuminance
                bounded.maskInverted = g.maskInverted
                bounded.blendMode = g.blendMode
                bounded.filters = filters
                bounded.filterMargin = filterMargin
                bounded.bounds = Self.bounds(of: content, filterMargin: filterMargin, shadow: shadow)
                if let evaluated {
                    bounded.evaluated = evaluated
                    // The filters' output lies in their area; a shadow spreads it.
                    let a = evaluated.area, m = shadow?.margin ?? 0
                    bounded.bounds = (a.x0 - m, a.y0 - m, a.x1 + m, a.y1 + m)
                }
                if let backdrop {
                    bounded.backdrop = backdrop
                    bounded.bounds = Self.union(bounded.bounds, Self.bounds(of: backdrop.clip))
                }
                if group.opacity > 0 && !group.clippedAway && (!content.isEmpty || backdrop != nil || evaluated != nil) {
                    out.append(.group(bounded))
                }
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
    /// The reach of the nodes a backdrop paints again around its clip.
    static func innerBackdropReach(_ nodes: [Node]) -> Int { nodes.map(\.reach).max() ?? 0 }

    /// The pixels a shape can touch, one of slack each side.
    static func bounds(of s: PreparedShape) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        guard s.minX.isFinite, s.maxX.isFinite, s.minY.isFinite, s.maxY.isFinite else {
            return (Int.min / 4, Int.min / 4, Int.max / 4, Int.max / 4)
        }
        return (
            Int(max(s.minX, -1e9).rounded(.down)) - 1, Int(max(s.minY, -1e9).rounded(.down)) - 1,
            Int(min(s.maxX, 1e9).rounded(.up)) + 1, Int(min(s.maxY, 1e9).rounded(.up)) + 1
        )
    }

    static func union(
        _ a: (x0: Int, y0: Int, x1: Int, y1: Int), _ b: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        if a.x0 >= a.x1 || a.y0 >= a.y1 { return b }
        if b.x0 >= b.x1 || b.y0 >= b.y1 { return a }
        return (min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1))
    }

    /// The pixels nodes can touch, widened by the filters' blur, then by a shadow's offset and reach; one
    /// pixel of slack each side.
    static func bounds(of nodes: [Node], filterMargin: Int = 0, shadow: PreparedShadow?) -> (
        x0: Int, y0: Int, x1: Int, y1: Int
    ) {
        var x0 = Int.max / 4, y0 = Int.max / 4, x1 = Int.min / 4, y1 = Int.min / 4
        for node in nodes {
            switch node {
            case .shape(let ref):
                let b = bounds(of: ref.takeUnretainedValue())
                if b == (Int.min / 4, Int.min / 4, Int.max / 4, Int.max / 4) { return b }
                x0 = min(x0, b.x0)
                y0 = min(y0, b.y0)
                x1 = max(x1, b.x1)
                y1 = max(y1, b.y1)
            case .group(let g):
                x0 = min(x0, g.bounds.x0)
                y0 = min(y0, g.bounds.y0)
                x1 = max(x1, g.bounds.x1)
                y1 = max(y1, g.bounds.y1)
            }
        }
        guard x0 < x1, y0 < y1 else { return (0, 0, 0, 0) }
        x0 -= filterMargin
        y0 -= filterMargin
        x1 += filterMargin
        y1 += filterMargin
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
        case .shape(let ref):
            let s = ref.takeUnretainedValue()
            guard s.minY.isFinite, s.maxY.isFinite else { return nil }
            // Within ±1e9, in `floor`'s range: without its call a rounding each (no SSE4.1).
            let lo = CoverageScratch.floor(min(max(s.minY, -1e9), 1e9))
            let hi = CoverageScratch.ceil(max(min(s.maxY, 1e9), -1e9))
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
