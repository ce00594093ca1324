// `reel render`'s options in the sections `--help` shows them in: the scene, encoding, GIF, segments,
// performance and reporting. Each section checks its own values (a typed one by the library's rule: `Parsed`).
import ArgumentParser
import Reel
import ReelDocument
import ReelGIF
import ReelGeometry
import ReelMedia
import ReelScene

/// What the render changes in the scene: rate, size, length, speed, variables.
struct SceneChanges: ParsableArguments {
    @Option(help: ArgumentHelp("Frame rate, overriding the scene's: 30, 29.97 or 30000/1001.", valueName: "rate"))
    var fps: String?

    @Option(
        name: .customLong("var"), help: SceneChanges.variablesHelp)
    var variables: [String] = []

    /// `--var`'s help, for every command that takes it (`render`, `still`).
    static let variablesHelp = ArgumentHelp(
        "A value for a variable the scene declares, or a Lottie file's slot (repeatable): --var accent=#ff3b30 --var label=Save.",
        valueName: "name=value")

    @Option(help: ArgumentHelp("Pixels per point, overriding the scene's scale.", valueName: "factor"))
    var scale: Parsed<Scale>?

    @Option(help: ArgumentHelp("Output width in pixels (sets the scale, keeps the aspect).", valueName: "pixels"))
    var width: Parsed<OutputWidth>?

    @Option(
        help: ArgumentHelp(
            "Output size in pixels, e.g. 1920x1080: the clip fitted and centred on its background.", valueName: "WxH"))
    var size: Parsed<OutputSettings.PixelSize>?

    @Option(help: ArgumentHelp("Clip length in seconds, overriding the scene's.", valueName: "seconds"))
    var duration: Double?

    @Option(
        help: ArgumentHelp(
            "Playback speed: 0.25 renders a slowed-down clip four times as long, at the same frame rate.", valueName: "factor"))
    var speed: Parsed<Speed>?

    @Option(
        help: ArgumentHelp(
            "Motion blur: a shutter angle in degrees (180 blurs half of each frame's motion, as film does) and optionally samples a frame (8 unless given): 180 or 180,16; 0 or off renders without.",
            valueName: "angle[,samples]"))
    var motionBlur: Parsed<MotionBlurSetting>?

    func validate() throws {
        _ = try size?.value()
        if size != nil && (scale != nil || width != nil) { throw ValidationError("give --size, --width or --scale, not several") }
        _ = try scale?.value()
        _ = try width?.value()
        if let duration, !(duration > 0 && duration.isFinite) {
            throw ValidationError("--duration must be a positive number of seconds, got \(duration)")
        }
        _ = try speed?.value()
        _ = try motionBlur?.value()
        if let fps, FrameRate(parsing: fps) == nil {
            throw ValidationError("--fps must be a positive rate such as 30, 29.97 or 30000/1001, got '\(fps)'")
        }
        if scale != nil && width != nil { throw ValidationError("give --scale or --width, not both") }
        try Self.checkVariables(variables)
    }

    /// Refuses a `--var` that is not NAME=VALUE (`reel render`, `reel still`).
    static func checkVariables(_ variables: [String]) throws {
        for v in variables where !v.contains("=") || v.hasPrefix("=") {
            throw ValidationError("--var is NAME=VALUE, e.g. --var accent=#ff3b30; got '\(v)'")
        }
    }

    /// Read after `validate()` has accepted every value.
    func add(to s: inout OutputSettings) throws {
        if let fps { s.fps = FrameRate(parsing: fps) }
        s.scale = try scale?.value().factor
        s.width = try width?.value().pixels
        s.size = try size?.value()
        s.duration = duration
        s.speed = try speed?.value().factor
        if let motionBlur { s.motionBlur = .some(try motionBlur.value().blur) }
    }

    /// The `--var` values, by name.
    var variableValues: [String: JSONNode] { Self.values(of: variables) }

