/// A font file's face and HarfBuzz's font on it: the one owner of both handles, and the metrics text
/// placement starts from (the first baseline sits one ascender below the top of a text layer's bounds;
/// decorations and the named baselines are measured from them).
internal import CText
import Foundation
import ReelGeometry

/// Vertical metrics in font units (y up: the descender is negative), as HarfBuzz reports them.
public struct FontExtents: Sendable, Equatable {
    public var ascender: Double
    public var descender: Double
    public var lineGap: Double

    public init(ascender: Double, descender: Double, lineGap: Double) {
        self.ascender = ascender
        self.descender = descender
        self.lineGap = lineGap
    }
}

public final class FontFace: @unchecked Sendable {
    // Immutable after init (`hb_font_make_immutable`), so one font may shape on many threads at once.
    let face: OpaquePointer
    let font: OpaquePointer
    /// The path it was read from.
    public let path: String
    /// Font units per em: positions and outlines are in these units (scale by size / unitsPerEm).
    public let unitsPerEm: Int
    /// Glyph outlines decomposed so far (GlyphOutlines.swift).
    let outlines = OutlineCache()
    /// FreeType's view of a bitmap colour font (ColorGlyphs.swift); nil for outline fonts.
    let colorGlyphs: ColorGlyphs?

    /// Reads face `index` of a font file (`.ttf`, `.otf`, or a member of a `.ttc` collection).
    public init(path: String, index: Int = 0) throws(TextError) {
        guard let blob = hb_blob_create_from_file_or_fail(path) else {
            throw TextError("\(path): cannot read the font file")
        }
        defer { hb_blob_destroy(blob) }  // the face keeps its own reference
        let count = Int(hb_face_count(blob))
        guard count > 0 else { throw TextError("\(path): not a font file (no face in it)") }
        guard index >= 0, index < count else {
            throw TextError("\(path): holds \(count) face(s), numbered from 0; there is no face \(index)")
        }
        guard let face = hb_face_create(blob, UInt32(index)), let font = hb_font_create(face) else {
            throw TextError("\(path): cannot open face \(index)")
        }
        hb_face_make_immutable(face)
        hb_font_make_immutable(font)
        self.face = face
        self.font = font
        self.path = path
        unitsPerEm = Int(hb_face_get_upem(face))
        colorGlyphs = hb_ot_color_has_png(face) != 0 ? ColorGlyphs(path: path, index: index) : nil
    }

    deinit {
        hb_font_destroy(font)
        hb_face_destroy(face)
    }

    /// Ascender, descender and line gap for horizontal text.
    public var extents: FontExtents {
        var e = hb_font_extents_t()
        hb_font_get_h_extents(font, &e)
        return FontExtents(ascender: Double(e.ascender), descender: Double(e.descender), lineGap: Double(e.line_gap))
    }

    /// The height of the font's lowercase x in font units (`OS/2` sxHeight, or HarfBuzz's fallback
    /// from the glyph "x" for a font without it).
    public var xHeight: Double {
        var v: hb_position_t = 0
        hb_ot_metrics_get_position_with_fallback(font, HB_OT_METRICS_TAG_X_HEIGHT, &v)
        return Double(v)
    }

    /// Where decoration lines go, in font units (y up): the centres of the underline and strikeout and
    /// the underline's thickness, from the `post` and `OS/2` tables or HarfBuzz's fallbacks for a font
    /// without them (as resvg reads them: every decoration as thick as the underline).
    public var decorationMetrics: (underline: Double, strikeout: Double, thickness: Double) {
        func metric(_ tag: hb_ot_metrics_tag_t) -> Double {
            var v: hb_position_t = 0
            hb_ot_metrics_get_position_with_fallback(font, tag, &v)
            return Double(v)
        }
        let thickness = metric(HB_OT_METRICS_TAG_UNDERLINE_SIZE)
        return (
            metric(HB_OT_METRICS_TAG_UNDERLINE_OFFSET), metric(HB_OT_METRICS_TAG_STRIKEOUT_OFFSET),
            thickness > 0 ? thickness : Double(unitsPerEm) / 12
        )
    }
}

extension FontFace {
    /// Whether the font maps `scalar` to a glyph of its own (what it lacks comes from a fallback font).
    public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0
    }
}

extension TextBaseline {
    /// The baseline's height above the alphabetic one in `font`, in font units.
    public func height(in font: FontFace) -> Double {
        let e = font.extents
        switch self {
        case .alphabetic: return 0
        case .textTop: return e.ascender
        case .textBottom: return e.descender
        case .central: return (e.ascender + e.descender) / 2
        case .middle: return font.xHeight / 2
        case .hanging: return e.ascender * 0.8
        case .mathematical: return e.ascender / 2
        }
    }
}
