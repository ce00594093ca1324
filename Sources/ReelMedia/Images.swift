/// Still images through FFmpeg: any picture it decodes read to premultiplied RGBA (from a file, or from
/// bytes in memory such as a `data:` URI's), and PNG written.
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
                message: error.message + " (not an image FFmpeg can read, or larger than \(pixelLimit(maximumPixels)))"
            )
        }
        let (w, h) = (reader.info.width, reader.info.height)
        guard w > 0, h > 0 else {
            throw MediaError(
                call: "ImageFile.read(\(path))",
                message:
                    "the file holds no picture of a known size (not an image, or one above \(pixelLimit(maximumPixels)))"
            )
        }
        guard w <= maximumPixels / h else {
            throw MediaError(
                call: "ImageFile.read(\(path))",
                message: "the picture is \(w)×\(h) pixels, above the limit of \(pixelLimit(maximumPixels))")
        }
        var decoded = try reader.decodeAll(limit: 1)
        guard var first = decoded.popLast() else {
            throw MediaError(call: "ImageFile.read(\(path))", message: "the file holds no picture")
        }
        premultiply(&first.rgba)
        return StillImage(width: first.width, height: first.height, rgba: first.rgba)
    }

    /// Decodes a picture held in memory: the bytes of a PNG, JPEG, WebP or GIF file (told apart by their
    /// first bytes; of an animated one, the first picture), to premultiplied RGBA. A picture above
    /// `maximumPixels` is refused; one far above it, from its header, before anything is allocated.
    public static func decode(_ bytes: [UInt8], maximumPixels: Int = 8192 * 8192) throws(MediaError) -> StillImage {
        guard let format = PictureFormat(sniffing: bytes) else {
            throw MediaError(call: "ImageFile.decode", message: "the data is not a PNG, JPEG, WebP or GIF picture")
        }
        let call = "ImageFile.decode(\(format.rawValue))"
        // av_new_packet takes an Int32 size, with room for the padding decoders over-read.
        guard bytes.count < Int(Int32.max) - 64 else {
            throw MediaError(call: call, message: "the data is \(bytes.count >> 20) MiB, too large to decode in one piece")
        }
        _ = configureFFmpegLogging
        let id: AVCodecID
        switch format {
        case .png: id = AV_CODEC_ID_PNG
        case .jpeg: id = AV_CODEC_ID_MJPEG
        case .webp: id = AV_CODEC_ID_WEBP
        case .gif: id = AV_CODEC_ID_GIF
        }
        guard let decoder = avcodec_find_decoder(id) else {
            throw MediaError(call: call, message: "this FFmpeg has no \(format.rawValue) decoder")
        }
        let codec = try CodecContext(codec: decoder)
        // FFmpeg checks its buffer's size (rows rounded up to its alignment, up to 64 pixels) against
        // max_pixels: twice the limit still refuses a huge declared picture before allocating it, and
        // the exact limit is checked on the decoded size below.
        codec.pointer.pointee.max_pixels = 2 * Int64(maximumPixels)
        try ff("avcodec_open2(\(codec.name))", avcodec_open2(codec.pointer, decoder, nil))
        // The whole file is one packet: each of these decoders reads a complete picture file (what
        // FFmpeg's image2pipe demuxers hand them), header included.
        let packet = try PacketHandle()
        try ff("av_new_packet", av_new_packet(packet.pointer, Int32(bytes.count)))
        if let data = packet.pointer.pointee.data {
            bytes.withUnsafeBufferPointer { src in
                if let base = src.baseAddress { data.update(from: base, count: src.count) }
            }
        }
        let frame = try FrameHandle()
        func limitNote(_ error: MediaError) -> MediaError {
            MediaError(
                call: error.call, code: error.code,
                message: error.message
                    + " (not a \(format.rawValue) picture FFmpeg can decode, or larger than \(pixelLimit(maximumPixels)))")
        }
        do throws(MediaError) {
            try ff("avcodec_send_packet(\(codec.name))", avcodec_send_packet(codec.pointer, packet.pointer))
            let receive = "avcodec_receive_frame(\(codec.name))"
            var got = try received(receive, avcodec_receive_frame(codec.pointer, frame.pointer))
            if got == .needsInput {
                // Decoders that hold a picture back until they know no more data follows.
                try ff("avcodec_send_packet(\(codec.name), flush)", avcodec_send_packet(codec.pointer, nil))
                got = try received(receive, avcodec_receive_frame(codec.pointer, frame.pointer))
            }
            if got != .got {
                throw MediaError(call: call, message: "the data holds no complete picture")
            }
        } catch {
            throw limitNote(error)
        }
        let f = frame.pointer
        let (w, h) = (Int(f.pointee.width), Int(f.pointee.height))
        guard w > 0, h > 0, w <= maximumPixels / h else {
            throw MediaError(
                call: call, message: "the picture is \(w)×\(h) pixels, above the limit of \(pixelLimit(maximumPixels))")
        }
        var rgba = try RGBAConverter().rgba(f)
        premultiply(&rgba)
        return StillImage(width: w, height: h, rgba: rgba)
    }

    /// Decodes the picture a `data:` URI holds (base64 or percent-encoded; its bytes decide the format,
    /// whatever media type it declares, as browsers do), to premultiplied RGBA.
    public static func read(dataURI: String, maximumPixels: Int = 8192 * 8192) throws(MediaError) -> StillImage {
        try read(dataURI: try DataURI(dataURI), maximumPixels: maximumPixels)
    }

    /// Decodes the picture of a `data:` URI already read (whose bytes a caller has looked at: for the
    /// picture's size, say).
    public static func read(dataURI uri: DataURI, maximumPixels: Int = 8192 * 8192) throws(MediaError) -> StillImage {
        guard PictureFormat(sniffing: uri.bytes) != nil else {
            let declared = uri.mediaType.isEmpty ? "" : " (declared \(uri.mediaType))"
            if uri.mediaType == "image/svg+xml" {
                throw MediaError(call: "data: URI", message: "it holds an SVG document; only PNG, JPEG, WebP and GIF are read")
            }
            throw MediaError(call: "data: URI", message: "its data is not a PNG, JPEG, WebP or GIF picture\(declared)")
        }
        return try decode(uri.bytes, maximumPixels: maximumPixels)
    }

    /// A pixel limit as a message says it: megapixels, unless below one.
    static func pixelLimit(_ pixels: Int) -> String {
        pixels >= 1_000_000 ? "\(pixels / 1_000_000) megapixels" : "\(pixels) pixels"
    }

    /// RGBA with straight alpha to premultiplied, rounded to nearest, in place: a copy would be one
    /// more picture in memory while the clip's pictures are counted against their budget.
    static func premultiply(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { px in
            var i = 0
            while i + 3 < px.count {
                let a = UInt32(px[i + 3])
                if a != 255 {
                    px[i] = UInt8((UInt32(px[i]) * a + 127) / 255)
                    px[i + 1] = UInt8((UInt32(px[i + 1]) * a + 127) / 255)
                    px[i + 2] = UInt8((UInt32(px[i + 2]) * a + 127) / 255)
                }
                i += 4
            }
        }
    }

    /// Writes straight-alpha RGBA as a PNG file at `path` (the caller picks a temporary name).
    public static func writePNG(_ image: StillImage, to path: String) throws(MediaError) {
        let bytes = try encodePNG(image)
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw MediaError(call: "write(\(path))", message: error.localizedDescription)
        }
    }

    /// Straight-alpha RGBA as the bytes of a PNG file.
    public static func encodePNG(_ image: StillImage) throws(MediaError) -> [UInt8] {
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
                guard try received("avcodec_receive_packet(png)", status) == .got else { return }
                let p = packet.pointer.pointee
                bytes.append(contentsOf: UnsafeBufferPointer(start: p.data, count: Int(p.size)))
                av_packet_unref(packet.pointer)
            }
        }
        try ff("avcodec_send_frame(png)", avcodec_send_frame(c, frame.pointer))
        try drain()
        try ff("avcodec_send_frame(png, flush)", avcodec_send_frame(c, nil))
        try drain()
        return bytes
    }
}
