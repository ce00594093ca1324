internal import CFFmpeg
import Foundation

/// How a clip is encoded.
public struct VideoSettings: Sendable {
    public var width: Int
    public var height: Int
    /// Frames per second as a fraction (30000/1001 for NTSC 29.97).
    public var frameRateNumerator: Int
    public var frameRateDenominator: Int
    public var container: VideoContainer
    public var codec: VideoCodec
    /// Nil: the codec's default (4:2:0 where it has a choice).
    public var chroma: ChromaSubsampling?
    /// 8 or 10 bits per sample (ProRes is always 10).
    public var bitDepth: Int = 8
    /// Keep the alpha channel (the codec must carry one). The frames given to `append` are then
    /// premultiplied and transparent where the clip is; the writer un-premultiplies them for the formats
    /// that store straight alpha (all of these). Without it, frames must be opaque.
    public var alpha = false
    /// Constant rate factor (H.264, HEVC, VP9, AV1); nil for the codec's default (18, 20, 30, 30).
    public var crf: Int?
    /// Encoder speed preset: x264/x265 names ("medium"), SVT-AV1 numbers ("8"); nil for the default.
    public var preset: String?
    /// Loop count of GIF, APNG and WebP: 0 loops forever, N plays N + 1 times, -1 plays once (GIF's own
    /// value for it; APNG and WebP count plays, so their fields get 0, N + 1 and 1).
    public var loop: Int = 0
    /// WebP quality, 0…100 (100 with `lossless`).
    public var quality: Double = 90
    public var lossless = false
    /// Colour quantization of GIFs.
    public var gif = GIFOptions()
    /// The clip's frame number of the first frame appended: a segment of a longer clip keeps the
    /// clip's timestamps (and, in a PNG sequence, its frame numbers), so segments join without
    /// re-encoding. The first frame is always a key frame.
    public var firstFrame = 0
    /// Written into the file's metadata (`comment` in MP4/MOV/WebM, a comment extension in a GIF).
    public var comment: String?

    public init(
        width: Int, height: Int, frameRateNumerator: Int, frameRateDenominator: Int = 1, container: VideoContainer,
        codec: VideoCodec? = nil
    ) {
        self.width = width
        self.height = height
        self.frameRateNumerator = frameRateNumerator
        self.frameRateDenominator = frameRateDenominator
        self.container = container
        self.codec = codec ?? container.defaultCodec
        if self.codec == .prores || self.codec == .prores4444 { bitDepth = 10 }
    }

    public var effectiveChroma: ChromaSubsampling { chroma ?? codec.defaultChroma }

    /// 4:2:0 needs even sides and 4:2:2 an even width: an odd side gets one more row or column, a copy
    /// of the last one (chroma is shared by 2 pixels, so this is the only honest choice short of
    /// refusing; the README documents it).
    public var encodedWidth: Int { codec.isYUV && effectiveChroma != .yuv444 ? (width + 1) & ~1 : width }
    public var encodedHeight: Int { codec.isYUV && effectiveChroma == .yuv420 ? (height + 1) & ~1 : height }

    /// The first problem with these settings, said so that a user can fix it; nil when they are fine.
    public var problem: String? {
        if !codec.containers.contains(container) {
            return
                "\(codec.rawValue) cannot go in .\(container.rawValue) (it goes in \(codec.containers.map { ".\($0.rawValue)" }.joined(separator: " or ")))"
        }
        if let chroma, !codec.chromaChoices.contains(chroma) {
            let choices = codec.chromaChoices.map(\.rawValue)
            return "\(codec.rawValue) does not offer \(chroma.rawValue) chroma"
                + (choices.isEmpty ? " (it is RGB)" : " (it offers \(choices.joined(separator: ", ")))")
        }
        if !codec.bitDepthChoices.contains(bitDepth) {
            return
                "\(codec.rawValue) does not offer \(bitDepth)-bit samples (it offers \(codec.bitDepthChoices.map(String.init).joined(separator: ", ")))"
        }
        if alpha && !codec.carriesAlpha { return "\(codec.rawValue) has no alpha channel" }
        if alpha && codec == .vp9 && (bitDepth != 8 || effectiveChroma != .yuv420) {
            return "VP9 with alpha is 8-bit 4:2:0 only (yuva420p)"
        }
        if let crf {
            let range: ClosedRange<Int> = codec == .h264 ? 0...51 : codec == .hevc ? 0...51 : 0...63
            if ![VideoCodec.h264, .hevc, .vp9, .av1].contains(codec) { return "--crf applies to h264, hevc, vp9 and av1" }
            if !range.contains(crf) {
                return "crf \(crf) is outside \(range.lowerBound)…\(range.upperBound) for \(codec.rawValue)"
            }
        }
        if !(0...100).contains(quality) { return "quality must be in 0…100, got \(quality)" }
        if loop < -1 || loop > 65_535 { return "loop must be in 0…65535 (or -1 to play once), got \(loop)" }
        return gif.problem
    }

