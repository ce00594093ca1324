/// SVG geometry held to a square of ±10⁹ user units, as a scene's paths are: a path that reaches past it
/// (`M -1e308 -1e308 L 1e308 1e308 …`, or relative moves that add up to infinity) is clipped to the
/// square at import, so that the transforms, bounding boxes and strokes computed from it later stay
/// finite instead of overflowing to infinity where the rasterizer can only refuse the frame.
import ReelGeometry

enum SVGBounds {
    /// Half the side of the square, in user units: the limit a scene's path coordinates have
    /// (`Scene.maximumCoordinate`). A viewBox or transform would have to shrink the drawing 10⁵ times
    /// before the clipped edges came within a 16384-pixel canvas.
    static let limit = 1e9

    /// What bounding a path did.
    enum Outcome {
        /// Every coordinate was inside the square: the path as it was.
        case unchanged(Path)
        /// Clipped to the square (its out-of-square subpaths flattened first).
        case clipped(Path)
        /// A coordinate is NaN: nothing sensible to draw.
        case notANumber
    }

    /// The path with every point inside the square. Subpaths wholly inside are kept as they are,
    /// curves and all; one that leaves it is flattened and cut against each side in turn, the parts
    /// outside moved onto that side (Sutherland–Hodgman, keeping the points it would drop projected).
    /// A loop made of an outside part and its projection lies outside the square, so what a fill
    /// covers inside it is unchanged, and so is a stroke away from the square's edge. An infinite
    /// coordinate (relative moves that overflowed) counts as the largest finite one.
    static func bounded(_ path: Path) -> Outcome {
        var inside = true
        for element in path.elements {
            for p in points(of: element) {
                if p.x.isNaN || p.y.isNaN { return .notANumber }
                if !(abs(p.x) <= limit && abs(p.y) <= limit) { inside = false }
            }
        }
        if inside { return .unchanged(path) }
        var saturated = Path()
        for element in path.elements {
            switch element {
            case .move(let p): saturated.add(.move(saturate(p)))
            case .line(let p): saturated.add(.line(saturate(p)))
            case .quad(let c, let p): saturated.add(.quad(saturate(c), saturate(p)))
            case .cubic(let c1, let c2, let p): saturated.add(.cubic(saturate(c1), saturate(c2), saturate(p)))
            case .close: saturated.add(.close)
            }
        }
        var out = Path()
        for subpath in subpaths(of: saturated) {
            if subpath.elements.allSatisfy({ points(of: $0).allSatisfy { abs($0.x) <= limit && abs($0.y) <= limit } }) {
                for e in subpath.elements { out.add(e) }
                continue
            }
            // A tolerance of a thousandth of a user unit: curves this far out are cut into at most
            // 10,000 pieces each (Flattening's cap) whatever it is.
            for line in subpath.polylines(tolerance: 1e-3) {
                var points = line.points
                for side in Side.allCases { points = clip(points, closed: line.closed, to: side) }
                guard let first = points.first else { continue }
                out.move(to: first)
                for p in points.dropFirst() { out.addLine(to: p) }
                if line.closed { out.closeSubpath() }
            }
        }
        return .clipped(out)
    }

    static func points(of element: Path.Element) -> [Point] {
        switch element {
        case .move(let p), .line(let p): return [p]
        case .quad(let c, let p): return [c, p]
        case .cubic(let c1, let c2, let p): return [c1, c2, p]
        case .close: return []
        }
    }

    static func saturate(_ p: Point) -> Point {
        let m = Double.greatestFiniteMagnitude
        return Point(x: min(max(p.x, -m), m), y: min(max(p.y, -m), m))
    }

