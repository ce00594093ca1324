/// SVG's gradients as shape paints: `linearGradient` and `radialGradient` (with its focal circle) with
/// their stops, units (objectBoundingBox or userSpaceOnUse), `gradientTransform`, `spreadMethod` and
/// `href` inheritance, in the shape's own coordinates.
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

    /// Attributes a gradient takes through `href` from a gradient of either type; the others (its
    /// geometry) only from one of its own type, and the search stops at the first of the other type, as
    /// resvg resolves them.
    static let sharedAttributes: Set<String> = ["gradientUnits", "spreadMethod", "gradientTransform"]

    /// `viewport` is what percentages of userSpaceOnUse coordinates are of; `sheet` styles the stops.
    static func paint(
        _ e: SVGElement, ids: [String: SVGElement], box: Rect?, viewport: Size, sheet: StyleSheet = StyleSheet(),
        warn: (String) -> Void
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
        func attribute(_ name: String) -> String? {
            for g in chain {
                if g.name != e.name && !sharedAttributes.contains(name) { return nil }
                if let value = g.attributes[name] { return value }
            }
            return nil
        }
        if let o = e.attributes["transform-origin"] {
            warn("transform-origin: \(o) on a gradient is not drawn yet and is ignored")
        }
        let stopsOwner = chain.first { $0.children.contains { $0.name == "stop" } }
        var colors: [Color] = [], locations: [Double] = []
        // A ramp finer than 1,024 stops draws no differently (the rasterizer's table has 1,024 steps).
        for stop in (stopsOwner?.children.filter({ $0.name == "stop" }) ?? []).prefix(1_024) {
            let offsetText = declared("offset", on: stop, sheet: StyleSheet())?.trimmingCharacters(in: .whitespaces) ?? "0"
            var offset = SVGStyle.fraction(offsetText) ?? 0
            offset = max(offset, locations.last ?? 0)
            colors.append(stopColor(stop, sheet: sheet))
            locations.append(offset)
        }
        guard let first = colors.first else { return .nothing }
        if colors.count == 1 { return .color(first) }
        let spread: ShapeGradient.Spread
        switch attribute("spreadMethod")?.trimmingCharacters(in: .whitespaces) {
        case "reflect": spread = .reflect
        case "repeat": spread = .repeat
        default: spread = .pad  // pad, or a value that is not one: the default
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
        func coordinate(_ text: String, along side: Double) -> Double {
            if userSpace { return SVGValues.length(text, percentOf: side) ?? 0 }
            let t = text.trimmingCharacters(in: .whitespaces)
            return t.hasSuffix("%") ? (Double(t.dropLast()) ?? 0) / 100 : Double(t) ?? 0
        }
        func coordinate(_ name: String, _ fallback: String, along side: Double) -> Double {
            coordinate(attribute(name) ?? fallback, along: side)
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
            // The focal point defaults to the centre; a negative focal radius counts as none (resvg). A
            // focal circle reaching out of the end circle is kept as it is: SVG 2 (and resvg) paint the cone
            // the two circles span, where SVG 1.1 moved the focal point onto the end circle.
            let f = Point(
                x: attribute("fx").map { coordinate($0, along: viewport.width) } ?? c.x,
                y: attribute("fy").map { coordinate($0, along: viewport.height) } ?? c.y)
            let fr = max(coordinate("fr", "0", along: diagonal), 0)
            if f == c && abs(fr - r) <= 1e-9 * r {
                // No circle between the two: the ramp has no room. resvg (tiny-skia, as Skia) pads the
                // first colour inside and the last outside, and paints the ramp's mean colour otherwise.
                guard spread == .pad else { return .color(mean(colors, locations)) }
                return .gradient(
                    ShapeGradient(
                        kind: .radial(center: c, radius: r), colors: [first, first, colors[colors.count - 1]],
                        locations: [0, 1, 1], transform: place, straightInterpolation: true))
            }
            kind = f == c && fr == 0 ? .radial(center: c, radius: r) : .focal(focus: f, focalRadius: fr, center: c, radius: r)
        }
        return .gradient(
            ShapeGradient(
                kind: kind, colors: colors, locations: locations, transform: place, spread: spread,
                straightInterpolation: true))
    }

    /// The mean colour of a ramp over 0…1 (straight colours, the end colours held past the stops).
    static func mean(_ colors: [Color], _ locations: [Double]) -> Color {
        var sum = [0.0, 0.0, 0.0, 0.0]
        func add(_ c: Color, _ weight: Double) {
            for (i, v) in [c.red, c.green, c.blue, c.alpha].enumerated() { sum[i] += v * weight }
        }
        add(colors[0], locations[0])
        add(colors[colors.count - 1], 1 - locations[locations.count - 1])
        for k in 0..<(colors.count - 1) {
            let span = locations[k + 1] - locations[k]
            add(colors[k], span / 2)
            add(colors[k + 1], span / 2)
        }
        return Color(red: sum[0], green: sum[1], blue: sum[2], alpha: sum[3])
    }

    /// A stop's colour with its `stop-opacity`: `currentColor` is the stop's `color` (inherited down the
    /// tree to it), `inherit` the parent's `stop-color` (which is not inherited otherwise: not through
    /// `href`, nor from further up unless each level says `inherit`), and anything unreadable black.
    static func stopColor(_ stop: SVGElement, sheet: StyleSheet) -> Color {
        var color: Color
        switch resolved("stop-color", on: stop, sheet: sheet) {
        case nil: color = .black
        case "currentColor"?: color = currentColor(stop, sheet: sheet)
        case let value?: color = SVGValues.color(value) ?? .black
        }
        color.alpha *= resolved("stop-opacity", on: stop, sheet: sheet).flatMap(SVGStyle.fraction) ?? 1
        return color
    }

    /// A property that is not inherited, with `inherit` taken from the parent (and so on up).
    static func resolved(_ name: String, on e: SVGElement, sheet: StyleSheet) -> String? {
        var element: SVGElement? = e
        var depth = 0
        while let current = element, depth <= SVGLimits.maximumDepth {
            guard let value = declared(name, on: current, sheet: sheet)?.trimmingCharacters(in: .whitespaces) else {
                return nil
            }
            if value != "inherit" { return value }
            element = current.parent
            depth += 1
        }
        return nil
    }

    /// The `color` property where `e` is written: the cascade run from the root down to it.
    static func currentColor(_ e: SVGElement, sheet: StyleSheet) -> Color {
        var chain: [SVGElement] = []
        var next: SVGElement? = e
        while let element = next, chain.count <= SVGLimits.maximumDepth {
            chain.append(element)
            next = element.parent
        }
        var style = SVGStyle()
        for element in chain.reversed() { style = SVGStyle.computed(for: element, parent: style, sheet: sheet) }
        return style.color
    }

    /// What `e` declares for one property, as the cascade ranks declarations: its presentation
    /// attribute, then the sheet's matching rules (by specificity, then order), then its `style`
    /// attribute, each `!important` one above all of those.
    static func declared(_ name: String, on e: SVGElement, sheet: StyleSheet) -> String? {
        var value = e.attributes[name]
        let rules = sheet.matching(e)
        for rule in rules { for (n, v) in rule.declarations where n == name { value = v } }
        let inline = e.attributes["style"].map { CSS.prioritized(Substring($0)) } ?? []
        for (n, v, important) in inline where !important && n == name { value = v }
        for rule in rules { for (n, v) in rule.important where n == name { value = v } }
        for (n, v, important) in inline where important && n == name { value = v }
        return value
    }
}
