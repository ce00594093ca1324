/// A shape layer's items as Reel layers: groups as layers with their transforms, rectangles, ellipses
/// and Bézier paths as the geometry of the fills and strokes that follow them in their group (a fill
/// or stroke paints what is listed before it), gradients as shape gradients, trim paths as strokeStart
/// and strokeEnd. Items listed first are drawn on top.
import Foundation
import ReelAnimation
import ReelGeometry
import ReelScene

extension LottieImporter {
    /// A trim path: start and end in percent, offset in degrees (360° is the whole length).
    /// Trim paths in the order they apply (each trims what the ones before it left).
    /// `individually` (`m` 2): the shapes are trimmed as one path, one after another; otherwise each alike.
    typealias Trim = [(start: Property, end: Property, offset: Property, individually: Bool)]

    /// The layers a list of shape items draws, bottom first. A trim path trims every path listed before
    /// it, in its group and in the groups before it (`inherited`: the enclosing groups' trims).
    mutating func shapeItems(
        _ items: [LottieShapeItem], path: String, time: TimeMap, name: String, depth: Int, inherited: Trim? = nil,
        inheritedRounding: [Property] = []
    ) -> [Layer] {
        guard depth < LottieLimits.maximumDepth else {
            warn(path, "groups nested more than \(LottieLimits.maximumDepth) deep are left out")
            return []
        }
        var out: [Layer] = []
        func trim(after index: Int) -> Trim? {
            var trims: Trim = []
            for item in items[(index + 1)...] {
                if case .trim(let t) = item.content, let s = t.start, let e = t.end {
                    trims.append((s, e, t.offset ?? Property([0]), t.individually))
                }
            }
            trims += inherited ?? []
            return trims.isEmpty ? nil : trims
        }
        // Rounded corners after an item round it, as trims trim it.
        func rounding(after index: Int) -> [Property] {
            items[(index + 1)...].compactMap { item -> Property? in
                guard !item.hidden, case .roundedCorners(let radius) = item.content else { return nil }
                return radius
            } + inheritedRounding
        }
        // A repeater copies what the items before it draw; the items after it are drawn below the copies.
        let repeater = items.lastIndex { !$0.hidden && $0.repeater != nil }
        for (i, item) in items.enumerated().reversed() {
            if let repeater, i <= repeater {
                let content = shapeItems(
                    Array(items[..<repeater]), path: path, time: time, name: name, depth: depth + 1,
                    inherited: trim(after: repeater), inheritedRounding: rounding(after: repeater))
                if let rp = items[repeater].repeater {
                    out += repeated(content, rp, path: "\(path)[\(repeater)]", time: time, name: name)
                }
                break
            }
            let itemPath = "\(path)[\(i)]"
            guard count() else { break }
            if item.hidden { continue }
            switch item.content {
            case .group(let children):
                let transform = children.last { $0.type == "tr" }?.transform
                let content = shapeItems(
                    children, path: "\(itemPath).it", time: time, name: "\(name)/\(item.name ?? "group \(i)")",
                    depth: depth + 1, inherited: trim(after: i), inheritedRounding: rounding(after: i))
                guard !content.isEmpty else { continue }
                out.append(transformed(content, transform, path: itemPath, time: time, name: unique("\(name)/group")))
            case .paint(let style):
                // Its geometry: the shapes before it, and those of the groups before it (through their transforms).
                let geometry = items[..<i].enumerated().filter { $0.element.drawsGeometry && !$0.element.hidden }
                guard !geometry.isEmpty else { continue }
                // Any trim after the geometry trims it, before or after this paint.
                let last = geometry.map(\.offset).max() ?? i
                // Merge paths between the shapes and the paint: how the paint combines them (1 merges as is).
                let merge = items[..<i].last { $0.type == "mm" && !$0.hidden }?.mergeMode
                if let layer = paint(
                    item, style, geometry.map { ($0.element, "\(path)[\($0.offset)]") }, trim(after: last),
                    rounding: rounding(after: last), merge: merge,
                    path: itemPath, time: time, name: name)
                {
                    out.append(layer)
                }
            case .geometry, .transform, .trim, .roundedCorners, .repeater, .merge: break
            case .other:
                let other = item.type ?? ""
                warn(itemPath, "the shape item \"\(other)\" (\(Self.shapeNames[other] ?? "unknown")) is not supported yet")
            }
        }
        return out
    }

