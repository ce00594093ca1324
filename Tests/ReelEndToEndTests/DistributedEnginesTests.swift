// The distributed scripts on real engines started here: one-node Slurm, GNU parallel over SSH (needs root, else skipped).
import Foundation
import Testing

/// The engines themselves, started by the tests on this machine: a one-node Slurm cluster (slurmctld,
/// slurmd and munged with a generated configuration) and an sshd on 127.0.0.1 for GNU parallel. They
/// need root and Debian's slurm-wlm, munge and openssh-server (scripts/setup.sh installs them); without
/// them the tests are skipped, and a daemon that will not start cancels its test with its log.
extension DistributedScriptsTests {
    /// Slurm as the documentation says to use it: the two `sbatch` lines of docs/distributed.md, with
    /// OUT_DIR and OUTPUT exported as a user would, on a node as small as the smallest we aim at (2
    /// CPUs, 2 GB), so the script's own resource request must fit it.
    @Test(.enabled(if: LocalSlurm.available, "needs root and slurm-wlm + munge (scripts/setup.sh)"))
    func slurmOnARealCluster() throws {
        let ws = try Workspace()
        let slurm = try LocalSlurm(in: ws.file("slurm"))
        defer { slurm.stop() }
        try slurm.waitUntilIdle()

        // The documented lines, run where sbatch would be: a folder whose scripts/ is the repository's.
        let docs = try String(contentsOfFile: Self.repo + "/docs/distributed.md", encoding: .utf8)
        let lines = try #require(
            Self.codeBlocks(docs).first { $0.contains("slurm-array.sbatch") && $0.contains("slurm-join.sbatch") },
            "docs/distributed.md has no block submitting slurm-array.sbatch and slurm-join.sbatch")
        try FileManager.default.createSymbolicLink(atPath: ws.file("scripts"), withDestinationPath: Self.repo + "/scripts")
        var env = slurm.environment
        env["SCENE"] = Self.scene
        env["OUT_DIR"] = ws.file("my segments")
        env["OUTPUT"] = ws.file("clip.mp4")
        env["REEL"] = reelBinary()
        env["REEL_ARGS"] = "--scale 1"
        let submit = try Self.execute(
            ["bash", "-euc", lines + "\necho \"array=$jobid\""], in: ws.path, environment: env, timeout: 30)
        #expect(submit.status == 0, "\(submit.stderr)")
        let array = try #require(Self.value(after: "array=", in: submit.stdout), "\(submit.stdout)")
        let join = try #require(Self.value(after: "Submitted batch job ", in: submit.stdout), "\(submit.stdout)")

        let state = try slurm.waitForEnd(of: join, seconds: 120)
        let logs = ws.listing().filter { $0.hasSuffix(".log") }
        let joinLog = logs.first { $0.hasPrefix("reel-join-") }.map {
            (try? String(contentsOfFile: ws.file($0), encoding: .utf8)) ?? ""
        }
        #expect(state == "COMPLETED", "join job \(join): \(state); \(joinLog ?? "no log"); \(slurm.logTail())")
        #expect(logs.filter { $0.hasPrefix("reel-render-\(array)_") }.count == 4, "\(logs)")
        #expect(ws.listing("my segments") == (0..<4).map { String(format: "segment-%05d.mp4", $0) })
        try Self.checkJoined(ws.file("clip.mp4"))
    }

    /// GNU parallel over a real SSH login to this machine (an sshd on 127.0.0.1 with its own host key
    /// and port), into a path with a space; the sshd log shows one login per shard.
    @Test(
        .enabled(if: LocalSSHServer.available, "needs root, openssh-server, openssh-client, perl and parallel (scripts/setup.sh)")
    )
    func gnuParallelOverSSH() throws {
        let ws = try Workspace()
        let sshd = try LocalSSHServer(in: ws.file("sshd"))
        defer { sshd.stop() }
        try sshd.waitUntilListening()
        let hosts = ws.write("hosts.txt", "# this machine, through sshd\n" + sshd.login + "\n")
        let (status, err) = try Self.run(
            ["bash", Self.repo + "/scripts/distributed/gnu-parallel.sh", Self.scene, ws.file("my clip.mp4"), "3"],
            environment: ["HOSTS": hosts, "REEL": reelBinary(), "REEL_ARGS": "--scale 1"])
        #expect(status == 0, "\(err)")
        try Self.checkJoined(ws.file("my clip.mp4"))
        #expect(sshd.logins() >= 3, "\(sshd.logTail())")
    }

    /// The fenced code blocks of a Markdown text.
    static func codeBlocks(_ markdown: String) -> [String] {
        let parts = markdown.components(separatedBy: "\n```")
        return stride(from: 1, to: parts.count, by: 2).map { i in
            let block = parts[i]
            return block.firstIndex(of: "\n").map { String(block[block.index(after: $0)...]) } ?? ""
        }
    }

    /// The word after `prefix` on the line holding it.
    static func value(after prefix: String, in text: String) -> String? {
        for line in text.split(separator: "\n") {
            if let r = line.range(of: prefix) {
                let rest = line[r.upperBound...].prefix { !$0.isWhitespace }
                if !rest.isEmpty { return String(rest) }
            }
        }
        return nil
    }
}

