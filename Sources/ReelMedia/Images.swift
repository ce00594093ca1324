/// Still images through FFmpeg: any picture it decodes read to premultiplied RGBA, and PNG written.
internal import CFFmpeg
import Foundation

/// A still picture in memory: RGBA8 rows without padding.
public struct StillImage: Sendable {
    public var width: Int
    public var height: Int
    /// Premultiplied by alpha when it comes from `ImageFile.read`.
    public var rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}

/// Image files through FFmpeg: PNG out (FFmpeg's PNG encoder), anything FFmpeg decodes in.
public enum ImageFile {
    /// Decodes the first picture of an image file (PNG, JPEG, WebP, …) to premultiplied RGBA.
    /// Pictures larger than `maximumPixels` are refused from their header, before any decoding (a 1 MB
    /// PNG can declare 16000×16000 pixels); of a file with many pictures (a video), only the first is
    /// decoded.
    public static func read(path: String, maximumPixels: Int = 8192 * 8192) throws(MediaError) -> StillImage {
        let reader: VideoReader
        do {
            reader = try VideoReader(path: path, maximumPixels: maximumPixels)
        } catch {
            throw MediaError(
                call: error.call, code: error.code,
                message: error.message + " (not an image FFmpeg can read, or larger than \(maximumPixels / 1_000_000) megapixels)"
            )
        }
        let (w, h) = (reader.info.width, reader.info.height)
        guard w > 0, h > 0 else {
            throw MediaError(
                call: "ImageFile.read(\(path))",
                message:
                    "the file holds no picture of a known size (not an image, or one above \(maximumPixels / 1_000_000) megapixels)"
            )
        }
        guard w <= maximumPixels / h else {
            throw MediaError(
                call: "ImageFile.read(\(path))",
                message: "the picture is \(w)×\(h) pixels, above the limit of \(maximumPixels / 1_000_000) megapixels")
        }
        guard let first = try reader.decodeAll(limit: 1).first else {
            throw MediaError(call: "ImageFile.read(\(path))", message: "the file holds no picture")
        }
        var px = first.rgba
        var i = 0
        while i < px.count {
            let a = UInt32(px[i + 3])
            if a != 255 {
                px[i] = UInt8((UInt32(px[i]) * a + 127) / 255)
                px[i + 1] = UInt8((UInt32(px[i + 1]) * a + 127) / 255)
                px[i + 2] = UInt8((UInt32(px[i + 2]) * a + 127) / 255)
            }
            i += 4
        }
        return StillImage(width: first.width, height: first.height, rgba: px)
    }

    /// Writes straight-alpha RGBA as a PNG file at `path` (the caller picks a temporary name).
    public static func writePNG(_ image: StillImage, to path: String) throws(MediaError) {
        guard image.width > 0, image.height > 0, image.rgba.count == image.width * image.height * 4 else {
            throw MediaError(call: "ImageFile.writePNG", message: "picture size and pixel count disagree")
        }
        _ = configureFFmpegLogging
        guard let encoder = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw MediaError(call: "avcodec_find_encoder(png)", message: "this FFmpeg has no PNG encoder")
        }
        let codec = try CodecContext(codec: encoder)
        let c = codec.pointer
        c.pointee.width = Int32(image.width)
        c.pointee.height = Int32(image.height)
        c.pointee.pix_fmt = AV_PIX_FMT_RGBA
        c.pointee.time_base = AVRational(num: 1, den: 1)
        try ff("avcodec_open2(png)", avcodec_open2(c, encoder, nil))
        let frame = try FrameHandle(format: AV_PIX_FMT_RGBA, width: Int32(image.width), height: Int32(image.height))
        let planes = FramePlanes(frame.pointer)
        let stride = Int(planes.linesize[0])
        image.rgba.withUnsafeBufferPointer { src in
            for y in 0..<image.height {
                (planes.data[0]! + y * stride).update(from: src.baseAddress! + y * image.width * 4, count: image.width * 4)
            }
        }
        frame.pointer.pointee.pts = 0
        let packet = try PacketHandle()
        var bytes: [UInt8] = []
        func drain() throws(MediaError) {
            while true {
                let status = avcodec_receive_packet(c, packet.pointer)
                if status == averrorEAGAIN || status == averrorEOF { return }
                try ff("avcodec_receive_packet(png)", status)
                let p = packet.pointer.pointee
                bytes.append(contentsOf: UnsafeBufferPointer(start: p.data, count: Int(p.size)))
                av_packet_unref(packet.pointer)
            }
        }
        try ff("avcodec_send_frame(png)", avcodec_send_frame(c, frame.pointer))
        try drain()
        try ff("avcodec_send_frame(png, flush)", avcodec_send_frame(c, nil))
        try drain()
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw MediaError(call: "write(\(path))", message: error.localizedDescription)
        }
    }
}
