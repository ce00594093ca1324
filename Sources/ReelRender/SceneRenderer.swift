/// Snapshot → display list → frame: presentation layers drawn in Core Animation's order, in device pixels.
import Foundation
import ReelGeometry
import ReelRaster
import ReelScene
import ReelText

/// Turns a snapshot into a display list in device pixels, and into a frame.
public struct SceneRenderer: Sendable {
    public var rasterizer: Rasterizer
    /// Decoded images for layers' `contents`, by the name the scene gives.
    public var images: [String: RasterImage]
    /// The fonts text layers name, and the typesetter.
    public var text: TextResources
    /// Vector pictures for layers' `contents` (SVG files), by the name the scene gives.
    public var vectors: [String: VectorContents] = [:]
    /// The pictures of video layers and the screens of terminal layers while a display list is made: the
    /// frame's media, prepared ahead.
    var pictures = LayerPictures()
    /// The frame in device pixels while a display list is made: text wholly outside it is left out.
    /// Nil where something could bring it into view (under a shadow, whose blur and offset reach out).
    var visibleArea: Rect?
    /// The frame in device pixels while a display list is made, also under a shadow: what an SVG
    /// filter's region is held to (`effectInDevice`).
    var frameArea: Rect?
    /// What still subtrees made, kept for the next frames; shared by copies.
    public var retainedCommands = RetainedCommands()
    /// Set while a still subtree's commands are made: its still sublayers are not kept again on their own.
    var keeping = false

    public init(
        rasterizer: Rasterizer = Rasterizer(), images: [String: RasterImage] = [:], text: TextResources = TextResources(),
        vectors: [String: VectorContents] = [:]
    ) {
        self.vectors = vectors
        self.rasterizer = rasterizer
        self.images = images
        self.text = text
    }

    /// The frame at `time`; video layers show what `pictures` holds for them (see `videoFrames(in:)`).
    public func frame(for scene: Scene, at time: Double, pictures: LayerPictures = LayerPictures()) throws(RasterError)
        -> Frame
    {
        let list = displayList(for: scene.sample(at: time), scene: scene, pictures: pictures)
        return try rasterizer.render(list, width: scene.pixelWidth, height: scene.pixelHeight)
    }

    /// The snapshot's display list; video layers show what `pictures` holds for them, decoded ahead by
    /// the pipeline's media stage: nothing here waits for a file.
    public func displayList(for snapshot: Snapshot, scene: Scene, pictures: LayerPictures = LayerPictures())
        -> DisplayList
    {
        var list = DisplayList(background: scene.background)
        let toPixels = Transform3D.scale(scene.scale, scene.scale, 1)
        var culling = self
        culling.pictures = pictures
        culling.visibleArea = Rect(x: 0, y: 0, width: Double(scene.pixelWidth), height: Double(scene.pixelHeight))
        culling.frameArea = culling.visibleArea
        // A still snapshot draws what it drew before.
        if let id = snapshot.retained {
            culling.keeping = true
            let kept = retainedCommands.commands(RetainedCommands.Key(id: id, toDevice: toPixels, culled: true)) {
                var commands: [DisplayList.Command] = []
                for i in Self.drawingOrder(snapshot.top) {
                    snapshot.top.withLayer(at: i) { culling.emit($0, parentToDevice: toPixels, into: &commands) }
                }
                return commands
            }
            list.commands = kept.commands
            if let run = kept.run { list.keptRuns = [run] }
            return list
        }
        var commands: [DisplayList.Command] = [], runs: [DisplayList.KeptRun] = []
        culling.emitSiblings(snapshot.top, parentToDevice: toPixels, into: &commands, runs: &runs)
        list.commands = commands
        list.keptRuns = runs
        return list
    }

