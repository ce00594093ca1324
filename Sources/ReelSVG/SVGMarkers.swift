/// SVG markers: where a path's `marker-start`, `marker-mid` and `marker-end` go and which way each
/// turns, and a `marker` element's content drawn there as layers over the shape.
import Foundation
import ReelGeometry
import ReelScene

/// A marker's place on a path: a vertex and the direction `orient="auto"` turns it to, in degrees.
struct MarkerVertex: Equatable {
    var point: Point
    var degrees: Double
}

/// The vertices markers are drawn at, with SVG's directions: a vertex between two segments takes the
/// bisector of the incoming and outgoing tangents; a path's first vertex the outgoing one, its last the
/// incoming one. A curve's tangent at an end whose control point lies on that end is taken towards the
/// other control point (or the other end), as resvg and librsvg do, so `orient` matches theirs.
enum MarkerVertices {
    /// A path as markers see it: quadratics raised to cubics, a segment after a close starting a new
    /// subpath at the closed one's start, repeated closes and movetos kept once, a trailing moveto gone.
    enum Segment: Equatable {
        case move(Point)
        case line(Point)
        case cubic(Point, Point, Point)
        case close
    }

    static func segments(of path: Path) -> [Segment] {
        var out: [Segment] = []
        var start = Point.zero, current = Point.zero
        func begin() {
            if case .close? = out.last { out.append(.move(start)) }
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                if case .move? = out.last { out.removeLast() }
                out.append(.move(p))
                start = p
                current = p
            case .line(let p):
                begin()
                out.append(.line(p))
                current = p
            case .quad(let q, let p):
                begin()
                let c1 = Point(x: (current.x + 2 * q.x) / 3, y: (current.y + 2 * q.y) / 3)
                let c2 = Point(x: (p.x + 2 * q.x) / 3, y: (p.y + 2 * q.y) / 3)
                out.append(.cubic(c1, c2, p))
                current = p
            case .cubic(let c1, let c2, let p):
                begin()
                out.append(.cubic(c1, c2, p))
                current = p
            case .close:
                guard let last = out.last, last != .close else { continue }
                out.append(.close)
                current = start
            }
        }
        if case .move? = out.last { out.removeLast() }
        return out
    }

    /// The start vertex (nil: a path with nothing drawn), the middle ones in order, and the end one.
    static func vertices(of path: Path) -> (start: MarkerVertex?, middle: [MarkerVertex], end: MarkerVertex?) {
        let s = segments(of: path)
        guard s.count > 1, case .move(let first) = s[0] else { return (nil, [], nil) }
        var middle: [MarkerVertex] = []
        for i in 1..<(s.count - 1) {
            guard let p = end(of: s, i), s[i] != .close else { continue }
            middle.append(MarkerVertex(point: p, degrees: angle(s, at: i)))
        }
        let last = s.count - 1
        let end = end(of: s, last).map { MarkerVertex(point: $0, degrees: angle(s, at: last)) }
        return (MarkerVertex(point: first, degrees: angle(s, at: 0)), middle, end)
    }

    /// Where segment `i` ends (a close: at its subpath's start).
    static func end(of s: [Segment], _ i: Int) -> Point? {
        switch s[i] {
        case .move(let p), .line(let p), .cubic(_, _, let p): return p
        case .close: return subpathStart(s, before: i)
        }
    }

    static func subpathStart(_ s: [Segment], before i: Int) -> Point {
        for j in stride(from: i, through: 0, by: -1) { if case .move(let p) = s[j] { return p } }
        return .zero
    }

    static func previousVertex(_ s: [Segment], _ i: Int) -> Point {
        end(of: s, i - 1) ?? .zero
    }

    static func angle(_ s: [Segment], at i: Int) -> Double {
        if i == 0 {
            switch s[1] {
            case .line(let p): return direction(s.vertex0, p)
            case .cubic(let c1, _, let p): return direction(s.vertex0, near(c1, s.vertex0) ? p : c1)
            default: return 0
            }
        }
        let previous = previousVertex(s, i)
        if i == s.count - 1 {
            switch (s[i - 1], s[i]) {
            case (_, .line(let p)): return direction(previous, p)
            case (_, .cubic(let c1, let c2, let p)): return direction(near(c2, p) ? c1 : c2, p)
            case (.line(let p), .close): return direction(p, subpathStart(s, before: i))
            case (.cubic(_, let c2, let p), .close):
                let start = subpathStart(s, before: i)
                return curves(previous: previousVertex(s, i - 1), c2, p, start, start)
            default: return 0
            }
        }
        switch (s[i], s[i + 1]) {
        case (.move(let m), .line(let p)): return direction(m, p)
        case (.move(let m), .cubic(let c1, _, let q)): return direction(m, near(c1, m) ? q : c1)
        case (.line(let p), .line(let q)): return bisector(direction(previous, p), direction(p, q))
        case (.cubic(_, let c2, let p), .cubic(let d1, _, let q)): return curves(previous: previous, c2, p, d1, q)
        case (.line(let p), .cubic(let d1, _, let q)): return curves(previous: previous, previous, p, d1, q)
        case (.cubic(_, let c2, let p), .line(let q)): return curves(previous: previous, c2, p, q, q)
        case (.line(let p), .move): return direction(previous, p)
        case (.cubic(_, let c2, let p), .move): return direction(near(p, c2) ? previous : c2, p)
        case (.line(let p), .close): return bisector(direction(previous, p), direction(p, subpathStart(s, before: i)))
        case (_, .close): return direction(previous, subpathStart(s, before: i))
        default: return 0
        }
    }

    /// The bisector at `p` between a curve coming in (its last control point `c`) and one going out
    /// (its first control point `d`), a control point on `p` replaced by the neighbouring point.
    static func curves(previous: Point, _ c: Point, _ p: Point, _ d: Point, _ next: Point) -> Double {
        if near(c, p) { return bisector(direction(previous, p), direction(p, d)) }
        if near(p, d) { return bisector(direction(c, p), direction(p, next)) }
        return bisector(direction(c, p), direction(p, d))
    }

    /// The direction from `a` to `b` in degrees, 0 ≤ d < 360 (0 for two equal points).
    static func direction(_ a: Point, _ b: Point) -> Double {
        let r = atan2(b.y - a.y, b.x - a.x)
        return r.isNaN ? 0 : normalized(r * 180 / .pi)
    }

    /// The mean of two directions, on the side of the smaller turn.
    static func bisector(_ incoming: Double, _ outgoing: Double) -> Double {
        let half = (outgoing - incoming) / 2
        return normalized(incoming + half - (abs(half) > 90 ? 180 : 0))
    }

    static func normalized(_ degrees: Double) -> Double {
        let d = degrees.truncatingRemainder(dividingBy: 360)
        return d < 0 ? d + 360 : d
    }

    /// Points equal to a few units in the last place (single precision's, as the renderers compared with).
    static func near(_ a: Point, _ b: Point) -> Bool {
        func close(_ x: Double, _ y: Double) -> Bool { abs(x - y) <= 4 * Double(Float(max(abs(x), abs(y))).ulp) }
        return close(a.x, b.x) && close(a.y, b.y)
    }
}

