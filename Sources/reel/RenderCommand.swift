// `reel render`: one scene to one output file (or PNG folder, or segment), with its options in sections.
import ArgumentParser
import Foundation
import Reel
import ReelMedia
import ReelScene

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
            a temporary name and renamed when complete; on an error or Ctrl-C nothing is left behind. \
            --rows renders a clip per row of a table, as a manifest's rows: job does (reel batch --help): \
            reel render badge.yaml --rows people.csv -o "out/{name}.gif".
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The scene file (JSON or YAML), or an SVG, Lottie or terminal recording (.cast) alone.", valueName: "scene"))
    var scene: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file, or folder/ for PNG frames.", valueName: "file"))
    var output: String

    @Flag(help: "Read images only inside the scene's folder (for render services; see docs/scene-format.md).")
    var sandbox = false

    @OptionGroup(title: "Scene")
    var sceneChanges: SceneChanges

    @OptionGroup(title: "Terminal recordings")
    var terminalLooks: TerminalLooks

    @OptionGroup(title: "Lottie archives")
    var lottieChoice: LottieChoice

    @OptionGroup(title: "Encoding")
    var encoding: Encoding

    @OptionGroup(title: "GIF")
    var gif: GIFSettings

    @OptionGroup(title: "Segments")
    var segments: Segments

    @OptionGroup(title: "Rows")
    var table: RowsOptions

    @OptionGroup(title: "Performance")
    var performance: Performance

    @OptionGroup(title: "Reporting")
    var reporting: Reporting

    /// The output settings given on this command line.
    func settings() throws -> OutputSettings {
        var s = OutputSettings()
        try sceneChanges.add(to: &s)
        terminalLooks.add(to: &s)
        lottieChoice.add(to: &s)
        try encoding.add(to: &s)
        try gif.add(to: &s)
        return s
    }

    /// Refuses the output settings that would do nothing for the output's codec: those given here by
    /// their option, the preset's at the place its file sets them.
    func checkApplicable(_ given: OutputSettings, _ preset: Preset?, output: String, options: RenderOptions)
        throws(ReelError)
    {
        // A table's output names are templates, their folders made as each clip is written.
        let container =
            table.rows == nil
            ? try Reel.checkOutput(output, codec: options.codec) : try Reel.container(for: output, codec: options.codec)
        let codec = options.codec ?? container.defaultCodec
        for setting in given.given {
            if let (message, fix) = Reel.inapplicable(setting, to: codec) {
                throw .usage("\(output): \(setting.setting) \(message)", fix: fix)
            }
        }
        if let preset {
            try Reel.check(preset, codec: codec)
            try Reel.checkTerminalLooks(preset, input: scene)
        }
    }

    /// The output path a preset's format asks for: `clip` becomes `clip.gif`, a PNG preset a folder.
    static func outputPath(_ output: String, format: String?, preset: String) throws(ReelError) -> String {
        guard let format else { return output }
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        if format == "png" {
            return !output.hasSuffix("/") && ext.isEmpty ? output + "/" : output
        } else if ext.isEmpty {
            return output + "." + format
        } else if ext != format && !(format == "mp4" && ext == "m4v") {
            throw .usage("\(output): preset \(preset) writes .\(format) files", fix: "name the output *.\(format)")
        }
        return output
    }

    func run() throws {
        Interrupts.install(lastWords: interruptedWords)
        Reel.tuneAllocatorForFrames()
        let quiet = reporting.quiet
        let reporter = ProgressReporter(kind: try reporting.progress.value(for: "--progress").resolved(quiet: quiet))
        defer { reporter.finish() }
        var options = RenderOptions()
        options.cancellation = Interrupts.cancellation
        var overrides = SceneOverrides(variables: sceneChanges.variableValues)
        var outputPath = output
        let preset = try encoding.preset.map { name throws(ReelError) in try Reel.preset(name) }
        if let preset { outputPath = try Self.outputPath(output, format: preset.format, preset: preset.name) }
        let given = try settings()
        given.merged(over: preset?.settings ?? OutputSettings()).apply(to: &options, overrides: &overrides)
        try performance.apply(to: &options)
        options.segment = try segments.request()
        try checkApplicable(given, preset, output: outputPath, options: options)
        if let rows = table.rows {
            return try renderRows(rows, output: outputPath, given: given)
        }
        let note = { (note: Message) in if !quiet { Console.say(.note(note.forCommandLine)) } }
        let summary = try Self.render(
            scene, sandboxed: sandbox, overrides: overrides, to: outputPath, options: options, note: note,
            progress: { reporter.report($0) })
        reporter.finish()
        if reporting.stats { Console.say(.stats(peakKiB: peakResidentKiB(), seconds: summary.seconds)) }
        // A script asked for JSON wants the result even with --quiet; people asked for quiet do not.
        if !quiet || Console.isJSON {
            Console.say(
                .done(
                    text: Self.doneText(summary),
                    fields: [
                        ("output", .string(summary.output)), ("frames", .int(summary.frames)),
                        ("width", .int(summary.width)), ("height", .int(summary.height)),
                        ("fps", .string(summary.frameRate.description)), ("bytes", .int(summary.bytes)),
                        ("seconds", .fixed(summary.seconds)), ("exit", .int(0)),
                    ]))
        }
    }
}

