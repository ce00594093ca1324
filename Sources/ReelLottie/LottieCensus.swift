/// What a Lottie file uses, feature by feature, and whether Reel draws it: `reel info anim.json` prints
/// it. The one table of what Reel supports (`LottieCensus.support`) is kept beside the importer's notes.
import ReelDocument

public struct LottieCensus: Sendable {
    /// How Reel treats a feature.
    public enum Support: String, Sendable {
        case drawn, partly, ignored
    }

    public struct Feature: Sendable {
        /// A short tag (`shape:rp`, `matte:luma`, `effect:Gaussian Blur`), as the corpus census names them.
        public var tag: String
        public var count: Int
        /// The JSON path of the first use.
        public var example: String
        public var support: Support
        public var note: String
    }

    public var version: String?
    public var frameRate: Double
    public var inPoint: Double
    public var outPoint: Double
    public var size: (width: Double, height: Double)
    /// In the order first met.
    public var features: [Feature]

    /// What Reel does with each feature tag (by prefix for effects and blend modes); anything else is
    /// drawn.
    static let support: [String: (Support, String)] = [
        "layer:text": (.partly, "documents drawn with the file's fonts or common ones; animators are not run"),
        "text:animator": (.ignored, "text animators are not run"),
        "text:path": (.ignored, "text on a path is drawn on a line"),
        "text:glyphs": (.partly, "embedded glyph outlines are not used; the text is set in a font"),
        "image:external": (.ignored, "only embedded (data:) images are drawn"),
        "mask:expansion": (.ignored, "mask expansion is not applied"),
        "mask:lighten": (.partly, "drawn as add"), "mask:darken": (.partly, "drawn as add"),
        "mask:difference": (.partly, "drawn as add"),
        "merge:stroke": (.partly, "merge paths before a stroke strokes each path as it is"),
        "shape:op": (.ignored, "offset path"), "shape:pb": (.ignored, "pucker and bloat"), "shape:zz": (.ignored, "zig zag"),
        "shape:tw": (.ignored, "twist"),
        "3d": (.partly, "3-D layers are drawn flat"),
        "expression": (.ignored, "expressions are not run; keyframed values are drawn"),
        "layerstyle": (.ignored, "layer styles are ignored"),
        "gradient:moving-highlight": (.partly, "a moving highlight is drawn as it starts"),
        "color:0-255": (.drawn, "old Bodymovin colours in 0…255, divided by 255 as lottie-web does"),
    ]

    static func support(of tag: String) -> (Support, String) {
        if let s = support[tag] { return s }
        if tag == "blend:hard mix" { return (.ignored, "hard mix is drawn as normal") }
        if tag.hasPrefix("blend:") { return (.drawn, "as the layer's compositingFilter") }
        if tag == "effect:Drop Shadow" { return (.drawn, "as the layer's shadow") }
        if tag == "effect:Gaussian Blur" { return (.drawn, "as a gaussianBlur layer filter (σ 0.24 × blurriness)") }
        if tag == "effect:Tint" || tag == "effect:Fill" { return (.drawn, "as a colorMatrix layer filter") }
        if tag.hasPrefix("effect:") {
            return (.ignored, "effects other than Drop Shadow, Gaussian Blur, Tint and Fill are ignored")
        }
        if tag.hasPrefix("shape:") && !known.contains(tag) { return (.ignored, "not a shape item Reel knows") }
        if tag.hasPrefix("layer:") && !known.contains(tag) { return (.ignored, "not a layer type Reel knows") }
        return (.drawn, "")
    }

    static let known: Set<String> = [
        "layer:precomp", "layer:solid", "layer:image", "layer:null", "layer:shape", "layer:text",
        "shape:gr", "shape:tr", "shape:rc", "shape:el", "shape:sr", "shape:sh", "shape:fl", "shape:st", "shape:gf",
        "shape:gs", "shape:tm", "shape:rp", "shape:rd", "shape:mm", "shape:op", "shape:pb", "shape:zz", "shape:tw",
    ]

    /// The census of a parsed Lottie file (nil when it is not one); the walk is bounded like the import.
    public static func of(_ root: JSONNode) -> LottieCensus? {
        guard LottieImport.looksLikeLottie(root) else { return nil }
        let animation = LottieAnimation(root)
        var walker = Walker()
        walker.layers(animation.layers ?? [], path: "layers", depth: 0)
        for (i, asset) in animation.assets.enumerated() {
            let id = asset.id ?? "\(i)"
            if let layers = asset.layers {
                walker.layers(layers, path: "assets[\(id)].layers", depth: 1)
            } else if let p = asset.path {
                walker.add(p.hasPrefix("data:") ? "image:embedded" : "image:external", "assets[\(i)].p")
            }
        }
        if !animation.fonts.isEmpty { walker.add("fonts", "fonts.list") }
        if animation.hasGlyphs { walker.add("text:glyphs", "chars") }
        if animation.markerCount > 0 { walker.add("markers", "markers", count: animation.markerCount) }
        return LottieCensus(
            version: animation.version, frameRate: animation.frameRate ?? 0, inPoint: animation.inPoint ?? 0,
            outPoint: animation.outPoint ?? 0, size: (animation.width ?? 0, animation.height ?? 0),
            features: walker.order.compactMap { tag in
                guard let (count, example) = walker.seen[tag] else { return nil }
                let (support, note) = support(of: tag)
                return Feature(tag: tag, count: count, example: example, support: support, note: note)
            })
    }

