// scripts/distributed/: Kubernetes, Slurm and GNU parallel steps run here as each engine would, joined to the single render.
import Foundation
import Reel
import ReelMedia
import Testing
import Yams

/// scripts/distributed/: each engine's render step run here, with the environment variables the
/// engine itself would set, then the join.
@Suite struct DistributedScriptsTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let scene = repo + "/examples/star-button.yaml"

    /// What a command did: its status (-1 when it outlived its deadline and was killed) and output.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a command with extra environment (the engines' own variables from this process removed)
    /// and a deadline, so a stuck daemon, ssh or scheduler fails the test instead of hanging CI. The
    /// output goes to files, not pipes: a daemon the command leaves behind cannot hold them open.
    static func execute(
        _ arguments: [String], in directory: String = repo, environment: [String: String], timeout: Double = 120
    ) throws -> Outcome {
        let logs = try Workspace()
        let p = try launch(arguments, in: directory, environment: environment, output: logs.file("out"), errors: logs.file("err"))
        let finished = p.waitForExit(seconds: timeout)
        if !finished { p.stop() }
        let read = { (name: String) in (try? String(contentsOfFile: logs.file(name), encoding: .utf8)) ?? "" }
        let late = finished ? "" : "\n(killed: still running after \(Int(timeout)) s)"
        return Outcome(status: finished ? p.terminationStatus : -1, stdout: read("out"), stderr: read("err") + late)
    }

    /// Runs a command with extra environment; returns its status and stderr.
    @discardableResult
    static func run(_ arguments: [String], in directory: String = repo, environment: [String: String]) throws -> (
        Int32, String
    ) {
        let o = try execute(arguments, in: directory, environment: environment)
        return (o.status, o.stderr)
    }

    /// Starts a command without waiting for it, with this process's environment less the engines' own
    /// variables, plus `environment`; its output is appended to files.
    static func launch(
        _ arguments: [String], in directory: String = repo, environment: [String: String], output: String, errors: String
    ) throws -> Spawned {
        var env = ProcessInfo.processInfo.environment
        let engines = ["SLURM_", "SBATCH_", "JOB_COMPLETION", "SHARD_", "RUN_ID", "POLL_SECONDS", "PARALLEL"]
        for key in env.keys where engines.contains(where: key.hasPrefix) { env[key] = nil }
        env.merge(environment) { $1 }
        return try Spawned(arguments, in: directory, environment: env, output: output, errors: errors)
    }

    /// The joined clip holds the 66 frames of the star button at the single render's times.
    static func checkJoined(_ path: String) throws {
        let frames = try VideoReader(path: path).decodeAll()
        #expect(frames.count == 66)
        for (i, f) in frames.enumerated() { #expect(abs(f.time - Double(i) / 30) < 1e-6, "frame \(i) at \(f.time) s") }
    }

    /// Kubernetes: the render Job's container command, working directory and env, run once per
    /// JOB_COMPLETION_INDEX the Indexed Job hands out, while the join Job's init container waits, as
    /// when both Jobs are applied at once, over segments an earlier run left; then the join container.
    @Test func kubernetesIndexedJob() throws {
        let ws = try Workspace()
        let text = try String(contentsOfFile: Self.repo + "/scripts/distributed/k8s-indexed-job.yaml", encoding: .utf8)
        let docs = try Yams.load_all(yaml: text).map { $0 as! [String: Any] }
        func pod(_ job: [String: Any]) -> [String: Any] {
            let spec = job["spec"] as! [String: Any]
            return (spec["template"] as! [String: Any])["spec"] as! [String: Any]
        }
        func container(_ job: [String: Any]) -> [String: Any] { (pod(job)["containers"] as! [[String: Any]])[0] }
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
        // The image scripts/image.sh builds, tagged with this version, in every container; the recipes'
        // scripts where the .deb installs them, which are the repository's scripts/ (package.sh).
        for job in docs {
            let p = pod(job)
            for c in (p["containers"] as! [[String: Any]]) + ((p["initContainers"] as? [[String: Any]]) ?? []) {
                #expect(c["image"] as? String == "localhost/reel:\(ReelVersion.string)", "\(c["name"] ?? "?")")
                #expect(c["workingDir"] == nil)  // the image's WORKDIR, /data
            }
            #expect((p["securityContext"] as? [String: Any])?["runAsUser"] as? Int == 1000)  // the image's user
        }
        let installed = "/usr/share/reel/"
        func here(_ command: Any?) -> [String] {
            (command as! [String]).map { $0.replacingOccurrences(of: installed, with: Self.repo + "/") }
        }
        #expect((c["command"] as! [String]).contains(installed + "scripts/distributed/render-shard.sh"))
        // The render options the YAML gives name a shipped preset (reel presets lists them).
        let args = (renderEnv["REEL_ARGS"] ?? "").split(separator: " ").map(String.init)
        let shipped = try runReel(["presets"]).stdout
        for (i, a) in args.enumerated() where a == "--preset" && i + 1 < args.count {
            #expect(shipped.split(separator: "\n").contains { $0.hasPrefix(args[i + 1] + " ") }, "no preset \(args[i + 1])")
        }
        // Here: the scripts are the working tree's, the shared volume a temporary folder, and the
        // options (1080 pixels wide) replaced by 1× for speed.
        let segments = ws.file("shared/segments")
        renderEnv["SCENE"] = Self.scene
        renderEnv["OUT_DIR"] = segments
        renderEnv["REEL"] = reelBinary()
        renderEnv["REEL_ARGS"] = "--scale 1"

        // An earlier run's segments, as many as this run's: one without a marker, the others marked
        // with that run's RUN_ID.
        let join = docs.first { ($0["metadata"] as! [String: Any])["name"] as? String == "reel-join" }!
        let waiter = (pod(join)["initContainers"] as! [[String: Any]])[0]
        var waitEnv = env(waiter)
        let runID = try #require(renderEnv["RUN_ID"])
        #expect(!runID.isEmpty && waitEnv["RUN_ID"] == runID, "the render and the wait must name the same run")
        #expect(waitEnv["SHARD_COUNT"] == String(completions))
        try FileManager.default.createDirectory(atPath: segments, withIntermediateDirectories: true)
        for index in 0..<completions {
            let name = String(format: "segment-%05d.mp4", index)
            _ = ws.write("shared/segments/" + name, "stale")
            if index != 1 { _ = ws.write("shared/segments/.\(name).done", "an-earlier-run\n") }
        }
        waitEnv["OUT_DIR"] = segments
        waitEnv["POLL_SECONDS"] = "0.1"
        let waiting = try Self.launch(
            waiter["command"] as! [String], environment: waitEnv, output: ws.file("wait.out"), errors: ws.file("wait.err"))
        defer { waiting.stop() }
        usleep(500_000)  // five looks at the folder
        for index in 0..<completions {
            // Still waiting with all but the last shard of this run done.
            if index == completions - 1 {
                let log = (try? String(contentsOfFile: ws.file("wait.err"), encoding: .utf8)) ?? ""
                #expect(waiting.isRunning, "the join's wait ended before this run's segments were all there: \(log)")
            }
            var e = renderEnv
            e["JOB_COMPLETION_INDEX"] = String(index)
            let (status, err) = try Self.run(here(c["command"]), environment: e)
            #expect(status == 0, "pod \(index): \(err)")
            let marker = try? String(contentsOfFile: segments + String(format: "/.segment-%05d.mp4.done", index), encoding: .utf8)
            #expect(marker == runID + "\n")
        }
        #expect(waiting.waitForExit(seconds: 30), "the join's wait did not end once this run's segments were there")
        #expect(waiting.terminationStatus == 0)

        let j = container(join)
        var joinEnv = env(j)
        #expect(joinEnv["SHARD_COUNT"] == String(completions))
        joinEnv["OUT_DIR"] = segments
        joinEnv["OUTPUT"] = ws.file("shared/clip.mp4")
        joinEnv["REEL"] = reelBinary()
        let (status, err) = try Self.run(here(j["command"]), environment: joinEnv)
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

    /// A misspelt HOSTS file is refused by name before anything runs, not taken for a host name.
    @Test func misspeltHostsFile() throws {
        let ws = try Workspace()
        _ = ws.write("hosts.txt", ":\n")
        for (hosts, message) in [
            (ws.file("hots.txt"), "HOSTS=\(ws.file("hots.txt")): no such file of SSH logins"),
            ("hots.txt", "HOSTS=hots.txt: no such file of SSH logins (working folder \(ws.path))"),
            ("render1,nodes.list", "'nodes.list' looks like a file name, but there is no such file"),
        ] {
            let (status, err) = try Self.run(
                ["bash", Self.repo + "/scripts/distributed/gnu-parallel.sh", Self.scene, ws.file("out/clip.mp4"), "2"],
                in: ws.path, environment: ["HOSTS": hosts, "REEL": reelBinary()])
            #expect(status == 2 && err.contains(message), "HOSTS=\(hosts): \(err)")
            #expect(!FileManager.default.fileExists(atPath: ws.file("out")), "HOSTS=\(hosts): something ran")
        }
    }
}
