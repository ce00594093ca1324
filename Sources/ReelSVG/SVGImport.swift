/// An SVG document as Reel layers: the root viewport (viewBox and preserveAspectRatio, clipped), groups
/// as layers, shapes as shape layers with their fills and strokes, `use` as a copy of what it points
/// at; each element with an `id` a layer of that name. Elements Reel does not draw yet are skipped with
/// one warning each, naming the element and its line.
import Foundation
import ReelDocument
import ReelGeometry
import ReelScene

/// An imported SVG: its layer tree and its size.
public struct SVGImage: Sendable {
    /// The root layer: the viewport, `width` × `height` user units, origin at the top left.
    public var layer: Layer
    public var width: Double
    public var height: Double
    /// What was left out, one line each ("line 12: <filter> is not supported yet").
    public var warnings: [String]
    /// Where each `<image>` element is, by the name of the layer showing its picture (and each element
    /// whose filter's feImage shows one, by its layer's name): a picture that cannot be decoded later
    /// (over the memory for pictures) is named by its line.
    public var pictureLocations: [String: SourceLocation] = [:]
}

public enum SVGImport {
    /// Reads an SVG file into layers named under `name` (`name/id` for each element with an id); the
    /// root is named `rootName` (default `name`), reserved before any id.
    public static func load(contentsOf path: String, name: String, rootName: String? = nil) throws(DocumentError) -> SVGImage {
        let data = Data(try InputFiles.read(path, maximumBytes: SVGLimits.maximumBytes, what: "an SVG file"))
        return try image(data, file: path, name: name, rootName: rootName)
    }

    public static func image(_ data: Data, file: String, name: String, rootName: String? = nil) throws(DocumentError)
        -> SVGImage
    {
        // An .svgz (or an .svg saved compressed): gzip's magic number, which XML cannot start with.
        var data = data
        if Gzip.isCompressed(data) {
            data = Data(try Gzip.inflate([UInt8](data), file: file, maximumBytes: SVGLimits.maximumBytes, what: "an SVG file"))
        }
        let root = try SVGTree.parse(data, file: file)
        var importer = Importer(root: root, prefix: name, rootName: rootName ?? name)
        var image = importer.run()
        image.pictureLocations = importer.pictureLocations
        return image
    }

    /// Where an `<image>` (or a filtered element whose feImage shows a picture) is, as a message names
    /// it: by its line, as the import's notes do (the XML parser's column is the end of the start tag,
    /// not where the element begins). The message says which picture.
    public static func pictureReference(_ location: SourceLocation) -> SourceReference {
        SourceReference(location: nil, path: "line \(location.line)")
    }

    /// An SVG file alone as a scene: one layer the size of its viewport on a transparent canvas.
    public static func scene(contentsOf path: String, duration: Double = 1) throws(DocumentError) -> (Scene, [String]) {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let svg = try load(contentsOf: path, name: name)
        guard svg.width > 0, svg.height > 0, svg.width.isFinite, svg.height.isFinite else {
            throw DocumentError(
                file: path, message: "the SVG's viewport is \(svg.width)×\(svg.height): nothing to draw",
                fix: "give the root <svg> a positive width and height, or a viewBox")
        }
        guard let fps = FrameRate(numerator: 30, denominator: 1) else {
            throw DocumentError(file: path, message: "no frame rate")
        }
        var scene = Scene(width: svg.width, height: svg.height, fps: fps, duration: duration)
        scene.background = .clear
        scene.layers = [svg.layer]
        for (layer, location) in svg.pictureLocations { scene.contentsReferences[layer] = pictureReference(location) }
        return (scene, svg.warnings)
    }
}

/// A gradient resolved for one bounding box.
struct PaintKey: Hashable {
    var server: ObjectIdentifier
    var box: Rect?
}

/// preserveAspectRatio's fit, reachable from the tests.
enum SVGImportFit {
    static func fit(_ viewBox: [Double], _ size: Size, _ attribute: String?) -> Transform2D {
        Importer.fit(viewBox: viewBox, into: size, attribute)
    }
}