    /// The path's subpaths, each starting with its move (a close ends one; drawing after it starts
    /// the next at the same point, as SVG does).
    static func subpaths(of path: Path) -> [Path] {
        var out: [Path] = []
        var current = Path()
        var start: Point?
        for element in path.elements {
            switch element {
            case .move(let p):
                if !current.isEmpty { out.append(current) }
                current = Path()
                current.move(to: p)
                start = p
            case .close:
                current.add(.close)
                out.append(current)
                current = Path()
                if let start { current.move(to: start) }
            default:
                if current.isEmpty, let start { current.move(to: start) }
                current.add(element)
            }
        }
        if current.elements.count > 1 { out.append(current) }
        return out
    }

    enum Side: CaseIterable {
        case left, right, top, bottom
    }

    /// `points` cut against one side of the square: points beyond it moved onto it, and where an edge
    /// crosses it the crossing added, so the path follows the side while it is out.
    static func clip(_ points: [Point], closed: Bool, to side: Side) -> [Point] {
        guard !points.isEmpty else { return points }
        let horizontal = side == .left || side == .right
        let bound = side == .left || side == .top ? -limit : limit
        func coordinate(_ p: Point) -> Double { horizontal ? p.x : p.y }
        func isInside(_ p: Point) -> Bool { bound < 0 ? coordinate(p) >= bound : coordinate(p) <= bound }
        func projected(_ p: Point) -> Point { horizontal ? Point(x: bound, y: p.y) : Point(x: p.x, y: bound) }
        func crossing(_ a: Point, _ b: Point) -> Point {
            // From the line's equation dx·y − dy·x = k rather than a parameter along the edge: between
            // points near ±1e308, a + t·(b − a) loses everything near the square (y = x through
            // (−1e308, −1e308) came out 1e9 off), while k, with the direction scaled by a power of two
            // and the products fused, cancels exactly for such lines. Halves keep every term finite.
            var dx = b.x / 2 - a.x / 2, dy = b.y / 2 - a.y / 2
            let scale = Double(sign: .plus, exponent: -(max(abs(dx), abs(dy)).exponent + 1), significand: 1)
            dx *= scale
            dy *= scale
            let k = difference(dx, a.y / 2, dy, a.x / 2)  // half of k: |dx|, |dy| < 1
            let (along, across) = horizontal ? (dx, dy) : (-dy, -dx)
            let other = 2 * ((k + across * bound / 2) / along)
            let low = horizontal ? min(a.y, b.y) : min(a.x, b.x), high = horizontal ? max(a.y, b.y) : max(a.x, b.x)
            let clamped = min(max(other, low), high)
            return horizontal ? Point(x: bound, y: clamped) : Point(x: clamped, y: bound)
        }
        var out: [Point] = []
        out.reserveCapacity(points.count + 2)
        func add(_ p: Point) { if out.last != p { out.append(p) } }
        for (i, p) in points.enumerated() {
            if i > 0, isInside(points[i - 1]) != isInside(p) { add(crossing(points[i - 1], p)) }
            add(isInside(p) ? p : projected(p))
        }
        if closed, let last = points.last, let first = points.first, isInside(last) != isInside(first) {
            add(crossing(last, first))
        }
        return out
    }
}

/// a·b − c·d with one rounding (Kahan's algorithm with fused products): the two products of a line's
/// equation cancel without leaving their rounding errors behind.
private func difference(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
    let w = c * d
    let e = w.addingProduct(-c, d)  // w − c·d, exactly
    let f = (-w).addingProduct(a, b)  // a·b − w, rounded once
    return f + e
}

extension Importer {
    /// A shape element's path in user units, held to the square (with a warning when it was not).
    mutating func boundedPath(of e: SVGElement, style: SVGStyle) -> Path? {
        guard let path = SVGShapes.path(of: e, viewport: style.viewport, fontSize: style.fontSize) else { return nil }
        switch SVGBounds.bounded(path) {
        case .unchanged(let p):
            return p
        case .clipped(let p):
            warn(e, "<\(e.name)> reaches past ±1e9 user units; it is drawn clipped to that square")
            return p
        case .notANumber:
            warn(e, "<\(e.name)> has a coordinate that is not a number and is left out")
            return nil
        }
    }
}
