/// Decoded pictures (video frames, still images) to RGBA: one swscale context per stream, owned and
/// freed here, and the exact conversions swscale rounds (16-bit and grey-alpha PNG layouts).
internal import CFFmpeg

/// Decoded pictures to RGBA (straight alpha, full range) with the matrix and range each signals; the
/// scaler is made for the first picture and reused for the rest.
final class RGBAConverter {
    private let nearestChroma: Bool
    private var scaler: Scaler?
    private var rgba: FrameHandle?

    /// With `nearestChroma`, each 4:2:0 chroma sample is repeated over its 2×2 block instead of
    /// interpolated.
    init(nearestChroma: Bool = false) { self.nearestChroma = nearestChroma }

    /// Packed grey-alpha and big-endian 16-bit layouts (what FFmpeg's PNG decoder gives), full range:
    /// channels per pixel and whether each is 16-bit; nil for the others (and for video's limited range).
    static func pictureLayout(_ f: UnsafeMutablePointer<AVFrame>) -> (channels: Int, wide: Bool)? {
        guard f.pointee.color_range != AVCOL_RANGE_MPEG else { return nil }
        switch AVPixelFormat(rawValue: f.pointee.format) {
        case AV_PIX_FMT_YA8: return (2, false)
        case AV_PIX_FMT_GRAY16BE: return (1, true)
        case AV_PIX_FMT_YA16BE: return (2, true)
        case AV_PIX_FMT_RGB48BE: return (3, true)
        case AV_PIX_FMT_RGBA64BE: return (4, true)
        default: return nil
        }
    }

    func rgba(_ f: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> [UInt8] {
        // swscale only for what the exact paths below do not take: its frame (4 bytes a pixel, zeroed)
        // would otherwise be one more picture in memory, unused.
        let fmt = AVPixelFormat(rawValue: f.pointee.format)
        if scaler == nil, Self.pictureLayout(f) == nil, VideoReader.byteOrder(fmt) == nil {
            let isYUV =
                av_pix_fmt_desc_get(fmt).map {
                    $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0
                        && $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_PAL) == 0
                } ?? false
            let matrix = f.pointee.colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT
            let full = f.pointee.color_range == AVCOL_RANGE_JPEG || !isYUV
            scaler = try Scaler(
                srcWidth: f.pointee.width, srcHeight: f.pointee.height, srcFormat: fmt,
                dstWidth: f.pointee.width, dstHeight: f.pointee.height, dstFormat: AV_PIX_FMT_RGBA,
                srcColorspace: matrix, srcFullRange: full,
                dstColorspace: SWS_CS_ITU709, dstFullRange: true, filter: nearestChroma ? SWS_POINT : SWS_BICUBIC)
            rgba = try FrameHandle(format: AV_PIX_FMT_RGBA, width: f.pointee.width, height: f.pointee.height)
        }
        let w = Int(f.pointee.width), h = Int(f.pointee.height)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        if let layout = Self.pictureLayout(f) {
            // PNG's grey-alpha and 16-bit layouts: exact (swscale rounds 16-bit grey 0x8080 to 129,
            // not 0x8080 / 257 = 128).
            let src = FramePlanes(f)
            let (channels, wide) = (layout.channels, layout.wide)
            pixels.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    let s = src.data[0]! + y * Int(src.linesize[0])
                    func sample(_ i: Int) -> UInt8 {
                        guard wide else { return s[i] }
                        let v = UInt32(s[2 * i]) << 8 | UInt32(s[2 * i + 1])
                        return UInt8((v * 255 + 32767) / 65535)
                    }
                    for x in 0..<w {
                        let p = x * channels, o = (y * w + x) * 4
                        let colour = channels >= 3
                        out[o] = sample(p)
                        out[o + 1] = sample(colour ? p + 1 : p)
                        out[o + 2] = sample(colour ? p + 2 : p)
                        out[o + 3] = channels == 2 || channels == 4 ? sample(p + channels - 1) : 255
                    }
                }
            }
        } else if let order = VideoReader.byteOrder(AVPixelFormat(rawValue: f.pointee.format)) {
            // 8-bit RGB layouts: a byte shuffle, exact (swscale's RGB-to-RGB paths may round).
            let src = FramePlanes(f)
            let n = order.bytes
            // No optional or closure per pixel: opaque layouts take alpha from an index that is always 255.
            let (r, g, b) = (order.r, order.g, order.b), a = order.a ?? -1
            pixels.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    let s = src.data[0]! + y * Int(src.linesize[0])
                    for x in 0..<w {
                        let o = (y * w + x) * 4, p = x * n
                        out[o] = s[p + r]
                        out[o + 1] = s[p + g]
                        out[o + 2] = s[p + b]
                        out[o + 3] = a < 0 ? 255 : s[p + a]
                    }
                }
            }
        } else if let scaler, let rgba {
            try scaler.scale(src: f, dst: rgba.pointer)
            let planes = FramePlanes(rgba.pointer)
            pixels.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    (out.baseAddress! + y * w * 4).update(
                        from: planes.data[0]! + y * Int(planes.linesize[0]), count: w * 4)
                }
            }
        }
        return pixels
    }
}
