/// Running a batch plan: outputs rendered concurrently on a shared budget of cores and memory, each
/// ending with an outcome.
import Foundation
import ReelMedia
import ReelScene

/// How one output of a batch ended.
public enum BatchOutcome: Sendable, Equatable {
    case waiting
    case running(frame: Int, total: Int)
    case rendered(frames: Int, seconds: Double)
    /// Up to date: the output exists and its inputs hash as recorded.
    case skipped(frames: Int)
    case failed(Message)
    /// Not started: the batch stopped first (fail-fast, Ctrl-C).
    case notRun(Message)

    public var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
    public var isFinished: Bool {
        switch self {
        case .waiting, .running: return false
        default: return true
        }
    }
}

/// Runs a batch plan: outputs rendered concurrently on a shared budget of cores and memory.
///
/// - `concurrency` outputs render at once (default: the machine's cores); each gets
///   `cores / concurrency` frame workers (at least one) and one band thread, so the batch keeps every
///   core busy without oversubscribing it. The encoder's own threads come on top, as in a single render.
/// - An output starts only when the memory the running ones are estimated to need (frames in flight
///   plus the encoder's working set) leaves room for it under `memoryLimit`; one alone always starts,
///   unless it alone is over the limit (then it fails with that message).
/// - A failing output never stops the others unless `failFast`; Ctrl-C stops them all.
/// - An output whose file exists and whose recorded inputs hash (scene, images, settings, version) is
///   the same is skipped unless `force`; each finished output gets its record
///   (`.NAME.reel-batch`) only after the output itself is in place.
public final class BatchRunner: @unchecked Sendable {
    public let plan: BatchPlan
    public let concurrency: Int
    public let memoryLimit: Int
    /// What each job's decoded pictures may take (`PictureBudget`).
    public let pictures: PictureBudget
    public let force: Bool
    public let failFast: Bool
    /// Called (from worker threads) with each failure's full message, as it happens.
    public var onFailure: @Sendable (String, Message) -> Void = { _, _ in }

    private let lock = NSCondition()
    private var outcomes: [[BatchOutcome]]
    private var next = 0
    private var reserved = 0
    private var running = 0
    /// The jobs' own token: a signal reaches them through `cancellation`, `failFast` stops them alone.
    private let jobs: Cancellation
    private let items: [(job: Int, output: Int)]
    public let started = Date()

    public init(
        plan: BatchPlan, concurrency: Int? = nil, memoryLimit: Int? = nil, force: Bool = false, failFast: Bool = false,
        cancellation: Cancellation = Cancellation()
    ) {
        self.plan = plan
        jobs = Cancellation(parent: cancellation)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        self.concurrency = max(1, concurrency ?? plan.concurrency ?? cores)
        self.memoryLimit = memoryLimit ?? plan.memoryLimit ?? Int(ProcessInfo.processInfo.physicalMemory / 2)
        // Jobs load before they wait for room under the limit: each decodes at most its part of the
        // pictures' share.
        pictures = PictureBudget(memoryLimit: memoryLimit ?? plan.memoryLimit, jobs: self.concurrency)
        self.force = force
        self.failFast = failFast
        outcomes = plan.jobs.map { Array(repeating: .waiting, count: $0.outputs.count) }
        items = plan.jobs.indices.flatMap { j in plan.jobs[j].outputs.indices.map { (j, $0) } }
    }

    /// A snapshot of every output's state, by job.
    public var snapshot: [[BatchOutcome]] { lock.withLock { outcomes } }

