/// The per-pixel kernels: source-over of a colour or of shaded runs at a coverage, in SIMD lanes.
import Foundation
import ReelGeometry

/// Premultiplied source-over of `color` (0…255) scaled by `coverage` onto an 8-bit pixel, rounded to
/// nearest (ties to even).
///
/// The four channels go through SIMD lanes together; the float result is rounded by adding 1.5·2²³,
/// which leaves the rounded integer in the low mantissa bits (exact for 0…2²²), instead of a
/// checked Float → Int conversion per channel. The result never exceeds 255: s + d·(1 − sₐ/255) ≤ 255.
@inline(__always) func blend(_ p: UnsafeMutablePointer<UInt8>, _ color: SIMD4<Float>, _ coverage: Float) {
    let s = color * coverage
    blendPixel(p, s, inverse: 1 - s.w * (1 / 255))
}

/// `blend` over `count` pixels at one coverage, the scaled colour and its inverse alpha made once.
@inline(__always) func blend(_ p: UnsafeMutablePointer<UInt8>, count: Int, _ color: SIMD4<Float>, _ coverage: Float) {
    let s = color * coverage
    let inverse = 1 - s.w * (1 / 255)
    for i in 0..<count { blendPixel(p + i &* 4, s, inverse: inverse) }
}

/// `blend` over `count` pixels at one coverage, a full one through `full` (`ConstantSourceOver`'s 16-bit
/// lanes): a run inside a shape.
@inline(__always) func blend(
    _ p: UnsafeMutablePointer<UInt8>, count: Int, _ color: SIMD4<Float>, _ coverage: Float, full: ConstantSourceOver
) {
    if coverage >= 1 {
        full.apply(to: p, count: count)
    } else {
        blend(p, count: count, color, coverage)
    }
}

/// Source-over of `color` onto `count` pixels (1…4), each at its own coverage (the lanes of
/// `coverages`; zero leaves a pixel as it is): four pixels where a shape's edge crosses a row
/// (`CoverageScratch.quads`), as solid fills were drawn before the C kernels' `solid_rows`, which
/// the tests hold to these bytes. A pixel under full coverage takes `full`'s bytes and the others
/// `blend`'s, as when the walk handed each pixel over as a run of its own; the lanes do `blend`'s
/// arithmetic operation for operation (at coverage zero, 0 + d · 1 is d), so the bytes are the same.
/// `color16` is `color` repeated over four pixels.
@inline(__always) func blend(
    _ p: UnsafeMutablePointer<UInt8>, count: Int, _ color: SIMD4<Float>, _ color16: SIMD16<Float>,
    coverages c: SIMD4<Float>, full: ConstantSourceOver
) {
    guard count == 4 else {
        for i in 0..<count {
            if c[i] >= 1 {
                full.apply(to: p + i &* 4, count: 1)
            } else if c[i] > 0 {
                blend(p + i &* 4, color, c[i])
            }
        }
        return
    }
    let raw = UnsafeMutableRawPointer(p)
    let s =
        color16 * SIMD16<Float>(c[0], c[0], c[0], c[0], c[1], c[1], c[1], c[1], c[2], c[2], c[2], c[2], c[3], c[3], c[3], c[3])
    let bytes = raw.loadUnaligned(as: SIMD16<UInt8>.self)
    let d = unsafeBitCast(widened(bytes) | 0x4B00_0000, to: SIMD16<Float>.self) - 8_388_608
    let r = s + d * (1 - alphas(s) * (1 / 255))
    let packed = unsafeBitCast(r + SIMD16(repeating: 12_582_912), to: SIMD16<UInt32>.self)
    let partial = unsafeBitCast(SIMD16<UInt8>(truncatingIfNeeded: packed), to: SIMD4<UInt32>.self)
    let whole = unsafeBitCast(full.four(bytes), to: SIMD4<UInt32>.self)
    raw.storeBytes(of: partial.replacing(with: whole, where: c .>= 1), as: SIMD4<UInt32>.self)
}

/// s + d · inverse onto one pixel's bytes d, rounded (`unpack`, `pack`).
@inline(__always) private func blendPixel(_ p: UnsafeMutablePointer<UInt8>, _ s: SIMD4<Float>, inverse: Float) {
    let raw = UnsafeMutableRawPointer(p)
    raw.storeBytes(of: pack(s + unpack(raw.loadUnaligned(as: UInt32.self)) * inverse), as: UInt32.self)
}

