/// A Lottie (Bodymovin) file as typed values — composition, layers, shape items, animatable properties,
/// masks, effects, text, assets — read once from the JSON (`LottieModelDecoding`) and then read by the
/// importer and the census instead of the JSON. Plain data: what the file says, nothing evaluated.
import ReelAnimation
import ReelDocument
import ReelGeometry

/// The whole file. Every field is optional or empty where the file may leave it out: the importer
/// refuses what it cannot do without (`LottieImport.scene`), the census reports what is there.
struct LottieAnimation: Sendable {
    /// `v`: the Bodymovin version that wrote it.
    var version: String?
    var width: Double?
    var height: Double?
    /// `fr`, `ip`, `op`.
    var frameRate: Double?
    var inPoint: Double?
    var outPoint: Double?
    /// `layers`, top first; nil when it is not a list (`layersKind` then says what it is).
    var layers: [LottieLayer]?
    var layersKind: String?
    var assets: [LottieAsset] = []
    /// `fonts.list`.
    var fonts: [LottieFont] = []
    /// Whether `chars` (embedded glyph outlines) lists any.
    var hasGlyphs = false
    var markerCount = 0
    /// Where the file and its top-level keys (`w`, `fr`, `layers`…) are written, for errors that name them.
    var location: SourceLocation
    var keyLocations: [String: SourceLocation] = [:]
}

/// An entry of `assets`: a precomp's composition (`layers`) or a picture (`p`, `w`, `h`).
struct LottieAsset: Sendable {
    var id: String?
    var layers: [LottieLayer]?
    /// An image's file name (`p`) and folder (`u`), or its `data:` URI in `path`.
    var path: String?
    var folder: String?
    var width: Double?
    var height: Double?
}

/// An entry of `fonts.list`.
struct LottieFont: Sendable {
    var name: String?
    var family: String?
    var style: String?
}

/// A layer, whatever its type (`ty`): the keys every layer has, and those of its type's content.
struct LottieLayer: Sendable {
    /// `ty`: 0 precomp, 1 solid, 2 image, 3 null, 4 shape, 5 text.
    var type: Int?
    var name: String?
    /// `ind` and `parent`; `parentWritten` also when the parent is not a number.
    var index: Int?
    var parent: Int?
    var parentWritten = false
    /// `hd`, `td` (drawn only as the next layer's matte), `ddd`, `ao`.
    var hidden = false
    var isMatteSource = false
    var is3D = false
    var autoOrient = false
    /// `tt` (1 alpha, 2 inverted alpha, 3 luma, 4 inverted luma) and `tp` (the matte's `ind`).
    var matteMode: Int?
    var matteTarget: Int?
    /// `bm`.
    var blendMode: Int?
    /// Whether `sy` lists any layer style.
    var hasLayerStyles = false
    /// The path, from the layer, of its first expression (a property's `x` string) outside its shapes
    /// and a precomp's layers (`.ks.p.x`); nil when there is none.
    var expression: String?
    /// `st`, `sr`, `ip`, `op` in the composition's frames.
    var startTime: Double?
    var timeStretch: Double?
    var inPoint: Double?
    var outPoint: Double?
    /// `ks`; nil when the layer has none.
    var transform: LottieTransform?
    var masks: [LottieMask] = []
    var effects: [LottieEffect] = []
    /// Precomp and image layers: `refId`; a precomp's `w`, `h` and time remap `tm`.
    var referenceID: String?
    var width: Double?
    var height: Double?
    var timeRemap: Property?
    var timeRemapWritten = false
    /// Solid layers: `sw`, `sh`, `sc` (`#rrggbb`).
    var solidWidth: Double?
    var solidHeight: Double?
    var solidColor: String?
    /// Shape layers: `shapes`, top first.
    var shapes: [LottieShapeItem] = []
    /// Text layers: `t`.
    var text = LottieText()
    /// Where the layer is written, for the errors that name it.
    var location: SourceLocation
}

