/// The convolution, morphology, displacement-map and component-transfer kernels, and whole-picture
/// premultiply/unpremultiply, with resvg's arithmetic so their bytes land on the reference images'.
import Foundation
import ReelGeometry

// resvg computes these in f32 and stores through Rust's `as u8`; Float and `level` reproduce both, so a
// value that lands within an f32 rounding of a level boundary falls on the same side as there.

/// Rust's float-to-byte conversion: truncated toward zero, saturating, NaN to 0.
@inline(__always) private func level(_ v: Float) -> UInt8 {
    v >= 255 ? 255 : v > 0 ? UInt8(v) : 0
}

/// resvg's `f32_bound`: NaN goes to the lower bound.
@inline(__always) private func bound(_ v: Float, _ lower: Float, _ upper: Float) -> Float {
    v > upper ? upper : v >= lower ? v : lower
}

extension FilterKernels {
    /// Colour divided by alpha, alpha kept, rounded as resvg (c / (a/255) + 0.5, truncated).
    static func unpremultiplied(_ p: FilterPixels) -> FilterPixels {
        var out = p
        for k in stride(from: 0, to: out.bytes.count, by: 4) {
            let a = out.bytes[k + 3]
            for i in 0..<3 { out.bytes[k + i] = unpremultiply(out.bytes[k + i], a) }
        }
        return out
    }

    /// Colour times alpha, alpha kept, rounded as resvg (c · a/255 + 0.5, truncated).
    static func premultiplied(_ p: FilterPixels) -> FilterPixels {
        var out = p
        for k in stride(from: 0, to: out.bytes.count, by: 4) {
            let a = out.bytes[k + 3]
            for i in 0..<3 { out.bytes[k + i] = premultiply(out.bytes[k + i], a) }
        }
        return out
    }

    // MARK: - feConvolveMatrix

    /// The kernel over premultiplied channels, or over unpremultiplied colour with each pixel's alpha
    /// kept when `preserveAlpha`; premultiplied out either way. A matrix usvg would reject (its size
    /// not `columns` × `rows`, the target outside it, a zero divisor) gives transparency, as the
    /// transparent flood usvg puts in its place.
    static func convolve(_ m: ConvolveMatrix, input: FilterPixels) -> FilterPixels {
        let w = input.width, h = input.height
        var out = FilterPixels(width: w, height: h)
        guard m.columns > 0, m.rows > 0, m.kernel.count == m.columns * m.rows,
            (0..<m.columns).contains(m.targetX), (0..<m.rows).contains(m.targetY),
            m.divisor != 0, m.divisor.isFinite, w > 0, h > 0
        else { return out }
        let kernel = m.kernel.map(Float.init), divisor = Float(m.divisor), bias = Float(m.bias)
        // The demultiplied bytes (resvg's rounding) are what resvg convolves; alpha is untouched by it.
        let source = m.preserveAlpha ? unpremultiplied(input) : input
        let s = source.bytes

        func along(_ v: Int, _ n: Int) -> Int? {
            switch m.edgeMode {
            case .none: return v >= 0 && v < n ? v : nil
            case .duplicate: return min(max(v, 0), n - 1)
            case .wrap: return ((v % n) + n) % n
            }
        }

        // Each pixel in 0…1 once, and the kernel rotated 180° (the specification's formula reads it from
        // its far corner): the same arithmetic per tap, done once.
        var unit = [SIMD4<Float>](repeating: .zero, count: w * h)
        for i in 0..<w * h {
            let k = i * 4
            let p = SIMD4<Float>(Float(s[k]), Float(s[k + 1]), Float(s[k + 2]), Float(s[k + 3]))
            unit[i] = p / 255
        }
        let rotated = Array(kernel.reversed())
        for y in 0..<h {
            let insideY = y - m.targetY >= 0 && y - m.targetY + m.rows <= h
            for x in 0..<w {
                var sum = SIMD4<Float>.zero
                if insideY && x - m.targetX >= 0 && x - m.targetX + m.columns <= w {
                    // The window inside the picture: no edge to resolve.
                    let x0 = x - m.targetX, y0 = y - m.targetY
                    for oy in 0..<m.rows {
                        let row = (y0 + oy) * w + x0, r = oy * m.columns
                        for ox in 0..<m.columns { sum += unit[row + ox] * rotated[r + ox] }
                    }
                } else {
                    for oy in 0..<m.rows {
                        guard let ty = along(y - m.targetY + oy, h) else { continue }
                        for ox in 0..<m.columns {
                            guard let tx = along(x - m.targetX + ox, w) else { continue }
                            sum += unit[ty * w + tx] * rotated[oy * m.columns + ox]
                        }
                    }
                }
                let k = (y * w + x) * 4
                let alpha = m.preserveAlpha ? Float(s[k + 3]) / 255 : sum.w / divisor + bias
                let a = bound(alpha, 0, 1)
                for i in 0..<3 {
                    // resvg scales the bias by the alpha before clamping it (unclamped without
                    // preserveAlpha), so a bias brightens in proportion to coverage.
                    let c = sum[i] / divisor + bias * alpha
                    let premultipliedColour = m.preserveAlpha ? bound(c, 0, 1) * a : bound(c, 0, a)
                    out.bytes[k + i] = level(premultipliedColour * 255 + 0.5)
                }
                out.bytes[k + 3] = level(a * 255 + 0.5)
            }
        }
        return out
    }

