/// The owners of FFmpeg's handles: format and codec contexts, frames, packets, swscale contexts and
/// dictionaries.
internal import CFFmpeg

// Owning wrappers: each FFmpeg handle has exactly one owner that frees it exactly once, in `deinit`.
// The raw pointers stay inside ReelMedia.

final class OutputFormatContext {
    let pointer: UnsafeMutablePointer<AVFormatContext>
    private var ioOpen = false

    init(format: String, path: String) throws(MediaError) {
        _ = configureFFmpegLogging
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        try ff("avformat_alloc_output_context2(\(format))", avformat_alloc_output_context2(&ctx, nil, format, path))
        guard let ctx else { throw MediaError(call: "avformat_alloc_output_context2(\(format))", message: "no context returned") }
        pointer = ctx
    }

    func openIO(path: String) throws(MediaError) {
        try ff("avio_open(\(path))", avio_open(&pointer.pointee.pb, path, AVIO_FLAG_WRITE))
        ioOpen = true
    }

    func closeIO() throws(MediaError) {
        guard ioOpen else { return }
        ioOpen = false
        try ff("avio_closep", avio_closep(&pointer.pointee.pb))
    }

    deinit {
        if ioOpen { avio_closep(&pointer.pointee.pb) }
        avformat_free_context(pointer)
    }
}

final class InputFormatContext {
    var pointer: UnsafeMutablePointer<AVFormatContext>?

    /// `maximumPixels` bounds the pictures FFmpeg decodes while probing (it decodes a first frame to
    /// learn the format): a small file declaring a huge picture fails here instead of allocating it.
    init(path: String, maximumPixels: Int? = nil) throws(MediaError) {
        _ = configureFFmpegLogging
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        try ff("avformat_open_input(\(path))", avformat_open_input(&ctx, path, nil, nil))
        pointer = ctx
        guard let maximumPixels, let ctx, ctx.pointee.nb_streams > 0 else {
            try ff("avformat_find_stream_info(\(path))", avformat_find_stream_info(ctx, nil))
            return
        }
        var options = [OpaquePointer?](repeating: nil, count: Int(ctx.pointee.nb_streams))
        for i in options.indices { av_dict_set(&options[i], "max_pixels", "\(maximumPixels)", 0) }
        let status = options.withUnsafeMutableBufferPointer { avformat_find_stream_info(ctx, $0.baseAddress) }
        for i in options.indices { av_dict_free(&options[i]) }
        try ff("avformat_find_stream_info(\(path))", status)
    }

    deinit { avformat_close_input(&pointer) }
}

final class CodecContext {
    var pointer: UnsafeMutablePointer<AVCodecContext>
    let codec: UnsafePointer<AVCodec>

    init(codec: UnsafePointer<AVCodec>) throws(MediaError) {
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw MediaError(call: "avcodec_alloc_context3", message: "out of memory")
        }
        self.codec = codec
        pointer = ctx
    }

    var name: String { String(cString: codec.pointee.name) }

    deinit {
        var p: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&p)
    }
}

final class FrameHandle {
    var pointer: UnsafeMutablePointer<AVFrame>

    init() throws(MediaError) {
        guard let f = av_frame_alloc() else { throw MediaError(call: "av_frame_alloc", message: "out of memory") }
        pointer = f
    }

    /// Allocates planes for a picture of this format and size.
    convenience init(format: AVPixelFormat, width: Int32, height: Int32) throws(MediaError) {
        try self.init()
        pointer.pointee.format = format.rawValue
        pointer.pointee.width = width
        pointer.pointee.height = height
        try ff("av_frame_get_buffer", av_frame_get_buffer(pointer, 0))
        clearBuffers()
    }

    /// Whether the buffers are new (cleared: what they held is gone).
    @discardableResult func makeWritable() throws(MediaError) -> Bool {
        let before = pointer.pointee.buf.0
        try ff("av_frame_make_writable", av_frame_make_writable(pointer))
        guard pointer.pointee.buf.0 != before else { return false }
        clearBuffers()
        return true
    }

