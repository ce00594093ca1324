/// A Lottie composition as a Reel scene: each layer a tree of Reel layers — its transform (anchor,
/// position, scale, rotation, opacity) keyed as Core Animation animations, its parent's transforms
/// around it, its content (shapes, a solid, a precomp's layers) inside, shown between its in and out
/// points — with the timing of precomps and time stretch mapped onto scene seconds.
import Foundation
import ReelAnimation
import ReelDocument
import ReelGeometry
import ReelScene

public enum LottieImport {
    /// A Lottie file as a scene of its size, frame rate and length (frame f at (f − ip)/fr seconds), on a
    /// transparent background; the notes say what Reel left out, each with its JSON path.
    /// With `prefix`, every layer is named `prefix/…` (a Lottie inside a scene).
    public static func scene(_ bytes: [UInt8], file: String, prefix: String? = nil) throws(DocumentError) -> (Scene, [String]) {
        guard bytes.count <= DocumentLimits.maximumBytes else {
            throw DocumentError(
                file: file, message: "is \(bytes.count >> 20) MiB, above the limit of \(DocumentLimits.maximumBytes >> 20) MiB")
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw DocumentError(file: file, location: error.location, message: "invalid JSON: \(error.message)")
        }
        return try scene(root: root, file: file, prefix: prefix)
    }

    /// The same from a file's JSON already parsed (told from a scene by `looksLikeLottie`). `slots`:
    /// values for the file's slots, by id (`LottieSlots.apply`); the others keep the file's.
    /// `pictures`: image assets' pictures as `data:` URIs by their `u` + `p` (files beside it, read by
    /// the caller).
    public static func scene(
        root: JSONNode, file: String, prefix: String? = nil, slots: [String: JSONNode] = [:],
        pictures: [String: String] = [:]
    ) throws(DocumentError) -> (Scene, [String]) {
        try scene(root: root, file: file, prefix: prefix, budget: SampleBudget.total, pictures: pictures, slots: slots)
    }

    /// The animation a container held (`LottieContainer.read`), its pictures taken from the container and
    /// its theme's values in its slots (those given in `slots` win).
    public static func scene(
        _ document: LottieDocument, file: String, prefix: String? = nil, slots: [String: JSONNode] = [:]
    ) throws(DocumentError) -> (Scene, [String]) {
        // A theme may hold values for slots of the archive's other animations: only this one's are taken.
        let declared = Set(LottieSlots.declared(in: document.root).map(\.id))
        let values = document.themeValues.filter { declared.contains($0.key) }.merging(slots) { _, given in given }
        let (scene, notes) = try scene(
            root: document.root, file: file, prefix: prefix, budget: SampleBudget.total, pictures: document.pictures,
            slots: values)
        return (scene, document.notes + notes)
    }