    /// `--var` values by name, once `checkVariables` has accepted them.
    static func values(of variables: [String]) -> [String: JSONNode] {
        var out: [String: JSONNode] = [:]
        for v in variables {
            let eq = v.firstIndex(of: "=")!
            out[String(v[..<eq])] = SceneVariables.value(fromArgument: String(v[v.index(after: eq)...]))
        }
        return out
    }
}

/// How a terminal recording rendered alone looks (`reel render session.cast`, `reel still`).
struct TerminalLooks: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A terminal recording's colours: dark, light, or recording (those it saved).", valueName: "name"))
    var theme: String?

    @Option(help: ArgumentHelp("A terminal recording's font size in points (14 unless given).", valueName: "points"))
    var fontSize: Double?

    @Option(
        help: ArgumentHelp(
            "A terminal recording's longest pause in seconds: longer ones are cut to it (as asciinema play -i does).",
            valueName: "seconds"))
    var idleTimeLimit: Double?

    func validate() throws {
        if let fontSize, !(fontSize > 0 && fontSize <= 1000) {
            throw ValidationError("--font-size is in points, above 0 and at most 1000, got \(fontSize)")
        }
        if let idleTimeLimit, !(idleTimeLimit > 0 && idleTimeLimit.isFinite) {
            throw ValidationError("--idle-time-limit must be a positive number of seconds, got \(idleTimeLimit)")
        }
    }

    func add(to s: inout OutputSettings) {
        s.theme = theme
        s.fontSize = fontSize
        s.idleTimeLimit = idleTimeLimit
    }
}

/// Which animation of a dotLottie archive rendered alone (`reel render x.lottie --animation id`).
struct LottieChoice: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A dotLottie archive's animation, by its id in the manifest (its first unless given).", valueName: "id"))
    var animation: String?

    @Option(
        help: ArgumentHelp(
            "A dotLottie archive's theme (its values for the animation's slots), by its id (the animation's initial theme unless given).",
            valueName: "id"))
    var lottieTheme: String?

    func add(to s: inout OutputSettings) {
        s.animation = animation
        s.lottieTheme = lottieTheme
    }
}

/// How the clip is encoded.
struct Encoding: ParsableArguments {
    @Option(help: ArgumentHelp("Output settings: a shipped preset name (reel presets) or a preset file.", valueName: "name"))
    var preset: String?

    @Option(help: ArgumentHelp("Codec (default: the output's; .mp4 is h264).", valueName: "name"))
    var codec: Choice<VideoCodec>?

    @Option(help: ArgumentHelp("Chroma subsampling of YUV codecs.", valueName: "format"))
    var chroma: Choice<ChromaSubsampling>?

    @Option(help: ArgumentHelp("Bits per sample of YUV codecs: 8 or 10.", valueName: "bits"))
    var bitDepth: Int?

    @Option(help: ArgumentHelp("Constant rate factor (h264/hevc 0–51, vp9/av1 0–63): lower is better.", valueName: "n"))
    var crf: Int?

    @Option(help: ArgumentHelp("Encoder speed preset: x264/x265 names (medium, slow…), SVT-AV1 0–13.", valueName: "name"))
    var encoderPreset: String?

