import ArgumentParser
import Foundation
import Reel
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
        subcommands: [Render.self, Still.self, Sheet.self, Timeline.self, Info.self]
    )
}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a scene to a video file.",
        discussion: """
            The format comes from the output's extension: .mp4 (H.264, BT.709, yuv420p) or .gif \
            (looping). The file is written under a temporary name and renamed when complete; on an \
            error or Ctrl-C nothing is left behind.
            """
    )

    @Argument(help: ArgumentHelp("The scene file (JSON).", valueName: "scene"))
    var scene: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file: .mp4 or .gif.", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("Frame rate, overriding the scene's: 30, 29.97 or 30000/1001.", valueName: "rate"))
    var fps: String?

    @Option(help: ArgumentHelp("Pixels per point, overriding the scene's scale.", valueName: "factor"))
    var scale: Double?

    @Option(help: ArgumentHelp("Clip length in seconds, overriding the scene's.", valueName: "seconds"))
    var duration: Double?

    @Option(
        help: ArgumentHelp(
            "Playback speed: 0.25 renders a slowed-down clip four times as long, at the same frame rate.", valueName: "factor"))
    var speed: Double?

    @Option(help: ArgumentHelp("Rasterizer threads (default: all cores). The output is the same for any value.", valueName: "n"))
    var threads: Int?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
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
    }

    func run() throws {
        Interrupts.install()
        do {
            _ = try Reel.checkOutput(output)
            let overrides = SceneOverrides(
                fps: fps.flatMap(FrameRate.init(parsing:)), scale: scale, duration: duration, speed: speed)
            let loaded = try Reel.load(scene, overrides: overrides)
            var options = RenderOptions()
            if let threads { options.threads = threads }
            let summary = try Reel.render(loaded, to: output, options: options) { note in
                if !quiet { printError("note: \(note)") }
            }
            if !quiet {
                let size = ByteCountFormatter.string(fromByteCount: Int64(summary.bytes), countStyle: .file)
                printError(
                    "wrote \(summary.output): \(summary.frames) frames, \(summary.width)×\(summary.height), \(summary.frameRate) fps, \(size), in \(String(format: "%.2f", summary.seconds)) s"
                )
            }
        } catch {
            printError("error: \(error)")
            throw ExitCode(error.exitCode)
        }
    }
}

func printError(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
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

    func validate() throws {
        if !(at >= 0 && at.isFinite) { throw ValidationError("--at must be a time in seconds ≥ 0, got \(at)") }
        if let scale, !(scale > 0 && scale.isFinite) { throw ValidationError("--scale must be a positive number, got \(scale)") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    func run() throws {
        Interrupts.install()
        do {
            let clip = try Reel.load(scene, overrides: SceneOverrides(scale: scale))
            var options = RenderOptions()
            if let threads { options.threads = threads }
            try Reel.still(clip, at: at, to: output, options: options)
        } catch {
            printError("error: \(error)")
            throw ExitCode(error.exitCode)
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
            let clip = try Reel.load(scene, overrides: SceneOverrides(scale: scale))
            let list = try times() ?? ContactSheet.evenTimes(count: frames ?? 12, scene: clip.scene)
            let c = columns ?? Int(Double(list.count).squareRoot().rounded(.up))
            try ContactSheet.write(clip, times: list, columns: c, to: output, threads: threads ?? RenderOptions().threads)
        } catch let error as ReelError {
            printError("error: \(error)")
            throw ExitCode(error.exitCode)
        }
    }
}
