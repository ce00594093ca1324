// Batches from data (#25): CSV and JSON Lines rows expanded to jobs, errors located in the table, `reel render --rows`.
import Foundation
import Reel
import ReelDocument
import Testing

/// Batches from data (issue #25): a job's `rows` (CSV or JSON Lines) expand to one variant a row, each
/// value typed by the scene's declared default, every problem an error at the data file's line and
/// column before anything renders. Expectations are written by hand from the tables.
@Suite struct BatchRowsTests {
    static let scene = """
        width: 32
        height: 32
        fps: 10
        duration: 0.2
        variables:
          label: Hello
          color: "#3478f6"
          count: 1
          spot: [4, 4]
        layers:
          - {name: box, position: $spot, bounds: [8, 8], backgroundColor: $color, opacity: 1}
        """

    func plan(_ table: String, name: String = "data.csv", outputs: String = "[\"out/{name}-{row}-{label}.gif\"]")
        throws -> (Workspace, Result<BatchPlan, ReelError>)
    {
        let ws = try Workspace()
        _ = ws.write("scene.yaml", Self.scene)
        _ = FileManager.default.createFile(atPath: ws.file(name), contents: Data(table.utf8))
        let manifest = ws.write("batch.yaml", "jobs:\n  - scene: scene.yaml\n    rows: \(name)\n    outputs: \(outputs)\n")
        do {
            return (ws, .success(try Reel.planBatch(manifest)))
        } catch {
            return (ws, .failure(error))
        }
    }

    static func number(_ node: JSONNode?) -> Double? {
        if case .number(let v)? = node?.value { return v }
        return nil
    }

    static func string(_ node: JSONNode?) -> String? {
        if case .string(let s)? = node?.value { return s }
        return nil
    }

