/// The image's span kernel: bilinear samples and source-over in 16-bit lanes, two pixels per register.
import ReelGeometry

/// An image drawn through an affine transform: texel coordinates stepped in 16.16 fixed point and
/// clamped to the image (its edge texels extend outwards, as `ImageShader.shade` clamps), each pixel's
/// two texel pairs read as two 8-byte loads, the bilinear weights in 0.16 and the products' high halves
/// (`pmulhuw`), source-over in 8.8 as `Fixed87`'s.
///
/// Not bit for bit `ImageShader.shade` then `blendShaded` (floats): the sample position is held to
/// 1/2048 of a texel (stepped in 1/65536, taken again from doubles every 64 pixels; a sample on the
/// last column or row reads its texel at weight 65535/65536), the products truncated to 1/256 of a
/// level, so a byte may differ from theirs by one level where the exact value lies near a rounding tie.
struct ImageLanes {
    let shader: ImageShader

    /// Whether an image's texel coordinates fit 16.16 fixed point, with a texel pair in every row.
    static func fits(_ image: RasterImage) -> Bool {
        image.width >= 2 && image.height >= 2 && image.width < 16_384 && image.height < 16_384
    }

    /// Source-over of the image at coverage `c` onto pixels x0 ..< x0 + count of row y (`out` is the
    /// first), or false (nothing drawn) for spans of fewer than four pixels (a shape's edges cost more
    /// to set up here than in the float path) and where `lanes` declines.
    @inline(__always) func composite(
        texels: UnsafeRawPointer, y: Int, x0: Int, count: Int, into out: UnsafeMutablePointer<UInt8>, coverage c: Float
    ) -> Bool {
        guard count >= 4 else { return false }
        // Opacity and coverage as one factor in 0.16, applied only below 1.
        let factor = shader.opacity * c
        let f16 = SIMD16<UInt16>(repeating: UInt16(min(factor * 65536 + 0.5, 65535)))
        return lanes(texels: texels, y: y, x0: x0, count: count, into: out, scaled: factor < 1) { _ in f16 }
    }

