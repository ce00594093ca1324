/// The filter primitives that move and combine whole pictures: colour-space conversion, offsets,
/// tiles, placed images, source-over, blend modes, Porter-Duff and arithmetic compositing, colour
/// matrices and drop shadows, on premultiplied RGBA8 with resvg's rounding.
import Foundation
import ReelGeometry

extension FilterKernels {
    /// `image` drawn into `p` (whose pixel 0, 0 is device pixel `originX`, `originY`) where `place` maps
    /// its pixels in device space: each pixel whose centre maps into the picture's rectangle sampled
    /// there bilinearly between texel centres, the edge texels extending outwards (as the raster draws
    /// images, and resvg); the rest transparent.
    static func drawImage(_ image: RasterImage, place: Transform2D, originX: Int, originY: Int, into p: inout FilterPixels) {
        guard let back = place.inverted else { return }
        let iw = image.width, ih = image.height, w = p.width
        image.pixels.withUnsafeBufferPointer { src in
            func texel(_ i: Int, _ j: Int) -> SIMD4<Double> {
                let k = (min(max(j, 0), ih - 1) * iw + min(max(i, 0), iw - 1)) * 4
                return SIMD4(Double(src[k]), Double(src[k + 1]), Double(src[k + 2]), Double(src[k + 3]))
            }
            for y in 0..<p.height {
                for x in 0..<w {
                    let q = back.apply(Point(x: Double(originX + x) + 0.5, y: Double(originY + y) + 0.5))
                    guard q.x >= 0, q.y >= 0, q.x < Double(iw), q.y < Double(ih) else { continue }
                    let u = q.x - 0.5, v = q.y - 0.5
                    let i = Int(u.rounded(.down)), j = Int(v.rounded(.down))
                    let fx = u - Double(i), fy = v - Double(j)
                    let top = texel(i, j) * (1 - fx) + texel(i + 1, j) * fx
                    let bottom = texel(i, j + 1) * (1 - fx) + texel(i + 1, j + 1) * fx
                    let c = top * (1 - fy) + bottom * fy
                    let k = (y * w + x) * 4
                    for n in 0..<4 { p.bytes[k + n] = UInt8(min(max(c[n].rounded(), 0), 255)) }
                }
            }
        }
    }

    /// A result's pixels in the colour space asked for.
    static func converted(_ r: Result, linear: Bool) -> FilterPixels {
        guard r.linear != linear else { return r.pixels }
        let table = linear ? ColorSpaceTables.toLinear : ColorSpaceTables.toSRGB
        var p = r.pixels
        p.bytes.withUnsafeMutableBufferPointer { b in
            for k in stride(from: 0, to: b.count, by: 4) where b[k + 3] != 0 {
                let a = b[k + 3]
                for c in 0..<3 { b[k + c] = premultiply(table[Int(unpremultiply(b[k + c], a))], a) }
            }
        }
        return p
    }