    /// Siblings' indices in the order they are drawn: by zPosition, equal ones in their own order. Indices,
    /// not the layers: sorting copies of a hundred thousand presentation layers (1.4 KB each) held two
    /// more copies of the whole frame's tree for the length of the sort; most siblings share one
    /// zPosition, and then nothing is sorted at all.
    /// zPosition is read from `properties`, in place: through the key-path member, each read copied the
    /// layer's whole `LayerProperties` (2,000 still siblings, every frame).
    static func drawingOrder(_ layers: PresentedLayers) -> [Int] {
        guard !layers.isEmpty else { return [] }
        // Still layers all at one zPosition: only the moving ones are read (2,000 still siblings a frame).
        if let z = layers.stillZPosition, layers.movingIndices.allSatisfy({ layers.zPosition(at: $0) == z }) {
            return Array(layers.indices)
        }
        let z = layers.zPosition(at: 0)
        var i = 1
        while i < layers.count && layers.zPosition(at: i) == z { i += 1 }
        guard i < layers.count else { return Array(layers.indices) }
        return layers.indices.sorted { (layers.zPosition(at: $0), $0) < (layers.zPosition(at: $1), $1) }
    }

    /// The commands that draw one layer and its sublayers, in Core Animation's order: shadow (of the
    /// whole layer), background, contents (image, shape or gradient), sublayers, border; then the mask,
    /// the `masksToBounds` clip and the opacity apply to all of it as one picture.
    func emit(_ layer: PresentationLayer, parentToDevice: Transform3D, into out: inout [DisplayList.Command]) {
        // A still subtree draws what it drew at the same place before: kept at the outermost still layer.
        guard !keeping, let id = layer.retained, parentToDevice.isFinite else {
            return emitLayer(layer, parentToDevice: parentToDevice, into: &out)
        }
        var inside = self
        inside.keeping = true
        out +=
            retainedCommands.commands(RetainedCommands.Key(id: id, toDevice: parentToDevice, culled: visibleArea != nil)) {
                var made: [DisplayList.Command] = []
                inside.emitLayer(layer, parentToDevice: parentToDevice, into: &made)
                return made
            }.commands
    }

    /// Siblings in drawing order. A run of still ones (consecutive in that order) is kept as one list under
    /// its first layer's identity and length: a frame with 2,000 still shapes beside one moving dot looks
    /// up one or two lists, not 2,000. Still siblings keep their order among themselves (their zPosition
    /// never changes), so the first and the length name the same layers at every frame.
    /// The runs taken whole from kept lists are noted in `runs` (where they are in `out`).
    func emitSiblings(
        _ layers: PresentedLayers, parentToDevice: Transform3D, into out: inout [DisplayList.Command],
        runs: inout [DisplayList.KeptRun]
    ) {
        let order = Self.drawingOrder(layers)
        var k = 0
        while k < order.count {
            guard !keeping, let id = layers.retained(at: order[k]), parentToDevice.isFinite else {
                layers.withLayer(at: order[k]) { emitLayer($0, parentToDevice: parentToDevice, into: &out) }
                k += 1
                continue
            }
            var end = k + 1
            while end < order.count, layers.retained(at: order[end]) != nil { end += 1 }
            var inside = self
            inside.keeping = true
            let key = RetainedCommands.Key(id: id, count: end - k, toDevice: parentToDevice, culled: visibleArea != nil)
            let kept = retainedCommands.commands(key) { [k, end] in
                var made: [DisplayList.Command] = []
                for i in order[k..<end] {
                    layers.withLayer(at: i) { inside.emitLayer($0, parentToDevice: parentToDevice, into: &made) }
                }
                return made
            }
            if let run = kept.run {
                runs.append(DisplayList.KeptRun(range: out.count..<out.count + run.range.count, token: run.token, rows: run.rows))
            }
            // Room for the siblings after the run too (a few commands each): the dot drawn after 2,000 kept
            // shapes had the list grown, and all of it moved, in every frame.
            out.reserveCapacity(out.count + kept.commands.count + 4 * (order.count - end))
            out += kept.commands
            k = end
        }
    }

