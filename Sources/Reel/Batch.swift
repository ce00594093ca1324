/// Batch plans: a manifest expanded into jobs and outputs, the inputs each output depends on, and the
/// record that lets an unchanged output be skipped.
import Crypto
import Foundation
import ReelDocument
import ReelLottie
import ReelMedia
import ReelScene
import ReelText

/// One output of a planned batch job: where it goes and how it is rendered.
public struct BatchOutput: Sendable {
    public var path: String
    public var options: RenderOptions
    public var overrides: SceneOverrides
    /// The settings as text, for the record of inputs (with the preset's own values, so editing a
    /// preset file re-renders what uses it).
    public var settings: String
}

/// A batch job after globs, variants and placeholders are expanded: one scene, one set of variables.
public struct BatchJob: Sendable {
    public var name: String
    public var scene: String
    public var variant: String?
    public var variables: [String: JSONNode]
    public var outputs: [BatchOutput]
    /// The data table the job's row came from (`rows:`), an input no output may replace.
    public var table: String?
}

public struct BatchPlan: Sendable {
    public var manifest: String
    public var jobs: [BatchJob]
    public var concurrency: Int?
    public var memoryLimit: Int?
    /// Scenes, presets, images and outputs all inside the manifest's folder (`Sandbox`).
    public var sandboxed = false
}

extension BatchPlan {
    /// Part `index` (from 0) of `count` of the expanded jobs: jobs ⌊index·J/count⌋ … ⌊(index+1)·J/count⌋−1
    /// of J, in order, so that shards on several machines render every job once (a table's rows in
    /// contiguous runs).
    public func shard(_ index: Int, of count: Int) -> BatchPlan {
        var part = self
        let total = jobs.count
        part.jobs = Array(jobs[(index * total / count)..<((index + 1) * total / count)])
        return part
    }
}

extension Reel {
    /// Reads a manifest and expands it into jobs; every problem is reported with the manifest's line
    /// and column before anything is rendered.
    public static func planBatch(_ manifestPath: String, sandboxed: Bool = false) throws(ReelError) -> BatchPlan {
        let manifest: BatchManifest
        do {
            manifest = try BatchManifest.load(contentsOf: manifestPath)
        } catch {
            throw .scene(error)
        }
        return try plan(manifest, base: URL(fileURLWithPath: manifestPath).deletingLastPathComponent().path, sandboxed: sandboxed)
    }

