/// Clip paths and masks as Reel mask layers: `clip-path` as a layer of the clip's shapes filled opaque
/// (clip paths on clip paths intersected), `mask` as a luminance (or alpha) mask clipped to its region,
/// each in the masked element's coordinates and styled where it is written; a clip path or mask that
/// refers back to itself drops that reference, as resvg does.
import Foundation
import ReelGeometry
import ReelScene

extension Importer {
    /// The layer with the element's `clip-path` and `mask` applied.
    mutating func masking(_ input: Layer, e: SVGElement, style: SVGStyle) -> Layer {
        var layer = input
        var clipMask: Layer?
        if let reference = style.clipPath {
            // A reference to nothing, or a CSS shape (circle(), inset()…) Reel does not draw yet: the
            // element is drawn unclipped, as resvg and librsvg both do.
            if let id = SVGStyle.referencedID(reference), let clip = ids[id], clip.name == "clipPath" {
                clipMask = self.clipMask(clip, for: layer)
            } else {
                warn(e, "clip-path \"\(reference)\" is not a <clipPath> Reel can use; the element is not clipped")
            }
        }
        if let reference = style.mask {
            if let id = SVGStyle.referencedID(reference), let mask = ids[id], mask.name == "mask" {
                layer = masked(layer, by: mask, clip: clipMask, viewport: style.viewport)
            } else {
                // A reference to nothing is ignored, as resvg and librsvg both do.
                warn(e, "mask \"\(reference)\" is not a <mask> Reel can use and is ignored")
                layer.mask = clipMask
            }
        } else {
            layer.mask = clipMask
        }
        return layer
    }

    /// Whether the mask layers the element's `clip-path` and `mask` will make fit under
    /// `SVGLimits.maximumMaskLayers`: counted if they do, before the element or anything inside it is
    /// converted (so the outer elements of a fan-out keep theirs and the inner ones past the limit are
    /// left out, rather than work done inside being thrown away); else the element is left out with
    /// a warning. A mask's content counts towards the elements drawn; the mask itself is one layer.
    mutating func admitMasking(_ e: SVGElement, style: SVGStyle) -> Bool {
        var count = 0
        if let reference = style.clipPath, let id = SVGStyle.referencedID(reference), let clip = ids[id],
            clip.name == "clipPath"
        {
            var visiting: [ObjectIdentifier] = []
            count += clipCost(clip, visiting: &visiting)
        }
        if let reference = style.mask, let id = SVGStyle.referencedID(reference), let mask = ids[id], mask.name == "mask" {
            count += 1
        }
        guard count <= SVGLimits.maximumMaskLayers - maskLayers else {
            maskLayers = SVGLimits.maximumMaskLayers
            warn(
                e,
                "clip paths and masks would make more than \(SVGLimits.maximumMaskLayers) mask layers; elements past the limit are left out"
            )
            return false
        }
        maskLayers += count
        return true
    }

    /// The layers `clipMask(clip, for:)` makes, worked out from the elements before any is made:
    /// one for the clip path, one for each child and for the intersection with a clip path on the clip
    /// path, and the clip paths on those, recursively (as `clipMask` follows them: a clip path already
    /// being followed is dropped, and 16 deep at most). Saturates rather than overflows.
    mutating func clipCost(_ clip: SVGElement, visiting: inout [ObjectIdentifier]) -> Int {
        let key = ObjectIdentifier(clip)
        if let known = clipCosts[key] { return known }
        guard !visiting.contains(key), visiting.count < 16 else { return 0 }
        visiting.append(key)
        defer { visiting.removeLast() }
        var cost = 1
        func add(_ n: Int) { cost = n > Int.max / 4 - cost ? Int.max / 4 : cost + n }
        let clipStyle = styleInPlace(clip)
        for child in clip.children {
            add(1)
            var element = child
            if child.name == "use", let href = child.attributes["href"], href.hasPrefix("#"),
                let target = ids[String(href.dropFirst())]
            {
                element = target
            }
            guard ["rect", "circle", "ellipse", "line", "polyline", "polygon", "path"].contains(element.name) else { continue }
            let style = SVGStyle.computed(for: element, parent: clipStyle, sheet: sheet)
            if let reference = style.clipPath, let id = SVGStyle.referencedID(reference), let other = ids[id],
                other.name == "clipPath"
            {
                add(1 + clipCost(other, visiting: &visiting))
            }
        }
        if let reference = clipStyle.clipPath, let id = SVGStyle.referencedID(reference), let other = ids[id],
            other.name == "clipPath"
        {
            add(1 + clipCost(other, visiting: &visiting))
        }
        // Kept for every clip path, inner ones included, or fan-outs would be counted in exponential
        // time. Inside a cycle the count leaves out the reference back (as `clipMask` drops it).
        clipCosts[key] = cost
        return cost
    }

