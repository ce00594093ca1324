import Foundation
import ReelGeometry
import ReelMedia
import ReelScene

extension Reel {
    /// The names of the presets shipped with Reel, sorted.
    public static var presetNames: [String] { BuiltInPresets.files.keys.sorted() }

    /// A shipped preset by name, or a preset file by path (anything with a `/` or a `.yaml`/`.yml`/`.json`
    /// extension).
    public static func preset(_ nameOrPath: String) throws(ReelError) -> Preset {
        let ext = (nameOrPath as NSString).pathExtension.lowercased()
        if nameOrPath.contains("/") || ["yaml", "yml", "json"].contains(ext) {
            guard FileManager.default.fileExists(atPath: nameOrPath) else {
                throw .usage("--preset \(nameOrPath): no such file", fix: "check the path, or use a shipped preset: reel presets")
            }
            do {
                return try Preset.load(contentsOf: nameOrPath)
            } catch {
                throw .scene(error)
            }
        }
        guard let text = BuiltInPresets.files[nameOrPath] else {
            let names = presetNames
            let suggestion = didYouMean(nameOrPath, in: names)
            throw .usage(
                "--preset: there is no preset \"\(nameOrPath)\"", fix: "\(suggestion)presets: \(names.joined(separator: ", "))")
        }
        do {
            return try Preset.decode(yaml: text, file: "presets/\(nameOrPath).yaml", name: nameOrPath)
        } catch {
            throw .scene(error)
        }
    }

    /// Applies a preset's values to options and scene overrides (the command line then overrides these).
    public static func apply(_ p: Preset, to options: inout RenderOptions, overrides: inout SceneOverrides) {
        if let c = p.codec { options.codec = VideoCodec(rawValue: c) }
        if let c = p.chroma { options.chroma = ChromaSubsampling(rawValue: c) }
        if let b = p.bitDepth { options.bitDepth = b }
        if let c = p.crf { options.crf = c }
        if let e = p.encoderPreset { options.preset = e }
        if let l = p.loop { options.loop = l }
        if let q = p.quality { options.quality = q }
        if let l = p.lossless { options.lossless = l }
        if let m = p.matte { options.matte = m }
        if let f = p.flatten { options.flatten = f }
        if let c = p.colors { options.gif.colors = c }
        if let d = p.dither { options.gif.dither = GIFOptions.Dither(rawValue: d) ?? .bayer }
        if let a = p.alphaThreshold { options.gif.alphaThreshold = a }
        if let f = p.fps { overrides.fps = FrameRate(parsing: f) }
        if let s = p.scale { overrides.scale = s }
        if let w = p.width { overrides.width = w }
        if let s = p.size { overrides.size = (s[0], s[1]) }
    }
}

/// The output settings that only some codecs use. Each is refused where it would do nothing, naming
/// what would do it there: a `--lossless` MP4 that rendered fine but lossy was the reason.
public enum OutputSetting: String, CaseIterable, Sendable {
    case crf, encoderPreset, loop, quality, lossless, colors, dither, alphaThreshold, alphaDither, tolerance

    /// The command-line option: `--encoder-preset` for `encoderPreset`.
    public var option: String { OutputSetting.optionName(rawValue) }

    static func optionName(_ key: String) -> String {
        "--" + key.map { $0.isUppercase ? "-" + $0.lowercased() : String($0) }.joined()
    }

    /// The codecs it does something for.
    public var codecs: [VideoCodec] {
        switch self {
        case .crf, .encoderPreset: return [.h264, .hevc, .vp9, .av1]
        case .loop: return [.gif, .apng, .webp]
        case .quality, .lossless: return [.webp]
        case .colors, .dither, .alphaThreshold, .alphaDither, .tolerance: return [.gif]
        }
    }
}

/// How a message names settings: as command-line options (`--crf 0`) or as preset keys (`crf: 0`).
public enum SettingSpelling: Sendable {
    case option, key

    func name(_ key: String, _ value: String? = nil) -> String {
        switch self {
        case .option: return OutputSetting.optionName(key) + (value.map { " \($0)" } ?? "")
        case .key: return key + (value.map { ": \($0)" } ?? "")
        }
    }
}