    private func emitLayer(_ layer: PresentationLayer, parentToDevice: Transform3D, into out: inout [DisplayList.Command]) {
        guard !layer.properties.hidden, layer.properties.opacity > 0 else { return }
        let toDevice3D = layer.toParent.concatenating(parentToDevice)
        guard toDevice3D.isFinite else { return }
        // Paints, shadows and pens use the affine part (exact unless the layer is seen in perspective).
        let toDevice = toDevice3D.affine
        // Sublayers: sublayerTransform about the same pivot (§8.2; pivot UNCONFIRMED).
        let childToDevice =
            layer.properties.sublayerTransform.isIdentity ? toDevice3D : layer.sublayerToParent.concatenating(toDevice3D)
        let boundsShape = Path(roundedRect: layer.properties.bounds, cornerRadius: layer.properties.cornerRadius)
        // A layer that casts a shadow may bring what is off the frame into view: nothing under it is culled.
        let scope = layer.properties.shadowOpacity > 0 && layer.properties.shadowColor.alpha > 0 ? unculled : self

        var body: [DisplayList.Command] = []
        if let bg = layer.properties.backgroundColor, bg.alpha > 0, !layer.properties.bounds.isEmpty {
            body.append(.fill(path: boundsShape.applying(toDevice3D), color: bg))
        }
        if let name = layer.properties.contents, let image = images[name], !layer.properties.bounds.isEmpty {
            let natural = Size(width: Double(image.width), height: Double(image.height))
            body.append(contentsImage(image, natural: natural, of: layer, toDevice3D: toDevice3D, toDevice: toDevice))
        }
        if layer.type == .video, let playback = layer.properties.video, !layer.properties.bounds.isEmpty,
            let image = pictures[layer: layer.name, at: playback.fileTime(atLayerTime: layer.time)]
        {
            // Fitted by its size as displayed, whatever size the decoder scaled it to.
            body.append(contentsImage(image, natural: playback.size, of: layer, toDevice3D: toDevice3D, toDevice: toDevice))
        }
        if let name = layer.properties.contents, let vector = vectors[name], !layer.properties.bounds.isEmpty,
            vector.size.width > 0,
            vector.size.height > 0
        {
            // Drawn as vectors into the frame the gravity gives its natural size: crisp at any scale.
            let place = layer.properties.contentsGravity.frame(for: vector.size, in: layer.properties.bounds)
            let toPlace = Transform2D.scale(x: place.width / vector.size.width, y: place.height / vector.size.height)
                .concatenating(.translation(x: place.minX, y: place.minY))
            scope.emit(vector.layer, parentToDevice: Transform3D(toPlace).concatenating(toDevice3D), into: &body)
        }
        switch layer.type {
        case .layer, .replicator, .video:
            break
        case .terminal:
            body += terminalCommands(of: layer, toDevice: toDevice)
        case .text:
            if let text = presentText(layer) {
                body += scope.textCommands(text, of: layer, toDevice3D: toDevice3D, toDevice: toDevice)
            }
        case .shape:
            let shape = layer.properties.shape
            let rule: FillRule = shape.fillRule == .evenOdd ? .evenOdd : .nonZero
            if let fill = shape.fillColor, fill.alpha > 0, !shape.path.isEmpty {
                if let g = shape.fillGradient {
                    body.append(
                        .fill(
                            path: shape.path.applying(toDevice3D), paint: .gradient(Self.gradient(g, toDevice: toDevice)),
                            opacity: fill.alpha, rule: rule))
                } else {
                    body.append(.fill(path: shape.path.applying(toDevice3D), color: fill, rule: rule))
                }
            }
            if let stroke = shape.strokeColor, stroke.alpha > 0, !shape.path.isEmpty, shape.stroke.lineWidth > 0 {
                // Stroked in the layer's own space, so a non-uniform scale shapes the pen as it does on iOS.
                if toDevice3D.isAffineOnPlane {
                    let paint: Paint =
                        shape.strokeGradient.map { .gradient(Self.gradient($0, toDevice: toDevice)) } ?? .solid(stroke)
                    body.append(
                        .stroke(
                            path: shape.path, style: shape.stroke, transform: toDevice, paint: paint,
                            opacity: shape.strokeGradient == nil ? 1 : stroke.alpha))
                } else {
                    // In perspective: outline in the layer's space, then project the outline.
                    let outline = Stroker.outline(
                        shape.path, style: shape.stroke, tolerance: defaultFlatteningTolerance / max(toDevice.maxScale, 1e-9))
                    body.append(.fill(path: outline.applying(toDevice3D), color: stroke))
                }
            }
        case .gradient:
            if let g = gradient(layer.properties.gradient, bounds: layer.properties.bounds, toDevice: toDevice),
                !layer.properties.bounds.isEmpty
            {
                body.append(
                    .fill(
                        path: Path(rect: layer.properties.bounds).applying(toDevice3D), paint: .gradient(g), opacity: 1,
                        rule: .nonZero))
            }
        }
        // Siblings are drawn in zPosition order (stable: equal ones keep their order).
        if layer.type == .replicator {
            scope.emitInstances(of: layer, childToDevice: childToDevice, into: &body)
        } else {
            // Runs inside a layer's commands are not noted: they move when its commands join the list.
            var runs: [DisplayList.KeptRun] = []
            scope.emitSiblings(PresentedLayers(layer.sublayers), parentToDevice: childToDevice, into: &body, runs: &runs)
        }
        if layer.properties.borderWidth > 0, layer.properties.borderColor.alpha > 0, !layer.properties.bounds.isEmpty {
            // The border lies inside the bounds, following the corner radius.
            let w = min(layer.properties.borderWidth, layer.properties.bounds.width / 2, layer.properties.bounds.height / 2)
            let b = layer.properties.bounds
            var ring = boundsShape
            ring.addPath(
                Path(
                    roundedRect: Rect(x: b.minX + w, y: b.minY + w, width: b.width - 2 * w, height: b.height - 2 * w),
                    cornerRadius: max(0, layer.properties.cornerRadius - w)))
            body.append(.fill(path: ring.applying(toDevice3D), color: layer.properties.borderColor, rule: .evenOdd))
        }

        var maskCommands: [DisplayList.Command] = []
        if let mask = layer.mask { scope.emit(mask, parentToDevice: toDevice3D, into: &maskCommands) }
        let shadow = shadowOf(layer, toDevice: toDevice)
        let clip = layer.properties.masksToBounds && !clipsNothing(layer, toDevice3D) ? boundsShape.applying(toDevice3D) : nil
        let hasMask = layer.mask != nil
        let blendMode = layer.properties.compositingFilter.map(Self.blendMode) ?? .normal
        let filters =
            layer.properties.filters.isEmpty && layer.properties.filterEffects.isEmpty
            ? []
            : Self.pictureFilters(
                layer.properties.filters, effects: layer.properties.filterEffects, toDevice: toDevice, visible: frameArea,
                images: images)
        let backdropFilters =
            layer.properties.backgroundFilters.isEmpty || layer.properties.bounds.isEmpty
            ? [] : Self.pictureFilters(layer.properties.backgroundFilters, toDevice: toDevice)
        if shadow == nil && clip == nil && !hasMask && blendMode == .normal && !layer.properties.isolatesBlending
            && filters.isEmpty && backdropFilters.isEmpty && (layer.properties.opacity >= 1 || body.count <= 1)
        {
            // No offscreen group needed: with at most one command, group opacity is that command's.
            for command in body {
                switch command {
                case .fill(let path, let paint, let opacity, let rule) where layer.properties.opacity < 1:
                    out.append(.fill(path: path, paint: paint, opacity: opacity * layer.properties.opacity, rule: rule))
                case .stroke(let path, let style, let transform, let paint, let opacity) where layer.properties.opacity < 1:
                    out.append(
                        .stroke(
                            path: path, style: style, transform: transform, paint: paint,
                            opacity: opacity * layer.properties.opacity))
                default:
                    out.append(command)
                }
            }
            return
        }
        // An SVG filter may paint without content (a flood).
        guard !body.isEmpty || !backdropFilters.isEmpty || !layer.properties.filterEffects.isEmpty else { return }
        var group = Group(opacity: min(layer.properties.opacity, 1), clip: clip, hasMask: hasMask, shadow: shadow)
        group.maskByLuminance = layer.properties.maskMode.byLuminance
        group.maskInverted = layer.properties.maskMode.inverted
        group.blendMode = blendMode
        group.filters = filters
        if !backdropFilters.isEmpty {
            group.backdropFilters = backdropFilters
            group.backdropClip = boundsShape.applying(toDevice3D)
        }
        out.append(.beginGroup(group))
        out.append(contentsOf: body)
        if hasMask {
            out.append(.beginMask)
            out.append(contentsOf: maskCommands)
        }
        out.append(.endGroup)
    }