struct Importer {
    let root: SVGElement
    let prefix: String
    let rootName: String
    var ids: [String: SVGElement] = [:]
    var sheet = StyleSheet()
    var warnings: [String] = []
    /// Embedded pictures read so far, by element.
    var pictures: [ObjectIdentifier: SVGPicture.Reading] = [:]
    /// The text elements whose per-character positions are spread (`spreadPositionLists`).
    var spreadTexts: Set<ObjectIdentifier> = []
    /// Characters given positions of their own so far (`SVGLimits.maximumPositionedCharacters`).
    var positionedCharacters = 0
    /// Where each picture layer's `<image>` is (`SVGImage.pictureLocations`).
    var pictureLocations: [String: SourceLocation] = [:]
    /// Gradients resolved so far, by element and the bounding box they were resolved for.
    var paints: [PaintKey: SVGGradients.Result] = [:]
    /// How deep `convert` is (elements, uses, masks): held to `SVGLimits.maximumNesting`.
    var nesting = 0
    var warned = Set<String>()
    var names = Set<String>()
    var nextSuffix: [String: Int] = [:]
    /// `use` elements being expanded, to refuse a reference back into itself.
    var expanding: [ObjectIdentifier] = []
    /// `mask` elements being expanded, to leave out a mask that refers back to itself.
    var masking: [ObjectIdentifier] = []
    /// `clipPath` elements being expanded, likewise.
    var clipping: [ObjectIdentifier] = []
    /// Mask layers made so far (`SVGLimits.maximumMaskLayers`), and what each clip path's expansion
    /// makes, counted once.
    var maskLayers = 0
    var clipCosts: [ObjectIdentifier: Int] = [:]
    var drawn = 0
    /// Markers made so far (`SVGLimits.maximumMarkers`), and the `marker` elements being expanded (a
    /// marker drawn inside itself is left out).
    var markersDrawn = 0
    var markersExpanding: [ObjectIdentifier] = []
    /// `pattern` elements being expanded (a pattern painting itself is left out), and the layers the
    /// patterns made so far repeat (`SVGLimits.maximumPatternLayers`).
    var patternsExpanding: [ObjectIdentifier] = []
    var patternLayers = 0
    /// What user-space percentages are of (the root's viewBox, or its size).
    var viewportSize = Size(width: 100, height: 100)

    static let maximumDrawn = 100_000
    static let notDrawn: Set<String> = [
        "defs", "title", "desc", "metadata", "style", "linearGradient", "radialGradient", "clipPath", "mask", "symbol",
        "marker", "pattern", "filter", "script",
    ]

    init(root: SVGElement, prefix: String, rootName: String) {
        self.root = root
        self.prefix = prefix
        self.rootName = rootName
        var order = 0
        func index(_ e: SVGElement) {
            if let id = e.attributes["id"], ids[id] == nil { ids[id] = e }
            // A sheet of another type than CSS is not read (SVG: type defaults to text/css).
            if e.name == "style", ["", "text/css"].contains(e.attributes["type"]?.trimmingCharacters(in: .whitespaces) ?? "") {
                let rules = CSS.sheet(e.text, startingAt: order)
                order += rules.count
                if !sheet.add(rules) { warn(e, "more than \(CSS.maximumRules) style rules; the rest are left out") }
            }
            e.children.forEach(index)
        }
        index(root)
    }

