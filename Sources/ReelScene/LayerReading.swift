/// Layers: the keys every layer takes and those of shape, gradient and replicator layers.
import Foundation
import ReelAnimation
import ReelDocument
import ReelGeometry

extension Reader {
    static let commonLayerKeys =
        [
            "name", "type", "position", "bounds", "anchorPoint", "transform", "sublayerTransform", "zPosition", "opacity",
            "hidden",
            "backgroundColor", "cornerRadius",
            "borderWidth",
            "borderColor", "masksToBounds", "maskMode", "compositingFilter", "filters", "backgroundFilters", "shadowColor",
            "shadowOpacity",
            "shadowOffset",
            "shadowRadius",
            "contents",
            "contentsGravity", "contentsScale", "sublayers",
            "mask", "animations", "cells",
        ] + layerTimingKeys
    /// CALayer's CAMediaTiming: the layer's own time, in which its animations and sublayers run.
    static let layerTimingKeys = [
        "beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration", "autoreverses", "fillMode",
    ]
    static let shapeLayerKeys = [
        "path", "fillColor", "strokeColor", "fillRule", "lineWidth", "lineCap", "lineJoin", "miterLimit", "lineDashPattern",
        "lineDashPhase", "strokeStart", "strokeEnd",
    ]
    static let gradientLayerKeys = ["colors", "locations", "startPoint", "endPoint", "gradientType"]
    /// `type: svg` and `type: lottie`: a plain layer whose sublayers are imported from a file.
    static let svgLayerKeys = ["file", "animation", "theme", "slots"]
    static let replicatorLayerKeys = [
        "instanceCount", "instanceDelay", "instanceTransform", "instanceColor", "instanceRedOffset", "instanceGreenOffset",
        "instanceBlueOffset", "instanceAlphaOffset",
    ]

    /// Each type's keys, made once (a scene may have 100,000 layers).
    static let layerKeys: [LayerType: KnownKeys] = Dictionary(
        uniqueKeysWithValues: LayerType.allCases.map { type in
            let own: [String]
            switch type {
            case .layer: own = []
            case .shape: own = shapeLayerKeys
            case .gradient: own = gradientLayerKeys
            case .replicator: own = replicatorLayerKeys
            case .text: own = textLayerKeys
            case .video: own = videoLayerKeys
            case .terminal: own = terminalLayerKeys
            }
            return (type, KnownKeys(commonLayerKeys + own))
        })
    static let importedLayerKeys = KnownKeys(commonLayerKeys + svgLayerKeys)

    /// A layer's type, and whether it is `svg` (a plain layer holding an imported file's layers).
    func layerType(_ node: JSONNode, _ path: String) throws(SceneError) -> (LayerType, imported: Bool) {
        guard case .object(let list) = node.value, let typeNode = list.first(where: { $0.key == "type" })?.value else {
            return (.layer, false)
        }
        let s = try string(typeNode, join(path, "type"))
        if s == "svg" || s == "lottie" { return (.layer, true) }
        guard let t = LayerType(rawValue: s) else {
            throw fail(
                typeNode, join(path, "type"), "unknown layer type \"\(s)\"",
                fix: "known types: \(SceneDecoder.layerTypes.joined(separator: ", "))")
        }
        return (t, false)
    }

