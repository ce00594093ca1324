/// Shaping with HarfBuzz: a run of text in one font becomes glyphs with their clusters and unrounded
/// positions (kerning, ligatures, marks, right-to-left runs in visual order).
internal import CText

/// One shaped glyph, in font units (scale by size / unitsPerEm; nothing is rounded).
public struct ShapedGlyph: Sendable, Equatable {
    /// The glyph in the font.
    public var glyph: UInt32
    /// The first Unicode scalar of the text this glyph belongs to: a ligature's glyph and the marks on a
    /// base share their cluster, which is the unit per-cluster animation moves.
    public var cluster: Int
    public var xAdvance: Double
    public var yAdvance: Double
    public var xOffset: Double
    public var yOffset: Double

    public init(glyph: UInt32, cluster: Int, xAdvance: Double, yAdvance: Double = 0, xOffset: Double = 0, yOffset: Double = 0) {
        self.glyph = glyph
        self.cluster = cluster
        self.xAdvance = xAdvance
        self.yAdvance = yAdvance
        self.xOffset = xOffset
        self.yOffset = yOffset
    }
}

extension FontFace {
    /// Shapes one run: the direction, script and language are guessed from the text (a paragraph with
    /// both directions is split into runs by the caller, first). `features` are OpenType feature tags
    /// with their values, `["liga": 0, "tnum": 1]`; HarfBuzz's defaults (kerning, standard ligatures)
    /// apply otherwise.
    public func shape(_ text: String, features: [String: UInt32] = [:]) throws(TextError) -> [ShapedGlyph] {
        var list: [hb_feature_t] = []
        for (tag, value) in features.sorted(by: { $0.key < $1.key }) {
            let chars = Array(tag.utf8)
            guard chars.count == 4, chars.allSatisfy({ (0x20...0x7e).contains($0) }) else {
                throw TextError("\"\(tag)\" is not an OpenType feature tag (four letters, such as liga or tnum)")
            }
            let t = reel_hb_tag(CChar(chars[0]), CChar(chars[1]), CChar(chars[2]), CChar(chars[3]))
            list.append(hb_feature_t(tag: t, value: value, start: 0, end: UInt32.max))
        }
        guard let buffer = hb_buffer_create() else { throw TextError("out of memory") }
        defer { hb_buffer_destroy(buffer) }
        // UTF-32, so that clusters are indices of Unicode scalars.
        let scalars = text.unicodeScalars.map { $0.value }
        scalars.withUnsafeBufferPointer { s in
            hb_buffer_add_utf32(buffer, s.baseAddress, Int32(s.count), 0, Int32(s.count))
        }
        hb_buffer_guess_segment_properties(buffer)
        list.withUnsafeBufferPointer { f in hb_shape(font, buffer, f.baseAddress, UInt32(f.count)) }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), let positions = hb_buffer_get_glyph_positions(buffer, nil)
        else { return [] }
        return (0..<Int(count)).map { i in
            ShapedGlyph(
                glyph: infos[i].codepoint, cluster: Int(infos[i].cluster), xAdvance: Double(positions[i].x_advance),
                yAdvance: Double(positions[i].y_advance), xOffset: Double(positions[i].x_offset),
                yOffset: Double(positions[i].y_offset))
        }
    }
}