/// Where a row of shaded colours is still to be dithered (a gradient's ramp colours): the dither
/// pattern's row (`(y & 7) · 8`) and the first pixel's column.
struct DitherPlace {
    let row: Int
    let x0: Int
}

/// The alpha lane of each of four pixels, repeated over its four lanes.
@inline(__always) func alphas(_ s: SIMD16<Float>) -> SIMD16<Float> {
    SIMD16<Float>(s[3], s[3], s[3], s[3], s[7], s[7], s[7], s[7], s[11], s[11], s[11], s[11], s[15], s[15], s[15], s[15])
}

/// Composites shaded colours at one coverage (dithered first when `dither` says where); fully covered
/// opaque pixels are stored without reading what is below (source-over of an opaque source is the
/// source).
@inline(__always) func blendShaded(
    _ out: UnsafeMutablePointer<UInt8>, _ colors: UnsafeMutablePointer<SIMD4<Float>>, count: Int, _ c: Float,
    dither: DitherPlace? = nil
) {
    // Four pixels at a time in sixteen lanes: the lanes do `dithered`'s and `blend`'s arithmetic,
    // operation for operation (an opaque source gives d·0 added to it, itself), so the bytes are the same.
    var i = 0
    let raw = UnsafeMutableRawPointer(out)
    let source = UnsafeRawPointer(colors)
    while i &+ 4 <= count {
        let s = source.loadUnaligned(fromByteOffset: i &* 16, as: SIMD16<Float>.self)
        let bytes = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<UInt8>.self)
        let d = dither.map { ditherLanes[$0.row &+ (($0.x0 &+ i) & 7)] }
        raw.storeBytes(of: compositeLanes(s, onto: bytes, coverage: c, dither: d), toByteOffset: i &* 4, as: SIMD16<UInt8>.self)
        i &+= 4
    }
    if i == count { return }
    if let dither {
        for j in i..<count {
            colors[j] = GradientShader.dithered(colors[j], ditherOffsets[dither.row &+ ((dither.x0 &+ j) & 7)])
        }
    }
    let rest = count &- i
    let out = out + i &* 4, colors = colors + i
    let count = rest
    if c >= 1 {
        for i in 0..<count {
            let color = colors[i]
            if color.w >= 255 {
                UnsafeMutableRawPointer(out + i &* 4).storeBytes(of: pack(color), as: UInt32.self)
            } else {
                blend(out + i &* 4, color, 1)
            }
        }
    } else {
        for i in 0..<count { blend(out + i &* 4, colors[i], c) }
    }
}

/// `blendShaded` pixel by pixel, each at its own coverage (`coverages[0 ..< count]`; zero leaves a
/// pixel as it is): a stretch of edge pixels where a lanes kernel declined it.
@inline(__always) func blendShaded(
    _ out: UnsafeMutablePointer<UInt8>, _ colors: UnsafeMutablePointer<SIMD4<Float>>, count: Int,
    coverages: UnsafePointer<Float>, dither: DitherPlace? = nil
) {
    for i in 0..<count where coverages[i] > 0 {
        blendShaded(
            out + i &* 4, colors + i, count: 1, coverages[i], dither: dither.map { DitherPlace(row: $0.row, x0: $0.x0 &+ i) })
    }
}

/// Four shaded pixels (premultiplied, 0…255) composited onto four pixels' bytes at coverage `c`, dithered
/// first when `dither` is given: `GradientShader.dithered` then `blend`, operation for operation, in
/// sixteen lanes (an opaque source adds d·0 to itself, so fully covered opaque pixels come out as the
/// source).
@inline(__always) func compositeLanes(
    _ source: SIMD16<Float>, onto bytes: SIMD16<UInt8>, coverage c: Float, dither: SIMD16<Float>?
) -> SIMD16<UInt8> {
    var s = source
    if let dither { s = clampedToAlpha(s + dither, alphas(s)) }
    if c < 1 { s *= c }
    let d = unsafeBitCast(widened(bytes) | 0x4B00_0000, to: SIMD16<Float>.self) - 8_388_608
    let r = s + d * (1 - alphas(s) * (1 / 255))
    let packed = unsafeBitCast(r + SIMD16(repeating: 12_582_912), to: SIMD16<UInt32>.self)
    return SIMD16<UInt8>(truncatingIfNeeded: packed)
}