    static let shapeNames = [
        "rd": "rounded corners", "mm": "merge paths", "rp": "repeater", "zz": "zig zag",
        "pb": "pucker and bloat", "op": "offset path", "tw": "twist",
    ]

    /// A fill or stroke of the geometry before it: one shape layer, its path keyed where it moves.
    mutating func paint(
        _ item: LottieShapeItem, _ style: LottieShapeItem.Paint, _ geometry: [(LottieShapeItem, String)], _ trim: Trim?,
        rounding: [Property] = [], merge: Int? = nil, path: String, time: TimeMap, name: String
    ) -> Layer? {
        let kind = item.type ?? ""
        if kind == "st" || kind == "gs", let trim, geometry.count > 1, !trim.contains(where: \.individually) {
            // Trimmed simultaneously: each shape keeps the same part of its own length.
            var group = Layer(name: unique("\(name)/trimmed"))
            group.sublayers = geometry.compactMap {
                paint(item, style, [$0], trim, rounding: rounding, merge: merge, path: path, time: time, name: name)
            }
            return group
        }
        var layer = Layer(name: unique("\(name)/\(item.name ?? (item.type ?? "paint"))"), type: .shape)
        layer.compositingFilter = compositingFilter(item.blendMode, path: "\(path).bm")
        // Geometry: exact keyframes for one animated path; every frame for anything else that moves.
        func shaped(_ target: inout Layer, _ geometry: [(LottieShapeItem, String)]) {
            let frames = geometry.flatMap { Self.geometryFrames($0.0) } + rounding.flatMap { $0.keyframes.map(\.frame) }
            func outline(at f: Double) -> Path {
                rounding.reduce(Self.outline(geometry.map(\.0), at: f)) {
                    RoundCorners.rounded($0, radius: $1.value(at: f).first ?? 0)
                }
            }
            target.shape.path = outline(at: frames.first ?? 0)
            if geometry.count == 1, rounding.isEmpty, geometry[0].0.type == "sh", let shape = geometry[0].0.geometry?.path,
                shape.isAnimated
            {
                if let a = shape.animation(time) { target.addAnimation(a) }
            } else if let first = frames.min(), let last = frames.max(), last > first {
                let keyed = time.everyFrame(from: first, to: last, weight: target.shape.path.elements.count)
                let values = keyed.map { AnimatableValue.path(outline(at: $0)) }
                if let a = time.keyframed("path", frames: keyed, values: values) { target.addAnimation(.keyframe(a)) }
            }
        }
        let fills = kind == "fl" || kind == "gf"
        if fills, merge == 3 || merge == 4, geometry.count > 1 {
            // Merged by subtracting from or intersecting with the first path: the first path filled, masked
            // by the others (inverted to subtract).
            shaped(&layer, [geometry[0]])
            var others = Layer(name: unique("\(name)/merged"), type: .shape)
            shaped(&others, Array(geometry.dropFirst()))
            others.shape.fillColor = .black
            layer.mask = others
            layer.maskMode = merge == 3 ? .alphaInverted : .alpha
        } else {
            shaped(&layer, geometry)
        }
        if !fills, let merge, merge > 1 { warn(path, "merge paths (mode \(merge)) before a stroke strokes each path as it is") }
        let opacity = style.opacity ?? Property([100])
        switch kind {
        case "fl", "gf":
            // Merge mode 5 keeps what an odd number of the paths cover.
            layer.shape.fillRule = style.evenOdd || merge == 5 ? .evenOdd : .nonZero
            layer.shape.strokeColor = nil
        default:
            layer.shape.fillColor = nil
            let width = style.width ?? Property([1])
            layer.shape.stroke.lineWidth = width.value.first ?? 1
            if let a = width.animation("lineWidth", time, { .number($0.first ?? 0) }) { layer.addAnimation(a) }
            layer.shape.stroke.lineCap = [1: .butt, 2: .round, 3: .square][style.lineCap ?? 2] ?? .round
            layer.shape.stroke.lineJoin = [1: .miter, 2: .round, 3: .bevel][style.lineJoin ?? 2] ?? .round
            layer.shape.stroke.miterLimit = style.miterLimit ?? 4
            if !style.dashes.isEmpty {
                var pattern: [Double] = []
                var phase = 0.0
                for d in style.dashes {
                    let v = d.value?.value.first ?? 0
                    if d.kind == "o" { phase = v } else { pattern.append(max(v, 0)) }
                }
                if pattern.count % 2 == 1 { pattern += pattern }
                if pattern.reduce(0, +) > 0 {
                    layer.shape.stroke.lineDashPattern = pattern
                    layer.shape.stroke.lineDashPhase = phase
                }
            }
            if let trim { Self.trimmed(&layer, trim, time: time) }
        }
        let colorKey = kind == "fl" || kind == "gf" ? "fillColor" : "strokeColor"
        if kind == "fl" || kind == "st" {
            let color = style.color ?? Property([0, 0, 0, 1])
            let make: ([Double]) -> Color = { c in
                Self.color(c, alpha: 1)
            }
            // Colour and opacity animate apart in Lottie: keyed together at every frame either moves.
            if color.isAnimated || opacity.isAnimated {
                let frames = (color.keyframes + opacity.keyframes).map(\.frame)
                var combined = Property([0])
                combined.keyframes = Set(frames).sorted().map { Keyframe(frame: $0, value: [$0]) }
                let sampled = Self.sampled(combined, time) { f in
                    var c = make(color.value(at: f))
                    c.alpha *= min(max((opacity.value(at: f).first ?? 100) / 100, 0), 1)
                    return .color(c)
                }
                if let sampled { layer.addAnimation(.keyframe(sampled.with(keyPath: colorKey))) }
            }
            var c = make(color.value)
            c.alpha *= min(max((opacity.value.first ?? 100) / 100, 0), 1)
            if kind == "fl" { layer.shape.fillColor = c } else { layer.shape.strokeColor = c }
        } else {
            // A gradient: its ramp, keyed at every frame when it moves.
            guard let g = gradient(style, path: path) else { return nil }
            let a = min(max((opacity.value.first ?? 100) / 100, 0), 1)
            if kind == "gf" {
                layer.shape.fillGradient = g
                layer.shape.fillColor = Color(red: 1, green: 1, blue: 1, alpha: a)
            } else {
                layer.shape.strokeGradient = g
                layer.shape.strokeColor = Color(red: 1, green: 1, blue: 1, alpha: a)
            }
            // A keyed ramp: its colours and stops at every frame (the stop count is the file's `p`).
            if let stops = style.stops, stops.isAnimated, let count = style.stopCount {
                let key = kind == "gf" ? "fillGradient" : "strokeGradient"
                let fallback = (g.locations, g.colors)
                func at(_ f: Double) -> (locations: [Double], colors: [Color]) {
                    Self.ramp(stops.value(at: f), count: count) ?? fallback
                }
                if let a = Self.sampled(stops, time, { .colors(at($0).colors) }) {
                    layer.addAnimation(.keyframe(a.with(keyPath: "\(key).colors")))
                }
                if let a = Self.sampled(stops, time, { .numbers(at($0).locations) }) {
                    layer.addAnimation(.keyframe(a.with(keyPath: "\(key).locations")))
                }
            }
            if Self.gradientMoves(style) {
                let key = kind == "gf" ? "fillGradient" : "strokeGradient"
                var frames = Property([0])
                frames.keyframes = Set([style.start, style.end].flatMap { $0?.keyframes.map(\.frame) ?? [] }).sorted()
                    .map { Keyframe(frame: $0, value: [$0]) }
                if let a = Self.sampled(frames, time, { .transform(Transform3D(Self.gradientPlacement(style, at: $0))) }) {
                    layer.addAnimation(.keyframe(a.with(keyPath: "\(key).transform")))
                }
            }
            if [style.highlightLength, style.highlightAngle].contains(where: { $0?.isAnimated == true }) {
                warn(path, "a gradient's moving highlight is drawn as it starts")
            }
        }
        return layer
    }

