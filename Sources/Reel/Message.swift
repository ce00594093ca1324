/// Text for people that names settings without spelling them: the command line writes `--speed 2`,
/// presets and the Swift API `speed: 2`. The library builds messages; whoever shows one chooses the
/// spelling (the command line in one place, `Sources/reel/ErrorReport.swift`).
import ReelMedia

public enum Setting: String, Sendable, CaseIterable {
    // What a render changes in the scene.
    case fps, scale, width, size, duration, speed, motionBlur, variables
    // How a terminal recording rendered alone looks.
    case theme, fontSize, idleTimeLimit
    // Which animation of a dotLottie archive, and which of its themes.
    case animation, lottieTheme
    // How it is encoded.
    case codec, chroma, bitDepth, crf, encoderPreset, loop, quality, lossless, matte, flatten
    case colors, dither, alphaThreshold, alphaDither, tolerance, gifLossy, maxSize
    // Which part, and with what.
    case frames, shard, threads, workers, memoryLimit
    // Stills and contact sheets.
    case at, count, columns
    // Where settings and inputs come from, and batches.
    case preset, sandbox, failFast, concurrency
}

/// How a message writes a setting's name, with an optional value.
public struct SettingSpelling: Sendable {
    public let name: @Sendable (Setting, String?) -> String

    public init(_ name: @escaping @Sendable (Setting, String?) -> String) { self.name = name }

    /// As keys of presets, manifests and the Swift API's option values: `crf`, `crf: 0`.
    public static let key = SettingSpelling { setting, value in setting.rawValue + (value.map { ": \($0)" } ?? "") }
}

public struct Message: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    public enum Part: Sendable, Equatable {
        case text(String)
        case setting(Setting, value: String?)
    }

    public var parts: [Part]

    public init(_ text: String) { parts = [.text(text)] }

    /// A media setting's problem, its name kept as a setting (an unknown name stays text).
    public init(_ problem: SettingProblem) {
        if let key = problem.key, let setting = Setting(rawValue: key) {
            parts = [.setting(setting, value: problem.value), .text(" " + problem.message)]
        } else {
            parts = [.text(problem.description)]
        }
    }
    public init(stringLiteral value: String) { parts = [.text(value)] }
    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }
        public mutating func appendInterpolation<T>(_ value: T) { parts.append(.text("\(value)")) }
        /// A setting's name: `"\(Setting.speed) must be…"`.
        public mutating func appendInterpolation(_ setting: Setting) { parts.append(.setting(setting, value: nil)) }
        /// A setting with its value: `"\(Setting.frames, "0-9")"` is `--frames 0-9` or `frames: 0-9`.
        public mutating func appendInterpolation(_ setting: Setting, _ value: String) {
            parts.append(.setting(setting, value: value))
        }
        /// Another message, its settings kept.
        public mutating func appendInterpolation(_ message: Message) { parts += message.parts }
    }

    /// The text with settings spelled as `spelling` says.
    public func text(_ spelling: SettingSpelling) -> String {
        parts.map { part in
            switch part {
            case .text(let s): return s
            case .setting(let setting, let value): return spelling.name(setting, value)
            }
        }.joined()
    }

    /// Spelled as keys: the Swift API's view.
    public var description: String { text(.key) }

    public static func + (a: Message, b: Message) -> Message {
        var out = a
        out.parts += b.parts
        return out
    }
}