    /// An image shown over a layer's bounds, fitted by `contentsGravity` from its natural size in pixels
    /// (`contentsScale` pixels a point), drawn from its own pixels whatever their number.
    func contentsImage(
        _ image: RasterImage, natural pixels: Size, of layer: PresentationLayer, toDevice3D: Transform3D, toDevice: Transform2D
    ) -> DisplayList.Command {
        let natural = Size(
            width: pixels.width / layer.properties.contentsScale, height: pixels.height / layer.properties.contentsScale)
        let place = layer.properties.contentsGravity.frame(for: natural, in: layer.properties.bounds)
        let toBounds = Transform2D.scale(x: place.width / Double(image.width), y: place.height / Double(image.height))
            .concatenating(.translation(x: place.minX, y: place.minY))
        return .fill(
            path: Path(rect: place).applying(toDevice3D), paint: .image(image, transform: toBounds.concatenating(toDevice)),
            opacity: 1, rule: .nonZero)
    }

    /// Whether a layer's `masksToBounds` clip holds the whole frame, so that drawing it unclipped is the
    /// same picture without an offscreen group (a Lottie precomp as large as its canvas, say): square
    /// corners and bounds that stay an axis-aligned rectangle covering the visible area.
    func clipsNothing(_ layer: PresentationLayer, _ toDevice3D: Transform3D) -> Bool {
        guard let area = visibleArea, layer.properties.cornerRadius <= 0, toDevice3D.isAffineOnPlane else { return false }
        let t = toDevice3D.affine
        guard t.b == 0, t.c == 0 else { return false }
        let b = layer.properties.bounds
        let x0 = t.a * b.minX + t.tx, x1 = t.a * b.maxX + t.tx, y0 = t.d * b.minY + t.ty, y1 = t.d * b.maxY + t.ty
        return min(x0, x1) <= area.minX && max(x0, x1) >= area.maxX && min(y0, y1) <= area.minY && max(y0, y1) >= area.maxY
    }