/// Four RGBA bytes as floats 0…255: each byte placed in the mantissa of 2²³ and 2²³ taken away, in SIMD
/// lanes (a conversion lane by lane compiles to four scalar conversions). Exact. Measured: a quarter
/// faster image fills (four texels a pixel).
@inline(__always) func unpack(_ word: UInt32) -> SIMD4<Float> {
    let bytes = unsafeBitCast(word, to: SIMD4<UInt8>.self)
    let lanes = SIMD4<UInt32>(truncatingIfNeeded: bytes) | 0x4B00_0000
    return unsafeBitCast(lanes, to: SIMD4<Float>.self) - 8_388_608
}

/// Sixteen bytes zero-extended to 32-bit lanes, spelled lane by lane: the compiler turns this into
/// unpacks with zero, inline, where `SIMD16<UInt32>(truncatingIfNeeded:)` is a call (which makes every
/// live vector of a kernel spill around it).
@inline(__always) func widened(_ b: SIMD16<UInt8>) -> SIMD16<UInt32> {
    SIMD16<UInt32>(
        UInt32(b[0]), UInt32(b[1]), UInt32(b[2]), UInt32(b[3]), UInt32(b[4]), UInt32(b[5]), UInt32(b[6]), UInt32(b[7]),
        UInt32(b[8]), UInt32(b[9]), UInt32(b[10]), UInt32(b[11]), UInt32(b[12]), UInt32(b[13]), UInt32(b[14]), UInt32(b[15]))
}

/// Each lane's low byte (of 16- or 32-bit lanes), lane by lane (see `widened`): packs in vector
/// registers, where `SIMD16<UInt8>(truncatingIfNeeded:)` can be a call.
@inline(__always) func lowBytes<Lane: FixedWidthInteger & SIMDScalar>(_ w: SIMD16<Lane>) -> SIMD16<UInt8> {
    SIMD16<UInt8>(
        UInt8(truncatingIfNeeded: w[0]), UInt8(truncatingIfNeeded: w[1]), UInt8(truncatingIfNeeded: w[2]),
        UInt8(truncatingIfNeeded: w[3]), UInt8(truncatingIfNeeded: w[4]), UInt8(truncatingIfNeeded: w[5]),
        UInt8(truncatingIfNeeded: w[6]), UInt8(truncatingIfNeeded: w[7]), UInt8(truncatingIfNeeded: w[8]),
        UInt8(truncatingIfNeeded: w[9]), UInt8(truncatingIfNeeded: w[10]), UInt8(truncatingIfNeeded: w[11]),
        UInt8(truncatingIfNeeded: w[12]), UInt8(truncatingIfNeeded: w[13]), UInt8(truncatingIfNeeded: w[14]),
        UInt8(truncatingIfNeeded: w[15]))
}

/// Sixteen 16-bit lanes zero-extended to 32 bits, lane by lane (see `widened`).
@inline(__always) func widened(_ b: SIMD16<UInt16>) -> SIMD16<UInt32> {
    SIMD16<UInt32>(
        UInt32(b[0]), UInt32(b[1]), UInt32(b[2]), UInt32(b[3]), UInt32(b[4]), UInt32(b[5]), UInt32(b[6]), UInt32(b[7]),
        UInt32(b[8]), UInt32(b[9]), UInt32(b[10]), UInt32(b[11]), UInt32(b[12]), UInt32(b[13]), UInt32(b[14]), UInt32(b[15]))
}

/// Sixteen bytes zero-extended to 16-bit lanes, lane by lane (see `widened`).
@inline(__always) func widened16(_ b: SIMD16<UInt8>) -> SIMD16<UInt16> {
    SIMD16<UInt16>(
        UInt16(b[0]), UInt16(b[1]), UInt16(b[2]), UInt16(b[3]), UInt16(b[4]), UInt16(b[5]), UInt16(b[6]), UInt16(b[7]),
        UInt16(b[8]), UInt16(b[9]), UInt16(b[10]), UInt16(b[11]), UInt16(b[12]), UInt16(b[13]), UInt16(b[14]), UInt16(b[15]))
}