    /// The encoder's pixel format.
    var pixelFormat: AVPixelFormat {
        let c = effectiveChroma, ten = bitDepth == 10
        switch codec {
        case .h264, .hevc, .vp9, .av1:
            if alpha && codec == .vp9 { return AV_PIX_FMT_YUVA420P }
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
        case .gif: return AV_PIX_FMT_PAL8
        }
    }
}

/// Encodes RGBA frames into a file (or, for a PNG sequence, a folder): the codecs of `VideoCodec`.
/// Frames are written in order; call `finish()` to flush the encoder and write the trailer. A writer
/// that is not finished leaves a partial file at `path`, which the caller (writing to a temporary
/// name) removes.
public final class VideoWriter {
    public let settings: VideoSettings
    private let format: OutputFormatContext
    private let codec: CodecContext
    private let stream: UnsafeMutablePointer<AVStream>
    private let packet: PacketHandle
    private let sourceFrame: FrameHandle  // RGBA, wraps the caller's pixels for swscale
    private let encodeFrame: FrameHandle
    private let scaler: Scaler?
    private var gifEncoder: GIFFrameEncoder?
    private var padded: [UInt8] = []  // odd-sized frames, with the edge repeated
    private var straight: [UInt8] = []  // un-premultiplied frames
    private var frameIndex = 0
    private let path: String
    private var finished = false