    /// `budget`: values the import may key at every frame in all (smaller in tests). `pictures`: image
    /// assets' pictures as `data:` URIs by their `u` + `p` (a container's).
    static func scene(
        root written: JSONNode, file: String, prefix: String?, budget: Int, pictures: [String: String] = [:],
        slots: [String: JSONNode] = [:]
    ) throws(DocumentError) -> (Scene, [String]) {
        // The file's slots filled first (the values given, or the file's own): the model reads the result.
        let root = try LottieSlots.apply(written, file: file, values: slots)
        let animation = LottieAnimation(root)
        func required(_ key: String, _ value: Double?) throws(DocumentError) -> Double {
            guard let value else {
                throw DocumentError(
                    file: file, location: animation.keyLocations[key] ?? animation.location, path: key,
                    message: "a Lottie file needs a number \"\(key)\"", fix: "export the animation again with Bodymovin")
            }
            return value
        }
        let w = try required("w", animation.width), h = try required("h", animation.height),
            fr = try required("fr", animation.frameRate), ip = try required("ip", animation.inPoint),
            op = try required("op", animation.outPoint)
        guard w > 0, h > 0, w <= 100_000, h <= 100_000 else {
            throw DocumentError(file: file, location: animation.location, path: "w", message: "the canvas is \(w)×\(h)")
        }
        guard fr > 0, fr <= 1_000, let fps = FrameRate(value: fr) else {
            throw DocumentError(
                file: file, location: animation.keyLocations["fr"], path: "fr", message: "the frame rate \(fr) is not 0…1000")
        }
        guard op > ip else {
            throw DocumentError(
                file: file, location: animation.keyLocations["op"], path: "op",
                message: "the out point \(op) is not after the in point \(ip)")
        }
        // A scene's longest duration, in the file's frames after its in point.
        let lastOutPoint = ip + Scene.maximumDuration * fr
        guard op <= lastOutPoint else {
            throw DocumentError(
                file: file, location: animation.keyLocations["op"], path: "op",
                message:
                    "the out point \(op) is beyond the limit of \(lastOutPoint) (\(Int(Scene.maximumDuration / 3600)) h at \(fr) fps after the in point \(ip))",
                fix: "set \"op\" to the frame the animation ends at, at most 24 h of frames after \"ip\"")
        }
        guard let list = animation.layers else {
            // Told as Lottie by its other keys: say what it lacks, not that a scene has no key "v".
            throw DocumentError(
                file: file, location: animation.keyLocations["layers"] ?? animation.location, path: "layers",
                message: animation.layersKind.map { "\"layers\" is \($0), not a list of layers" }
                    ?? "this Lottie file has no \"layers\"",
                fix: "export the animation again with Bodymovin (a Lottie file lists its layers in \"layers\": [...])")
        }
        var scene = Scene(width: w, height: h, fps: fps, duration: (op - ip) / fr)
        scene.background = .clear
        var importer = LottieImporter(animation: animation)
        importer.pictures = pictures
        // Refused before anything is built: the import would stop at the same limit, after seconds of
        // building and gigabytes of layers it then leaves out.
        try LottieExpansion.check(animation, assets: importer.assets, file: file)
        importer.prefix = prefix
        importer.frameRate = fr
        let time = TimeMap(scale: 1 / fr, offset: -ip / fr, budget: SampleBudget(budget))
        var canvas = Layer(name: importer.unique(URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent))
        canvas.anchorPoint = .zero
        canvas.bounds = Rect(x: 0, y: 0, width: w, height: h)
        canvas.sublayers = importer.layers(list, path: "layers", time: time, frames: (ip, op), depth: 0)
        // Shown from its in point to its out point only: played inside a scene, before it begins or after
        // it ends (in the layer's own time) there is nothing of it.
        canvas = importer.visible(canvas, from: 0, to: (op - ip) / fr)
        scene.layers = [canvas]
        if time.budget.exhausted {
            importer.warn(
                "layers",
                "more than \(budget) values keyed at every frame; the rest are keyed at their first and last frames only"
            )
        }
        return (scene, importer.warnings)
    }
}

struct LottieImporter {
    /// The file's fonts, which text layers name.
    let fonts: [LottieFont]
    var warnings: [String] = []
    var warned = Set<String>()
    var names = Set<String>()
    var nextSuffix: [String: Int] = [:]
    var items = 0
    var assets: [String: LottieAsset] = [:]
    /// Image assets' pictures from the file's container, as `data:` URIs by their `u` + `p`.
    var pictures: [String: String] = [:]
    /// The composition's frames per second (a time remap's seconds to frames).
    var frameRate = 30.0
    /// Put before every name (`logo/Shape Layer 1`) when the animation is a layer of a scene.
    var prefix: String?

    init(animation: LottieAnimation) {
        fonts = animation.fonts
        for asset in animation.assets {
            if let id = asset.id { assets[id] = asset }
        }
    }

    mutating func warn(_ path: String, _ what: String) {
        // One note per kind of thing: "layers[3].shapes[0]: the shape item "rp" …" for the first place.
        let key = what
        guard warned.count < 200, warned.insert(key).inserted else { return }
        warnings.append("\(path): \(what)")
    }

