/// The help of every command matches its snapshot (HelpSnapshots.swift) line for line, at 80 columns.
import Foundation
import Testing

@Suite struct HelpTests {
    @Test(arguments: ["", "render", "batch", "concat", "still", "preview", "sheet", "presets", "fonts", "timeline", "info"])
    func helpMatchesItsSnapshot(_ command: String) throws {
        // ArgumentParser wraps to the terminal, or to COLUMNS.
        let r = try runReel(command.split(separator: " ").map(String.init) + ["--help"], environment: ["COLUMNS": "80"])
        #expect(r.status == 0)
        let text = r.stdout
        let expected = try #require(helpSnapshots[command])
        // Compared without the blank lines ArgumentParser ends with.
        func lines(_ s: String) -> [String] {
            var l = s.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            while l.last == "" { l.removeLast() }
            return l
        }
        let got = lines(text), want = lines(expected)
        for (i, line) in want.enumerated() where i >= got.count || got[i] != line {
            Issue.record(
                "reel \(command) --help, line \(i + 1): expected \"\(line)\", got \"\(i < got.count ? got[i] : "(end)")\"")
            break
        }
        #expect(got.count == want.count, "reel \(command) --help has \(got.count) lines, its snapshot \(want.count)")
    }
}
