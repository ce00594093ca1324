/// `reel render SCENE --rows data.csv -o "out/{name}.gif"`: the one-job batch a manifest would hold,
/// made from a render's own options, so that rows are typed, named and resumed exactly as in a manifest.
import Foundation
import ReelDocument
import ReelScene

/// What a render from a table asks for: the scene, the table, the output template and its settings.
public struct RowsRequest: Sendable {
    public var scene: String
    public var rows: String
    /// The output path with `{row}`, `{name}`, `{scene}` and `{column}` placeholders.
    public var output: String
    /// A preset name or file, under `settings`.
    public var preset: String?
    public var settings: OutputSettings
    /// Values every row starts from (`--var`); a row's cells override them.
    public var variables: [String: JSONNode]
    /// Images read only inside the scene's folder (as `reel render --sandbox`).
    public var sandboxed: Bool

    public init(
        scene: String, rows: String, output: String, preset: String? = nil, settings: OutputSettings = OutputSettings(),
        variables: [String: JSONNode] = [:], sandboxed: Bool = false
    ) {
        self.scene = scene
        self.rows = rows
        self.output = output
        self.preset = preset
        self.settings = settings
        self.variables = variables
        self.sandboxed = sandboxed
    }
}

extension Reel {
    /// One job per row of `request.rows`; every row checked before anything renders. Paths are taken
    /// as given (relative to the working directory); a problem with the output template or the preset
    /// is named by its option rather than by a place in a manifest (there is none).
    public static func planRows(_ request: RowsRequest) throws(ReelError) -> BatchPlan {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: request.scene, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .scene(SceneError(file: request.scene, message: "no such scene file", fix: "check the path"))
        }
        guard FileManager.default.fileExists(atPath: request.rows, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .scene(SceneError(file: request.rows, message: "no such data file", fix: "check the path"))
        }
        let ext = (request.rows as NSString).pathExtension.lowercased()
        guard ["csv", "jsonl", "ndjson"].contains(ext) else {
            throw .usage("--rows \(request.rows): rows come from a .csv or .jsonl file", fix: "name the table *.csv or *.jsonl")
        }
        var settings = Preset(name: "command line", description: "")
        settings.settings = request.settings
        let here = SourceLocation(line: 1, column: 1)
        let output = BatchManifest.Output(
            path: request.output, preset: request.preset, settings: settings, duration: nil, speed: nil, location: here,
            jsonPath: "output")
        let job = BatchManifest.Job(
            scene: request.scene, name: nil, variables: request.variables, variants: [], rows: (request.rows, here),
            outputs: [output], location: here, jsonPath: "job")
        let manifest = BatchManifest(file: commandLine, jobs: [job])
        var plan: BatchPlan
        do {
            // Confined as a sandboxed batch is, but for the folder: the template is the service's choice.
            plan = try Reel.plan(manifest, base: "", sandboxed: false, plainVariables: request.sandboxed)
        } catch {
            // The in-memory manifest has no file to point into: name the option instead.
            guard case .scene(let e) = error, e.file == commandLine else { throw error }
            let option =
                e.path == "output" ? "-o \(request.output)" : e.path == "job.rows" ? "--rows \(request.rows)" : request.scene
            throw .usage("\(option): \(e.message)", fix: e.fix.map { Message($0) })
        }
        plan.manifest = request.rows
        plan.sandboxed = request.sandboxed
        return plan
    }

    /// The name the in-memory manifest of `planRows` goes by, never a real file's.
    static let commandLine = "(command line)"
}
