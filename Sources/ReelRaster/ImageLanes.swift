/// The image's span kernel: bilinear samples and source-over in 16-bit lanes (the C kernels' `image`).
internal import CRasterKernels
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
        texels: UnsafeRawPointer, y: Int, x0: Int, count: Int, into out: UnsafeMutablePointer<UInt8>, coverage c: Float,
        kernels: reel_raster_kernels
    ) -> Bool {
        guard count >= 4 else { return false }
        // Opacity and coverage as one factor in 0.16, applied only below 1.
        let factor = shader.opacity * c
        let f16 = UInt16(min(factor * 65536 + 0.5, 65535))
        return lanes(
            texels: texels, y: y, x0: x0, count: count, into: out, scaled: factor < 1, factor: f16, coverages: nil,
            kernels: kernels)
    }

    /// The same over pixels each at its own coverage (`coverages[0 ..< count]`; see
    /// `CoverageScratch.runs`), count ≥ 1: a stretch of edge pixels in one call.
    @inline(__always) func composite(
        texels: UnsafeRawPointer, y: Int, x0: Int, count: Int, into out: UnsafeMutablePointer<UInt8>,
        coverages: UnsafePointer<Float>, kernels: reel_raster_kernels
    ) -> Bool {
        lanes(
            texels: texels, y: y, x0: x0, count: count, into: out, scaled: true, factor: 0, coverages: coverages, kernels: kernels
        )
    }

    /// The kernel (the C kernels' `image`), each pixel's factor `factor` (opacity × coverage in 0.16;
    /// applied where `scaled`) or, with `coverages`, each pixel's coverage × opacity; false (nothing
    /// drawn) for spans whose samples reach 16,384 texels or more from the image's corner, and for the
    /// identity on whole pixels (`ImageShader.shade`'s exact path).
    @inline(__always) private func lanes(
        texels: UnsafeRawPointer, y: Int, x0: Int, count: Int, into out: UnsafeMutablePointer<UInt8>, scaled: Bool,
        factor: UInt16, coverages: UnsafePointer<Float>?, kernels: reel_raster_kernels
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
        // The steps' rounding (up to 1/131072 texel each) adds up along a span: the kernel takes the
        // coordinates again from the doubles every 64 pixels, so the drift stays under 1/2048 texel (a
        // 2×2 image drawn 3,800 px wide was off by 0.02 texel, 5 levels on an edge, by the span's end).
        kernels.image(
            out,
            reel_image_span(
                texels: texels.assumingMemoryBound(to: UInt8.self), width: w, height: h, u: u, v: v, du: du, dv: dv,
                coverages: coverages, opacity: shader.opacity, factor: factor, scaled: scaled ? 1 : 0, count: count))
        return true
    }
}