/// A process started with posix_spawn and reaped by waitpid here alone. Foundation's Process learns
/// that a child ended when a socket the child inherited closes, then blocks its one monitoring thread
/// in waitpid for it: a daemon that closes its inherited descriptors as it starts (sshd, munged) would
/// stall every other Process of the test run until it ends. The child runs in a process group of its
/// own, so `stop` ends whatever it started too, and inherits only stdin (/dev/null), stdout, stderr.
final class Spawned {
    let pid: pid_t
    private var status: Int32?

    init(_ arguments: [String], in directory: String, environment: [String: String], output: String, errors: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        // Closing a descriptor that is not open is no error for posix_spawn, so every number up to
        // past the highest open one is closed.
        let open = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
        for fd in 3..<max(1024, (open.max() ?? 0) + 64) { posix_spawn_file_actions_addclose(&actions, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), reset = sigset_t()
        sigemptyset(&none)
        sigemptyset(&reset)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGCHLD, SIGHUP] { sigaddset(&reset, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &reset)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        // env -C: the working folder (glibc's posix_spawn has no portable chdir action).
        let argv = (["/usr/bin/env", "-C", directory] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child = pid_t()
        let result = posix_spawn(&child, "/usr/bin/env", &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        pid = child
    }

    var isRunning: Bool {
        reap()
        return status == nil
    }

    /// The exit status, 128 + the signal for a process killed by one; -1 while it runs.
    var terminationStatus: Int32 {
        reap()
        return status ?? -1
    }

    private func reap() {
        guard status == nil else { return }
        var raw: Int32 = 0
        let r = waitpid(pid, &raw, WNOHANG)
        if r == pid {
            status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        } else if r == -1 && errno == ECHILD {
            status = -1
        }
    }

    /// Waits at most `seconds` for the process to end; true when it did.
    func waitForExit(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning {
            if Date() > deadline { return false }
            usleep(20_000)
        }
        return true
    }

    /// Ends the process and its group: SIGTERM, then SIGKILL if it is still there `grace` seconds later.
    func stop(grace: Double = 5) {
        guard isRunning else { return }
        kill(-pid, SIGTERM)
        if !waitForExit(seconds: grace) {
            kill(-pid, SIGKILL)
            _ = waitForExit(seconds: 5)
        }
    }

    deinit { stop() }
}

/// A TCP port nobody listens on right now (the kernel's pick), for a daemon to take.
func freePort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EMFILE) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return UInt16(bigEndian: address.sin_port)
}

/// Runs a setup command (key generation and the like) with a deadline; throws with its output on failure.
private func setUp(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
    let o = try DistributedScriptsTests.execute(arguments, environment: environment, timeout: 20)
    guard o.status == 0 else { throw SetUpError(message: "\(arguments.joined(separator: " ")): \(o.stderr)") }
    return o.stdout
}

struct SetUpError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The last lines of the log files in a folder, for failure messages.
private func tail(of logs: [String], lines: Int = 15) -> String {
    logs.map { path in
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return "--- \(path)\n" + text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }.joined(separator: "\n")
}

private func isExecutable(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

/// A one-node Slurm cluster in a folder: munged, slurmctld and slurmd in the foreground, their ports
/// picked free, their state, logs and configuration in the folder. Client commands reach it through
/// SLURM_CONF (`environment`).
final class LocalSlurm {
    static let available =
        geteuid() == 0
        && ["/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch", "/usr/bin/scontrol", "/usr/sbin/munged"]
            .allSatisfy(isExecutable)

    let folder: String
    private(set) var daemons: [Spawned] = []
    var environment: [String: String] { ["SLURM_CONF": folder + "/slurm.conf"] }
    private var logs: [String] { ["munged", "slurmctld", "slurmd"].map { "\(folder)/\($0).log" } }

    init(in folder: String) throws {
        self.folder = folder
        let fm = FileManager.default
        for sub in ["state", "spool"] {
            try fm.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        // munged wants a key only its user can read.
        var generator = SystemRandomNumberGenerator()
        let key = Data((0..<128).map { _ in UInt8.random(in: 0...255, using: &generator) })
        guard fm.createFile(atPath: folder + "/munge.key", contents: key, attributes: [.posixPermissions: 0o600]) else {
            throw SetUpError(message: "cannot write \(folder)/munge.key")
        }
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count)
        let hostname = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let short = hostname.split(separator: ".").first.map(String.init) ?? hostname
        let controllerPort = try freePort()
        var nodePort = try freePort()
        while nodePort == controllerPort { nodePort = try freePort() }
        // A node of 2 CPUs and 2 GB whatever this machine has (config_overrides): the recipe's request
        // must fit a small node. Plugins that need cgroups or a database are all off.
        let conf = """
            ClusterName=reeltest
            SlurmctldHost=\(short)(127.0.0.1)
            SlurmctldPort=\(controllerPort)
            SlurmdPort=\(nodePort)
            SlurmUser=root
            SlurmdUser=root
            AuthType=auth/munge
            AuthInfo=socket=\(folder)/munge.socket
            CredType=cred/munge
            StateSaveLocation=\(folder)/state
            SlurmdSpoolDir=\(folder)/spool
            SlurmctldPidFile=\(folder)/slurmctld.pid
            SlurmdPidFile=\(folder)/slurmd.pid
            ProctrackType=proctrack/linuxproc
            TaskPlugin=task/none
            JobAcctGatherType=jobacct_gather/none
            AccountingStorageType=accounting_storage/none
            JobCompType=jobcomp/none
            MpiDefault=none
            SwitchType=switch/none
            SchedulerType=sched/builtin
            SelectType=select/cons_tres
            SelectTypeParameters=CR_Core_Memory
            ReturnToService=2
            SlurmdParameters=config_overrides
            MailProg=/bin/true
            NodeName=reelnode NodeAddr=127.0.0.1 CPUs=2 RealMemory=2048 State=UNKNOWN
            PartitionName=reel Nodes=reelnode Default=YES MaxTime=INFINITE State=UP

            """
        try conf.write(toFile: folder + "/slurm.conf", atomically: true, encoding: .utf8)

        try start(
            [
                "/usr/sbin/munged", "--foreground", "--force", "--key-file=\(folder)/munge.key",
                "--socket=\(folder)/munge.socket", "--pid-file=\(folder)/munged.pid", "--log-file=\(folder)/munged.file.log",
                "--seed-file=\(folder)/munged.seed",
            ], log: "munged")
        // slurmd cannot register before munged answers.
        let deadline = Date().addingTimeInterval(10)
        while !fm.fileExists(atPath: folder + "/munge.socket") {
            guard Date() < deadline, daemons[0].isRunning else {
                throw SetUpError(message: "munged did not start: \(tail(of: logs))")
            }
            usleep(50_000)
        }
        try start(["/usr/sbin/slurmctld", "-D", "-i", "-f", folder + "/slurm.conf"], log: "slurmctld")
        // A slurmd that finds no controller retries its registration only after a while: start it
        // once slurmctld answers (a slurmctld that never does is reported by waitUntilIdle).
        let answered = Date().addingTimeInterval(15)
        while Date() < answered, daemons[1].isRunning, (try? client(["scontrol", "ping"]))?.stdout.contains("UP") != true {
            usleep(100_000)
        }
        try start(["/usr/sbin/slurmd", "-D", "-N", "reelnode", "-f", folder + "/slurm.conf"], log: "slurmd")
    }

    private func start(_ arguments: [String], log: String) throws {
        let path = "\(folder)/\(log).log"
        daemons.append(
            try DistributedScriptsTests.launch(arguments, in: folder, environment: environment, output: path, errors: path))
    }

    /// Runs a client command (sinfo, scontrol…) against this cluster.
    func client(_ arguments: [String]) throws -> DistributedScriptsTests.Outcome {
        try DistributedScriptsTests.execute(arguments, in: folder, environment: environment, timeout: 20)
    }

    /// Waits (at most 30 s) for the node to register; cancels the test, with the daemons' logs, when
    /// the cluster does not come up on this machine.
    func waitUntilIdle() throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && daemons.allSatisfy(\.isRunning) {
            if let state = try? client(["sinfo", "-h", "-o", "%T"]),
                state.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "idle"
            {
                return
            }
            usleep(200_000)
        }
        try Test.cancel("Slurm did not come up on this machine:\n\(logTail())")
    }

    /// Waits for a job to end and returns its final state (or what it was when `seconds` ran out,
    /// with the scheduler's reason for a job still pending).
    func waitForEnd(of job: String, seconds: Double) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var state = "UNKNOWN"
        while Date() < deadline {
            let show = try client(["scontrol", "show", "job", "-o", job]).stdout
            if let s = DistributedScriptsTests.value(after: "JobState=", in: show) { state = s }
            if ["COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY"].contains(state) { return state }
            usleep(250_000)
        }
        let queue = (try? client(["squeue", "-o", "%i %j %T %r"]).stdout) ?? ""
        return "\(state) after \(Int(seconds)) s; squeue:\n\(queue)"
    }