extension [MarkerVertices.Segment] {
    fileprivate var vertex0: Point {
        if case .move(let p)? = first { return p }
        return .zero
    }
}

extension Importer {
    /// The shapes markers are drawn on (resvg's; SVG 2 adds the other basic shapes, which librsvg and
    /// resvg leave bare).
    static let markable: Set<String> = ["path", "line", "polyline", "polygon"]

    /// The markers of a shape `e` whose outline is `path`, as layers in its coordinates, drawn after its
    /// fill and stroke: each `marker` element's content at each of its vertices, scaled by the stroke
    /// width (markerUnits) and its viewBox, turned by `orient`, clipped to its viewport unless
    /// `overflow` shows it.
    mutating func markers(on e: SVGElement, path: Path, style: SVGStyle, name: String) -> [Layer] {
        let references = [("start", style.markerStart), ("mid", style.markerMid), ("end", style.markerEnd)]
        guard references.contains(where: { $0.1 != nil }) else { return [] }
        guard Self.markable.contains(e.name) else {
            warn(e, "markers are drawn on <path>, <line>, <polyline> and <polygon> only; ignored on <\(e.name)>")
            return []
        }
        let vertices = MarkerVertices.vertices(of: path)
        var out: [Layer] = []
        for (kind, reference) in references {
            guard let id = reference else { continue }
            guard let marker = ids[id], marker.name == "marker" else {
                warn(e, "marker-\(kind): url(#\(id)) is not a <marker>; nothing is drawn there")
                continue
            }
            let key = ObjectIdentifier(marker)
            guard !markersExpanding.contains(key) else {
                warn(e, "marker-\(kind): url(#\(id)) is drawn inside itself; left out there")
                continue
            }
            let places: [MarkerVertex]
            switch kind {
            case "start": places = vertices.start.map { [$0] } ?? []
            case "mid": places = vertices.middle
            default: places = vertices.end.map { [$0] } ?? []
            }
            for (n, vertex) in places.enumerated() {
                // Past the elements an import draws, each marker would only be left out again.
                guard drawn <= Self.maximumDrawn else { return out }
                guard markersDrawn < SVGLimits.maximumMarkers else {
                    warn(e, "more than \(SVGLimits.maximumMarkers) markers; the rest are left out")
                    return out
                }
                markersDrawn += 1
                // Inside a marker, a `use` may show what a `use` outside it shows (an arrow drawn with
                // markers of its own): the markers being expanded are what stops the recursion there.
                let uses = expanding
                markersExpanding.append(key)
                expanding = []
                defer {
                    markersExpanding.removeLast()
                    expanding = uses
                }
                let orient = marker.attributes["orient"]?.trimmingCharacters(in: .whitespaces)
                let reversed = kind == "start" && orient == "auto-start-reverse"
                guard
                    let layer = markerLayer(
                        marker, at: vertex, reversed: reversed, for: style,
                        name: unique("\(name)/marker-\(kind)\(places.count > 1 ? "[\(n)]" : "")"))
                else { break }
                out.append(layer)
            }
        }
        return out
    }