    /// A stroke trimmed: each trim keeps start…end (in either order) of the length, moved along by the
    /// offset, of what the trims before it left. A window moved past the end wraps round to the start, as
    /// the players draw it: the path is drawn twice over, one copy after the other, and strokeStart and
    /// strokeEnd take the window in that doubled length.
    static func trimmed(_ layer: inout Layer, _ trim: Trim, time: TimeMap) {
        func window(_ f: Double) -> (Double, Double) {
            var (from, to) = (0.0, 1.0)
            for t in trim {
                let a = min(max((t.start.value(at: f).first ?? 0) / 100, 0), 1)
                let b = min(max((t.end.value(at: f).first ?? 100) / 100, 0), 1)
                let o = (t.offset.value(at: f).first ?? 0) / 360
                var lo = min(a, b) + o, hi = max(a, b) + o
                let shift = floor(lo)
                lo -= shift
                hi -= shift
                // A window taken of part of the path is cut at that part's end.
                if to - from < 1 { hi = min(hi, 1) }
                (from, to) = (from + lo * (to - from), from + hi * (to - from))
            }
            return (from, to)
        }
        let frames = trim.flatMap { ($0.start.keyframes + $0.end.keyframes + $0.offset.keyframes).map(\.frame) }
        let animated = trim.contains { $0.start.isAnimated || $0.end.isAnimated || $0.offset.isAnimated }
        let keyed = animated ? time.everyFrame(from: frames.min() ?? 0, to: frames.max() ?? 0) : [frames.min() ?? 0]
        let windows = keyed.map(window)
        let wraps = windows.contains { $0.1 > 1 }
        let scale = wraps ? 0.5 : 1
        if wraps {
            layer.shape.path = twice(layer.shape.path)
            for i in layer.attachedAnimations.indices {
                guard case .keyframe(var k) = layer.attachedAnimations[i].animation, k.keyPath == "path" else { continue }
                k.values = k.values.map { if case .path(let p) = $0 { return .path(twice(p)) } else { return $0 } }
                layer.attachedAnimations[i].animation = .keyframe(k)
            }
        }
        layer.shape.stroke.strokeStart = windows[0].0 * scale
        layer.shape.stroke.strokeEnd = windows[0].1 * scale
        if animated, keyed.count > 1 {
            if let a = time.keyframed("strokeStart", frames: keyed, values: windows.map { .number($0.0 * scale) }) {
                layer.addAnimation(.keyframe(a))
            }
            if let a = time.keyframed("strokeEnd", frames: keyed, values: windows.map { .number($0.1 * scale) }) {
                layer.addAnimation(.keyframe(a))
            }
        }
    }