extension Render {
    /// `--rows`: a clip per row, rendered, resumed and summarised as `reel batch` does a manifest's job.
    func renderRows(_ rows: String, output: String, given: OutputSettings) throws {
        if segments.frames != nil {
            throw ReelError.usage("--frames splits one clip; with --rows, --shard I/N splits the table's rows", fix: nil)
        }
        if performance.threads != nil || performance.workers != nil {
            throw ReelError.usage(
                "with --rows each clip gets its share of the cores, so --threads and --workers do not apply",
                fix: "leave them out; --jobs sets how many clips render at once")
        }
        var plan: BatchPlan
        do {
            plan = try Reel.planRows(
                RowsRequest(
                    scene: scene, rows: rows, output: output, preset: encoding.preset, settings: given,
                    variables: sceneChanges.variableValues, sandboxed: sandbox))
        } catch {
            throw CommandFailure(message: error.message, exit: 2)  // nothing ran: the table or the options are wrong
        }
        if case .shard(let i, let n) = try segments.request() { plan = plan.shard(i, of: n) }
        let console = BatchConsole(
            concurrency: try table.concurrency?.value().count, memoryLimit: try performance.memoryLimit?.value().bytes,
            force: table.force,
            failFast: table.failFast, progress: try reporting.progress.value(for: "--progress").resolved(quiet: reporting.quiet))
        if table.dryRun {
            console.printPlan(plan)
        } else {
            let started = Date()
            defer {
                if reporting.stats { Console.say(.stats(peakKiB: peakResidentKiB(), seconds: Date().timeIntervalSince(started))) }
            }
            try console.run(plan)
        }
    }

    /// Loads and renders a scene as `reel render` does (within the size budget the settings give):
    /// shared with `reel preview`'s export.
    static func render(
        _ scene: String, sandboxed: Bool, overrides: SceneOverrides, to outputPath: String, options: RenderOptions,
        note: (Message) -> Void, progress: (RenderProgress) -> Void
    ) throws(ReelError) -> RenderSummary {
        let pictures = PictureBudget(memoryLimit: options.memoryLimit)
        let loaded = try Reel.load(scene, overrides: overrides, sandboxed: sandboxed, pictures: pictures)
        try Reel.checkNotAnInput(outputPath, inputs: Reel.inputFiles(of: loaded.scene, path: scene))
        if let budget = options.maxBytes {
            return try Reel.renderGIF(
                within: budget, clip: loaded,
                load: { (o) throws(ReelError) in
                    try Reel.load(scene, overrides: o, sandboxed: sandboxed, pictures: pictures)
                },
                overrides: overrides, to: outputPath, options: options, note: note, progress: progress)
        }
        return try Reel.render(loaded, to: outputPath, options: options, note: note, progress: progress)
    }

    /// The line a finished render ends with.
    static func doneText(_ summary: RenderSummary) -> String {
        let size = ByteCountFormatter.string(fromByteCount: Int64(summary.bytes), countStyle: .file)
        return
            "wrote \(summary.output): \(summary.frames) frames, \(summary.width)×\(summary.height), \(summary.frameRate) fps, \(size), in \(String(format: "%.2f", summary.seconds)) s"
    }
}

/// What a forced exit after Ctrl-C says (the render did not stop in time by itself).
@Sendable func interruptedWords(_ signal: Int32) {
    Console.say(.error("interrupted by signal \(signal); no output written", exit: 128 + signal))
}