    /// `path` is the file, or for a PNG sequence the folder (created if needed).
    public init(path: String, settings: VideoSettings) throws(MediaError) {
        guard settings.width > 0, settings.height > 0, settings.frameRateNumerator > 0, settings.frameRateDenominator > 0 else {
            throw MediaError(call: "VideoWriter", message: "size and frame rate must be positive")
        }
        if let problem = settings.problem { throw MediaError(call: "VideoWriter", message: problem) }
        self.settings = settings
        self.path = path
        frameIndex = settings.firstFrame
        let w = Int32(settings.encodedWidth), h = Int32(settings.encodedHeight)
        let fps = AVRational(num: Int32(settings.frameRateNumerator), den: Int32(settings.frameRateDenominator))
        let timeBase = AVRational(num: fps.den, den: fps.num)
        let target = settings.container == .png ? path + "/frame_%05d.png" : path
        let kind = settings.codec

        format = try OutputFormatContext(format: settings.container.muxer, path: target)
        // SVT-AV1 refuses pictures under 64 pixels a side; libaom encodes any size.
        let smallAV1 = kind == .av1 && (w < 64 || h < 64)
        let codecName = smallAV1 ? "libaom-av1" : kind.encoder
        guard let encoder = avcodec_find_encoder_by_name(codecName) else {
            throw MediaError(
                call: "avcodec_find_encoder_by_name(\(codecName))",
                message: "this FFmpeg has no \(codecName) encoder; install Debian's libavcodec with it (scripts/setup.sh)")
        }
        codec = try CodecContext(codec: encoder)
        let c = codec.pointer
        c.pointee.width = w
        c.pointee.height = h
        c.pointee.time_base = timeBase
        c.pointee.framerate = fps
        c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        c.pointee.pix_fmt = settings.pixelFormat

        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        if kind.isYUV {
            // BT.709, limited range: signalled here, copied to the stream, and used by the scaler below.
            c.pointee.color_primaries = AVCOL_PRI_BT709
            c.pointee.color_trc = AVCOL_TRC_BT709
            c.pointee.colorspace = AVCOL_SPC_BT709
            c.pointee.color_range = AVCOL_RANGE_MPEG
            // Each chroma sample is the mean of its block (the scaler's area filter below), so it sits
            // at the block's centre; say so, so that decoders that honour it place it right.
            if settings.effectiveChroma != .yuv444 { c.pointee.chroma_sample_location = AVCHROMA_LOC_CENTER }
        }
        switch kind {
        case .h264:
            av_dict_set(&options, "crf", String(settings.crf ?? 18), 0)
            av_dict_set(&options, "preset", settings.preset ?? "medium", 0)
        case .hevc:
            av_dict_set(&options, "crf", String(settings.crf ?? 20), 0)
            av_dict_set(&options, "preset", settings.preset ?? "medium", 0)
            av_dict_set(&options, "x265-params", "log-level=error", 0)
        case .vp9:
            c.pointee.bit_rate = 0  // constant quality
            av_dict_set(&options, "crf", String(settings.crf ?? 30), 0)
            av_dict_set(&options, "deadline", "good", 0)
            av_dict_set(&options, "cpu-used", settings.preset ?? "2", 0)
            av_dict_set(&options, "row-mt", "1", 0)
        case .av1 where smallAV1:
            c.pointee.bit_rate = 0
            av_dict_set(&options, "crf", String(settings.crf ?? 30), 0)
            av_dict_set(&options, "cpu-used", "6", 0)
        case .av1:
            av_dict_set(&options, "crf", String(settings.crf ?? 30), 0)
            av_dict_set(&options, "preset", settings.preset ?? "8", 0)
            setenv("SVT_LOG", "1", 0)  // errors only on stderr
        case .prores, .prores4444:
            av_dict_set(&options, "profile", kind == .prores ? "3" : "4", 0)  // 422 HQ, 4444
            av_dict_set(&options, "vendor", "apl0", 0)
        case .webp:
            av_dict_set(&options, "quality", String(settings.lossless ? 100 : settings.quality), 0)
            av_dict_set(&options, "lossless", settings.lossless ? "1" : "0", 0)
        case .gif:
            av_dict_set(&options, "gifflags", settings.gif.differencing ? "+offsetting+transdiff" : "-offsetting-transdiff", 0)
        case .apng, .png:
            break
        }
        if format.pointer.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        try ff("avcodec_open2(\(codecName))", avcodec_open2(c, encoder, &options))
        if let leftover = av_dict_get(options, "", nil, AV_DICT_IGNORE_SUFFIX) {
            throw MediaError(
                call: "avcodec_open2(\(codecName))", message: "option \(String(cString: leftover.pointee.key)) was not accepted")
        }

        guard let st = avformat_new_stream(format.pointer, nil) else {
            throw MediaError(call: "avformat_new_stream", message: "out of memory")
        }
        stream = st
        st.pointee.time_base = timeBase
        st.pointee.avg_frame_rate = fps
        st.pointee.r_frame_rate = fps
        try ff("avcodec_parameters_from_context", avcodec_parameters_from_context(st.pointee.codecpar, c))
        if kind == .hevc {
            // 'hvc1' (parameter sets in the sample description): what Apple's players require.
            st.pointee.codecpar.pointee.codec_tag = 0x3163_7668
        }

        packet = try PacketHandle()
        sourceFrame = try FrameHandle()
        encodeFrame = try FrameHandle(format: settings.pixelFormat, width: w, height: h)
        if kind.isYUV {
            // Some encoders (prores_ks) take the colour description from each frame rather than the context.
            let f = encodeFrame.pointer
            f.pointee.color_primaries = AVCOL_PRI_BT709
            f.pointee.color_trc = AVCOL_TRC_BT709
            f.pointee.colorspace = AVCOL_SPC_BT709
            f.pointee.color_range = AVCOL_RANGE_MPEG
        }
        if kind == .gif {
            scaler = nil
            gifEncoder = GIFFrameEncoder(
                width: settings.width, height: settings.height, options: settings.gif, alpha: settings.alpha)
        } else {
            scaler = try Scaler(
                srcWidth: w, srcHeight: h, srcFormat: AV_PIX_FMT_RGBA,
                dstWidth: w, dstHeight: h, dstFormat: settings.pixelFormat,
                srcColorspace: SWS_CS_ITU709, srcFullRange: true,
                dstColorspace: SWS_CS_ITU709, dstFullRange: !kind.isYUV, filter: SWS_AREA)
        }

        if settings.container == .png {
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } else {
            try format.openIO(path: path)
        }
        var muxOptions: OpaquePointer? = nil
        defer { av_dict_free(&muxOptions) }
        switch settings.container {
        case .mp4, .mov:
            // The moov atom first (playback starts while downloading); the 'colr' atom for every codec.
            av_dict_set(&muxOptions, "movflags", "+faststart+write_colr", 0)
        case .gif:
            av_dict_set(&muxOptions, "loop", String(settings.loop), 0)
        case .apng:
            av_dict_set(&muxOptions, "plays", String(settings.loop == 0 ? 0 : max(1, settings.loop + 1)), 0)
        case .webp:
            av_dict_set(&muxOptions, "loop", String(settings.loop == 0 ? 0 : max(1, settings.loop + 1)), 0)
        case .png:
            av_dict_set(&muxOptions, "start_number", String(settings.firstFrame), 0)
        case .webm:
            // Matroska writes random segment and track UIDs and the date unless asked to be exact:
            // two renders of one scene must give the same bytes.
            format.pointer.pointee.flags |= AVFMT_FLAG_BITEXACT
        }
        if let comment = settings.comment, settings.container != .gif {
            av_dict_set(&format.pointer.pointee.metadata, "comment", comment, 0)
        }
        try ff("avformat_write_header", avformat_write_header(format.pointer, &muxOptions))
    }

