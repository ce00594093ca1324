/// Output settings as presets, manifests and the command line give them, typed, with the one merge
/// (a later source wins field by field) and the one place they are applied to a render.
import ReelGIF
import ReelGeometry
import ReelMedia
import ReelScene

public struct OutputSettings: Sendable, Equatable {
    /// Pixels a side, for `size`.
    public struct PixelSize: Sendable, Equatable {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    public var codec: VideoCodec?
    public var chroma: ChromaSubsampling?
    public var bitDepth: Int?
    public var crf: Int?
    public var encoderPreset: String?
    /// Repeats after the first play: 0 forever, -1 once (GIF's own value).
    public var loop: Int?
    public var quality: Double?
    public var lossless: Bool?
    public var matte: Color?
    public var flatten: Bool?
    /// False leaves the scene's sound out.
    public var audio: Bool?
    public var colors: Int?
    public var dither: GIFOptions.Dither?
    public var alphaThreshold: Int?
    public var alphaDither: Bool?
    public var tolerance: Int?
    /// Lossy LZW bound, 0…100 (`GIFOptions.lossy`).
    public var gifLossy: Int?
    /// A GIF's size budget in bytes (`Reel.renderGIF(within:)`).
    public var maxSize: Int?
    public var fps: FrameRate?
    /// `scale`, `width` and `size` say one thing (the output's size) three ways: a source that gives
    /// one replaces all three of the sources before it.
    public var scale: Double?
    public var width: Int?
    public var size: PixelSize?
    public var duration: Double?
    public var speed: Double?
    /// `.some(nil)`: no motion blur, whatever the scene says.
    public var motionBlur: MotionBlur??
    /// A terminal recording rendered alone: its theme, font size and idle time limit (`SceneOverrides`).
    public var theme: String?
    public var fontSize: Double?
    public var idleTimeLimit: Double?
    /// A dotLottie archive rendered alone: which of its animations (`SceneOverrides.animation`).
    public var animation: String?
    public var lottieTheme: String?

    public init() {}

    /// These settings over `base`: each one given here wins, the others are `base`'s.
    public func merged(over base: OutputSettings) -> OutputSettings {
        var out = base
        func take<T>(_ key: WritableKeyPath<OutputSettings, T?>) {
            if let v = self[keyPath: key] { out[keyPath: key] = v }
        }
        take(\.codec)
        take(\.chroma)
        take(\.bitDepth)
        take(\.crf)
        take(\.encoderPreset)
        take(\.loop)
        take(\.quality)
        take(\.lossless)
        take(\.matte)
        take(\.flatten)
        take(\.audio)
        take(\.colors)
        take(\.dither)
        take(\.alphaThreshold)
        take(\.alphaDither)
        take(\.tolerance)
        take(\.gifLossy)
        take(\.maxSize)
        take(\.fps)
        if scale != nil || width != nil || size != nil {
            out.scale = scale
            out.width = width
            out.size = size
        }
        take(\.duration)
        take(\.speed)
        if let motionBlur { out.motionBlur = motionBlur }
        take(\.theme)
        take(\.fontSize)
        take(\.idleTimeLimit)
        take(\.animation)
        take(\.lottieTheme)
        return out
    }

    /// The settings given, of those only some codecs use (each is checked against the output's codec).
    public var given: [OutputSetting] {
        let all: [(OutputSetting, Bool)] = [
            (.crf, crf != nil), (.encoderPreset, encoderPreset != nil), (.loop, loop != nil), (.quality, quality != nil),
            (.lossless, lossless == true), (.colors, colors != nil), (.dither, dither != nil),
            (.alphaThreshold, alphaThreshold != nil), (.alphaDither, alphaDither == true), (.tolerance, tolerance != nil),
            (.gifLossy, gifLossy != nil), (.maxSize, maxSize != nil),
        ]
        return all.filter(\.1).map(\.0)
    }

    /// Sets what is given on a render's options and the scene's overrides.
    public func apply(to options: inout RenderOptions, overrides: inout SceneOverrides) {
        if let codec { options.codec = codec }
        if let chroma { options.chroma = chroma }
        if let bitDepth { options.bitDepth = bitDepth }
        if let crf { options.crf = crf }
        if let encoderPreset { options.preset = encoderPreset }
        if let loop { options.loop = loop }
        if let quality { options.quality = quality }
        if let lossless { options.lossless = lossless }
        if let matte { options.matte = matte }
        if let flatten { options.flatten = flatten }
        if let audio { options.audio = audio }
        if let colors { options.gif.colors = colors }
        if let dither { options.gif.dither = dither }
        if let alphaThreshold { options.gif.alphaThreshold = alphaThreshold }
        if let alphaDither { options.gif.alphaDither = alphaDither }
        if let tolerance { options.gif.tolerance = tolerance }
        if let gifLossy { options.gif.lossy = gifLossy }
        if let maxSize { options.maxBytes = maxSize }
        if let fps { overrides.fps = fps }
        if scale != nil || width != nil || size != nil {
            overrides.scale = scale
            overrides.width = width
            overrides.size = size.map { ($0.width, $0.height) }
        }
        if let duration { overrides.duration = duration }
        if let speed { overrides.speed = speed }
        if let motionBlur { overrides.motionBlur = motionBlur }
        if let theme { overrides.terminalTheme = theme }
        if let fontSize { overrides.fontSize = fontSize }
        if let idleTimeLimit { overrides.idleTimeLimit = idleTimeLimit }
        if let animation { overrides.animation = animation }
        if let lottieTheme { overrides.lottieTheme = lottieTheme }
    }
}