    mutating func unique(_ plain: String) -> String {
        let name = prefix.map { "\($0)/\(plain)" } ?? plain
        guard !names.insert(name).inserted else { return name }
        var k = nextSuffix[name, default: 2]
        while !names.insert("\(name)#\(k)").inserted { k += 1 }
        nextSuffix[name] = k + 1
        return "\(name)#\(k)"
    }

    /// Counts an item against `LottieLimits.maximumItems`; false past it.
    mutating func count() -> Bool {
        items += 1
        if items == LottieLimits.maximumItems + 1 {
            warn("layers", "more than \(LottieLimits.maximumItems) layers and shapes; the rest are left out")
        }
        return items <= LottieLimits.maximumItems
    }

    /// A composition's layers, bottom first (Lottie lists the top one first).
    mutating func layers(_ list: [LottieLayer], path: String, time: TimeMap, frames: (Double, Double), depth: Int) -> [Layer] {
        guard depth < LottieLimits.maximumDepth else {
            warn(path, "precomps nested more than \(LottieLimits.maximumDepth) deep are left out")
            return []
        }
        var byIndex: [Int: LottieLayer] = [:]
        for l in list { if let ind = l.index { byIndex[ind] = l } }
        var out: [Layer] = []
        for (i, l) in list.enumerated().reversed() {
            guard count() else { break }
            let p = "\(path)[\(i)]"
            if l.hidden || l.isMatteSource { continue }  // hidden, or a matte source
            guard var converted = layer(l, index: i, path: path, time: time, frames: frames, depth: depth, byIndex: byIndex)
            else { continue }
            if let tt = l.matteMode, tt >= 1 {
                // A track matte: the layer above it (drawn only as the matte), masking this one in the
                // composition's space; alpha, inverted alpha, luma, inverted luma.
                let modes: [Int: MaskMode] = [1: .alpha, 2: .alphaInverted, 3: .luminance, 4: .luminanceInverted]
                // The matte is the layer `tp` names (Lottie 5.12 on), else the one just above.
                let source = l.matteTarget.flatMap { tp in list.firstIndex { $0.index == tp } } ?? (i - 1)
                if source >= 0, let mode = modes[tt],
                    let matte = layer(
                        list[source], index: source, path: path, time: time, frames: frames, depth: depth, byIndex: byIndex)
                {
                    var matted = Layer(name: unique("\(converted.name)/matted"))
                    matted.sublayers = [converted]
                    matted.mask = matte
                    matted.maskMode = mode
                    converted = matted
                } else {
                    warn(p, "a track matte without its matte layer above it is ignored")
                }
            }
            out.append(converted)
        }
        return out
    }

