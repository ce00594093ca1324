/// The scene model: canvas and timing, and the layer model with its properties and the animations added to it.
import ReelAnimation
import ReelGeometry

public enum LayerType: String, Sendable, CaseIterable {
    /// A plain `CALayer`: background, border, corner radius, shadow, image contents, sublayers.
    case layer
    /// A `CAShapeLayer`: a path filled and stroked.
    case shape
    /// A `CAGradientLayer`: axial, radial or conic colour ramp over the bounds.
    case gradient
    /// A `CAReplicatorLayer`: its sublayers drawn `instanceCount` times.
    case replicator
    /// A `CATextLayer`: shaped text in the bounds.
    case text
    /// An `AVPlayerLayer`: a video file's frames over the bounds, in the layer's own time.
    case video
    /// A terminal session (an asciicast recording) played in a grid of cells over the bounds, in the
    /// layer's own time, as a video layer plays its file.
    case terminal
}

/// `CAReplicatorLayer`'s own properties, with its defaults (CORE-ANIMATION.md §8.5).
public struct ReplicatorProperties: Sendable {
    public var instanceCount = 1
    public var instanceDelay: Double = 0
    public var instanceTransform: Transform3D = .identity
    public var instanceColor: Color = .white
    /// Added to the instance colour once per instance: red, green, blue, alpha.
    public var colorOffsets: [Double] = [0, 0, 0, 0]

    public init() {}

    /// Instance k's colour: instanceColor + k·offsets, clamped to 0…1 (clamp UNCONFIRMED, §8.5).
    public func color(ofInstance k: Int) -> Color {
        let c = instanceColor, o = colorOffsets, f = Double(k)
        return Color(
            red: Color.unit(c.red + f * o[0]), green: Color.unit(c.green + f * o[1]), blue: Color.unit(c.blue + f * o[2]),
            alpha: Color.unit(c.alpha + f * o[3]))
    }
}

/// A colour ramp painting a shape layer's fill or stroke (what an SVG gradient imports as; Core
/// Animation has only `CAGradientLayer`): axial, radial or radial with a focal circle, in the layer's own
/// coordinates, padded, reflected or repeated past its ends.
public struct ShapeGradient: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case axial(start: Point, end: Point)
        case radial(center: Point, radius: Double)
        /// SVG's radial gradient with a focal point: s = 0 on the focal circle (`focus`, `focalRadius`),
        /// 1 on the end circle (`center`, `radius`), the circles in between interpolated; outside the cone
        /// they span nothing is painted. A zero focal radius at the centre is `radial`.
        case focal(focus: Point, focalRadius: Double, center: Point, radius: Double)
    }
    /// SVG's `spreadMethod`: what lies past the ends of the ramp.
    public enum Spread: Sendable, Hashable {
        case pad, reflect, `repeat`
    }
    public var kind: Kind
    public var colors: [Color]
    /// Stop positions, 0…1, increasing.
    public var locations: [Double]
    /// From the gradient's own space to the layer's.
    public var transform: Transform2D
    public var spread: Spread
    /// Colours mixed unpremultiplied (as written, as SVG does) rather than premultiplied.
    public var straightInterpolation: Bool

    public init(
        kind: Kind, colors: [Color], locations: [Double], transform: Transform2D = .identity, spread: Spread = .pad,
        straightInterpolation: Bool = false
    ) {
        self.kind = kind
        self.colors = colors
        self.locations = locations
        self.transform = transform
        self.spread = spread
        self.straightInterpolation = straightInterpolation
    }
}

/// `CAShapeLayer`'s own properties, with its defaults (CORE-ANIMATION.md §9.1).
public struct ShapeProperties: Sendable {
    public var path = Path()
    public var fillColor: Color? = .black
    /// Paints the fill instead of `fillColor` (with `fillColor`'s alpha as its opacity) when set.
    public var fillGradient: ShapeGradient?
    public var strokeColor: Color?
    /// Paints the stroke instead of `strokeColor` (with its alpha as the opacity) when set.
    public var strokeGradient: ShapeGradient?
    public var fillRule: FillRuleName = .nonZero
    public var stroke = StrokeStyle()

    public init() {}
}

/// `kCAFillRuleNonZero` / `kCAFillRuleEvenOdd`.
public enum FillRuleName: String, Sendable, CaseIterable {
    case nonZero
    case evenOdd
}

/// `CAGradientLayerType`.
public enum GradientType: String, Sendable, CaseIterable {
    case axial, radial, conic
}

