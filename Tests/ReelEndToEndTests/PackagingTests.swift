// Distribution (issue #46): what `reel --version` reports, the completions, the version the packages are named by, the image's recipe, and the install tests.
import Foundation
import Reel
import ReelRaster
import Testing
import Yams

@Suite struct PackagingTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Runs a program (looked up on PATH by /usr/bin/env) in the repository.
    static func run(_ arguments: [String]) throws -> RunResult {
        try runProgram("/usr/bin/env", arguments, directory: repo)
    }

    static func hasProgram(_ name: String) -> Bool { (try? run(["sh", "-c", "command -v \(name)"]).status) == 0 }

    /// Each line of `reel --version` against a source that is not Reel: git for the commit, the ffmpeg
    /// program (the same Debian libraries) for FFmpeg's versions, pkg-config for HarfBuzz's, and for
    /// x264 the text x264 writes into a file the ffmpeg program encodes with it.
    @Test func versionNamesWhatTheBytesDependOn() throws {
        let r = try runReel(["--version"])
        #expect(r.status == 0, "\(r.stderr)")
        var lines: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { lines[parts[0]] = parts[1] }
        }
        #expect(r.stdout.hasPrefix("reel \(ReelVersion.string)\n"), "the first line is ArgumentParser's: \(r.stdout)")

        if FileManager.default.fileExists(atPath: Self.repo + "/.git"), Self.hasProgram("git") {
            let head = try Self.run(["git", "rev-parse", "--short=12", "HEAD"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let commit = try #require(lines["commit"])
            // The binary was built from HEAD, or from HEAD with changes not yet committed.
            #expect(commit == head || commit == head + " with uncommitted changes", "\(commit) vs HEAD \(head)")
        } else {
            Issue.record("no git checkout here: the commit line is not checked")
        }

        let banner = try Self.run(["ffmpeg", "-version"]).stdout
        // "ffmpeg version 5.1.9-0+deb12u1 Copyright …" and "libavcodec     59. 37.100 / 59. 37.100".
        let release = banner.split(separator: "\n")[0].split(separator: " ")[2]
        let ffmpegLine = try #require(lines["ffmpeg"])
        #expect(ffmpegLine.hasPrefix(String(release) + " ("), "\(ffmpegLine) vs \(release)")
        for library in ["libavcodec", "libavformat", "libswscale", "libswresample"] {
            let row = try #require(banner.split(separator: "\n").first { $0.hasPrefix(library + " ") })
            // The version as loaded: after the slash.
            let loaded = row.split(separator: "/")[1].replacingOccurrences(of: " ", with: "")
            #expect(ffmpegLine.contains("\(library) \(loaded)"), "\(ffmpegLine) vs \(row)")
        }

        let harfbuzz = try Self.run(["pkg-config", "--modversion", "harfbuzz"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(lines["harfbuzz"] == harfbuzz)

        let ws = try Workspace()
        let encoded = try Self.run([
            "ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=size=16x16:duration=0.04", "-c:v", "libx264", "-y",
            ws.file("x.mp4"),
        ])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ws.file("x.mp4")))
        let text = String(decoding: bytes.map { (32...126).contains($0) ? $0 : 10 }, as: UTF8.self)
        let sei = try #require(text.split(separator: "\n").first { $0.hasPrefix("x264 - core ") })
        // "x264 - core 164 r3095 baee400 - H.264/MPEG-4 AVC codec - …"
        let core = sei.dropFirst("x264 - ".count).components(separatedBy: " - ")[0]
        #expect(lines["x264"] == core, "\(lines["x264"] ?? "none") vs \(core)")
    }

    /// The kernels line: the widest variant this CPU runs, or the one REEL_KERNELS forces; a value that
    /// is no variant is said there, and stops a render with one message naming the variable, the value,
    /// what this CPU runs and the fix, exit status 1, no output left.
    @Test func kernelsAreNamedAndAWrongChoiceStopsARender() throws {
        let widest = KernelVariant.widest.rawValue
        let plain = try runReel(["--version"])
        #expect(plain.stdout.contains("\nkernels \(widest) (the widest this CPU runs; this CPU runs "), "\(plain.stdout)")
        let forced = try runReel(["--version"], environment: ["REEL_KERNELS": "portable"])
        #expect(forced.stdout.contains("\nkernels portable (forced by REEL_KERNELS; "), "\(forced.stdout)")
        let ws = try Workspace()
        let r = try runReel(
            ["render", Self.repo + "/examples/hello.json", "-o", ws.file("out.mp4"), "--quiet", "--progress", "none"],
            environment: ["REEL_KERNELS": "sse9"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("REEL_KERNELS=sse9 names no kernel variant (there are portable, avx2, avx512)"), "\(r.stderr)")
        #expect(r.stderr.contains("fix: unset REEL_KERNELS"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.file("out.mp4")))
    }

    /// `--version` with anything else is ArgumentParser's as before: one line.
    @Test func versionAmongOtherArgumentsIsArgumentParsers() throws {
        let r = try runReel(["render", "--version"])
        #expect(r.stdout == "\(ReelVersion.string)\n", "\(r.stdout)")
    }

    /// The bash completion the packages install completes a subcommand and an option, called as bash
    /// calls a completion function (command, word, previous word).
    @Test func bashCompletionCompletes() throws {
        let ws = try Workspace()
        let script = try runReel(["--generate-completion-script", "bash"]).stdout
        _ = ws.write("reel.bash", script)
        func complete(_ words: [String]) throws -> String {
            let line = words.joined(separator: " ")
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let program = """
                shopt -s extglob; . '\(ws.file("reel.bash"))'
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=\(line.utf8.count)
                _reel reel '\(words.last!)' '\(words[words.count - 2])'; echo "${COMPREPLY[*]}"
                """
            let r = try Self.run(["bash", "-c", program])
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try complete(["reel", "ren"]) == "render")
        #expect(try complete(["reel", "render", "x.yaml", "--thr"]) == "--threads")
        #expect(try runReel(["--generate-completion-script", "zsh"]).stdout.hasPrefix("#compdef reel"))
        #expect(try runReel(["--generate-completion-script", "fish"]).stdout.contains("complete -c 'reel'"))
    }

    /// The archives, the .deb and the image are named by the version reel reports.
    @Test func packagesAreNamedByReelsVersion() throws {
        let r = try Self.run(["scripts/package.sh", "--print-version"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == ReelVersion.string + "\n")
    }

    /// The install commands in the docs and the recipes name the files and the image of this version,
    /// so that a new version cannot leave them pointing at the last one.
    @Test func docsNameThisVersion() throws {
        let files = [
            "README.md", "docs/distributed.md", "docs/ci.md", "docs/ci/docs-gifs.yml", "scripts/distributed/k8s-indexed-job.yaml",
        ]
        let pattern = try Regex(
            #"reel_([0-9][0-9A-Za-z.~+-]*)_amd64\.deb|reel-([0-9][0-9A-Za-z.~+-]*)-linux|reel:([0-9][0-9A-Za-z.~+-]*)"#)
        var seen = 0
        for file in files {
            let text = try String(contentsOfFile: Self.repo + "/" + file, encoding: .utf8)
            for match in text.matches(of: pattern) {
                let version = (1...3).compactMap { match.output[$0].substring }.first.map(String.init) ?? ""
                #expect(version == ReelVersion.string, "\(file): \(match.output[0].substring ?? "") names version \(version)")
                seen += 1
            }
        }
        #expect(seen >= 10, "the docs name the packages \(seen) times")
    }

    /// The image's recipe: Debian 12 slim through ARG BASE, the .deb installed with apt-get and no
    /// toolchain, a non-root user, /data, reel as the entry point.
    @Test func containerfileIsTheIssuesRecipe() throws {
        let text = try String(contentsOfFile: Self.repo + "/Containerfile", encoding: .utf8)
        let lines = text.split(separator: "\n").map { String($0) }.filter { !$0.hasPrefix("#") }
        #expect(lines.contains("ARG BASE=docker.io/library/debian:bookworm-slim"))
        #expect(lines.contains("FROM ${BASE}"))
        #expect(lines.contains { $0.contains("apt-get install") && $0.contains("/reel.deb") })
        #expect(!lines.contains { $0.contains("-dev") || $0.contains("swift") || $0.contains("gcc") })
        #expect(lines.contains("USER reel"))
        #expect(lines.contains("WORKDIR /data"))
        #expect(lines.contains("ENTRYPOINT [\"reel\"]"))
    }

    /// scripts/test-packages.sh: the tarball with an empty environment, the .deb in a fresh Debian root,
    /// the image, each rendering byte-identical clips; the Kubernetes pods' commands in the image. It
    /// builds for release and takes 11 minutes in a fresh clone (3 once built), beyond what CI's budget leaves: run with
    /// REEL_TEST_PACKAGES=1 (and as root, for mmdebstrap and podman).
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["REEL_TEST_PACKAGES"] == "1",
            "installs are tested by scripts/test-packages.sh; set REEL_TEST_PACKAGES=1 to run it here (11 minutes in a fresh clone, 3 once built)"
        ))
    func installsRenderTheSameBytes() throws {
        let r = try Self.run(["scripts/test-packages.sh"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
    }
}

/// docs/ci.md and its workflow (docs/ci/docs-gifs.yml), read as a user copying them would.
@Suite struct DocsCITests {
    static let repo = PackagingTests.repo

    /// The workflow renders the batch with the image of this version and commits only a changed tree.
    @Test func workflowRendersWithTheImageAndCommitsOnlyChanges() throws {
        let text = try String(contentsOfFile: Self.repo + "/docs/ci/docs-gifs.yml", encoding: .utf8)
        let workflow = try #require(try Yams.load(yaml: text) as? [String: Any])
        let env = try #require(workflow["env"] as? [String: String])
        #expect(env["REEL_IMAGE"]?.hasSuffix("/reel:\(ReelVersion.string)") == true, "\(env)")
        let jobs = try #require(workflow["jobs"] as? [String: Any])
        let steps = try #require((jobs["gifs"] as? [String: Any])?["steps"] as? [[String: Any]])
        let runs = steps.compactMap { $0["run"] as? String }
        #expect(runs.contains { $0.contains("\"$REEL_IMAGE\" batch docs/gifs.yaml") && $0.contains("/data") })
        let commit = try #require(runs.first { $0.contains("git commit") || $0.contains("commit --message") })
        // The commit comes after a check that something is staged, which exits when nothing is.
        let guardRange = try #require(commit.range(of: "if git diff --cached --quiet; then"))
        let commitRange = try #require(commit.range(of: "commit --message"))
        #expect(guardRange.upperBound < commitRange.lowerBound)
        #expect(commit[guardRange.upperBound..<commitRange.lowerBound].contains("exit 0"))
    }

    /// The manifest docs/ci.md shows is one `reel batch` takes: its dry run lists the GIFs.
    @Test func theManifestInTheDocsIsValid() throws {
        let doc = try String(contentsOfFile: Self.repo + "/docs/ci.md", encoding: .utf8)
        let block = try #require(doc.components(separatedBy: "```yaml\n").dropFirst().first?.components(separatedBy: "```").first)
        let manifest = block.split(separator: "\n").map { String($0.dropFirst(2)) }.joined(separator: "\n") + "\n"
        let ws = try Workspace()
        try FileManager.default.createDirectory(atPath: ws.file("docs/scenes"), withIntermediateDirectories: true)
        _ = ws.write("docs/gifs.yaml", manifest)
        try FileManager.default.copyItem(
            atPath: Self.repo + "/examples/star-button.yaml", toPath: ws.file("docs/scenes/star.yaml"))
        let r = try runReel(["batch", ws.file("docs/gifs.yaml"), "--dry-run"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect((r.stdout + r.stderr).contains("star.gif"), "\(r.stdout)\(r.stderr)")
    }
}
