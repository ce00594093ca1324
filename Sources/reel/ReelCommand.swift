import ArgumentParser
import Foundation
import Reel
import ReelGeometry
import ReelMedia
import ReelScene

@main
struct ReelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "Render Core Animation-style scenes to MP4 and GIF, on the CPU.",
        discussion: """
            A scene file describes layers and their animations with Core Animation's names \
            (position, bounds, opacity, backgroundColor, cornerRadius; fromValue, toValue, beginTime, \
            duration). See README.md for the format.

            Examples:
              reel render examples/hello.json -o out/hello.mp4
              reel render examples/hello.json -o out/hello.gif --scale 1 --fps 25
              reel render examples/star-button.yaml -o slow.gif --speed 0.25
              reel sheet examples/star-button.yaml -o sheet.png --frames 12
            """,
        version: ReelVersion.string,
        subcommands: [Render.self, Batch.self, Concat.self, Still.self, Sheet.self, Presets.self, Timeline.self, Info.self]
    )

    /// ArgumentParser's own `main`, except that with `--progress json` a malformed command line is
    /// answered in JSON too, and the lines captured from the libraries are let through before exit.
    static func main() {
        CrashReports.ensureNonInteractive()
        if Console.wantsJSON(CommandLine.arguments) { Console.startJSON() }
        let status: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            status = 0
        } catch let code as ExitCode {
            status = code.rawValue  // the command has said why
        } catch {
            let code = exitCode(for: error).rawValue
            guard Console.isJSON, code != 0 else {
                Console.finish()
                exit(withError: error)
            }
            Console.say(.error(fullMessage(for: error), exit: code))
            status = code
        }
        Console.finish()
        Foundation.exit(status)
    }
}

