/// The fallback GIF palette and the ordered-dither matrix. 6 levels of red, 7 of green and 6 of blue
/// make 252 colours; green gets the extra level because the eye is most sensitive to it. Used when no
/// palette was built for the clip (`GIFPaletteBuilder`).
public enum GIFPalette {
    public static let redLevels = 6
    public static let greenLevels = 7
    public static let blueLevels = 6

    /// The cube's colours as 0xRRGGBB.
    public static let cube: [UInt32] = {
        var out: [UInt32] = []
        for r in 0..<redLevels {
            for g in 0..<greenLevels {
                for b in 0..<blueLevels {
                    out.append(
                        UInt32(level(r, of: redLevels)) << 16 | UInt32(level(g, of: greenLevels)) << 8
                            | UInt32(level(b, of: blueLevels)))
                }
            }
        }
        return out
    }()

    @inline(__always) static func level(_ i: Int, of levels: Int) -> Int {
        (i * 255 * 2 + (levels - 1)) / (2 * (levels - 1))
    }

    /// The cube entry for a pixel with per-channel ordered dithering at threshold t (0…1): each channel
    /// picks the level below or above with the probability of its position between them, so the mean
    /// over a Bayer tile reproduces the source.
    @inline(__always) static func cubeIndex(_ r: Int, _ g: Int, _ b: Int, threshold t: Float) -> UInt8 {
        let rs = Float(redLevels - 1) / 255, gs = Float(greenLevels - 1) / 255, bs = Float(blueLevels - 1) / 255
        let ri = min(Int(Float(r) * rs + t), redLevels - 1)
        let gi = min(Int(Float(g) * gs + t), greenLevels - 1)
        let bi = min(Int(Float(b) * bs + t), blueLevels - 1)
        return UInt8((ri * greenLevels + gi) * blueLevels + bi)
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
}