    /// resvg's rounding both ways, so that a conversion there and back lands where its does.
    @inline(__always) static func unpremultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
        a == 0 ? 0 : UInt8(min(255, Float(c) / (Float(a) / 255) + 0.5))
    }

    @inline(__always) static func premultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
        UInt8(Float(c) * (Float(a) / 255) + 0.5)
    }

    /// A distance as whole pixels, truncated toward zero (resvg), held to ±10⁷ (past any region) and NaN
    /// as none, so that no value traps on conversion.
    static func wholePixels(_ d: Double) -> Int { d.isNaN ? 0 : Int(min(max(d, -1e7), 1e7)) }

    /// Transparent outside `area`.
    static func clear(_ p: inout FilterPixels, outside area: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        let w = p.width
        for y in 0..<p.height {
            let inside = y >= area.y0 && y < area.y1
            for x in 0..<w where !inside || x < area.x0 || x >= area.x1 {
                let k = (y * w + x) * 4
                p.bytes[k] = 0
                p.bytes[k + 1] = 0
                p.bytes[k + 2] = 0
                p.bytes[k + 3] = 0
            }
        }
    }

    /// Moved by whole pixels; what comes in from outside is transparent.
    static func shifted(_ p: FilterPixels, dx: Int, dy: Int) -> FilterPixels {
        var out = FilterPixels(width: p.width, height: p.height)
        for y in 0..<p.height {
            let sy = y - dy
            guard sy >= 0, sy < p.height else { continue }
            for x in 0..<p.width {
                let sx = x - dx
                guard sx >= 0, sx < p.width else { continue }
                for c in 0..<4 { out.bytes[(y * p.width + x) * 4 + c] = p.bytes[(sy * p.width + sx) * 4 + c] }
            }
        }
        return out
    }

    /// The tile's pixels repeated over the whole picture, aligned to the tile's own place.
    static func tiled(_ p: FilterPixels, tile: (x0: Int, y0: Int, x1: Int, y1: Int)) -> FilterPixels {
        let tw = tile.x1 - tile.x0, th = tile.y1 - tile.y0
        guard tw > 0, th > 0 else { return FilterPixels(width: p.width, height: p.height) }
        var out = FilterPixels(width: p.width, height: p.height)
        func wrap(_ v: Int, _ n: Int) -> Int { ((v % n) + n) % n }
        for y in 0..<p.height {
            let sy = tile.y0 + wrap(y - tile.y0, th)
            for x in 0..<p.width {
                let sx = tile.x0 + wrap(x - tile.x0, tw)
                for c in 0..<4 { out.bytes[(y * p.width + x) * 4 + c] = p.bytes[(sy * p.width + sx) * 4 + c] }
            }
        }
        return out
    }

    /// `top` source-over onto `p`.
    static func sourceOver(_ top: FilterPixels, onto p: inout FilterPixels) {
        for k in stride(from: 0, to: p.bytes.count, by: 4) {
            let sa = Float(top.bytes[k + 3]) / 255
            guard sa > 0 else { continue }
            for c in 0..<4 {
                p.bytes[k + c] = UInt8(min(255, (Float(top.bytes[k + c]) + Float(p.bytes[k + c]) * (1 - sa)).rounded()))
            }
        }
    }

    /// `top` blended onto `p` by `mode` (the compositing of CSS's blend modes).
    static func blend(_ top: FilterPixels, onto p: inout FilterPixels, mode: FilterBlendMode) {
        let m =
            BlendMode(
                rawValue: mode.rawValue.replacingOccurrences(of: "-d", with: "D")
                    .replacingOccurrences(of: "-b", with: "B").replacingOccurrences(of: "-l", with: "L")) ?? .normal
        for k in stride(from: 0, to: p.bytes.count, by: 4) {
            let s =
                SIMD4<Float>(Float(top.bytes[k]), Float(top.bytes[k + 1]), Float(top.bytes[k + 2]), Float(top.bytes[k + 3])) / 255
            guard s.w > 0 else { continue }
            let d = SIMD4<Float>(Float(p.bytes[k]), Float(p.bytes[k + 1]), Float(p.bytes[k + 2]), Float(p.bytes[k + 3])) / 255
            let cs = SIMD3(s.x, s.y, s.z) / s.w
            let cb = d.w > 0 ? SIMD3(d.x, d.y, d.z) / d.w : SIMD3<Float>(repeating: 0)
            let b = blended(cb, cs, m)
            let rgb = SIMD3(s.x, s.y, s.z) * (1 - d.w) + SIMD3(d.x, d.y, d.z) * (1 - s.w) + b * (s.w * d.w)
            let a = s.w + d.w * (1 - s.w)
            store(SIMD4(rgb.x, rgb.y, rgb.z, a), &p.bytes, k)
        }
    }

    /// Premultiplied channels in 0…1 stored rounded, no colour above its alpha.
    @inline(__always) static func store(_ v: SIMD4<Float>, _ bytes: inout [UInt8], _ k: Int) {
        let a = min(max(v.w, 0), 1)
        for c in 0..<3 { bytes[k + c] = UInt8((min(max(v[c], 0), a) * 255).rounded()) }
        bytes[k + 3] = UInt8((a * 255).rounded())
    }

    /// Porter-Duff with `top` as source and `below` as destination, or the arithmetic combination.
    static func composite(_ top: FilterPixels, _ below: FilterPixels, _ op: FilterComposite) -> FilterPixels {
        var out = FilterPixels(width: top.width, height: top.height)
        for k in stride(from: 0, to: out.bytes.count, by: 4) {
            let s =
                SIMD4<Float>(Float(top.bytes[k]), Float(top.bytes[k + 1]), Float(top.bytes[k + 2]), Float(top.bytes[k + 3])) / 255
            let d =
                SIMD4<Float>(
                    Float(below.bytes[k]), Float(below.bytes[k + 1]), Float(below.bytes[k + 2]), Float(below.bytes[k + 3])) / 255
            let v: SIMD4<Float>
            switch op {
            case .over: v = s + d * (1 - s.w)
            case .in: v = s * d.w
            case .out: v = s * (1 - d.w)
            case .atop: v = s * d.w + d * (1 - s.w)
            case .xor: v = s * (1 - d.w) + d * (1 - s.w)
            case .arithmetic(let k1, let k2, let k3, let k4):
                let r = Float(k1) * s * d + Float(k2) * s + Float(k3) * d + SIMD4(repeating: Float(k4))
                v = r.clamped(lowerBound: .zero, upperBound: .one)
            }
            store(v, &out.bytes, k)
        }
        return out
    }

    /// The matrix on unpremultiplied colour (resvg's rounding on the way in and out).
    static func colorMatrix(_ p: FilterPixels, _ m: [Double]) -> FilterPixels {
        guard m.count == 20 else { return p }
        let f = m.map(Float.init)
        var out = p
        for k in stride(from: 0, to: p.bytes.count, by: 4) {
            let a = p.bytes[k + 3]
            let c =
                SIMD4<Float>(
                    Float(unpremultiply(p.bytes[k], a)), Float(unpremultiply(p.bytes[k + 1], a)),
                    Float(unpremultiply(p.bytes[k + 2], a)), Float(a)) / 255
            var o = SIMD4<Float>.zero
            for r in 0..<4 {
                o[r] = f[r * 5] * c.x + f[r * 5 + 1] * c.y + f[r * 5 + 2] * c.z + f[r * 5 + 3] * c.w + f[r * 5 + 4]
            }
            o = o.clamped(lowerBound: .zero, upperBound: .one) * 255
            let oa = UInt8(o.w.rounded())
            for i in 0..<3 { out.bytes[k + i] = premultiply(UInt8(o[i].rounded()), oa) }
            out.bytes[k + 3] = oa
        }
        return out
    }

    /// The input over its shadow: its alpha blurred, flooded with `color`, offset.
    static func dropShadow(
        _ input: FilterPixels, dx: Double, dy: Double, sigmaX: Double, sigmaY: Double, color: Color, linear: Bool
    ) -> FilterPixels {
        var shadow = input
        blur(&shadow, sigmaX: sigmaX, sigmaY: sigmaY)
        let c = SIMD3(Color.unit(color.red), Color.unit(color.green), Color.unit(color.blue))
        let table = ColorSpaceTables.toLinear
        for k in stride(from: 0, to: shadow.bytes.count, by: 4) {
            let a = UInt8((Double(shadow.bytes[k + 3]) * Color.unit(color.alpha)).rounded())
            for i in 0..<3 {
                let level = UInt8((c[i] * 255).rounded())
                shadow.bytes[k + i] = premultiply(linear ? table[Int(level)] : level, a)
            }
            shadow.bytes[k + 3] = a
        }
        var out = shifted(shadow, dx: wholePixels(dx), dy: wholePixels(dy))
        sourceOver(input, onto: &out)
        return out
    }
}
