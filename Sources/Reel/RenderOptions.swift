/// What a render is asked for: overrides of the scene, output and encoding options, segments, and the
/// summary it returns.
import Foundation
import ReelDocument
import ReelGIF
import ReelGeometry
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene

/// Overrides applied to a scene before rendering (the command line's `--fps`, `--scale`, `--duration`).
public struct SceneOverrides: Sendable {
    public var fps: FrameRate?
    public var scale: Double?
    public var duration: Double?
    /// Slow motion (< 1) or fast forward (> 1): the root timing's speed. The clip lasts the scene's
    /// duration divided by it, unless `duration` is given too.
    public var speed: Double?
    /// Output width in pixels: sets the scale, keeping the aspect.
    public var width: Int?
    /// A fixed output size in pixels: the clip is fitted and centred (`Scene.fitted`).
    public var size: (width: Int, height: Int)?
    /// Values for the variables the scene declares (`SceneVariables`).
    public var variables: [String: JSONNode] = [:]
    /// Replaces the scene's motion blur: `.some(nil)` renders without any.
    public var motionBlur: MotionBlur??
    /// A terminal recording rendered alone: its theme (a built-in's name or `recording`), its font size
    /// in points, and the longest pause kept, in seconds. Refused for any other input.
    public var terminalTheme: String?
    public var fontSize: Double?
    public var idleTimeLimit: Double?
    /// A dotLottie archive's animation, by its id in the manifest (nil: the first). Refused for any
    /// other input.
    public var animation: String?
    /// A dotLottie archive's theme, by its id (nil: the animation's initial theme, if any).
    public var lottieTheme: String?

    public init(
        fps: FrameRate? = nil, scale: Double? = nil, duration: Double? = nil, speed: Double? = nil, width: Int? = nil,
        size: (width: Int, height: Int)? = nil, variables: [String: JSONNode] = [:]
    ) {
        self.variables = variables
        self.fps = fps
        self.scale = scale
        self.duration = duration
        self.speed = speed
        self.width = width
        self.size = size
    }
}

extension SceneOverrides {
    /// The first terminal setting given, for a refusal when the input is not a recording.
    var terminalSetting: Setting? {
        terminalTheme != nil ? .theme : fontSize != nil ? .fontSize : idleTimeLimit != nil ? .idleTimeLimit : nil
    }
}

public struct RenderOptions: Sendable {
    /// Rasterizer threads per frame (bands rendered in parallel); the output is identical for any value.
    public var threads: Int = Rasterizer.defaultThreadCount
    /// Frames rendered at the same time, ahead of the encoder; the output is identical for any value.
    public var workers: Int = RenderOptions.defaultWorkers
    /// The most memory the frames in flight may take, in bytes (nil: half the machine's memory).
    public var memoryLimit: Int?
    /// Two frames in flight on any machine with two cores or more: one drawn while the encoder works on
    /// the one before (BENCHMARKS.md).
    public static var defaultWorkers: Int { ProcessInfo.processInfo.activeProcessorCount >= 2 ? 2 : 1 }
    /// The codec; nil for the output's default (MP4 H.264, MOV ProRes 422 HQ, WebM VP9, …).
    public var codec: VideoCodec?
    public var chroma: ChromaSubsampling?
    public var bitDepth: Int?
    /// Constant rate factor; nil for the codec's default.
    public var crf: Int?
    /// Encoder speed preset; nil for the codec's default.
    public var preset: String?
    /// GIF/APNG/WebP loop count: 0 forever.
    public var loop: Int = 0
    /// WebP quality (0…100) and lossless mode.
    public var quality: Double = 90
    public var lossless = false
    /// What a transparent clip is composited over in formats without alpha (and with `flatten`, in all):
    /// nil for white.
    public var matte: Color?
    /// Composite over the matte even when the format carries alpha.
    public var flatten = false
    /// The scene's sound (its `audio` files, video layers' sound) in the outputs that carry sound.
    public var audio = true
    /// GIF colours, dithering and alpha threshold. Its `palette` is built from the clip unless
    /// `fixedGIFPalette`.
    public var gif = GIFOptions()
    /// A GIF's size budget in bytes: `Reel.renderGIF(within:)` searches the settings for it.
    public var maxBytes: Int?
    public var fixedGIFPalette = false
    /// Frames sampled to build a GIF's palette for the whole clip (evenly spread; every frame when
    /// the clip has no more).
    public var gifPaletteSamples = 600
    /// The palette pass keeps the frames it draws for the encoding pass when their changes fit in
    /// memory. Off only in tests: the frames are then sampled and drawn again (the same bytes).
    public var keepsGIFFrames = true
    /// Render part of the clip as a segment that `Reel.concat` joins with the others without
    /// re-encoding: nil renders the whole clip.
    public var segment: SegmentRequest?
    /// Polled between frames: once cancelled, the render stops with `ReelError.cancelled` or
    /// `.stopped` and writes nothing.
    public var cancellation = Cancellation()

