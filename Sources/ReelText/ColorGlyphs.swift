/// Colour emoji from bitmap fonts (Noto Color Emoji's CBDT strikes): FreeType decodes a glyph's PNG
/// into premultiplied pixels, which text drawing scales to the font size like an image layer's contents.
internal import CText
import Synchronization

/// A colour glyph's picture and where it sits, in the strike's pixels (one em is `pixelsPerEm`).
public struct GlyphBitmap: Sendable {
    public var width: Int
    public var height: Int
    /// Premultiplied RGBA, row by row from the top.
    public var rgba: [UInt8]
    /// From the pen position to the picture's left edge, and from the baseline up to its top edge.
    public var left: Double
    public var top: Double
    /// The strike's size: the picture is drawn at fontSize / pixelsPerEm points per pixel.
    public var pixelsPerEm: Double
}

/// FreeType's library and face for one colour font: the one owner of both handles. FreeType objects
/// are not thread-safe, so every use goes through the lock; decoded glyphs are cached.
final class ColorGlyphs: @unchecked Sendable {
    private let library: FT_Library
    private let face: FT_Face
    private let pixelsPerEm: Double
    private let lock = Mutex<[UInt32: GlyphBitmap?]>([:])

    /// Nil when FreeType cannot open the face or it has no bitmap strike.
    init?(path: String, index: Int) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        var face: FT_Face?
        guard FT_New_Face(library, path, index, &face) == 0, let face else {
            FT_Done_FreeType(library)
            return nil
        }
        // The largest strike (Noto Color Emoji has one, 109 pixels per em): scaled down, never up.
        let count = Int(face.pointee.num_fixed_sizes)
        guard count > 0, let sizes = face.pointee.available_sizes else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            return nil
        }
        let best = (0..<count).max { sizes[$0].y_ppem < sizes[$1].y_ppem }!
        FT_Select_Size(face, Int32(best))
        self.library = library
        self.face = face
        pixelsPerEm = Double(sizes[best].y_ppem) / 64
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    func bitmap(of glyph: UInt32) -> GlyphBitmap? {
        lock.withLock { cache in
            if let known = cache[glyph] { return known }
            let decoded = decode(glyph)
            cache[glyph] = .some(decoded)
            return decoded
        }
    }

    /// Called with the lock held.
    private func decode(_ glyph: UInt32) -> GlyphBitmap? {
        guard FT_Load_Glyph(face, glyph, reel_ft_load_color()) == 0, let slot = face.pointee.glyph else { return nil }
        let bitmap = slot.pointee.bitmap
        guard Int32(bitmap.pixel_mode) == reel_ft_pixel_mode_bgra(), let buffer = bitmap.buffer, bitmap.width > 0,
            bitmap.rows > 0
        else { return nil }
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let row = buffer + y * pitch
            for x in 0..<width {
                // FreeType's BGRA is premultiplied already.
                let o = (y * width + x) * 4
                rgba[o] = row[x * 4 + 2]
                rgba[o + 1] = row[x * 4 + 1]
                rgba[o + 2] = row[x * 4]
                rgba[o + 3] = row[x * 4 + 3]
            }
        }
        return GlyphBitmap(
            width: width, height: height, rgba: rgba, left: Double(slot.pointee.bitmap_left),
            top: Double(slot.pointee.bitmap_top), pixelsPerEm: pixelsPerEm)
    }
}

extension FontFace {
    /// A colour glyph's bitmap, for a font whose glyphs are pictures (no outline); nil otherwise.
    public func colorBitmap(of glyph: UInt32) -> GlyphBitmap? { colorGlyphs?.bitmap(of: glyph) }

    /// Whether the font draws (some of) its glyphs as colour bitmaps.
    public var hasColorBitmaps: Bool { colorGlyphs != nil }
}