    /// The raster's blend mode for Core Animation's filter name.
    static func blendMode(_ filter: CompositingFilter) -> BlendMode {
        switch filter {
        case .multiplyBlendMode: return .multiply
        case .screenBlendMode: return .screen
        case .overlayBlendMode: return .overlay
        case .darkenBlendMode: return .darken
        case .lightenBlendMode: return .lighten
        case .colorDodgeBlendMode: return .colorDodge
        case .colorBurnBlendMode: return .colorBurn
        case .hardLightBlendMode: return .hardLight
        case .softLightBlendMode: return .softLight
        case .differenceBlendMode: return .difference
        case .exclusionBlendMode: return .exclusion
        case .hueBlendMode: return .hue
        case .saturationBlendMode: return .saturation
        case .colorBlendMode: return .color
        case .luminosityBlendMode: return .luminosity
        case .additionCompositing: return .plusLighter
        }
    }

    /// This renderer drawing everything, off the frame or not.
    var unculled: SceneRenderer {
        var r = self
        r.visibleArea = nil
        return r
    }

    /// A replicator's instances (CORE-ANIMATION.md §8.5): instance k is its sublayers as sampled at
    /// t − k·instanceDelay, moved by T(−c)·instanceTransformᵏ·T(c) about the bounds' centre c
    /// (UNCONFIRMED against the anchor point), and multiplied by instanceColor + k·offsets.
    func emitInstances(of layer: PresentationLayer, childToDevice: Transform3D, into body: inout [DisplayList.Command]) {
        let r = layer.properties.replicator
        let c = Point(x: layer.properties.bounds.midX, y: layer.properties.bounds.midY)
        var power = Transform3D.identity
        for (k, sublayers) in layer.instances.enumerated() {
            let placement = Transform3D.translation(-c.x, -c.y).concatenating(power).concatenating(.translation(c.x, c.y))
            var commands: [DisplayList.Command] = []
            for i in Self.drawingOrder(PresentedLayers(sublayers)) {
                emit(sublayers[i], parentToDevice: placement.concatenating(childToDevice), into: &commands)
            }
            let tint = r.color(ofInstance: k)
            if tint == .white || commands.isEmpty {
                body += commands
            } else {
                body.append(.beginGroup(Group(tint: tint)))
                body += commands
                body.append(.endGroup)
            }
            power = power.concatenating(r.instanceTransform)
        }
    }