    /// A byte-order mark, Windows line ends, a quoted comma, a quoted line break and a doubled quote, an
    /// empty cell (the default stays), a blank line, and no `name` column (rows are named row1, row2…).
    @Test func quotingEmptyCellsBOMAndCRLF() throws {
        let table =
            "\u{FEFF}label,count,color,spot\r\n\"Docs, examples\",7,#ff0000,12 20\r\n\r\n\"Two\r\nlines \"\"quoted\"\"\",,,\r\n"
        let (ws, result) = try plan(table, outputs: "[\"out/{variant}-{row}.gif\"]")
        let plan = try result.get()
        #expect(plan.jobs.map(\.name) == ["scene-row1", "scene-row2"])
        let first = plan.jobs[0].variables, second = plan.jobs[1].variables
        #expect(Self.string(first["label"]) == "Docs, examples" && Self.number(first["count"]) == 7)
        #expect(Self.string(first["color"]) == "#ff0000")
        if case .array(let p)? = first["spot"]?.value {
            #expect(p.map { Self.number($0) } == [12, 20])
        } else {
            Issue.record("spot")
        }
        #expect(
            Self.string(second["label"]) == "Two\r\nlines \"quoted\"" || Self.string(second["label"]) == "Two\nlines \"quoted\"")
        #expect(second["count"] == nil && second["color"] == nil && second["spot"] == nil)
        #expect(plan.jobs[1].outputs.map { ($0.path as NSString).lastPathComponent } == ["row2-2.gif"])
        _ = ws
    }

    /// JSON Lines (a blank line skipped), rows named by their `name` column.
    @Test func jsonLinesAndTheNameColumn() throws {
        let table = "{\"name\": \"ann\", \"count\": 3, \"spot\": [1, 2]}\n\n{\"name\": \"bo\", \"label\": \"Hi\"}\n"
        let (_, result) = try plan(table, name: "data.jsonl")
        let plan = try result.get()
        #expect(plan.jobs.map(\.variant) == ["ann", "bo"])
        #expect(Self.number(plan.jobs[0].variables["count"]) == 3)
        // A placeholder for a column a row leaves out is the scene's default.
        #expect(plan.jobs.map { ($0.outputs[0].path as NSString).lastPathComponent } == ["ann-1-Hello.gif", "bo-2-Hi.gif"])
    }

    /// Every error: the data file, the line and column counted by hand, the column's name, the fix.
    @Test(arguments: [
        ("label,colour\nx,#fff\n", "data.csv:1:7: colour: the scene declares no variable \"colour\"", "did you mean color?"),
        ("label,count\nx,seven\n", "data.csv:2:3: count: count is a number, got \"seven\"", "42 or 0.5"),
        ("label,color\nx,blue-ish\n", "data.csv:2:3: color: color is a colour, got \"blue-ish\"", "#ff3b30"),
        ("label,spot\nx,12\n", "data.csv:2:3: spot: spot is a point, got \"12\"", "120 80"),
        ("label,count\nx\n", "data.csv:2:1: this row has 1 cells for 2 columns", "quote a cell"),
        ("name,count\nann,1\nann,2\n", "data.csv:3:1: name: row 2 is named \"ann\" like row 1", "its own name"),
        ("label,label\nx,y\n", "data.csv:1:7: label: column \"label\" is named twice", "its own name"),
    ])
    func errorsAreLocatedInTheTable(_ table: String, _ message: String, _ fix: String) throws {
        let (_, result) = try plan(table)
        guard case .failure(let error) = result else {
            Issue.record("planned a table it should refuse")
            return
        }
        let text = "\(error)"
        #expect(text.contains(message) && text.contains(fix), "\(text)")
    }

    /// A name repeated at the end of a header of 10,002 columns is found there (the header's names are
    /// kept in a set as it is read, not looked up again in the header): `label,count,` then c0 … c9999
    /// (each "cN," N's digits + 2 characters), so the last column begins 12 + 10·3 + 90·4 + 900·5 +
    /// 9000·6 characters in, at column 58,903.
    @Test func aNameRepeatedAtTheEndOfAWideHeaderIsFoundThere() throws {
        let header = "label,count," + (0..<10_000).map { "c\($0)," }.joined() + "count"
        let (_, result) = try plan(header + "\n" + "x" + String(repeating: ",1", count: 10_002) + "\n")
        guard case .failure(let error) = result else {
            Issue.record("planned a table it should refuse")
            return
        }
        #expect("\(error)".contains("data.csv:1:58903: count: column \"count\" is named twice"), "\(error)")
    }

    @Test func jsonLinesErrorsAreLocated() throws {
        let (_, result) = try plan("{\"label\": \"a\"}\n{\"count\": \"many\"}\n", name: "data.jsonl")
        guard case .failure(let error) = result else {
            Issue.record("planned a table it should refuse")
            return
        }
        #expect("\(error)".contains("data.jsonl:2:2: count: count is a number, got \"many\""), "\(error)")
    }

    /// A variable whose default is null must be given by every row.
    @Test func requiredVariables() throws {
        let ws = try Workspace()
        _ = ws.write("scene.yaml", Self.scene.replacingOccurrences(of: "  label: Hello", with: "  label: null"))
        _ = ws.write("data.csv", "count\n3\n")
        let manifest = ws.write(
            "batch.yaml", "jobs:\n  - scene: scene.yaml\n    rows: data.csv\n    outputs: [\"out/{row}.gif\"]\n")
        #expect {
            _ = try Reel.planBatch(manifest)
        } throws: { "\($0)".contains("data.csv:2:1: label: row 1 gives no label, which the scene requires") }
    }

    /// Rendered and run again: nothing re-renders; a row whose values change re-renders, the others stay
    /// up to date.
    @Test func aChangedRowRendersAgain() throws {
        let ws = try Workspace()
        _ = ws.write("scene.yaml", Self.scene)
        _ = ws.write("data.csv", "name,count,color\nann,1,#ff0000\nbo,2,#00ff00\ncy,3,#0000ff\n")
        let manifest = ws.write(
            "batch.yaml", "jobs:\n  - scene: scene.yaml\n    rows: data.csv\n    outputs: [\"out/{name}.gif\"]\n")
        let first = try runReel(["batch", manifest])
        #expect(
            first.status == 0 && first.stdout.contains("3 outputs: 3 rendered, 0 up to date"), "\(first.stdout)\(first.stderr)")
        let again = try runReel(["batch", manifest])
        #expect(again.stdout.contains("3 outputs: 0 rendered, 3 up to date"), "\(again.stdout)")
        _ = ws.write("data.csv", "name,count,color\nann,1,#ff0000\nbo,2,#ffff00\ncy,3,#0000ff\n")
        let changed = try runReel(["batch", manifest])
        #expect(changed.stdout.contains("3 outputs: 1 rendered, 2 up to date"), "\(changed.stdout)")
    }

    /// `--shard I/N` splits the expanded jobs (here a table's ten rows) into N contiguous runs: three
    /// shards hold rows 1–3, 4–6 and 7–10, every row once, in order.
    @Test func shardsSplitTheRows() throws {
        var table = "name,count\n"
        for i in 1...10 { table += "r\(i),\(i)\n" }
        let (_, result) = try plan(table, outputs: "[\"out/{name}.gif\"]")
        let plan = try result.get()
        let parts = (0..<3).map { plan.shard($0, of: 3).jobs.compactMap(\.variant) }
        #expect(parts == [["r1", "r2", "r3"], ["r4", "r5", "r6"], ["r7", "r8", "r9", "r10"]])
        let ws = try Workspace()
        _ = ws.write("scene.yaml", Self.scene)
        _ = ws.write("data.csv", table)
        let manifest = ws.write(
            "batch.yaml", "jobs:\n  - scene: scene.yaml\n    rows: data.csv\n    outputs: [\"out/{name}.gif\"]\n")
        let r = try runReel(["batch", manifest, "--shard", "2/3", "--dry-run"])
        #expect(r.status == 0 && r.stdout.hasPrefix("4 jobs, 4 outputs"), "\(r.stdout)\(r.stderr)")
        #expect(try runReel(["batch", manifest, "--shard", "3/3"]).status != 0)
    }

    /// Ten thousand rows expand to ten thousand jobs (the expansion's speed is BENCHMARKS.md's).
    @Test func tenThousandRows() throws {
        var table = "name,count,color\n"
        for i in 1...10_000 { table += "r\(i),\(i),#\(String(format: "%06x", i * 97 % 0xFFFFFF))\n" }
        let (_, result) = try plan(table, outputs: "[\"out/{name}.gif\"]")
        let plan = try result.get()
        #expect(plan.jobs.count == 10_000)
        #expect(Self.number(plan.jobs[9_999].variables["count"]) == 10_000)
    }

    /// The first frame's pixel at (x, y) of a GIF, as the ffmpeg tool decodes it.
    func firstPixel(_ gif: String, x: Int, y: Int, width: Int) throws -> [UInt8] {
        let raw = gif + ".rgb"
        try ffmpeg(["-i", gif, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let i = (y * width + x) * 3
        return bytes.count >= i + 3 ? Array(bytes[i..<(i + 3)]) : []
    }

    /// `reel render SCENE --rows TABLE -o TEMPLATE` is the manifest's rows job without a manifest: a
    /// clip a row, its box in the row's colour (the default where the cell is empty; hand-written
    /// colours, which a palette of three holds exactly), resumed, forced, listed and sharded as a batch.
    @Test func renderWithoutAManifest() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.yaml", Self.scene.replacingOccurrences(of: "bounds: [8, 8]", with: "bounds: [32, 32]"))
        let table = ws.write("data.csv", "name,color,spot\nred,#ff0000,\"[16, 16]\"\nplain,,\"[16, 16]\"\n")
        let template = ws.file("out/{name}.gif")
        let render = ["render", scene, "--rows", table, "-o", template]
        let first = try runReel(render)
        #expect(first.status == 0 && first.stdout.contains("2 outputs: 2 rendered"), "\(first.stdout)\(first.stderr)")
        #expect(try firstPixel(ws.file("out/red.gif"), x: 16, y: 16, width: 32) == [255, 0, 0])
        #expect(try firstPixel(ws.file("out/plain.gif"), x: 16, y: 16, width: 32) == [0x34, 0x78, 0xf6])
        let again = try runReel(render)
        #expect(again.stdout.contains("2 outputs: 0 rendered, 2 up to date"), "\(again.stdout)")
        let forced = try runReel(render + ["--force"])
        #expect(forced.stdout.contains("2 outputs: 2 rendered"), "\(forced.stdout)")
        let listed = try runReel(render + ["--dry-run", "--shard", "1/2"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("plain.gif") && !listed.stdout.contains("red.gif"), "\(listed.stdout)")
        // --var sets what every row starts from; a cell overrides it.
        let varied = try runReel(render + ["--var", "color=#00ff00", "--dry-run"])
        #expect(varied.stdout.contains("plain: ") && varied.stdout.contains("color=#00ff00"), "\(varied.stdout)")
        #expect(varied.stdout.contains("color=#ff0000"), "\(varied.stdout)")
    }

    /// What `reel render --rows` refuses, each before anything renders, named by its option or located
    /// in the table.
    @Test(arguments: [
        (["-o", "OUT/{nme}.gif"], "-o OUT/{nme}.gif: unknown placeholder {nme}", "did you mean {name}?"),
        (["-o", "OUT/same.gif"], "OUT/same.gif is also written by", "give each output its own path"),
        (["-o", "OUT/{name}.gif", "--frames", "0-1"], "--frames splits one clip", "--shard I/N splits the table's rows"),
        (["-o", "OUT/{name}.gif", "--threads", "1"], "--threads and --workers do not apply", "--jobs"),
        (["-o", "OUT/{name}.gif", "--rows", "WS/nothing.csv"], "nothing.csv: no such data file", "check the path"),
        (
            ["-o", "OUT/{name}.gif", "--rows", "WS/bad.csv"], "bad.csv:1:6: colour: the scene declares no variable \"colour\"",
            "did you mean color?"
        ),
    ])
    func renderRowsRefuses(_ arguments: [String], _ message: String, _ fix: String) throws {
        let ws = try Workspace()
        let scene = ws.write("scene.yaml", Self.scene)
        let table = ws.write("data.csv", "name,color\nann,#ff0000\nbo,#00ff00\n")
        _ = ws.write("bad.csv", "name,colour\nann,#ff0000\n")
        let out = ws.file("out")
        var args =
            ["render", scene]
            + arguments.map {
                $0.replacingOccurrences(of: "OUT", with: out).replacingOccurrences(of: "WS", with: ws.path)
            }
        if !args.contains("--rows") { args += ["--rows", table] }
        let r = try runReel(args)
        let m = message.replacingOccurrences(of: "OUT", with: out)
        #expect(r.status != 0 && r.stderr.contains(m) && r.stderr.contains(fix), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing is written")
    }

    /// A table is input, not a command (#45): a cell that would build a path — `..`, an absolute path, a
    /// `/` — is refused at its line and column by `reel render --rows` and by a manifest's `rows:`, with
    /// `--sandbox` or without, before anything is written anywhere; a folder the template names
    /// (`{team}/{name}`) is where plain values go.
    @Test(arguments: ["../../../escaped", "/ABS/escaped", "deeper/escaped", ".."])
    func aRowCannotChooseAFolder(name: String) throws {
        let ws = try Workspace()
        let work = ws.file("a/b/c")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let scene = ws.write("a/b/c/scene.yaml", Self.scene)
        let value = name.replacingOccurrences(of: "ABS", with: ws.path)
        let table = ws.write("a/b/c/data.csv", "name,color\nfine,#ff0000\n\"\(value)\",#00ff00\n")
        _ = ws.write("a/b/c/batch.yaml", "jobs:\n  - scene: scene.yaml\n    rows: data.csv\n    outputs: [\"o/{name}.gif\"]\n")
        let runs = [
            ["render", scene, "--rows", table, "-o", work + "/o/{name}.gif"],
            ["render", scene, "--rows", table, "-o", work + "/o/{name}.gif", "--sandbox"],
            ["batch", work + "/batch.yaml"], ["batch", work + "/batch.yaml", "--sandbox"],
        ]
        for run in runs {
            let r = try runReel(run)
            #expect(r.status != 0, "\(run): \(r.stdout)")
            #expect(r.stderr.contains("data.csv:3:1: name: \"\(value)\" would build a path"), "\(run): \(r.stderr)")
            #expect(r.stderr.contains("out/{team}/{name}.gif"), "\(r.stderr)")
            let written = FileManager.default.enumerator(atPath: ws.path)?.compactMap { $0 as? String } ?? []
            #expect(
                !written.contains { $0.contains("escaped") || $0.hasSuffix(".gif") || $0.contains("reel-batch") }, "\(written)")
        }
    }

    /// The template, not the data, makes folders: `o/{label}/{name}.gif` with plain cells writes each row
    /// into its label's folder.
    @Test func theTemplateMakesFolders() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.yaml", Self.scene)
        let table = ws.write("data.csv", "name,label\nann,red\nbo,blue\n")
        let r = try runReel(["render", scene, "--rows", table, "-o", ws.file("o/{label}/{name}.gif"), "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: ws.file("o/red/ann.gif")))
        #expect(FileManager.default.fileExists(atPath: ws.file("o/blue/bo.gif")))
    }

    /// The batch options of --rows mean nothing without it, and say so.
    @Test func batchOptionsNeedRows() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.yaml", Self.scene)
        let r = try runReel(["render", scene, "-o", ws.file("x.gif"), "--force"])
        #expect(r.status != 0 && r.stderr.contains("--force goes with --rows"), "\(r.stderr)")
    }
}