/// Says why the command stops and gives the exit status to stop with.
func failure(_ error: ReelError) -> ExitCode {
    Console.say(.error("\(error)", exit: error.exitCode))
    return ExitCode(error.exitCode)
}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a scene to a video file (or a folder of PNG frames).",
        discussion: """
            The format comes from the output's name: .mp4 (H.264), .mov (ProRes), .webm (VP9), .gif, .apng, \
            .webp, or a folder name ending in / for a PNG sequence; --codec picks another codec the \
            container holds (hevc or h264 in .mp4/.mov, av1 in .mp4/.webm, prores-4444 in .mov). A \
            transparent scene background gives a transparent clip in the formats with alpha (VP9, ProRes \
            4444, APNG, WebP, PNG; GIF one bit); the others composite over --matte. --preset applies named \
            settings (reel presets lists them); options given here override it. The file is written under \
            a temporary name and renamed when complete; on an error or Ctrl-C nothing is left behind.
            """
    )

    @Argument(help: ArgumentHelp("The scene file (JSON or YAML).", valueName: "scene"))
    var scene: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file, or folder/ for PNG frames.", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("Output settings: a shipped preset name (reel presets) or a preset file.", valueName: "name"))
    var preset: String?

    @Option(help: ArgumentHelp("Frame rate, overriding the scene's: 30, 29.97 or 30000/1001.", valueName: "rate"))
    var fps: String?

    @Option(
        name: .customLong("var"),
        help: ArgumentHelp(
            "A value for a variable the scene declares (repeatable): --var accent=#ff3b30 --var label=Save.",
            valueName: "name=value"))
    var variables: [String] = []

    @Option(help: ArgumentHelp("Pixels per point, overriding the scene's scale.", valueName: "factor"))
    var scale: Double?

    @Option(help: ArgumentHelp("Output width in pixels (sets the scale, keeps the aspect).", valueName: "pixels"))
    var width: Int?

    @Option(
        help: ArgumentHelp(
            "Output size in pixels, e.g. 1920x1080: the clip fitted and centred on its background.", valueName: "WxH"))
    var size: String?

    @Option(help: ArgumentHelp("Clip length in seconds, overriding the scene's.", valueName: "seconds"))
    var duration: Double?

    @Option(
        help: ArgumentHelp(
            "Playback speed: 0.25 renders a slowed-down clip four times as long, at the same frame rate.", valueName: "factor"))
    var speed: Double?

    @Option(help: ArgumentHelp("Codec: h264, hevc, vp9, av1, prores, prores-4444, gif, apng, webp, png.", valueName: "name"))
    var codec: String?

    @Option(help: ArgumentHelp("Chroma subsampling of YUV codecs: 420, 422 or 444.", valueName: "format"))
    var chroma: String?

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

    @Option(help: ArgumentHelp("GIF palette size, 2–255 (default 255).", valueName: "n"))
    var colors: Int?

    @Option(help: ArgumentHelp("GIF dithering: none (default) or bayer.", valueName: "kind"))
    var dither: String?

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
            "Render only frames A to B (from 0, both included) as a segment for reel concat.", valueName: "A-B"))
    var frames: String?

    @Option(
        help: ArgumentHelp(
            "Render shard I (from 0) of N equal parts as a segment for reel concat, e.g. --shard 0/4.", valueName: "I/N"))
    var shard: String?

    @Option(help: ArgumentHelp("Rasterizer threads (default: all cores). The output is the same for any value.", valueName: "n"))
    var threads: Int?

    @Option(help: ArgumentHelp("Frames rendered at once, ahead of the encoder (default 2 on 2+ cores).", valueName: "n"))
    var workers: Int?

    @Option(
        help: ArgumentHelp(
            "Progress on stderr: auto (a bar on a terminal, else nothing), bar, json (a line per second), none.",
            valueName: "kind"))
    var progress: String = "auto"

    @Option(
        help: ArgumentHelp(
            "Refuse up front a render whose frames in flight need more memory than this (default: half the RAM).",
            valueName: "MiB"))
    var memoryLimit: Int?

    @Flag(help: "Print the peak resident memory and the time taken.")
    var stats = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Read images only inside the scene's folder (for render services; see docs/scene-format.md).")
    var sandbox = false

    var parsedSize: (width: Int, height: Int)? {
        guard let size else { return nil }
        let parts = size.lowercased().split(separator: "x").map { Int($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1] else { return nil }
        return (w, h)
    }

    /// `--loop` as the loop count the writers take: `once` is -1 (GIF's own value for it).
    var loopCount: Int? {
        guard let loop else { return nil }
        if loop == "once" { return -1 }
        guard let n = Int(loop), (0...65_535).contains(n) else { return nil }
        return n
    }

    /// The output settings given on this command line, for checking against the output's codec.
    var givenSettings: [OutputSetting] {
        let given: [(OutputSetting, Bool)] = [
            (.crf, crf != nil), (.encoderPreset, encoderPreset != nil), (.loop, loop != nil), (.quality, quality != nil),
            (.lossless, lossless), (.colors, colors != nil), (.dither, dither != nil),
            (.alphaThreshold, alphaThreshold != nil), (.alphaDither, alphaDither), (.tolerance, tolerance != nil),
        ]
        return given.filter(\.1).map(\.0)
    }

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        if let loop, loopCount == nil {
            // GIF's -1 (play once) meant "forever" to APNG and WebP: one meaning for all three now.
            throw ValidationError(
                "--loop counts the plays after the first, 0…65535, got '\(loop)': 0 loops forever, N plays N+1 times; use --loop once to play once"
            )
        }
        if alphaThreshold != nil && alphaDither {
            throw ValidationError("give --alpha-threshold or --alpha-dither, not both: the dither replaces the threshold")
        }
        if quality != nil && lossless {
            throw ValidationError("give --quality or --lossless, not both: lossless WebP ignores the quality")
        }
        if size != nil && parsedSize == nil { throw ValidationError("--size is WIDTHxHEIGHT in pixels, e.g. 1920x1080") }
        if size != nil && (scale != nil || width != nil) { throw ValidationError("give --size, --width or --scale, not several") }
        if let memoryLimit, !(1...(1 << 30)).contains(memoryLimit) {
            // Shifted to bytes later: a bound keeps that from overflowing (2^30 MiB is 1 PiB).
            throw ValidationError("--memory-limit is a number of MiB from 1 to \(1 << 30), got \(memoryLimit)")
        }
        if let workers, !(1...64).contains(workers) { throw ValidationError("--workers must be in 1…64") }
        if !["auto", "bar", "json", "none"].contains(progress) {
            throw ValidationError("--progress is auto, bar, json or none, got '\(progress)'")
        }
        if let scale, !(scale > 0 && scale.isFinite) { throw ValidationError("--scale must be a positive number, got \(scale)") }
        if let duration, !(duration > 0 && duration.isFinite) {
            throw ValidationError("--duration must be a positive number of seconds, got \(duration)")
        }
        if let speed, !(speed >= 0.001 && speed <= 1000) {
            throw ValidationError("--speed must be in 0.001…1000, got \(speed): 0.25 is quarter speed, 2 double")
        }
        if let fps, FrameRate(parsing: fps) == nil {
            throw ValidationError("--fps must be a positive rate such as 30, 29.97 or 30000/1001, got '\(fps)'")
        }
        if let codec, VideoCodec(rawValue: codec) == nil {
            throw ValidationError(
                "--codec: '\(codec)' is not one of \(VideoCodec.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let chroma, ChromaSubsampling(rawValue: chroma) == nil { throw ValidationError("--chroma is 420, 422 or 444") }
        if let bitDepth, bitDepth != 8 && bitDepth != 10 { throw ValidationError("--bit-depth is 8 or 10") }
        if let dither, GIFOptions.Dither(rawValue: dither) == nil { throw ValidationError("--dither is bayer or none") }
        if let matte, Color(hex: matte) == nil { throw ValidationError("--matte takes a colour such as #ffffff, got '\(matte)'") }
        if scale != nil && width != nil { throw ValidationError("give --scale or --width, not both") }
        for v in variables where !v.contains("=") || v.hasPrefix("=") {
            throw ValidationError("--var is NAME=VALUE, e.g. --var accent=#ff3b30; got '\(v)'")
        }
        if frames != nil && shard != nil { throw ValidationError("give --frames or --shard, not both") }
        if let frames, SegmentRequest(frames: frames) == nil {
            throw ValidationError("--frames is FIRST-LAST, frame numbers from 0 with LAST ≥ FIRST, e.g. 0-59; got '\(frames)'")
        }
        if let shard, SegmentRequest(shard: shard) == nil {
            throw ValidationError("--shard is INDEX/COUNT with the index from 0, e.g. 0/4 … 3/4; got '\(shard)'")
        }
    }

    /// Refuses the output settings that would do nothing for the output's codec: those given here by
    /// their option, the preset's at the place its file sets them.
    func checkApplicable(_ preset: Preset?, output: String, options: RenderOptions) throws(ReelError) {
        let container = try Reel.checkOutput(output, codec: options.codec)
        let codec = options.codec ?? container.defaultCodec
        for setting in givenSettings {
            if let (message, fix) = Reel.inapplicable(setting, to: codec, spelling: .option) {
                throw .usage("\(output): \(message)", fix: fix)
            }
        }
        if let preset { try Reel.check(preset, codec: codec) }
    }

    func run() throws {
        Interrupts.install(lastWords: interruptedWords)
        Reel.tuneAllocatorForFrames()
        let kind = progress == "auto" ? (quiet || isatty(2) == 0 ? "none" : "bar") : progress
        let reporter = ProgressReporter(kind: kind)
        do {
            var options = RenderOptions()
            options.cancellation = Interrupts.cancellation
            var overrides = SceneOverrides()
            var outputPath = output
            var presetUsed: Preset?
            if let preset {
                let p = try Reel.preset(preset)
                presetUsed = p
                Reel.apply(p, to: &options, overrides: &overrides)
                if let format = p.format {
                    let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
                    if format == "png" {
                        if !output.hasSuffix("/") && ext.isEmpty { outputPath = output + "/" }
                    } else if ext.isEmpty {
                        outputPath = output + "." + format
                    } else if ext != format && !(format == "mp4" && ext == "m4v") {
                        throw ReelError.usage(
                            "\(output): preset \(p.name) writes .\(format) files", fix: "name the output *.\(format)")
                    }
                }
            }
            if let fps { overrides.fps = FrameRate(parsing: fps) }
            for v in variables {
                let eq = v.firstIndex(of: "=")!
                overrides.variables[String(v[..<eq])] = SceneVariables.value(fromArgument: String(v[v.index(after: eq)...]))
            }
            if let scale {
                overrides.scale = scale
                overrides.width = nil
            }
            if let width { overrides.width = width }
            if scale != nil || width != nil { overrides.size = nil }
            if let parsedSize {
                overrides.size = parsedSize
                overrides.scale = nil
                overrides.width = nil
            }
            if let duration { overrides.duration = duration }
            if let speed { overrides.speed = speed }
            if let codec { options.codec = VideoCodec(rawValue: codec) }
            if let chroma { options.chroma = ChromaSubsampling(rawValue: chroma) }
            if let bitDepth { options.bitDepth = bitDepth }
            if let crf { options.crf = crf }
            if let encoderPreset { options.preset = encoderPreset }
            if let loopCount { options.loop = loopCount }
            if let quality { options.quality = quality }
            if lossless { options.lossless = true }
            if let matte { options.matte = Color(hex: matte) }
            if flatten { options.flatten = true }
            if let colors { options.gif.colors = colors }
            if let dither { options.gif.dither = GIFOptions.Dither(rawValue: dither)! }
            if let alphaThreshold { options.gif.alphaThreshold = alphaThreshold }
            if let tolerance { options.gif.tolerance = tolerance }
            if alphaDither { options.gif.alphaDither = true }
            if let threads { options.threads = threads }
            if let workers { options.workers = workers }
            if let memoryLimit { options.memoryLimit = memoryLimit << 20 }
            if let frames { options.segment = SegmentRequest(frames: frames) }
            if let shard { options.segment = SegmentRequest(shard: shard) }
            try checkApplicable(presetUsed, output: outputPath, options: options)
            let loaded = try Reel.load(scene, overrides: overrides, sandboxed: sandbox)
            try Reel.checkNotAnInput(outputPath, inputs: Reel.inputFiles(of: loaded.scene, path: scene))
            let summary = try Reel.render(
                loaded, to: outputPath, options: options,
                note: { note in if !quiet { Console.say(.note(note)) } },
                progress: { reporter.report($0) })
            reporter.finish()
            if stats { Console.say(.stats(peakKiB: peakResidentKiB(), seconds: summary.seconds)) }
            // A script asked for JSON wants the result even with --quiet; people asked for quiet do not.
            if !quiet || Console.isJSON {
                let size = ByteCountFormatter.string(fromByteCount: Int64(summary.bytes), countStyle: .file)
                Console.say(
                    .done(
                        text:
                            "wrote \(summary.output): \(summary.frames) frames, \(summary.width)×\(summary.height), \(summary.frameRate) fps, \(size), in \(String(format: "%.2f", summary.seconds)) s",
                        fields: [
                            ("output", .string(summary.output)), ("frames", .int(summary.frames)),
                            ("width", .int(summary.width)), ("height", .int(summary.height)),
                            ("fps", .string(summary.frameRate.description)), ("bytes", .int(summary.bytes)),
                            ("seconds", .fixed(summary.seconds)), ("exit", .int(0)),
                        ]))
            }
        } catch let error as ReelError {
            reporter.finish()
            throw failure(error)
        }
    }
}

/// What a forced exit after Ctrl-C says (the render did not stop in time by itself).
@Sendable func interruptedWords(_ signal: Int32) {
    Console.say(.error("interrupted by signal \(signal); no output written", exit: 128 + signal))
}

struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the shipped output presets (use one with reel render --preset NAME).",
        discussion: "Each is a documented YAML file in the project's presets/ folder; --preset also takes a path to your own."
    )

    func run() throws {
        let names = Reel.presetNames
        let width = names.map(\.count).max() ?? 0
        for name in names {
            let p = try Reel.preset(name)
            let pad = String(repeating: " ", count: width - name.count)
            print("\(name)\(pad)  \(p.format.map { ".\($0)" } ?? "")\t\(p.description)")
        }
    }
}