extension Reel {
    /// Why `setting` would do nothing for `codec`, and what would do it there; nil when it applies.
    /// The one table of which setting a codec honours: the command line and preset files both ask it.
    public static func inapplicable(_ setting: OutputSetting, to codec: VideoCodec, spelling: SettingSpelling) -> (
        message: String, fix: String
    )? {
        let applies = setting.codecs
        guard !applies.contains(codec) else { return nil }
        func n(_ key: String, _ value: String? = nil) -> String { spelling.name(key, value) }
        let only: String
        switch setting {
        case .crf, .encoderPreset: only = "h264, hevc, vp9 and av1"
        case .loop: only = "GIF, APNG and WebP"
        case .quality, .lossless: only = "WebP only"
        default: only = "GIF only"
        }
        let subject = spelling == .option ? setting.option + " applies" : "applies"
        let message = "\(subject) to \(only), not to \(codec.rawValue)"
        let video: Set<VideoCodec> = [.h264, .hevc, .vp9, .av1]
        let losslessCodec = codec == .apng || codec == .png
        let remove = "remove \(n(setting.rawValue))"
        let fix: String
        switch setting {
        case .crf:
            if codec == .webp {
                fix = "for WebP use \(n("quality")) (0–100) or \(n("lossless", spelling == .key ? "true" : nil))"
            } else if codec == .gif {
                fix = "for a smaller GIF use \(n("colors")) or \(n("tolerance"))"
            } else if losslessCodec {
                fix = "\(codec.rawValue) is lossless: \(remove)"
            } else {
                fix = "ProRes has one quality per profile: \(remove)"
            }
        case .encoderPreset:
            fix = "\(codec.rawValue) has no speed presets: \(remove)"
        case .loop:
            fix = "a player loops a video itself (<video loop>); render .gif, .apng or .webp to loop in the file, or \(remove)"
        case .quality:
            if video.contains(codec) {
                fix = "for \(codec.rawValue) use \(n("crf")) (lower is better)"
            } else if codec == .gif {
                fix = "for a GIF use \(n("colors")) or \(n("tolerance"))"
            } else if losslessCodec {
                fix = "\(codec.rawValue) is lossless: \(remove)"
            } else {
                fix = "ProRes has one quality per profile: \(remove)"
            }
        case .lossless:
            if codec == .h264 {
                fix = "for lossless H.264 use \(n("crf", "0"))"
            } else if losslessCodec {
                fix = "\(codec.rawValue) is always lossless: \(remove)"
            } else {
                fix =
                    "for a lossless file use H.264 with \(n("crf", "0")) (.mp4), .apng, .webp with \(n("lossless")), or a PNG sequence"
            }
        case .colors, .tolerance:
            if video.contains(codec) {
                fix = "for \(codec.rawValue) use \(n("crf")) (lower is better)"
            } else if codec == .webp {
                fix = "for WebP use \(n("quality"))"
            } else {
                fix = remove
            }
        case .dither:
            fix = remove
        case .alphaThreshold, .alphaDither:
            fix =
                codec.carriesAlpha
                ? "\(codec.rawValue) keeps the whole alpha channel: \(remove)"
                : "\(codec.rawValue) has no alpha channel (a transparent clip is composited over \(n("matte"))): \(remove)"
        }
        return (message, fix)
    }

    /// Refuses a preset's keys that would do nothing for `codec`, at the place each was written: the
    /// codec is known only once the output's name and the command line have had their say.
    public static func check(_ preset: Preset, codec: VideoCodec) throws(ReelError) {
        let given: [(OutputSetting, Bool)] = [
            (.crf, preset.crf != nil), (.encoderPreset, preset.encoderPreset != nil), (.loop, preset.loop != nil),
            (.quality, preset.quality != nil), (.lossless, preset.lossless != nil), (.colors, preset.colors != nil),
            (.dither, preset.dither != nil), (.alphaThreshold, preset.alphaThreshold != nil),
        ]
        for (setting, isGiven) in given where isGiven {
            if let (message, fix) = inapplicable(setting, to: codec, spelling: .key) {
                throw .scene(preset.fail(setting.rawValue, message, fix: fix))
            }
        }
        // Lossless WebP ignores the quality (libwebp spends it on effort), so both is one too many.
        if preset.quality != nil, preset.lossless == true {
            throw .scene(
                preset.fail("quality", "quality does nothing with lossless: true", fix: "remove quality, or lossless"))
        }
    }
}

extension Scene {
    /// The clip scaled to fit `width × height` pixels and centred on its own background (letterboxed);
    /// what lies outside the original canvas stays hidden: covered by bars of the background colour when
    /// it is opaque (cheap: four fills), clipped when it is not (an offscreen group).
    public func fitted(pixelWidth: Int, pixelHeight: Int) -> Scene {
        let k = min(Double(pixelWidth) / width, Double(pixelHeight) / height)
        var out = self
        out.scale = k
        out.width = Double(pixelWidth) / k
        out.height = Double(pixelHeight) / k
        var frame = Layer(name: "reel.fit")
        frame.bounds = Rect(x: 0, y: 0, width: width, height: height)
        frame.position = Point(x: out.width / 2, y: out.height / 2)
        frame.sublayers = layers
        out.layers = [frame]
        let mx = (out.width - width) / 2, my = (out.height - height) / 2
        if background.alpha >= 1 {
            // Bars over the margins, a point past the canvas edge each way against anti-aliasing seams.
            for (i, r) in [
                Rect(x: -1, y: -1, width: out.width + 2, height: my + 1),
                Rect(x: -1, y: my + height, width: out.width + 2, height: my + 1),
                Rect(x: -1, y: -1, width: mx + 1, height: out.height + 2),
                Rect(x: mx + width, y: -1, width: mx + 1, height: out.height + 2),
            ].enumerated() where r.width > 1 && r.height > 1 {
                var bar = Layer(name: "reel.fit.bar\(i)")
                bar.bounds = Rect(x: 0, y: 0, width: r.width, height: r.height)
                bar.position = Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2)
                bar.backgroundColor = background
                out.layers.append(bar)
            }
        } else {
            out.layers[0].masksToBounds = true
        }
        return out
    }
}
