/// feTurbulence's kernel: the specification's Perlin noise (turbulence or fractal sum) over device
/// pixels, number for number as resvg draws it.
import ReelGeometry

extension FilterKernels {
    /// The noise of `t` over the device pixels `originX..<originX + width`, `originY..<originY + height`
    /// (the filter's region), premultiplied.
    ///
    /// As resvg: each pixel samples the user-space point its top-left corner comes from, taking only
    /// the translation and each axis's stretch from `t.toDevice` (a rotation or skew does not turn the
    /// noise); a transform that collapses an axis gives transparency. Channels are straight
    /// colour in 0…255 and are premultiplied last. `t.seed` is truncated toward zero, as usvg parses it.
    ///
    /// Stitching follows resvg rather than the specification's tile: the frequencies are fitted to the
    /// region's pixel width and height, and the wrap starts at the sampled pixel's index (so `t.tile`
    /// is not read; the references show that).
    static func turbulence(_ t: Turbulence, originX: Int, originY: Int, width: Int, height: Int) -> FilterPixels {
        var out = FilterPixels(width: max(width, 0), height: max(height, 0))
        // resvg keeps its transform, frequencies and seed in single precision: rounding through Float
        // keeps the sample points, and so the lattice cells, where resvg's are.
        let m = t.toDevice
        let (a, b, c, d) = (Float(m.a), Float(m.b), Float(m.c), Float(m.d))
        let sx = Double((a * a + c * c).squareRoot()), sy = Double((b * b + d * d).squareRoot())
        guard out.width > 0, out.height > 0, !isNearZero(sx), !isNearZero(sy), sx.isFinite, sy.isFinite else {
            return out
        }
        let offsetX = Double(originX) - Double(Float(m.tx)), offsetY = Double(originY) - Double(Float(m.ty))
        var fx = Double(Float(max(t.baseFrequencyX, 0))), fy = Double(Float(max(t.baseFrequencyY, 0)))
        if t.stitchTiles {
            fx = stitchedFrequency(fx, over: Double(width))
            fy = stitchedFrequency(fy, over: Double(height))
        }
        let lattice = PerlinLattice(seed: saturatingInt32(Double(Float(t.seed).rounded(.towardZero))))
        // By octave 1100 any sample point but the origin has doubled past the largest Double and the sum
        // is NaN (a transparent pixel, as in resvg); more octaves would change nothing but the time.
        let octaves = min(max(t.octaves, 0), 1100)
        let cellsX = saturatingInt32(Double(width) * fx + 0.5), cellsY = saturatingInt32(Double(height) * fy + 0.5)
        out.bytes.withUnsafeMutableBufferPointer { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    var stitch: PerlinLattice.Stitch?
                    if t.stitchTiles {
                        stitch = PerlinLattice.Stitch(
                            width: cellsX, height: cellsY,
                            wrapX: saturatingInt32(Double(x) * fx + perlinN + Double(cellsX)),
                            wrapY: saturatingInt32(Double(y) * fy + perlinN + Double(cellsY)))
                    }
                    var px = (Double(x) + offsetX) / sx * fx, py = (Double(y) + offsetY) / sy * fy
                    var sum = SIMD4<Double>(), ratio = 1.0
                    for _ in 0..<octaves {
                        let n = lattice.noise(px, py, stitch)
                        sum += (t.fractalNoise ? n : n.replacing(with: -n, where: n .< 0)) / ratio
                        px *= 2
                        py *= 2
                        ratio *= 2
                        stitch?.double()
                    }
                    let scaled = t.fractalNoise ? (sum * 255 + 255) / 2 : sum * 255
                    var c = SIMD4<Float>()
                    for i in 0..<4 { c[i] = (bounded(Float(scaled[i])) + 0.5).rounded(.down) }
                    let alpha = c.w / 255
                    let o = (y * width + x) * 4
                    for i in 0..<3 { bytes[o + i] = UInt8((c[i] * alpha + 0.5).rounded(.down)) }
                    bytes[o + 3] = UInt8(c.w)
                }
            }
        }
        return out
    }
}

/// The lattice's offset, which keeps coordinates positive before they are truncated.
private let perlinN = 4096.0

/// `v` clamped to 0…255, NaN as 0 (a zero gradient divides by zero in the lattice, as in resvg).
private func bounded(_ v: Float) -> Float { v > 255 ? 255 : (v >= 0 ? v : 0) }

/// Within four steps of the smallest subnormal of zero (resvg's `approx_zero_ulps(4)`).
private func isNearZero(_ v: Double) -> Bool { abs(v) <= 4 * Double.leastNonzeroMagnitude }

/// `v` truncated toward zero and saturated to 32 bits, NaN as 0 (Rust's `as i32`), so that a far
/// sample point or an absurd seed cannot trap.
private func saturatingInt32(_ v: Double) -> Int {
    if v.isNaN { return 0 }
    return Int(min(max(v.rounded(.towardZero), Double(Int32.min)), Double(Int32.max)))
}

