// A frame against an independent renderer's golden: PSNR, the worst error away from edges, and expected | diff | actual.
import Foundation

/// Reel's picture against a golden drawn by an independent renderer (scripts/goldens.py,
/// scripts/scene-goldens.py), both straight RGBA of the same size, measured as DESIGN.md's "Tests" asks:
/// PSNR over RGB for the whole picture, and the largest channel error where the golden is flat (every
/// channel of the 3×3 neighbourhood within `Tolerance.goldenFlatLevels`), since the two renderers'
/// anti-aliasing differ at edges but not away from them.
public struct GoldenComparison {
    public let psnr: Double
    /// The largest channel difference at a pixel where the golden is flat, and where.
    public let worstFlat: Int
    public let worstAt: (x: Int, y: Int)

    public init(actual: [UInt8], golden: [UInt8], width: Int, height: Int) {
        precondition(actual.count == width * height * 4 && golden.count == actual.count)
        var sum = 0.0
        var worstFlat = 0
        var worstAt = (x: 0, y: 0)
        for y in 0..<height {
            for x in 0..<width {
                for ch in 0..<3 {
                    let i = (y * width + x) * 4 + ch
                    let d = Int(actual[i]) - Int(golden[i])
                    sum += Double(d * d)
                    if abs(d) > worstFlat && Self.isFlat(golden, x, y, width, height) {
                        worstFlat = abs(d)
                        worstAt = (x, y)
                    }
                }
            }
        }
        let mse = sum / Double(width * height * 3)
        psnr = mse == 0 ? Double.infinity : 10 * log10(255 * 255 / mse)
        self.worstFlat = worstFlat
        self.worstAt = worstAt
    }

    /// Both bounds hold: `Tolerance.goldenPSNR` and `Tolerance.goldenFlatLevels`.
    public var passes: Bool { psnr >= Tolerance.goldenPSNR && worstFlat <= Tolerance.goldenFlatLevels }

    static func isFlat(_ g: [UInt8], _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Bool {
        for ch in 0..<3 {
            var lo = 255, hi = 0
            for yy in max(0, y - 1)...min(h - 1, y + 1) {
                for xx in max(0, x - 1)...min(w - 1, x + 1) {
                    let v = Int(g[(yy * w + xx) * 4 + ch])
                    lo = min(lo, v)
                    hi = max(hi, v)
                }
            }
            if hi - lo > Tolerance.goldenFlatLevels { return false }
        }
        return true
    }

    /// Expected | difference ×8 | actual, side by side (opaque RGBA, three times as wide), to write on a
    /// failure.
    public static func sideBySide(golden: [UInt8], actual: [UInt8], width: Int, height: Int) -> [UInt8] {
        var px = [UInt8](repeating: 255, count: width * 3 * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let s = (y * width + x) * 4
                for ch in 0..<3 {
                    px[(y * width * 3 + x) * 4 + ch] = golden[s + ch]
                    px[(y * width * 3 + width + x) * 4 + ch] = UInt8(min(255, abs(Int(golden[s + ch]) - Int(actual[s + ch])) * 8))
                    px[(y * width * 3 + 2 * width + x) * 4 + ch] = actual[s + ch]
                }
            }
        }
        return px
    }

    /// test-artifacts/`folder` at the top of the repository (git-ignored), made if missing: where a failing
    /// comparison writes its side-by-side picture.
    public static func artifactsDirectory(_ folder: String) -> URL {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("test-artifacts").appendingPathComponent(folder)
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
