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
}

public enum SVGImport {
    /// Reads an SVG file into layers named under `name` (`name/id` for each element with an id); the
    /// root is named `rootName` (default `name`), reserved before any id.
    public static func load(contentsOf path: String, name: String, rootName: String? = nil) throws(DocumentError) -> SVGImage {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw DocumentError(file: path, message: "cannot read the file: \(error.localizedDescription)")
        }
        return try image(data, file: path, name: name, rootName: rootName)
    }

    public static func image(_ data: Data, file: String, name: String, rootName: String? = nil) throws(DocumentError)
        -> SVGImage
    {
        let root = try SVGTree.parse(data, file: file)
        var importer = Importer(root: root, prefix: name, rootName: rootName ?? name)
        return importer.run()
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
        return (scene, svg.warnings)
    }
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
    var sheet: [CSSRule] = []
    var warnings: [String] = []
    var names = Set<String>()
    /// `use` elements being expanded, to refuse a reference back into itself.
    var expanding: [ObjectIdentifier] = []
    var drawn = 0
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
            if e.name == "style" {
                let rules = CSS.sheet(e.text, startingAt: order)
                order += rules.count
                sheet += rules
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
        if style.opacity < 1 { layer.opacity = style.opacity }
        layer.sublayers = children(of: root, style: style, path: prefix)
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

    mutating func unique(_ name: String) -> String {
        var n = name, k = 2
        while !names.insert(n).inserted {
            n = "\(name)#\(k)"
            k += 1
        }
        return n
    }

    mutating func warn(_ e: SVGElement, _ what: String) {
        let line = "line \(e.location.line): \(what)"
        if !warnings.contains(line) { warnings.append(line) }
    }

    mutating func children(of e: SVGElement, style: SVGStyle, path: String) -> [Layer] {
        var out: [Layer] = []
        for (i, child) in e.children.enumerated() {
            if let layer = convert(child, parent: style, path: "\(path)/\(child.name)[\(i)]") { out.append(layer) }
        }
        return out
    }

    /// The layer for one element, or nil when it draws nothing.
    mutating func convert(_ e: SVGElement, parent: SVGStyle, path: String) -> Layer? {
        guard !Self.notDrawn.contains(e.name) else { return nil }
        drawn += 1
        guard drawn <= Self.maximumDrawn else {
            if drawn == Self.maximumDrawn + 1 {
                warn(e, "more than \(Self.maximumDrawn) elements to draw; the rest are left out")
            }
            return nil
        }
        let style = SVGStyle.computed(for: e, parent: parent, sheet: sheet)
        guard style.displayed else { return nil }
        let name = unique(e.attributes["id"].map { "\(prefix)/\($0)" } ?? path)
        var transform = Transform2D.identity
        if let t = e.attributes["transform"] {
            guard let parsed = SVGValues.transform(t) else {
                warn(e, "the transform \"\(t)\" cannot be read; the element is left out")
                return nil
            }
            transform = parsed
        }
        var layer: Layer
        switch e.name {
        case "g", "a", "switch":
            layer = Layer(name: name)
            layer.sublayers = children(of: e, style: style, path: path)
        case "svg":
            layer = nestedViewport(e, style: style, name: name, path: path)
        case "use":
            guard let used = use(e, style: style, name: name, path: path) else { return nil }
            layer = used
        case "rect", "circle", "ellipse", "line", "polyline", "polygon", "path":
            guard style.visible, let shape = SVGShapes.path(of: e, viewport: style.viewport) else { return nil }
            layer = Layer(name: name, type: .shape)
            layer.shape.path = shape
            paint(&layer, style, e)
        default:
            warn(e, "<\(e.name)> is not supported yet and is left out")
            return nil
        }
        if let reference = style.clipPath {
            // A reference to nothing, or a CSS shape (circle(), inset()…) Reel does not draw yet: the
            // element is drawn unclipped, as resvg and librsvg both do.
            if let id = SVGStyle.referencedID(reference), let clip = ids[id], clip.name == "clipPath" {
                layer.mask = clipMask(clip, for: layer)
            } else {
                warn(e, "clip-path \"\(reference)\" is not a <clipPath> Reel can use; the element is not clipped")
            }
        }
        if let reference = style.mask {
            warn(e, "mask \"\(reference)\" is not supported yet and is ignored")
        }
        layer.transform = Transform3D(transform).concatenating(layer.transform)
        if style.opacity < 1 { layer.opacity = style.opacity }
        return layer
    }

    /// A `clipPath` as a mask layer: its shapes filled opaque with their clip-rule, in the clipped
    /// element's coordinates (or its bounding box's, for objectBoundingBox units), after the clip path's
    /// own transform.
    mutating func clipMask(_ clip: SVGElement, for layer: Layer) -> Layer {
        var mask = Layer(name: unique("\(layer.name)/clip"))
        var place = Transform2D.identity
        if clip.attributes["clipPathUnits"] == "objectBoundingBox" {
            guard let b = Self.bounds(of: layer), b.width > 0, b.height > 0 else { return mask }  // clips everything
            place = Transform2D(a: b.width, b: 0, c: 0, d: b.height, tx: b.minX, ty: b.minY)
        }
        if let t = clip.attributes["transform"] {
            guard let parsed = SVGValues.transform(t) else { return mask }
            place = parsed.concatenating(place)
        }
        mask.transform = Transform3D(place)
        if clip.attributes["clip-path"] != nil { warn(clip, "clip-path on a <clipPath> is not supported yet and is ignored") }
        var clipParent = SVGStyle()
        clipParent.viewport = viewportSize
        let clipStyle = SVGStyle.computed(for: clip, parent: clipParent, sheet: sheet)
        for (i, child) in clip.children.enumerated() {
            var element = child
            var offset = Transform2D.identity
            if child.name == "use", let href = child.attributes["href"], href.hasPrefix("#"),
                let target = ids[String(href.dropFirst())]
            {
                // A use inside a clip path may point at a shape only.
                element = target
                offset = .translation(
                    x: SVGValues.length(child.attributes["x"]) ?? 0, y: SVGValues.length(child.attributes["y"]) ?? 0)
            }
            guard ["rect", "circle", "ellipse", "line", "polyline", "polygon", "path"].contains(element.name) else {
                if !Self.notDrawn.contains(child.name) { warn(child, "<\(child.name)> in a <clipPath> is not supported yet") }
                continue
            }
            let style = SVGStyle.computed(for: element, parent: clipStyle, sheet: sheet)
            guard style.displayed, style.visible, let path = SVGShapes.path(of: element, viewport: style.viewport) else {
                continue
            }
            var shape = Layer(name: unique("\(mask.name)/\(element.name)[\(i)]"), type: .shape)
            shape.shape.path = path
            shape.shape.fillColor = .black
            shape.shape.fillRule = style.clipRuleEvenOdd ? .evenOdd : .nonZero
            var t = element.attributes["transform"].flatMap(SVGValues.transform) ?? .identity
            if element !== child {
                // The used shape's own transform, then the use's x and y, then the use's transform.
                t = t.concatenating(offset).concatenating(child.attributes["transform"].flatMap(SVGValues.transform) ?? .identity)
            }
            shape.transform = Transform3D(t)
            mask.sublayers.append(shape)
        }
        return mask
    }

    /// A layer tree's bounding box in its own coordinates (its transform not applied; its sublayers'
    /// are): what objectBoundingBox units are relative to.
    static func bounds(of layer: Layer) -> Rect? {
        var box: Rect? = layer.type == .shape ? layer.shape.path.bounds() : nil
        for sub in layer.sublayers {
            guard let b = bounds(of: sub) else { continue }
            let placed = b.applying(sub.transform.affine)
            box = box.map { $0.union(placed) } ?? placed
        }
        return box
    }

    /// Fill and stroke of a shape layer.
    mutating func paint(_ layer: inout Layer, _ s: SVGStyle, _ e: SVGElement) {
        let box = layer.shape.path.bounds()
        var gradient: ShapeGradient?
        func resolve(_ p: Paint, opacity: Double) -> Color? {
            var c: Color?
            gradient = nil
            switch p {
            case .none: c = nil
            case .color(let color): c = color
            case .currentColor: c = s.color
            case .reference(let id, let fallback):
                guard let server = ids[id] else {
                    // A reference to nothing paints the fallback, or nothing.
                    c = fallback
                    break
                }
                guard server.name == "linearGradient" || server.name == "radialGradient" else {
                    warn(e, "the paint url(#\(id)) (a <\(server.name)>) is not supported yet")
                    c = fallback
                    break
                }
                var notes: [String] = []
                switch SVGGradients.paint(server, ids: ids, box: box, viewport: viewportSize, warn: { notes.append($0) }) {
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
        if let stroke = resolve(s.stroke, opacity: s.strokeOpacity), s.strokeWidth > 0 {
            layer.shape.strokeColor = stroke
            layer.shape.strokeGradient = gradient
            layer.shape.stroke.lineWidth = s.strokeWidth
            layer.shape.stroke.lineCap = s.lineCap
            layer.shape.stroke.lineJoin = s.lineJoin
            layer.shape.stroke.miterLimit = s.miterLimit
            layer.shape.stroke.lineDashPattern = s.dashArray
            layer.shape.stroke.lineDashPhase = s.dashOffset
        }
    }

    /// A nested `svg`: a viewport at x, y of its own size, clipped, with its viewBox.
    mutating func nestedViewport(_ e: SVGElement, style: SVGStyle, name: String, path: String) -> Layer {
        let (w, h, viewBox) = viewport(of: e, width: nil, height: nil)
        var layer = Layer(name: name)
        layer.anchorPoint = .zero
        layer.position = Point(x: SVGValues.length(e.attributes["x"]) ?? 0, y: SVGValues.length(e.attributes["y"]) ?? 0)
        layer.bounds = Rect(x: 0, y: 0, width: w, height: h)
        layer.masksToBounds = e.attributes["overflow"].map { $0 != "visible" && $0 != "auto" } ?? true
        if let viewBox { layer.sublayerTransform = Transform3D(viewBox) }
        layer.sublayers = children(of: e, style: style, path: path)
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
        layer.transform = Transform3D(Transform2D.translation(x: x, y: y))
        if target.name == "symbol" {
            let w = SVGValues.length(e.attributes["width"]) ?? SVGValues.length(target.attributes["width"])
            let h = SVGValues.length(e.attributes["height"]) ?? SVGValues.length(target.attributes["height"])
            let targetStyle = SVGStyle.computed(for: target, parent: style, sheet: sheet)
            var symbol = Layer(name: unique("\(name)/symbol"))
            let (sw, sh, viewBox) = viewport(of: target, width: w ?? 100, height: h ?? 100)
            symbol.anchorPoint = .zero
            symbol.bounds = Rect(x: 0, y: 0, width: sw, height: sh)
            symbol.masksToBounds = target.attributes["overflow"].map { $0 != "visible" && $0 != "auto" } ?? true
            if let viewBox { symbol.sublayerTransform = Transform3D(viewBox) }
            symbol.sublayers = children(of: target, style: targetStyle, path: "\(path)/symbol")
            layer.sublayers = [symbol]
        } else if let copy = convert(target, parent: style, path: "\(path)/\(target.name)") {
            layer.sublayers = [copy]
        }
        return layer
    }
}
