/// Video read back with libavformat and libavcodec: what a file says about its stream, and its frames
/// decoded to RGBA.
internal import CFFmpeg

/// What a video file says about itself, read back with libavformat and libavcodec.
public struct VideoInfo: Sendable {
    public var formatName: String
    public var codecName: String
    public var pixelFormat: String
    public var width: Int
    public var height: Int
    public var averageFrameRate: (numerator: Int, denominator: Int)
    /// Stream duration in seconds, when the container states one.
    public var duration: Double?
    public var colorPrimaries: String
    public var colorTransfer: String
    public var colorMatrix: String
    public var colorRange: String
    /// The container's four-character code for the codec (`avc1`, `hvc1`, `apch`…), or "" when none.
    public var codecTag: String
    /// The stream's metadata (WebM's `alpha_mode`, …).
    public var metadata: [String: String]
}

/// One decoded picture, converted to RGBA (straight alpha, full range) with the matrix and range the
/// file signals.
public struct DecodedFrame: Sendable {
    public var width: Int
    public var height: Int
    public var rgba: [UInt8]
    /// Presentation time and duration in seconds.
    public var time: Double
    public var duration: Double
}

/// Decodes the first video stream of a file. Used by the tests to check what Reel wrote, and later
/// for image assets.
public final class VideoReader {
    public let info: VideoInfo
    private let input: InputFormatContext
    private let codec: CodecContext
    private let streamIndex: Int32
    private let timeBase: AVRational

    public init(path: String, maximumPixels: Int? = nil) throws(MediaError) {
        let opened = try VideoInput(path: path, maximumPixels: maximumPixels)
        input = opened.input
        codec = opened.codec
        streamIndex = opened.streamIndex
        let fmt = input.pointer!
        let stream = opened.stream
        timeBase = stream.pointee.time_base
        let par = stream.pointee.codecpar.pointee
        func name(_ c: UnsafePointer<CChar>?) -> String { c.map { String(cString: $0) } ?? "unknown" }
        let rate = stream.pointee.avg_frame_rate
        info = VideoInfo(
            formatName: name(fmt.pointee.iformat.pointee.name),
            codecName: name(avcodec_get_name(par.codec_id)),
            pixelFormat: name(av_get_pix_fmt_name(AVPixelFormat(rawValue: par.format))),
            width: Int(par.width), height: Int(par.height),
            averageFrameRate: (Int(rate.num), Int(rate.den)),
            duration: stream.pointee.duration == reel_av_nopts_value()
                ? nil
                : Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base),
            colorPrimaries: name(av_color_primaries_name(par.color_primaries)),
            colorTransfer: name(av_color_transfer_name(par.color_trc)),
            colorMatrix: name(av_color_space_name(par.color_space)),
            colorRange: name(av_color_range_name(par.color_range)),
            codecTag: Self.fourCC(par.codec_tag),
            metadata: Self.dictionary(stream.pointee.metadata))
    }

    /// For 8-bit packed RGB formats: bytes per pixel and where R, G, B and A (nil: opaque) sit; nil for
    /// the other formats.
    static func byteOrder(_ f: AVPixelFormat) -> (bytes: Int, r: Int, g: Int, b: Int, a: Int?)? {
        switch f {
        case AV_PIX_FMT_RGBA: return (4, 0, 1, 2, 3)
        case AV_PIX_FMT_BGRA: return (4, 2, 1, 0, 3)
        case AV_PIX_FMT_ARGB: return (4, 1, 2, 3, 0)
        case AV_PIX_FMT_ABGR: return (4, 3, 2, 1, 0)
        case AV_PIX_FMT_RGB0: return (4, 0, 1, 2, nil)
        case AV_PIX_FMT_BGR0: return (4, 2, 1, 0, nil)
        case AV_PIX_FMT_RGB24: return (3, 0, 1, 2, nil)
        case AV_PIX_FMT_BGR24: return (3, 2, 1, 0, nil)
        default: return nil
        }
    }

    static func fourCC(_ tag: UInt32) -> String {
        guard tag != 0 else { return "" }
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func dictionary(_ d: OpaquePointer?) -> [String: String] {
        var out: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let e = av_dict_get(d, "", entry, AV_DICT_IGNORE_SUFFIX) {
            out[String(cString: e.pointee.key)] = String(cString: e.pointee.value)
            entry = e
        }
        return out
    }

    /// Every frame of the stream, in presentation order. With `nearestChroma`, each 4:2:0 chroma sample
    /// is repeated over its 2×2 block instead of interpolated, so a test sees the samples as coded rather
    /// than a player's smoothing of them.
    public func decodeAll(nearestChroma: Bool = false, limit: Int = .max) throws(MediaError) -> [DecodedFrame] {
        var frames: [DecodedFrame] = []
        let packet = try PacketHandle()
        let frame = try FrameHandle()
        let converter = RGBAConverter(nearestChroma: nearestChroma)

        func drain() throws(MediaError) {
            while true {
                let status = avcodec_receive_frame(codec.pointer, frame.pointer)
                guard try received("avcodec_receive_frame", status) == .got else { return }
                let f = frame.pointer
                let w = Int(f.pointee.width), h = Int(f.pointee.height)
                let pixels = try converter.rgba(f)
                let tb = av_q2d(timeBase)
                let pts =
                    f.pointee.best_effort_timestamp == reel_av_nopts_value() ? f.pointee.pts : f.pointee.best_effort_timestamp
                frames.append(
                    DecodedFrame(
                        width: w, height: h, rgba: pixels,
                        time: Double(pts) * tb, duration: Double(f.pointee.pkt_duration) * tb))
                av_frame_unref(f)
            }
        }

        while frames.count < limit {
            let status = av_read_frame(input.pointer, packet.pointer)
            if status == averrorEOF { break }
            try ff("av_read_frame", status)
            defer { av_packet_unref(packet.pointer) }
            guard packet.pointer.pointee.stream_index == streamIndex else { continue }
            try ff("avcodec_send_packet", avcodec_send_packet(codec.pointer, packet.pointer))
            try drain()
        }
        if frames.count < limit {
            try ff("avcodec_send_packet(flush)", avcodec_send_packet(codec.pointer, nil))
            try drain()
        }
        return Array(frames.prefix(limit))
    }
}