    mutating func run() -> SVGImage {
        let (w, h, viewBox) = viewport(of: root, width: nil, height: nil)
        let box = root.attributes["viewBox"].flatMap(SVGValues.numbers).flatMap { $0.count == 4 ? $0 : nil }
        viewportSize = box.map { Size(width: $0[2], height: $0[3]) } ?? Size(width: w, height: h)
        var layer = Layer(name: unique(rootName))
        layer.bounds = Rect(x: 0, y: 0, width: w, height: h)
        layer.anchorPoint = .zero
        layer.masksToBounds = true
        if let viewBox { layer.sublayerTransform = Transform3D(viewBox) }
        var rootParent = SVGStyle()
        rootParent.viewport = viewportSize
        let style = SVGStyle.computed(for: root, parent: rootParent, sheet: sheet)
        warnUndrawn(root, style)
        if style.opacity < 1 { layer.opacity = style.opacity }
        guard style.displayed, Self.conditionsPass(root), admitMasking(root, style: style) else {
            return SVGImage(layer: layer, width: w, height: h, warnings: warnings)
        }
        let content = children(of: root, style: style, path: prefix)
        if style.clipPath != nil || style.mask != nil || style.filterList != nil || style.filterFunctions != nil {
            // A filter, clip or mask on the root applies in its user space (inside the viewBox): to a
            // layer holding the content.
            var inner = Layer(name: unique("\(rootName)/content"))
            inner.sublayers = content
            applyFilterFunctions(style, to: &inner, at: root)
            if let list = style.filterList {
                guard let effects = filterEffects(list, box: Self.bounds(of: inner), style: style, at: root) else {
                    return SVGImage(layer: layer, width: w, height: h, warnings: warnings)
                }
                inner.filterEffects = effects
                if effects.contains(where: { !$0.imageNames.isEmpty }) { pictureLocations[inner.name] = root.location }
            }
            layer.sublayers = [masking(inner, e: root, style: style)]
        } else {
            layer.sublayers = content
        }
        return SVGImage(layer: layer, width: w, height: h, warnings: warnings)
    }

    /// An `svg` element's size and the map from its viewBox to it (nil: none).
    func viewport(of e: SVGElement, width: Double?, height: Double?) -> (Double, Double, Transform2D?) {
        let box = e.attributes["viewBox"].flatMap(SVGValues.numbers).flatMap {
            $0.count == 4 && $0[2] > 0 && $0[3] > 0 ? $0 : nil
        }
        let w = width ?? SVGValues.length(e.attributes["width"], percentOf: box?[2] ?? 100) ?? box?[2] ?? 100
        let h = height ?? SVGValues.length(e.attributes["height"], percentOf: box?[3] ?? 100) ?? box?[3] ?? 100
        guard let b = box else { return (w, h, nil) }
        return (w, h, Self.fit(viewBox: b, into: Size(width: w, height: h), e.attributes["preserveAspectRatio"]))
    }

    /// SVG's preserveAspectRatio: `none`, or an alignment (xMin/xMid/xMax × YMin/YMid/YMax) with `meet`
    /// (fit inside, the default) or `slice` (cover).
    static func fit(viewBox b: [Double], into size: Size, _ attribute: String?) -> Transform2D {
        let parts = (attribute ?? "xMidYMid meet").split(separator: " ").map(String.init)
        var sx = size.width / b[2], sy = size.height / b[3]
        let align = parts.first ?? "xMidYMid"
        if align != "none" {
            let s = parts.contains("slice") ? max(sx, sy) : min(sx, sy)
            sx = s
            sy = s
        }
        var tx = -b[0] * sx, ty = -b[1] * sy
        let extraX = size.width - b[2] * sx, extraY = size.height - b[3] * sy
        if align.contains("xMid") { tx += extraX / 2 } else if align.contains("xMax") { tx += extraX }
        if align.contains("YMid") { ty += extraY / 2 } else if align.contains("YMax") { ty += extraY }
        return Transform2D(a: sx, b: 0, c: 0, d: sy, tx: tx, ty: ty)
    }

    /// `name`, or `name#2`, `name#3`… when taken. Each name remembers the next number to try, so that
    /// the copies a `use` fan-out makes of one id cost O(1) each, not a walk past all the earlier ones.
    mutating func unique(_ name: String) -> String {
        guard !names.insert(name).inserted else { return name }
        var k = nextSuffix[name, default: 2]
        while !names.insert("\(name)#\(k)").inserted { k += 1 }
        nextSuffix[name] = k + 1
        return "\(name)#\(k)"
    }

    mutating func warn(_ e: SVGElement, _ what: String) {
        let line = "line \(e.location.line): \(what)"
        // At most 1,000 notes: a file with 100,000 unsupported elements says so without a wall of text.
        guard warned.count < 1_000, warned.insert(line).inserted else { return }
        warnings.append(line)
    }

    /// The elements a `switch` chooses among: those SVG draws (an element of no other kind, or of
    /// another namespace, is passed over, as resvg passes it).
    static let switchable: Set<String> = [
        "g", "a", "switch", "svg", "use", "image", "rect", "circle", "ellipse", "line", "polyline", "polygon", "path",
        "text", "foreignObject",
    ]

