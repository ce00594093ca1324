/// Batch manifests: jobs, their scenes, variables or variants, and outputs, read with located errors.
import Foundation
import ReelDocument
import ReelScene

/// A batch manifest (`reel batch MANIFEST.yaml`): jobs, each a scene (or a glob of scenes), its
/// variables or named variants, and the outputs to write. Read with located errors like scene files;
/// the file system is not looked at here (globs and paths are expanded by the batch runner).
///
/// ```yaml
/// concurrency: 2            # jobs rendered at once (default: the machine's cores)
/// memoryLimit: 4096         # MiB for all of them together (default: half the RAM)
/// jobs:
///   - scene: examples/*.yaml
///     outputs:
///       - out/{scene}.gif                         # settings from the extension
///       - {path: "out/{scene}.mp4", preset: web-mp4, crf: 20}
///   - scene: examples/star-button.yaml
///     variants:                                   # one job per variant
///       red: {accent: "#ff3b30"}
///       blue: {accent: "#007aff"}
///     outputs: ["out/star-{variant}.gif"]
///   - scene: badge.yaml
///     rows: badges.csv                            # one job per row: columns are variables
///     outputs: ["out/badge-{name}.gif"]           # {row}, {name} and every {column}
/// ```
public struct BatchManifest: Sendable {
    public struct Output: Sendable {
        /// The path as written, with `{scene}`, `{variant}`, `{job}` and `{variable}` placeholders.
        public var path: String
        /// A preset name or file, applied before `settings`.
        public var preset: String?
        /// Settings written inline (the keys of a preset file).
        public var settings: Preset
        public var duration: Double?
        public var speed: Double?
        public var location: SourceLocation
        public var jsonPath: String
    }

    public struct Job: Sendable {
        /// A scene path or a glob (`*`, `?`, `[…]`), relative to the manifest.
        public var scene: String
        /// The job's name, with placeholders; nil for the scene's name (and the variant's).
        public var name: String?
        public var variables: [String: JSONNode]
        /// Named sets of variables: one job each (merged over `variables`).
        public var variants: [(name: String, variables: [String: JSONNode])]
        /// A data table (CSV or JSON Lines) whose rows are the variants, relative to the manifest.
        public var rows: (path: String, location: SourceLocation)?
        public var outputs: [Output]
        public var location: SourceLocation
        public var jsonPath: String
    }

    public var file: String
    public var concurrency: Int?
    /// Bytes.
    public var memoryLimit: Int?
    public var jobs: [Job]

    public static let keys = ["concurrency", "memoryLimit", "jobs"]
    public static let jobKeys = ["scene", "name", "variables", "variants", "rows", "outputs"]
    public static let outputKeys = ["path", "preset", "duration", "speed"]

