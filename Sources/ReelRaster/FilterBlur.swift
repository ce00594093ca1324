/// feGaussianBlur's kernels on a filter's pixels: five box blurs matched to σ from σ = 2 on (O(1) a
/// pixel whatever σ), the sampled Gaussian below; transparent outside the picture.
internal import CRasterKernels
import Foundation

extension FilterKernels {
    /// Blurs by standard deviations in device pixels along x and y; one under 0.05 leaves its axis.
    static func blur(_ p: inout FilterPixels, sigmaX: Double, sigmaY: Double) {
        let sx = sigmaX.isFinite && sigmaX >= 0.05 ? min(sigmaX, maximumShadowSigma) : 0
        let sy = sigmaY.isFinite && sigmaY >= 0.05 ? min(sigmaY, maximumShadowSigma) : 0
        guard sx > 0 || sy > 0, p.width > 0, p.height > 0 else { return }
        // resvg, whose images the corpus holds, switches to boxes at σ = 2 as well: below it boxes of
        // whole pixels cannot match the variance closely.
        if max(sx, sy) >= 2 {
            let bx = boxSizes(sigma: sx), by = boxSizes(sigma: sy)
            for (w, h) in zip(bx, by) {
                boxPass(&p, radius: (h - 1) / 2, vertical: true)
                boxPass(&p, radius: (w - 1) / 2, vertical: false)
            }
        } else {
            gaussian(&p, kx: gaussianKernel(sigma: sx), ky: gaussianKernel(sigma: sy))
        }
    }

    /// Five odd box widths whose summed variance is nearest σ²: n boxes of width w have variance
    /// n(w² − 1)/12, so the widths are the odd pair around √(12σ²/n + 1), as many of the smaller as
    /// brings the sum closest.
    static func boxSizes(sigma: Double) -> [Int] {
        let n = 5
        guard sigma > 0 else { return [Int](repeating: 1, count: n) }
        let ideal = (12 * sigma * sigma / Double(n) + 1).squareRoot()
        var low = Int(ideal.rounded(.down))
        if low % 2 == 0 { low -= 1 }
        low = max(low, 1)
        let l = Double(low)
        // Boxes of `low` among n: m·(l² − 1) + (n − m)·((l + 2)² − 1) = 12σ².
        let m = ((12 * sigma * sigma - Double(n) * (l * l + 4 * l + 3)) / (-4 * l - 4)).rounded()
        let count = min(max(Int(m), 0), n)
        return (0..<n).map { $0 < count ? low : low + 2 }
    }

    /// One box of width 2·radius + 1 along a direction (`reel_box_pass`: integer running sums, each
    /// mean rounded).
    static func boxPass(_ p: inout FilterPixels, radius r: Int, vertical: Bool) {
        guard r > 0 else { return }
        let (w, h) = (p.width, p.height)
        var line = [UInt8](repeating: 0, count: 4 * max(w, h))
        p.bytes.withUnsafeMutableBufferPointer { b in
            line.withUnsafeMutableBufferPointer { l in
                guard let pixels = b.baseAddress, let scratch = l.baseAddress else { return }
                reel_box_pass(pixels, w, h, r, vertical ? 1 : 0, scratch)
            }
        }
    }

    /// The sampled Gaussians along x then y, rounded once.
    static func gaussian(_ p: inout FilterPixels, kx: [Float], ky: [Float]) {
        let w = p.width, h = p.height, rx = kx.count / 2, ry = ky.count / 2
        var across = [SIMD4<Float>](repeating: .zero, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var s = SIMD4<Float>.zero
                for i in 0..<kx.count {
                    let sx = x + i - rx
                    guard sx >= 0, sx < w else { continue }
                    let k = (y * w + sx) * 4
                    s += kx[i] * SIMD4(Float(p.bytes[k]), Float(p.bytes[k + 1]), Float(p.bytes[k + 2]), Float(p.bytes[k + 3]))
                }
                across[y * w + x] = s
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                var s = SIMD4<Float>.zero
                for i in 0..<ky.count {
                    let sy = y + i - ry
                    guard sy >= 0, sy < h else { continue }
                    s += ky[i] * across[sy * w + x]
                }
                let k = (y * w + x) * 4
                let a = min(max(s.w.rounded(), 0), 255)
                for c in 0..<3 { p.bytes[k + c] = UInt8(min(max(s[c].rounded(), 0), a)) }
                p.bytes[k + 3] = UInt8(a)
            }
        }
    }
}