    /// The language Reel renders for (`systemLanguage`): English, as resvg assumes.
    static let language = "en"

    /// SVG's conditional processing attributes: `requiredExtensions` fails whatever it names (Reel
    /// implements no extension), `requiredFeatures` is ignored (SVG 2 dropped it; resvg too), and
    /// `systemLanguage` passes when one of its comma-separated tags is the language or a form of it
    /// (`en`, `en-GB`), case aside; an empty one fails.
    static func conditionsPass(_ e: SVGElement) -> Bool {
        if e.attributes["requiredExtensions"] != nil { return false }
        guard let languages = e.attributes["systemLanguage"] else { return true }
        return languages.split(separator: ",").contains { tag in
            let t = tag.trimmingCharacters(in: .whitespaces).lowercased()
            return t == language || t.hasPrefix(language + "-")
        }
    }

    /// One note for each property declared on `e` that Reel does not draw yet (`SVGStyle.undrawn`).
    mutating func warnUndrawn(_ e: SVGElement, _ style: SVGStyle) {
        for (property, value) in style.undrawn.sorted(by: { $0.key < $1.key }) {
            warn(e, "\(property): \(value) is not drawn yet and is ignored")
        }
    }

    mutating func children(of e: SVGElement, style: SVGStyle, path: String) -> [Layer] {
        var out: [Layer] = []
        // Made at its size: a root of 100,000 elements grew through copies of up to twice its layers.
        out.reserveCapacity(e.children.count)
        for (i, child) in e.children.enumerated() {
            if let layer = convert(child, parent: style, path: "\(path)/\(child.name)[\(i)]") { out.append(layer) }
        }
        return out
    }

