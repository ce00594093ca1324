// Every file a scene names (image, font, SVG, video, sound, subtitles, word timings) goes through SceneFiles: one wording for a missing file and one sandbox rule.
import Foundation
import ReelTestSupport
import Testing

/// A missing file and a file outside the sandbox are refused in the same words whatever kind of file
/// the scene names, at the place that names it.
@Suite struct SceneFilesTests {
    static let head = "width: 64\nheight: 64\nfps: 10\nduration: 0.3\n"

    /// The scene text naming `target` as each kind of file.
    static let kinds: [(kind: String, body: @Sendable (String) -> String)] = [
        ("image", { "layers: [{name: i, contents: \($0), bounds: [8, 8]}]" }),
        ("font", { "layers: [{name: t, type: text, string: Hi, font: \($0)}]" }),
        ("svg", { "layers: [{name: s, type: svg, file: \($0)}]" }),
        ("video", { "layers: [{name: v, type: video, contents: \($0)}]" }),
        ("sound", { "audio: [{file: \($0)}]" }),
        ("captions", { "captions: {file: \($0)}" }),
        ("words", { "captions: {cues: [{start: 0, end: 0.2, text: Hi}], words: \($0)}" }),
    ]

    @Test func missingFilesAreRefusedInOneWording() throws {
        let ws = try Workspace()
        for (kind, body) in Self.kinds {
            // A font is told a file by its extension.
            let name = kind == "font" ? "gone/missing.ttf" : "gone/missing.dat"
            let scene = ws.write("scene.yaml", Self.head + body(name) + "\n")
            let r = try runReel(["render", scene, "-o", ws.file("out.mp4")])
            let looked = "no such file (looked for \(URL(fileURLWithPath: ws.file(name)).path))"
            #expect(r.status == 1 && r.stderr.contains("scene.yaml:5:") && r.stderr.contains(looked), "\(kind): \(r.stderr)")
            #expect(r.stderr.contains("\n  fix: paths are relative to the scene file"), "\(kind): \(r.stderr)")
        }
        #expect(ws.listing() == ["scene.yaml"])
    }

    /// With --sandbox an absolute name is refused for every kind, even one that points inside the
    /// scene's folder (docs/scene-format.md, "Rendering scenes you did not write").
    @Test func absoluteNamesAreOutsideTheSandbox() throws {
        let ws = try Workspace()
        let inside = ws.write("inside.dat", "x")
        for (kind, body) in Self.kinds {
            let scene = ws.write("scene.yaml", Self.head + body(kind == "font" ? inside + ".ttf" : inside) + "\n")
            let r = try runReel(["render", scene, "-o", ws.file("out.mp4"), "--sandbox"])
            #expect(
                r.status == 1 && r.stderr.contains("is outside the scene's folder, and a sandboxed render reads only inside it"),
                "\(kind): \(r.stderr)")
            #expect(r.stderr.contains("in the scene's folder and name it relative to the scene"), "\(kind): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: ws.file("out.mp4")))
    }
}