    func layer(_ node: JSONNode, _ path: String, names: inout Set<String>) throws(SceneError) -> Layer {
        let (type, imported) = try layerType(node, path)
        let known = imported ? Self.importedLayerKeys : Self.layerKeys[type]!
        let m = try members(node, path, known: known, what: "a layer of type \"\(imported ? "svg or lottie" : type.rawValue)\"")
        let name = try m["name"].map { n throws(SceneError) in try string(n, join(path, "name")) } ?? path
        guard names.insert(name).inserted else {
            throw fail(
                m["name"] ?? node, join(path, "name"), "another layer is already named \"\(name)\"",
                fix: "give each layer a unique name")
        }
        var layer = Layer(name: name, type: type)
        func num(_ key: String) throws(SceneError) -> Double? {
            guard let n = m[key] else { return nil }
            return try finite(try number(n, join(path, key)), n, join(path, key))
        }
        if Self.layerTimingKeys.contains(where: { m[$0] != nil }) { layer.timing = try mediaTiming(m.all, path, layer: true) }
        if let n = m["position"] { layer.position = try point(n, join(path, "position")) }
        if let n = m["bounds"] {
            switch n.value {
            case .array(let items) where items.count == 2:
                layer.bounds = Rect(origin: .zero, size: try size(n, join(path, "bounds")))
            default:
                layer.bounds = try rect(n, join(path, "bounds"))
            }
        }
        if let n = m["cells"] { layer.cells = try cells(n, join(path, "cells"), givenFrame: m["position"] ?? m["bounds"]) }
        if let n = m["anchorPoint"] { layer.anchorPoint = try point(n, join(path, "anchorPoint")) }
        if let n = m["transform"] { layer.transform = try transform(n, join(path, "transform")) }
        if let n = m["sublayerTransform"] { layer.sublayerTransform = try transform(n, join(path, "sublayerTransform")) }
        if let v = try num("zPosition") { layer.zPosition = v }
        if let v = try num("opacity") { layer.opacity = v }
        if let n = m["hidden"] { layer.hidden = try bool(n, join(path, "hidden")) }
        if let n = m["backgroundColor"] { layer.backgroundColor = try optionalColor(n, join(path, "backgroundColor")) }
        if let v = try num("cornerRadius") { layer.cornerRadius = v }
        if let v = try num("borderWidth") { layer.borderWidth = v }
        if let n = m["borderColor"] { layer.borderColor = try color(n, join(path, "borderColor")) }
        if let n = m["masksToBounds"] { layer.masksToBounds = try bool(n, join(path, "masksToBounds")) }
        if let n = m["maskMode"] { layer.maskMode = try choice(n, join(path, "maskMode"), MaskMode.self) }
        if let n = m["compositingFilter"] {
            layer.compositingFilter = try choice(n, join(path, "compositingFilter"), CompositingFilter.self)
        }
        if let n = m["filters"] { layer.filters = try filters(n, join(path, "filters")) }
        if let n = m["backgroundFilters"] { layer.backgroundFilters = try filters(n, join(path, "backgroundFilters")) }
        if let n = m["shadowColor"] { layer.shadowColor = try color(n, join(path, "shadowColor")) }
        if let v = try num("shadowOpacity") { layer.shadowOpacity = v }
        if let n = m["shadowOffset"] {
            let p = try components(
                n, join(path, "shadowOffset"), names: ["width", "height"], what: "an offset", example: "[width, height]")
            layer.shadowOffset = Point(x: p[0], y: p[1])
        }
        if let v = try num("shadowRadius") {
            guard v <= Scene.maximumShadowRadius else {
                throw fail(
                    m["shadowRadius"]!, join(path, "shadowRadius"),
                    "shadowRadius \(v) is above the limit of \(Int(Scene.maximumShadowRadius)) points",
                    fix: "a blur that wide spreads the shadow to nothing: use a smaller radius or shadowOpacity 0")
            }
            layer.shadowRadius = max(0, v)
        }
        if let n = m["contents"] {
            layer.contents = try string(n, join(path, "contents"))
            contentsReferences.items.append(
                (layer.name, SourceReference(location: n.location, path: join(base, join(path, "contents")))))
        }
        if let n = m["contentsGravity"] {
            layer.contentsGravity = try choice(n, join(path, "contentsGravity"), ContentsGravity.self)
        }
        if let n = m["contentsScale"] {
            let v = try number(n, join(path, "contentsScale"))
            guard v > 0, v.isFinite else {
                throw fail(n, join(path, "contentsScale"), "contentsScale must be positive, got \(v)")
            }
            layer.contentsScale = v
        }
        // Shape layer.
        if let n = m["path"] { layer.shape.path = try shapePath(n, join(path, "path")) }
        if let n = m["fillColor"] { layer.shape.fillColor = try optionalColor(n, join(path, "fillColor")) }
        if let n = m["strokeColor"] { layer.shape.strokeColor = try optionalColor(n, join(path, "strokeColor")) }
        if let n = m["fillRule"] { layer.shape.fillRule = try choice(n, join(path, "fillRule"), FillRuleName.self) }
        if let v = try num("lineWidth") { layer.shape.stroke.lineWidth = v }
        if let n = m["lineCap"] { layer.shape.stroke.lineCap = try choice(n, join(path, "lineCap"), LineCap.self) }
        if let n = m["lineJoin"] { layer.shape.stroke.lineJoin = try choice(n, join(path, "lineJoin"), LineJoin.self) }
        if let v = try num("miterLimit") { layer.shape.stroke.miterLimit = v }
        if let n = m["lineDashPattern"] {
            let p = join(path, "lineDashPattern")
            if case .null = n.value {
                layer.shape.stroke.lineDashPattern = []
            } else {
                var pattern: [Double] = []
                for (i, item) in try array(n, p).enumerated() {
                    let v = try number(item, "\(p)[\(i)]")
                    guard v >= 0, v.isFinite else {
                        throw fail(item, "\(p)[\(i)]", "dash lengths must be zero or more, got \(v)")
                    }
                    pattern.append(v)
                }
                layer.shape.stroke.lineDashPattern = pattern
            }
        }
        if let v = try num("lineDashPhase") { layer.shape.stroke.lineDashPhase = v }
        if let v = try num("strokeStart") { layer.shape.stroke.strokeStart = v }
        if let v = try num("strokeEnd") { layer.shape.stroke.strokeEnd = v }
        // Gradient layer.
        if let n = m["colors"] {
            var colors: [Color] = []
            for (i, item) in try array(n, join(path, "colors")).enumerated() {
                colors.append(try color(item, "\(join(path, "colors"))[\(i)]"))
            }
            layer.gradient.colors = colors
        }
        if let n = m["locations"] {
            let p = join(path, "locations")
            var locations: [Double] = []
            for (i, item) in try array(n, p).enumerated() {
                let v = try number(item, "\(p)[\(i)]")
                if let last = locations.last, v < last {
                    throw fail(
                        item, "\(p)[\(i)]", "locations must not decrease (\(v) after \(last))",
                        fix: "list stop positions in increasing order, within 0…1")
                }
                locations.append(v)
            }
            layer.gradient.locations = locations
            if m["colors"] != nil, locations.count != layer.gradient.colors.count {
                // Core Animation ignores mismatched locations (CORE-ANIMATION.md §9.2): say so instead.
                throw fail(
                    n, p, "\(locations.count) locations for \(layer.gradient.colors.count) colours",
                    fix: "give one location per colour, or leave \"locations\" out for even spacing")
            }
        }
        if let n = m["startPoint"] { layer.gradient.startPoint = try point(n, join(path, "startPoint")) }
        if let n = m["endPoint"] { layer.gradient.endPoint = try point(n, join(path, "endPoint")) }
        if let n = m["gradientType"] { layer.gradient.type = try choice(n, join(path, "gradientType"), GradientType.self) }
        // Replicator layer.
        if let n = m["instanceCount"] {
            let v = try number(n, join(path, "instanceCount"))
            guard v >= 0, v <= Double(Scene.maximumInstances), v == v.rounded() else {
                throw fail(
                    n, join(path, "instanceCount"), "instanceCount is a whole number in 0…\(Scene.maximumInstances), got \(v)")
            }
            layer.replicator.instanceCount = Int(v)
            layerNodes.items.append(
                (layer.name, SourceReference(location: n.location, path: join(base, join(path, "instanceCount")))))
        }
        if let v = try num("instanceDelay") { layer.replicator.instanceDelay = v }
        if let n = m["instanceTransform"] {
            layer.replicator.instanceTransform = try transform(n, join(path, "instanceTransform"))
        }
        if let n = m["instanceColor"] { layer.replicator.instanceColor = try color(n, join(path, "instanceColor")) }
        for (i, key) in ["instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset"].enumerated() {
            if let v = try num(key) { layer.replicator.colorOffsets[i] = v }
        }
        if type == .text { try readText(m.all, path, into: &layer) }
        if type == .video { try readVideo(m.all, node, path, into: &layer) }
        if type == .terminal { try readTerminal(m.all, node, path, into: &layer) }
        // Children: an SVG's first, then those the scene adds on top.
        if imported { try importLayers(m.all, node, path, into: &layer, names: &names) }
        if let n = m["sublayers"] {
            let children = try array(n, join(path, "sublayers"))
            layer.sublayers.reserveCapacity(layer.sublayers.count + children.count)
            for (i, child) in children.enumerated() {
                let childPath = "\(join(path, "sublayers"))[\(i)]"
                let sublayer = try self.layer(child, childPath, names: &names)
                if type != .terminal { try refuseCells(sublayer, child, childPath, under: "\"\(name)\" is not a terminal layer") }
                layer.sublayers.append(sublayer)
            }
        }
        if let n = m["mask"] {
            let mask = try self.layer(n, join(path, "mask"), names: &names)
            try refuseCells(mask, n, join(path, "mask"), under: "a mask is not a terminal's sublayer")
            layer.mask = mask
        }
        if let n = m["animations"] {
            for (i, a) in try array(n, join(path, "animations")).enumerated() {
                let p = "\(join(path, "animations"))[\(i)]"
                layer.addAnimation(try animation(a, p, type: type), forKey: try animationName(a, p))
            }
            try checkFilterKeyPaths(layer, n, path)
        }
        return layer
    }

    /// An animation's optional `name` (its key in `addAnimation(_:forKey:)`), which timeline actions
    /// refer to with `after`.
    func animationName(_ node: JSONNode, _ path: String) throws(SceneError) -> String? {
        guard case .object(let list) = node.value, let n = list.first(where: { $0.key == "name" })?.value else { return nil }
        return try string(n, join(path, "name"))
    }

    /// `cells` only places a terminal layer's sublayer: anywhere else it is an error where it is written.
    func refuseCells(_ layer: Layer, _ node: JSONNode, _ path: String, under why: String) throws(SceneError) {
        guard layer.cells != nil, case .object(let items) = node.value,
            let cells = items.first(where: { $0.key == "cells" })?.value
        else { return }
        throw fail(
            cells, join(path, "cells"), "cells places a layer in its superlayer's terminal grid, and \(why)",
            fix: "make it a sublayer of a type: terminal layer, or give position and bounds")
    }
}