    // MARK: - feMorphology

    /// Each premultiplied channel's minimum (erode) or maximum (dilate) over a window, as resvg: a
    /// radius r spans 2⌈r⌉ pixels (no wider than the picture), from ⌈r⌉ before the pixel to ⌈r⌉ − 1
    /// after it when the picture is wider, and pixels past the picture's edge are left out rather than
    /// read as transparent. A radius that is not positive (or NaN) gives transparency.
    static func morphology(dilate: Bool, radiusX: Double, radiusY: Double, input: FilterPixels) -> FilterPixels {
        let w = input.width, h = input.height
        // resvg holds the radii in f32: a scaled radius a hair over a whole number in Double is not
        // one over there, and must not widen the window.
        let rx = Float(radiusX), ry = Float(radiusY)
        guard rx > 0, ry > 0 else { return FilterPixels(width: w, height: h) }

        func span(_ r: Float, _ n: Int) -> Int {
            let c = r.rounded(.up)
            return c * 2 >= Float(n) ? n : Int(c) * 2
        }
        let columns = span(rx, w), rows = span(ry, h)
        var pixels = (0..<w * h).map { i in
            SIMD4(input.bytes[i * 4], input.bytes[i * 4 + 1], input.bytes[i * 4 + 2], input.bytes[i * 4 + 3])
        }
        // A rectangle's extreme is the extreme along y of the extremes along x, also where it is clipped
        // by the picture, so two passes give resvg's bytes.
        for y in 0..<h {
            let row = Array(pixels[y * w..<(y + 1) * w])
            let done = slidingExtreme(row, span: columns, before: columns / 2, dilate: dilate)
            pixels.replaceSubrange(y * w..<(y + 1) * w, with: done)
        }
        for x in 0..<w {
            let column = (0..<h).map { pixels[$0 * w + x] }
            let done = slidingExtreme(column, span: rows, before: rows / 2, dilate: dilate)
            for y in 0..<h { pixels[y * w + x] = done[y] }
        }
        var out = FilterPixels(width: w, height: h)
        for (i, p) in pixels.enumerated() {
            for c in 0..<4 { out.bytes[i * 4 + c] = p[c] }
        }
        return out
    }

    /// For each i, the extreme of `line[i - before ..< i - before + span]` clipped to the line (van Herk /
    /// Gil-Werman: running extremes from both ends of each `span`-long block make every window two
    /// lookups, so a wide radius costs what a narrow one does). Padding with the operation's identity
    /// stands in for the clipping.
    private static func slidingExtreme(
        _ line: [SIMD4<UInt8>], span: Int, before: Int, dilate: Bool
    ) -> [SIMD4<UInt8>] {
        guard !line.isEmpty, span > 0 else { return line }
        let identity = SIMD4<UInt8>(repeating: dilate ? 0 : 255)
        func pick(_ a: SIMD4<UInt8>, _ b: SIMD4<UInt8>) -> SIMD4<UInt8> {
            dilate ? pointwiseMax(a, b) : pointwiseMin(a, b)
        }
        let padded = Array(repeating: identity, count: before) + line + Array(repeating: identity, count: span)
        var fromBlockStart = padded, fromBlockEnd = padded
        for q in 1..<padded.count where q % span != 0 {
            fromBlockStart[q] = pick(fromBlockStart[q - 1], padded[q])
        }
        for q in stride(from: padded.count - 2, through: 0, by: -1) where (q + 1) % span != 0 {
            fromBlockEnd[q] = pick(fromBlockEnd[q + 1], padded[q])
        }
        return (0..<line.count).map { i in pick(fromBlockEnd[i], fromBlockStart[i + span - 1]) }
    }