    /// A path followed by itself.
    static func twice(_ path: Path) -> Path {
        var p = path
        p.addPath(path)
        return p
    }

    /// A Lottie colour: components in 0…1 (old files: 0…255).
    static func color(_ c: [Double], alpha: Double) -> Color {
        let scale = c.prefix(3).contains { $0 > 1 } ? 255.0 : 1
        func unit(_ i: Int, _ d: Double) -> Double { i < c.count ? min(max(c[i] / scale, 0), 1) : d }
        return Color(red: unit(0, 0), green: unit(1, 0), blue: unit(2, 0), alpha: alpha)
    }

    /// A gradient fill or stroke's ramp (colour stops, then alpha stops) and geometry.
    mutating func gradient(_ item: LottieShapeItem.Paint, path: String) -> ShapeGradient? {
        guard let stops = item.stops?.value, let count = item.stopCount, let (locations, colors) = Self.ramp(stops, count: count)
        else { return nil }
        if Self.gradientMoves(item) {
            // Drawn as a unit gradient, start (0, 0) to end (1, 0), placed by a keyed transform.
            let h = min(max((item.highlightLength?.value.first ?? 0) / 100, -0.99), 0.99)
            let angle = (item.highlightAngle?.value.first ?? 0) * .pi / 180
            let kind: ShapeGradient.Kind =
                !item.radial
                ? .axial(start: .zero, end: Point(x: 1, y: 0))
                : .focal(focus: Point(x: h * cos(angle), y: h * sin(angle)), focalRadius: 0, center: .zero, radius: 1)
            return ShapeGradient(
                kind: kind, colors: colors, locations: locations,
                transform: Self.gradientPlacement(item, at: Self.firstFrame(item)))
        }
        let s = item.start?.value ?? [0, 0], e = item.end?.value ?? [0, 0]
        let start = Point(x: s.first ?? 0, y: s.count > 1 ? s[1] : 0), end = Point(x: e.first ?? 0, y: e.count > 1 ? e[1] : 0)
        if item.radial {
            let radius = hypot(end.x - start.x, end.y - start.y)
            let h = min(max((item.highlightLength?.value.first ?? 0) / 100, -0.99), 0.99)
            if h != 0 {
                let angle = atan2(end.y - start.y, end.x - start.x) + (item.highlightAngle?.value.first ?? 0) * .pi / 180
                let focus = Point(x: start.x + cos(angle) * h * radius, y: start.y + sin(angle) * h * radius)
                return ShapeGradient(
                    kind: .focal(focus: focus, focalRadius: 0, center: start, radius: radius), colors: colors,
                    locations: locations)
            }
            return ShapeGradient(kind: .radial(center: start, radius: radius), colors: colors, locations: locations)
        }
        return ShapeGradient(kind: .axial(start: start, end: end), colors: colors, locations: locations)
    }

