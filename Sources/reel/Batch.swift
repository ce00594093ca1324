// `reel batch`: a manifest's jobs rendered concurrently, with a live table, a summary and resume.
import ArgumentParser
import Foundation
import Reel
import ReelScene

struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the jobs of a manifest: many scenes, variants and formats, concurrently.",
        discussion: """
            A manifest (YAML or JSON) lists jobs: a scene or a glob of scenes, its variables or named \
            variants, and outputs (a path, or a path with a preset and settings). Paths are relative to \
            the manifest; {scene}, {variant}, {job} and {variable} in an output path are filled in, and \
            missing output folders are created.

              jobs:
                - scene: scenes/*.yaml
                  outputs: ["out/{scene}.gif", {path: "out/{scene}.mp4", preset: web-mp4}]
                - scene: examples/star-button.yaml
                  variants: {red: {accent: "#ff3b30"}, blue: {accent: "#007aff"}}
                  outputs: [out/star-{variant}.gif]

            Outputs render concurrently on the machine's cores under one memory limit. A failing job \
            does not stop the others (unless --fail-fast); the exit status is 1 if any failed. Each \
            finished output gets a record of its inputs beside it (.NAME.reel-batch): run the batch \
            again and outputs whose scene, images, settings and Reel version are unchanged are skipped \
            (--force renders them anyway), so a batch that was killed finishes what is left.
            """
    )

    @Argument(help: ArgumentHelp("The manifest file (YAML or JSON).", valueName: "manifest"))
    var manifest: String

    @Option(
        name: .customLong("jobs"),
        help: ArgumentHelp("Outputs rendered at once (default: the manifest's concurrency, else the cores).", valueName: "n"))
    var concurrency: Parsed<Concurrency>?

    @Option(help: ArgumentHelp("Memory for all renders together (default: the manifest's, else half the RAM).", valueName: "MiB"))
    var memoryLimit: Parsed<MemoryLimit>?

    @Flag(help: "Render every output, even those whose record says they are up to date.")
    var force = false

    @Flag(help: "Stop at the first failure (outputs in progress are stopped and not written).")
    var failFast = false

    @Flag(
        help:
            "Confine the batch to the manifest's folder: scenes, presets, images and outputs inside it, variables in output paths plain names (for render services)."
    )
    var sandbox = false

    @Option(
        help: ArgumentHelp(
            "Render part I (from 0) of N of the expanded jobs, in order (a table's rows split across machines).",
            valueName: "I/N"))
    var shard: Parsed<Shard>?

    @Flag(help: "Print the expanded jobs and what would be rendered, and render nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp("Progress on stderr: auto, bar, json (a line per second), none.", valueName: "kind"))
    var progress = Choice(ProgressKind.auto)

    @Flag(name: .shortAndLong, help: "Print nothing but errors and the summary.")
    var quiet = false

    func validate() throws {
        _ = try concurrency?.value()
        _ = try memoryLimit?.value()
        _ = try progress.value(for: "--progress")
        _ = try shardPart()
    }

    /// `--shard I/N` as (I, N).
    func shardPart() throws -> (index: Int, count: Int)? {
        guard let part = try shard?.value() else { return nil }
        return (part.index, part.count)
    }

    func run() throws {
        Interrupts.install(lastWords: interruptedWords)
        Reel.tuneAllocatorForFrames()
        var plan: BatchPlan
        do {
            plan = try Reel.planBatch(manifest, sandboxed: sandbox)
        } catch {
            throw CommandFailure(message: error.message, exit: 2)  // nothing ran: the manifest is wrong
        }
        if let (i, n) = try shardPart() { plan = plan.shard(i, of: n) }
        let console = BatchConsole(
            concurrency: try concurrency?.value().count, memoryLimit: try memoryLimit?.value().bytes, force: force,
            failFast: failFast,
            progress: try progress.value(for: "--progress").resolved(quiet: quiet))
        if dryRun {
            console.printPlan(plan)
        } else {
            try console.run(plan)
        }
    }
}