    /// One marker at one vertex, or nil when it draws nothing (no area, no stroke width).
    /// `shape` is the marked shape's style: its stroke width scales the marker, and its fill and stroke
    /// are the content's context paint.
    mutating func markerLayer(_ m: SVGElement, at vertex: MarkerVertex, reversed: Bool, for shape: SVGStyle, name: String)
        -> Layer?
    {
        let a = m.attributes
        let scale = a["markerUnits"]?.trimmingCharacters(in: .whitespaces) == "userSpaceOnUse" ? 1 : shape.strokeWidth
        let refX = SVGValues.length(a["refX"]) ?? 0, refY = SVGValues.length(a["refY"]) ?? 0
        let width = SVGValues.length(a["markerWidth"]) ?? 3, height = SVGValues.length(a["markerHeight"]) ?? 3
        guard scale > 0, width > 0, height > 0, [refX, refY, width, height, scale].allSatisfy(\.isFinite) else { return nil }
        let degrees: Double
        switch a["orient"]?.trimmingCharacters(in: .whitespaces) {
        case "auto", "auto-start-reverse": degrees = vertex.degrees + (reversed ? 180 : 0)
        // A bare number is degrees here (SVG's <angle>), unlike in CSS.
        case let text?: degrees = (Double(text) ?? SVGFilterFunctions.angle(text)).flatMap { $0.isFinite ? $0 : nil } ?? 0
        case nil: degrees = 0
        }
        // Content units to the viewport's: the viewBox's scale (its alignment aside, as resvg), else the
        // stroke width's; the clip is the viewBox, else the viewport, in content units.
        var sx = scale, sy = scale
        var clip = Rect(x: 0, y: 0, width: width, height: height)
        if let box = a["viewBox"].flatMap(SVGValues.numbers), box.count == 4, box[2] > 0, box[3] > 0 {
            let fit = Self.fit(
                viewBox: box, into: Size(width: width * scale, height: height * scale), a["preserveAspectRatio"])
            sx = fit.a
            sy = fit.d
            clip = Rect(x: box[0], y: box[1], width: box[2], height: box[3])
        }
        let r = degrees * .pi / 180
        let place = Transform2D.translation(x: -refX, y: -refY)
            .concatenating(.scale(x: sx, y: sy))
            .concatenating(Transform2D(a: cos(r), b: sin(r), c: -sin(r), d: cos(r), tx: 0, ty: 0))
            .concatenating(.translation(x: vertex.point.x, y: vertex.point.y))
        guard place.isFinite else { return nil }
        // The context is set before the marker's own style, which may itself say `fill="context-stroke"`.
        var outer = m.parent.map(styleInPlace) ?? SVGStyle()
        outer.context = shape.asContext
        let style = SVGStyle.computed(for: m, parent: outer, sheet: sheet)
        let content = children(of: m, style: style, path: name)
        guard !content.isEmpty else { return nil }
        var layer = Layer(name: name)
        layer.transform = Transform3D(place)
        if style.overflowVisible == true {
            layer.sublayers = content
        } else {
            var viewport = Layer(name: unique("\(name)/viewport"))
            viewport.bounds = clip
            viewport.anchorPoint = .zero
            viewport.position = clip.origin
            viewport.masksToBounds = true
            viewport.sublayers = content
            layer.sublayers = [viewport]
        }
        return layer
    }
}
