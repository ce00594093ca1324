// `reel still`: one frame of a scene as a PNG.
import ArgumentParser
import Foundation
import Reel
import ReelScene

struct Still: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render one frame of a scene to a PNG file.",
        discussion: "The PNG keeps the alpha channel: a transparent background stays transparent."
    )

    @Argument(
        help: ArgumentHelp(
            "The scene file (JSON or YAML), or an SVG, Lottie or terminal recording (.cast) alone.", valueName: "scene"))
    var scene: String

    @Option(help: ArgumentHelp("The time of the frame, in seconds from the start.", valueName: "seconds"))
    var at: Double = 0

    @Option(
        name: .customLong("var"), help: SceneChanges.variablesHelp)
    var variables: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (.png).", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("Pixels per point, overriding the scene's scale.", valueName: "factor"))
    var scale: Parsed<Scale>?

    @Option(
        help: ArgumentHelp("The picture's width in pixels (the scale follows from it; not with --scale).", valueName: "pixels"))
    var width: Parsed<OutputWidth>?

    @Option(help: ArgumentHelp("Rasterizer threads (default: all cores).", valueName: "n"))
    var threads: Parsed<ThreadCount>?

    @Option(
        help: ArgumentHelp(
            "Memory the still may take (default: half the RAM); its decoded pictures may take half of it (without this option, 256 MiB).",
            valueName: "MiB"))
    var memoryLimit: Parsed<MemoryLimit>?

    @Flag(help: "Read images only inside the scene's folder (for render services; see docs/scene-format.md).")
    var sandbox = false

    @OptionGroup(title: "Terminal recordings")
    var terminalLooks: TerminalLooks

    @OptionGroup(title: "Lottie archives")
    var lottieChoice: LottieChoice

    func validate() throws {
        if !(at >= 0 && at.isFinite) { throw ValidationError("--at must be a time in seconds ≥ 0, got \(at)") }
        _ = try scale?.value()
        _ = try width?.value()
        if scale != nil && width != nil { throw ValidationError("give --scale or --width, not both") }
        try SceneChanges.checkVariables(variables)
        _ = try threads?.value()
        _ = try memoryLimit?.value()
    }

    func run() throws {
        Interrupts.install()
        let limit = try memoryLimit?.value().bytes
        var overrides = SceneOverrides(scale: try scale?.value().factor, width: try width?.value().pixels)
        overrides.variables = SceneChanges.values(of: variables)
        overrides.terminalTheme = terminalLooks.theme
        overrides.fontSize = terminalLooks.fontSize
        overrides.idleTimeLimit = terminalLooks.idleTimeLimit
        overrides.animation = lottieChoice.animation
        overrides.lottieTheme = lottieChoice.lottieTheme
        let clip = try Reel.load(
            scene, overrides: overrides, sandboxed: sandbox,
            pictures: PictureBudget(memoryLimit: limit))
        try Reel.checkNotAnInput(output, inputs: Reel.inputFiles(of: clip.scene, path: scene))
        var options = RenderOptions()
        options.cancellation = Interrupts.cancellation
        options.memoryLimit = limit
        // One frame: every core on it.
        options.threads = try threads?.value().count ?? ProcessInfo.processInfo.activeProcessorCount
        for note in clip.notes { Console.say(.note(note.forCommandLine)) }
        try Reel.still(clip, at: at, to: output, options: options)
    }
}
