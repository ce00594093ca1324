// A batch run on the terminal: the live line, the summary table and the dry-run listing, for
// `reel batch` and `reel render --rows`.
import ArgumentParser
import Foundation
import Reel

struct BatchConsole {
    var concurrency: Int?
    /// Bytes.
    var memoryLimit: Int?
    var force: Bool
    var failFast: Bool
    var progress: ProgressKind

    /// Renders the plan's outputs, drawing progress as it goes, then prints the summary; exits 1 if
    /// any output failed.
    func run(_ plan: BatchPlan) throws {
        let runner = BatchRunner(
            plan: plan, concurrency: concurrency, memoryLimit: memoryLimit, force: force, failFast: failFast,
            cancellation: Interrupts.cancellation)
        runner.onFailure = { path, message in Console.say(.failed(output: path, message: message.forCommandLine)) }
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            runner.run()
            done.signal()
        }
        thread.start()
        var lastJSON = Date.distantPast
        var drew = false
        while done.wait(timeout: .now() + 0.2) == .timedOut {
            if progress == .bar {
                Console.say(.progress(bar: "\r" + barLine(runner) + "\u{1B}[K", fields: []))
                drew = true
            } else if progress == .json, Date().timeIntervalSince(lastJSON) >= 1 {
                Console.say(.progress(bar: "", fields: progressFields(runner)))
                lastJSON = Date()
            }
        }
        if drew { Console.say(.endBar(clear: true)) }
        let outcomes = runner.snapshot
        let seconds = Date().timeIntervalSince(runner.started)
        print(summaryTable(plan, outcomes, seconds: seconds))
        if let sig = Interrupts.pendingSignal {
            throw CommandFailure(message: "interrupted by signal \(sig); outputs in progress were not written", exit: 128 + sig)
        }
        let failed = outcomes.joined().contains(where: { $0.isFailure })
        // The summary table on stdout is for people; scripts get the counts as the last stderr line.
        if Console.isJSON {
            let c = counts(outcomes)
            Console.say(
                .done(
                    text: "",
                    fields: [
                        ("outputs", .int(c.total)), ("rendered", .int(c.done)), ("skipped", .int(c.skipped)),
                        ("failed", .int(c.failed)), ("notRun", .int(c.total - c.done - c.skipped - c.failed)),
                        ("seconds", .fixed(seconds)), ("exit", .int(failed ? 1 : 0)),
                    ]))
        }
        if failed { throw ExitCode(1) }
    }

    func counts(_ outcomes: [[BatchOutcome]]) -> (done: Int, failed: Int, skipped: Int, total: Int) {
        let all = outcomes.joined()
        return (
            all.filter { if case .rendered = $0 { return true } else { return false } }.count,
            all.filter(\.isFailure).count,
            all.filter { if case .skipped = $0 { return true } else { return false } }.count, all.count
        )
    }

    func barLine(_ runner: BatchRunner) -> String {
        let outcomes = runner.snapshot
        let c = counts(outcomes)
        let running = self.running(runner.plan, outcomes).map { r in
            let name = URL(fileURLWithPath: r.path).lastPathComponent
            return r.total > 0 ? "\(name) \(100 * r.frame / r.total)%" : name
        }
        let finished = c.done + c.failed + c.skipped
        return "batch \(finished)/\(c.total)  \(c.done) rendered, \(c.skipped) up to date, \(c.failed) failed  "
            + String(format: "%.0f s", Date().timeIntervalSince(runner.started))
            + (running.isEmpty ? "" : "  │ " + running.prefix(4).joined(separator: ", "))
    }

    func progressFields(_ runner: BatchRunner) -> [(String, JSONValue)] {
        let outcomes = runner.snapshot
        let c = counts(outcomes)
        let running = self.running(runner.plan, outcomes).map {
            JSONValue.object([("output", .string($0.path)), ("frame", .int($0.frame)), ("frames", .int($0.total))])
        }
        return [
            ("outputs", .int(c.total)), ("rendered", .int(c.done)), ("skipped", .int(c.skipped)), ("failed", .int(c.failed)),
            ("elapsed", .fixed(Date().timeIntervalSince(runner.started))), ("running", .array(running)),
        ]
    }

    /// The outputs being rendered, with their progress.
    func running(_ plan: BatchPlan, _ outcomes: [[BatchOutcome]]) -> [(path: String, frame: Int, total: Int)] {
        var out: [(path: String, frame: Int, total: Int)] = []
        for (j, job) in plan.jobs.enumerated() {
            for (k, o) in outcomes[j].enumerated() {
                if case .running(let f, let t) = o { out.append((job.outputs[k].path, f, t)) }
            }
        }
        return out
    }

    /// Job, outputs, frames, seconds, status: one row per job.
    func summaryTable(_ plan: BatchPlan, _ outcomes: [[BatchOutcome]], seconds: Double) -> String {
        var rows: [[String]] = [["job", "outputs", "frames", "seconds", "status"]]
        for (j, job) in plan.jobs.enumerated() {
            var frames = 0, time = 0.0
            var rendered = 0, skipped = 0
            var failures: [String] = [], notRun: String?
            for o in outcomes[j] {
                switch o {
                case .rendered(let f, let s):
                    frames += f
                    time += s
                    rendered += 1
                case .skipped(let f):
                    frames += f
                    skipped += 1
                case .failed(let message):
                    let m = message.forCommandLine
                    failures.append(m.split(separator: "\n").first.map(String.init) ?? m)
                case .notRun(let r): notRun = r.forCommandLine
                default: break
                }
            }
            let status: String
            if let first = failures.first {
                status = "FAILED: \(first)"
            } else if let notRun {
                status = "not run: \(notRun)"
            } else if skipped == outcomes[j].count {
                status = "up to date"
            } else {
                status = skipped > 0 ? "ok (\(skipped) up to date)" : "ok"
            }
            rows.append([
                job.name, "\(job.outputs.count)", "\(frames)", rendered > 0 ? String(format: "%.2f", time) : "-", status,
            ])
        }
        let widths = (0..<4).map { i in rows.map { $0[i].count }.max() ?? 0 }
        var lines = rows.map { row in
            (0..<4).map { i in
                i == 0
                    ? row[i].padding(toLength: widths[i], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[i] - row[i].count) + row[i]
            }.joined(separator: "  ") + "  " + row[4]
        }
        let c = counts(outcomes)
        lines.append(
            "\(c.total) outputs: \(c.done) rendered, \(c.skipped) up to date, \(c.failed) failed, \(c.total - c.done - c.skipped - c.failed) not run, in \(String(format: "%.1f", seconds)) s"
        )
        return lines.joined(separator: "\n")
    }

    func printPlan(_ plan: BatchPlan) {
        print("\(plan.jobs.count) jobs, \(plan.jobs.map(\.outputs.count).reduce(0, +)) outputs from \(plan.manifest):")
        for job in plan.jobs {
            let vars = job.variables.keys.sorted().map { "\($0)=\(Reel.variableText(job.variables[$0]!))" }
            print("\(job.name): \(job.scene)\(vars.isEmpty ? "" : "  [" + vars.joined(separator: ", ") + "]")")
            for o in job.outputs {
                let state = force ? "render (--force)" : (Reel.isUpToDate(job, o) ? "up to date" : "render")
                print("  → \(o.path)  \(state)")
            }
        }
    }
}
