// Every command's --help against docs/cli-reference.md, line for line at 80 columns: the reference cannot drift from the binary.
import Foundation
import Testing

/// docs/cli-reference.md is written by scripts/cli-reference.sh; a change to the options shows here
/// as a difference to review (as swift-argument-parser tests its own help). After a deliberate
/// change, run the script and read its diff.
@Suite struct HelpTests {
    static let reference: [String: [String]] = {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = (try? String(contentsOf: repo.appendingPathComponent("docs/cli-reference.md"), encoding: .utf8)) ?? ""
        var sections: [String: [String]] = [:]
        var command: String?
        var lines: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## reel") {
                command = String(line.dropFirst("## reel".count)).trimmingCharacters(in: .whitespaces)
            } else if line == "```text" {
                lines = []
            } else if line == "```", let c = command, let l = lines {
                sections[c] = l
                lines = nil
            } else if lines != nil {
                lines!.append(line)
            }
        }
        return sections
    }()

    @Test(arguments: [
        "", "render", "batch", "concat", "still", "preview", "sheet", "presets", "fonts", "timeline", "info", "record",
    ])
    func helpMatchesTheReference(_ command: String) throws {
        // ArgumentParser wraps to the terminal, or to COLUMNS.
        let r = try runReel(command.split(separator: " ").map(String.init) + ["--help"], environment: ["COLUMNS": "80"])
        #expect(r.status == 0)
        let want = try #require(Self.reference[command], "docs/cli-reference.md has no section for reel \(command)")
        // Compared without the blank lines ArgumentParser ends with.
        var got = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while got.last == "" { got.removeLast() }
        for (i, line) in want.enumerated() where i >= got.count || got[i] != line {
            Issue.record(
                "reel \(command) --help, line \(i + 1): expected \"\(line)\", got \"\(i < got.count ? got[i] : "(end)")\"")
            break
        }
        #expect(got.count == want.count, "reel \(command) --help has \(got.count) lines, the reference \(want.count)")
    }

    /// The reference holds every subcommand reel lists, and nothing else.
    @Test func referenceCoversEverySubcommand() throws {
        let r = try runReel(["--help"], environment: ["COLUMNS": "80"])
        // The block under SUBCOMMANDS:, up to its blank line.
        let block = r.stdout.components(separatedBy: "SUBCOMMANDS:\n").last!.components(separatedBy: "\n\n")[0]
        let listed = block.split(separator: "\n")
            .compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let first = words.first else { return nil }
                return String(first)
            }
            .filter { $0 != "help" }
        #expect(Set(Self.reference.keys) == Set(listed + [""]), "\(Self.reference.keys.sorted()) vs \(listed)")
    }
}
