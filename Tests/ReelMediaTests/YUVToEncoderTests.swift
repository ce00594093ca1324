// Decoded Y′CbCr 4:2:0 to the encoder's BT.709 without RGBA: the matrix against its published values, and flat colours against BT.601 and BT.709 worked out by hand.
import CFFmpeg
import Foundation
import Testing

@testable import ReelMedia

/// `YUVToEncoder`: the BT.601 → BT.709 matrix in levels (limited range) against the published one, and
/// pictures of one colour, coded by hand with BT.601's matrix, coming out as BT.709 codes the same
/// colour; BT.709 pictures copied as they are. Widths whose chroma is not a multiple of eight take the
/// one-sample-at-a-time path at the end of each row as well.
@Suite struct YUVToEncoderTests {
    /// Y′, Cb, Cr (limited range, unrounded) of 0…255 R′G′B′ with luma coefficients kr, kb.
    static func code(_ rgb: (Double, Double, Double), kr: Double, kb: Double) -> (Double, Double, Double) {
        let (r, g, b) = (rgb.0 / 255, rgb.1 / 255, rgb.2 / 255)
        let y = kr * r + (1 - kr - kb) * g + kb * b
        return (16 + 219 * y, 128 + 224 * (b - y) / (2 - 2 * kb), 128 + 224 * (r - y) / (2 - 2 * kr))
    }

    static func frame(width: Int, height: Int, _ ycbcr: (UInt8, UInt8, UInt8), colorspace: AVColorSpace) throws -> FrameHandle {
        let f = try FrameHandle(format: AV_PIX_FMT_YUV420P, width: Int32(width), height: Int32(height))
        f.pointer.pointee.colorspace = colorspace
        let planes = FramePlanes(f.pointer)
        for (plane, value, rows, columns) in [
            (0, ycbcr.0, height, width), (1, ycbcr.1, height / 2, width / 2), (2, ycbcr.2, height / 2, width / 2),
        ] {
            for y in 0..<rows { (planes.data[plane]! + y * Int(planes.linesize[plane])).update(repeating: value, count: columns) }
        }
        return f
    }

    /// Every sample of each plane of `picture`.
    static func samples(_ picture: EncoderPicture) -> [[UInt8]] {
        let planes = FramePlanes(picture.frame.pointer)
        return [
            (0, picture.height, picture.width), (1, picture.height / 2, picture.width / 2),
            (2, picture.height / 2, picture.width / 2),
        ].map {
            (plane, rows, columns) in
            (0..<rows).flatMap { y in
                Array(UnsafeBufferPointer(start: planes.data[plane]! + y * Int(planes.linesize[plane]), count: columns))
            }
        }
    }

    @Test func theMatrixIsThePublishedOne() {
        // BT.601 → BT.709 for limited-range 8-bit codes (as used by, e.g., Avisynth's ColorMatrix).
        let k = YUVToEncoder.coefficients
        let published: [(Float, Float)] = [
            (k.ya, -0.11554975), (k.yb, -0.20793764), (k.ca, 1.01863972), (k.cb, 0.11461795), (k.ra, 0.07504945),
            (k.rb, 1.02532707),
        ]
        for (got, want) in published { #expect(abs(got - want) < 1e-6, "\(got) against \(want)") }
    }

    @Test(arguments: [(16, 8), (20, 6), (34, 4)])
    func flatColoursComeOutAsBT709CodesThem(width: Int, height: Int) throws {
        let colours: [(Double, Double, Double)] = [
            (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0), (128, 64, 200), (20, 180, 90), (250, 240, 10),
        ]
        let converter = YUVToEncoder()
        for rgb in colours {
            let c601 = Self.code(rgb, kr: 0.299, kb: 0.114), c709 = Self.code(rgb, kr: 0.2126, kb: 0.0722)
            let byte = { (v: Double) in UInt8(max(0, min(255, v.rounded()))) }
            let f = try Self.frame(
                width: width, height: height, (byte(c601.0), byte(c601.1), byte(c601.2)), colorspace: AVCOL_SPC_UNSPECIFIED)
            #expect(YUVToEncoder.matrix(of: f.pointer, width: width, height: height) == .bt601)
            let picture = try EncoderPicture(width: width, height: height)
            converter.convert(f.pointer, matrix: .bt601, into: picture)
            let planes = Self.samples(picture)
            // The 601 codes were rounded (half a level each, through the matrix: at most 0.66 in Y′, whose
            // row of it sums to 1.32), and so is the result (half a level): within 1.16 levels of 709's.
            for (plane, want) in zip(planes, [c709.0, c709.1, c709.2]) {
                #expect(plane.allSatisfy { abs(Double($0) - want) <= 1.16 }, "\(rgb): \(plane.first!) against \(want)")
            }
        }
        // BT.709 is copied as it is.
        let f = try Self.frame(width: width, height: height, (81, 90, 240), colorspace: AVCOL_SPC_BT709)
        #expect(YUVToEncoder.matrix(of: f.pointer, width: width, height: height) == .bt709)
        let picture = try EncoderPicture(width: width, height: height)
        converter.convert(f.pointer, matrix: .bt709, into: picture)
        #expect(Self.samples(picture).map { Set($0) } == [[81], [90], [240]])
    }

    @Test func otherPicturesAreNotTaken() throws {
        let f = try Self.frame(width: 16, height: 8, (100, 128, 128), colorspace: AVCOL_SPC_BT2020_NCL)
        #expect(YUVToEncoder.matrix(of: f.pointer, width: 16, height: 8) == nil)
        f.pointer.pointee.colorspace = AVCOL_SPC_BT709
        #expect(YUVToEncoder.matrix(of: f.pointer, width: 16, height: 8) == .bt709)
        #expect(YUVToEncoder.matrix(of: f.pointer, width: 32, height: 8) == nil)
        f.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        #expect(YUVToEncoder.matrix(of: f.pointer, width: 16, height: 8) == nil)
    }
}