    /// One layer of a composition (its content, transform, parents, masks and in/out points), nil when
    /// it draws nothing.
    mutating func layer(
        _ l: LottieLayer, index i: Int, path: String, time: TimeMap, frames: (Double, Double), depth: Int,
        byIndex: [Int: LottieLayer]
    ) -> Layer? {
        let p = "\(path)[\(i)]"
        if l.is3D { warn(p, "a 3-D layer is drawn flat") }
        if l.hasLayerStyles { warn(p, "layer styles are not supported and are ignored") }
        if let at = l.expression { warn("\(p)\(at)", "expressions are not run; the keyframed value is drawn") }
        let start = l.startTime ?? 0, stretch = l.timeStretch.flatMap { $0 > 0 ? $0 : nil } ?? 1
        // A layer's own keyframes are in its composition's frames (Bodymovin writes them so); its start
        // time and stretch move only what it holds (a precomp's layers).
        let local = time.inner(start: start, stretch: stretch)
        let own = time
        let name = l.name ?? "layer \(i)"
        var content: [Layer] = []
        switch l.type ?? -1 {
        case 0:  // precomp
            guard let id = l.referenceID, let asset = assets[id] else {
                warn(p, "a precomp's asset is missing")
                return nil
            }
            var clip = Layer(name: unique("\(name)/precomp"))
            clip.anchorPoint = .zero
            clip.bounds = Rect(x: 0, y: 0, width: l.width ?? 0, height: l.height ?? 0)
            clip.masksToBounds = !(clip.bounds.isEmpty)
            if let remap = l.timeRemap {
                // The content in its own seconds, then keyed at each of the layer's frames at the remapped time.
                let content = layers(
                    asset.layers ?? [], path: "assets[\(id)].layers",
                    time: TimeMap(scale: 1 / frameRate, offset: 0, budget: own.budget),
                    frames: (-1e9, 1e9), depth: depth + 1)
                // Every animation in it is keyed again at each frame: each frame costs them all.
                let cost = content.reduce(0) { sum, layer in
                    sum
                        + layer.flattened().reduce(0) {
                            $0 + $1.layer.attachedAnimations.count * (1 + $1.layer.shape.path.elements.count)
                        }
                }
                let shown = own.everyFrame(
                    from: max(l.inPoint ?? frames.0, frames.0), to: min(l.outPoint ?? frames.1, frames.1), weight: cost
                )
                let inner = shown.map { remap.value(at: $0).first ?? 0 }, outer = shown.map(own.seconds)
                clip.sublayers = content.map { Self.remapped($0, inner: inner, outer: outer) }
            } else {
                clip.sublayers = layers(
                    asset.layers ?? [], path: "assets[\(id)].layers", time: local, frames: (-1e9, 1e9),
                    depth: depth + 1)
            }
            content = [clip]
        case 1:  // solid
            var solid = Layer(name: unique("\(name)/solid"), type: .shape)
            solid.shape.path = Path(rect: Rect(x: 0, y: 0, width: l.solidWidth ?? 0, height: l.solidHeight ?? 0))
            solid.shape.fillColor = Self.hexColor(l.solidColor ?? "#000000")
            content = [solid]
        case 2:  // image
            if let id = l.referenceID, let asset = assets[id], let path = asset.path,
                let data = path.hasPrefix("data:") ? path : pictures[(asset.folder ?? "") + path]
            {
                var picture = Layer(name: unique("\(name)/image"))
                picture.anchorPoint = .zero
                picture.bounds = Rect(x: 0, y: 0, width: asset.width ?? 0, height: asset.height ?? 0)
                picture.contents = data
                content = [picture]
            } else {
                warn(p, "an image layer whose picture is neither embedded nor a file that can be read is left out")
            }
        case 3: break  // null: a transform for its children
        case 4:
            content = shapeItems(l.shapes, path: "\(p).shapes", time: own, name: name, depth: 0)
        case 5: content = textLayers(l.text, path: p, time: own, name: name)
        default: warn(p, "a layer of type \(l.type.map(String.init) ?? "?") is not supported")
        }
        if l.type == 3 { return nil }
        if !l.effects.isEmpty { content = effects(l.effects, content, path: p, time: own, name: name) }
        let mask = masks(l.masks, path: "\(p).masksProperties", time: own, name: name)
        var layer = transformed(
            content, l.transform, path: "\(p).ks", time: own, name: unique(name), opacity: true, mask: mask,
            autoOrient: l.autoOrient)
        layer.compositingFilter = compositingFilter(l.blendMode, path: "\(p).bm")
        // Parents' transforms (not their opacity) around it, nearest innermost.
        var parent = l.parent
        var seen = Set<Int>()
        while let ind = parent, let pl = byIndex[ind], seen.insert(ind).inserted, seen.count < 64 {
            layer = transformed(
                [layer], pl.transform, path: "\(path)[parent \(ind)].ks", time: time,
                name: unique("\(layer.name)/parent"), opacity: false, autoOrient: pl.autoOrient)
            parent = pl.parent
        }
        // Shown from its in point to its out point (frames of the composition).
        let inPoint = l.inPoint ?? frames.0, outPoint = l.outPoint ?? frames.1
        let shownFrom = max(inPoint, frames.0), shownTo = min(outPoint, frames.1)
        if inPoint > frames.0 || outPoint < frames.1 {
            layer = visible(layer, from: time.seconds(shownFrom), to: time.seconds(shownTo))
        }
        return layer
    }

