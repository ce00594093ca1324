/// SVG patterns: a `pattern` paint server as its tile repeated (two replicators, one content copy)
/// over the part of a shape it paints, that part's outline masking it.
import Foundation
import ReelGeometry
import ReelScene

extension Importer {
    /// A fill or stroke painted by a pattern: the element and its opacity.
    struct PatternPaint {
        var server: SVGElement
        var opacity: Double
    }

    /// The layer painting `pattern` over `cover` (user units: what the painted part may reach) for a
    /// shape whose bounding box is `box`, or nil when it paints nothing (no tile area, no content, a
    /// pattern painting itself, too many tiles). Tiles, in the pattern's space (after its
    /// patternTransform), start at x, y and repeat every width, height (patternUnits); each is clipped to
    /// its rectangle and holds the content (patternContentUnits, or its viewBox). Attributes and
    /// children the pattern lacks come through its `href` chain.
    mutating func patternLayer(_ pattern: SVGElement, box: Rect?, cover: Rect, name: String, at e: SVGElement) -> Layer? {
        let chain = patternChain(pattern)
        func attribute(_ key: String) -> String? { chain.lazy.compactMap { $0.attributes[key] }.first }
        let key = ObjectIdentifier(pattern)
        guard !patternsExpanding.contains(key), patternsExpanding.count < 16 else {
            warn(e, "the pattern url(#\(pattern.attributes["id"] ?? "")) paints itself; that paint is left out")
            return nil
        }
        let (boxTiles, boxContent) = Self.units(chain)
        let bbox = box.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
        if patternNeedsBox(pattern) { guard bbox != nil else { return nil } }
        func length(_ key: String, along side: KeyPath<Size, Double>, origin: KeyPath<Rect, Double>) -> Double {
            let text = attribute(key) ?? "0"
            if boxTiles, let b = bbox {
                let size = Size(width: b.width, height: b.height)
                let fraction = SVGValues.length(text, percentOf: 1) ?? 0
                return (key == "x" || key == "y" ? b[keyPath: origin] : 0) + fraction * size[keyPath: side]
            }
            return SVGValues.length(text, percentOf: viewportSize[keyPath: side]) ?? 0
        }
        let tile = Rect(
            x: length("x", along: \.width, origin: \.minX), y: length("y", along: \.height, origin: \.minY),
            width: length("width", along: \.width, origin: \.minX), height: length("height", along: \.height, origin: \.minY))
        guard tile.width > 0, tile.height > 0, [tile.minX, tile.minY, tile.width, tile.height].allSatisfy(\.isFinite) else {
            return nil
        }
        if let o = pattern.attributes["transform-origin"] {
            warn(pattern, "transform-origin: \(o) on a <pattern> is not drawn yet and is ignored")
        }
        var place = Transform2D.identity
        if let t = attribute("patternTransform") {
            guard let parsed = SVGValues.transform(t) else {
                warn(pattern, "the patternTransform \"\(t)\" cannot be read and is ignored")
                return nil
            }
            place = parsed
        }
        // The children: the first in the chain with element children.
        let isElement = { (c: SVGElement) in !c.name.hasPrefix("{") && c.name != SVGElement.characters }
        guard let content = chain.first(where: { $0.children.contains(where: isElement) }) else { return nil }
        // Only the tiles that reach what is painted are made: `cover` taken into the pattern's space.
        guard let inverse = place.inverted else { return nil }
        let reach = cover.applying(inverse)
        let i0 = ((reach.minX - tile.minX) / tile.width).rounded(.down)
        let j0 = ((reach.minY - tile.minY) / tile.height).rounded(.down)
        let columns = ((reach.maxX - tile.minX) / tile.width).rounded(.up) - i0
        let rows = ((reach.maxY - tile.minY) / tile.height).rounded(.up) - j0
        guard columns.isFinite, rows.isFinite, columns >= 1, rows >= 1 else { return nil }
        let most = Double(Scene.maximumInstances), budget = Double(SVGLimits.maximumPatternLayers - patternLayers)
        let id = pattern.attributes["id"] ?? ""
        // Checked before the content is made (a tile is at least one layer), and again below with its layers.
        guard columns * rows <= budget, columns <= most, rows <= most else {
            let tiles = Self.whole(columns * rows)
            warn(e, "the pattern url(#\(id)) needs \(tiles) tiles here, past \(Self.patternLimitText); that paint is left out")
            return nil
        }
        // The content's units in the tile: its viewBox fitted to the tile, else the bounding box's units.
        var inTile = Transform2D.identity
        if let v = attribute("viewBox").flatMap(SVGValues.numbers), v.count == 4, v[2] > 0, v[3] > 0 {
            inTile = Self.fit(viewBox: v, into: Size(width: tile.width, height: tile.height), attribute("preserveAspectRatio"))
        } else if boxContent, let b = bbox {
            inTile = .scale(x: b.width, y: b.height)
        }
        guard inTile.isFinite else { return nil }
        patternsExpanding.append(key)
        defer { patternsExpanding.removeLast() }
        let style = styleInPlace(content)
        let tileLayers = children(of: content, style: style, path: "\(name)/tile")
        guard !tileLayers.isEmpty else { return nil }
        // Each tile presents its content's layers again (a pattern's own replicas inside them included),
        // and a frame's layers are limited: the import's patterns share one budget.
        func count(_ layers: [Layer]) -> Double {
            layers.reduce(0) { sum, l in
                let inner = 1 + count(l.sublayers) + (l.mask.map { count([$0]) } ?? 0)
                return sum + inner * Double(l.type == .replicator ? max(1, l.replicator.instanceCount) : 1)
            }
        }
        let layers = columns * rows * (1 + count(tileLayers))
        guard layers <= budget else {
            let n = Self.whole(layers)
            warn(e, "the pattern url(#\(id)) needs \(n) layers here, past \(Self.patternLimitText); that paint is left out")
            return nil
        }
        patternLayers += Int(layers)
        var cell = Layer(name: unique("\(name)/tile"))
        cell.anchorPoint = .zero
        cell.position = Point(x: tile.minX + i0 * tile.width, y: tile.minY + j0 * tile.height)
        cell.bounds = Rect(x: 0, y: 0, width: tile.width, height: tile.height)
        // Clipped to the tile unless its content lies inside it: a clip edge on a content edge at a
        // fraction of a pixel would take that pixel's coverage twice (0.75 twice is 0.56).
        let fits = Self.inkBounds(of: tileLayers).map {
            let inside = $0.applying(inTile)
            let slack = 1e-9 * max(tile.width, tile.height)
            return inside.minX >= -slack && inside.minY >= -slack && inside.maxX <= tile.width + slack
                && inside.maxY <= tile.height + slack
        }
        cell.masksToBounds = fits != true
        cell.sublayerTransform = Transform3D(inTile)
        cell.sublayers = tileLayers
        var row = Layer(name: unique("\(name)/columns"), type: .replicator)
        row.replicator.instanceCount = Int(columns)
        row.replicator.instanceTransform = Transform3D(.translation(x: tile.width, y: 0))
        row.sublayers = [cell]
        var grid = Layer(name: unique("\(name)/rows"), type: .replicator)
        grid.replicator.instanceCount = Int(rows)
        grid.replicator.instanceTransform = Transform3D(.translation(x: 0, y: tile.height))
        grid.sublayers = [row]
        grid.transform = Transform3D(place)
        return grid
    }

