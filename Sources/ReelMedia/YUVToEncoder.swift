/// Decoded 8-bit Y′CbCr 4:2:0 to the encoder's own (BT.709, limited range) without RGBA: which decoded
/// frames qualify, and the conversion — a copy for BT.709, the BT.601 → BT.709 matrix otherwise.
internal import CFFmpeg

/// The conversion for one kind of decoded frame. The matrix is linear in (Y′, Cb, Cr), so chroma is
/// converted sample by sample at its own resolution, exactly; only luma needs chroma where each luma
/// sample sits, interpolated bilinearly rather than repeated over the block: that is what keeps edges
/// between colours from stepping.
///
/// Chroma stays where it is, as the ffmpeg tool leaves it when it re-encodes: moving H.264's left-sited
/// chroma to the centre (where the encoder's stream says it is) cost 2.5 dB of PSNR against the source
/// read back by FFmpeg, whose RGB conversion — the drawn route's too — does not read the siting.
final class YUVToEncoder {
    /// How the decoded frame's colours are read: the way the RGBA route reads them (`VideoSource`), so
    /// that a frame passed through shows the colours it shows drawn.
    enum Matrix: Equatable {
        case bt709
        case bt601
    }

    /// Float scratch: the luma correction at chroma resolution, and one row of it at a luma row.
    private var correction: [Float] = []
    private var row: [Float] = []

    /// The matrix of `f`, nil when it does not qualify: 8-bit 4:2:0, limited range, `width`×`height`
    /// (even), a matrix the RGBA route reads as BT.709 or BT.601.
    static func matrix(of f: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) -> Matrix? {
        let p = f.pointee
        guard p.format == AV_PIX_FMT_YUV420P.rawValue, Int(p.width) == width, Int(p.height) == height,
            width % 2 == 0, height % 2 == 0, p.color_range != AVCOL_RANGE_JPEG
        else { return nil }
        switch p.colorspace {
        case AVCOL_SPC_BT709: return .bt709
        // What swscale's default coefficients (SWS_CS_DEFAULT) are: the RGBA route's reading of these.
        case AVCOL_SPC_UNSPECIFIED, AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: return .bt601
        default: return nil
        }
    }

    /// BT.601 (Kr 0.299, Kb 0.114) to BT.709 (Kr 0.2126, Kb 0.0722), limited range, in levels:
    /// Y′₇₀₉ = Y′₆₀₁ + ya·(Cb − 128) + yb·(Cr − 128), Cb₇₀₉ − 128 = ca·(Cb − 128) + cb·(Cr − 128), and
    /// Cr₇₀₉ − 128 = ra·(Cb − 128) + rb·(Cr − 128); worked out from the two matrices (ITU-R BT.601-7
    /// 2.5.1, BT.709-6 3.2–3.5) through R′G′B′.
    static let coefficients: (ya: Float, yb: Float, ca: Float, cb: Float, ra: Float, rb: Float) = {
        // (Y, Pb, Pr) of BT.601 to BT.709's, in units where Y is 0…1 and Pb, Pr −½…½.
        func convert(_ y: Double, _ pb: Double, _ pr: Double) -> (Double, Double, Double) {
            let (kr, kb) = (0.299, 0.114), kg = 1 - kr - kb
            let r = y + 2 * (1 - kr) * pr, b = y + 2 * (1 - kb) * pb
            let g = (y - kr * r - kb * b) / kg
            let (kr2, kb2) = (0.2126, 0.0722), kg2 = 1 - kr2 - kb2
            let y2 = kr2 * r + kg2 * g + kb2 * b
            return (y2, (b - y2) / (2 * (1 - kb2)), (r - y2) / (2 * (1 - kr2)))
        }
        // Linear, and grey stays grey: the columns for Pb and Pr are all there is.
        let u = convert(0, 1, 0), v = convert(0, 0, 1)
        // Luma levels span 219, chroma 224: a unit of Pb is 224 levels, of Y 219.
        let toLuma = 219.0 / 224.0
        return (Float(u.0 * toLuma), Float(v.0 * toLuma), Float(u.1), Float(v.1), Float(u.2), Float(v.2))
    }()

