// Fuzz target: text shaped, wrapped and turned into glyph outlines by ReelText (scripts/fuzz.sh text).
import FuzzSupport
import ReelGeometry
import ReelText

/// The fonts, opened by file: DejaVu Sans first, then Noto faces for Arabic, Devanagari and colour emoji
/// as fallbacks in that order. Not through fontconfig: parsing its configuration leaks 288 bytes once
/// (libfontconfig 2.14.1, inside expat's callbacks), which LeakSanitizer would report for every input.
let files = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf", "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
]
let fonts = files.compactMap { try? FontFace(path: $0) }
let font = fonts.first
let typesetter = Typesetter(fallback: { scalar, face in fonts.first { $0 !== face && $0.hasGlyph(for: scalar) } })

/// Text layout (`type: text`): the first byte picks the box and the paragraph style, the rest is the
/// text (any Unicode: bidi controls, marks, emoji sequences, line feeds). Laid out, then every glyph's
/// outline decomposed, as drawing does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzText(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let font, size > 0 else { return 0 }
    let knob = Int(data[0])
    let string = text(data + 1, size - 1)
    let alignments = TextAlignment.allCases, truncations = TruncationMode.allCases
    let style = ParagraphStyle(
        alignment: alignments[knob % alignments.count], isWrapped: knob & 0x08 != 0,
        truncationMode: truncations[(knob >> 4) % truncations.count], lineHeight: knob & 0x40 != 0 ? 1.5 : 1)
    let width = [0.0, 1, 37.5, 200, 1e6][(knob >> 1) % 5]
    let attributes = TextAttributes(
        font: font, fontSize: knob & 0x80 != 0 ? 9 : 24, features: knob & 0x04 != 0 ? ["liga": 0, "tnum": 1] : [:],
        letterSpacing: knob & 0x02 != 0 ? 1.5 : 0)
    // Two runs when the text is long enough, so run boundaries fall inside clusters and bidi runs too.
    let cut = string.unicodeScalars.count / 2
    let scalars = Array(string.unicodeScalars)
    let runs =
        cut > 0
        ? [
            TextRun(String(String.UnicodeScalarView(scalars[..<cut])), attributes),
            TextRun(String(String.UnicodeScalarView(scalars[cut...])), attributes),
        ] : [TextRun(string, attributes)]
    let set = typesetter.typeset(runs, style: style, in: Size(width: width, height: 60))
    var points = 0
    for g in set.glyphs {
        points += g.font.outline(of: g.glyph).elements.count
        if g.font.hasColorBitmaps { points += g.font.colorBitmap(of: g.glyph)?.width ?? 0 }
    }
    blackHole(points + set.lines.count + set.words.count + set.clusters.count)
    return 0
}
