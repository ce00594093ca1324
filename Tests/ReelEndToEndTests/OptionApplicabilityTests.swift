// Output options that would do nothing for the output's codec are refused (command line, preset files,
// batch manifests), and --loop means the same in GIF, APNG and WebP, read back from the files' bytes.
import Foundation
import Reel
import ReelMedia
import ReelScene
import ReelTestSupport
import Testing

@Suite struct OptionApplicabilityTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var output: String
        var arguments: [String]
        /// Fragments the message must hold: the option, and the one that would do it.
        var expected: [String]
        var status: Int32 = 1
        var testDescription: String { name }
    }

    static let loopAdvice = ".gif, .apng or .webp"

    static let cases: [Case] = [
        Case(
            name: "--lossless on H.264", output: "out.mp4", arguments: ["--lossless"],
            expected: ["--lossless applies to WebP only, not to h264", "for lossless H.264 use --crf 0"]),
        Case(
            name: "--lossless on ProRes", output: "out.mov", arguments: ["--lossless"],
            expected: ["--lossless applies to WebP only", "--crf 0", ".webp with --lossless"]),
        Case(
            name: "--lossless on APNG", output: "out.apng", arguments: ["--lossless"],
            expected: ["--lossless applies to WebP only", "apng is always lossless"]),
        Case(
            name: "--quality on H.264", output: "out.mp4", arguments: ["--quality", "50"],
            expected: ["--quality applies to WebP only, not to h264", "use --crf"]),
        Case(
            name: "--quality on GIF", output: "out.gif", arguments: ["--quality", "50"],
            expected: ["--quality applies to WebP only, not to gif", "--colors", "--tolerance"]),
        Case(
            name: "--loop on MP4", output: "out.mp4", arguments: ["--loop", "2"],
            expected: ["--loop applies to GIF, APNG and WebP, not to h264", loopAdvice]),
        Case(
            name: "--loop on MOV", output: "out.mov", arguments: ["--loop", "0"],
            expected: ["--loop applies to GIF, APNG and WebP, not to prores", loopAdvice]),
        Case(
            name: "--loop on WebM", output: "out.webm", arguments: ["--loop", "once"],
            expected: ["--loop applies to GIF, APNG and WebP, not to vp9", loopAdvice]),
        Case(
            name: "--loop on a PNG sequence", output: "frames/", arguments: ["--loop", "1"],
            expected: ["--loop applies to GIF, APNG and WebP, not to png", loopAdvice]),
        Case(
            name: "--colors on WebP", output: "out.webp", arguments: ["--colors", "64"],
            expected: ["--colors applies to GIF only, not to webp", "use --quality"]),
        Case(
            name: "--dither on H.264", output: "out.mp4", arguments: ["--dither", "bayer"],
            expected: ["--dither applies to GIF only", "remove --dither"]),
        Case(
            name: "--alpha-threshold on WebP", output: "out.webp", arguments: ["--alpha-threshold", "64"],
            expected: ["--alpha-threshold applies to GIF only", "webp keeps the whole alpha channel"]),
        Case(
            name: "--alpha-dither on H.264", output: "out.mp4", arguments: ["--alpha-dither"],
            expected: ["--alpha-dither applies to GIF only", "h264 has no alpha channel", "--matte"]),
        Case(
            name: "--tolerance on VP9", output: "out.webm", arguments: ["--tolerance", "4"],
            expected: ["--tolerance applies to GIF only, not to vp9", "use --crf"]),
        Case(
            name: "--encoder-preset on ProRes", output: "out.mov", arguments: ["--encoder-preset", "slow"],
            expected: ["--encoder-preset applies to h264, hevc, vp9 and av1, not to prores", "remove --encoder-preset"]),
        Case(
            name: "--encoder-preset on GIF", output: "out.gif", arguments: ["--encoder-preset", "slow"],
            expected: ["--encoder-preset applies to h264, hevc, vp9 and av1, not to gif"]),
        Case(
            name: "--encoder-preset on APNG", output: "out.apng", arguments: ["--encoder-preset", "slow"],
            expected: ["--encoder-preset applies to h264, hevc, vp9 and av1, not to apng"]),
        Case(
            name: "--encoder-preset on WebP", output: "out.webp", arguments: ["--encoder-preset", "slow"],
            expected: ["--encoder-preset applies to h264, hevc, vp9 and av1, not to webp"]),
        Case(
            name: "--encoder-preset on PNG", output: "frames/", arguments: ["--encoder-preset", "slow"],
            expected: ["--encoder-preset applies to h264, hevc, vp9 and av1, not to png"]),
        Case(
            name: "--crf on WebP", output: "out.webp", arguments: ["--crf", "20"],
            expected: ["--crf applies to h264, hevc, vp9 and av1, not to webp", "--quality", "--lossless"]),
        // The preset decides the format (clip → clip.gif), then the option is checked against it.
        Case(
            name: "--quality after a GIF preset", output: "clip", arguments: ["--preset", "docs-gif", "--quality", "80"],
            expected: ["clip.gif: --quality applies to WebP only, not to gif"]),
        // --codec decides the codec inside the container: ProRes has no CRF.
        Case(
            name: "--crf on .mov with its ProRes preset", output: "out.mov", arguments: ["--preset", "prores-hq", "--crf", "20"],
            expected: ["--crf applies to h264, hevc, vp9 and av1, not to prores"]),
        Case(
            name: "--alpha-threshold with --alpha-dither", output: "out.gif",
            arguments: ["--alpha-threshold", "64", "--alpha-dither"],
            expected: ["give --alpha-threshold or --alpha-dither, not both"], status: 64),
        Case(
            name: "--quality with --lossless", output: "out.webp", arguments: ["--quality", "80", "--lossless"],
            expected: ["give --quality or --lossless, not both"], status: 64),
        Case(
            name: "negative --loop", output: "out.gif", arguments: ["--loop", "-1"],
            expected: ["--loop counts the plays after the first", "got '-1'", "use --loop once to play once"], status: 64),
    ]

    @Test(arguments: cases)
    func refused(_ c: Case) throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", smallScene)
        let before = ws.listing()
        let r = try runReel(["render", scene, "-o", ws.file(c.output)] + c.arguments)
        #expect(r.status == c.status, "\(r.stderr)")
        for fragment in c.expected {
            #expect(r.stderr.contains(fragment), "message lacks «\(fragment)»: \(r.stderr)")
        }
        #expect(ws.listing() == before, "files left behind: \(ws.listing())")
    }

    /// The same options pass where they apply: the final codec decides, not the container's default.
    @Test func acceptedWhereTheyApply() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", smallScene)
        for (output, arguments) in [
            ("h264.mov", ["--codec", "h264", "--crf", "20", "--encoder-preset", "fast"]),
            ("lossless.webp", ["--lossless", "--loop", "1"]),
            ("small.gif", ["--colors", "16", "--dither", "bayer", "--alpha-dither", "--tolerance", "2", "--loop", "once"]),
            ("lossless.mp4", ["--crf", "0"]),
        ] {
            let r = try runReel(["render", scene, "-o", ws.file(output), "-q"] + arguments)
            #expect(r.status == 0, "\(output): \(r.stderr)")
        }
    }

    /// A preset file's keys are checked against the format the output's name gives, at their place.
    @Test func presetFileKeys() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", smallScene)
        let preset = ws.write("team.yaml", "description: \"team\"\nfps: 10\nlossless: true\n")
        let before = ws.listing()
        let r = try runReel(["render", scene, "-o", ws.file("out.mp4"), "--preset", preset])
        #expect(r.status == 1)
        #expect(r.stderr.contains("team.yaml:3:11: lossless: applies to WebP only, not to h264"), "\(r.stderr)")
        #expect(r.stderr.contains("for lossless H.264 use crf: 0"), "\(r.stderr)")
        #expect(ws.listing() == before)
        // The same file is fine for WebP.
        #expect(try runReel(["render", scene, "-o", ws.file("out.webp"), "--preset", preset, "-q"]).status == 0)
        // Within a preset: quality is ignored by lossless WebP.
        let both = ws.write("both.yaml", "description: \"both\"\nquality: 80\nlossless: true\n")
        let r2 = try runReel(["render", scene, "-o", ws.file("b.webp"), "--preset", both])
        #expect(r2.status == 1 && r2.stderr.contains("both.yaml:2:10: quality: quality does nothing with lossless: true"))
        // A negative loop in a preset gets the same advice as on the command line.
        let negative = ws.write("neg.yaml", "description: \"neg\"\nloop: -1\n")
        let r3 = try runReel(["render", scene, "-o", ws.file("n.gif"), "--preset", negative])
        #expect(r3.status == 1 && r3.stderr.contains("neg.yaml:2:7: loop:") && r3.stderr.contains("loop: once"), "\(r3.stderr)")
    }

    /// A manifest's inline settings, and the keys of the preset file it names, are checked against
    /// each output's format before anything renders, with the manifest's (or the preset's) line.
    @Test func manifestSettings() throws {
        let ws = try Workspace()
        _ = ws.write("a.json", smallScene)
        _ = ws.write(
            "m.yaml", "jobs:\n  - scene: a.json\n    outputs:\n      - out/a.gif\n      - {path: out/a.mp4, colors: 64}\n")
        let r = try runReel(["batch", ws.file("m.yaml")])
        #expect(r.status == 2)
        #expect(r.stderr.contains("m.yaml:5:35: jobs[0].outputs[1].colors: applies to GIF only, not to h264"), "\(r.stderr)")
        #expect(r.stderr.contains("use crf"), "\(r.stderr)")
        #expect(!ws.listing().contains("out"))
        _ = ws.write("loops.yaml", "description: \"loops\"\nloop: 2\n")
        _ = ws.write(
            "p.yaml",
            "jobs:\n  - scene: a.json\n    outputs:\n      - {path: out/a.gif, preset: ./loops.yaml}\n"
                + "      - {path: out/a.webm, preset: ./loops.yaml}\n")
        let r2 = try runReel(["batch", ws.file("p.yaml")])
        #expect(r2.status == 2)
        #expect(r2.stderr.contains("loops.yaml:2:7: loop: applies to GIF, APNG and WebP, not to vp9"), "\(r2.stderr)")
        #expect(!ws.listing().contains("out"))
    }

    /// Every shipped preset's keys apply to the format it writes.
    @Test func shippedPresetsApply() throws {
        for name in Reel.presetNames {
            let p = try Reel.preset(name)
            let format = try #require(p.format, "\(name)")
            let container = try #require(format == "png" ? VideoContainer.png : VideoContainer(pathExtension: format))
            let codec = p.settings.codec ?? container.defaultCodec
            #expect(throws: Never.self, "\(name)") { try Reel.check(p, codec: codec) }
        }
    }

    /// Where a preset's keys were written is not part of its value: equal presets stay equal, and the
    /// settings text a batch hashes does not move with the lines.
    @Test func placesAreNotPartOfTheValue() throws {
        let a = try Preset.decode(yaml: "description: x\ncrf: 20\n", file: "a.yaml", name: "p")
        let b = try Preset.decode(yaml: "# a comment\n\ndescription: x\ncrf: 20\n", file: "b.yaml", name: "p")
        #expect(a == b)
        #expect("\(a)" == "\(b)")
        #expect(!"\(a)".contains("a.yaml"))
    }

    // MARK: --loop: the plays after the first, the same in all three formats

    static let loops: [(argument: String, gif: Int?, plays: UInt32)] = [
        ("0", 0, 0),  // forever
        ("2", 2, 3),  // three plays
        ("once", nil, 1),  // GIF: no NETSCAPE2.0 block at all
    ]

    @Test func loopInGIF() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", smallScene)
        for l in Self.loops {
            let out = ws.file("l\(l.argument).gif")
            #expect(try runReel(["render", scene, "-o", out, "--loop", l.argument]).status == 0)
            let (loop, _) = gifLoopAndDelays([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
            #expect(loop == l.gif, "--loop \(l.argument)")
        }
    }

    /// acTL num_plays counts plays: 0 forever.
    @Test func loopInAPNG() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", smallScene)
        for l in Self.loops {
            let out = ws.file("l\(l.argument).apng")
            #expect(try runReel(["render", scene, "-o", out, "--loop", l.argument]).status == 0)
            let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
            let i = try #require((0..<(b.count - 12)).first { b[$0..<($0 + 4)].elementsEqual("acTL".utf8) })
            #expect(b[(i + 8)..<(i + 12)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } == l.plays, "--loop \(l.argument)")
        }
    }

    /// The ANIM chunk's loop count counts plays too (libwebp's webpmux reads it).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/webpmux"), "needs webpmux (scripts/setup.sh)"))
    func loopInWebP() throws {
        let ws = try Workspace()
        let scene = ws.write("scene.json", smallScene)
        // A preset's `loop: once` means what --loop once does.
        let once = ws.write("once.yaml", "description: \"once\"\nloop: once\n")
        for (l, extra) in Self.loops.map({ ($0, [String]()) }) + [(Self.loops[2], ["--preset", once])] {
            let out = ws.file("l\(l.argument)\(extra.count).webp")
            let arguments = extra.isEmpty ? ["--loop", l.argument] : extra
            #expect(try runReel(["render", scene, "-o", out] + arguments).status == 0)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/webpmux")
            p.arguments = ["-info", out]
            let pipe = Pipe()
            p.standardOutput = pipe
            try p.run()
            let info = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(info.contains("Loop Count : \(l.plays)"), "--loop \(l.argument) \(extra): \(info)")
        }
    }
}
