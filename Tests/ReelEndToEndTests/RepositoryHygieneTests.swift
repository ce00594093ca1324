// Nothing tracked depends on the committer's machine: no symbolic links, no absolute paths into its scratch or home folders.
import Foundation
import Testing

/// Nothing in the repository may depend on the machine that committed it: a fresh clone must behave
/// as the working copy it came from. Two ways that went wrong before: a symbolic link committed into
/// a folder outside the repository (`.venv-manim`, which then made `python3 -m venv` fail in every
/// clone and the benchmark skip Manim), and absolute paths into a machine's scratch or home folders.
@Suite struct RepositoryHygieneTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Documented examples that name a scratch folder on purpose: the reader runs them on their own
    /// machine, and nothing in the repository reads or writes that folder. Each entry is a file and
    /// the exact path it may show.
    static let examples: Set<String> = []

    /// `git ls-files -s -z` in the repository: (mode, path) of every tracked file; nil without git or
    /// outside a clone.
    static func trackedFiles() throws -> [(mode: String, path: String)]? {
        guard FileManager.default.fileExists(atPath: repo + "/.git") else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["git", "-C", repo, "ls-files", "-s", "-z"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        // Each entry: "<mode> <object> <stage>\t<path>\0".
        return String(decoding: data, as: UTF8.self).split(separator: "\0").compactMap { entry in
            guard let tab = entry.firstIndex(of: "\t") else { return nil }
            let mode = entry[..<tab].split(separator: " ").first.map(String.init) ?? ""
            return (mode, String(entry[entry.index(after: tab)...]))
        }
    }

    /// The absolute paths into the machine's scratch folder ("/" "tmp") or root's home ("/" "root")
    /// that `text` mentions, with what follows up to the first character no path holds; a relative
    /// path ending in either name, or a longer word starting with one, is not.
    static func machinePaths(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        func isPathByte(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "~")
                || b == UInt8(ascii: "/") || b == UInt8(ascii: "$") || b == UInt8(ascii: "}")
        }
        var found: [String] = []
        for folder in ["tmp", "root"] {
            let needle = Array(("/" + folder).utf8)
            var i = 0
            while i + needle.count <= bytes.count {
                defer { i += 1 }
                guard bytes[i..<i + needle.count].elementsEqual(needle) else { continue }
                if i > 0 && isPathByte(bytes[i - 1]) { continue }
                let end = i + needle.count
                if end < bytes.count && isPathByte(bytes[end]) && bytes[end] != UInt8(ascii: "/") { continue }
                var j = end
                while j < bytes.count && isPathByte(bytes[j]) { j += 1 }
                found.append(String(decoding: bytes[i..<j], as: UTF8.self))
            }
        }
        return found
    }

    @Test func pathDetectorFindsAbsolutePathsOnly() {
        let t = "/" + "tmp"
        let r = "/" + "root"
        #expect(Self.machinePaths(in: "ln -s \(t)/venv-manim x") == ["\(t)/venv-manim"])
        #expect(Self.machinePaths(in: "cd \(r)/.cache; ls \(t)") == ["\(t)", "\(r)/.cache"])
        #expect(Self.machinePaths(in: "out\(t)/a \(t)fs \(r)s $TMPDIR/x ${HOME}\(t)") == [])
        #expect(Self.machinePaths(in: "\"\(t)/x\" `\(t)/y`") == ["\(t)/x", "\(t)/y"])
    }

    /// No tracked symbolic link: a link points into the committer's machine, or at best duplicates
    /// a file. Folders that scripts make (virtual environments, builds) are git-ignored instead.
    @Test func noTrackedSymbolicLinks() throws {
        guard let files = try Self.trackedFiles() else {
            print("RepositoryHygieneTests: no git or no .git here (an export, not a clone); skipped")
            return
        }
        let links = files.filter { $0.mode == "120000" }.map(\.path)
        #expect(links.isEmpty, "tracked symbolic links (git rm --cached them, ignore them): \(links)")
    }

    /// No tracked text file names an absolute path under the machine's scratch folder or root's home,
    /// but for the documented examples above.
    @Test func noMachineSpecificPaths() throws {
        guard let files = try Self.trackedFiles() else {
            print("RepositoryHygieneTests: no git or no .git here (an export, not a clone); skipped")
            return
        }
        var offenders: [String] = []
        var usedExamples: Set<String> = []
        for file in files where file.mode != "120000" && file.mode != "160000" {
            guard let data = FileManager.default.contents(atPath: Self.repo + "/" + file.path),
                !data.contains(0)  // binary (images, goldens)
            else { continue }
            for path in Self.machinePaths(in: String(decoding: data, as: UTF8.self)) {
                let key = file.path + " " + path
                if Self.examples.contains(key) {
                    usedExamples.insert(key)
                } else {
                    offenders.append("\(file.path): \(path)")
                }
            }
        }
        #expect(offenders.isEmpty, "machine-specific paths in tracked files: \(offenders)")
        // An exemption that no longer matches anything is removed, so the list cannot grow stale.
        #expect(usedExamples == Self.examples, "unused exemptions: \(Self.examples.subtracting(usedExamples))")
    }

    /// Every Swift file's first line is a comment saying what the file holds (DESIGN.md's style), so
    /// a reader can tell from the first line of each which one to open.
    @Test func everySwiftFileSaysWhatItHolds() throws {
        guard let files = try Self.trackedFiles() else {
            print("RepositoryHygieneTests: no git or no .git here (an export, not a clone); skipped")
            return
        }
        var missing: [String] = []
        for file in files where file.path.hasSuffix(".swift") {
            let text = (try? String(contentsOfFile: Self.repo + "/" + file.path, encoding: .utf8)) ?? ""
            let first = text.prefix { $0 != "\n" }
            if !first.hasPrefix("//") || first.trimmingCharacters(in: CharacterSet(charactersIn: "/ ")).isEmpty {
                missing.append(file.path)
            }
        }
        #expect(missing.isEmpty, "Swift files whose first line is not a comment saying what they hold: \(missing)")
    }
}