    /// The layer for one element, or nil when it draws nothing.
    mutating func convert(_ e: SVGElement, parent: SVGStyle, path: String) -> Layer? {
        // Not drawn, or not SVG at all (an element of another namespace).
        guard !Self.notDrawn.contains(e.name), !e.name.hasPrefix("{"), e.name != SVGElement.characters else { return nil }
        // Uses and masks nest elements past the tree's own depth: held to the same limit, so the stack
        // stays small whatever the file chains.
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= SVGLimits.maximumNesting else {
            warn(e, "elements, uses and masks nested more than \(SVGLimits.maximumNesting) deep are left out")
            return nil
        }
        drawn += 1
        guard drawn <= Self.maximumDrawn else {
            if drawn == Self.maximumDrawn + 1 {
                warn(e, "more than \(Self.maximumDrawn) elements to draw; the rest are left out")
            }
            return nil
        }
        // An element whose conditions fail is not drawn, children and all (in a `switch` or not).
        guard Self.conditionsPass(e) else { return nil }
        let style = SVGStyle.computed(for: e, parent: parent, sheet: sheet)
        guard style.displayed, admitMasking(e, style: style) else { return nil }
        warnUndrawn(e, style)
        if let value = e.attributes["marker"] {
            warn(
                e,
                "the marker attribute (\(value)) is ignored: SVG reads that shorthand from CSS only; "
                    + "write marker-start, marker-mid and marker-end")
        }
        let name = unique(e.attributes["id"].map { "\(prefix)/\($0)" } ?? path)
        var transform = Transform2D.identity
        if let t = style.transform ?? e.attributes["transform"] {
            // One that cannot be read is ignored (the element drawn untransformed), as resvg and librsvg do.
            if let parsed = SVGValues.transform(t) {
                transform = parsed
            } else {
                warn(e, "the transform \"\(t)\" cannot be read and is ignored")
            }
        }
        if let o = style.transformOrigin, transform != .identity {
            // CSS pivots the transform on the origin; SVG's attribute alone pivots on 0 0.
            if let p = SVGValues.origin(o, viewport: style.viewport, fontSize: style.fontSize) {
                transform = Transform2D.translation(x: -p.x, y: -p.y).concatenating(transform)
                    .concatenating(.translation(x: p.x, y: p.y))
            } else {
                warn(e, "transform-origin: \(o) cannot be read and is ignored")
            }
        }
        var layer: Layer
        switch e.name {
        case "g", "a":
            layer = Layer(name: name)
            layer.sublayers = children(of: e, style: style, path: path)
        case "switch":
            // Only its first child that is an element SVG draws and whose conditions pass (SVG 2,
            // "Conditional processing"), `display: none` or not.
            layer = Layer(name: name)
            if let (i, child) = e.children.enumerated().first(where: {
                Self.switchable.contains($0.element.name) && Self.conditionsPass($0.element)
            }), let chosen = convert(child, parent: style, path: "\(path)/\(child.name)[\(i)]") {
                layer.sublayers = [chosen]
            }
        case "svg":
            layer = nestedViewport(e, style: style, name: name, path: path)
        case "use":
            guard let used = use(e, style: style, name: name, path: path) else { return nil }
            layer = used
        case "image":
            guard let shown = image(e, style: style, name: name) else { return nil }
            layer = shown
        case "rect", "circle", "ellipse", "line", "polyline", "polygon", "path":
            guard let shape = boundedPath(of: e, style: style) else { return nil }
            layer = Layer(name: name, type: .shape)
            layer.shape.path = shape
            // Invisible, but part of its group's bounding box (and a timeline may show it).
            layer.hidden = !style.visible
            let patterns = paint(&layer, style, e)
            layer = painted(
                layer, in: style.paintOrder, markers: markers(on: e, path: shape, style: style, name: name), patterns: patterns,
                at: e)
        case "text":
            guard let text = textLayer(e, style: style, name: name) else { return nil }
            layer = text
        default:
            warn(e, "<\(e.name)> is not supported yet and is left out")
            return nil
        }
        applyFilterFunctions(style, to: &layer, at: e)
        if let list = style.filterList {
            // In the element's user space, as its layer's content is; before the clip, mask and opacity.
            guard let effects = filterEffects(list, box: Self.bounds(of: layer), style: style, at: e) else { return nil }
            layer.filterEffects = effects
            // A picture its feImage shows that cannot be decoded is named at the filtered element.
            if effects.contains(where: { !$0.imageNames.isEmpty }) { pictureLocations[layer.name] = e.location }
        }
        layer = masking(layer, e: e, style: style)
        layer.transform = Transform3D(transform).concatenating(layer.transform)
        if style.opacity < 1 { layer.opacity = style.opacity }
        // Blended as a whole, opacity, clip and mask included (Compositing and Blending, SVG's rules).
        layer.compositingFilter = style.blendMode
        layer.isolatesBlending = style.isolated
        return layer
    }

    /// A `filter` of functions as the layer's filters and shadow, applied before the clip, mask and
    /// opacity (which `masking` and the element's conversion add after).
    mutating func applyFilterFunctions(_ style: SVGStyle, to layer: inout Layer, at e: SVGElement) {
        guard let f = style.filterFunctions else { return }
        layer.filters = Array(f.filters.prefix(Scene.maximumFilters))
        if f.filters.count > Scene.maximumFilters {
            warn(e, "filter: only the first \(Scene.maximumFilters) functions are drawn")
        }
        if let s = f.shadow {
            layer.shadowColor = s.color
            layer.shadowOpacity = 1
            layer.shadowOffset = s.offset
            layer.shadowRadius = s.sigma
        }
    }

    /// A layer tree's bounding box in its own coordinates (its transform not applied; its sublayers'
    /// are): what objectBoundingBox units are relative to.
    static func bounds(of layer: Layer) -> Rect? {
        var box: Rect? = layer.type == .shape ? layer.shape.path.bounds() : nil
        if layer.contents != nil, !layer.bounds.isEmpty { box = box.map { $0.union(layer.bounds) } ?? layer.bounds }
        // A shape's sublayers are its markers, which SVG leaves out of the bounding box.
        if layer.type == .shape { return box }
        // Sublayers' space to this layer's: the sublayer transform about the anchor point.
        let children = Transform2D.translation(x: -anchor(of: layer).x, y: -anchor(of: layer).y)
            .concatenating(layer.sublayerTransform.affine).concatenating(
                .translation(x: anchor(of: layer).x, y: anchor(of: layer).y))
        for sub in layer.sublayers {
            guard let b = bounds(of: sub) else { continue }
            // Core Animation's placement: q ↦ (q − anchor)·transform + position.
            let a = anchor(of: sub)
            let toParent = Transform2D.translation(x: -a.x, y: -a.y).concatenating(sub.transform.affine)
                .concatenating(.translation(x: sub.position.x, y: sub.position.y))
            let placed = b.applying(toParent.concatenating(children))
            box = box.map { $0.union(placed) } ?? placed
        }
        return box
    }