/// A transform: a layer's `ks`, a group's `tr` item, or a repeater's `tr` (which adds the copies'
/// start and end opacities).
struct LottieTransform: Sendable {
    var anchor: Property?
    /// `p`, or with `p.s` set, `p.x` and `p.y` apart.
    var position: Property?
    var positionSplit = false
    var positionX: Property?
    var positionY: Property?
    var scale: Property?
    /// `r`, and `rz` (3-D layers' z rotation).
    var rotation: Property?
    var rotationZ: Property?
    var opacity: Property?
    /// `sk` degrees of shear along `sa`.
    var skew: Property?
    var skewAxis: Property?
    /// Whether `sk` is written as anything but a still 0.
    var skewWritten = false
    /// A repeater's `so`, `eo`.
    var startOpacity: Property?
    var endOpacity: Property?
}

/// An item of a shape layer's `shapes` or a group's `it`.
struct LottieShapeItem: Sendable {
    /// `ty` as written (`gr`, `rc`, `fl`…), nil when it is not a string.
    var type: String?
    var name: String?
    var hidden = false
    var blendMode: Int?
    var content: Content

    enum Content: Sendable {
        /// `gr`: its items (`it`), the last `tr` among them its transform.
        case group([LottieShapeItem])
        /// `rc`, `el`, `sh`, `sr`.
        case geometry(Geometry)
        /// `fl`, `st`, `gf`, `gs`.
        case paint(Paint)
        /// `tr`.
        case transform(LottieTransform)
        /// `tm`.
        case trim(TrimPath)
        /// `rd`: its radius.
        case roundedCorners(Property?)
        /// `rp`.
        case repeater(Repeater)
        /// `mm`: its mode (1 merge, 2 add, 3 subtract, 4 intersect, 5 exclude).
        case merge(Int?)
        /// Any other type (offset path, zig zag… or unknown), with the keys it shares with geometry
        /// (`p`, `s`, `r`, `pt`…): an enclosing group's paint keys over their keyframes too.
        case other(Geometry)
    }

    /// The group's items, a geometry, a transform, a repeater, a merge's mode: nil for another case.
    var geometry: Geometry? {
        if case .geometry(let g) = content { return g }
        return nil
    }
    var transform: LottieTransform? {
        if case .transform(let t) = content { return t }
        return nil
    }
    var repeater: Repeater? {
        if case .repeater(let r) = content { return r }
        return nil
    }
    var mergeMode: Int? {
        if case .merge(let mode) = content { return mode }
        return nil
    }
    /// A shape or a group: what a paint after it draws.
    var drawsGeometry: Bool {
        switch content {
        case .geometry, .group: return true
        default: return false
        }
    }

    /// A rectangle, ellipse, path or polystar, by the item's type.
    struct Geometry: Sendable {
        /// `p`, `s`, `r` (a rectangle's roundness, a polystar's rotation).
        var position: Property?
        var size: Property?
        var roundness: Property?
        /// A path's `ks`.
        var path: PathProperty?
        /// A polystar's `pt`, `or`, `ir`; a star unless `sy` is 2 (a polygon).
        var points: Property?
        var outerRadius: Property?
        var innerRadius: Property?
        var isStar = true
        /// Unless `d` is 3.
        var clockwise = true
    }

    /// A fill, stroke, gradient fill or gradient stroke, by the item's type.
    struct Paint: Sendable {
        /// `c`, and its value when written as a still list of numbers.
        var color: Property?
        var colorWritten: [Double]?
        var opacity: Property?
        /// Fills: `r` 2.
        var evenOdd = false
        /// Strokes: `w`, `lc`, `lj`, `ml`, `d`.
        var width: Property?
        var lineCap: Int?
        var lineJoin: Int?
        var miterLimit: Double?
        var dashes: [Dash] = []
        /// Gradients: `g.k` (colour stops, then alpha stops) and `g.p` (how many colour stops).
        var stops: Property?
        var stopCount: Int?
        /// `s`, `e`; radial when `t` is 2, its highlight `h` (length) and `a` (angle).
        var start: Property?
        var end: Property?
        var radial = false
        var highlightLength: Property?
        var highlightAngle: Property?
        /// Whether `h` or `a` is marked animated (`"a": 1`).
        var highlightMarkedAnimated = false
    }