    // Unconditional, so that GIF's -1 reaches the check below (and its advice) instead of being taken
    // for an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "GIF/APNG/WebP repeats after the first play: 0 loops forever (default), N plays N+1 times, once plays once.",
            valueName: "n"))
    var loop: String?

    @Option(help: ArgumentHelp("WebP quality, 0–100 (default 90).", valueName: "q"))
    var quality: Double?

    @Flag(help: "Lossless WebP (for lossless H.264: --crf 0).")
    var lossless = false

    @Option(help: ArgumentHelp("Colour under a transparent scene in formats without alpha (default white).", valueName: "color"))
    var matte: String?

    @Flag(help: "Composite over the matte even in formats with alpha.")
    var flatten = false

    @Flag(name: .customLong("no-audio"), help: "Leave the scene's sound (its audio files, video layers' sound) out.")
    var noAudio = false

    /// `--loop` as the loop count the writers take: `once` is -1 (GIF's own value for it).
    var loopCount: Int? {
        guard let loop else { return nil }
        if loop == "once" { return -1 }
        guard let n = Int(loop), (0...65_535).contains(n) else { return nil }
        return n
    }

    func validate() throws {
        if let loop, loopCount == nil {
            // GIF's -1 (play once) meant "forever" to APNG and WebP: one meaning for all three now.
            throw ValidationError(
                "--loop counts the plays after the first, 0…65535, got '\(loop)': 0 loops forever, N plays N+1 times; use --loop once to play once"
            )
        }
        if quality != nil && lossless {
            throw ValidationError("give --quality or --lossless, not both: lossless WebP ignores the quality")
        }
        _ = try codec?.value(for: "--codec")
        _ = try chroma?.value(for: "--chroma")
        if let bitDepth, bitDepth != 8 && bitDepth != 10 { throw ValidationError("--bit-depth is 8 or 10") }
        if let matte, Color(hex: matte) == nil { throw ValidationError("--matte takes a colour such as #ffffff, got '\(matte)'") }
    }

    func add(to s: inout OutputSettings) throws {
        s.codec = try codec?.value(for: "--codec")
        s.chroma = try chroma?.value(for: "--chroma")
        s.bitDepth = bitDepth
        s.crf = crf
        s.encoderPreset = encoderPreset
        s.loop = loopCount
        s.quality = quality
        s.lossless = lossless ? true : nil
        s.matte = matte.flatMap { Color(hex: $0) }
        s.flatten = flatten ? true : nil
        s.audio = noAudio ? false : nil
    }
}

/// GIF's own settings.
struct GIFSettings: ParsableArguments {
    @Option(help: ArgumentHelp("GIF palette size, 2–255 (default 255).", valueName: "n"))
    var colors: Int?

    @Option(help: ArgumentHelp("GIF dithering (default none).", valueName: "kind"))
    var dither: Choice<GIFOptions.Dither>?

    @Option(help: ArgumentHelp("GIF transparency: alpha below this (1–255, default 128) is transparent.", valueName: "n"))
    var alphaThreshold: Int?

    @Flag(help: "GIF transparency by an ordered pattern instead of a threshold (soft edges become a stipple).")
    var alphaDither = false

    @Option(
        help: ArgumentHelp(
            "GIF lossy differencing: a pixel within this many levels of what is shown keeps it (default 0, exact).",
            valueName: "levels"))
    var tolerance: Int?

    @Option(
        help: ArgumentHelp(
            "GIF lossy compression, 0–200: a pixel may take a palette colour this many thousandths of Oklab lightness from its own (20 ≈ one just-noticeable difference; default 0, exact).",
            valueName: "n"))
    var gifLossy: Int?

    @Option(
        help: ArgumentHelp(
            "GIF size budget: the best quality that fits, trying lossy levels, fewer colours, half the frame rate (to 10 fps), then a smaller size.",
            valueName: "size"))
    var maxSize: String?

    func validate() throws {
        if let maxSize, (Reel.byteSize(maxSize) ?? 0) < 1024 {
            throw ValidationError("--max-size is a size such as 2MB, 150KB or 2MiB (at least 1 KiB); got '\(maxSize)'")
        }
        let levels = GIFOptions.lossyLevels
        if let gifLossy, !levels.contains(gifLossy) {
            throw ValidationError("--gif-lossy must be in \(levels.lowerBound)…\(levels.upperBound), got \(gifLossy)")
        }
        if alphaThreshold != nil && alphaDither {
            throw ValidationError("give --alpha-threshold or --alpha-dither, not both: the dither replaces the threshold")
        }
        _ = try dither?.value(for: "--dither")
    }

