internal import CFFmpeg

/// How a clip is encoded.
public struct VideoSettings: Sendable {
    public var width: Int
    public var height: Int
    /// Frames per second as a fraction (30000/1001 for NTSC 29.97).
    public var frameRateNumerator: Int
    public var frameRateDenominator: Int
    public var container: VideoContainer
    /// x264 constant rate factor (MP4).
    public var crf: Int = 18
    /// x264 preset (MP4).
    public var preset: String = "medium"
    /// GIF loop count: 0 loops forever, -1 plays once, N repeats N more times.
    public var loop: Int = 0

    public init(width: Int, height: Int, frameRateNumerator: Int, frameRateDenominator: Int = 1, container: VideoContainer) {
        self.width = width
        self.height = height
        self.frameRateNumerator = frameRateNumerator
        self.frameRateDenominator = frameRateDenominator
        self.container = container
    }

    /// The encoded size. H.264 in 4:2:0 needs even sides: an odd side gets one more row or column,
    /// a copy of the last one (chroma is shared by 2×2 pixels, so this is the only honest choice short
    /// of refusing; the README documents it).
    public var encodedWidth: Int { container == .mp4 ? (width + 1) & ~1 : width }
    public var encodedHeight: Int { container == .mp4 ? (height + 1) & ~1 : height }
}

/// Encodes opaque RGBA frames into a file: H.264 in MP4, or GIF. Frames are written in order; call
/// `finish()` to flush the encoder and write the trailer. A writer that is not finished leaves a
/// partial file at `path`, which the caller (writing to a temporary name) removes.
public final class VideoWriter {
    public let settings: VideoSettings
    private let format: OutputFormatContext
    private let codec: CodecContext
    private let stream: UnsafeMutablePointer<AVStream>
    private let packet: PacketHandle
    private let sourceFrame: FrameHandle  // RGBA, wraps the caller's pixels for swscale
    private let encodeFrame: FrameHandle  // YUV420P or PAL8
    private let scaler: Scaler?
    private var padded: [UInt8] = []  // odd-sized MP4 frames, with the edge repeated
    private var frameIndex = 0
    private var finished = false

    public init(path: String, settings: VideoSettings) throws(MediaError) {
        guard settings.width > 0, settings.height > 0, settings.frameRateNumerator > 0, settings.frameRateDenominator > 0 else {
            throw MediaError(call: "VideoWriter", message: "size and frame rate must be positive")
        }
        self.settings = settings
        let w = Int32(settings.encodedWidth), h = Int32(settings.encodedHeight)
        let fps = AVRational(num: Int32(settings.frameRateNumerator), den: Int32(settings.frameRateDenominator))
        let timeBase = AVRational(num: fps.den, den: fps.num)

        format = try OutputFormatContext(format: settings.container.rawValue, path: path)
        let codecName = settings.container == .mp4 ? "libx264" : "gif"
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

        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        switch settings.container {
        case .mp4:
            c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
            // BT.709, limited range: signalled here, copied to the stream, and used by the scaler below.
            c.pointee.color_primaries = AVCOL_PRI_BT709
            c.pointee.color_trc = AVCOL_TRC_BT709
            c.pointee.colorspace = AVCOL_SPC_BT709
            c.pointee.color_range = AVCOL_RANGE_MPEG
            // Each chroma sample is the mean of its 2×2 block (the scaler's area filter below), so it sits
            // at the block's centre; say so, so that decoders that honour it place it right.
            c.pointee.chroma_sample_location = AVCHROMA_LOC_CENTER
            av_dict_set(&options, "crf", String(settings.crf), 0)
            av_dict_set(&options, "preset", settings.preset, 0)
        case .gif:
            c.pointee.pix_fmt = AV_PIX_FMT_PAL8
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

        packet = try PacketHandle()
        sourceFrame = try FrameHandle()
        switch settings.container {
        case .mp4:
            encodeFrame = try FrameHandle(format: AV_PIX_FMT_YUV420P, width: w, height: h)
            scaler = try Scaler(
                srcWidth: w, srcHeight: h, srcFormat: AV_PIX_FMT_RGBA,
                dstWidth: w, dstHeight: h, dstFormat: AV_PIX_FMT_YUV420P,
                srcColorspace: SWS_CS_ITU709, srcFullRange: true,
                dstColorspace: SWS_CS_ITU709, dstFullRange: false, filter: SWS_AREA)
        case .gif:
            encodeFrame = try FrameHandle(format: AV_PIX_FMT_PAL8, width: w, height: h)
            scaler = nil
        }

        try format.openIO(path: path)
        var muxOptions: OpaquePointer? = nil
        defer { av_dict_free(&muxOptions) }
        switch settings.container {
        case .mp4:
            av_dict_set(&muxOptions, "movflags", "+faststart", 0)
        case .gif:
            av_dict_set(&muxOptions, "loop", String(settings.loop), 0)
        }
        try ff("avformat_write_header", avformat_write_header(format.pointer, &muxOptions))
    }

    /// Appends one frame: `width × height` RGBA pixels, rows `width·4` bytes apart, opaque.
    public func append(rgba pixels: [UInt8]) throws(MediaError) {
        guard !finished else { throw MediaError(call: "VideoWriter.append", message: "writer already finished") }
        let w = settings.width, h = settings.height
        guard pixels.count == w * h * 4 else {
            throw MediaError(call: "VideoWriter.append", message: "expected \(w * h * 4) bytes of RGBA, got \(pixels.count)")
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
        switch settings.container {
        case .mp4:
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
        case .gif:
            let planes = FramePlanes(f)
            GIFPalette.quantize(
                rgba: rgba, rgbaStride: stride, width: settings.width, height: settings.height,
                into: planes.data[0]!, indexStride: Int(planes.linesize[0]))
            let palette = UnsafeMutableRawPointer(planes.data[1]!).assumingMemoryBound(to: UInt32.self)
            for (i, entry) in GIFPalette.argb.enumerated() { palette[i] = entry }
            f.pointee.pts = Int64(frameIndex)
        }
        frameIndex += 1
        try send(f)
    }

    /// Flushes the encoder and writes the trailer. Must be called once, after the last frame.
    public func finish() throws(MediaError) {
        guard !finished else { return }
        finished = true
        if settings.container == .gif && frameIndex > 0 {
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
    }

    public var framesWritten: Int { frameIndex }

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
        switch settings.container {
        case .mp4:
            av_packet_rescale_ts(p, codec.pointer.pointee.time_base, stream.pointee.time_base)
        case .gif:
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
        }
        try ff("av_interleaved_write_frame", av_interleaved_write_frame(format.pointer, p))
    }
}
