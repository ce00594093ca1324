/// Emoji from the installed colour font: a character shown as emoji by default (😀), or asked for with
/// U+FE0F (❤️), comes from Noto Color Emoji even where the run's font has a black-and-white glyph; a flag
/// and a ZWJ family stay one cluster from one font, so they become one picture; ❤ alone keeps the text
/// font's glyph. Expected glyph ids are `hb-shape`'s (libharfbuzz-bin 6.0) on Noto Color Emoji:
/// ❤️ 168, 😀 883, 🇫🇷 1600, 👩‍👩‍👧 2355; DejaVu Sans's own ❤ is uni2764.
import Foundation
import ReelGeometry
import ReelText
import Testing

@Suite struct EmojiFontTests {
    static let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

    @Test func emojiComeFromTheColourFont() throws {
        guard FileManager.default.fileExists(atPath: Self.emoji), FileManager.default.fileExists(atPath: ShapingTests.dejaVu)
        else {
            print("EmojiFontTests: Noto Color Emoji or DejaVu Sans is not installed (scripts/setup.sh installs them); skipped")
            return
        }
        let library = FontLibrary.shared
        let dejaVu = try library.face(path: ShapingTests.dejaVu)
        let text = "\u{2764}\u{FE0F}\u{2764}\u{1F600}\u{1F1EB}\u{1F1F7}\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let set = library.typesetter().typeset(
            [TextRun(text, TextAttributes(font: dejaVu, fontSize: 20))], style: ParagraphStyle(), in: Size(width: 500, height: 50)
        )
        let plainHeart = try dejaVu.shape("\u{2764}")[0].glyph
        #expect(set.glyphs.map(\.glyph) == [168, plainHeart, 883, 1600, 2355])
        #expect(set.glyphs.map { $0.font.path } == [Self.emoji, ShapingTests.dejaVu, Self.emoji, Self.emoji, Self.emoji])
        #expect(set.glyphs.allSatisfy { $0.font.path != Self.emoji || $0.font.colorBitmap(of: $0.glyph) != nil })
        #expect(set.clusters.count == 5)
        #expect(set.fallbackFonts == [Self.emoji])
    }

    @Test func aFontFileIsOpenedOnce() throws {
        guard FileManager.default.fileExists(atPath: ShapingTests.dejaVu) else { return }
        let library = FontLibrary(catalog: FontCatalog(fonts: []))
        #expect(try library.face(path: ShapingTests.dejaVu) === library.face(path: ShapingTests.dejaVu))
    }
}
