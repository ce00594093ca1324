/// SVG `<filter>` elements read into filter effects on a layer: the region, each primitive's
/// subregion, inputs and parameters, with resvg's defaults and fallbacks (the corpus's references).
import Foundation
import ReelGeometry
import ReelScene

extension Importer {
    /// The effects of a `filter` list holding `url()`s, for an element whose layer has bounding box
    /// `box`; nil when the element is not drawn (each reference missing or invalid, a region with no
    /// area, a bounding-box region on an element with no box).
    mutating func filterEffects(_ value: String, box: Rect?, style: SVGStyle, at e: SVGElement) -> [FilterEffect]? {
        var effects: [FilterEffect] = []
        var invalid = false
        var rest = Substring(value)
        let bbox = box.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "," }
            if rest.isEmpty { break }
            guard let open = rest.firstIndex(of: "("), let close = SVGFilterFunctions.closing(rest, open) else {
                warn(e, "filter: \(value) cannot be read and is ignored")
                return []
            }
            let name = rest[..<open].trimmingCharacters(in: .whitespaces).lowercased()
            let args = String(rest[rest.index(after: open)..<close]).trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: close)...]
            if name == "url" {
                let id = args.trimmingCharacters(in: CharacterSet(charactersIn: "'\" ")).drop { $0 == "#" }
                guard let f = ids[String(id)], f.name == "filter", let effect = filterEffect(f, bbox: bbox) else {
                    invalid = true
                    continue
                }
                effects.append(effect)
            } else if let effect = functionEffect(name, args, bbox: bbox, style: style) {
                effects.append(effect)
            } else {
                warn(e, "filter: \(value) cannot be read and is ignored")
                return []
            }
        }
        if effects.count > Scene.maximumFilters {
            warn(e, "filter: only the first \(Scene.maximumFilters) filters are drawn")
            effects.removeLast(effects.count - Scene.maximumFilters)
        }
        // A reference to nothing hides the element only when no filter is left (resvg; SVG 1.1 hid it).
        if effects.isEmpty && invalid {
            warn(e, "filter: \(value) names no <filter> Reel can draw; the element is not drawn")
            return nil
        }
        return effects
    }

    /// A filter function in a list with `url()`s: one primitive over the bounding box widened as resvg
    /// widens it (half of it around for blurs and shadows, a tenth else), in sRGB.
    func functionEffect(_ name: String, _ args: String, bbox: Rect?, style: SVGStyle) -> FilterEffect? {
        guard let b = bbox else { return nil }
        let operation: FilterOperation
        if name == "drop-shadow" {
            guard let s = SVGFilterFunctions.dropShadow(args, color: style.color, fontSize: style.fontSize) else { return nil }
            operation = .dropShadow(dx: s.offset.x, dy: s.offset.y, sigmaX: s.sigma, sigmaY: s.sigma, color: s.color)
        } else {
            guard let f = SVGFilterFunctions.function(name, args, fontSize: style.fontSize) else { return nil }
            switch f.type {
            case .gaussianBlur: operation = .gaussianBlur(x: f.inputRadius, y: f.inputRadius)
            case .colorMatrix:
                let rows = [f.inputRVector, f.inputGVector, f.inputBVector, f.inputAVector]
                operation = .colorMatrix((0..<4).flatMap { rows[$0] + [f.inputBiasVector[$0]] })
            case .sepiaTone:
                let a = 1 - min(max(f.inputIntensity, 0), 1)
                operation = .colorMatrix([
                    0.393 + 0.607 * a, 0.769 - 0.769 * a, 0.189 - 0.189 * a, 0, 0,
                    0.349 - 0.349 * a, 0.686 + 0.314 * a, 0.168 - 0.168 * a, 0, 0,
                    0.272 - 0.272 * a, 0.534 - 0.534 * a, 0.131 + 0.869 * a, 0, 0, 0, 0, 0, 1, 0,
                ])
            case .colorControls, .colorInvert: return nil
            }
        }
        let wide: Bool
        if case .gaussianBlur = operation {
            wide = true
        } else if case .dropShadow = operation {
            wide = true
        } else {
            wide = false
        }
        let m = wide ? 0.5 : 0.1
        let region = Rect(
            x: b.minX - m * b.width, y: b.minY - m * b.height, width: (1 + 2 * m) * b.width, height: (1 + 2 * m) * b.height)
        return FilterEffect(
            region: region,
            primitives: [FilterPrimitive(operation, inputs: [.sourceGraphic], subregion: region, linearRGB: false)])
    }

    /// A `<filter>`'s effect on an element with bounding box `bbox`, or nil when it is invalid.
    mutating func filterEffect(_ f: SVGElement, bbox: Rect?) -> FilterEffect? {
        let regionInBox = f.attributes["filterUnits"] != "userSpaceOnUse"
        let primitivesInBox = f.attributes["primitiveUnits"] == "objectBoundingBox"
        func coordinate(_ key: String, _ fallback: String, inBox: Bool, along side: KeyPath<Size, Double>) -> Double? {
            let text = f.attributes[key] ?? fallback
            if inBox { return SVGValues.length(text, percentOf: 1) }
            return SVGValues.length(text, percentOf: viewportSize[keyPath: side])
        }
        guard let x = coordinate("x", "-10%", inBox: regionInBox, along: \.width),
            let y = coordinate("y", "-10%", inBox: regionInBox, along: \.height),
            let w = coordinate("width", "120%", inBox: regionInBox, along: \.width),
            let h = coordinate("height", "120%", inBox: regionInBox, along: \.height), w > 0, h > 0
        else {
            warn(f, "the filter's region has no area; what it filters is not drawn")
            return nil
        }
        var region = Rect(x: x, y: y, width: w, height: h)
        if regionInBox {
            guard let b = bbox else { return nil }
            region = Self.inBox(region, b)
        }
        if primitivesInBox && bbox == nil { return nil }
        // The primitives: the first element in the href chain that has children.
        var holder: SVGElement? = f
        var seen: Set<ObjectIdentifier> = []
        while let h = holder, h.children.allSatisfy({ $0.name == SVGElement.characters }),
            seen.insert(ObjectIdentifier(h)).inserted
        {
            guard let href = h.attributes["href"], href.hasPrefix("#"), let next = ids[String(href.dropFirst())],
                next.name == "filter"
            else { return nil }
            holder = next
        }
        guard let holder else { return nil }
        var primitives: [FilterPrimitive] = []
        var names: [String: Int] = [:]
        // An inherited property: the filter's own, else its nearest ancestor's.
        var cs: String?
        var holderOfSpace: SVGElement? = f
        while cs == nil, let h = holderOfSpace {
            cs = Self.property("color-interpolation-filters", of: h).flatMap { $0 == "inherit" ? nil : $0 }
            holderOfSpace = h.parent
        }
        for child in holder.children where child.name != SVGElement.characters && !child.name.hasPrefix("{") {
            guard primitives.count < SVGLimits.maximumFilterPrimitives else {
                warn(f, "only the first \(SVGLimits.maximumFilterPrimitives) primitives of a filter are drawn")
                break
            }
            guard case (var operation, let given)? = primitive(child, bbox: primitivesInBox ? bbox : nil) else {
                warn(child, "<\(child.name)> is not a filter primitive Reel draws; it is left out")
                continue
            }
            // A subregion with no area ends the filter there (resvg).
            guard let sub = subregion(child, region: region, bbox: primitivesInBox ? bbox : nil) else { break }
            if case .turbulence(var t) = operation {
                t.tile = sub
                operation = .turbulence(t)
            }
            if case .image(let name, _) = operation, case .picture(let p)? = pictures[ObjectIdentifier(child)] {
                // Fitted into the subregion by preserveAspectRatio, as an <image> into its viewport.
                let fit = Self.fit(
                    viewBox: [0, 0, Double(p.width), Double(p.height)], into: sub.size,
                    child.attributes["preserveAspectRatio"]?.trimmingCharacters(in: .whitespaces))
                operation = .image(name: name, place: fit.concatenating(.translation(x: sub.minX, y: sub.minY)))
            }
            let inputs = given.map { name -> FilterPrimitive.Input in
                switch name?.trimmingCharacters(in: .whitespaces) {
                case nil: return primitives.isEmpty ? .sourceGraphic : .result(primitives.count - 1)
                case "SourceGraphic", "BackgroundImage", "BackgroundAlpha", "FillPaint", "StrokePaint": return .sourceGraphic
                case "SourceAlpha": return .sourceAlpha
                case let name?:
                    // An unknown name reads the previous result (resvg).
                    if let i = names[name] { return .result(i) }
                    return primitives.isEmpty ? .sourceGraphic : .result(primitives.count - 1)
                }
            }
            let space = Self.property("color-interpolation-filters", of: child) ?? cs
            primitives.append(FilterPrimitive(operation, inputs: inputs, subregion: sub, linearRGB: space != "sRGB"))
            if let r = child.attributes["result"] { names[r] = primitives.count - 1 }
        }
        guard !primitives.isEmpty else { return nil }
        return FilterEffect(region: region, primitives: primitives)
    }

    /// A number attribute, nil unless it is a finite number (Swift's parser reads "nan" and "inf").
    static func finite(_ text: String) -> Double? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
    }

    /// `r` in a box's units: fractions of `b` from its corner.
    static func inBox(_ r: Rect, _ b: Rect) -> Rect {
        Rect(x: b.minX + r.minX * b.width, y: b.minY + r.minY * b.height, width: r.width * b.width, height: r.height * b.height)
    }

    /// A presentation attribute or an inline style's declaration of it, whichever is given (the style).
    static func property(_ name: String, of e: SVGElement) -> String? {
        if let style = e.attributes["style"],
            let v = CSS.declarations(Substring(style)).last(where: { $0.0 == name })?.1
        {
            return v.trimmingCharacters(in: .whitespaces)
        }
        return e.attributes[name]?.trimmingCharacters(in: .whitespaces)
    }

    /// A primitive's subregion (resvg's reading: x, y, width and height default to the filter region's;
    /// in bounding-box units, fractions of the region, of the box for floods and images).
    func subregion(_ fe: SVGElement, region: Rect, bbox: Rect?) -> Rect? {
        func value(_ key: String, along side: KeyPath<Size, Double>) -> Double? {
            guard let text = fe.attributes[key] else { return nil }
            if bbox != nil { return SVGValues.length(text, percentOf: 1) }
            return SVGValues.length(text, percentOf: viewportSize[keyPath: side])
        }
        let x = value("x", along: \.width), y = value("y", along: \.height)
        let w = value("width", along: \.width), h = value("height", along: \.height)
        let r: Rect
        if let b = bbox {
            let base = fe.name == "feFlood" || fe.name == "feImage" ? b : region
            r = Self.inBox(Rect(x: x ?? 0, y: y ?? 0, width: w ?? 1, height: h ?? 1), base)
        } else {
            r = Rect(x: x ?? region.minX, y: y ?? region.minY, width: w ?? region.width, height: h ?? region.height)
        }
        guard r.size.width > 0, r.size.height > 0, r.minX.isFinite, r.minY.isFinite else { return nil }
        return r
    }

    /// A primitive's operation and the names of its inputs (nil where not given), or nil for an element
    /// that is not one Reel draws. `bbox`: primitive lengths in its units.
    mutating func primitive(_ fe: SVGElement, bbox: Rect?) -> (FilterOperation, [String?])? {
        let a = fe.attributes
        let (kx, ky) = (bbox?.width ?? 1, bbox?.height ?? 1)
        func number(_ key: String, _ fallback: Double) -> Double {
            a[key].flatMap { Self.finite($0) } ?? fallback
        }
        func numbers(_ key: String) -> [Double]? { a[key].flatMap(SVGValues.numbers) }
        let transparent = FilterOperation.flood(.clear)
        switch fe.name {
        case "feGaussianBlur":
            let (sx, sy) = Self.deviations(a["stdDeviation"] ?? "0")
            return (.gaussianBlur(x: sx * kx, y: sy * ky), [a["in"]])
        case "feOffset":
            return (.offset(dx: number("dx", 0) * kx, dy: number("dy", 0) * ky), [a["in"]])
        case "feFlood":
            return (.flood(Self.flood(fe)), [])
        case "feDropShadow":
            let (sx, sy) = Self.deviations(a["stdDeviation"] ?? "2")
            return (
                .dropShadow(
                    dx: number("dx", 2) * kx, dy: number("dy", 2) * ky, sigmaX: sx * kx, sigmaY: sy * ky, color: Self.flood(fe)),
                [a["in"]]
            )
        case "feMerge":
            let nodes = fe.children.filter { $0.name == "feMergeNode" }
            return (.merge, nodes.map { $0.attributes["in"] })
        case "feBlend":
            let mode = FilterBlendMode(rawValue: a["mode"]?.trimmingCharacters(in: .whitespaces) ?? "normal") ?? .normal
            return (.blend(mode), [a["in"], a["in2"]])
        case "feComposite":
            let op: FilterComposite
            switch a["operator"]?.trimmingCharacters(in: .whitespaces) {
            case "in": op = .in
            case "out": op = .out
            case "atop": op = .atop
            case "xor": op = .xor
            case "arithmetic":
                op = .arithmetic(k1: number("k1", 0), k2: number("k2", 0), k3: number("k3", 0), k4: number("k4", 0))
            default: op = .over
            }
            return (.composite(op), [a["in"], a["in2"]])
        case "feColorMatrix":
            return (.colorMatrix(Self.colorMatrix(fe)), [a["in"]])
        case "feComponentTransfer":
            var functions = [TransferFunction](repeating: .identity, count: 4)
            for child in fe.children {
                guard let i = ["feFuncR", "feFuncG", "feFuncB", "feFuncA"].firstIndex(of: child.name),
                    let t = Self.transfer(child)
                else { continue }
                functions[i] = t
            }
            return (.componentTransfer(functions), [a["in"]])
        case "feMorphology":
            var rx = kx, ry = ky
            if let list = numbers("radius"), list.count == 1 || list.count == 2 {
                var x = list[0], y = list.count == 2 ? list[1] : list[0]
                // A zero radius on one side reads as one (resvg); a negative one keeps the default.
                if x == 0 { x = 1 }
                if y == 0 { y = 1 }
                if x >= 0 && y >= 0 { (rx, ry) = (x * kx, y * ky) }
            }
            return (.morphology(dilate: a["operator"] == "dilate", radiusX: rx, radiusY: ry), [a["in"]])
        case "feTile":
            return (.tile, [a["in"]])
        case "feTurbulence":
            var fx = 0.0, fy = 0.0
            if let list = numbers("baseFrequency"), list.count == 1 || list.count == 2 {
                let x = list[0], y = list.count == 2 ? list[1] : list[0]
                if x >= 0 && y >= 0 { (fx, fy) = (x, y) }
            }
            let octaves = max(number("numOctaves", 1), 0).rounded()
            // Past ten octaves each adds less than one level of 255: held there, as each costs a pass.
            let t = Turbulence(
                baseFrequencyX: fx, baseFrequencyY: fy, octaves: Int(min(octaves, 10)),
                seed: number("seed", 0).rounded(.towardZero),
                stitchTiles: a["stitchTiles"] == "stitch", fractalNoise: a["type"] == "fractalNoise", tile: .zero)
            return (.turbulence(t), [])
        case "feConvolveMatrix":
            guard let m = Self.convolveMatrix(fe) else {
                if let order = a["order"].flatMap(SVGValues.numbers), let x = order.first,
                    x * (order.count > 1 ? order[1] : x) > Double(SVGLimits.maximumConvolveTaps)
                {
                    warn(
                        fe,
                        "feConvolveMatrix: a kernel of more than \(SVGLimits.maximumConvolveTaps) numbers is not drawn; it gives a transparent picture"
                    )
                }
                return (transparent, [])
            }
            return (.convolveMatrix(m), [a["in"]])
        case "feDisplacementMap":
            func channel(_ key: String) -> Int { ["R": 0, "G": 1, "B": 2][a[key] ?? "A"] ?? 3 }
            let s = number("scale", 0) * (kx + ky) / 2
            return (
                .displacementMap(
                    scaleX: s, scaleY: s, xChannel: channel("xChannelSelector"), yChannel: channel("yChannelSelector")),
                [a["in"], a["in2"]]
            )
        case "feDiffuseLighting", "feSpecularLighting":
            guard let l = Self.lighting(fe) else { return (transparent, []) }
            return (.lighting(l), [a["in"]])
        case "feImage":
            return (feImage(fe) ?? transparent, [])
        default:
            return nil
        }
    }

    /// An feImage of an embedded picture (placed once its subregion is known); nil, with a note, for
    /// what Reel does not draw there yet (an element, a file, an SVG picture).
    mutating func feImage(_ fe: SVGElement) -> FilterOperation? {
        guard let href = fe.attributes["href"]?.trimmingCharacters(in: .whitespacesAndNewlines), !href.isEmpty else {
            return nil
        }
        if href.hasPrefix("#") {
            warn(fe, "<feImage> of an element is not drawn yet; it gives a transparent picture")
            return nil
        }
        guard href.utf8.prefix(5).map({ $0 | 0x20 }) == Array("data:".utf8) else {
            warn(
                fe,
                "<feImage> of a file (\(SVGPicture.abbreviated(href))) is not supported yet and gives a transparent picture; embed it as a data: URI"
            )
            return nil
        }
        let reading = pictures[ObjectIdentifier(fe)] ?? SVGPicture.read(href)
        pictures[ObjectIdentifier(fe)] = reading
        switch reading {
        case .picture(let p):
            guard p.width <= Scene.maximumPixelArea / p.height else {
                warn(
                    fe,
                    "<feImage> gives a transparent picture: its picture is \(p.width)×\(p.height) pixels, above the limit of \(Scene.maximumPixelArea / 1_000_000) megapixels"
                )
                return nil
            }
            return .image(name: p.uri, place: .identity)
        case .svg:
            warn(fe, "<feImage> of an SVG document is not supported yet and gives a transparent picture")
        case .unreadable(let why):
            warn(fe, "<feImage> gives a transparent picture: its data: URI \(why)")
        }
        return nil
    }

    /// `stdDeviation`: one number for both, or two; anything else, or a negative one, is none.
    static func deviations(_ text: String) -> (Double, Double) {
        guard let list = SVGValues.numbers(text), list.count == 1 || list.count == 2 else { return (0, 0) }
        let x = list[0], y = list.count == 2 ? list[1] : list[0]
        return (max(x, 0), max(y, 0))
    }

    /// `flood-color` × `flood-opacity` (a property: attribute or inline style), black by default.
    static func flood(_ fe: SVGElement) -> Color {
        var c = property("flood-color", of: fe).flatMap(SVGValues.color) ?? .black
        if let o = property("flood-opacity", of: fe) {
            let v = o.hasSuffix("%") ? Double(o.dropLast()).map { $0 / 100 } : Double(o)
            c.alpha *= Color.unit(v ?? 1)
        }
        return c
    }

    /// feColorMatrix's 20 numbers for each type; the identity for a bad list (resvg).
    static func colorMatrix(_ fe: SVGElement) -> [Double] {
        let identity: [Double] = [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]
        let values = fe.attributes["values"].flatMap(SVGValues.numbers)
        switch fe.attributes["type"]?.trimmingCharacters(in: .whitespaces) {
        case "saturate":
            guard let v = values else { return identity }
            let s = v.isEmpty ? 1 : Color.unit(v[0])
            return [
                0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s, 0, 0,
                0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s, 0, 0,
                0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s, 0, 0, 0, 0, 0, 1, 0,
            ]
        case "hueRotate":
            guard let v = values else { return identity }
            return SVGFilterFunctions.hueRotate((v.first ?? 0) * .pi / 180) + [0, 0, 0, 1, 0]
        case "luminanceToAlpha":
            return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.2125, 0.7154, 0.0721, 0, 0]
        default:
            guard let v = values, v.count == 20 else { return identity }
            return v
        }
    }

    /// One feFuncX's function, or nil for a missing or unknown type (the channel stays as it is).
    static func transfer(_ e: SVGElement) -> TransferFunction? {
        let a = e.attributes
        func number(_ key: String, _ fallback: Double) -> Double {
            a[key].flatMap { Self.finite($0) } ?? fallback
        }
        switch a["type"]?.trimmingCharacters(in: .whitespaces) {
        case "identity": return .identity
        case "table": return .table(a["tableValues"].flatMap(SVGValues.numbers) ?? [])
        case "discrete": return .discrete(a["tableValues"].flatMap(SVGValues.numbers) ?? [])
        case "linear": return .linear(slope: number("slope", 1), intercept: number("intercept", 0))
        case "gamma":
            return .gamma(amplitude: number("amplitude", 1), exponent: number("exponent", 1), offset: number("offset", 0))
        default: return nil
        }
    }

    /// feConvolveMatrix's kernel, or nil when it is invalid (the primitive then gives a transparent
    /// picture, as resvg).
    static func convolveMatrix(_ fe: SVGElement) -> ConvolveMatrix? {
        let a = fe.attributes
        var columns = 3, rows = 3
        if let order = a["order"].flatMap(SVGValues.numbers), let x = order.first {
            let y = order.count > 1 ? order[1] : x
            guard x == x.rounded(), y == y.rounded() else { return nil }
            if x > 0 && y > 0 { (columns, rows) = (Int(min(x, 1e6)), Int(min(y, 1e6))) }
            // Each output pixel costs the kernel's taps: past 225 (15 × 15) a region of a frame would
            // take minutes (SVGLimits.maximumConvolveTaps).
            guard columns * rows <= SVGLimits.maximumConvolveTaps else { return nil }
        }
        guard let kernel = a["kernelMatrix"].flatMap(SVGValues.numbers), kernel.count == columns * rows else { return nil }
        var sum = (kernel.reduce(0, +) * 1e6).rounded() / 1e6
        if sum == 0 { sum = 1 }
        let divisor = a["divisor"].flatMap { Self.finite($0) } ?? sum
        guard divisor != 0 else { return nil }
        func target(_ key: String, _ order: Int) -> Int? {
            // Compared as a number first: a huge one never reaches the Int conversion.
            let v = a[key].flatMap { Self.finite($0) }.map { $0.rounded(.towardZero) } ?? Double(order / 2)
            return v >= 0 && v < Double(order) ? Int(v) : nil
        }
        guard let tx = target("targetX", columns), let ty = target("targetY", rows) else { return nil }
        let edge: ConvolveMatrix.EdgeMode = a["edgeMode"] == "none" ? .none : a["edgeMode"] == "wrap" ? .wrap : .duplicate
        return ConvolveMatrix(
            columns: columns, rows: rows, kernel: kernel, divisor: divisor,
            bias: a["bias"].flatMap { Self.finite($0) } ?? 0, targetX: tx, targetY: ty,
            edgeMode: edge, preserveAlpha: a["preserveAlpha"] == "true")
    }

    /// A lighting primitive, or nil without a light source or with a specular exponent outside 1…128.
    static func lighting(_ fe: SVGElement) -> Lighting? {
        func number(_ e: SVGElement, _ key: String, _ fallback: Double) -> Double {
            e.attributes[key].flatMap { Self.finite($0) } ?? fallback
        }
        guard let source = fe.children.first(where: { ["feDistantLight", "fePointLight", "feSpotLight"].contains($0.name) })
        else { return nil }
        let light: Lighting.Light
        switch source.name {
        case "feDistantLight":
            light = .distant(azimuth: number(source, "azimuth", 0), elevation: number(source, "elevation", 0))
        case "fePointLight":
            light = .point(x: number(source, "x", 0), y: number(source, "y", 0), z: number(source, "z", 0))
        default:
            let e = number(source, "specularExponent", 1)
            light = .spot(
                x: number(source, "x", 0), y: number(source, "y", 0), z: number(source, "z", 0),
                pointsAtX: number(source, "pointsAtX", 0), pointsAtY: number(source, "pointsAtY", 0),
                pointsAtZ: number(source, "pointsAtZ", 0), specularExponent: e > 0 ? e : 1,
                limitingConeAngle: source.attributes["limitingConeAngle"].flatMap {
                    Self.finite($0)
                })
        }
        let specular = fe.name == "feSpecularLighting"
        let exponent = number(fe, "specularExponent", 1)
        if specular && !(1...128).contains(exponent) { return nil }
        var color = Color.white
        if let c = property("lighting-color", of: fe) {
            color =
                c == "currentColor"
                ? (property("color", of: fe).flatMap(SVGValues.color) ?? .black) : (SVGValues.color(c) ?? .white)
            color.alpha = 1
        }
        return Lighting(
            specular: specular, surfaceScale: number(fe, "surfaceScale", 1),
            constant: number(fe, specular ? "specularConstant" : "diffuseConstant", 1), specularExponent: exponent,
            color: color, light: light)
    }
}