struct Still: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render one frame of a scene to a PNG file.",
        discussion: "The PNG keeps the alpha channel: a transparent background stays transparent."
    )

    @Argument(help: ArgumentHelp("The scene file (JSON).", valueName: "scene"))
    var scene: String

    @Option(help: ArgumentHelp("The time of the frame, in seconds from the start.", valueName: "seconds"))
    var at: Double = 0

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (.png).", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("Pixels per point, overriding the scene's scale.", valueName: "factor"))
    var scale: Double?

    @Option(help: ArgumentHelp("Rasterizer threads (default: all cores).", valueName: "n"))
    var threads: Int?

    @Flag(help: "Read images only inside the scene's folder (for render services; see docs/scene-format.md).")
    var sandbox = false

    func validate() throws {
        if !(at >= 0 && at.isFinite) { throw ValidationError("--at must be a time in seconds ≥ 0, got \(at)") }
        if let scale, !(scale > 0 && scale.isFinite) { throw ValidationError("--scale must be a positive number, got \(scale)") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    func run() throws {
        Interrupts.install()
        do {
            let clip = try Reel.load(scene, overrides: SceneOverrides(scale: scale), sandboxed: sandbox)
            try Reel.checkNotAnInput(output, inputs: Reel.inputFiles(of: clip.scene, path: scene))
            var options = RenderOptions()
            options.cancellation = Interrupts.cancellation
            options.threads = threads ?? ProcessInfo.processInfo.activeProcessorCount  // one frame: every core on it
            try Reel.still(clip, at: at, to: output, options: options)
        } catch {
            throw failure(error)
        }
    }
}

struct Sheet: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a contact sheet: frames of a scene in a grid, each labelled with its time.",
        discussion: """
            By default 12 frames spread evenly from the first frame to the last. --at picks the times \
            instead (seconds, comma-separated). The sheet is a PNG written under a temporary name and \
            renamed when complete.
            """
    )

    @Argument(help: ArgumentHelp("The scene file (JSON or YAML).", valueName: "scene"))
    var scene: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (.png).", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("Number of frames, spread evenly over the clip (default 12).", valueName: "n"))
    var frames: Int?

    @Option(help: ArgumentHelp("Times of the frames in seconds, e.g. 0,0.25,0.5.", valueName: "t1,t2,…"))
    var at: String?

    @Option(help: ArgumentHelp("Frames per row (default: about square).", valueName: "c"))
    var columns: Int?

    @Option(help: ArgumentHelp("Pixels per point, overriding the scene's scale.", valueName: "factor"))
    var scale: Double?

    @Option(help: ArgumentHelp("Rasterizer threads (default: all cores).", valueName: "n"))
    var threads: Int?

    @Flag(help: "Read images only inside the scene's folder (for render services; see docs/scene-format.md).")
    var sandbox = false

    func times() throws -> [Double]? {
        guard let at else { return nil }
        var out: [Double] = []
        for part in at.split(separator: ",", omittingEmptySubsequences: false) {
            let text = part.trimmingCharacters(in: .whitespaces)
            guard let t = Double(text), t.isFinite, t >= 0 else {
                throw ValidationError("--at: '\(text)' is not a time in seconds ≥ 0; write times like 0,0.25,1.5")
            }
            out.append(t)
        }
        return out
    }

    func validate() throws {
        if frames != nil && at != nil { throw ValidationError("give --frames or --at, not both") }
        if let frames, !(1...400).contains(frames) { throw ValidationError("--frames must be in 1…400, got \(frames)") }
        if let columns, columns < 1 { throw ValidationError("--columns must be at least 1") }
        if let scale, !(scale > 0 && scale.isFinite) { throw ValidationError("--scale must be a positive number, got \(scale)") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        if let t = try times(), t.count > 400 { throw ValidationError("--at: at most 400 times") }
    }

    func run() throws {
        Interrupts.install()
        do {
            let clip = try Reel.load(scene, overrides: SceneOverrides(scale: scale), sandboxed: sandbox)
            try Reel.checkNotAnInput(output, inputs: Reel.inputFiles(of: clip.scene, path: scene))
            let list = try times() ?? ContactSheet.evenTimes(count: frames ?? 12, scene: clip.scene)
            let c = columns ?? Int(Double(list.count).squareRoot().rounded(.up))
            try ContactSheet.write(
                clip, times: list, columns: c, to: output, threads: threads ?? ProcessInfo.processInfo.activeProcessorCount,
                cancellation: Interrupts.cancellation)
        } catch let error as ReelError {
            throw failure(error)
        }
    }
}

