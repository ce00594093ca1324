/// Rendered text against an independent renderer: Pillow 13 with raqm (HarfBuzz + FriBidi) drew each
/// case of TextReferences/cases.json (scripts/text-references.py; every layout rule is recomputed
/// there from uharfbuzz's advances, nothing is taken from Reel), at 32× and box-filtered down, which
/// approximates exact area coverage of the outlines at fractional positions. Reel renders the same
/// case as a text layer; the two must agree to 35 dB PSNR or better.
///
/// Why 35 dB and 32×: Pillow hints glyphs (FreeType's default, with no switch) and rounds each glyph's
/// origin to a whole pixel of the supersampled picture (1/64 px at 32×). Measured by the generator,
/// 32× lies 44–71 dB from a 128× rendering, so the reference's own error takes little of the budget;
/// at 8× it was 30–48 dB, too coarse for the threshold the issue sets.
import Foundation
import Reel
import ReelMedia
import ReelTestSupport
import Testing

@Suite struct TextReferenceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("TextReferences")
    static let threshold = Tolerance.textReferencePSNR

    struct Case: Decodable {
        struct Canvas: Decodable { var width: Double, height: Double, scale: Double }
        struct Box: Decodable { var x: Double, y: Double, width: Double, height: Double }
        var name: String
        var canvas: Canvas
        var background: [Int]
        var color: [Int]
        var font: String
        var fontSize: Double
        var string: String
        var box: Box
        var alignment: String
        var wrapped: Bool
        var lineHeight: Double
        var letterSpacing: Double
    }

    struct Corpus: Decodable { var cases: [Case] }

    static func cases() throws -> [Case] {
        let data = try Data(contentsOf: folder.appendingPathComponent("cases.json"))
        return try JSONDecoder().decode(Corpus.self, from: data).cases
    }

    /// The case as a scene: one text layer whose frame is the case's box.
    static func scene(_ c: Case) throws -> String {
        func hex(_ rgb: [Int]) -> String { "#" + rgb.map { String(format: "%02x", $0) }.joined() }
        let object: [String: Any] = [
            "width": c.canvas.width, "height": c.canvas.height, "scale": c.canvas.scale, "fps": 1, "duration": 1,
            "background": hex(c.background),
            "layers": [
                [
                    "name": "text", "type": "text", "position": [c.box.x + c.box.width / 2, c.box.y + c.box.height / 2],
                    "bounds": [c.box.width, c.box.height], "string": c.string, "font": c.font, "fontSize": c.fontSize,
                    "foregroundColor": hex(c.color), "alignmentMode": c.alignment, "isWrapped": c.wrapped,
                    "lineHeight": c.lineHeight, "letterSpacing": c.letterSpacing,
                ] as [String: Any]
            ],
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test(arguments: try cases().map(\.name))
    func matchesPillow(_ name: String) throws {
        let c = try #require(try Self.cases().first { $0.name == name })
        guard FileManager.default.fileExists(atPath: c.font) else {
            print("TextReferenceTests: \(c.font) is not installed (scripts/setup.sh installs it); \(name) skipped")
            return
        }
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sceneFile = dir + "/scene.json", out = dir + "/out.png"
        try Self.scene(c).write(toFile: sceneFile, atomically: true, encoding: .utf8)
        try Reel.still(try Reel.load(sceneFile), at: 0, to: out)
        let ours = try ImageFile.read(path: out)
        let reference = try ImageFile.read(path: Self.folder.appendingPathComponent("\(name).png").path)
        #expect(ours.width == reference.width && ours.height == reference.height)
        let db = psnr(ours.rgba, reference.rgba)
        print("TextReferenceTests: \(name) \(String(format: "%.1f", db)) dB")
        #expect(db >= Self.threshold, "\(name): \(db) dB")
    }
}