    /// Appends one frame: `width × height` RGBA pixels, rows `width·4` bytes apart; opaque, or
    /// premultiplied with `settings.alpha`.
    public func append(rgba input: [UInt8]) throws(MediaError) {
        guard !finished else { throw MediaError(call: "VideoWriter.append", message: "writer already finished") }
        let w = settings.width, h = settings.height
        guard input.count == w * h * 4 else {
            throw MediaError(call: "VideoWriter.append", message: "expected \(w * h * 4) bytes of RGBA, got \(input.count)")
        }
        let pixels: [UInt8]
        if settings.alpha {
            Self.unpremultiply(input, into: &straight)
            pixels = straight
        } else {
            pixels = input
        }
        if settings.encodedWidth != w || settings.encodedHeight != h {
            padEdges(pixels)
            try padded.withUnsafeBufferPointer { (buffer) throws(MediaError) in
                try encodeRGBA(buffer.baseAddress!, stride: settings.encodedWidth * 4)
            }
        } else {
            try pixels.withUnsafeBufferPointer { (buffer) throws(MediaError) in
                try encodeRGBA(buffer.baseAddress!, stride: w * 4)
            }
        }
    }

    private func padEdges(_ pixels: [UInt8]) {
        let w = settings.width, h = settings.height, ew = settings.encodedWidth, eh = settings.encodedHeight
        if padded.count != ew * eh * 4 { padded = [UInt8](repeating: 0, count: ew * eh * 4) }
        for y in 0..<eh {
            let sy = min(y, h - 1)
            let src = sy * w * 4, dst = y * ew * 4
            padded.replaceSubrange(dst..<(dst + w * 4), with: pixels[src..<(src + w * 4)])
            for x in w..<ew {
                for k in 0..<4 { padded[dst + x * 4 + k] = pixels[src + (w - 1) * 4 + k] }
            }
        }
    }

    private func encodeRGBA(_ rgba: UnsafePointer<UInt8>, stride: Int) throws(MediaError) {
        let f = encodeFrame.pointer
        try encodeFrame.makeWritable()
        if let gif = gifEncoder {
            let planes = FramePlanes(f)
            let palette = UnsafeMutableRawPointer(planes.data[1]!).assumingMemoryBound(to: UInt32.self)
            gif.encode(
                rgba: rgba, rgbaStride: stride, into: planes.data[0]!, indexStride: Int(planes.linesize[0]),
                palette: palette)
            f.pointee.pts = Int64(frameIndex)
        } else if !settings.codec.isYUV {
            // RGB targets: a byte shuffle, exact (swscale's RGB-to-RGB paths may dither or round).
            let planes = FramePlanes(f)
            let dst = planes.data[0]!, dstStride = Int(planes.linesize[0])
            let w = Int(f.pointee.width), h = Int(f.pointee.height)
            let format = settings.pixelFormat
            for y in 0..<h {
                let s = rgba + y * stride
                let d = dst + y * dstStride
                if format == AV_PIX_FMT_RGBA {
                    d.update(from: s, count: w * 4)
                } else if format == AV_PIX_FMT_BGRA {
                    for x in 0..<w {
                        d[x * 4] = s[x * 4 + 2]
                        d[x * 4 + 1] = s[x * 4 + 1]
                        d[x * 4 + 2] = s[x * 4]
                        d[x * 4 + 3] = s[x * 4 + 3]
                    }
                } else {  // RGB24
                    for x in 0..<w {
                        d[x * 3] = s[x * 4]
                        d[x * 3 + 1] = s[x * 4 + 1]
                        d[x * 3 + 2] = s[x * 4 + 2]
                    }
                }
            }
            f.pointee.pts = Int64(frameIndex)
        } else if settings.pixelFormat == AV_PIX_FMT_YUV420P {
            let planes = FramePlanes(f)
            BT709Converter.convert(
                rgba: rgba, rgbaStride: stride, width: Int(f.pointee.width), height: Int(f.pointee.height),
                y: planes.data[0]!, yStride: Int(planes.linesize[0]),
                u: planes.data[1]!, uStride: Int(planes.linesize[1]),
                v: planes.data[2]!, vStride: Int(planes.linesize[2]))
            f.pointee.pts = Int64(frameIndex)
        } else {
            let src = sourceFrame.pointer
            let planes = FramePlanes(src)
            planes.data[0] = UnsafeMutablePointer(mutating: rgba)
            planes.linesize[0] = Int32(stride)
            src.pointee.width = f.pointee.width
            src.pointee.height = f.pointee.height
            src.pointee.format = AV_PIX_FMT_RGBA.rawValue
            defer { planes.data[0] = nil }
            try scaler!.scale(src: src, dst: f)
            f.pointee.pts = Int64(frameIndex)
        }
        frameIndex += 1
        try send(f)
    }