    /// Renders everything; returns when every output has an outcome.
    public func run() {
        let threads = min(concurrency, max(1, items.count))
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            let thread = Thread { [self] in
                work()
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
    }

    private func set(_ item: (job: Int, output: Int), _ outcome: BatchOutcome) {
        lock.withLock { outcomes[item.job][item.output] = outcome }
    }

    private func stopMessage() -> Message? {
        switch jobs.reason {
        case nil: return nil
        case .signal(let sig): return "interrupted by signal \(sig)"
        case .stopped(let why): return why
        }
    }

    private func work() {
        while true {
            lock.lock()
            guard next < items.count else {
                lock.unlock()
                return
            }
            let item = items[next]
            next += 1
            lock.unlock()
            if let reason = stopMessage() {
                set(item, .notRun(reason))
                continue
            }
            let job = plan.jobs[item.job], output = job.outputs[item.output]
            do {
                set(item, try render(job, output, item))
            } catch .stopped(let reason) {
                set(item, .notRun(reason))  // stopped in the middle: nothing was written
            } catch .cancelled(let signal) {
                set(item, .notRun("interrupted by signal \(signal)"))
            } catch {
                let message = error.message
                set(item, .failed(message))
                onFailure(output.path, message)
                if failFast { jobs.cancel(.stopped("another job failed (\(Setting.failFast))")) }
            }
        }
    }

    private func render(_ job: BatchJob, _ output: BatchOutput, _ item: (job: Int, output: Int)) throws(ReelError)
        -> BatchOutcome
    {
        let clip = try Reel.load(job.scene, overrides: output.overrides, sandboxed: plan.sandboxed, pictures: pictures)
        let inputs = Reel.inputFiles(of: clip.scene, path: job.scene)
        try Reel.checkNotAnInput(output.path, inputs: inputs + [plan.manifest] + (job.table.map { [$0] } ?? []))
        let hash = Reel.inputsHash(settings: output.settings, files: inputs)
        // A killed run's temporaries go whether or not this output needs rendering again (a killed
        // `--force` run leaves them beside outputs that are up to date).
        Self.removeStaleTemporaries(of: output.path)
        if !force, FileManager.default.fileExists(atPath: output.path), let stamp = BatchStamp.read(for: output.path),
            stamp.inputs == hash
        {
            return .skipped(frames: stamp.frames)
        }
        // A batch writes trees of outputs: their folders are made as needed (a single render refuses).
        let parent = URL(fileURLWithPath: output.path.hasSuffix("/") ? String(output.path.dropLast()) : output.path)
            .deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw .usage("\(output.path): cannot create the folder \(parent): \(error.localizedDescription)", fix: nil)
        }
        var options = output.options
        let cores = ProcessInfo.processInfo.activeProcessorCount
        options.workers = max(1, cores / concurrency)
        options.threads = 1
        let container = try Reel.container(for: output.path, codec: options.codec)
        let codec = options.codec ?? container.defaultCodec
        let need = Reel.estimatedMemory(
            of: clip, width: clip.scene.pixelWidth, height: clip.scene.pixelHeight, codec: codec, workers: options.workers,
            threads: options.threads
        ).total
        if need > memoryLimit {
            throw .usage(
                "\(output.path): needs about \(need >> 20) MiB, more than the batch's memory limit of \(memoryLimit >> 20) MiB",
                fix: "raise \(Setting.memoryLimit) or render it smaller")
        }
        // Wait for room under the memory limit (one output alone always has it).
        lock.lock()
        while running > 0 && reserved + need > memoryLimit && jobs.reason == nil {
            _ = lock.wait(until: Date(timeIntervalSinceNow: 0.1))
        }
        reserved += need
        running += 1
        outcomes[item.job][item.output] = .running(frame: 0, total: 0)
        lock.unlock()
        defer {
            lock.lock()
            reserved -= need
            running -= 1
            lock.broadcast()
            lock.unlock()
        }
        if let reason = stopMessage() { return .notRun(reason) }
        options.memoryLimit = memoryLimit
        options.cancellation = jobs
        let summary: RenderSummary
        if let budget = options.maxBytes {
            let (scene, sandboxed, pictures) = (job.scene, plan.sandboxed, pictures)
            summary = try Reel.renderGIF(
                within: budget, clip: clip,
                load: { (o) throws(ReelError) in
                    try Reel.load(scene, overrides: o, sandboxed: sandboxed, pictures: pictures)
                },
                overrides: output.overrides, to: output.path, options: options,
                progress: { [self] p in set(item, .running(frame: p.frame, total: p.total)) })
        } else {
            summary = try Reel.render(
                clip, to: output.path, options: options,
                progress: { [self] p in set(item, .running(frame: p.frame, total: p.total)) })
        }
        do {
            try BatchStamp(reel: ReelVersion.string, inputs: hash, frames: summary.frames).write(for: output.path)
        } catch {
            throw .usage("\(error)", fix: nil)
        }
        return .rendered(frames: summary.frames, seconds: summary.seconds)
    }

    /// Removes the temporary files of `output` left by a process that no longer runs (killed with
    /// `kill -9`, say): `.NAME.PID-RANDOM.reel-tmp`.
    static func removeStaleTemporaries(of output: String) {
        let target = output.count > 1 && output.hasSuffix("/") ? String(output.dropLast()) : output
        let url = URL(fileURLWithPath: target)
        let dir = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent)."
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard rest.contains(".reel-tmp"), let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]) else {
                continue
            }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: (dir as NSString).appendingPathComponent(name))
            }
        }
    }
}
