// Reel's RGBA → Y′CbCr 4:2:0 conversion against values computed by hand from BT.709 and against swscale.
import CFFmpeg
import Foundation
import ReelMedia
import ReelTestSupport
import Testing

/// Reel's own RGBA → Y′CbCr 4:2:0 conversion (BT709Converter), against values computed by hand from
/// BT.709 and against swscale with the settings Reel used before it (an independent implementation).
@Suite struct YUVConversionTests {
    struct Planes {
        var y: [UInt8], u: [UInt8], v: [UInt8]

        /// Planes for `width × height` 4:2:0, filled by `body(rgba, y, u, v)`.
        static func filled(
            from rgba: [UInt8], width: Int, height: Int,
            _ body: (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>)
                -> Void
        ) -> Planes {
            var p = Planes(
                y: [UInt8](repeating: 0, count: width * height), u: [UInt8](repeating: 0, count: width * height / 4),
                v: [UInt8](repeating: 0, count: width * height / 4))
            rgba.withUnsafeBufferPointer { s in
                p.y.withUnsafeMutableBufferPointer { y in
                    p.u.withUnsafeMutableBufferPointer { u in
                        p.v.withUnsafeMutableBufferPointer { v in
                            body(s.baseAddress!, y.baseAddress!, u.baseAddress!, v.baseAddress!)
                        }
                    }
                }
            }
            return p
        }
    }

    static func convert(_ rgba: [UInt8], width: Int, height: Int) -> Planes {
        Planes.filled(from: rgba, width: width, height: height) { s, y, u, v in
            BT709Converter.convert(
                rgba: s, rgbaStride: width * 4, width: width, height: height, y: y, yStride: width, u: u,
                uStride: width / 2, v: v, vStride: width / 2)
        }
    }

    /// swscale: full-range RGBA in, BT.709 limited-range yuv420p out, area filter, accurate rounding.
    static func swscale(_ rgba: [UInt8], width: Int, height: Int) throws -> Planes {
        let w = Int32(width), h = Int32(height)
        let ctx = try #require(
            sws_getContext(
                w, h, AV_PIX_FMT_RGBA, w, h, AV_PIX_FMT_YUV420P,
                SWS_AREA | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_BITEXACT, nil, nil, nil))
        defer { sws_freeContext(ctx) }
        let status = sws_setColorspaceDetails(
            ctx, sws_getCoefficients(SWS_CS_ITU709), 1, sws_getCoefficients(SWS_CS_ITU709), 0, 0, 1 << 16, 1 << 16)
        #expect(status >= 0)
        var rows: Int32 = 0
        let planes = Planes.filled(from: rgba, width: width, height: height) { s, y, u, v in
            var src: [UnsafePointer<UInt8>?] = [s, nil, nil, nil]
            var srcStride: [Int32] = [w * 4, 0, 0, 0]
            var dst: [UnsafeMutablePointer<UInt8>?] = [y, u, v, nil]
            var dstStride: [Int32] = [w, w / 2, w / 2, 0]
            rows = sws_scale(ctx, &src, &srcStride, 0, h, &dst, &dstStride)
        }
        #expect(rows == h, "sws_scale wrote \(rows) rows")
        return planes
    }

    static func solid(_ r: UInt8, _ g: UInt8, _ b: UInt8, width: Int, height: Int) -> [UInt8] {
        [UInt8]((0..<(width * height)).flatMap { _ in [r, g, b, 255] })
    }

    /// Y′ = 16 + 219·(Kr·R + Kg·G + Kb·B)/255, Cb = 128 + 224/255·(B − Y)/1.8556, Cr = 128 + 224/255·(R − Y)/1.5748
    /// (Kr 0.2126, Kb 0.0722), worked by hand: the textbook BT.709 values of the primaries.
    @Test(arguments: [
        ((255, 255, 255), (235, 128, 128)),
        ((0, 0, 0), (16, 128, 128)),
        ((255, 0, 0), (63, 102, 240)),  // Y 62.56, Cb 102.34, Cr 240.00
        ((0, 255, 0), (173, 42, 26)),  // Y 172.63, Cb 41.66, Cr 26.27
        ((0, 0, 255), (32, 240, 118)),  // Y 31.81, Cb 240.00, Cr 117.73
        ((128, 128, 128), (126, 128, 128)),  // Y 16 + 219·128/255 = 125.93
    ])
    func primaries(rgb: (Int, Int, Int), expected: (Int, Int, Int)) {
        // 10 × 4 pixels: the SIMD path (8 columns) and the pixel-pair tail (2) both run.
        let p = Self.convert(Self.solid(UInt8(rgb.0), UInt8(rgb.1), UInt8(rgb.2), width: 10, height: 4), width: 10, height: 4)
        #expect(p.y.allSatisfy { Int($0) == expected.0 }, "Y \(p.y)")
        #expect(p.u.allSatisfy { Int($0) == expected.1 }, "Cb \(p.u)")
        #expect(p.v.allSatisfy { Int($0) == expected.2 }, "Cr \(p.v)")
    }

    /// Each chroma sample is the mean of its 2×2 block: a block of two white and two black pixels has
    /// the chroma of mid grey (128) whatever their arrangement, and red beside black gives half red's
    /// Cb/Cr offsets: 128 + (102.34 − 128)/2 = 115.17 → 115, 128 + 112/2 = 184.
    @Test func chromaIsTheBlockMean() {
        let w = 2, h = 2
        let checker: [UInt8] = [255, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255]
        let a = Self.convert(checker, width: w, height: h)
        #expect(a.y == [235, 16, 16, 235])
        #expect(a.u == [128] && a.v == [128])
        let redBlack: [UInt8] = [255, 0, 0, 255, 0, 0, 0, 255, 255, 0, 0, 255, 0, 0, 0, 255]
        let b = Self.convert(redBlack, width: w, height: h)
        #expect(b.u == [115] && b.v == [184])
    }

    /// Random pixels (a width that leaves a tail after the 8-pixel steps): every sample within one level
    /// of swscale's. One level is the rounding of two fixed/float computations of the same formula
    /// (swscale keeps 15-bit coefficients); anything else — another matrix, range or chroma siting — is
    /// tens of levels off on random colours.
    @Test func agreesWithSwscale() throws {
        let w = 66, h = 34
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let rgba = (0..<(w * h * 4)).map { i -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: state >> 56)
        }
        let ours = Self.convert(rgba, width: w, height: h)
        let theirs = try Self.swscale(rgba, width: w, height: h)
        for (name, a, b) in [("Y", ours.y, theirs.y), ("Cb", ours.u, theirs.u), ("Cr", ours.v, theirs.v)] {
            let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
            let off = zip(a, b).filter { $0 != $1 }.count
            #expect(worst <= Tolerance.swscaleLevels, "\(name): differs from swscale by up to \(worst) levels")
            #expect(off * 20 < a.count, "\(name): \(off) of \(a.count) samples differ from swscale by one level")
        }
    }
}
