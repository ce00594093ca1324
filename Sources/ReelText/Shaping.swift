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

/// OpenType features as HarfBuzz takes them, checked once per run.
struct FeatureList: Sendable {
    let features: [hb_feature_t]

    init(_ features: [String: UInt32]) throws(TextError) {
        if let bad = features.keys.sorted().first(where: { !Self.isTag($0) }) {
            throw TextError("\"\(bad)\" is not an OpenType feature tag (four letters, such as liga or tnum)")
        }
        self.init(lenient: features)
    }

    /// The valid tags only (layout does not fail; scene reading reports bad tags where they are written).
    init(lenient features: [String: UInt32]) {
        self.features = features.sorted(by: { $0.key < $1.key }).filter { Self.isTag($0.key) }.map { tag, value in
            let c = Array(tag.utf8).map { CChar($0) }
            return hb_feature_t(tag: reel_hb_tag(c[0], c[1], c[2], c[3]), value: value, start: 0, end: UInt32.max)
        }
    }

    /// Four printable ASCII characters.
    static func isTag(_ tag: String) -> Bool {
        let chars = Array(tag.utf8)
        return chars.count == 4 && chars.allSatisfy { (0x20...0x7e).contains($0) }
    }
}

extension FontFace {
    /// Shapes one run: the direction, script and language are guessed from the text (a paragraph with
    /// both directions is split into runs by the caller, first). `features` are OpenType feature tags
    /// with their values, `["liga": 0, "tnum": 1]`; HarfBuzz's defaults (kerning, standard ligatures)
    /// apply otherwise.
    public func shape(_ text: String, features: [String: UInt32] = [:]) throws(TextError) -> [ShapedGlyph] {
        let scalars = text.unicodeScalars.map { $0.value }
        return shape(scalars, range: 0..<scalars.count, direction: nil, features: try FeatureList(features))
    }

    /// Shapes `range` of `text` (UTF-32) with the rest as context (Arabic joining, marks), in the given
    /// direction (nil: guessed). Clusters are indices into `text`; the glyphs come in visual order.
    func shape(_ text: [UInt32], range: Range<Int>, direction rightToLeft: Bool?, features: FeatureList) -> [ShapedGlyph] {
        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        text.withUnsafeBufferPointer { s in
            hb_buffer_add_utf32(buffer, s.baseAddress, Int32(s.count), UInt32(range.lowerBound), Int32(range.count))
        }
        if let rtl = rightToLeft { hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR) }
        hb_buffer_guess_segment_properties(buffer)
        features.features.withUnsafeBufferPointer { f in hb_shape(font, buffer, f.baseAddress, UInt32(f.count)) }
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

/// Unicode scripts, to split a run where the script changes (HarfBuzz shapes one script at a time).
enum Scripts {
    /// The script of each scalar, with Common and Inherited ones (spaces, digits, punctuation, marks)
    /// taking the script of the text around them, as UAX #24's resolution suggests.
    static func resolved(_ text: ArraySlice<UInt32>) -> [UInt32] {
        let funcs = hb_unicode_funcs_get_default()
        var raw = text.map { hb_unicode_script(funcs, $0).rawValue }
        let common = HB_SCRIPT_COMMON.rawValue, inherited = HB_SCRIPT_INHERITED.rawValue, unknown = HB_SCRIPT_UNKNOWN.rawValue
        // A mark, joiner or variation selector (Inherited) belongs to the character before it, whatever
        // that one's script: an emoji's ZWJ and U+FE0F must not split the sequence.
        for i in raw.indices.dropFirst() where raw[i] == inherited { raw[i] = raw[i - 1] }
        func isWeak(_ s: UInt32) -> Bool { s == common || s == inherited || s == unknown }
        var last: UInt32? = nil
        for i in raw.indices {
            if isWeak(raw[i]) {
                if let l = last { raw[i] = l }
            } else {
                last = raw[i]
            }
        }
        // Leading weak scalars take the first real script after them; with none, all are one (Common).
        if let first = raw.firstIndex(where: { !isWeak($0) }) {
            for i in 0..<first { raw[i] = raw[first] }
        } else {
            for i in raw.indices { raw[i] = common }
        }
        return raw
    }
}
