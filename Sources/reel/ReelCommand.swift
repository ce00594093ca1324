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
            """,
        version: ReelVersion.string,
        subcommands: [Render.self, Still.self, Timeline.self, Info.self]
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
        if let fps, FrameRate(parsing: fps) == nil {
            throw ValidationError("--fps must be a positive rate such as 30, 29.97 or 30000/1001, got '\(fps)'")
        }
    }

    func run() throws {
        Interrupts.install()
        do {
            _ = try Reel.checkOutput(output)
            let overrides = SceneOverrides(fps: fps.flatMap(FrameRate.init(parsing:)), scale: scale, duration: duration)
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