    func shadowOf(_ layer: PresentationLayer, toDevice: Transform2D) -> Shadow? {
        guard layer.properties.shadowOpacity > 0, layer.properties.shadowColor.alpha > 0 else { return nil }
        var color = layer.properties.shadowColor
        color.alpha *= min(layer.properties.shadowOpacity, 1)
        // The offset is a vector: only the linear part of the transform applies.
        let o = layer.properties.shadowOffset
        let offset = Point(x: toDevice.a * o.x + toDevice.c * o.y, y: toDevice.b * o.x + toDevice.d * o.y)
        return Shadow(
            color: color, offset: offset, sigma: Self.shadowSigma(radius: layer.properties.shadowRadius) * toDevice.maxScale)
    }

    /// UNCONFIRMED (not in CORE-ANIMATION.md): the Gaussian behind `shadowRadius`. Design tools map a
    /// CSS/Sketch blur b to `shadowRadius = b / 2`, and a CSS blur b is a Gaussian of σ = b / 2, so
    /// σ = shadowRadius.
    public static func shadowSigma(radius: Double) -> Double { max(radius, 0) }

    /// A shape's gradient paint in device space.
    static func gradient(_ g: ShapeGradient, toDevice: Transform2D) -> Gradient {
        let kind: Gradient.Kind
        switch g.kind {
        case .axial(let s, let e): kind = .axial(start: s, end: e)
        case .radial(let c, let r): kind = .radial(center: c, radiusX: r, radiusY: r)
        // A focal point at the centre with no radius is the plain radial ramp, kept on its faster path.
        case .focal(let f, let fr, let c, let r) where f == c && fr == 0: kind = .radial(center: c, radiusX: r, radiusY: r)
        case .focal(let f, let fr, let c, let r): kind = .conical(start: f, startRadius: fr, end: c, endRadius: r)
        }
        let spread: Gradient.Spread
        switch g.spread {
        case .pad: spread = .pad
        case .reflect: spread = .reflect
        case .repeat: spread = .repeat
        }
        return Gradient(
            kind: kind, colors: g.colors, locations: g.locations, transform: g.transform.concatenating(toDevice),
            spread: spread, interpolation: g.straightInterpolation ? .unpremultiplied : .premultiplied)
    }

    /// A gradient layer's ramp in device space. Points are unit coordinates of the bounds; the
    /// parameter is computed in the layer's own (point) space, as CORE-ANIMATION.md §9.2 states it.
    func gradient(_ g: GradientProperties, bounds: Rect, toDevice: Transform2D) -> Gradient? {
        guard !g.colors.isEmpty else { return nil }
        func place(_ p: Point) -> Point { Point(x: bounds.minX + p.x * bounds.width, y: bounds.minY + p.y * bounds.height) }
        let s = place(g.startPoint), e = place(g.endPoint)
        let kind: Gradient.Kind
        switch g.type {
        case .axial: kind = .axial(start: s, end: e)
        case .radial: kind = .radial(center: s, radiusX: abs(e.x - s.x), radiusY: abs(e.y - s.y))
        case .conic:
            guard s != e else { return nil }  // undefined in Core Animation
            kind = .conic(center: s, startAngle: atan2(e.y - s.y, e.x - s.x))
        }
        return Gradient(kind: kind, colors: g.colors, locations: g.locations, transform: toDevice)
    }
}

/// A vector picture shown as a layer's contents (an SVG file): its layers as presented, and its natural
/// size in points, which `contentsGravity` fits into the bounds.
public struct VectorContents: Sendable {
    public var layer: PresentationLayer
    public var size: Size

    public init(layer: PresentationLayer, size: Size) {
        self.layer = layer
        self.size = size
    }
}