    func logTail() -> String { tail(of: logs) }

    /// Cancels what is left of the jobs, then ends the daemons, newest first.
    func stop() {
        if !daemons.isEmpty, daemons.allSatisfy(\.isRunning) { _ = try? client(["scancel", "--user=root"]) }
        // Nothing of their state is kept, so they get a second to stop cleanly, all at once.
        for daemon in daemons.reversed() where daemon.isRunning { kill(-daemon.pid, SIGTERM) }
        for daemon in daemons.reversed() { daemon.stop(grace: 1) }
        daemons = []
    }

    deinit { stop() }
}

/// An sshd on 127.0.0.1 and a free port, with a host key and a client key made for it; `login` is the
/// ssh command line that reaches it as root, as GNU parallel's --sshloginfile takes it.
final class LocalSSHServer {
    static let available =
        geteuid() == 0
        && ["/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/ssh-keygen", "/usr/bin/perl", "/usr/bin/parallel"]
            .allSatisfy(isExecutable)

    let folder: String
    let port: UInt16
    private var daemon: Spawned?
    private var log: String { folder + "/sshd.log" }

    init(in folder: String) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for key in ["host", "client"] {
            _ = try setUp(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "reel-test", "-f", "\(folder)/\(key)_key"])
        }
        try FileManager.default.copyItem(atPath: folder + "/client_key.pub", toPath: folder + "/authorized_keys")
        port = try freePort()
        let config = """
            ListenAddress 127.0.0.1:\(port)
            HostKey \(folder)/host_key
            AuthorizedKeysFile \(folder)/authorized_keys
            PidFile \(folder)/sshd.pid
            PermitRootLogin prohibit-password
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            UsePAM no
            StrictModes no

            """
        try config.write(toFile: folder + "/sshd_config", atomically: true, encoding: .utf8)
        // sshd refuses to start without its privilege-separation folder, which the Debian service
        // creates when it starts; here nothing has.
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        daemon = try DistributedScriptsTests.launch(
            ["/usr/sbin/sshd", "-D", "-e", "-f", folder + "/sshd_config"], in: folder, environment: [:], output: log,
            errors: log)
    }

    var login: String {
        "ssh -p \(port) -i \(folder)/client_key -o BatchMode=yes -o StrictHostKeyChecking=no"
            + " -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=10 root@127.0.0.1"
    }

    /// Waits (at most 10 s) for sshd to listen; cancels the test, with its log, when it does not.
    func waitUntilListening() throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, daemon?.isRunning == true {
            if ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("Server listening") { return }
            usleep(50_000)
        }
        try Test.cancel("sshd did not start on this machine:\n\(logTail())")
    }

    /// How many logins sshd accepted.
    func logins() -> Int {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").components(separatedBy: "Accepted publickey for root").count
            - 1
    }

    func logTail() -> String { tail(of: [log], lines: 30) }

    func stop() {
        daemon?.stop(grace: 1)
        daemon = nil
    }

    deinit { stop() }
}