    func add(to s: inout OutputSettings) throws {
        s.colors = colors
        s.dither = try dither?.value(for: "--dither")
        s.alphaThreshold = alphaThreshold
        s.alphaDither = alphaDither ? true : nil
        s.tolerance = tolerance
        s.gifLossy = gifLossy
        s.maxSize = maxSize.flatMap(Reel.byteSize)
    }
}

/// Part of the clip, for `reel concat` to join.
struct Segments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Render only frames A to B (from 0, both included) as a segment for reel concat.", valueName: "A-B"))
    var frames: Parsed<FrameRange>?

    @Option(
        help: ArgumentHelp(
            "Render shard I (from 0) of N equal parts as a segment for reel concat, e.g. --shard 0/4 (with --rows: part I of the rows).",
            valueName: "I/N"))
    var shard: Parsed<Shard>?

    func validate() throws {
        if frames != nil && shard != nil { throw ValidationError("give --frames or --shard, not both") }
        _ = try frames?.value()
        _ = try shard?.value()
    }

    /// Read after `validate()` has accepted the values.
    func request() throws -> SegmentRequest? {
        if let frames { return SegmentRequest(try frames.value()) }
        if let shard { return SegmentRequest(try shard.value()) }
        return nil
    }
}

/// Threads and memory: the output is the same for any of these.
struct Performance: ParsableArguments {
    @Option(help: ArgumentHelp("Rasterizer threads (default: all cores). The output is the same for any value.", valueName: "n"))
    var threads: Parsed<ThreadCount>?

    @Option(help: ArgumentHelp("Frames rendered at once, ahead of the encoder (default 2 on 2+ cores).", valueName: "n"))
    var workers: Int?

    @Option(
        help: ArgumentHelp(
            "Refuse up front a render whose frames in flight need more memory than this (default: half the RAM).",
            valueName: "MiB"))
    var memoryLimit: Parsed<MemoryLimit>?

    func validate() throws {
        _ = try threads?.value()
        _ = try memoryLimit?.value()
        if let workers, !(1...64).contains(workers) { throw ValidationError("--workers must be in 1…64") }
    }

    /// Read after `validate()` has accepted the values.
    func apply(to options: inout RenderOptions) throws {
        if let threads { options.threads = try threads.value().count }
        if let workers { options.workers = workers }
        if let memoryLimit { options.memoryLimit = try memoryLimit.value().bytes }
    }
}

/// What the command prints on stderr.
struct Reporting: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Progress on stderr: auto (a bar on a terminal, else nothing), bar, json (a line per second), none.",
            valueName: "kind"))
    var progress = Choice(ProgressKind.auto)

    @Flag(help: "Print the peak resident memory and the time taken.")
    var stats = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws { _ = try progress.value(for: "--progress") }
}

/// One clip per row of a data table: the batch a manifest's `rows:` job would be.
struct RowsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Render one clip per row of a CSV or JSON Lines table, its columns the scene's variables; name the output with {row}, {name} or a {column}.",
            valueName: "table"))
    var rows: String?

    @Option(
        name: .customLong("jobs"), help: ArgumentHelp("With --rows: clips rendered at once (default: the cores).", valueName: "n")
    )
    var concurrency: Parsed<Concurrency>?

    @Flag(help: "With --rows: render every row, even those whose clip is up to date.")
    var force = false

    @Flag(help: "With --rows: stop at the first failure.")
    var failFast = false

    @Flag(help: "With --rows: print the clips that would be rendered, and render nothing.")
    var dryRun = false

    func validate() throws {
        if rows == nil {
            for (given, name) in [
                (concurrency != nil, "--jobs"), (force, "--force"), (failFast, "--fail-fast"), (dryRun, "--dry-run"),
            ]
            where given {
                throw ValidationError("\(name) goes with --rows (a table's clips); a single render has no batch to apply it to")
            }
        }
        _ = try concurrency?.value()
    }
}