/// `CAGradientLayer`'s own properties, with its defaults (CORE-ANIMATION.md §9.2).
public struct GradientProperties: Sendable {
    public var colors: [Color] = []
    public var locations: [Double]?
    public var startPoint = Point(x: 0.5, y: 0)
    public var endPoint = Point(x: 0.5, y: 1)
    public var type: GradientType = .axial

    public init() {}
}

/// What of a mask layer masks: its alpha, or its luminance times its alpha; or what either leaves
/// (one minus it: Lottie's inverted mattes).
public enum MaskMode: String, Sendable, CaseIterable {
    case alpha
    case luminance
    case alphaInverted
    case luminanceInverted

    public var byLuminance: Bool { self == .luminance || self == .luminanceInverted }
    public var inverted: Bool { self == .alphaInverted || self == .luminanceInverted }
}

/// `CALayer.compositingFilter`: how the layer (flattened with its sublayers) blends with what is below
/// it, by the names Core Animation takes (Core Image's blend modes; `additionCompositing` adds).
public enum CompositingFilter: String, Sendable, CaseIterable {
    case multiplyBlendMode, screenBlendMode, overlayBlendMode, darkenBlendMode, lightenBlendMode, colorDodgeBlendMode,
        colorBurnBlendMode, hardLightBlendMode, softLightBlendMode, differenceBlendMode, exclusionBlendMode, hueBlendMode,
        saturationBlendMode, colorBlendMode, luminosityBlendMode, additionCompositing
}

/// The values of a layer's properties (Core Animation's names and defaults, CORE-ANIMATION.md §8.1):
/// a model layer holds them as set, a presentation layer as they are on screen at one time.
public struct LayerProperties: Sendable {
    public var position: Point = .zero
    public var bounds: Rect = .zero
    public var anchorPoint = Point(x: 0.5, y: 0.5)
    /// Applied about the anchor point (CORE-ANIMATION.md §8.2).
    public var transform: Transform3D = .identity
    /// Applied to the sublayers, about the same pivot.
    public var sublayerTransform: Transform3D = .identity
    /// Orders siblings (higher is in front) and moves the layer along z.
    public var zPosition: Double = 0
    public var opacity: Double = 1
    public var hidden = false
    public var backgroundColor: Color?
    public var cornerRadius: Double = 0
    public var borderWidth: Double = 0
    public var borderColor: Color = .black
    public var masksToBounds = false
    /// What of the `mask` layer masks this one: its alpha (Core Animation's only way), or its luminance
    /// (SVG masks, Lottie luma mattes).
    public var maskMode: MaskMode = .alpha
    /// Nil draws source-over.
    public var compositingFilter: CompositingFilter?
    /// Drawn apart, then composited: sublayers with a compositing filter blend with this layer's own
    /// content only (CSS and SVG's `isolation: isolate`). Not a Core Animation property and not read
    /// from scene files; the SVG importer sets it.
    public var isolatesBlending = false
    public var shadowColor: Color = .black
    public var shadowOpacity: Double = 0
    public var shadowOffset = Point(x: 0, y: -3)
    public var shadowRadius: Double = 3
    /// Core Image filters on the layer's flattened picture (with its sublayers), in order, before its
    /// shadow, mask and opacity.
    public var filters: [LayerFilter] = []
    /// SVG filters on the flattened picture, in the layer's own space, applied in order before
    /// `filters`. Not a Core Animation property and not read from scene files; the SVG importer sets it.
    public var filterEffects: [FilterEffect] = []
    /// Core Image filters on what is drawn below the layer, shown within its rounded bounds under its
    /// content (frosted glass): `CALayer.backgroundFilters`.
    public var backgroundFilters: [LayerFilter] = []
    /// An image file (PNG, JPEG…), relative to the scene file, drawn over the bounds.
    public var contents: String?
    public var contentsGravity: ContentsGravity = .resize
    /// Image pixels per point of the contents (for the gravities that keep the natural size).
    public var contentsScale: Double = 1
    // Out of line: most layers set none of these, and each frame's presentation copies the rest.
    @OutOfLine public var shape: ShapeProperties
    @OutOfLine public var gradient: GradientProperties
    @OutOfLine public var replicator: ReplicatorProperties
    @OutOfLine public var text: TextProperties
    /// A video layer's file and the part of it played.
    @OutOfLine public var video: VideoPlayback?
    /// A terminal layer's recording and how its cells look.
    @OutOfLine public var terminal: TerminalProperties?
    /// A terminal layer's sublayer placed by cells of its grid: x and y the first column and row, width
    /// and height how many (fractions allowed); its bounds and position follow from them and the
    /// terminal's bounds at every frame (`TerminalProperties.cell`). Animatable (`cells`).
    @OutOfLine public var cells: Rect?

    public init() {}
}