    /// Zeroes every byte of the frame's buffers, the padding past each row's width included. Encoders
    /// read that padding: x264's SIMD plane copy reads rows rounded up to 32 bytes, so a 400-pixel-wide
    /// picture left whatever the allocator returned in bytes 400–415 of each row, which changed the
    /// first IDR slice's last bytes from run to run (decoded frames identical, files not).
    private func clearBuffers() {
        withUnsafeBytes(of: pointer.pointee.buf) { refs in
            for ref in refs.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self) {
                guard let ref, let data = ref.pointee.data else { continue }
                data.initialize(repeating: 0, count: Int(ref.pointee.size))
            }
        }
    }

    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&p)
    }
}

final class PacketHandle {
    var pointer: UnsafeMutablePointer<AVPacket>

    init() throws(MediaError) {
        guard let p = av_packet_alloc() else { throw MediaError(call: "av_packet_alloc", message: "out of memory") }
        pointer = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }
}

/// A libswscale context, set up with explicit colour matrices and ranges on both sides.
final class Scaler {
    let pointer: OpaquePointer

    init(
        srcWidth: Int32, srcHeight: Int32, srcFormat: AVPixelFormat,
        dstWidth: Int32, dstHeight: Int32, dstFormat: AVPixelFormat,
        srcColorspace: Int32 = SWS_CS_DEFAULT, srcFullRange: Bool = true,
        dstColorspace: Int32 = SWS_CS_DEFAULT, dstFullRange: Bool = true,
        filter: Int32 = SWS_BICUBIC
    ) throws(MediaError) {
        // Accurate rounding and bit-exact arithmetic: the same input gives the same bytes on every CPU.
        let flags = filter | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_BITEXACT
        guard
            let ctx = sws_getContext(
                srcWidth, srcHeight, srcFormat, dstWidth, dstHeight, dstFormat,
                flags, nil, nil, nil)
        else {
            throw MediaError(call: "sws_getContext", message: "cannot convert \(Self.name(srcFormat)) to \(Self.name(dstFormat))")
        }
        pointer = ctx
        let status = sws_setColorspaceDetails(
            ctx, sws_getCoefficients(srcColorspace), srcFullRange ? 1 : 0,
            sws_getCoefficients(dstColorspace), dstFullRange ? 1 : 0,
            0, 1 << 16, 1 << 16)
        if status < 0 {
            sws_freeContext(ctx)
            throw MediaError(
                call: "sws_setColorspaceDetails",
                message: "colour conversion \(Self.name(srcFormat)) → \(Self.name(dstFormat)) not supported")
        }
    }

    static func name(_ f: AVPixelFormat) -> String {
        guard let n = av_get_pix_fmt_name(f) else { return "pixel format \(f.rawValue)" }
        return String(cString: n)
    }

    /// Converts a whole picture. Planes and strides come from the frames' own fields.
    func scale(src: UnsafeMutablePointer<AVFrame>, dst: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        let s = FramePlanes(src), d = FramePlanes(dst)
        let rows = sws_scale(
            pointer, UnsafeRawPointer(s.data).assumingMemoryBound(to: UnsafePointer<UInt8>?.self),
            s.linesize, 0, src.pointee.height, d.data, d.linesize)
        try ff("sws_scale", rows)
    }

    deinit { sws_freeContext(pointer) }
}

/// The `data[8]` and `linesize[8]` arrays of a heap-allocated `AVFrame`, as pointers (C arrays are
/// imported as tuples; their addresses inside the frame are stable while the frame lives).
struct FramePlanes {
    let data: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    let linesize: UnsafeMutablePointer<Int32>

    init(_ frame: UnsafeMutablePointer<AVFrame>) {
        let base = UnsafeMutableRawPointer(frame)
        data = (base + MemoryLayout<AVFrame>.offset(of: \AVFrame.data)!)
            .assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
        linesize = (base + MemoryLayout<AVFrame>.offset(of: \AVFrame.linesize)!).assumingMemoryBound(to: Int32.self)
    }
}

/// An `AVDictionary` of `pairs`, in that order, for the calls in `body` (which may take entries out of
/// it, and read what is left); freed after them.
@discardableResult
func withDictionary<R>(
    _ pairs: [(key: String, value: String)], _ body: (inout OpaquePointer?) throws(MediaError) -> R
) throws(MediaError) -> R {
    var dictionary: OpaquePointer? = nil
    defer { av_dict_free(&dictionary) }
    for (key, value) in pairs { av_dict_set(&dictionary, key, value, 0) }
    return try body(&dictionary)
}