/// A file's best video stream opened for decoding: the format context, the stream and its decoder
/// (libvpx for VP9, which reads WebM's alpha where FFmpeg's own decoder ignores it).
struct VideoInput {
    let input: InputFormatContext
    let codec: CodecContext
    let streamIndex: Int32

    var stream: UnsafeMutablePointer<AVStream> { input.pointer!.pointee.streams[Int(streamIndex)]! }

    init(path: String, maximumPixels: Int?) throws(MediaError) {
        input = try InputFormatContext(path: path, maximumPixels: maximumPixels)
        let fmt = input.pointer!
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        if index == reel_averror_stream_not_found() {
            throw MediaError(call: "av_find_best_stream(\(path))", code: index, message: "the file has no video stream")
        }
        try ff("av_find_best_stream(\(path))", index)
        guard var decoder else {
            throw MediaError(call: "av_find_best_stream(\(path))", message: "no decoder for the video stream")
        }
        if decoder.pointee.id == AV_CODEC_ID_VP9, let vpx = avcodec_find_decoder_by_name("libvpx-vp9") { decoder = vpx }
        streamIndex = index
        let stream = fmt.pointee.streams[Int(index)]!
        codec = try CodecContext(codec: decoder)
        try ff("avcodec_parameters_to_context", avcodec_parameters_to_context(codec.pointer, stream.pointee.codecpar))
        codec.pointer.pointee.pkt_timebase = stream.pointee.time_base
        if let maximumPixels { codec.pointer.pointee.max_pixels = Int64(maximumPixels) }
        try ff("avcodec_open2(\(String(cString: decoder.pointee.name)))", avcodec_open2(codec.pointer, decoder, nil))
    }
}