    /// Expands a manifest's jobs, its relative paths taken from `base` (the manifest's folder; empty for
    /// the working directory). With `sandboxed`, everything stays inside `base`; with `plainVariables`
    /// (a sandboxed batch or `render --rows --sandbox`), every variable an output path uses is one name.
    static func plan(_ manifest: BatchManifest, base: String, sandboxed: Bool, plainVariables: Bool? = nil)
        throws(ReelError) -> BatchPlan
    {
        let plainVariables = plainVariables ?? sandboxed
        let manifestPath = manifest.file
        func resolve(_ path: String) -> String {
            path.hasPrefix("/") ? path : (base == "." || base.isEmpty ? path : (base as NSString).appendingPathComponent(path))
        }
        func fail(_ location: SourceLocation, _ path: String, _ message: String, fix: String? = nil) -> ReelError {
            .scene(SceneError(file: manifestPath, location: location, path: path, message: message, fix: fix))
        }
        var plan = BatchPlan(
            manifest: manifestPath, jobs: [], concurrency: manifest.concurrency, memoryLimit: manifest.memoryLimit)
        plan.sandboxed = sandboxed
        let root = base.isEmpty ? "." : base
        func confine(_ path: String, _ location: SourceLocation, _ jsonPath: String, _ what: String) throws(ReelError) {
            guard sandboxed, !Sandbox.contains(root, path) else { return }
            throw fail(
                location, jsonPath, "\(what) \(path) is outside the manifest's folder, and a sandboxed batch stays inside it",
                fix: "keep scenes, presets and outputs inside \(root)")
        }
        var writers: [String: String] = [:]  // output path → the job path that writes it
        for spec in manifest.jobs {
            let scenes: [String]
            let pattern = resolve(spec.scene)
            try confine(pattern, spec.location, spec.jsonPath + ".scene", "the scene")
            if spec.scene.contains(where: { "*?[".contains($0) }) {
                scenes = glob(pattern)
                for scene in scenes { try confine(scene, spec.location, spec.jsonPath + ".scene", "the scene") }
                guard !scenes.isEmpty else {
                    throw fail(
                        spec.location, spec.jsonPath + ".scene", "no file matches \(spec.scene) (looked for \(pattern))",
                        fix: "paths are relative to the manifest's folder")
                }
            } else {
                guard FileManager.default.fileExists(atPath: pattern) else {
                    throw fail(
                        spec.location, spec.jsonPath + ".scene", "\(spec.scene): no such scene file (looked for \(pattern))",
                        fix: "paths are relative to the manifest's folder")
                }
                scenes = [pattern]
            }
            typealias Variant = (
                name: String?, variables: [String: JSONNode], fields: [String: String], cells: [String: SourceLocation]
            )
            let named: [Variant] =
                spec.variants.isEmpty
                ? [(nil, spec.variables, [:], [:])]
                : spec.variants.map { ($0.name, spec.variables.merging($0.variables) { $1 }, [:], [:]) }
            let hasVariants = !spec.variants.isEmpty || spec.rows != nil
            for scene in scenes {
                let sceneName = ((scene as NSString).lastPathComponent as NSString).deletingPathExtension
                var variants = named
                var tableFile: String?
                if let rows = spec.rows {
                    // Every row of the table, typed by this scene's variables, before anything renders.
                    let table = resolve(rows.path)
                    tableFile = table
                    try confine(table, rows.location, spec.jsonPath + ".rows", "the data file")
                    do {
                        variants = try DataRows.read(table, declared: declaredVariables(of: scene)).map {
                            ($0.name, spec.variables.merging($0.variables) { $1 }, $0.fields, $0.cells)
                        }
                    } catch {
                        throw .scene(error)
                    }
                }
                for variant in variants {
                    var fields = ["scene": sceneName, "variant": variant.name ?? ""].merging(variant.fields) { a, _ in a }
                    for (k, v) in variant.variables {
                        switch v.value {
                        case .string(let s): fields[k] = s
                        case .number(let x): fields[k] = x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
                        default: break
                        }
                    }
                    let defaultName = variant.name.map { "\(sceneName)-\($0)" } ?? sceneName
                    let name = try spec.name.map { (template) throws(ReelError) in
                        try fill(template, fields, hasVariants: hasVariants) { (message, fix) in
                            fail(spec.location, spec.jsonPath + ".name", message, fix: fix)
                        }
                    }
                    fields["job"] = name ?? defaultName
                    var job = BatchJob(
                        name: name ?? defaultName, scene: scene, variant: variant.name, variables: variant.variables,
                        outputs: [], table: tableFile)
                    for o in spec.outputs {
                        if let table = tableFile {
                            try checkDataInPath(o.path, jobName: spec.name, fields: fields, cells: variant.cells, table: table)
                        }
                        if plainVariables {
                            for (k, v) in fields where ![("scene"), "variant", "job"].contains(k) && !Sandbox.isPlainName(v) {
                                guard o.path.contains("{\(k)}") || (spec.name ?? "").contains("{\(k)}") else { continue }
                                throw fail(
                                    o.location, o.jsonPath,
                                    "the variable \(k) = \"\(v)\" would build a path, and a sandboxed batch allows only plain names there",
                                    fix: "give \(k) a value without / or ..")
                            }
                        }
                        let path = resolve(
                            try fill(o.path, fields, hasVariants: hasVariants) { (message, fix) in
                                fail(o.location, o.jsonPath, message, fix: fix)
                            })
                        var options = RenderOptions()
                        var overrides = SceneOverrides(variables: variant.variables)
                        var settings = "path=\(URL(fileURLWithPath: path).lastPathComponent)"
                        var applied = [o.settings]  // checked against the codec once it is known
                        var chosen = OutputSettings()
                        try confine(path, o.location, o.jsonPath, "the output")
                        if let presetName = o.preset {
                            let local = resolve(presetName)
                            let isFile = presetName.contains("/") || presetName.hasSuffix(".yaml") || presetName.hasSuffix(".yml")
                            if isFile { try confine(local, o.location, o.jsonPath, "the preset") }
                            let preset: Preset
                            do {
                                preset = try Reel.preset(isFile ? local : presetName)
                            } catch {
                                throw fail(o.location, o.jsonPath, "\(error)")
                            }
                            if let format = preset.format {
                                let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
                                let isFolder = path.hasSuffix("/")
                                if format == "png" ? !isFolder : (ext != format && !(format == "mp4" && ext == "m4v")) {
                                    throw fail(
                                        o.location, o.jsonPath,
                                        "preset \(preset.name) writes \(format == "png" ? "PNG sequences" : ".\(format) files")",
                                        fix: format == "png" ? "end the path with /" : "name the output *.\(format)")
                                }
                            }
                            chosen = preset.settings
                            settings += "|preset=\(preset)"
                            applied.append(preset)
                        }
                        var inline = o.settings.settings
                        settings += "|settings=\(o.settings)"
                        if let d = o.duration {
                            inline.duration = d
                            settings += "|duration=\(d)"
                        }
                        if let s = o.speed {
                            inline.speed = s
                            settings += "|speed=\(s)"
                        }
                        inline.merged(over: chosen).apply(to: &options, overrides: &overrides)
                        settings +=
                            "|variables="
                            + canonical(
                                .object(
                                    variant.variables.sorted { $0.key < $1.key }.map {
                                        ($0.key, SourceLocation(line: 0, column: 0), $0.value)
                                    }))
                        let codec: VideoCodec
                        do {
                            let container = try Reel.container(for: path, codec: options.codec)
                            if let codec = options.codec, !codec.containers.contains(container) {
                                throw ReelError.usage("\(codec.rawValue) cannot go in .\(container.rawValue)", fix: nil)
                            }
                            codec = options.codec ?? container.defaultCodec
                        } catch {
                            throw fail(o.location, o.jsonPath, "\(error)")
                        }
                        for p in applied {
                            try Reel.check(p, codec: codec)
                            try Reel.checkTerminalLooks(p, input: scene)
                        }
                        let key = URL(fileURLWithPath: path).standardizedFileURL.path
                        if let other = writers[key] {
                            throw fail(
                                o.location, o.jsonPath, "\(path) is also written by \(other)",
                                fix: "give each output its own path, e.g. with {scene} or {variant} in it")
                        }
                        writers[key] = "\(spec.jsonPath) (\(job.name))"
                        job.outputs.append(BatchOutput(path: path, options: options, overrides: overrides, settings: settings))
                    }
                    plan.jobs.append(job)
                }
            }
        }
        return plan
    }