    /// A `clipPath` as a mask layer: its shapes filled opaque with their clip-rule, in the clipped
    /// element's coordinates (or its bounding box's, for objectBoundingBox units), after the clip path's
    /// own transform.
    mutating func clipMask(_ clip: SVGElement, for layer: Layer) -> Layer {
        var mask = Layer(name: unique("\(layer.name)/clip"))
        let key = ObjectIdentifier(clip)
        clipping.append(key)
        defer { clipping.removeLast() }
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
        if let o = clip.attributes["transform-origin"] {
            warn(clip, "transform-origin: \(o) on a <clipPath> is not drawn yet and is ignored")
        }
        let clipStyle = styleInPlace(clip)
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
            // Clip shapes count towards the elements drawn: clip paths on clip paths must not fan out.
            drawn += 1
            guard drawn <= Self.maximumDrawn else {
                warn(child, "more than \(Self.maximumDrawn) elements to draw; the rest are left out")
                break
            }
            if element.name == "text" {
                // Text clips by its glyphs' outlines, whatever its paint: drawn opaque black.
                var style = SVGStyle.computed(for: element, parent: clipStyle, sheet: sheet)
                style.fill = .color(.black)
                style.fillOpacity = 1
                style.stroke = .none
                guard style.displayed,
                    var text = textLayer(element, style: style, name: unique("\(mask.name)/text[\(i)]"))
                else { continue }
                var t = element.attributes["transform"].flatMap(SVGValues.transform) ?? .identity
                if element !== child {
                    t = t.concatenating(offset).concatenating(
                        child.attributes["transform"].flatMap(SVGValues.transform) ?? .identity)
                }
                text.transform = Transform3D(t).concatenating(text.transform)
                mask.sublayers.append(text)
                continue
            }
            guard ["rect", "circle", "ellipse", "line", "polyline", "polygon", "path"].contains(element.name) else {
                if !Self.notDrawn.contains(child.name) { warn(child, "<\(child.name)> in a <clipPath> is not supported yet") }
                continue
            }
            let style = SVGStyle.computed(for: element, parent: clipStyle, sheet: sheet)
            guard style.displayed, style.visible,
                let path = boundedPath(of: element, style: style)
            else {
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
            // A clip path on a child of the clip path clips that child, in its own coordinates.
            if let reference = style.clipPath, let id = SVGStyle.referencedID(reference), let other = ids[id],
                other.name == "clipPath", usable(other, from: child)
            {
                var content = shape
                content.transform = .identity
                shape.sublayers = [content]
                shape.type = .layer
                shape.shape = ShapeProperties()
                shape.mask = clipMask(other, for: content)
                shape.name = unique("\(content.name)/clipped")
            }
            mask.sublayers.append(shape)
        }
        // A clip path on the clip path intersects the two, in the clipped element's coordinates.
        if let reference = clipStyle.clipPath, let id = SVGStyle.referencedID(reference), let other = ids[id],
            other.name == "clipPath", usable(other, from: clip)
        {
            var outer = Layer(name: unique("\(mask.name)/intersection"))
            outer.sublayers = [mask]
            outer.mask = clipMask(other, for: layer)
            return outer
        }
        return mask
    }

    /// Whether a clip path may clip inside another: not one being expanded (a clip path that clips
    /// itself, directly or not), whose reference is dropped with a warning, as resvg does.
    mutating func usable(_ clip: SVGElement, from e: SVGElement) -> Bool {
        guard clipping.contains(ObjectIdentifier(clip)) || clipping.count >= 16 else { return true }
        warn(e, "the clip path refers back to itself; that reference is ignored")
        return false
    }

    /// The style `e` computes where it is written (its ancestors' cascade), for elements drawn where
    /// they are referenced, such as a clip path's or a mask's content.
    func styleInPlace(_ e: SVGElement) -> SVGStyle {
        var chain: [SVGElement] = []
        var next: SVGElement? = e
        while let element = next, chain.count < SVGLimits.maximumDepth + 1 {
            chain.append(element)
            next = element.parent
        }
        var style = SVGStyle()
        style.viewport = viewportSize
        for element in chain.reversed() { style = SVGStyle.computed(for: element, parent: style, sheet: sheet) }
        return style
    }

