/// The located JSON tree read once into the Lottie model (`LottieModel`), leniently: files carry many
/// keys Reel does not use, and a key of the wrong kind reads as absent. Also how a Lottie file is told
/// from a scene file: the only other place its JSON is read.
import ReelAnimation
import ReelDocument
import ReelGeometry

extension JSONNode {
    subscript(_ key: String) -> JSONNode? {
        guard case .object(let pairs) = value else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    var number: Double? {
        switch value {
        case .number(let v): return v.isFinite ? v : nil
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    var items: [JSONNode]? {
        if case .array(let a) = value { return a }
        return nil
    }

    /// A whole number of a sane size (a type, an index, a count), else nil: `Int(1e38)` would trap.
    var integer: Int? {
        guard let v = number, abs(v) <= 1e9 else { return nil }
        return Int(v.rounded())
    }

    /// A number, or a list of numbers (a Lottie value of one or more dimensions).
    var numbers: [Double]? {
        if let v = number { return [v] }
        guard let a = items else { return nil }
        var out: [Double] = []
        for item in a {
            guard let v = item.number else { return nil }
            out.append(v)
        }
        return out
    }

    /// `k` is written as anything but a still 0 (a skew, a mask's expansion that changes something).
    var writesNonZero: Bool {
        guard let k = self["k"] else { return false }
        return k.numbers != [0]
    }
}

extension LottieAnimation {
    /// The top-level keys whose place an error may name.
    static let locatedKeys = ["w", "h", "fr", "ip", "op", "layers"]

    init(_ root: JSONNode) {
        location = root.location
        for key in Self.locatedKeys { keyLocations[key] = root[key]?.location }
        version = root["v"]?.string
        width = root["w"]?.number
        height = root["h"]?.number
        frameRate = root["fr"]?.number
        inPoint = root["ip"]?.number
        outPoint = root["op"]?.number
        if let list = root["layers"]?.items {
            layers = list.map(LottieLayer.init)
        } else {
            layersKind = root["layers"]?.kindName
        }
        assets = (root["assets"]?.items ?? []).map(LottieAsset.init)
        fonts = (root["fonts"]?["list"]?.items ?? []).map {
            LottieFont(name: $0["fName"]?.string, family: $0["fFamily"]?.string, style: $0["fStyle"]?.string)
        }
        hasGlyphs = root["chars"]?.items?.isEmpty == false
        markerCount = root["markers"]?.items?.count ?? 0
    }
}

extension LottieAsset {
    init(_ asset: JSONNode) {
        id = asset["id"]?.string
        layers = asset["layers"]?.items?.map(LottieLayer.init)
        path = asset["p"]?.string
        folder = asset["u"]?.string
        width = asset["w"]?.number
        height = asset["h"]?.number
    }
}

extension LottieLayer {
    init(_ l: JSONNode) {
        location = l.location
        type = l["ty"]?.integer
        name = l["nm"]?.string
        index = l["ind"]?.integer
        parent = l["parent"]?.integer
        parentWritten = l["parent"] != nil
        hidden = l["hd"]?.number == 1
        isMatteSource = l["td"]?.number == 1
        is3D = l["ddd"]?.number == 1
        autoOrient = l["ao"]?.number == 1
        matteMode = l["tt"]?.integer
        matteTarget = l["tp"]?.integer
        blendMode = l["bm"]?.integer
        hasLayerStyles = l["sy"]?.items?.isEmpty == false
        expression = Self.expression(in: l, path: "")
        startTime = l["st"]?.number
        timeStretch = l["sr"]?.number
        inPoint = l["ip"]?.number
        outPoint = l["op"]?.number
        transform = l["ks"].map(LottieTransform.init)
        masks = (l["masksProperties"]?.items ?? []).map(LottieMask.init)
        effects = (l["ef"]?.items ?? []).map(LottieEffect.init)
        referenceID = l["refId"]?.string
        width = l["w"]?.number
        height = l["h"]?.number
        timeRemap = Property(l["tm"])
        timeRemapWritten = l["tm"] != nil
        solidWidth = l["sw"]?.number
        solidHeight = l["sh"]?.number
        solidColor = l["sc"]?.string
        shapes = (l["shapes"]?.items ?? []).map(LottieShapeItem.init)
        if let t = l["t"] { text = LottieText(t) }
    }

    /// The path of the first expression (a property's `x` string) in a layer's own keys, not its shapes'
    /// or a precomp's layers' (each of those is looked at as it is imported); nil when there is none.
    static func expression(in node: JSONNode, path: String, depth: Int = 0) -> String? {
        guard depth < 12 else { return nil }
        switch node.value {
        case .object(let members):
            for m in members where m.key != "shapes" && m.key != "layers" {
                if m.key == "x", m.value.string != nil { return "\(path).x" }
                if let found = expression(in: m.value, path: "\(path).\(m.key)", depth: depth + 1) { return found }
            }
        case .array(let items):
            for (i, item) in items.enumerated() {
                if let found = expression(in: item, path: "\(path)[\(i)]", depth: depth + 1) { return found }
            }
        default: break
        }
        return nil
    }
}

extension LottieTransform {
    init(_ ks: JSONNode) {
        anchor = Property(ks["a"])
        position = Property(ks["p"])
        positionSplit = ks["p"]?["s"]?.number == 1
        positionX = Property(ks["p"]?["x"])
        positionY = Property(ks["p"]?["y"])
        scale = Property(ks["s"])
        rotation = Property(ks["r"])
        rotationZ = Property(ks["rz"])
        opacity = Property(ks["o"])
        skew = Property(ks["sk"])
        skewAxis = Property(ks["sa"])
        skewWritten = ks["sk"]?.writesNonZero ?? false
        startOpacity = Property(ks["so"])
        endOpacity = Property(ks["eo"])
    }
}

extension LottieShapeItem {
    init(_ item: JSONNode) {
        type = item["ty"]?.string
        name = item["nm"]?.string
        hidden = item["hd"]?.number == 1
        blendMode = item["bm"]?.integer
        switch type {
        case "gr": content = .group((item["it"]?.items ?? []).map(LottieShapeItem.init))
        case "rc", "el", "sh", "sr": content = .geometry(Geometry(item))
        case "fl", "st", "gf", "gs": content = .paint(Paint(item))
        case "tr": content = .transform(LottieTransform(item))
        case "tm":
            content = .trim(
                TrimPath(
                    start: Property(item["s"]), end: Property(item["e"]), offset: Property(item["o"]),
                    individually: item["m"]?.number == 2))
        case "rd": content = .roundedCorners(Property(item["r"]))
        case "rp":
            content = .repeater(
                Repeater(
                    copies: Property(item["c"]), offset: Property(item["o"]), transform: item["tr"].map(LottieTransform.init),
                    below: item["m"]?.number == 2))
        case "mm": content = .merge(item["mm"]?.integer)
        default: content = .other(Geometry(item))
        }
    }
}

extension LottieShapeItem.Geometry {
    init(_ item: JSONNode) {
        position = Property(item["p"])
        size = Property(item["s"])
        roundness = Property(item["r"])
        path = PathProperty(item["ks"])
        points = Property(item["pt"])
        outerRadius = Property(item["or"])
        innerRadius = Property(item["ir"])
        isStar = item["sy"]?.number != 2
        clockwise = item["d"]?.number != 3
    }
}

extension LottieShapeItem.Paint {
    init(_ item: JSONNode) {
        color = Property(item["c"])
        colorWritten = item["c"]?["k"]?.numbers
        opacity = Property(item["o"])
        evenOdd = item["r"]?.number == 2
        width = Property(item["w"])
        lineCap = item["lc"]?.integer
        lineJoin = item["lj"]?.integer
        miterLimit = item["ml"]?.number
        dashes = (item["d"]?.items ?? []).map { LottieShapeItem.Dash(kind: $0["n"]?.string, value: Property($0["v"])) }
        stops = Property(item["g"]?["k"])
        stopCount = item["g"]?["p"]?.integer
        start = Property(item["s"])
        end = Property(item["e"])
        radial = item["t"]?.number == 2
        highlightLength = Property(item["h"])
        highlightAngle = Property(item["a"])
        highlightMarkedAnimated = item["h"]?["a"]?.number == 1 || item["a"]?["a"]?.number == 1
    }
}

extension LottieMask {
    init(_ m: JSONNode) {
        mode = m["mode"]?.string
        inverted = m["inv"]?.number == 1
        outline = PathProperty(m["pt"])
        opacity = Property(m["o"])
        expansion = Property(m["x"])
        expansionWritten = m["x"]?.writesNonZero ?? false
    }
}

extension LottieEffect {
    init(_ effect: JSONNode) {
        enabled = effect["en"]?.number != 0
        type = effect["ty"]?.integer
        name = effect["nm"]?.string
        parameters = (effect["ef"]?.items ?? []).map { Property($0["v"]) }
    }
}

extension LottieText {
    init(_ t: JSONNode) {
        hasAnimators = t["a"]?.items?.isEmpty == false
        pathAlignment = t["p"]?["a"] != nil
        pathWritten = t["p"]?["m"] != nil || t["p"]?["a"] != nil
        documents = (t["d"]?["k"]?.items ?? []).prefix(LottieLimits.maximumSampledFrames).compactMap { item in
            guard let s = item["s"] else { return nil }
            return Document(
                frame: item["t"]?.number, text: s["t"]?.string, font: s["f"]?.string, size: s["s"]?.number,
                fillColor: s["fc"]?.numbers, strokeColor: s["sc"]?.numbers, strokeWidth: s["sw"]?.number,
                justification: s["j"]?.integer, tracking: s["tr"]?.number, lineHeight: s["lh"]?.number,
                baselineShift: s["ls"]?.number, boxSize: s["sz"]?.numbers, boxPosition: s["ps"]?.numbers)
        }
    }
}

extension Property {
    /// `{"a": 0|1, "k": …}`; nil when the node holds no value Reel can read.
    init?(_ node: JSONNode?) {
        guard let node, let k = node["k"] else { return nil }
        if let v = k.numbers {
            self.init(v)
            return
        }
        guard let list = k.items, list.first?["t"] != nil else { return nil }
        var frames: [Keyframe] = []
        for (i, item) in list.prefix(LottieLimits.maximumSampledFrames).enumerated() {
            guard let t = item["t"]?.number else { continue }
            // The last keyframe may hold only its time: its value is the one before's end ("e", old files).
            guard let v = item["s"]?.numbers ?? (i > 0 ? list[i - 1]["e"]?.numbers : nil) ?? frames.last?.value else {
                continue
            }
            var kf = Keyframe(frame: t, value: v)
            kf.hold = item["h"]?.number == 1
            func ease(_ e: JSONNode?) -> (x: [Double], y: [Double])? {
                guard let e, let x = e["x"]?.numbers, let y = e["y"]?.numbers, !x.isEmpty, !y.isEmpty else { return nil }
                return (x, y)
            }
            kf.easeOut = ease(item["o"])
            kf.easeIn = ease(item["i"])
            kf.tangentOut = item["to"]?.numbers
            kf.tangentIn = item["ti"]?.numbers
            if let last = frames.last, t < last.frame { continue }  // out of order: left out
            frames.append(kf)
        }
        guard let first = frames.first else { return nil }
        self.init(first.value)
        keyframes = frames.count > 1 ? frames : []
    }
}

extension PathProperty {
    init?(_ node: JSONNode?) {
        guard let node, let k = node["k"] else { return nil }
        if let shape = Self.shape(k) {
            frames = [(0, shape, false, .linear)]
            return
        }
        guard let list = k.items else { return nil }
        for (i, item) in list.prefix(LottieLimits.maximumSampledFrames).enumerated() {
            guard let t = item["t"]?.number else { continue }
            guard
                let shape = (item["s"]).flatMap(Self.shape) ?? (i > 0 ? list[i - 1]["e"].flatMap(Self.shape) : nil)
                    ?? frames.last?.shape
            else { continue }
            var ease = TimingFunction.linear
            if let o = item["o"], let ii = item["i"], let ox = o["x"]?.numbers?.first, let oy = o["y"]?.numbers?.first,
                let ix = ii["x"]?.numbers?.first, let iy = ii["y"]?.numbers?.first
            {
                ease = TimingFunction(ox, oy, ix, iy)
            }
            if let last = frames.last, t < last.frame { continue }
            frames.append((t, shape, item["h"]?.number == 1, ease))
        }
        if frames.isEmpty { return nil }
    }

    static func shape(_ node: JSONNode) -> Shape? {
        // A shape, or (old files) a list holding one.
        let n = node.items?.first ?? node
        guard let v = n["v"]?.items else { return nil }
        func points(_ list: [JSONNode]?) -> [Point] {
            (list ?? []).map { p in
                let c = p.numbers ?? []
                return Point(x: c.first ?? 0, y: c.count > 1 ? c[1] : 0)
            }
        }
        let vertices = points(v)
        var ins = points(n["i"]?.items), outs = points(n["o"]?.items)
        ins += Array(repeating: .zero, count: max(0, vertices.count - ins.count))
        outs += Array(repeating: .zero, count: max(0, vertices.count - outs.count))
        return Shape(vertices: vertices, inTangents: ins, outTangents: outs, closed: n["c"]?.number == 1)
    }
}

extension LottieImport {
    /// Whether JSON bytes are a Lottie animation rather than a Reel scene: an object with none of a
    /// scene's `width` and `fps`, and with Lottie's frame rate, in and out points, or its version and
    /// layers. A file with only some of Lottie's keys is still told as one, so that the import says
    /// which it lacks (a scene would say `unknown key "v"`).
    public static func looksLikeLottie(_ bytes: [UInt8]) -> Bool {
        guard let root = try? JSONParser.parse(bytes) else { return false }
        return looksLikeLottie(root)
    }

    public static func looksLikeLottie(_ root: JSONNode) -> Bool {
        guard case .object = root.value, root["width"] == nil, root["fps"] == nil else { return false }
        let timing = root["fr"]?.number != nil && root["ip"]?.number != nil && root["op"]?.number != nil
        return timing || (root["v"]?.string != nil && root["layers"]?.items != nil)
    }
}