    /// Fills `picture` (`f`'s size) from `f`, whose matrix is `matrix`.
    func convert(_ f: UnsafeMutablePointer<AVFrame>, matrix: Matrix, into picture: EncoderPicture) {
        let w = picture.width, h = picture.height, cw = w / 2, ch = h / 2
        let src = FramePlanes(f), dst = FramePlanes(picture.frame.pointer)
        let sy = src.data[0]!, su = src.data[1]!, sv = src.data[2]!
        let syStride = Int(src.linesize[0]), suStride = Int(src.linesize[1]), svStride = Int(src.linesize[2])
        let dy = dst.data[0]!, du = dst.data[1]!, dv = dst.data[2]!
        let dyStride = Int(dst.linesize[0]), duStride = Int(dst.linesize[1]), dvStride = Int(dst.linesize[2])
        let k = Self.coefficients
        guard matrix == .bt601 else {
            for y in 0..<h { (dy + y * dyStride).update(from: sy + y * syStride, count: w) }
            for j in 0..<ch {
                (du + j * duStride).update(from: su + j * suStride, count: cw)
                (dv + j * dvStride).update(from: sv + j * svStride, count: cw)
            }
            return
        }
        // Chroma, sample by sample through the matrix, and luma's share of it at chroma resolution;
        // eight samples at a time.
        if correction.count != cw * ch { correction = [Float](repeating: 0, count: cw * ch) }
        // One row of the share at a luma row, with a copy of its first and last sample either side.
        if row.count != cw + 2 { row = [Float](repeating: 0, count: cw + 2) }
        correction.withUnsafeMutableBufferPointer { d in
            for j in 0..<ch {
                let u = su + j * suStride, v = sv + j * svStride
                let ou = du + j * duStride, ov = dv + j * dvStride, share = d.baseAddress! + j * cw
                var i = 0
                while i + 8 <= cw {
                    let cb = Self.floats(u + i) - 128, cr = Self.floats(v + i) - 128
                    Self.store(k.ca * cb + k.cb * cr + 128, ou + i)
                    Self.store(k.ra * cb + k.rb * cr + 128, ov + i)
                    UnsafeMutableRawPointer(share + i).storeBytes(of: k.ya * cb + k.yb * cr, as: SIMD8<Float>.self)
                    i += 8
                }
                while i < cw {
                    let cb = Float(u[i]) - 128, cr = Float(v[i]) - 128
                    ou[i] = Self.byte(k.ca * cb + k.cb * cr + 128)
                    ov[i] = Self.byte(k.ra * cb + k.rb * cr + 128)
                    share[i] = k.ya * cb + k.yb * cr
                    i += 1
                }
            }
        }
        // Luma: Y′ plus the chroma's share, interpolated to each luma sample, chroma taken as sited at its
        // block's centre: a luma sample is a quarter of a chroma sample from its own chroma across and
        // down, so it takes ¾ of the nearer and ¼ of the other each way.
        correction.withUnsafeBufferPointer { d in
            row.withUnsafeMutableBufferPointer { r in
                let padded = r.baseAddress!
                for y in 0..<h {
                    let j = y / 2, other = y % 2 == 0 ? max(j - 1, 0) : min(j + 1, ch - 1)
                    let near = d.baseAddress! + j * cw, far = d.baseAddress! + other * cw
                    var i = 0
                    while i + 8 <= cw {
                        let a = UnsafeRawPointer(near + i).loadUnaligned(as: SIMD8<Float>.self)
                        let b = UnsafeRawPointer(far + i).loadUnaligned(as: SIMD8<Float>.self)
                        UnsafeMutableRawPointer(padded + 1 + i).storeBytes(of: 0.75 * a + 0.25 * b, as: SIMD8<Float>.self)
                        i += 8
                    }
                    while i < cw {
                        padded[1 + i] = 0.75 * near[i] + 0.25 * far[i]
                        i += 1
                    }
                    padded[0] = padded[1]
                    padded[cw + 1] = padded[cw]
                    let s = sy + y * syStride, o = dy + y * dyStride
                    i = 0
                    // Eight pairs of luma samples at a time, as 16-bit words: the even sample is the low byte.
                    while i + 8 <= cw {
                        let pairs = UnsafeRawPointer(s + 2 * i).loadUnaligned(as: SIMD8<UInt16>.self)
                        let before = UnsafeRawPointer(padded + i).loadUnaligned(as: SIMD8<Float>.self)
                        let here = UnsafeRawPointer(padded + i + 1).loadUnaligned(as: SIMD8<Float>.self)
                        let next = UnsafeRawPointer(padded + i + 2).loadUnaligned(as: SIMD8<Float>.self)
                        let even = Self.words(Self.floats(pairs & 0xFF) + (0.75 * here + 0.25 * before))
                        let odd = Self.words(Self.floats(pairs &>> 8) + (0.75 * here + 0.25 * next))
                        UnsafeMutableRawPointer(o + 2 * i).storeBytes(of: even | odd &<< 8, as: SIMD8<UInt16>.self)
                        i += 8
                    }
                    while i < cw {
                        let here = 0.75 * padded[i + 1]
                        o[2 * i] = Self.byte(Float(s[2 * i]) + (here + 0.25 * padded[i]))
                        o[2 * i + 1] = Self.byte(Float(s[2 * i + 1]) + (here + 0.25 * padded[i + 2]))
                        i += 1
                    }
                }
            }
        }
    }

    @inline(__always) static func floats(_ p: UnsafeMutablePointer<UInt8>) -> SIMD8<Float> {
        floats(SIMD8<UInt16>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self)))
    }

    @inline(__always) static func floats(_ v: SIMD8<UInt16>) -> SIMD8<Float> {
        SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: v))
    }

    /// Rounded to nearest (ties to even) and clamped to 0…255, as 16-bit words.
    @inline(__always) static func words(_ values: SIMD8<Float>) -> SIMD8<UInt16> {
        // Masks, not `clamped`: its generic pointwise min and max are not inlined (a third of this time).
        var clamped = values
        clamped.replace(with: 0, where: clamped .< 0)
        clamped.replace(with: 255, where: clamped .> 255)
        // Adding 1.5·2²³ leaves the rounded integer in the low mantissa bits.
        return SIMD8<UInt16>(truncatingIfNeeded: unsafeBitCast(clamped + 12_582_912, to: SIMD8<UInt32>.self))
    }

    @inline(__always) static func store(_ values: SIMD8<Float>, _ p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: words(values)), as: SIMD8<UInt8>.self)
    }

    /// Rounded to nearest (ties to even) and clamped to a byte.
    @inline(__always) static func byte(_ value: Float) -> UInt8 {
        BT709Converter.byte(min(max(value, 0), 255))
    }
}
