// The render's progress on stderr, and the process's peak memory for --stats.
import Foundation
import Reel

/// Draws the progress on stderr: a bar redrawn in place (at most 10 times a second) or one JSON line a
/// second, and always the last state.
final class ProgressReporter {
    let kind: ProgressKind
    private var lastDraw = -Double.infinity
    private var last: RenderProgress?
    private var drewBar = false

    init(kind: ProgressKind) { self.kind = kind }

    func report(_ p: RenderProgress) {
        last = p
        let interval = kind == .json ? 1.0 : 0.1
        guard kind != .none, p.elapsed - lastDraw >= interval || p.frame == p.total else { return }
        lastDraw = p.elapsed
        draw(p)
    }

    /// The bar and its figures, as the command line draws them (`reel preview`'s export shows the same).
    static func line(_ p: RenderProgress) -> String {
        let size = ByteCountFormatter.string(fromByteCount: Int64(p.bytes), countStyle: .file)
        let width = 30, filled = p.total > 0 ? width * p.frame / p.total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        return
            "\(bar) \(p.frame)/\(p.total) frames  \(String(format: "%.1f", p.rate)) fps  ETA \(String(format: "%.1f", p.remaining)) s  \(size)"
    }

    private func draw(_ p: RenderProgress) {
        Console.say(
            .progress(
                bar: "\r\(Self.line(p))  ",
                fields: [
                    ("frame", .int(p.frame)), ("frames", .int(p.total)), ("fps", .fixed(p.rate)), ("eta", .fixed(p.remaining)),
                    ("bytes", .int(p.bytes)), ("elapsed", .fixed(p.elapsed)),
                ]))
        drewBar = kind == .bar
    }

    func finish() {
        if drewBar { Console.say(.endBar(clear: false)) }
        drewBar = false
    }
}

/// VmHWM of this process, from /proc (0 where there is none).
func peakResidentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first { Int($0) != nil }.flatMap { Int($0) } ?? 0)
    }
    return 0
}