    /// `layer` masked by a `mask` element (and clipped by `clip` if it has one too: the layer then sits
    /// in a group of its name that the clip masks). A mask already being expanded (a mask that masks
    /// itself, directly or not) is left out, as resvg does.
    mutating func masked(_ layer: Layer, by element: SVGElement, clip: Layer?, viewport: Size) -> Layer {
        let key = ObjectIdentifier(element)
        guard !masking.contains(key), masking.count < 16 else {
            warn(element, "the mask refers back to itself; that reference is ignored")
            var plain = layer
            plain.mask = clip
            return plain
        }
        masking.append(key)
        defer { masking.removeLast() }
        var inner = layer
        let mask = maskLayer(element, for: layer, viewport: viewport)
        inner.mask = mask.layer
        inner.maskMode = mask.byAlpha ? .alpha : .luminance
        guard let clip else { return inner }
        var outer = Layer(name: layer.name)
        inner.name = unique("\(layer.name)/masked")
        outer.sublayers = [inner]
        outer.mask = clip
        return outer
    }

    /// A `mask` element as a mask layer in the masked element's coordinates: its region (x, y, width,
    /// height in maskUnits, by default the bounding box grown by 10 % each side) clipping its content
    /// (in maskContentUnits), and whether it masks by alpha (`mask-type: alpha`) or luminance.
    mutating func maskLayer(_ m: SVGElement, for layer: Layer, viewport: Size) -> (layer: Layer, byAlpha: Bool) {
        let style = styleInPlace(m)
        var mask = Layer(name: unique("\(layer.name)/mask"))
        let box = Self.bounds(of: layer)
        let a = m.attributes
        let region: Rect
        if a["maskUnits"] == "userSpaceOnUse" {
            // Percentages of the viewport of the element it masks.
            let v = viewport
            region = Rect(
                x: SVGValues.length(a["x"], percentOf: v.width) ?? -0.1 * v.width,
                y: SVGValues.length(a["y"], percentOf: v.height) ?? -0.1 * v.height,
                width: SVGValues.length(a["width"], percentOf: v.width) ?? 1.2 * v.width,
                height: SVGValues.length(a["height"], percentOf: v.height) ?? 1.2 * v.height)
        } else {
            // Fractions (or percentages) of the bounding box; a box with no area masks everything away.
            guard let b = box, b.width > 0, b.height > 0 else { return (mask, false) }
            let x = SVGValues.length(a["x"], percentOf: 1) ?? -0.1, y = SVGValues.length(a["y"], percentOf: 1) ?? -0.1
            let w = SVGValues.length(a["width"], percentOf: 1) ?? 1.2, h = SVGValues.length(a["height"], percentOf: 1) ?? 1.2
            region = Rect(x: b.minX + x * b.width, y: b.minY + y * b.height, width: w * b.width, height: h * b.height)
        }
        guard region.width > 0, region.height > 0 else { return (mask, style.maskTypeAlpha) }
        // Bounds at the region and position at its origin: the mask's coordinates are the element's,
        // clipped to the region.
        mask.bounds = region
        mask.anchorPoint = .zero
        mask.position = region.origin
        mask.masksToBounds = true
        var content = children(of: m, style: style, path: mask.name)
        if a["maskContentUnits"] == "objectBoundingBox" {
            guard let b = box, b.width > 0, b.height > 0 else { return (mask, style.maskTypeAlpha) }
            var scaled = Layer(name: unique("\(mask.name)/content"))
            scaled.transform = Transform3D(Transform2D(a: b.width, b: 0, c: 0, d: b.height, tx: b.minX, ty: b.minY))
            scaled.sublayers = content
            content = [scaled]
        }
        mask.sublayers = content
        // A mask on the mask element masks its content (by that mask's own type).
        if let reference = style.mask, let id = SVGStyle.referencedID(reference), let other = ids[id], other.name == "mask" {
            var holder = Layer(name: unique("\(mask.name)/masked"))
            holder.sublayers = mask.sublayers
            holder = masked(holder, by: other, clip: nil, viewport: viewport)
            mask.sublayers = [holder]
        }
        return (mask, style.maskTypeAlpha)
    }
}