    static func gradientMoves(_ item: LottieShapeItem.Paint) -> Bool {
        [item.start, item.end].contains { $0?.isAnimated == true }
    }

    static func firstFrame(_ item: LottieShapeItem.Paint) -> Double {
        [item.start, item.end].compactMap { $0?.keyframes.first?.frame }.min() ?? 0
    }

    /// The unit gradient's place at a frame: (0, 0) to the start, (1, 0) to the end, turned and scaled
    /// alike in both directions (a radial gradient's radius is the start–end distance).
    static func gradientPlacement(_ item: LottieShapeItem.Paint, at f: Double) -> Transform2D {
        let s = item.start?.value(at: f) ?? [0, 0], e = item.end?.value(at: f) ?? [0, 0]
        let sx = s.first ?? 0, sy = s.count > 1 ? s[1] : 0
        var dx = (e.first ?? 0) - sx, dy = (e.count > 1 ? e[1] : 0) - sy
        // A start on its end would leave no space to draw in: keep a sliver.
        if hypot(dx, dy) < 1e-6 { (dx, dy) = (1e-6, 0) }
        return Transform2D(a: dx, b: dy, c: -dy, d: dx, tx: sx, ty: sy)
    }

    /// A gradient's `count` colour stops (offset, r, g, b), then its alpha stops (offset, alpha) as one
    /// ramp: the alpha interpolated at each colour stop.
    static func ramp(_ stops: [Double], count: Int) -> (locations: [Double], colors: [Color])? {
        guard count > 0, stops.count >= count * 4 else { return nil }
        var locations: [Double] = [], colors: [Color] = []
        for k in 0..<count {
            locations.append(stops[k * 4])
            colors.append(Self.color(Array(stops[(k * 4 + 1)..<(k * 4 + 4)]), alpha: 1))
        }
        let alphas = stride(from: count * 4, to: stops.count - 1, by: 2).map { (stops[$0], stops[$0 + 1]) }
        if !alphas.isEmpty {
            for k in colors.indices { colors[k].alpha = Self.interpolate(alphas, at: locations[k]) }
        }
        return (locations, colors)
    }