    /// The layer shown only in [from, to) seconds: hidden, with an animation that shows it then.
    func visible(_ input: Layer, from: Double, to: Double) -> Layer {
        var layer = input
        layer.hidden = true
        guard to > from else { return layer }
        layer.addAnimation(
            .basic(
                BasicAnimation(
                    keyPath: "hidden", fromValue: .bool(false), toValue: .bool(false),
                    timing: MediaTiming(beginTime: from, duration: to - from, fillMode: .removed))))
        return layer
    }

    /// After Effects' skew: `degrees` of shear along the direction `axis` degrees from the x axis
    /// (turned to the axis, sheared, turned back, as lottie-web composes it: a positive skew along the x
    /// axis moves points left in proportion to how far down they are, so the top leans right).
    static func skew(_ degrees: Double, axis: Double) -> Transform2D {
        let angle = axis * .pi / 180, t = tan(-min(max(degrees, -85), 85) * .pi / 180)
        let turn = Transform2D.rotation(angle)
        let back = Transform2D.rotation(-angle)
        return turn.concatenating(Transform2D(a: 1, b: 0, c: t, d: 1, tx: 0, ty: 0)).concatenating(back)
    }

    /// A Lottie blend mode (`bm`) as Core Animation's filter; nil for normal, and for hard mix (a note).
    mutating func compositingFilter(_ bm: Int?, path: String) -> CompositingFilter? {
        guard let n = bm, n != 0 else { return nil }
        let filters: [Int: CompositingFilter] = [
            1: .multiplyBlendMode, 2: .screenBlendMode, 3: .overlayBlendMode, 4: .darkenBlendMode, 5: .lightenBlendMode,
            6: .colorDodgeBlendMode, 7: .colorBurnBlendMode, 8: .hardLightBlendMode, 9: .softLightBlendMode,
            10: .differenceBlendMode, 11: .exclusionBlendMode, 12: .hueBlendMode, 13: .saturationBlendMode, 14: .colorBlendMode,
            15: .luminosityBlendMode, 16: .additionCompositing,
        ]
        guard let filter = filters[n] else {
            warn(path, "the blend mode \(Self.blendModes[n].map { "\"\($0)\"" } ?? "\(n)") is not supported; drawn as normal")
            return nil
        }
        return filter
    }

    /// Lottie's blend modes by number.
    static let blendModes = [
        1: "multiply", 2: "screen", 3: "overlay", 4: "darken", 5: "lighten", 6: "color dodge", 7: "color burn",
        8: "hard light", 9: "soft light", 10: "difference", 11: "exclusion", 12: "hue", 13: "saturation", 14: "color",
        15: "luminosity", 16: "add", 17: "hard mix",
    ]

    static func hexColor(_ s: String) -> Color {
        let hex = s.hasPrefix("#") ? String(s.dropFirst()) : s
        guard hex.count == 6, let v = UInt32(hex, radix: 16) else { return .black }
        return Color(red: Double((v >> 16) & 255) / 255, green: Double((v >> 8) & 255) / 255, blue: Double(v & 255) / 255)
    }

    /// `content` under a Lottie transform (`ks` of a layer, `tr` of a group): q ↦ p + R·S·(q − a), as
    /// nested layers so that each keyed part animates alone from the identity — the outer one takes
    /// position, rotation and opacity, then x scale, then y scale (with the anchor as its bounds'
    /// origin), exactly, whatever the signs.
    mutating func transformed(
        _ content: [Layer], _ ks: LottieTransform?, path: String, time: TimeMap, name: String, opacity: Bool = true,
        mask: Layer? = nil, autoOrient: Bool = false
    ) -> Layer {
        let anchor = ks?.anchor ?? Property([0, 0])
        let scale = ks?.scale ?? Property([100, 100])
        let rotation = ks?.rotation ?? ks?.rotationZ ?? Property([0])
        let alpha = ks?.opacity ?? Property([100])
        // y scale, with the anchor: q ↦ (q − a)·Sy; the anchor is the bounds' origin, keyed where it moves.
        var inner = Layer(name: unique("\(name)/scale.y"))
        let a = anchor.value
        inner.bounds = Rect(x: a.first ?? 0, y: a.count > 1 ? a[1] : 0, width: 0, height: 0)
        if let anim = anchor.animation(
            "bounds", time, { .rect(Rect(x: $0.first ?? 0, y: $0.count > 1 ? $0[1] : 0, width: 0, height: 0)) })
        {
            inner.addAnimation(anim)
        }
        inner.anchorPoint = .zero
        // Masks are in the layer's own coordinates, where its content is.
        if let mask {
            var masked = Layer(name: unique("\(name)/masked"))
            masked.sublayers = content
            masked.mask = mask
            inner.sublayers = [masked]
        } else {
            inner.sublayers = content
        }
        let skew = ks?.skew ?? Property([0]), axis = ks?.skewAxis ?? Property([0])
        let s = scale.value
        var outer: Layer
        if !scale.isAnimated, !rotation.isAnimated, !skew.isAnimated, !axis.isAnimated, !autoOrient {
            // Nothing but the place and the opacity moves: one layer, its transform the still scale, skew
            // and rotation (most layers and groups of most files; three nested layers each would cost
            // every frame three presentations).
            outer = inner
            outer.name = name
            let r = (rotation.value.first ?? 0) * .pi / 180
            outer.transform = Transform3D(
                Transform2D.scale(x: (s.first ?? 100) / 100, y: (s.count > 1 ? s[1] : s.first ?? 100) / 100)
                    .concatenating(Self.skew(skew.value.first ?? 0, axis: axis.value.first ?? 0))
                    .concatenating(Transform2D.rotation(r)))
        } else {
            outer = nested(inner, scale: scale, rotation: rotation, skew: skew, axis: axis, time: time, name: name)
        }
        placed(&outer, ks, rotation: rotation, opacity: opacity ? alpha : nil, autoOrient: autoOrient, time: time)
        return outer
    }

    /// Scale, skew and rotation that move as nested layers, so that each keyed part animates alone from
    /// the identity: x scale, then y scale (the innermost, `inner`), skew, and rotation on the outer one.
    mutating func nested(
        _ innermost: Layer, scale: Property, rotation: Property, skew: Property, axis: Property, time: TimeMap, name: String
    ) -> Layer {
        var inner = innermost
        var middle = Layer(name: unique("\(name)/scale.x"))
        let s = scale.value
        // A keyed scale leaves the model transform alone: its animation (filled both ways) sets every
        // value, and a zero first value in the model would leave nothing for `transform.scale` to take apart.
        if let anim = scale.animation("transform.scale.y", time, { .number(($0.count > 1 ? $0[1] : $0.first ?? 100) / 100) }) {
            inner.addAnimation(anim)
        } else {
            inner.transform = .scale(1, (s.count > 1 ? s[1] : s.first ?? 100) / 100, 1)
        }
        if let anim = scale.animation("transform.scale.x", time, { .number(($0.first ?? 100) / 100) }) {
            middle.addAnimation(anim)
        } else {
            middle.transform = .scale((s.first ?? 100) / 100, 1, 1)
        }
        middle.sublayers = [inner]
        var outer = Layer(name: name)
        outer.sublayers = [middle]
        // Skew (between scale and rotation), a layer of its own where there is any.
        if skew.isAnimated || skew.value.first != 0 {
            var sheared = Layer(name: unique("\(name)/skew"))
            sheared.sublayers = [middle]
            func at(_ f: Double) -> Transform3D {
                Transform3D(Self.skew(skew.value(at: f).first ?? 0, axis: axis.value(at: f).first ?? 0))
            }
            let moving = [skew, axis].filter(\.isAnimated)
            if moving.isEmpty {
                sheared.transform = at(0)
            } else {
                var all = Property([0])
                all.keyframes = Set(moving.flatMap { $0.keyframes.map(\.frame) }).sorted().map {
                    Keyframe(frame: $0, value: [$0])
                }
                if let a = Self.sampled(all, time, { .transform(at($0)) }) {
                    sheared.addAnimation(.keyframe(a.with(keyPath: "transform")))
                }
            }
            outer.sublayers = [sheared]
        }
        outer.transform = .rotation((rotation.value.first ?? 0) * .pi / 180, 0, 0, 1)
        return outer
    }

    /// The layer's position (keyed, split or along a spatial path), its rotation's animation and, when
    /// it takes one, its opacity; with auto-orient, the rotation follows the motion too.
    mutating func placed(
        _ outer: inout Layer, _ ks: LottieTransform?, rotation: Property, opacity alpha: Property?, autoOrient: Bool,
        time: TimeMap
    ) {
        let split = ks?.positionSplit == true
        let position = split ? nil : (ks?.position ?? Property([0, 0]))
        let px = split ? ks?.positionX ?? Property([0]) : nil,
            py = split ? ks?.positionY ?? Property([0]) : nil
        let moves = [position, px, py].compactMap { $0 }.filter(\.isAnimated)
        if autoOrient, !moves.isEmpty {
            // Auto-orient: turned along its motion's direction as well, keyed at every frame.
            func at(_ f: Double) -> Point {
                if let position {
                    let v = position.value(at: f)
                    return Point(x: v.first ?? 0, y: v.count > 1 ? v[1] : 0)
                }
                return Point(x: px?.value(at: f).first ?? 0, y: py?.value(at: f).first ?? 0)
            }
            let frames = (moves + [rotation]).flatMap { $0.keyframes.map(\.frame) }
            let keyed = time.everyFrame(from: frames.min() ?? 0, to: frames.max() ?? 0)
            var heading = 0.0
            let angles = keyed.map { f -> AnimatableValue in
                let a = at(f - 0.01), b = at(f + 0.01)
                if a != b { heading = atan2(b.y - a.y, b.x - a.x) }
                return .number((rotation.value(at: f).first ?? 0) * .pi / 180 + heading)
            }
            outer.transform = .identity
            if let a = time.keyframed("transform.rotation.z", frames: keyed, values: angles) { outer.addAnimation(.keyframe(a)) }
        } else if let anim = rotation.animation("transform.rotation.z", time, { .number(($0.first ?? 0) * .pi / 180) }) {
            outer.addAnimation(anim)
        }
        if let px, let py {
            // Split position: x and y keyed apart.
            outer.position = Point(x: px.value.first ?? 0, y: py.value.first ?? 0)
            if let anim = px.animation("position.x", time, { .number($0.first ?? 0) }) { outer.addAnimation(anim) }
            if let anim = py.animation("position.y", time, { .number($0.first ?? 0) }) { outer.addAnimation(anim) }
        } else if let position {
            let v = position.value
            outer.position = Point(x: v.first ?? 0, y: v.count > 1 ? v[1] : 0)
            if let anim = position.animation("position", time, { .point(Point(x: $0.first ?? 0, y: $0.count > 1 ? $0[1] : 0)) }) {
                outer.addAnimation(anim)
            }
        }
        if let alpha {
            outer.opacity = min(max((alpha.value.first ?? 100) / 100, 0), 1)
            if let anim = alpha.animation("opacity", time, { .number(min(max(($0.first ?? 100) / 100, 0), 1)) }) {
                outer.addAnimation(anim)
            }
        }
    }
}
