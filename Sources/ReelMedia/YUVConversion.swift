/// Opaque RGBA to 8-bit Y′CbCr 4:2:0, BT.709, limited range: the conversion behind every 8-bit 4:2:0
/// video (H.264, HEVC, VP9, AV1), done here rather than by swscale because it is a third of the CPU time
/// Reel spends outside the encoder at 1080p (swscale ~3.9 ms a frame, this ~1 ms).
///
/// The same values swscale gives with Reel's settings (BT.709 matrix, full-range RGB in, limited-range
/// Y′CbCr out, area filter) within one level, rounding aside:
///   Y′ = 16 + 219/255 · (Kr·R + Kg·G + Kb·B)
///   Cb = 128 + 224/255 · (B − Y)/(2 − 2·Kb),  Cr = 128 + 224/255 · (R − Y)/(2 − 2·Kr)
/// with Kr = 0.2126, Kb = 0.0722, Kg = 1 − Kr − Kb (ITU-R BT.709-6, item 3.2–3.5; Y = Kr·R + Kg·G + Kb·B
/// in 0…255), each chroma sample computed from the mean R, G, B of its 2×2 block — sited at the block's
/// centre, as the stream signals. Rounded to nearest (ties to even).
public enum BT709Converter {
    // Computed, not stored: the optimizer folds them to constants (a stored static would be read
    // through a lazy-initialisation check inside the loops).
    @inline(__always) static var kr: Float { 0.2126 }
    @inline(__always) static var kb: Float { 0.0722 }
    @inline(__always) static var kg: Float { 1 - kr - kb }
    /// Y′ per unit of R, G, B.
    @inline(__always) static var yr: Float { 219 / 255 * kr }
    @inline(__always) static var yg: Float { 219 / 255 * kg }
    @inline(__always) static var yb: Float { 219 / 255 * kb }
    /// Cb and Cr per unit of R, G, B (of one pixel; a block's sum is scaled by ¼ on top).
    @inline(__always) static var cbScale: Float { 224 / 255 / (2 - 2 * kb) }
    @inline(__always) static var crScale: Float { 224 / 255 / (2 - 2 * kr) }
    @inline(__always) static var ur: Float { -kr * cbScale }
    @inline(__always) static var ug: Float { -kg * cbScale }
    @inline(__always) static var ub: Float { (1 - kb) * cbScale }
    @inline(__always) static var vr: Float { (1 - kr) * crScale }
    @inline(__always) static var vg: Float { -kg * crScale }
    @inline(__always) static var vb: Float { -kb * crScale }

    /// Converts `height` rows of `width` RGBA pixels (both even), `rgbaStride` bytes apart, into the
    /// three planes. The alpha byte is ignored (the pixels are opaque).
    public static func convert(
        rgba: UnsafePointer<UInt8>, rgbaStride: Int, width: Int, height: Int,
        y: UnsafeMutablePointer<UInt8>, yStride: Int,
        u: UnsafeMutablePointer<UInt8>, uStride: Int,
        v: UnsafeMutablePointer<UInt8>, vStride: Int
    ) {
        precondition(width % 2 == 0 && height % 2 == 0, "4:2:0 conversion needs an even width and height")
        let src = UnsafeRawPointer(rgba)
        var row = 0
        while row < height {
            convertRowPair(
                src + row &* rgbaStride, src + (row &+ 1) &* rgbaStride, width: width,
                y0: y + row &* yStride, y1: y + (row &+ 1) &* yStride,
                u: u + (row / 2) &* uStride, v: v + (row / 2) &* vStride)
            row &+= 2
        }
    }

