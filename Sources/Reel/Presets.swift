/// Presets by name or path, and which output settings apply to which codec: the one table the command
/// line, presets and manifests all ask.
import Foundation
import ReelDocument
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
                throw .usage(
                    "\(Setting.preset, nameOrPath): no such file", fix: "check the path, or use a shipped preset: reel presets")
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
                "\(Setting.preset): there is no preset \"\(nameOrPath)\"",
                fix: "\(suggestion)presets: \(names.joined(separator: ", "))")
        }
        do {
            return try Preset.decode(yaml: text, file: "presets/\(nameOrPath).yaml", name: nameOrPath)
        } catch {
            throw .scene(error)
        }
    }
}

/// The output settings that only some codecs use. Each is refused where it would do nothing, naming
/// what would do it there: a lossless MP4 that rendered fine but lossy was the reason.
public enum OutputSetting: String, CaseIterable, Sendable {
    case crf, encoderPreset, loop, quality, lossless, colors, dither, alphaThreshold, alphaDither, tolerance, gifLossy, maxSize

    /// Its name in messages.
    public var setting: Setting {
        switch self {
        case .crf: return .crf
        case .encoderPreset: return .encoderPreset
        case .loop: return .loop
        case .quality: return .quality
        case .lossless: return .lossless
        case .colors: return .colors
        case .dither: return .dither
        case .alphaThreshold: return .alphaThreshold
        case .alphaDither: return .alphaDither
        case .tolerance: return .tolerance
        case .gifLossy: return .gifLossy
        case .maxSize: return .maxSize
        }
    }

    /// The codecs it does something for.
    public var codecs: [VideoCodec] {
        switch self {
        case .crf, .encoderPreset: return [.h264, .hevc, .vp9, .av1]
        case .loop: return [.gif, .apng, .webp]
        case .quality, .lossless: return [.webp]
        case .colors, .dither, .alphaThreshold, .alphaDither, .tolerance, .gifLossy, .maxSize: return [.gif]
        }
    }
}

extension Reel {
    /// Why `setting` would do nothing for `codec` ("applies to …", to follow the setting's name or place),
    /// and what would do it there; nil when it applies.
    /// The one table of which setting a codec honours: the command line and preset files both ask it.
    public static func inapplicable(_ setting: OutputSetting, to codec: VideoCodec) -> (message: Message, fix: Message)? {
        let applies = setting.codecs
        guard !applies.contains(codec) else { return nil }
        let only: String
        switch setting {
        case .crf, .encoderPreset: only = "h264, hevc, vp9 and av1"
        case .loop: only = "GIF, APNG and WebP"
        case .quality, .lossless: only = "WebP only"
        default: only = "GIF only"
        }
        let message: Message = "applies to \(only), not to \(codec.rawValue)"
        let video: Set<VideoCodec> = [.h264, .hevc, .vp9, .av1]
        let losslessCodec = codec == .apng || codec == .png
        let remove: Message = "remove \(setting.setting)"
        let fix: Message
        switch setting {
        case .crf:
            if codec == .webp {
                fix = "for WebP use \(Setting.quality) (0–100) or \(Setting.lossless, "true")"
            } else if codec == .gif {
                fix = "for a smaller GIF use \(Setting.colors) or \(Setting.tolerance)"
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
                fix = "for \(codec.rawValue) use \(Setting.crf) (lower is better)"
            } else if codec == .gif {
                fix = "for a GIF use \(Setting.colors) or \(Setting.tolerance)"
            } else if losslessCodec {
                fix = "\(codec.rawValue) is lossless: \(remove)"
            } else {
                fix = "ProRes has one quality per profile: \(remove)"
            }
        case .lossless:
            if codec == .h264 {
                fix = "for lossless H.264 use \(Setting.crf, "0")"
            } else if losslessCodec {
                fix = "\(codec.rawValue) is always lossless: \(remove)"
            } else {
                fix =
                    "for a lossless file use H.264 with \(Setting.crf, "0") (.mp4), .apng, .webp with \(Setting.lossless), or a PNG sequence"
            }
        case .colors, .tolerance, .gifLossy, .maxSize:
            if video.contains(codec) {
                fix = "for \(codec.rawValue) use \(Setting.crf) (lower is better)"
            } else if codec == .webp {
                fix = "for WebP use \(Setting.quality)"
            } else {
                fix = remove
            }
        case .dither:
            fix = remove
        case .alphaThreshold, .alphaDither:
            fix =
                codec.carriesAlpha
                ? "\(codec.rawValue) keeps the whole alpha channel: \(remove)"
                : "\(codec.rawValue) has no alpha channel (a transparent clip is composited over \(Setting.matte)): \(remove)"
        }
        return (message, fix)
    }

    /// Refuses a preset's keys that would do nothing for `codec`, at the place each was written: the
    /// codec is known only once the output's name and the command line have had their say.
    public static func check(_ preset: Preset, codec: VideoCodec) throws(ReelError) {
        for setting in preset.settings.given {
            if let (message, fix) = inapplicable(setting, to: codec) {
                throw .scene(preset.fail(setting.rawValue, message.text(.key), fix: fix.text(.key)))
            }
        }
        // Lossless WebP ignores the quality (libwebp spends it on effort), so both is one too many.
        if preset.settings.quality != nil, preset.settings.lossless == true {
            throw .scene(
                preset.fail("quality", "quality does nothing with lossless: true", fix: "remove quality, or lossless"))
        }
    }
}