    /// A stroke's dash, gap or offset (`n` "d", "g", "o") and its length (`v`).
    struct Dash: Sendable {
        var kind: String?
        var value: Property?
    }

    /// `s`, `e` percent, `o` degrees; `m` 2 trims the paths one after another.
    struct TrimPath: Sendable {
        var start: Property?
        var end: Property?
        var offset: Property?
        var individually = false
    }

    /// `c` copies from offset `o`, each moved by `tr`; `m` 2 puts each below the one before.
    struct Repeater: Sendable {
        var copies: Property?
        var offset: Property?
        var transform: LottieTransform?
        var below = false
    }
}

/// An entry of a layer's `masksProperties`.
struct LottieMask: Sendable {
    /// `mode`: a add, s subtract, i intersect, l lighten, d darken, f difference, n none.
    var mode: String?
    var inverted = false
    /// `pt`, `o`, `x` (expansion).
    var outline: PathProperty?
    var opacity: Property?
    var expansion: Property?
    /// Whether `x` is written as anything but a still 0.
    var expansionWritten = false
}

/// An entry of a layer's `ef`.
struct LottieEffect: Sendable {
    /// Unless `en` is 0.
    var enabled = true
    /// `ty` (25 drop shadow), `nm`.
    var type: Int?
    var name: String?
    /// Each parameter's value (`ef[k].v`), by position.
    var parameters: [Property?] = []
}

/// A text layer's `t`.
struct LottieText: Sendable {
    /// Whether `a` lists any animator.
    var hasAnimators = false
    /// `p`: aligned to a path (`p.a` written), or anything of a path (`p.m` or `p.a`).
    var pathAlignment = false
    var pathWritten = false
    /// `d.k`: the documents that hold a style (`s`), each from its frame.
    var documents: [Document] = []

    /// `d.k[i]`: `t` the frame, and its `s`.
    struct Document: Sendable {
        var frame: Double?
        /// `t`, `f` (a font's `fName`), `s`, `fc`, `sc`, `sw`, `j`, `tr`, `lh`, `ls`, `sz`, `ps`.
        var text: String?
        var font: String?
        var size: Double?
        var fillColor: [Double]?
        var strokeColor: [Double]?
        var strokeWidth: Double?
        var justification: Int?
        var tracking: Double?
        var lineHeight: Double?
        var baselineShift: Double?
        var boxSize: [Double]?
        var boxPosition: [Double]?
    }
}

/// A keyframe of an animatable property: its frame, value, hold, easing and spatial tangents.
struct Keyframe: Sendable {
    var frame: Double
    var value: [Double]
    var hold = false
    /// Easing out of this keyframe and into the next, per dimension (x and y of the Bézier handles).
    var easeOut: (x: [Double], y: [Double])?
    var easeIn: (x: [Double], y: [Double])?
    /// Spatial tangents (position): out of this keyframe, into the next.
    var tangentOut: [Double]?
    var tangentIn: [Double]?
}

/// An animatable property (`{"a": 0|1, "k": …}`): its still value (the first keyframe's when keyed) and
/// its keyframes when there are two or more. Evaluated in `LottieProperty`.
struct Property: Sendable {
    var value: [Double]
    var keyframes: [Keyframe] = []

    var isAnimated: Bool { keyframes.count > 1 }

    init(_ value: [Double]) { self.value = value }
}

/// A Bézier path property (`sh`'s `ks`, a mask's `pt`): vertices with in and out tangents, closed or
/// not, keyed. Evaluated in `LottieShapes`.
struct PathProperty: Sendable {
    struct Shape: Sendable {
        var vertices: [Point]
        var inTangents: [Point]
        var outTangents: [Point]
        var closed: Bool
    }

    var frames: [(frame: Double, shape: Shape, hold: Bool, ease: TimingFunction)] = []
    var keyframes: [(frame: Double, shape: Shape)] { frames.map { ($0.frame, $0.shape) } }
    var isAnimated: Bool { frames.count > 1 }
}