/// The frequency nearest `f` (by ratio) that fits a whole number of cycles into `length`.
private func stitchedFrequency(_ f: Double, over length: Double) -> Double {
    guard !isNearZero(f) else { return f }
    let low = (length * f).rounded(.down) / length, high = (length * f).rounded(.up) / length
    return f / low < high / f ? low : high
}

/// The specification's lattice: a shuffled selector and four channels of unit gradients, made from the
/// seed by its Park–Miller generator.
private struct PerlinLattice {
    /// Where the lattice wraps when tiles are stitched, in lattice cells (offset by `perlinN`).
    struct Stitch {
        var width, height, wrapX, wrapY: Int

        /// The next octave's: twice the cells, the wrap at twice the distance from `perlinN`.
        mutating func double() {
            width = width &* 2
            height = height &* 2
            wrapX = wrapX &* 2 &- Int(perlinN)
            wrapY = wrapY &* 2 &- Int(perlinN)
        }
    }

    static let size = 256
    static let count = 2 * size + 2
    static let (m, a, q, r) = (2_147_483_647, 16807, 127_773, 2836)

    /// Indices 0..<count; the second half repeats the first so that two lookups never wrap.
    var selector = [Int](repeating: 0, count: count)
    /// Channel c's gradient at index i is (g[2·(c·count + i)], g[2·(c·count + i) + 1]).
    var gradients = [Double](repeating: 0, count: 4 * count * 2)

    init(seed raw: Int) {
        var seed = raw
        if seed <= 0 { seed = -seed % (Self.m - 1) + 1 }
        seed = min(seed, Self.m - 1)
        func next() -> Int {
            let v = Self.a * (seed % Self.q) - Self.r * (seed / Self.q)
            seed = v <= 0 ? v + Self.m : v
            return seed
        }
        for c in 0..<4 {
            for i in 0..<Self.size {
                selector[i] = i
                let g = 2 * (c * Self.count + i)
                gradients[g] = Double(next() % (2 * Self.size) - Self.size) / Double(Self.size)
                gradients[g + 1] = Double(next() % (2 * Self.size) - Self.size) / Double(Self.size)
                let length = (gradients[g] * gradients[g] + gradients[g + 1] * gradients[g + 1]).squareRoot()
                gradients[g] /= length
                gradients[g + 1] /= length
            }
        }
        for i in stride(from: Self.size - 1, to: 0, by: -1) {
            let j = next() % Self.size
            selector.swapAt(i, j)
        }
        for i in 0..<(Self.size + 2) {
            selector[Self.size + i] = selector[i]
            for c in 0..<4 {
                let from = 2 * (c * Self.count + i), to = 2 * (c * Self.count + Self.size + i)
                gradients[to] = gradients[from]
                gradients[to + 1] = gradients[from + 1]
            }
        }
    }

    /// The four channels' gradient noise at lattice coordinates (x, y): one cell lookup shared by all.
    func noise(_ x: Double, _ y: Double, _ stitch: Stitch?) -> SIMD4<Double> {
        let tx = x + perlinN, ty = y + perlinN
        var bx0 = saturatingInt32(tx), by0 = saturatingInt32(ty)
        var bx1 = bx0 + 1, by1 = by0 + 1
        let rx0 = tx - tx.rounded(.towardZero), ry0 = ty - ty.rounded(.towardZero)
        let rx1 = rx0 - 1, ry1 = ry0 - 1
        if let s = stitch {
            if bx0 >= s.wrapX { bx0 -= s.width }
            if bx1 >= s.wrapX { bx1 -= s.width }
            if by0 >= s.wrapY { by0 -= s.height }
            if by1 >= s.wrapY { by1 -= s.height }
        }
        let i = selector[bx0 & 0xff], j = selector[bx1 & 0xff]
        let b00 = selector[i + (by0 & 0xff)], b10 = selector[j + (by0 & 0xff)]
        let b01 = selector[i + (by1 & 0xff)], b11 = selector[j + (by1 & 0xff)]
        let sx = rx0 * rx0 * (3 - 2 * rx0), sy = ry0 * ry0 * (3 - 2 * ry0)
        var out = SIMD4<Double>()
        gradients.withUnsafeBufferPointer { g in
            for c in 0..<4 {
                let base = c * Self.count
                func dot(_ b: Int, _ rx: Double, _ ry: Double) -> Double {
                    rx * g[2 * (base + b)] + ry * g[2 * (base + b) + 1]
                }
                let u0 = dot(b00, rx0, ry0), v0 = dot(b10, rx1, ry0)
                let u1 = dot(b01, rx0, ry1), v1 = dot(b11, rx1, ry1)
                let a = u0 + sx * (v0 - u0), b = u1 + sx * (v1 - u1)
                out[c] = a + sy * (b - a)
            }
        }
        return out
    }
}