    /// Flushes the encoder and writes the trailer. Must be called once, after the last frame.
    public func finish() throws(MediaError) {
        guard !finished else { return }
        finished = true
        if settings.codec == .gif && frameIndex > settings.firstFrame {
            // The muxer takes each delay from the next frame's timestamp; the last one is set here so
            // the GIF lasts exactly frameCount / fps (to the centisecond).
            let n = frameIndex, num = settings.frameRateNumerator, den = settings.frameRateDenominator
            let last =
                GIFTiming.centiseconds(ofFrame: n, numerator: num, denominator: den)
                - GIFTiming.centiseconds(ofFrame: n - 1, numerator: num, denominator: den)
            if let priv = format.pointer.pointee.priv_data {
                try ff("av_opt_set_int(final_delay)", av_opt_set_int(priv, "final_delay", Int64(last), 0))
            }
        }
        try send(nil)
        try ff("av_write_trailer", av_write_trailer(format.pointer))
        try format.closeIO()
        if settings.container == .gif, let comment = settings.comment {
            try GIFComment.insert(comment, intoFileAt: path)
        }
    }

    public var framesWritten: Int { frameIndex - settings.firstFrame }

    /// Bytes written to the output so far (for a PNG sequence, 0: each frame is its own file).
    public var bytesWritten: Int {
        guard let pb = format.pointer.pointee.pb else { return 0 }
        return Int(max(0, avio_tell(pb)))
    }

    /// Straight alpha from premultiplied, rounding to nearest; a fully transparent pixel becomes
    /// transparent black.
    public static func unpremultiply(_ px: [UInt8], into out: inout [UInt8]) {
        if out.count != px.count { out = [UInt8](repeating: 0, count: px.count) }
        px.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var i = 0
                while i < src.count {
                    let a = Int(src[i + 3])
                    if a == 255 {
                        dst[i] = src[i]
                        dst[i + 1] = src[i + 1]
                        dst[i + 2] = src[i + 2]
                    } else if a == 0 {
                        dst[i] = 0
                        dst[i + 1] = 0
                        dst[i + 2] = 0
                    } else {
                        for k in 0..<3 { dst[i + k] = UInt8(min(255, (Int(src[i + k]) * 255 + a / 2) / a)) }
                    }
                    dst[i + 3] = src[i + 3]
                    i += 4
                }
            }
        }
    }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws(MediaError) {
        let c = codec.pointer
        try ff("avcodec_send_frame(\(codec.name))", avcodec_send_frame(c, frame))
        while true {
            let status = avcodec_receive_packet(c, packet.pointer)
            if status == averrorEAGAIN || status == averrorEOF { return }
            try ff("avcodec_receive_packet(\(codec.name))", status)
            try writePacket()
        }
    }

    private func writePacket() throws(MediaError) {
        let p = packet.pointer
        p.pointee.stream_index = stream.pointee.index
        if settings.codec == .gif {
            // Exact centisecond timestamps (see GIFTiming), then into the muxer's time base.
            let i = Int(p.pointee.pts)
            let cs = Int64(
                GIFTiming.centiseconds(
                    ofFrame: i, numerator: settings.frameRateNumerator, denominator: settings.frameRateDenominator))
            let next = Int64(
                GIFTiming.centiseconds(
                    ofFrame: i + 1, numerator: settings.frameRateNumerator, denominator: settings.frameRateDenominator))
            let centi = AVRational(num: 1, den: 100)
            p.pointee.pts = av_rescale_q(cs, centi, stream.pointee.time_base)
            p.pointee.dts = p.pointee.pts
            p.pointee.duration = av_rescale_q(next - cs, centi, stream.pointee.time_base)
        } else {
            av_packet_rescale_ts(p, codec.pointer.pointee.time_base, stream.pointee.time_base)
        }
        try ff("av_interleaved_write_frame", av_interleaved_write_frame(format.pointer, p))
    }
}