    static func anchor(of l: Layer) -> Point {
        Point(x: l.bounds.minX + l.anchorPoint.x * l.bounds.width, y: l.bounds.minY + l.anchorPoint.y * l.bounds.height)
    }

    /// Fill and stroke of a shape layer. A pattern is returned, its part painted black as its mask.
    mutating func paint(_ layer: inout Layer, _ s: SVGStyle, _ e: SVGElement) -> (fill: PatternPaint?, stroke: PatternPaint?) {
        let box = layer.shape.path.bounds()
        var gradient: ShapeGradient?
        var pattern: PatternPaint?
        func resolve(_ p: Paint, opacity: Double) -> Color? {
            var c: Color?
            gradient = nil
            pattern = nil
            switch p {
            case .none: c = nil
            case .color(let color): c = color
            case .currentColor: c = s.color
            case .reference(let id, let fallbackPaint):
                var fallback: Color?
                switch fallbackPaint {
                case .color(let color)?: fallback = color
                case .currentColor?: fallback = s.color
                default: fallback = nil
                }
                guard let server = ids[id] else {
                    // A reference to nothing paints the fallback, or nothing.
                    c = fallback
                    break
                }
                if server.name == "pattern" {
                    // Tiles or content in bounding-box units over a box with no area: the fallback.
                    guard !patternNeedsBox(server) || (box.map { $0.width > 0 && $0.height > 0 } ?? false) else {
                        c = fallback
                        break
                    }
                    pattern = PatternPaint(server: server, opacity: opacity)
                    return .black
                }
                guard server.name == "linearGradient" || server.name == "radialGradient" else {
                    warn(e, "the paint url(#\(id)) (a <\(server.name)>) is not supported yet")
                    c = fallback
                    break
                }
                var notes: [String] = []
                // Resolved once per gradient and box: a fan-out's copies share the stops' arrays.
                let key = PaintKey(server: ObjectIdentifier(server), box: box)
                let result =
                    paints[key]
                    ?? SVGGradients.paint(
                        server, ids: ids, box: box, viewport: viewportSize, sheet: sheet, warn: { notes.append($0) })
                paints[key] = result
                switch result {
                case .gradient(let g):
                    gradient = g
                    c = .white  // its alpha carries the opacity
                case .color(let color): c = color
                // No stops, or a bounding box with no area: the fallback colour if there is one.
                case .nothing: c = fallback
                }
                for n in notes { warn(server, n) }
            }
            guard var color = c else { return nil }
            color.alpha *= opacity
            return color
        }
        layer.shape.fillColor = resolve(s.fill, opacity: s.fillOpacity)
        layer.shape.fillGradient = gradient
        layer.shape.fillRule = s.fillRuleEvenOdd ? .evenOdd : .nonZero
        let fillPattern = pattern
        var strokePattern: PatternPaint?
        if let stroke = resolve(s.stroke, opacity: s.strokeOpacity), s.strokeWidth > 0 {
            strokePattern = pattern
            layer.shape.strokeColor = stroke
            layer.shape.strokeGradient = gradient
            s.applyStrokeGeometry(to: &layer.shape.stroke)
        }
        return (fillPattern, strokePattern)
    }

    /// A nested `svg`: a viewport at x, y of its own size (by default all of the enclosing viewport;
    /// percentages are of it), clipped, with its viewBox.
    mutating func nestedViewport(_ e: SVGElement, style: SVGStyle, name: String, path: String) -> Layer {
        let outer = style.viewport
        let a = e.attributes
        let w = SVGValues.length(a["width"], percentOf: outer.width).flatMap { $0 > 0 ? $0 : nil } ?? outer.width
        let h = SVGValues.length(a["height"], percentOf: outer.height).flatMap { $0 > 0 ? $0 : nil } ?? outer.height
        return viewportLayer(
            e, style: style, name: name, path: path, size: Size(width: w, height: h),
            origin: Point(
                x: SVGValues.length(a["x"], percentOf: outer.width) ?? 0,
                y: SVGValues.length(a["y"], percentOf: outer.height) ?? 0
            ))
    }

