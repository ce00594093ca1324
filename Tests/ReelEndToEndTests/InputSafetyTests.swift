/// The files a render reads (#45): never written over by its own output, never waited on (a named pipe,
/// a device or a folder named as an input is refused at once), and found from the scene's folder
/// whatever the working directory.
import Foundation
import Reel
import ReelTestSupport
import Testing

@Suite struct InputSafetyTests {
    static let head = "width: 64\nheight: 64\nfps: 10\nduration: 0.3\n"

    /// Ten seconds for a refusal: each is decided before anything opens (a hang is what is tested, and
    /// the process is killed at the limit so that a failure cannot stop the suite).
    static let timeLimit = 10.0

    static func run(_ arguments: [String], in directory: String? = nil) throws -> (RunResult, seconds: Double) {
        let started = Date()
        let r = try runReel(arguments, directory: directory) { process in
            DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit * 2) { if process.isRunning { process.terminate() } }
        }
        return (r, Date().timeIntervalSince(started))
    }

    /// A short MP4 with sound and a picture, made by the ffmpeg tool.
    static func media(_ ws: Workspace, _ name: String) throws -> String {
        let path = ws.file(name)
        try ffmpeg([
            "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-f", "lavfi", "-i", "color=red:size=32x32:duration=1",
            "-shortest", "-pix_fmt", "yuv420p", path,
        ])
        return path
    }

    /// Every kind of input, each named as the output (or inside a PNG-sequence output folder): refused
    /// with the words that say so, and the input's bytes unchanged.
    @Test(arguments: ["sound", "video by a hard link", "sound of a join"])
    func anOutputNeverReplacesAnInput(kind: String) throws {
        let ws = try Workspace()
        var arguments: [String]
        let protected: String
        switch kind {
        case "sound":
            protected = try Self.media(ws, "input.mp4")
            let scene = ws.write("scene.yaml", Self.head + "audio: [{file: input.mp4}]\n")
            arguments = ["render", scene, "-o", protected]
        case "video by a hard link":
            protected = try Self.media(ws, "input.mp4")
            #expect(link(protected, ws.file("same.mp4")) == 0)
            let scene = ws.write("scene.yaml", Self.head + "layers: [{name: v, type: video, contents: input.mp4}]\n")
            arguments = ["render", scene, "-o", ws.file("same.mp4")]
        default:
            protected = try Self.media(ws, "input.mp4")
            let scene = ws.write("scene.yaml", Self.head + "audio: [{file: input.mp4}]\n")
            let segment = ws.file("seg.mp4")
            let made = try runReel(["render", scene, "-o", segment, "--shard", "0/1", "-q"])
            #expect(made.status == 0, "\(made.stderr)")
            arguments = ["concat", segment, "-o", protected, "--sound-from", scene]
        }
        let before = FileManager.default.contents(atPath: protected)
        let (r, _) = try Self.run(arguments)
        #expect(r.status != 0, "\(kind): \(r.stdout)")
        #expect(
            r.stderr.contains("the output would replace") || r.stdout.contains("the output would replace"),
            "\(r.stderr)\(r.stdout)")
        #expect(FileManager.default.contents(atPath: protected) == before, "\(kind): the input changed")
    }

    /// The one list the check reads: every file a scene names — images, SVG and Lottie files, video,
    /// sound, captions and their word timings, fonts by path (the captions' too) — resolved from the
    /// scene's folder, beside the scene itself. (Sound was missing: it was read after the list was made.)
    @Test func theInputListHoldsEveryFileASceneNames() throws {
        let ws = try Workspace()
        let movie = try Self.media(ws, "movie.mp4")
        _ = try Self.media(ws, "music.mp4")
        _ = ws.write("talk.srt", "1\n00:00:00,000 --> 00:00:01,000\nHello\n")
        _ = ws.write("words.json", #"[{"word": "Hello", "start": 0, "end": 0.5}]"#)
        _ = ws.write("logo.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>"#)
        _ = ws.write("pic.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>"#)
        let installed = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let hasFont = FileManager.default.fileExists(atPath: installed)
        if hasFont { try FileManager.default.copyItem(atPath: installed, toPath: ws.file("face.ttf")) }
        let scene = ws.write(
            "scene.yaml",
            Self.head + """
                layers:
                  - {name: v, type: video, contents: movie.mp4}
                  - {name: s, type: svg, file: logo.svg}
                  - {name: p, contents: pic.svg}
                audio: [{file: music.mp4}]
                captions: {file: talk.srt, words: words.json\(hasFont ? ", font: face.ttf" : "")}

                """)
        let clip = try Reel.load(scene)
        let listed = Set(Reel.inputFiles(of: clip.scene, path: scene).map { URL(fileURLWithPath: $0).lastPathComponent })
        var want: Set = ["scene.yaml", "movie.mp4", "logo.svg", "pic.svg", "music.mp4", "talk.srt", "words.json"]
        if hasFont { want.insert("face.ttf") }
        #expect(listed == want)
        _ = movie
    }

    /// A named pipe, a device or a folder given as any input is refused at once, in words that say which
    /// (a pipe once blocked the render forever; a folder was "no such file").
    @Test(arguments: ["video", "sound", "svg", "image", "captions", "font", "scene", "table", "preset"])
    func pipesDevicesAndFoldersAreRefusedAtOnce(kind: String) throws {
        let ws = try Workspace()
        #expect(mkfifo(ws.file("pipe"), 0o600) == 0)
        try FileManager.default.createDirectory(atPath: ws.file("folder"), withIntermediateDirectories: true)
        for (target, words) in [
            ("pipe", "is a named pipe (FIFO), not a file"), ("folder", "is a folder, not a file"),
            ("/dev/zero", "is a device, not a file"),
        ] {
            var arguments: [String]
            let out = ws.file("out.mp4")
            func scene(_ body: String) -> String { ws.write("scene.yaml", Self.head + body + "\n") }
            switch kind {
            case "video": arguments = ["render", scene("layers: [{name: v, type: video, contents: \(target)}]"), "-o", out]
            case "sound": arguments = ["render", scene("audio: [{file: \(target)}]"), "-o", out]
            case "svg": arguments = ["render", scene("layers: [{name: s, type: svg, file: \(target)}]"), "-o", out]
            case "image": arguments = ["render", scene("layers: [{name: i, contents: \(target)}]"), "-o", out]
            case "captions": arguments = ["render", scene("captions: {file: \(target)}"), "-o", out]
            case "font":
                arguments = ["render", scene("layers: [{name: t, type: text, string: Hi, font: \(target).ttf}]"), "-o", out]
            case "scene": arguments = ["render", target.hasPrefix("/") ? target : ws.file(target), "-o", out]
            case "table":
                _ = scene("variables: {label: a}")
                let manifest = ws.write(
                    "batch.yaml", "jobs:\n  - scene: scene.yaml\n    rows: \(target).csv\n    outputs: [\"{name}.mp4\"]\n")
                arguments = ["batch", manifest]
            default: arguments = ["render", scene(""), "-o", out, "--preset", target.hasPrefix("/") ? target : ws.file(target)]
            }
            if kind == "font" || kind == "table" {
                // Fonts and tables are told by their file names: the pipe and the folder get one.
                let ext = kind == "font" ? ".ttf" : ".csv"
                if target == "pipe" { #expect(mkfifo(ws.file("pipe" + ext), 0o600) == 0) }
                if target == "folder" {
                    try FileManager.default.createDirectory(atPath: ws.file("folder" + ext), withIntermediateDirectories: true)
                }
                if target == "/dev/zero" { continue }
            }
            let (r, seconds) = try Self.run(arguments)
            #expect(r.status != 0, "\(kind) \(target)")
            #expect(seconds < Self.timeLimit, "\(kind) \(target): \(seconds) s")
            #expect(r.stderr.contains(words) || r.stdout.contains(words), "\(kind) \(target): \(r.stderr)\(r.stdout)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    /// `reel still sub/scene.yaml` from the scene's parent folder finds `../logo.svg` and `../talk.srt`
    /// beside `sub/` as the same scene given by its full path does (it said "no such file").
    @Test func aRelativeSceneFindsItsParentFolder() throws {
        let ws = try Workspace()
        _ = ws.write(
            "logo.svg",
            #"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="red"/></svg>"#)
        _ = ws.write("talk.srt", "1\n00:00:00,000 --> 00:00:01,000\nHello\n")
        try FileManager.default.createDirectory(atPath: ws.file("sub"), withIntermediateDirectories: true)
        _ = ws.write(
            "sub/scene.yaml",
            Self.head
                + "layers: [{name: logo, type: svg, file: ../logo.svg, position: [32, 32]}]\ncaptions: {file: ../talk.srt}\n")
        for (arguments, directory) in [
            (["still", "sub/scene.yaml", "-o", "a.png"], ws.path), (["still", "scene.yaml", "-o", "../b.png"], ws.file("sub")),
            (["still", "./sub/../sub/scene.yaml", "-o", "c.png"], ws.path),
            (["still", ws.file("sub/scene.yaml"), "-o", "d.png"], ws.path),
        ] {
            let (r, _) = try Self.run(arguments, in: directory)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
        }
        let pictures = ["a.png", "b.png", "c.png", "d.png"].map { FileManager.default.contents(atPath: ws.file($0)) }
        #expect(pictures[0] != nil && Set(pictures).count == 1, "the four stills are the same picture")
    }
}
