/// SVG's gradients as shape paints: `linearGradient` and `radialGradient` with their stops, units
/// (objectBoundingBox or userSpaceOnUse), `gradientTransform` and `href` inheritance, in the shape's
/// own coordinates.
import Foundation
import ReelGeometry
import ReelScene

enum SVGGradients {
    /// What a gradient paints for a shape with bounding box `box`: a ramp, a single colour (one stop,
    /// or a zero-length ramp), or nothing (no stops; a bounding-box gradient on a shape with no area).
    enum Result {
        case gradient(ShapeGradient)
        case color(Color)
        case nothing
    }

    /// `viewport` is what percentages of userSpaceOnUse coordinates are of.
    static func paint(
        _ e: SVGElement, ids: [String: SVGElement], box: Rect?, viewport: Size, warn: (String) -> Void
    ) -> Result {
        // The element and those it inherits from through href, nearest first.
        var chain: [SVGElement] = []
        var next: SVGElement? = e
        while let g = next, chain.count < 16, !chain.contains(where: { $0 === g }) {
            chain.append(g)
            next = nil
            if let href = g.attributes["href"], href.hasPrefix("#"), let target = ids[String(href.dropFirst())],
                target.name == "linearGradient" || target.name == "radialGradient"
            {
                next = target
            }
        }
        func attribute(_ name: String) -> String? { chain.lazy.compactMap { $0.attributes[name] }.first }
        let stopsOwner = chain.first { $0.children.contains { $0.name == "stop" } }
        var colors: [Color] = [], locations: [Double] = []
        for stop in stopsOwner?.children.filter({ $0.name == "stop" }) ?? [] {
            var style: [String: String] = stop.attributes
            for (k, v) in CSS.declarations(Substring(stop.attributes["style"] ?? "")) { style[k] = v }
            var offset = SVGStyle.fraction(style["offset"]?.trimmingCharacters(in: .whitespaces) ?? "0") ?? 0
            offset = max(offset, locations.last ?? 0)
            var color = style["stop-color"].flatMap(SVGValues.color) ?? .black
            color.alpha *= SVGStyle.fraction(style["stop-opacity"]?.trimmingCharacters(in: .whitespaces) ?? "1") ?? 1
            colors.append(color)
            locations.append(offset)
        }
        guard let first = colors.first else { return .nothing }
        if colors.count == 1 { return .color(first) }
        if let spread = attribute("spreadMethod"), spread != "pad" {
            warn("spreadMethod=\"\(spread)\" is not supported yet; the gradient pads")
        }
        let userSpace = attribute("gradientUnits") == "userSpaceOnUse"
        var place = Transform2D.identity
        if !userSpace {
            // A box thinner than rounding (a straight curve flattened) has no area either.
            guard let box, box.width > 1e-9, box.height > 1e-9 else { return .nothing }
            place = Transform2D(a: box.width, b: 0, c: 0, d: box.height, tx: box.minX, ty: box.minY)
        }
        if let t = attribute("gradientTransform"), let parsed = SVGValues.transform(t) { place = parsed.concatenating(place) }
        // Coordinates: fractions (or percentages of the box) for objectBoundingBox, lengths for user space.
        func coordinate(_ name: String, _ fallback: String, along side: Double) -> Double {
            let text = attribute(name) ?? fallback
            if userSpace { return SVGValues.length(text, percentOf: side) ?? 0 }
            let t = text.trimmingCharacters(in: .whitespaces)
            return t.hasSuffix("%") ? (Double(t.dropLast()) ?? 0) / 100 : Double(t) ?? 0
        }
        let diagonal = SVGValues.normalizedDiagonal(viewport)
        let kind: ShapeGradient.Kind
        if e.name == "linearGradient" {
            let s = Point(x: coordinate("x1", "0%", along: viewport.width), y: coordinate("y1", "0%", along: viewport.height))
            let t = Point(x: coordinate("x2", "100%", along: viewport.width), y: coordinate("y2", "0%", along: viewport.height))
            if s == t { return .color(colors[colors.count - 1]) }
            kind = .axial(start: s, end: t)
        } else {
            let c = Point(x: coordinate("cx", "50%", along: viewport.width), y: coordinate("cy", "50%", along: viewport.height))
            let r = coordinate("r", "50%", along: diagonal)
            guard r > 0 else { return .color(colors[colors.count - 1]) }
            if attribute("fx") != nil || attribute("fy") != nil {
                let f = Point(
                    x: coordinate("fx", "50%", along: viewport.width), y: coordinate("fy", "50%", along: viewport.height))
                if f != c { warn("a radial gradient's focal point (fx, fy) is not supported yet; it is centred") }
            }
            kind = .radial(center: c, radius: r)
        }
        return .gradient(ShapeGradient(kind: kind, colors: colors, locations: locations, transform: place))
    }
}
