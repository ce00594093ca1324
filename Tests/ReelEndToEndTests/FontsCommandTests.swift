/// `reel fonts`: the installed faces in aligned columns grouped by family, or as JSON, checked against what
/// `fc-list` itself prints; a pattern that matches nothing is a note, not a failure.
import Foundation
import Testing

@Suite struct FontsCommandTests {
    static let inter = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    static func installed(_ path: String, by test: String = #function) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else {
            print("FontsCommandTests.\(test): \(path) is not installed (scripts/setup.sh installs it); skipped")
            return false
        }
        return true
    }

    @Test func listsFacesInAlignedColumnsGroupedByFamily() throws {
        guard Self.installed(Self.inter) else { return }
        let r = try runReel(["fonts", "Inter"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        // Inter and Inter Display, 18 faces each (fonts-inter).
        #expect(lines.count == 36)
        let rows = lines.map {
            $0.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        #expect(
            rows.contains([
                "Inter", "Semi Bold Italic", "Inter-SemiBoldItalic", "/usr/share/fonts/opentype/inter/Inter-SemiBoldItalic.otf",
            ]))
        #expect(rows.contains(["Inter", "Regular", "Inter-Regular", Self.inter]))
        // Every column starts at the same offset on every line.
        for column in 1..<4 {
            let starts = Set(
                zip(lines, rows).map { line, row in line.range(of: "  " + row[column])?.lowerBound.utf16Offset(in: line) })
            #expect(starts.count == 1, "column \(column + 1)")
        }
        // Grouped: each family's faces are consecutive.
        let families = rows.map(\.[0])
        #expect(families == families.sorted())
        #expect(Set(families) == ["Inter", "Inter Display"])
    }

    @Test func jsonHasFamilyStylePostScriptNameAndFile() throws {
        guard Self.installed(Self.dejaVu) else { return }
        let r = try runReel(["fonts", "--json", "DejaVu"])
        #expect(r.status == 0)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: String]])
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { Set($0.keys) == ["family", "style", "postScriptName", "file"] })
        #expect(entries.allSatisfy { $0["family"]?.hasPrefix("DejaVu") == true })
        #expect(
            entries.contains([
                "family": "DejaVu Sans", "style": "Bold", "postScriptName": "DejaVuSans-Bold",
                "file": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
            ]))
        #expect(
            entries.contains(["family": "DejaVu Sans", "style": "Book", "postScriptName": "DejaVuSans", "file": Self.dejaVu]))
    }

    /// The same faces as fontconfig's own command lists (one line per face there too).
    @Test func everyFaceFcListShows() throws {
        let fcList = "/usr/bin/fc-list"
        guard FileManager.default.isExecutableFile(atPath: fcList) else {
            print("FontsCommandTests: \(fcList) is not installed (fontconfig); skipped")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: fcList)
        process.arguments = ["--format", "%{postscriptname}\t%{file}\n"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let listed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let expected = Set(listed.split(separator: "\n").map(String.init))
        let r = try runReel(["fonts", "--json"])
        #expect(r.status == 0)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: String]])
        #expect(Set(entries.map { "\($0["postScriptName"] ?? "")\t\($0["file"] ?? "")" }) == expected)
        #expect(entries.count == expected.count)
    }

    @Test func noMatchIsANoteAndSuccess() throws {
        let r = try runReel(["fonts", "nosuchfont"])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "note: no installed font's name contains \"nosuchfont\"\n")
        let json = try runReel(["fonts", "--json", "nosuchfont"])
        #expect(json.status == 0)
        #expect(json.stdout == "[]\n")
        guard Self.installed(Self.inter) else { return }
        let misspelt = try runReel(["fonts", "Intr"])
        #expect(misspelt.status == 0)
        #expect(misspelt.stderr.contains("did you mean \"Inter\""))
    }
}