    struct Walker {
        var seen: [String: (Int, String)] = [:]
        var order: [String] = []
        var visited = 0

        mutating func add(_ tag: String, _ path: String, count: Int = 1) {
            if let (n, example) = seen[tag] {
                seen[tag] = (n + count, example)
            } else {
                seen[tag] = (count, path)
                order.append(tag)
            }
        }

        mutating func layers(_ list: [LottieLayer], path: String, depth: Int) {
            let types = [0: "precomp", 1: "solid", 2: "image", 3: "null", 4: "shape", 5: "text"]
            for (i, l) in list.enumerated() {
                visited += 1
                guard visited <= LottieLimits.maximumItems, depth < LottieLimits.maximumDepth else { return }
                let p = "\(path)[\(i)]"
                let ty = l.type ?? -1
                add("layer:\(types[ty] ?? "\(ty)")", p)
                if l.parentWritten { add("parenting", "\(p).parent") }
                if l.timeRemapWritten { add("timeremap", "\(p).tm") }
                if let sr = l.timeStretch, sr != 1 { add("timestretch", "\(p).sr") }
                if l.autoOrient { add("autoorient", "\(p).ao") }
                if l.is3D { add("3d", "\(p).ddd") }
                if let bm = l.blendMode, bm != 0 { add("blend:\(LottieImporter.blendModes[bm] ?? "\(bm)")", "\(p).bm") }
                if let tt = l.matteMode, let kind = [1: "alpha", 2: "alphainv", 3: "luma", 4: "lumainv"][tt] {
                    add("matte:\(kind)", "\(p).tt")
                }
                if l.hasLayerStyles { add("layerstyle", "\(p).sy") }
                for (k, e) in l.effects.enumerated() {
                    // Named by type where Reel draws the type (a file's own name may be translated).
                    let drawn = [25: "Drop Shadow", 29: "Gaussian Blur", 20: "Tint", 21: "Fill"]
                    let name = e.type.flatMap { drawn[$0] } ?? e.name ?? "type \(e.type ?? -1)"
                    add("effect:\(name)", "\(p).ef[\(k)]")
                }
                for (k, m) in l.masks.enumerated() {
                    let mode =
                        ["a": "add", "s": "subtract", "i": "intersect", "l": "lighten", "d": "darken", "f": "difference"][
                            m.mode ?? "a"] ?? "none"
                    add("mask:\(mode)", "\(p).masksProperties[\(k)]")
                    if m.inverted { add("mask:inverted", "\(p).masksProperties[\(k)].inv") }
                    if m.expansionWritten { add("mask:expansion", "\(p).masksProperties[\(k)].x") }
                }
                if l.transform?.skewWritten == true { add("skew", "\(p).ks.sk") }
                if let at = l.expression { add("expression", "\(p)\(at)") }
                if ty == 5 {
                    if l.text.hasAnimators { add("text:animator", "\(p).t.a") }
                    if l.text.pathWritten { add("text:path", "\(p).t.p") }
                }
                shapes(l.shapes, path: "\(p).shapes", depth: depth + 1)
            }
        }

        mutating func shapes(_ items: [LottieShapeItem], path: String, depth: Int) {
            var merged = false
            for (i, item) in items.enumerated() {
                visited += 1
                guard visited <= LottieLimits.maximumItems, depth < LottieLimits.maximumDepth else { return }
                let p = "\(path)[\(i)]"
                let ty = item.type ?? "?"
                add("shape:\(ty)", p)
                switch item.content {
                case .group(let children): shapes(children, path: "\(p).it", depth: depth + 1)
                case .merge(let mode): merged = merged || (mode ?? 1) > 1
                case .trim(let trim): if trim.individually { add("trim:individually", p) }
                case .paint(let paint):
                    if (ty == "st" || ty == "gs") && merged { add("merge:stroke", p) }
                    if ty == "gf" || ty == "gs" {
                        add(paint.radial ? "gradient:radial" : "gradient:linear", p)
                        if paint.highlightMarkedAnimated { add("gradient:moving-highlight", p) }
                    }
                    if ty == "st" || ty == "gs", !paint.dashes.isEmpty { add("dash", "\(p).d") }
                    if ty == "fl" || ty == "st", let c = paint.colorWritten, c.prefix(3).contains(where: { $0 > 1 }) {
                        add("color:0-255", "\(p).c")
                    }
                default: break
                }
            }
        }
    }
}