/// Rounds four channel values in 0…255 and packs them as RGBA bytes: each lane's low byte taken lane
/// by lane, which the compiler keeps in vector registers (`pand`, `packuswb`); masks, shifts and ors of
/// the lanes stayed scalar (with `unpack`, `blend` went from 44 instructions a pixel to 11).
@inline(__always) func pack(_ v: SIMD4<Float>) -> UInt32 {
    let bits = unsafeBitCast(v + SIMD4(repeating: 12_582_912), to: SIMD4<UInt32>.self)
    let bytes = SIMD4<UInt8>(
        UInt8(truncatingIfNeeded: bits[0]), UInt8(truncatingIfNeeded: bits[1]), UInt8(truncatingIfNeeded: bits[2]),
        UInt8(truncatingIfNeeded: bits[3]))
    return unsafeBitCast(bytes, to: UInt32.self)
}

/// Source-over of one constant premultiplied colour onto runs of pixels: out = s + d·(1 − sₐ/255),
/// rounded to nearest, in 8.8 fixed point with the factor kept to 1/65536. Four pixels go through
/// SIMD lanes at a time (the compiler emits SSE2 for it); a result differs from the float formula only
/// where that lands within 0.01 level of a rounding tie.
struct ConstantSourceOver {
    let opaqueWord: UInt32?
    let keep: UInt16
    /// `keep` over two pixels' lanes, made once: built from `keep` inside the loop, they were rebuilt on
    /// every four pixels (three of the loop's 20 instructions).
    let keep8: SIMD8<UInt16>
    /// The colour in 8.8 fixed point plus ½ for rounding, repeated for two pixels.
    let add8: SIMD8<UInt16>
    /// The same four values in one word, 16 bits each from the low (the C kernels' `add`).
    let addWord: UInt64

    @inline(__always) init(_ color: SIMD4<Float>) {
        opaqueWord = color.w >= 255 ? pack(color) : nil
        keep = UInt16(min(65535, (max(0, 1 - color.w / 255) * 65536).rounded()))
        func fixed(_ v: Float) -> UInt16 { UInt16((min(max(v, 0), 255) * 256).rounded()) &+ 128 }
        let one = SIMD4<UInt16>(fixed(color.x), fixed(color.y), fixed(color.z), fixed(color.w))
        add8 = SIMD8(lowHalf: one, highHalf: one)
        addWord = UInt64(one[0]) | UInt64(one[1]) << 16 | UInt64(one[2]) << 32 | UInt64(one[3]) << 48
        keep8 = SIMD8(repeating: keep)
    }

    /// Four pixels' bytes after source-over (`apply`'s result for them).
    @inline(__always) func four(_ d: SIMD16<UInt8>) -> SIMD16<UInt8> {
        if let word = opaqueWord { return unsafeBitCast(SIMD4<UInt32>(repeating: word), to: SIMD16<UInt8>.self) }
        return translucent(d)
    }

    /// Four pixels under a colour that is not opaque.
    @inline(__always) private func translucent(_ d: SIMD16<UInt8>) -> SIMD16<UInt8> {
        // d · keep in 8.8 (the high half of d·256 × keep), plus the colour, in two pixels' lanes at a time.
        let low = Fixed87.productHigh(Fixed87.highBytes(d.lowHalf), keep8) &+ add8
        let high = Fixed87.productHigh(Fixed87.highBytes(d.highHalf), keep8) &+ add8
        return lowBytes(SIMD16(lowHalf: low, highHalf: high) &>> 8)
    }

    @inline(__always) func apply(to p: UnsafeMutablePointer<UInt8>, count: Int) {
        let raw = UnsafeMutableRawPointer(p)
        if let word = opaqueWord {
            raw.bindMemory(to: UInt32.self, capacity: count).update(repeating: word, count: count)
            return
        }
        var i = 0
        while i &+ 4 <= count {
            let d = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: translucent(d), toByteOffset: i &* 4, as: SIMD16<UInt8>.self)
            i &+= 4
        }
        while i < count {
            let d = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<UInt8>.self)
            let d88 = SIMD4<UInt16>(truncatingIfNeeded: d) &<< 8
            let scaled = SIMD4<UInt16>(
                truncatingIfNeeded: (SIMD4<UInt32>(truncatingIfNeeded: d88) &* SIMD4(repeating: UInt32(keep))) &>> 16)
            let a = SIMD4<UInt16>(add8[0], add8[1], add8[2], add8[3])
            raw.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: (scaled &+ a) &>> 8), toByteOffset: i &* 4, as: SIMD4<UInt8>.self)
            i &+= 1
        }
    }
}