    static func interpolate(_ stops: [(Double, Double)], at x: Double) -> Double {
        guard let first = stops.first, let last = stops.last else { return 1 }
        if x <= first.0 { return first.1 }
        if x >= last.0 { return last.1 }
        for k in 1..<stops.count where stops[k].0 >= x {
            let (a, b) = (stops[k - 1], stops[k])
            return b.0 > a.0 ? a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0) : b.1
        }
        return last.1
    }

    /// The keyframe frames of a geometry item's animated properties: a group's transform and items, and
    /// any item's `p`, `s`, `r`, `ks`, `pt`, `or` and `ir` (so a group's trim start, a gradient's start
    /// point or a zig zag's size widen what its paint keys at every frame).
    static func geometryFrames(_ item: LottieShapeItem) -> [Double] {
        func keyed(_ properties: [Property?]) -> [Double] {
            properties.flatMap { p in p.map { $0.isAnimated ? $0.keyframes.map(\.frame) : [] } ?? [] }
        }
        switch item.content {
        case .group(let children):
            var frames: [Double] = []
            for child in children {
                if child.type == "tr" {
                    let t = child.transform
                    frames += keyed([t?.anchor, t?.position, t?.scale, t?.rotation, t?.opacity])
                } else {
                    frames += geometryFrames(child)
                }
            }
            return frames
        case .geometry(let g), .other(let g):
            let path = g.path.map { $0.isAnimated ? $0.keyframes.map(\.frame) : [] } ?? []
            return keyed([g.position, g.size, g.roundness]) + path + keyed([g.points, g.outerRadius, g.innerRadius])
        case .paint(let paint): return keyed([paint.start])
        case .trim(let trim): return keyed([trim.start])
        case .roundedCorners(let radius): return keyed([radius])
        case .transform, .repeater, .merge: return []
        }
    }

    /// The geometry items' outlines at a frame, as one path.
    static func outline(_ items: [LottieShapeItem], at frame: Double) -> Path {
        var out = Path()
        for item in items.reversed() {
            switch (item.type ?? "", item.content) {
            case ("rc", .geometry(let g)):
                let p = g.position?.value(at: frame) ?? [0, 0], s = g.size?.value(at: frame) ?? [0, 0]
                let r = g.roundness?.value(at: frame).first ?? 0
                let w = abs(s.first ?? 0), h = abs(s.count > 1 ? s[1] : 0)
                let rect = Rect(x: (p.first ?? 0) - w / 2, y: (p.count > 1 ? p[1] : 0) - h / 2, width: w, height: h)
                out.addPath(Self.rectangle(rect, radius: min(max(r, 0), min(w, h) / 2), clockwise: g.clockwise))
            case ("el", .geometry(let g)):
                let p = g.position?.value(at: frame) ?? [0, 0], s = g.size?.value(at: frame) ?? [0, 0]
                let w = abs(s.first ?? 0), h = abs(s.count > 1 ? s[1] : 0)
                let rect = Rect(x: (p.first ?? 0) - w / 2, y: (p.count > 1 ? p[1] : 0) - h / 2, width: w, height: h)
                out.addPath(Self.ellipse(rect, clockwise: g.clockwise))
            case ("sh", .geometry(let g)):
                if let shape = g.path { out.addPath(shape.path(at: frame)) }
            case ("sr", .geometry(let g)):
                out.addPath(Self.polystar(g, at: frame))
            case (_, .group(let children)):
                let inner = outline(children.filter { $0.drawsGeometry && !$0.hidden }, at: frame)
                let tr = children.last { $0.type == "tr" }?.transform
                out.addPath(inner.applying(Self.matrix(tr, at: frame)))
            default: break
            }
        }
        return out
    }

    /// The handle length of a quarter circle of radius 1 drawn as one cubic, as Lottie's players use it.
    static let kappa = 0.5519

    /// A Lottie rectangle: it starts at the top right (below the corner's rounding) and runs down the right
    /// side when clockwise, up to the top when not: where trim paths measure from, as the players draw it.
    static func rectangle(_ r: Rect, radius: Double, clockwise: Bool) -> Path {
        let (l, t, rt, b) = (r.minX, r.minY, r.maxX, r.maxY)
        let k = radius * (1 - kappa)
        // Corners in drawing order (clockwise), each as the point before it, its handles and the point after.
        typealias Corner = (from: Point, c1: Point, c2: Point, to: Point)
        var corners: [Corner] = [
            (Point(x: rt, y: b - radius), Point(x: rt, y: b - k), Point(x: rt - k, y: b), Point(x: rt - radius, y: b)),
            (Point(x: l + radius, y: b), Point(x: l + k, y: b), Point(x: l, y: b - k), Point(x: l, y: b - radius)),
            (Point(x: l, y: t + radius), Point(x: l, y: t + k), Point(x: l + k, y: t), Point(x: l + radius, y: t)),
            (Point(x: rt - radius, y: t), Point(x: rt - k, y: t), Point(x: rt, y: t + k), Point(x: rt, y: t + radius)),
        ]
        if !clockwise {
            corners = corners.reversed().map { (from: $0.to, c1: $0.c2, c2: $0.c1, to: $0.from) }
        }
        var path = Path()
        var at = Point(x: rt, y: t + radius)
        path.move(to: at)
        for c in corners {
            if c.from != at { path.addLine(to: c.from) }
            if radius > 0 { path.addCurve(to: c.to, control1: c.c1, control2: c.c2) }
            at = radius > 0 ? c.to : c.from
        }
        path.closeSubpath()
        return path
    }

    /// A Lottie ellipse: four cubics from the top, to the right first when clockwise.
    static func ellipse(_ r: Rect, clockwise: Bool) -> Path {
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
        let side = clockwise ? 1.0 : -1.0
        // The top, the side reached first, the bottom, the other side, each with its tangent direction.
        let points = [
            (Point(x: cx, y: cy - ry), Point(x: side * rx * kappa, y: 0)),
            (Point(x: cx + side * rx, y: cy), Point(x: 0, y: ry * kappa)),
            (Point(x: cx, y: cy + ry), Point(x: -side * rx * kappa, y: 0)),
            (Point(x: cx - side * rx, y: cy), Point(x: 0, y: -ry * kappa)),
        ]
        var path = Path()
        path.move(to: points[0].0)
        for i in 0..<4 {
            let (a, da) = points[i], (b, db) = points[(i + 1) % 4]
            path.addCurve(
                to: b, control1: Point(x: a.x + da.x, y: a.y + da.y), control2: Point(x: b.x - db.x, y: b.y - db.y))
        }
        path.closeSubpath()
        return path
    }

    /// A Lottie transform at a frame as a matrix: q ↦ p + R·S·(q − a) (skew left out).
    static func matrix(_ tr: LottieTransform?, at frame: Double) -> Transform2D {
        guard let tr else { return .identity }
        let a = tr.anchor?.value(at: frame) ?? [0, 0], p = tr.position?.value(at: frame) ?? [0, 0]
        let s = tr.scale?.value(at: frame) ?? [100, 100]
        let r = (tr.rotation?.value(at: frame).first ?? 0) * .pi / 180
        let rotation = Transform2D.rotation(r)
        return Transform2D.translation(x: -(a.first ?? 0), y: -(a.count > 1 ? a[1] : 0))
            .concatenating(.scale(x: (s.first ?? 100) / 100, y: (s.count > 1 ? s[1] : 100) / 100))
            .concatenating(
                Self.skew(tr.skew?.value(at: frame).first ?? 0, axis: tr.skewAxis?.value(at: frame).first ?? 0)
            )
            .concatenating(rotation)
            .concatenating(.translation(x: p.first ?? 0, y: p.count > 1 ? p[1] : 0))
    }

    /// A polystar: a star (`sy` 1: points alternating between the outer and inner radius) or a polygon
    /// (`sy` 2), its first point straight up from the centre turned by `r` degrees, clockwise.
    /// Roundness is not drawn.
    static func polystar(_ item: LottieShapeItem.Geometry, at frame: Double) -> Path {
        let p = item.position?.value(at: frame) ?? [0, 0]
        let centre = Point(x: p.first ?? 0, y: p.count > 1 ? p[1] : 0)
        let sides = (item.points?.value(at: frame).first ?? 5).rounded()
        let points = sides.isFinite ? Int(min(max(sides, 1), 1_000)) : 5
        let outer = item.outerRadius?.value(at: frame).first ?? 0
        let inner = item.innerRadius?.value(at: frame).first ?? 0
        let rotation = (item.roundness?.value(at: frame).first ?? 0) * .pi / 180
        let star = item.isStar
        let count = star ? points * 2 : points
        var path = Path()
        for k in 0..<count {
            let angle = -Double.pi / 2 + rotation + Double(k) * 2 * .pi / Double(count)
            let r = star && k % 2 == 1 ? inner : outer
            let q = Point(x: centre.x + r * cos(angle), y: centre.y + r * sin(angle))
            if k == 0 { path.move(to: q) } else { path.addLine(to: q) }
        }
        path.closeSubpath()
        return path
    }

    /// `property` keyed at every frame between its first and last keyframes (values from `value`).
    static func sampled(_ property: Property, _ time: TimeMap, _ value: (Double) -> AnimatableValue) -> KeyframeAnimation? {
        guard let first = property.keyframes.first?.frame, let last = property.keyframes.last?.frame, last > first else {
            return nil
        }
        let keyed = time.everyFrame(from: first, to: last)
        return time.keyframed("", frames: keyed, values: keyed.map(value))
    }
}

