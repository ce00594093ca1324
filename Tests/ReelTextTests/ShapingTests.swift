/// Shaping against an independent reference: uharfbuzz 0.57 (HarfBuzz 15.0, PyPI) on the same font file,
/// `hb.shape(font, buf, features)` after `buf.add_str(text); buf.guess_segment_properties()`; its glyph
/// ids, clusters (scalar indices) and advances (font units) are copied below. Reel links Debian's
/// HarfBuzz 6.0: the two must agree exactly on these runs.
import Foundation
import ReelText
import Testing

@Suite struct ShapingTests {
    /// DejaVu Sans (fonts-dejavu-core, which scripts/setup.sh installs).
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    static func font() throws -> FontFace? {
        guard FileManager.default.fileExists(atPath: dejaVu) else {
            print("ShapingTests: \(dejaVu) is not installed (scripts/setup.sh installs fonts-dejavu-core); skipped")
            return nil
        }
        return try FontFace(path: dejaVu)
    }

    @Test func extentsAreTheFontsOwn() throws {
        guard let font = try Self.font() else { return }
        #expect(font.unitsPerEm == 2048)
        #expect(font.extents == FontExtents(ascender: 1901, descender: -483, lineGap: 0))
    }

    /// Kerning (A before V) and two ligatures: "ffi" from three letters, and U+FB01 "ﬁ" as written.
    @Test func latinWithLigaturesAndKerning() throws {
        guard let font = try Self.font() else { return }
        let glyphs = try font.shape("Office \u{FB01} AV")
        let expected: [(UInt32, Int, Double)] = [
            (50, 0, 1612), (5044, 1, 1980), (70, 4, 1126), (72, 5, 1260), (3, 6, 651), (5042, 7, 1290), (3, 8, 651),
            (36, 9, 1270), (57, 10, 1401),
        ]
        #expect(glyphs.map(\.glyph) == expected.map(\.0))
        #expect(glyphs.map(\.cluster) == expected.map(\.1))
        #expect(glyphs.map(\.xAdvance) == expected.map(\.2))
        #expect(glyphs.allSatisfy { $0.xOffset == 0 && $0.yOffset == 0 && $0.yAdvance == 0 })
    }

    /// `liga` off: the three letters stay three glyphs, each its own cluster.
    @Test func featuresTurnLigaturesOff() throws {
        guard let font = try Self.font() else { return }
        let glyphs = try font.shape("Office \u{FB01} AV", features: ["liga": 0])
        #expect(glyphs.map(\.glyph) == [50, 73, 73, 76, 70, 72, 3, 5042, 3, 36, 57])
        #expect(glyphs.map(\.cluster) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        #expect(glyphs.map(\.xAdvance) == [1612, 721, 721, 569, 1126, 1260, 651, 1290, 651, 1270, 1401])
        #expect(throws: TextError.self) { try font.shape("x", features: ["ligature": 0]) }
    }

    /// A right-to-left run comes out in visual order (clusters decreasing); digits inside it are the
    /// caller's to reorder (bidi), as HarfBuzz leaves them.
    @Test func hebrewRunIsInVisualOrder() throws {
        guard let font = try Self.font() else { return }
        let glyphs = try font.shape("שלום 123")
        #expect(glyphs.map(\.glyph) == [22, 21, 20, 3, 1332, 1324, 1331, 1344])
        #expect(glyphs.map(\.cluster) == [7, 6, 5, 4, 3, 2, 1, 0])
        #expect(glyphs.map(\.xAdvance) == [1303, 1303, 1303, 651, 1359, 558, 1164, 1451])
    }

    @Test func unreadableFontsAreErrors() throws {
        #expect(throws: TextError.self) { try FontFace(path: "/nonexistent/font.ttf") }
        let notAFont = FileManager.default.temporaryDirectory.appendingPathComponent("reel-not-a-font-\(UUID()).ttf").path
        #expect(FileManager.default.createFile(atPath: notAFont, contents: Data("not a font".utf8)))
        defer { try? FileManager.default.removeItem(atPath: notAFont) }
        #expect(throws: TextError.self) { try FontFace(path: notAFont) }
        guard let font = try Self.font() else { return }
        #expect(throws: TextError.self) { try FontFace(path: font.path, index: 1) }
    }
}