    /// A value from a data file fills an output path as one plain name (no `/`, `\\`, `.` or `..`): a
    /// table is input, not a command, so its cells may name a file but never choose a folder (a row named
    /// `../../x` or `/etc/x` would otherwise write outside the output's folder). Folders come from the
    /// template (`out/{team}/{name}.gif`, each placeholder one name). `{variant}` and a `{job}` made from
    /// the row's name are the `name` cell; a `{job}` from a `name:` template holds the cells it uses.
    static func checkDataInPath(
        _ template: String, jobName: String?, fields: [String: String], cells: [String: SourceLocation], table: String
    ) throws(ReelError) {
        var used = Set<String>()
        func collect(_ t: String) {
            for (column, _) in cells where t.contains("{\(column)}") { used.insert(column) }
            if t.contains("{variant}") { used.insert("name") }
        }
        collect(template)
        if template.contains("{job}") {
            if let jobName { collect(jobName) } else { used.insert("name") }
        }
        for column in used.sorted() {
            guard let value = fields[column], let place = cells[column], !Sandbox.isPlainName(value) else { continue }
            throw .scene(
                SceneError(
                    file: table, location: place, path: column,
                    message:
                        "\"\(value)\" would build a path in the output \(template): a value from a data file fills a path as one name, so it cannot hold / or be . or ..",
                    fix:
                        "give \(column) a plain name; to sort clips into folders, put the folder in the output: out/{team}/{name}.gif"
                ))
        }
    }

