// `reel sheet`: a contact sheet of a scene's frames, each labelled with its time.
import ArgumentParser
import Foundation
import Reel
import ReelScene

struct Sheet: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a contact sheet: frames of a scene in a grid, each labelled with its time.",
        discussion: """
            By default 12 frames spread evenly from the first frame to the last. --at picks the times \
            instead (seconds, comma-separated). The sheet is a PNG written under a temporary name and \
            renamed when complete.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The scene file (JSON or YAML), or an SVG, Lottie or terminal recording (.cast) alone.", valueName: "scene"))
    var scene: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (.png).", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("Number of frames, spread evenly over the clip (default 12).", valueName: "n"))
    var count: Int?

    // `--frames` is a range everywhere else (render's A-B); here it once was the count.
    @Option(help: .hidden)
    var frames: String?

    @Option(help: ArgumentHelp("Times of the frames in seconds, e.g. 0,0.25,0.5.", valueName: "t1,t2,…"))
    var at: String?

    @Option(help: ArgumentHelp("Frames per row (default: about square).", valueName: "c"))
    var columns: Int?

    @Option(help: ArgumentHelp("Pixels per point, overriding the scene's scale.", valueName: "factor"))
    var scale: Parsed<Scale>?

    @Option(help: ArgumentHelp("Rasterizer threads (default: all cores).", valueName: "n"))
    var threads: Parsed<ThreadCount>?

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
        if let frames {
            throw ValidationError("sheet takes --count \(frames) for the number of frames (--frames is a range, in render)")
        }
        if count != nil && at != nil { throw ValidationError("give --count or --at, not both") }
        if let count, !(1...400).contains(count) { throw ValidationError("--count must be in 1…400, got \(count)") }
        if let columns, columns < 1 { throw ValidationError("--columns must be at least 1") }
        _ = try scale?.value()
        _ = try threads?.value()
        if let t = try times(), t.count > 400 { throw ValidationError("--at: at most 400 times") }
    }

    func run() throws {
        Interrupts.install()
        let clip = try Reel.load(scene, overrides: SceneOverrides(scale: try scale?.value().factor), sandboxed: sandbox)
        try Reel.checkNotAnInput(output, inputs: Reel.inputFiles(of: clip.scene, path: scene))
        let list = try times() ?? ContactSheet.evenTimes(count: count ?? 12, scene: clip.scene)
        let c = columns ?? Int(Double(list.count).squareRoot().rounded(.up))
        try ContactSheet.write(
            clip, times: list, columns: c, to: output,
            threads: try threads?.value().count ?? ProcessInfo.processInfo.activeProcessorCount,
            cancellation: Interrupts.cancellation)
    }
}