/// Draws the progress on stderr: a bar redrawn in place (at most 10 times a second) or one JSON line a
/// second, and always the last state.
final class ProgressReporter {
    let kind: String
    private var lastDraw = -Double.infinity
    private var last: RenderProgress?
    private var drewBar = false

    init(kind: String) { self.kind = kind }

    func report(_ p: RenderProgress) {
        last = p
        let interval = kind == "json" ? 1.0 : 0.1
        guard kind != "none", p.elapsed - lastDraw >= interval || p.frame == p.total else { return }
        lastDraw = p.elapsed
        draw(p)
    }

    private func draw(_ p: RenderProgress) {
        let size = ByteCountFormatter.string(fromByteCount: Int64(p.bytes), countStyle: .file)
        let width = 30, filled = p.total > 0 ? width * p.frame / p.total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        Console.say(
            .progress(
                bar:
                    "\r\(bar) \(p.frame)/\(p.total) frames  \(String(format: "%.1f", p.rate)) fps  ETA \(String(format: "%.1f", p.remaining)) s  \(size)  ",
                fields: [
                    ("frame", .int(p.frame)), ("frames", .int(p.total)), ("fps", .fixed(p.rate)), ("eta", .fixed(p.remaining)),
                    ("bytes", .int(p.bytes)), ("elapsed", .fixed(p.elapsed)),
                ]))
        drewBar = kind == "bar"
    }

    func finish() {
        if drewBar { Console.say(.endBar(clear: false)) }
        drewBar = false
    }
}

/// VmHWM of this process, from /proc (0 where there is none).
func peakResidentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first { Int($0) != nil }.flatMap { Int($0) } ?? 0)
    }
    return 0
}