    /// A count as a whole number (one past Int's range as written).
    static func whole(_ v: Double) -> String { v < 1e15 ? String(Int(v)) : "\(v)" }

    static var patternLimitText: String {
        "the \(SVGLimits.maximumPatternLayers) layers an import's patterns may repeat"
    }

    /// The pattern and those it takes attributes and children from through `href`, nearest first.
    func patternChain(_ pattern: SVGElement) -> [SVGElement] {
        var chain: [SVGElement] = []
        var next: SVGElement? = pattern
        while let p = next, chain.count < 16, !chain.contains(where: { $0 === p }) {
            chain.append(p)
            next = p.attributes["href"].flatMap { $0.hasPrefix("#") ? ids[String($0.dropFirst())] : nil }
            if next?.name != "pattern" { next = nil }
        }
        return chain
    }

    /// Whether the tiles and the content are in bounding-box units: objectBoundingBox is the tiles'
    /// default, userSpaceOnUse the content's.
    static func units(_ chain: [SVGElement]) -> (tiles: Bool, content: Bool) {
        func attribute(_ key: String) -> String? {
            chain.lazy.compactMap { $0.attributes[key]?.trimmingCharacters(in: .whitespaces) }.first
        }
        return (attribute("patternUnits") != "userSpaceOnUse", attribute("patternContentUnits") == "objectBoundingBox")
    }

    /// Whether a pattern needs its shape's bounding box (and so paints a box with no area with its
    /// fallback): its tiles or its content (without a viewBox) are in bounding-box units.
    func patternNeedsBox(_ pattern: SVGElement) -> Bool {
        let chain = patternChain(pattern)
        let (tiles, content) = Self.units(chain)
        return tiles || (content && !chain.contains { $0.attributes["viewBox"] != nil })
    }

    /// What plain shapes and groups (no pictures, text, effects or replicas) may paint, strokes and
    /// transforms included; nil when the layers hold anything else, whose ink is not measured here.
    static func inkBounds(of layers: [Layer]) -> Rect? {
        var box: Rect?
        for layer in layers {
            guard layer.type == .shape || layer.type == .layer, layer.contents == nil, layer.mask == nil,
                layer.filters.isEmpty, layer.shadowOpacity == 0, layer.transform.isAffineOnPlane
            else { return nil }
            var ink: Rect?
            if layer.type == .shape, let b = layer.shape.path.bounds() {
                let s = layer.shape.stroke
                let reach = layer.shape.strokeColor == nil ? 0 : s.lineWidth / 2 * max(s.miterLimit, 1.5)
                ink = Rect(x: b.minX - reach, y: b.minY - reach, width: b.width + 2 * reach, height: b.height + 2 * reach)
            }
            if !layer.sublayers.isEmpty {
                guard layer.sublayerTransform == .identity, let inner = inkBounds(of: layer.sublayers) else { return nil }
                ink = ink.map { $0.union(inner) } ?? inner
            }
            guard let ink else { continue }
            let a = anchor(of: layer)
            let placed = ink.applying(
                Transform2D.translation(x: -a.x, y: -a.y).concatenating(layer.transform.affine)
                    .concatenating(.translation(x: layer.position.x, y: layer.position.y)))
            box = box.map { $0.union(placed) } ?? placed
        }
        return box
    }

}