    /// The same over pixels each at its own coverage (`coverages[0 ..< count]`, readable three past the
    /// end; see `CoverageScratch.runs`), count ≥ 1: a stretch of edge pixels in one call.
    @inline(__always) func composite(
        texels: UnsafeRawPointer, y: Int, x0: Int, count: Int, into out: UnsafeMutablePointer<UInt8>,
        coverages: UnsafePointer<Float>
    ) -> Bool {
        let cov = UnsafeRawPointer(coverages), k = shader.opacity
        return lanes(texels: texels, y: y, x0: x0, count: count, into: out, scaled: true) { i in
            Fixed87.spread(cov.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self) * k)
        }
    }

    /// The kernel, each four pixels' factor (opacity × coverage in 0.16, each pixel's over its four
    /// lanes; applied where `scaled`) from `factor(i)`; false (nothing drawn) for spans whose samples
    /// reach 16,384 texels or more from the image's corner, and for the identity on whole pixels
    /// (`ImageShader.shade`'s exact path).
    @inline(__always) private func lanes(
        texels: UnsafeRawPointer, y: Int, x0: Int, count: Int, into out: UnsafeMutablePointer<UInt8>, scaled: Bool,
        _ factor: (Int) -> SIMD16<UInt16>
    ) -> Bool {
        let inverse = shader.inverse, w = shader.image.width, h = shader.image.height
        let py = Double(y) + 0.5, px = Double(x0) + 0.5
        let u = inverse.a * px + inverse.c * py + inverse.tx - 0.5
        let v = inverse.b * px + inverse.d * py + inverse.ty - 0.5
        let du = inverse.a, dv = inverse.b
        // Whole texels by adding 1.5·2⁵² (`rounded()` is a call without SSE4.1, and the compiler hoisted
        // both calls above the tests on the matrix, into every span); wrong only beyond 2⁵¹, where the
        // limit below declines the span anyway.
        if inverse.a == 1, inverse.b == 0, inverse.c == 0, inverse.d == 1, u == Fixed87.nearest(u), v == Fixed87.nearest(v) {
            return false
        }
        let n = Double(count - 1), uEnd = u + n * du, vEnd = v + n * dv
        // Spelled out: a NaN among `max`'s later arguments would be dropped, then trap below.
        // The steps too: a span of one pixel bounds nothing by its ends, and an image squashed below
        // 1/32,768 of a pixel (a card flipping through its edge) steps 32,768 texels a pixel, past Int32.
        let limit = 16_384.0
        guard abs(u) < limit && abs(uEnd) < limit && abs(v) < limit && abs(vEnd) < limit && abs(du) < limit && abs(dv) < limit
        else { return false }
        let stepU = Fixed87.nearestInt32(du * 65536), stepV = Fixed87.nearestInt32(dv * 65536)
        let lanes = SIMD4<Int32>(0, 1, 2, 3)
        var us = Fixed87.nearestInt32(u * 65536) &+ stepU &* lanes
        var vs = Fixed87.nearestInt32(v * 65536) &+ stepV &* lanes
        let stepU4 = SIMD4<Int32>(repeating: stepU &* 4), stepV4 = SIMD4<Int32>(repeating: stepV &* 4)
        let row = w &* 4
        let raw = UnsafeMutableRawPointer(out)
        // The last texel pair of a row or column starts at w − 2 (h − 2): a sample clamped to just before
        // the last texel's centre.
        let lastU = SIMD4<Int32>(repeating: Int32(w - 1) &<< 16 &- 1), lastV = SIMD4<Int32>(repeating: Int32(h - 1) &<< 16 &- 1)

        // An image not turned (dv = 0: most images and video frames, unless a layer rotates or skews
        // them) samples one row of texel pairs along a span: its row and vertical weight are worked out
        // once, not for every pixel.
        let level = dv == 0
        let vLevel = Fixed87.clamped(vs, to: lastV)
        let levelRow = Int(vLevel[0] &>> 16) &* w
        let levelWeight = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: vLevel[0]))
        /// Pixel j of the four (at clamped coordinates us, vs): its top and bottom texel pairs as 8.8 lanes.
        @inline(__always) func pairs(_ j: Int, _ us: SIMD4<Int32>, _ vs: SIMD4<Int32>, level: Bool) -> (
            SIMD8<UInt16>, SIMD8<UInt16>
        ) {
            let base = ((level ? levelRow : Int(vs[j] &>> 16) &* w) &+ Int(us[j] &>> 16)) &* 4
            let top = texels.loadUnaligned(fromByteOffset: base, as: SIMD8<UInt8>.self)
            let bottom = texels.loadUnaligned(fromByteOffset: base &+ row, as: SIMD8<UInt8>.self)
            return (Fixed87.highBytes(top), Fixed87.highBytes(bottom))
        }
        /// Pixels j and j + 1, sampled and composited onto their eight destination bytes.
        @inline(__always) func two(_ j: Int, _ bytes: SIMD8<UInt8>, _ f16: SIMD8<UInt16>, level: Bool) -> SIMD8<UInt16> {
            let us = Fixed87.clamped(us, to: lastU), vs = level ? vLevel : Fixed87.clamped(vs, to: lastV)
            let (t0, b0) = pairs(j, us, vs, level: level), (t1, b1) = pairs(j &+ 1, us, vs, level: level)
            let fy0 = level ? levelWeight : SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: vs[j]))
            let fy1 = level ? levelWeight : SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: vs[j &+ 1]))
            let ones = SIMD8<UInt16>(repeating: 65535)
            // Down the two rows, then across the two columns, each weight pair summing to 65535/65536.
            let mid0 = Fixed87.productHigh(t0, ones &- fy0) &+ Fixed87.productHigh(b0, fy0)
            let mid1 = Fixed87.productHigh(t1, ones &- fy1) &+ Fixed87.productHigh(b1, fy1)
            let left = SIMD8(lowHalf: mid0.lowHalf, highHalf: mid1.lowHalf)
            let right = SIMD8(lowHalf: mid0.highHalf, highHalf: mid1.highHalf)
            let fx0 = UInt16(truncatingIfNeeded: us[j]), fx1 = UInt16(truncatingIfNeeded: us[j &+ 1])
            let fx = SIMD8<UInt16>(fx0, fx0, fx0, fx0, fx1, fx1, fx1, fx1)
            var s = Fixed87.productHigh(left, ones &- fx) &+ Fixed87.productHigh(right, fx)
            if scaled { s = Fixed87.productHigh(s, f16) }
            return Fixed87.over(s, bytes)
        }
        var i = 0
        @inline(__always) func four(level: Bool) {
            let bytes = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<UInt8>.self)
            let f = factor(i)
            let low = two(0, bytes.lowHalf, f.lowHalf, level: level), high = two(2, bytes.highHalf, f.highHalf, level: level)
            raw.storeBytes(
                of: Fixed87.lowBytes(SIMD16<UInt16>(lowHalf: low, highHalf: high)), toByteOffset: i &* 4,
                as: SIMD16<UInt8>.self)
            us &+= stepU4
            vs &+= stepV4
            i &+= 4
            if i & 63 == 0 {
                // The steps' rounding (up to 1/131072 texel each) adds up along a span: taken again from
                // the doubles every 64 pixels, the drift stays under 1/2048 texel (a 2×2 image drawn
                // 3,800 px wide was off by 0.02 texel, 5 levels on an edge, by the span's end).
                us = Fixed87.nearestInt32((u + Double(i) * du) * 65536) &+ stepU &* lanes
                vs = Fixed87.nearestInt32((v + Double(i) * dv) * 65536) &+ stepV &* lanes
            }
        }
        // A loop for each case, each with it a constant.
        if level {
            while i &+ 4 <= count { four(level: true) }
        } else {
            while i &+ 4 <= count { four(level: false) }
        }
        guard i < count else { return true }
        // The last one to three pixels through the same lanes, from and into a copy (the lanes past the
        // span's end read clamped texels too, whatever their coordinates wrapped to).
        let rest = count &- i
        let f = factor(i)
        Fixed87.throughCopy(raw + i &* 4, count: rest) { bytes in
            let low = two(0, bytes.lowHalf, f.lowHalf, level: false)
            let high = rest > 2 ? two(2, bytes.highHalf, f.highHalf, level: false) : SIMD8()
            return Fixed87.lowBytes(SIMD16<UInt16>(lowHalf: low, highHalf: high))
        }
        return true
    }
}
