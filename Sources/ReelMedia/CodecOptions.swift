/// What `VideoSettings` come to in FFmpeg's terms: the encoder, its pixel format, its context's fields and
/// private options (x264, x265, libvpx, libaom, SVT-AV1, ProRes, GIF, WebP), and the muxer's options.
internal import CFFmpeg
import Foundation

/// How `VideoWriter` opens its encoder and describes its stream.
struct CodecOptions {
    let settings: VideoSettings
    /// SVT-AV1 refuses pictures under 64 pixels a side; libaom encodes any size.
    let smallAV1: Bool

    init(_ settings: VideoSettings) {
        self.settings = settings
        smallAV1 = settings.codec == .av1 && (settings.encodedWidth < 64 || settings.encodedHeight < 64)
    }

    var encoderName: String { smallAV1 ? "libaom-av1" : settings.codec.encoder }

    var width: Int32 { Int32(settings.encodedWidth) }
    var height: Int32 { Int32(settings.encodedHeight) }
    var frameRate: AVRational {
        AVRational(num: Int32(settings.frameRateNumerator), den: Int32(settings.frameRateDenominator))
    }
    /// One tick a frame: frame numbers are the timestamps.
    var timeBase: AVRational { AVRational(num: frameRate.den, den: frameRate.num) }

    var pixelFormat: AVPixelFormat {
        let c = settings.effectiveChroma, ten = settings.bitDepth == 10, alpha = settings.alpha
        switch settings.codec {
        case .h264, .hevc, .vp9, .av1:
            if alpha && settings.codec == .vp9 { return AV_PIX_FMT_YUVA420P }
            switch (c, ten) {
            case (.yuv444, false): return AV_PIX_FMT_YUV444P
            case (.yuv444, true): return AV_PIX_FMT_YUV444P10LE
            case (_, true): return AV_PIX_FMT_YUV420P10LE
            default: return AV_PIX_FMT_YUV420P
            }
        case .prores: return AV_PIX_FMT_YUV422P10LE
        case .prores4444: return alpha ? AV_PIX_FMT_YUVA444P10LE : AV_PIX_FMT_YUV444P10LE
        case .apng, .png: return alpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24
        case .webp: return AV_PIX_FMT_BGRA
        case .gif: preconditionFailure("GIFs are written by GIFFileWriter, not libavcodec")
        }
    }

    /// The encoder's private options, in the order they are set.
    var privateOptions: [(key: String, value: String)] {
        let s = settings
        switch s.codec {
        case .h264:
            return [("crf", String(s.crf ?? 18)), ("preset", s.preset ?? "medium")]
        case .hevc:
            return [("crf", String(s.crf ?? 20)), ("preset", s.preset ?? "medium"), ("x265-params", "log-level=error")]
        case .vp9:
            return [("crf", String(s.crf ?? 30)), ("deadline", "good"), ("cpu-used", s.preset ?? "2"), ("row-mt", "1")]
        case .av1 where smallAV1:
            return [("crf", String(s.crf ?? 30)), ("cpu-used", "6")]
        case .av1:
            return [("crf", String(s.crf ?? 30)), ("preset", s.preset ?? "8")]
        case .prores, .prores4444:
            return [("profile", s.codec == .prores ? "3" : "4"), ("vendor", "apl0")]  // 422 HQ, 4444
        case .webp:
            return [("quality", String(s.lossless ? 100 : s.quality)), ("lossless", s.lossless ? "1" : "0")]
        case .apng, .png:
            return []
        case .gif:
            preconditionFailure("GIFs are written by GIFFileWriter, not libavcodec")
        }
    }

    /// Sets the context's fields before it is opened; `globalHeader` when the muxer wants the codec's
    /// parameter sets out of band (MP4, MOV, WebM).
    func configure(_ c: UnsafeMutablePointer<AVCodecContext>, globalHeader: Bool) {
        c.pointee.width = width
        c.pointee.height = height
        c.pointee.time_base = timeBase
        c.pointee.framerate = frameRate
        c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        c.pointee.pix_fmt = pixelFormat
        if settings.codec.isYUV {
            // BT.709, limited range: signalled here, copied to the stream, and what `FrameConverter`
            // converts to.
            c.pointee.color_primaries = AVCOL_PRI_BT709
            c.pointee.color_trc = AVCOL_TRC_BT709
            c.pointee.colorspace = AVCOL_SPC_BT709
            c.pointee.color_range = AVCOL_RANGE_MPEG
            // Each chroma sample is the mean of its block (the converters average it, swscale with its
            // area filter), so it sits at the block's centre; say so, so that decoders that honour it
            // place it right.
            if settings.effectiveChroma != .yuv444 { c.pointee.chroma_sample_location = AVCHROMA_LOC_CENTER }
        }
        if settings.codec == .vp9 || smallAV1 { c.pointee.bit_rate = 0 }  // constant quality
        if settings.codec == .av1 && !smallAV1 { setenv("SVT_LOG", "1", 0) }  // SVT-AV1: errors only on stderr
        if globalHeader { c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
    }

    /// Describes the stream from the opened context.
    func configure(_ st: UnsafeMutablePointer<AVStream>, from c: UnsafeMutablePointer<AVCodecContext>) throws(MediaError) {
        st.pointee.time_base = timeBase
        st.pointee.avg_frame_rate = frameRate
        st.pointee.r_frame_rate = frameRate
        try ff("avcodec_parameters_from_context", avcodec_parameters_from_context(st.pointee.codecpar, c))
        if settings.codec == .hevc {
            // 'hvc1' (parameter sets in the sample description): what Apple's players require.
            st.pointee.codecpar.pointee.codec_tag = 0x3163_7668
        }
    }

    /// Some encoders (prores_ks) take the colour description from each frame rather than the context.
    func describeColour(of f: UnsafeMutablePointer<AVFrame>) {
        guard settings.codec.isYUV else { return }
        f.pointee.color_primaries = AVCOL_PRI_BT709
        f.pointee.color_trc = AVCOL_TRC_BT709
        f.pointee.colorspace = AVCOL_SPC_BT709
        f.pointee.color_range = AVCOL_RANGE_MPEG
    }
}

/// How `VideoWriter` sets up its muxer, once the output is open.
struct MuxerOptions {
    let settings: VideoSettings

    /// The muxer's private options, given to `avformat_write_header`.
    var privateOptions: [(key: String, value: String)] {
        let s = settings
        switch s.container {
        case .mp4, .mov:
            // The moov atom first (playback starts while downloading); the 'colr' atom for every codec.
            return [("movflags", "+faststart+write_colr")]
        case .gif:
            preconditionFailure("GIFs are written by GIFFileWriter, not libavformat")
        case .apng:
            return [("plays", String(s.loop == 0 ? 0 : max(1, s.loop + 1)))]
        case .webp:
            return [("loop", String(s.loop == 0 ? 0 : max(1, s.loop + 1)))]
        case .png:
            return [("start_number", String(s.firstFrame))]
        case .webm:
            return []
        }
    }

    /// Sets the format context's flags and metadata before the header is written.
    func configure(_ format: UnsafeMutablePointer<AVFormatContext>) {
        if settings.container == .webm {
            // Matroska writes random segment and track UIDs and the date unless asked to be exact:
            // two renders of one scene must give the same bytes.
            format.pointee.flags |= AVFMT_FLAG_BITEXACT
        }
        if let comment = settings.comment {
            av_dict_set(&format.pointee.metadata, "comment", comment, 0)
        }
    }
}