    // MARK: - feDisplacementMap

    /// Each pixel takes the input's pixel (premultiplied, as it is) at
    /// (x + scaleX · (map[xChannel] / 255 − ½), y + scaleY · (map[yChannel] / 255 − ½)), rounded half
    /// away from zero, or transparency where that falls outside. Channels 0…3 are R, G, B, A (anything
    /// else A, usvg's default). The map's bytes are read as they are, premultiplied: resvg does not
    /// demultiply them, though the specification asks for unpremultiplied values; they differ only
    /// where the map is translucent.
    static func displacementMap(
        scaleX: Double, scaleY: Double, xChannel: Int, yChannel: Int, input: FilterPixels, map: FilterPixels
    ) -> FilterPixels {
        precondition(map.width == input.width && map.height == input.height, "the map covers the input")
        let w = input.width, h = input.height
        let cx = (0...3).contains(xChannel) ? xChannel : 3, cy = (0...3).contains(yChannel) ? yChannel : 3
        let sx = Float(scaleX), sy = Float(scaleY)
        var out = FilterPixels(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let k = (y * w + x) * 4
                let fromX = (Float(x) + (Float(map.bytes[k + cx]) / 255 - 0.5) * sx).rounded()
                let fromY = (Float(y) + (Float(map.bytes[k + cy]) / 255 - 0.5) * sy).rounded()
                // Compared as floats first, so NaN and huge offsets never reach the Int conversion.
                guard fromX >= 0, fromX < Float(w), fromY >= 0, fromY < Float(h) else { continue }
                let j = (Int(fromY) * w + Int(fromX)) * 4
                for c in 0..<4 { out.bytes[k + c] = input.bytes[j + c] }
            }
        }
        return out
    }

    // MARK: - feComponentTransfer

    /// R, G, B and A functions (`functions[0...3]`, missing ones identity) on unpremultiplied levels,
    /// premultiplied by the new alpha after. Transparent pixels go through too (colour 0), so an alpha
    /// function can make them visible. The round trip through unpremultiplied bytes happens even when
    /// every function is identity, as in resvg.
    static func componentTransfer(_ functions: [TransferFunction], input: FilterPixels) -> FilterPixels {
        // A function of a byte only: 256 entries are cheaper than a pow per pixel.
        let tables = (0..<4).map { i in i < functions.count ? transferTable(functions[i]) : nil }
        var out = input
        for k in stride(from: 0, to: out.bytes.count, by: 4) {
            let a = input.bytes[k + 3]
            let newA = tables[3]?[Int(a)] ?? a
            for i in 0..<3 {
                let c = unpremultiply(input.bytes[k + i], a)
                out.bytes[k + i] = premultiply(tables[i]?[Int(c)] ?? c, newA)
            }
            out.bytes[k + 3] = newA
        }
        return out
    }

    /// The function on each level, or nil where resvg leaves the channel alone: identity, and a table
    /// or discrete function without values. Leaving it alone matters: c / 255 · 255 in f32 can fall
    /// just under c and truncate to c − 1.
    private static func transferTable(_ f: TransferFunction) -> [UInt8]? {
        switch f {
        case .identity: return nil
        case .table(let v) where v.isEmpty, .discrete(let v) where v.isEmpty: return nil
        default: return (0...255).map { transfer(f, Float($0) / 255) }
        }
    }

    /// The level for `c` in 0…1: clamped and truncated, not rounded, as resvg stores it.
    private static func transfer(_ f: TransferFunction, _ c: Float) -> UInt8 {
        let v: Float
        switch f {
        case .identity:
            v = c
        case .table(let values):
            let n = values.count - 1
            let k = min(Int((c * Float(n)).rounded(.down)), n)
            if k == n {
                v = Float(values[k])
            } else {
                let low = Float(values[k]), high = Float(values[k + 1])
                v = low + (c - Float(k) / Float(n)) * Float(n) * (high - low)
            }
        case .discrete(let values):
            let n = values.count
            v = Float(values[min(Int((c * Float(n)).rounded(.down)), n - 1)])
        case .linear(let slope, let intercept):
            v = Float(slope) * c + Float(intercept)
        case .gamma(let amplitude, let exponent, let offset):
            v = Float(amplitude) * pow(c, Float(exponent)) + Float(offset)
        }
        return level(bound(v, 0, 1) * 255)
    }
}