extension KeyframeAnimation {
    func with(keyPath: String) -> KeyframeAnimation {
        var a = self
        a.keyPath = keyPath
        return a
    }
}

/// A Bézier path property drawn: at a frame, and keyed.
extension PathProperty {
    static func path(_ s: Shape) -> Path {
        var p = Path()
        guard let first = s.vertices.first else { return p }
        p.move(to: first)
        let n = s.vertices.count
        for k in 0..<(s.closed ? n : n - 1) {
            let a = s.vertices[k], b = s.vertices[(k + 1) % n]
            p.addCurve(to: b, control1: a + s.outTangents[k], control2: b + s.inTangents[(k + 1) % n])
        }
        if s.closed { p.closeSubpath() }
        return p
    }

    /// The shape at a frame: vertices and tangents interpolated where the counts match.
    func path(at frame: Double) -> Path {
        guard let first = frames.first else { return Path() }
        if frames.count == 1 || frame <= first.frame { return Self.path(first.shape) }
        guard let last = frames.last, frame < last.frame else { return Self.path(frames[frames.count - 1].shape) }
        var k = 0
        while k + 1 < frames.count - 1 && frames[k + 1].frame <= frame { k += 1 }
        let a = frames[k], b = frames[k + 1]
        guard !a.hold, b.frame > a.frame, a.shape.vertices.count == b.shape.vertices.count else { return Self.path(a.shape) }
        let e = a.ease((frame - a.frame) / (b.frame - a.frame))
        func mix(_ x: [Point], _ y: [Point]) -> [Point] { zip(x, y).map { $0 + ($1 - $0) * e } }
        return Self.path(
            Shape(
                vertices: mix(a.shape.vertices, b.shape.vertices), inTangents: mix(a.shape.inTangents, b.shape.inTangents),
                outTangents: mix(a.shape.outTangents, b.shape.outTangents), closed: a.shape.closed))
    }

    /// The keyed path as a keyframe animation: one value per keyframe, one timing function per segment.
    func animation(_ time: TimeMap) -> Animation? {
        guard isAnimated else { return nil }
        var times: [Double] = [], values: [AnimatableValue] = [], functions: [TimingFunction] = []
        for (k, f) in frames.enumerated() {
            times.append(f.frame)
            values.append(.path(Self.path(f.shape)))
            guard k + 1 < frames.count else { break }
            if f.hold {
                times.append(max(frames[k + 1].frame - 0.001, f.frame))
                values.append(.path(Self.path(f.shape)))
                functions += [.linear, .linear]
            } else {
                functions.append(f.ease)
            }
        }
        return time.keyframed("path", frames: times, values: values, functions: functions).map { .keyframe($0) }
    }
}