    public static func load(contentsOf path: String) throws(SceneError) -> BatchManifest {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw SceneError(file: path, message: "no such manifest file", fix: "check the path")
        }
        let text = try DocumentLimits.readText(path, what: "manifest")
        let root: JSONNode
        if (path as NSString).pathExtension.lowercased() == "json" {
            do {
                root = try JSONParser.parse(Array(text.utf8))
            } catch {
                throw SceneError(file: path, location: error.location, message: "invalid JSON: \(error.message)")
            }
        } else {
            root = try YAMLReader.parse(text, file: path)
        }
        return try decode(root, file: path)
    }

    public static func decode(_ root: JSONNode, file: String) throws(SceneError) -> BatchManifest {
        let r = DocumentReader(file: file)
        let m = try r.members(root, "", known: keys, what: "a batch manifest")
        var manifest = BatchManifest(file: file, jobs: [])
        if let n = m["concurrency"] {
            let v = try r.number(n, "concurrency")
            let range = SettingLimits.concurrency
            guard v == v.rounded(), v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
                throw r.fail(
                    n, "concurrency",
                    "concurrency is a whole number of jobs at once, \(range.lowerBound)…\(range.upperBound), got \(v)")
            }
            manifest.concurrency = Int(v)
        }
        if let n = m["memoryLimit"] {
            let v = try r.number(n, "memoryLimit")
            // The bound keeps the shift to bytes from overflowing (2^30 MiB is 1 PiB).
            let range = SettingLimits.memoryLimitMiB
            guard v == v.rounded(), v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
                throw r.fail(
                    n, "memoryLimit",
                    "memoryLimit is a whole number of MiB from \(range.lowerBound) to \(range.upperBound), got \(v)")
            }
            manifest.memoryLimit = Int(v) << 20
        }
        guard let jobsNode = m["jobs"] else {
            throw r.fail(
                root, "jobs", "a batch manifest needs \"jobs\"",
                fix: "add jobs: [{scene: scene.yaml, outputs: [out/scene.mp4]}]")
        }
        let jobs = try r.array(jobsNode, "jobs")
        guard !jobs.isEmpty else { throw r.fail(jobsNode, "jobs", "the list of jobs is empty") }
        for (i, node) in jobs.enumerated() {
            manifest.jobs.append(try job(node, "jobs[\(i)]", r))
        }
        return manifest
    }

    static func variables(_ node: JSONNode, _ path: String, _ r: DocumentReader) throws(SceneError) -> [String: JSONNode] {
        guard case .object(let list) = node.value else {
            throw r.fail(node, path, "expected variable names and values (an object), found \(node.kindName)")
        }
        var out: [String: JSONNode] = [:]
        for m in list {
            guard SceneVariables.isName(m.key) else {
                throw SceneError(
                    file: r.file, location: m.keyLocation, path: "\(path).\(m.key)",
                    message: "\"\(m.key)\" is not a variable name", fix: "use letters, digits, _ and -")
            }
            out[m.key] = m.value
        }
        return out
    }

    static func job(_ node: JSONNode, _ path: String, _ r: DocumentReader) throws(SceneError) -> Job {
        let m = try r.members(node, path, known: jobKeys, what: "a job")
        guard let sceneNode = m["scene"] else {
            throw r.fail(node, path, "a job needs a \"scene\" (a path or a glob such as scenes/*.yaml)")
        }
        let scene = try r.string(sceneNode, r.join(path, "scene"))
        guard !scene.isEmpty else { throw r.fail(sceneNode, r.join(path, "scene"), "the scene path is empty") }
        var job = Job(
            scene: scene, name: nil, variables: [:], variants: [], rows: nil, outputs: [], location: node.location,
            jsonPath: path)
        if let n = m["name"] { job.name = try r.string(n, r.join(path, "name")) }
        if let n = m["variables"] { job.variables = try variables(n, r.join(path, "variables"), r) }
        if let n = m["variants"] {
            guard case .object(let list) = n.value, !list.isEmpty else {
                throw r.fail(
                    n, r.join(path, "variants"), "expected variant names and their variables (an object)",
                    fix: "write variants: {red: {accent: \"#ff3b30\"}, blue: {accent: \"#007aff\"}}")
            }
            for v in list {
                guard SceneVariables.isName(v.key) else {
                    throw SceneError(
                        file: r.file, location: v.keyLocation, path: "\(path).variants.\(v.key)",
                        message: "\"\(v.key)\" is not a variant name", fix: "use letters, digits, _ and -")
                }
                job.variants.append((v.key, try variables(v.value, "\(path).variants.\(v.key)", r)))
            }
        }
        if let n = m["rows"] {
            guard m["variants"] == nil else {
                throw r.fail(
                    n, r.join(path, "rows"), "a job takes its variants from \"variants\" or from \"rows\", not both",
                    fix: "move the variants into the table, or make two jobs")
            }
            let table = try r.string(n, r.join(path, "rows"))
            let ext = (table as NSString).pathExtension.lowercased()
            guard ["csv", "jsonl", "ndjson"].contains(ext) else {
                throw r.fail(n, r.join(path, "rows"), "rows come from a .csv or .jsonl file, not \(table)", fix: "rows: data.csv")
            }
            job.rows = (table, n.location)
        }
        guard let outputsNode = m["outputs"] else {
            throw r.fail(node, path, "a job needs \"outputs\"", fix: "add outputs: [out/{scene}.mp4]")
        }
        let outputs = try r.array(outputsNode, r.join(path, "outputs"))
        guard !outputs.isEmpty else { throw r.fail(outputsNode, r.join(path, "outputs"), "the list of outputs is empty") }
        for (k, o) in outputs.enumerated() {
            let op = "\(path).outputs[\(k)]"
            var output: Output
            if case .string(let p) = o.value {
                output = Output(
                    path: p, preset: nil, settings: Preset(name: "inline", description: ""), location: o.location, jsonPath: op)
            } else {
                let (settings, members) = try Preset.decode(
                    node: o, file: r.file, name: "inline", base: op, extraKeys: outputKeys)
                guard let pathNode = members["path"] else {
                    throw r.fail(o, op, "an output needs a \"path\"", fix: "add path: out/{scene}.mp4")
                }
                output = Output(
                    path: try r.string(pathNode, r.join(op, "path")), preset: nil, settings: settings,
                    location: pathNode.location, jsonPath: r.join(op, "path"))
                if let n = members["preset"] { output.preset = try r.string(n, r.join(op, "preset")) }
                if let n = members["duration"] {
                    let v = try r.number(n, r.join(op, "duration"))
                    guard v > 0, v.isFinite else { throw r.fail(n, r.join(op, "duration"), "duration must be positive") }
                    output.duration = v
                }
                if let n = members["speed"] {
                    let v = try r.number(n, r.join(op, "speed"))
                    guard SettingLimits.speed.contains(v) else {
                        throw r.fail(n, r.join(op, "speed"), "speed lies in \(Speed.range)")
                    }
                    output.speed = v
                }
            }
            guard !output.path.isEmpty else { throw r.fail(o, op, "the output path is empty") }
            job.outputs.append(output)
        }
        return job
    }
}