/// A layer's model (Core Animation's model layer): its property values as set, its sublayers and mask,
/// and the animations added to it. What is on screen at a time is its presentation (`Scene.sample(at:)`).
@dynamicMemberLookup
public struct Layer: Sendable {
    public var name: String
    public var type: LayerType
    /// The model values, also read and written as the layer's own (`layer.opacity = 0.5`).
    public var properties = LayerProperties()
    public var sublayers: [Layer] = []
    /// The layer's own timing (CALayer's CAMediaTiming): its animations, sublayers and mask run in the
    /// local time it gives (`MediaTiming.layerTime`); nil runs in its superlayer's time.
    public var timing: MediaTiming?
    /// The animations added to the layer, in the order they were added, which is the order they apply in.
    public var attachedAnimations: [AttachedAnimation] = []
    /// Model values set by the timeline from a time on (in time order).
    public var modelChanges: [ModelChange] = []
    private var maskStorage: [Layer] = []

    /// A layer whose alpha masks this one (`CALayer.mask`), positioned in this layer's coordinates.
    public var mask: Layer? {
        get { maskStorage.first }
        set { maskStorage = newValue.map { [$0] } ?? [] }
    }

    /// Every animation added to the layer, removed ones included, in order.
    public var animations: [Animation] { attachedAnimations.map(\.animation) }

    public init(name: String, type: LayerType = .layer) {
        self.name = name
        self.type = type
    }

    @inlinable public subscript<Value>(dynamicMember keyPath: WritableKeyPath<LayerProperties, Value>) -> Value {
        get { properties[keyPath: keyPath] }
        set { properties[keyPath: keyPath] = newValue }
    }
}

/// An animation as added to a layer (`addAnimation(_:forKey:)`), with the times the timeline added and
/// removed it.
public struct AttachedAnimation: Sendable {
    public var animation: Animation
    /// The key it was added under; a key names one animation per layer at a time (§1.5).
    public var key: String?
    /// When the timeline added it. Before then it is not on the layer at all (not even a backwards fill
    /// shows); nil when it is there from the start.
    public var additionTime: Double?
    /// From when it no longer applies (`removeAnimation(forKey:)`, or another added under its key); nil
    /// while it stays.
    public var removalTime: Double?

    public init(_ animation: Animation, key: String? = nil, additionTime: Double? = nil, removalTime: Double? = nil) {
        self.animation = animation
        self.key = key
        self.additionTime = additionTime
        self.removalTime = removalTime
    }

    /// Whether it contributes to the presentation at `t`: added by then, and not removed.
    public func isApplied(at t: Double) -> Bool {
        if let removed = removalTime, t >= removed { return false }
        if let added = additionTime, t < added { return false }
        return true
    }

    /// Removes it from `time` on; an earlier removal stands.
    mutating func remove(at time: Double) {
        removalTime = min(removalTime ?? .infinity, time)
    }
}

/// A model value set at a time (a timeline action's `set`): from then on the layer's model holds it.
public struct ModelChange: Sendable {
    public var time: Double
    public var keyPath: AnimatedKeyPath
    public var value: AnimatableValue

    public init(time: Double, keyPath: AnimatedKeyPath, value: AnimatableValue) {
        self.time = time
        self.keyPath = keyPath
        self.value = value
    }

    public init(time: Double, keyPath: LayerKeyPath, value: AnimatableValue) {
        self.init(time: time, keyPath: .property(keyPath), value: value)
    }
}

/// A whole clip: canvas, timing and layers (back to front).
public struct Scene: Sendable {
    /// Largest canvas side in pixels; larger ones are refused before anything is allocated.
    public static let maximumPixelSide = 16_384
    /// Largest canvas area in pixels (8192², 256 MiB per RGBA frame).
    public static let maximumPixelArea = 8_192 * 8_192
    /// Most instances a replicator draws.
    public static let maximumInstances = 10_000
    /// Most layers drawn in one frame, replicated instances counted (nested replicators multiply).
    public static let maximumDrawnLayers = 1_000_000
    /// Largest `shadowRadius` (points) a scene file may give.
    public static let maximumShadowRadius = 256.0
    /// Largest `inputRadius` (points) of a blur filter; the blur drawn is held to σ = 256 device pixels
    /// as shadows are.
    public static let maximumFilterRadius = 256.0
    /// Most filters on one layer: each is a pass over the layer's picture.
    public static let maximumFilters = 8
    /// Largest magnitude of a path coordinate (points).
    public static let maximumCoordinate = 1e9
    /// Most video layers in a scene: each decodes its own file and holds frames of it.
    public static let maximumVideoLayers = 16
    /// Most terminal layers in a scene: each plays its own recording through its own emulator.
    public static let maximumTerminalLayers = 16
    /// Longest clip, in seconds (24 h).
    public static let maximumDuration = 86_400.0

