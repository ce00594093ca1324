import Foundation
import ReelMedia
import Testing
import Yams

/// scripts/distributed/: each engine's render step run here, with the environment variables the
/// engine itself would set, then the join.
@Suite struct DistributedScriptsTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let scene = repo + "/examples/star-button.yaml"

    /// Runs a command with extra environment; returns its status and stderr.
    @discardableResult
    static func run(_ arguments: [String], in directory: String = repo, environment: [String: String]) throws -> (
        Int32, String
    ) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("SLURM_") || key.hasPrefix("JOB_COMPLETION") || key.hasPrefix("SHARD_") {
            env[key] = nil
        }
        env.merge(environment) { $1 }
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The joined clip holds the 66 frames of the star button at the single render's times.
    static func checkJoined(_ path: String) throws {
        let frames = try VideoReader(path: path).decodeAll()
        #expect(frames.count == 66)
        for (i, f) in frames.enumerated() { #expect(abs(f.time - Double(i) / 30) < 1e-6, "frame \(i) at \(f.time) s") }
    }

    /// Kubernetes: the render Job's container command, working directory and env, run once per
    /// JOB_COMPLETION_INDEX the Indexed Job hands out; then the join Job's container.
    @Test func kubernetesIndexedJob() throws {
        let ws = try Workspace()
        let text = try String(contentsOfFile: Self.repo + "/scripts/distributed/k8s-indexed-job.yaml", encoding: .utf8)
        let docs = try Yams.load_all(yaml: text).map { $0 as! [String: Any] }
        func container(_ job: [String: Any]) -> [String: Any] {
            let spec = job["spec"] as! [String: Any]
            let pod = (spec["template"] as! [String: Any])["spec"] as! [String: Any]
            return (pod["containers"] as! [[String: Any]])[0]
        }
        func env(_ c: [String: Any]) -> [String: String] {
            var out: [String: String] = [:]
            for e in c["env"] as! [[String: Any]] { out[e["name"] as! String] = e["value"] as? String }
            return out
        }
        let render = docs.first { ($0["metadata"] as! [String: Any])["name"] as? String == "reel-render" }!
        let spec = render["spec"] as! [String: Any]
        #expect(spec["completionMode"] as? String == "Indexed")
        let completions = spec["completions"] as! Int
        let c = container(render)
        var renderEnv = env(c)
        #expect(renderEnv["SHARD_COUNT"] == String(completions))
        #expect(c["workingDir"] as? String == "/work/reel")  // the repository in the image
        // The render options the YAML gives name a shipped preset (reel presets lists them).
        let args = (renderEnv["REEL_ARGS"] ?? "").split(separator: " ").map(String.init)
        let shipped = try runReel(["presets"]).stdout
        for (i, a) in args.enumerated() where a == "--preset" && i + 1 < args.count {
            #expect(shipped.split(separator: "\n").contains { $0.hasPrefix(args[i + 1] + " ") }, "no preset \(args[i + 1])")
        }
        // Here: the repository is the working tree, the shared volume a temporary folder, and the
        // options (1080 pixels wide) replaced by 1× for speed.
        renderEnv["SCENE"] = Self.scene
        renderEnv["OUT_DIR"] = ws.file("shared/segments")
        renderEnv["REEL"] = reelBinary()
        renderEnv["REEL_ARGS"] = "--scale 1"
        for index in 0..<completions {
            var e = renderEnv
            e["JOB_COMPLETION_INDEX"] = String(index)
            let (status, err) = try Self.run(c["command"] as! [String], environment: e)
            #expect(status == 0, "pod \(index): \(err)")
        }
        let join = docs.first { ($0["metadata"] as! [String: Any])["name"] as? String == "reel-join" }!
        let j = container(join)
        var joinEnv = env(j)
        #expect(joinEnv["SHARD_COUNT"] == String(completions))
        joinEnv["OUT_DIR"] = renderEnv["OUT_DIR"]
        joinEnv["OUTPUT"] = ws.file("shared/clip.mp4")
        joinEnv["REEL"] = reelBinary()
        let (status, err) = try Self.run(j["command"] as! [String], environment: joinEnv)
        #expect(status == 0, "join: \(err)")
        try Self.checkJoined(ws.file("shared/clip.mp4"))
    }

    /// Slurm: the batch script run as each array task (SLURM_ARRAY_TASK_ID 0…3 of the script's own
    /// --array), then join.sh as the dependent job would.
    @Test func slurmJobArray() throws {
        let ws = try Workspace()
        let script = Self.repo + "/scripts/distributed/slurm-array.sbatch"
        let text = try String(contentsOfFile: script, encoding: .utf8)
        #expect(text.contains("#SBATCH --array=0-3"))
        for id in 0..<4 {
            let (status, err) = try Self.run(
                ["bash", script], in: ws.path,
                environment: [
                    "SLURM_ARRAY_TASK_ID": String(id), "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0",
                    "SLURM_SUBMIT_DIR": Self.repo, "SCENE": Self.scene, "OUT_DIR": ws.file("segments"),
                    "REEL": reelBinary(), "REEL_ARGS": "--scale 1",
                ])
            #expect(status == 0, "task \(id): \(err)")
        }
        let (status, err) = try Self.run(
            ["bash", Self.repo + "/scripts/distributed/join.sh"],
            environment: [
                "OUT_DIR": ws.file("segments"), "SHARD_COUNT": "4", "OUTPUT": ws.file("clip.mp4"), "REEL": reelBinary(),
            ])
        #expect(status == 0, "join: \(err)")
        try Self.checkJoined(ws.file("clip.mp4"))
        // A task whose index is outside the array is refused with a message.
        let (bad, message) = try Self.run(
            ["bash", script], in: ws.path,
            environment: [
                "SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_SUBMIT_DIR": Self.repo,
                "SCENE": Self.scene, "OUT_DIR": ws.file("segments"), "REEL": reelBinary(),
            ])
        #expect(bad == 2 && message.contains("shard index 4 is not in 0…3"), "\(message)")
    }

    /// GNU parallel with HOSTS=":" (this machine), through the same SSH-ready command line, into a
    /// path with a space.
    @Test func gnuParallel() throws {
        let ws = try Workspace()
        let (status, err) = try Self.run(
            ["bash", Self.repo + "/scripts/distributed/gnu-parallel.sh", Self.scene, ws.file("my clip.mp4"), "3"],
            environment: ["HOSTS": ":", "REEL": reelBinary(), "REEL_ARGS": "--scale 1"])
        #expect(status == 0, "\(err)")
        try Self.checkJoined(ws.file("my clip.mp4"))
    }

    /// The join names the shards whose segments are missing.
    @Test func joinNamesMissingShards() throws {
        let ws = try Workspace()
        let (status, err) = try Self.run(
            ["bash", Self.repo + "/scripts/distributed/render-shard.sh"],
            environment: [
                "SHARD_INDEX": "1", "SHARD_COUNT": "3", "SCENE": Self.scene, "OUT_DIR": ws.file("seg"), "REEL": reelBinary(),
                "REEL_ARGS": "--scale 1",
            ])
        #expect(status == 0, "\(err)")
        let (joined, message) = try Self.run(
            ["bash", Self.repo + "/scripts/distributed/join.sh"],
            environment: ["OUT_DIR": ws.file("seg"), "SHARD_COUNT": "3", "OUTPUT": ws.file("x.mp4"), "REEL": reelBinary()])
        #expect(joined == 2 && message.contains("segments missing for shards 0 2 of 3"), "\(message)")
    }
}