    /// A new viewport (a nested `svg`, or a `symbol` a `use` draws): a layer at `origin` of `size`,
    /// clipped unless `overflow` is visible, mapping the element's viewBox into it; inside it,
    /// percentages are of the viewBox (or of the size).
    mutating func viewportLayer(
        _ e: SVGElement, style: SVGStyle, name: String, path: String, size: Size, origin: Point
    ) -> Layer {
        let (_, _, viewBox) = viewport(of: e, width: size.width, height: size.height)
        var layer = Layer(name: name)
        layer.anchorPoint = .zero
        layer.position = origin
        layer.bounds = Rect(origin: .zero, size: size)
        layer.masksToBounds = style.overflowVisible != true
        if let viewBox { layer.sublayerTransform = Transform3D(viewBox) }
        var inner = style
        let box = e.attributes["viewBox"].flatMap(SVGValues.numbers).flatMap {
            $0.count == 4 && $0[2] > 0 && $0[3] > 0 ? $0 : nil
        }
        inner.viewport = box.map { Size(width: $0[2], height: $0[3]) } ?? size
        layer.sublayers = children(of: e, style: inner, path: path)
        return layer
    }

    /// A `use`: the element it points at drawn at x, y (a `symbol` as a viewport); a reference to a
    /// missing element, or back into itself, draws nothing.
    mutating func use(_ e: SVGElement, style: SVGStyle, name: String, path: String) -> Layer? {
        guard let href = e.attributes["href"], href.hasPrefix("#"), let target = ids[String(href.dropFirst())] else {
            warn(e, "<use> points at nothing (\(e.attributes["href"] ?? "no href"))")
            return nil
        }
        let key = ObjectIdentifier(target)
        guard !expanding.contains(key), expanding.count < 32 else {
            warn(e, "<use> refers back to itself; left out")
            return nil
        }
        expanding.append(key)
        defer { expanding.removeLast() }
        var layer = Layer(name: name)
        let x = SVGValues.length(e.attributes["x"]) ?? 0, y = SVGValues.length(e.attributes["y"]) ?? 0
        // x and y move what is used inside the use's own transform (SVG: transform, then translate(x, y)).
        layer.sublayerTransform = Transform3D(Transform2D.translation(x: x, y: y))
        if target.name == "symbol" || target.name == "svg" {
            // A new viewport: the use's width and height (SVG 2), else the symbol's, else 100 %.
            let outer = style.viewport
            func length(_ key: String, _ of: Double) -> Double? {
                (SVGValues.length(e.attributes[key], percentOf: of) ?? SVGValues.length(target.attributes[key], percentOf: of))
                    .flatMap { $0 > 0 ? $0 : nil }
            }
            let targetStyle = SVGStyle.computed(for: target, parent: context(style), sheet: sheet)
            var origin = Point.zero
            if target.name == "svg" {
                origin = Point(
                    x: SVGValues.length(target.attributes["x"], percentOf: outer.width) ?? 0,
                    y: SVGValues.length(target.attributes["y"], percentOf: outer.height) ?? 0)
            }
            let symbol = viewportLayer(
                target, style: targetStyle, name: unique("\(name)/\(target.name)"), path: "\(path)/\(target.name)",
                size: Size(
                    width: length("width", outer.width) ?? outer.width, height: length("height", outer.height) ?? outer.height),
                origin: origin)
            if targetStyle.opacity < 1 {
                var faded = symbol
                faded.opacity = targetStyle.opacity
                layer.sublayers = [faded]
            } else {
                layer.sublayers = [symbol]
            }
        } else if let copy = convert(target, parent: context(style), path: "\(path)/\(target.name)") {
            layer.sublayers = [copy]
        }
        return layer
    }
}
