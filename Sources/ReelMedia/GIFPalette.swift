/// A fixed palette and an ordered ditherer: the simple GIF colour path. (The perceptual per-clip
/// quantizer is its own issue.) 6 levels of red, 7 of green and 6 of blue make 252 colours; green
/// gets the extra level because the eye is most sensitive to it. Index 255 is fully transparent, for
/// the encoder's "unchanged since the previous frame" pixels.
///
/// Ordered (Bayer 8×8) dithering is used because its pattern is fixed to the pixel grid: a still area
/// dithers the same way in every frame, so nothing crawls, and unchanged pixels stay unchanged for the
/// encoder's frame differencing. The local mean over a flat patch reproduces the source colour.
public enum GIFPalette {
    public static let redLevels = 6
    public static let greenLevels = 7
    public static let blueLevels = 6
    public static let transparentIndex: UInt8 = 255

    /// 256 entries as 0xAARRGGBB, the layout of libavcodec's PAL8 palette plane.
    public static let argb: [UInt32] = {
        var out = [UInt32](repeating: 0, count: 256)
        for r in 0..<redLevels {
            for g in 0..<greenLevels {
                for b in 0..<blueLevels {
                    let i = (r * greenLevels + g) * blueLevels + b
                    let rv = UInt32(level(r, of: redLevels)), gv = UInt32(level(g, of: greenLevels)),
                        bv = UInt32(level(b, of: blueLevels))
                    out[i] = 0xFF00_0000 | rv << 16 | gv << 8 | bv
                }
            }
        }
        out[Int(transparentIndex)] = 0x0000_0000
        return out
    }()

    @inline(__always) static func level(_ i: Int, of levels: Int) -> Int {
        (i * 255 * 2 + (levels - 1)) / (2 * (levels - 1))
    }

    /// Bayer 8×8 thresholds, (b + 0.5) / 64 in 0…1.
    static let bayer: [Float] = {
        let m: [Int] = [
            0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26,
            12, 44, 4, 36, 14, 46, 6, 38, 60, 28, 52, 20, 62, 30, 54, 22,
            3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25,
            15, 47, 7, 39, 13, 45, 5, 37, 63, 31, 55, 23, 61, 29, 53, 21,
        ]
        return m.map { (Float($0) + 0.5) / 64 }
    }()

    /// Maps opaque RGBA rows to palette indices.
    static func quantize(
        rgba: UnsafePointer<UInt8>, rgbaStride: Int, width: Int, height: Int,
        into indices: UnsafeMutablePointer<UInt8>, indexStride: Int
    ) {
        let rs = Float(redLevels - 1) / 255, gs = Float(greenLevels - 1) / 255, bs = Float(blueLevels - 1) / 255
        bayer.withUnsafeBufferPointer { bayer in
            for y in 0..<height {
                let src = rgba + y * rgbaStride
                let dst = indices + y * indexStride
                let row = (y & 7) * 8
                for x in 0..<width {
                    let t = bayer[row + (x & 7)]
                    let r = Int(Float(src[x * 4]) * rs + t)
                    let g = Int(Float(src[x * 4 + 1]) * gs + t)
                    let b = Int(Float(src[x * 4 + 2]) * bs + t)
                    dst[x] = UInt8(
                        (min(r, redLevels - 1) * greenLevels + min(g, greenLevels - 1)) * blueLevels + min(b, blueLevels - 1))
                }
            }
        }
    }
}