    /// The variables a scene file declares, with their defaults (none when it cannot be read: rendering
    /// it reports why).
    static func declaredVariables(of scene: String) -> [(name: String, value: JSONNode)] {
        // A Lottie animation's variables are its slots, each typed by its default as a user writes it
        // (a colour's `#rrggbb`): a row's cells fill them.
        if let document = try? lottieContainer(scene, animation: nil) {
            return LottieSlots.declared(in: document.root).map { ($0.id, $0.value) }
        }
        guard let text = try? DocumentLimits.readText(scene, what: "scene") else { return [] }
        let parsed: JSONNode?
        if (scene as NSString).pathExtension.lowercased() == "json" {
            parsed = try? JSONParser.parse(Array(text.utf8))
        } else {
            parsed = try? YAMLReader.parse(text, file: scene)
        }
        guard let root = parsed else { return [] }
        if LottieImport.looksLikeLottie(root) { return LottieSlots.declared(in: root).map { ($0.id, $0.value) } }
        return SceneVariables.declared(in: root)
    }

    /// Replaces `{scene}`, `{variant}`, `{job}` and `{variable}` in a template.
    static func fill(
        _ template: String, _ fields: [String: String], hasVariants: Bool, fail: (String, String?) -> ReelError
    ) throws(ReelError) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw fail("unclosed { in \(template)", "write placeholders as {scene}, {variant}, {job} or {variable}")
            }
            let key = String(rest[rest.index(after: open)..<close])
            if key == "variant" && !hasVariants {
                throw fail("{variant} is used but the job has no variants", "add variants: to the job, or remove {variant}")
            }
            guard let value = fields[key] else {
                let known = fields.keys.sorted()
                let suggestion = closest(key, in: known).map { "did you mean {\($0)}? " } ?? ""
                throw fail(
                    "unknown placeholder {\(key)}",
                    "\(suggestion)placeholders here: \(known.map { "{\($0)}" }.joined(separator: ", "))")
            }
            out += value
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// A value as canonical text (object keys sorted), for the record of inputs.
    static func canonical(_ value: JSONNode.Value) -> String {
        switch value {
        case .object(let members):
            return "{"
                + members.sorted { $0.key < $1.key }.map { "\($0.key):\(canonical($0.value.value))" }.joined(separator: ",") + "}"
        case .array(let items): return "[" + items.map { canonical($0.value) }.joined(separator: ",") + "]"
        case .string(let s): return "\"\(s)\""
        case .number(let x): return "\(x)"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }

    static func glob(_ pattern: String) -> [String] {
        var g = glob_t()
        defer { globfree(&g) }
        guard Glibc.glob(pattern, 0, nil, &g) == 0 else { return [] }
        return (0..<Int(g.gl_pathc)).compactMap { g.gl_pathv[$0].map { String(cString: $0) } }.sorted()
    }

    /// The files a clip reads: the scene, the images its layers show and the fonts its text is set in
    /// (an installed font by the file it resolves to, so that a font updated or replaced re-renders).
    public static func inputFiles(of scene: Scene, path: String) -> [String] {
        var files = Set<String>()
        func visit(_ layer: Layer) {
            // A data: URI is in the scene itself, which is hashed already.
            if let name = layer.contents, !DataURI.isDataURI(name) {
                files.insert(InputFiles.resolve(name, relativeTo: path))
            }
            layer.sublayers.forEach(visit)
            if let mask = layer.mask { visit(mask) }
        }
        scene.layers.forEach(visit)
        files.formUnion(scene.importedFiles.values)
        for name in scene.fontNames + (scene.captions.map { [$0.font] } ?? []) {
            if isFontFile(name) {
                files.insert(InputFiles.resolve(name, relativeTo: path))
            } else if let font = FontLibrary.shared.catalog.font(named: name) {
                files.insert(font.path)
            }
        }
        return [path] + files.sorted()
    }

    /// Refuses an output that is one of the render's inputs (`reel render out/x.mp4 -o out/x.mp4`, a
    /// manifest writing over itself, a scene's sound, captions, fonts, SVG and Lottie files, a batch's
    /// data table) or, for a PNG sequence folder, one that holds an input: the render would replace what
    /// it reads. Paths are compared after resolving links, and files by device and inode (a hard link).
    public static func checkNotAnInput(_ output: String, inputs: [String]) throws(ReelError) {
        func resolved(_ p: String) -> String { URL(fileURLWithPath: p).standardized.resolvingSymlinksInPath().path }
        func identity(_ p: String) -> (UInt, UInt)? {
            var info = stat()
            guard stat(p, &info) == 0 else { return nil }
            return (UInt(info.st_dev), UInt(info.st_ino))
        }
        let out = resolved(output.hasSuffix("/") ? String(output.dropLast()) : output)
        let outIdentity = identity(out)
        for input in inputs {
            let i = resolved(input)
            let sameFile = outIdentity.flatMap { o in identity(i).map { $0 == o } } ?? false
            if i == out || i.hasPrefix(out + "/") || sameFile {
                throw .usage(
                    "\(output): the output would replace \(i == out ? "" : "a file inside it, ")\(input), which this render reads",
                    fix: "write the output somewhere else")
            }
        }
    }

    /// SHA-256 of everything an output depends on: Reel's version, the settings, the scene file, the
    /// images it shows and the fonts it names (their bytes, so a changed asset re-renders). Fonts a
    /// character fell back to are not counted: they follow from the installed fonts, not the scene.
    static func inputsHash(settings: String, files: [String]) -> String {
        var h = SHA256()
        h.update(data: Data("reel \(ReelVersion.string)\n\(settings)\n".utf8))
        for f in files {
            h.update(data: Data("\(f.count):\(f)\n".utf8))
            let data = FileManager.default.contents(atPath: f) ?? Data("(missing)".utf8)
            h.update(data: Data("\(data.count)\n".utf8))
            h.update(data: data)
        }
        return h.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

/// The record written beside an output when it is complete: `.NAME.reel-batch`, JSON.
struct BatchStamp: Codable {
    var reel: String
    var inputs: String
    var frames: Int

    static func path(for output: String) -> String {
        let target = output.count > 1 && output.hasSuffix("/") ? String(output.dropLast()) : output
        let url = URL(fileURLWithPath: target)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).reel-batch").path
    }

    static func read(for output: String) -> BatchStamp? {
        guard let data = FileManager.default.contents(atPath: path(for: output)) else { return nil }
        return try? JSONDecoder().decode(BatchStamp.self, from: data)
    }

    /// Written under a temporary name and renamed, so a kill leaves the old record or the new one.
    func write(for output: String) throws {
        let target = Self.path(for: output)
        let temporary = target + ".\(getpid()).tmp"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, target) == 0 else {
            unlink(temporary)
            throw ReelError.usage("\(target): cannot write the batch record: \(String(cString: strerror(errno)))", fix: nil)
        }
    }
}

extension Reel {
    /// A variable's value as written in a manifest, for listings.
    public static func variableText(_ node: JSONNode) -> String {
        switch node.value {
        case .string(let s): return s
        // 42, as the table wrote it, rather than Swift's 42.0.
        case .number(let x) where x == x.rounded() && abs(x) < 1e15: return String(Int(x))
        default: return canonical(node.value)
        }
    }

    /// Whether an output exists with a record of the same inputs (what a batch would skip).
    public static func isUpToDate(_ job: BatchJob, _ output: BatchOutput) -> Bool {
        guard FileManager.default.fileExists(atPath: output.path), let stamp = BatchStamp.read(for: output.path),
            let clip = try? Reel.load(job.scene, overrides: output.overrides)
        else { return false }
        return stamp.inputs == inputsHash(settings: output.settings, files: inputFiles(of: clip.scene, path: job.scene))
    }
}