    public init() {}
}

/// Which part of a clip a segment holds.
/// `--shard I/N` read once for every command that splits work (a clip's frames, a batch's jobs, a
/// table's rows): part `index` (from 0) of `count`, with one wording for what is wrong.
public struct Shard: SettingValue, Equatable {
    public let index: Int
    public let count: Int

    public init(parsing text: String) throws(ReelError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let counts = SettingLimits.shards
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), i >= 0, counts.contains(n) else {
            throw .usage(
                "\(Setting.shard, text) is not INDEX/COUNT with the index from 0 and a count from \(counts.lowerBound) to \(counts.upperBound)",
                fix: "e.g. 0/4 … 3/4")
        }
        guard i < n else {
            throw .usage("\(Setting.shard, text): shards are numbered from 0", fix: "use 0/\(n) … \(n - 1)/\(n)")
        }
        index = i
        count = n
    }
}

public enum SegmentRequest: Sendable, Equatable {
    /// Frames `first…last` of the output (from 0, both included).
    case frames(Int, Int)
    /// Shard `index` (from 0) of `count` equal parts.
    case shard(Int, Int)

    /// The frames `--frames` names (read by `FrameRange(parsing:)`).
    public init(_ range: FrameRange) { self = .frames(range.first, range.last) }

    /// The part `--shard` names (read by `Shard(parsing:)`).
    public init(_ shard: Shard) { self = .shard(shard.index, shard.count) }

    /// The frames it names in a clip of `total` frames, or why it names none.
    func resolve(total: Int) throws(ReelError) -> SegmentInfo {
        switch self {
        case .frames(let a, let b):
            guard b < total else {
                throw .usage(
                    "\(Setting.frames, "\(a)-\(b)"): the clip has \(total) frames, numbered 0-\(total - 1)",
                    fix: "give a range within 0-\(total - 1)")
            }
            return SegmentInfo(first: a, last: b, total: total)
        case .shard(let i, let n):
            guard i < n else {
                throw .usage(
                    "\(Setting.shard, "\(i)/\(n)"): shards are numbered from 0", fix: "use 0/\(n) … \(n - 1)/\(n)")
            }
            guard let info = SegmentInfo.shard(i, of: n, total: total) else {
                throw .usage(
                    "\(Setting.shard, "\(i)/\(n)"): the clip has only \(total) frames, so this shard holds none",
                    fix: "split it into at most \(total) shards")
            }
            return info
        }
    }
}

public struct RenderSummary: Sendable {
    public var output: String
    public var container: VideoContainer
    public var frames: Int
    public var width: Int
    public var height: Int
    public var frameRate: FrameRate
    public var bytes: Int
    public var seconds: Double
    /// Things the user should know about how the output differs from what the scene asked for.
    public var notes: [Message]
    /// Frames that were one video picture as it is, given to the encoder as decoded (not drawn).
    public var passedThrough = 0
}
