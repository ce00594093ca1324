// `reel preview`'s export: the scene rendered with a preset beside its file, one at a time, with the
// progress `reel render` prints, and a way to cancel it.
import Foundation
import Reel

final class PreviewExport: @unchecked Sendable {
    let scene: String
    private let lock = NSLock()
    private var status = Status()
    private var cancellation: Cancellation?

    init(scene: String) { self.scene = scene }

    struct Status: Encodable {
        /// idle, running, done, failed or cancelled.
        var state = "idle"
        var preset: String?
        /// The file (or PNG folder) written, as a path beside the scene.
        var output: String?
        var frame = 0
        var frames = 0
        /// `reel render`'s progress line while running; its closing line when done; the error (as the
        /// command line words it) when failed.
        var line: String?
        /// The notes `reel render` prints on the way (a frame rate a GIF cannot keep, say).
        var notes: [String] = []
    }

    /// Why an export did not start: a request to correct (400), or one running already (409).
    enum Refusal: Error {
        case unknownPreset(String)
        case busy(String)
    }

    func current() -> Status { lock.withLock { status } }

    /// Where an export with `preset` writes: `NAME-PRESET.EXT` beside the scene (`NAME-PRESET/` for
    /// PNG frames), so exports with different presets keep each other.
    static func outputPath(scene: String, preset: Preset) -> String {
        // Written as the scene's path was given (relative stays relative), as `reel render` names outputs.
        let folder = (scene as NSString).deletingLastPathComponent
        let stem = ((scene as NSString).lastPathComponent as NSString).deletingPathExtension
        let format = preset.format ?? "mp4"
        let name = "\(stem)-\(preset.name)" + (format == "png" ? "/" : "." + format)
        return folder.isEmpty ? name : folder + "/" + name
    }

    /// Starts an export, or says why it cannot start.
    func start(presetName: String, parent: Cancellation) -> Refusal? {
        // Only the built-in presets: a path would let a request name any file to read.
        guard Reel.presetNames.contains(presetName) else {
            return .unknownPreset("preset=\(presetName): give one of \(Reel.presetNames.joined(separator: ", "))")
        }
        let preset: Preset
        do {
            preset = try Reel.preset(presetName)
        } catch {
            return .unknownPreset(ErrorReport.describe(error)?.message ?? "\(error)")
        }
        let output = Self.outputPath(scene: scene, preset: preset)
        let token = Cancellation(parent: parent)
        let refused: Refusal? = lock.withLock {
            if status.state == "running" { return .busy("an export is running: wait for it or cancel it") }
            status = Status(state: "running", preset: preset.name, output: output, line: "loading the scene")
            cancellation = token
            return nil
        }
        if let refused { return refused }
        let scene = scene
        Thread.detachNewThread { [self] in
            var options = RenderOptions()
            options.cancellation = token
            var overrides = SceneOverrides()
            preset.settings.apply(to: &options, overrides: &overrides)
            let outcome: Result<RenderSummary, ReelError>
            do throws(ReelError) {
                let container = try Reel.checkOutput(output, codec: options.codec)
                try Reel.check(preset, codec: options.codec ?? container.defaultCodec)
                try Reel.checkTerminalLooks(preset, input: scene)
                outcome = .success(
                    try Render.render(
                        scene, sandboxed: false, overrides: overrides, to: output, options: options,
                        note: { note in
                            self.lock.withLock {
                                if self.status.notes.count < 20 { self.status.notes.append(note.forCommandLine) }
                            }
                        },
                        progress: { p in
                            self.lock.withLock {
                                self.status.frame = p.frame
                                self.status.frames = p.total
                                self.status.line = ProgressReporter.line(p)
                            }
                        }))
            } catch {
                outcome = .failure(error)
            }
            self.lock.withLock {
                switch outcome {
                case .success(let summary):
                    self.status.state = "done"
                    self.status.line = Render.doneText(summary)
                case .failure(let error):
                    if case .stopped = error {
                        self.status.state = "cancelled"
                        self.status.line = "cancelled; no output written"
                    } else {
                        self.status.state = "failed"
                        self.status.line = ErrorReport.describe(error)?.message ?? "\(error)"
                    }
                }
                self.cancellation = nil
            }
        }
        return nil
    }

    /// Asks the running export to stop; false when none is running.
    func cancel() -> Bool {
        lock.withLock {
            guard let cancellation else { return false }
            cancellation.cancel(.stopped(Message("cancelled from the preview page")))
            return true
        }
    }
}
