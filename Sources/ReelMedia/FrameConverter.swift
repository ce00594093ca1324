/// The last step before the encoder: straight RGBA rows into the encoder's picture, by the one route its
/// pixel format takes.
internal import CFFmpeg

enum FrameConverter {
    /// A byte shuffle into an RGB format (APNG, PNG, WebP): exact, where swscale's RGB-to-RGB paths may
    /// dither or round.
    case rgb(RGBOrder)
    /// 8-bit Y′CbCr 4:2:0 by `BT709Converter`, the most common target, which swscale is slow at.
    case yuv420
    /// Every other Y′CbCr format (4:2:2, 4:4:4, 10-bit, with alpha) by swscale; `source` wraps the
    /// caller's pixels for it.
    case scaled(Scaler, source: FrameHandle)

    enum RGBOrder {
        case rgba
        case bgra
        case rgb24
    }

    /// The route for `settings`, whose encoder takes `options.pixelFormat`.
    init(_ settings: VideoSettings, options: CodecOptions) throws(MediaError) {
        let format = options.pixelFormat
        if !settings.codec.isYUV {
            self = .rgb(format == AV_PIX_FMT_RGBA ? .rgba : format == AV_PIX_FMT_BGRA ? .bgra : .rgb24)
        } else if format == AV_PIX_FMT_YUV420P {
            self = .yuv420
        } else {
            let w = options.width, h = options.height
            let scaler = try Scaler(
                srcWidth: w, srcHeight: h, srcFormat: AV_PIX_FMT_RGBA,
                dstWidth: w, dstHeight: h, dstFormat: format,
                srcColorspace: SWS_CS_ITU709, srcFullRange: true,
                dstColorspace: SWS_CS_ITU709, dstFullRange: false, filter: SWS_AREA)
            self = .scaled(scaler, source: try FrameHandle())
        }
    }

    /// Fills the row pairs of a 4:2:0 `f` that meet `rows` (of the frame) from RGBA rows `stride` bytes
    /// apart; the rest of `f` is kept.
    func convertYUV420(_ rgba: UnsafePointer<UInt8>, stride: Int, into f: UnsafeMutablePointer<AVFrame>, rows: [Range<Int>]) {
        let w = Int(f.pointee.width), h = Int(f.pointee.height)
        let planes = FramePlanes(f)
        let (y, u, v) = (planes.data[0]!, planes.data[1]!, planes.data[2]!)
        let (ys, us, vs) = (Int(planes.linesize[0]), Int(planes.linesize[1]), Int(planes.linesize[2]))
        for r in rows {
            let top = max(0, r.lowerBound) & ~1, bottom = min(h, (max(r.upperBound, 0) + 1) & ~1)
            guard top < bottom else { continue }
            BT709Converter.convert(
                rgba: rgba + top * stride, rgbaStride: stride, width: w, height: bottom - top,
                y: y + top * ys, yStride: ys, u: u + top / 2 * us, uStride: us, v: v + top / 2 * vs, vStride: vs)
        }
    }

    /// Fills `f` (writable, of the encoder's format and size) from RGBA rows `stride` bytes apart.
    func convert(_ rgba: UnsafePointer<UInt8>, stride: Int, into f: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        let w = Int(f.pointee.width), h = Int(f.pointee.height)
        switch self {
        case .rgb(let order):
            let planes = FramePlanes(f)
            let dst = planes.data[0]!, dstStride = Int(planes.linesize[0])
            for y in 0..<h {
                let s = rgba + y * stride
                let d = dst + y * dstStride
                switch order {
                case .rgba:
                    d.update(from: s, count: w * 4)
                case .bgra:
                    for x in 0..<w {
                        d[x * 4] = s[x * 4 + 2]
                        d[x * 4 + 1] = s[x * 4 + 1]
                        d[x * 4 + 2] = s[x * 4]
                        d[x * 4 + 3] = s[x * 4 + 3]
                    }
                case .rgb24:
                    for x in 0..<w {
                        d[x * 3] = s[x * 4]
                        d[x * 3 + 1] = s[x * 4 + 1]
                        d[x * 3 + 2] = s[x * 4 + 2]
                    }
                }
            }
        case .yuv420:
            let planes = FramePlanes(f)
            BT709Converter.convert(
                rgba: rgba, rgbaStride: stride, width: w, height: h,
                y: planes.data[0]!, yStride: Int(planes.linesize[0]),
                u: planes.data[1]!, uStride: Int(planes.linesize[1]),
                v: planes.data[2]!, vStride: Int(planes.linesize[2]))
        case .scaled(let scaler, let source):
            let src = source.pointer
            let planes = FramePlanes(src)
            planes.data[0] = UnsafeMutablePointer(mutating: rgba)
            planes.linesize[0] = Int32(stride)
            src.pointee.width = f.pointee.width
            src.pointee.height = f.pointee.height
            src.pointee.format = AV_PIX_FMT_RGBA.rawValue
            // The frame must not keep the caller's pointer past this call.
            defer { planes.data[0] = nil }
            try scaler.scale(src: src, dst: f)
        }
    }
}