    @inline(__always)
    static func convertRowPair(
        _ s0: UnsafeRawPointer, _ s1: UnsafeRawPointer, width: Int,
        y0: UnsafeMutablePointer<UInt8>, y1: UnsafeMutablePointer<UInt8>,
        u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>
    ) {
        var x = 0
        // Eight pixels of each row at a time: eight Y′ per row, four Cb and Cr.
        while x &+ 8 <= width {
            let w0 = s0.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<UInt32>.self)
            let w1 = s1.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<UInt32>.self)
            let r0 = channel(w0, 0), g0 = channel(w0, 8), b0 = channel(w0, 16)
            let r1 = channel(w1, 0), g1 = channel(w1, 8), b1 = channel(w1, 16)
            store(luma(r0, g0, b0), y0 + x)
            store(luma(r1, g1, b1), y1 + x)
            // Block sums: the two rows, then neighbouring columns.
            let rv = r0 + r1, gv = g0 + g1, bv = b0 + b1
            let r = rv.evenHalf + rv.oddHalf, g = gv.evenHalf + gv.oddHalf, b = bv.evenHalf + bv.oddHalf
            let q: Float = 0.25
            let cb = (r * (ur * q) + g * (ug * q) + b * (ub * q)) + 128
            let cr = (r * (vr * q) + g * (vg * q) + b * (vb * q)) + 128
            store4(cb, u + x / 2)
            store4(cr, v + x / 2)
            x &+= 8
        }
        // The last pixel pairs one by one.
        while x < width {
            var rs: Float = 0, gs: Float = 0, bs: Float = 0
            for k in 0..<4 {
                let s = k < 2 ? s0 : s1, out = k < 2 ? y0 : y1, i = x &+ (k & 1)
                let p = s.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)
                let r = Float(p & 0xFF), g = Float((p &>> 8) & 0xFF), b = Float((p &>> 16) & 0xFF)
                out[i] = byte(r * yr + g * yg + b * yb + 16)
                rs += r
                gs += g
                bs += b
            }
            let q: Float = 0.25
            u[x / 2] = byte((rs * (ur * q) + gs * (ug * q) + bs * (ub * q)) + 128)
            v[x / 2] = byte((rs * (vr * q) + gs * (vg * q) + bs * (vb * q)) + 128)
            x &+= 2
        }
    }

    /// A byte of each word as a float, exactly: the byte is put in the low mantissa bits of 2²³.
    @inline(__always) static func channel(_ w: SIMD8<UInt32>, _ shift: UInt32) -> SIMD8<Float> {
        unsafeBitCast(((w &>> shift) & 0xFF) | 0x4B00_0000, to: SIMD8<Float>.self) - 8_388_608
    }

    @inline(__always) static func luma(_ r: SIMD8<Float>, _ g: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        r * yr + g * yg + b * yb + 16
    }

    /// Values in 0…255 rounded to nearest (ties to even) and stored as bytes: adding 1.5·2²³ leaves the
    /// rounded integer in the low mantissa bits. Each lane's low byte taken lane by lane, which compiles
    /// to packs in vector registers; `SIMD8<UInt8>(truncatingIfNeeded:)` on the whole vector was a call
    /// for every eight pixels (0.9 % of a 1080p H.264 render of 400 circles, on the encoding thread).
    @inline(__always) static func store(_ values: SIMD8<Float>, _ p: UnsafeMutablePointer<UInt8>) {
        let bits = unsafeBitCast(values + 12_582_912, to: SIMD8<UInt32>.self)
        let bytes = SIMD8<UInt8>(
            UInt8(truncatingIfNeeded: bits[0]), UInt8(truncatingIfNeeded: bits[1]), UInt8(truncatingIfNeeded: bits[2]),
            UInt8(truncatingIfNeeded: bits[3]), UInt8(truncatingIfNeeded: bits[4]), UInt8(truncatingIfNeeded: bits[5]),
            UInt8(truncatingIfNeeded: bits[6]), UInt8(truncatingIfNeeded: bits[7]))
        UnsafeMutableRawPointer(p).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
    }

    @inline(__always) static func store4(_ values: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt8>) {
        let bits = unsafeBitCast(values + 12_582_912, to: SIMD4<UInt32>.self)
        let bytes = SIMD4<UInt8>(
            UInt8(truncatingIfNeeded: bits[0]), UInt8(truncatingIfNeeded: bits[1]), UInt8(truncatingIfNeeded: bits[2]),
            UInt8(truncatingIfNeeded: bits[3]))
        UnsafeMutableRawPointer(p).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
    }

    /// One value the same way.
    @inline(__always) static func byte(_ value: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (value + 12_582_912).bitPattern)
    }
}