    public var width: Double
    public var height: Double
    public var scale: Double = 1
    public var fps: FrameRate
    public var duration: Double
    public var background: Color = .white
    /// Each frame the mean of pictures across the shutter's interval; nil: one picture at the frame's time.
    public var motionBlur: MotionBlur?
    public var layers: [Layer] = []
    /// Sound files placed on the clip's timeline (video layers' own sound is theirs: `VideoPlayback`).
    public var audio: [AudioClip] = []
    /// Timed text drawn over everything (turned into text layers when the clip is loaded).
    public var captions: Captions?
    /// The root's `speed` (as a window layer's): scene time runs this many times as fast as clip time,
    /// so 0.25 renders a slowed-down clip with the same frame rate. Every frame is sampled at
    /// clip time × speed; no frame is dropped or repeated.
    public var speed: Double = 1
    /// Where each layer's `contents` is named in the scene file (by layer name), so that an image that
    /// cannot be read is reported at its line and column like any other bad value.
    public var contentsReferences: [String: SourceReference] = [:]
    /// The file each `type: svg` layer imported (by layer name, resolved): inputs of the render.
    public var importedFiles: [String: String] = [:]
    /// What importing another format left out (an SVG element not supported yet), and what the scene
    /// sets that Core Animation would ignore (`keyTimes` in paced mode), said once per render.
    public var importNotes: [String] = []
    /// Where each font a text layer uses is first named, so that a font not installed is reported there.
    public var fontReferences: [String: SourceReference] = [:]
    /// The scene file's `after:` actions: which animation each waits for (what a timeline view draws as
    /// chains). Times are already resolved into the actions; this is only their record.
    public var cues: [TimelineCue] = []
    /// How many times repeated timeline actions happen in all (`repeatTimes`), held to
    /// `maximumRepeatedOccurrences` however many actions repeat.
    public internal(set) var repeatedOccurrences = 0

    public init(width: Double, height: Double, scale: Double = 1, fps: FrameRate, duration: Double) {
        self.width = width
        self.height = height
        self.scale = scale
        self.fps = fps
        self.duration = duration
    }

    public var pixelWidth: Int { Int((width * scale).rounded()) }
    public var pixelHeight: Int { Int((height * scale).rounded()) }
    public var frameCount: Int { fps.frameCount(duration: duration) }

    /// Checks the canvas and timing, returning the first problem as (key, message, fix).
    public func validationProblem() -> (key: String, message: String, fix: String)? {
        if !(width > 0) || !width.isFinite {
            return (
                "width", "width must be a positive number of points, got \(width)",
                "set \"width\" to the canvas width in points, e.g. 320"
            )
        }
        if !(height > 0) || !height.isFinite {
            return (
                "height", "height must be a positive number of points, got \(height)",
                "set \"height\" to the canvas height in points, e.g. 180"
            )
        }
        if !(scale > 0) || !scale.isFinite || scale > 64 {
            return ("scale", "scale must be in (0, 64] pixels per point, got \(scale)", "use 1, 2 or 3")
        }
        if !(duration > 0) || !duration.isFinite {
            return (
                "duration", "duration must be a positive number of seconds, got \(duration)",
                "set \"duration\" to the clip length in seconds, e.g. 2"
            )
        }
        if duration > Self.maximumDuration {
            return ("duration", "duration \(duration) s is longer than the 24 h limit", "split the clip")
        }
        if fps.value > 1000 { return ("fps", "fps \(fps) is above 1000", "use a frame rate such as 30 or 60") }
        let w = width * scale, h = height * scale
        if w.rounded() < 1 || h.rounded() < 1 {
            return ("scale", "the canvas is \(w)×\(h) pixels, less than one pixel", "raise \"scale\" or the canvas size")
        }
        if w > Double(Self.maximumPixelSide) || h > Double(Self.maximumPixelSide) || w * h > Double(Self.maximumPixelArea) {
            return (
                "width",
                "the canvas would be \(Self.pixels(w))×\(Self.pixels(h)) pixels, above the limit of \(Self.maximumPixelSide) per side and \(Self.maximumPixelArea / 1_000_000) megapixels",
                "reduce \"width\", \"height\" or \"scale\""
            )
        }
        return nil
    }

    /// A pixel count for a message: whole when it fits, else as the number it is (1.6e35).
    static func pixels(_ v: Double) -> String { v < 1e15 ? String(Int(v.rounded())) : "\(v)" }
}
