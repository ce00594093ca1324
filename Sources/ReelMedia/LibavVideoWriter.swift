/// Encodes frames through FFmpeg: libavcodec's encoder for the codec, libavformat's muxer for the
/// container (options in CodecOptions.swift, conversion in FrameConverter.swift).
internal import CFFmpeg
import Foundation

/// The writer of every codec but GIF: libavcodec's encoder and libavformat's muxer.
final class LibavVideoWriter {
    let settings: VideoSettings
    private let format: OutputFormatContext
    private let codec: CodecContext
    private let stream: UnsafeMutablePointer<AVStream>
    private let packet: PacketHandle
    private let encodeFrame: FrameHandle
    /// Refers to an `EncoderPicture`'s planes while it is sent.
    private let shared: FrameHandle
    private let converter: FrameConverter
    private var padded: [UInt8] = []  // odd-sized frames, with the edge repeated
    private var straight: [UInt8] = []  // un-premultiplied frames
    private var frameIndex = 0
    /// Whether the encoder's picture still holds the last frame appended as RGBA, converted (no picture
    /// appended as it is since): a frame told its changed rows then converts those only.
    private var holdsLastFrame = false
    private var audio: AudioEncoder?
    private var subtitles: SubtitleEncoder?
    private let path: String
    private var finished = false

    /// `path` is the file, or for a PNG sequence the folder (created if needed).
    init(path: String, settings: VideoSettings) throws(MediaError) {
        guard settings.width > 0, settings.height > 0, settings.frameRateNumerator > 0, settings.frameRateDenominator > 0 else {
            throw MediaError(call: "VideoWriter", message: "size and frame rate must be positive")
        }
        if let problem = settings.problem { throw MediaError(call: "VideoWriter", message: problem.description) }
        self.settings = settings
        self.path = path
        frameIndex = settings.firstFrame
        // Before the encoder allocates anything: see `MediaMemory.zeroFillAllocations`.
        if settings.codec == .h264 || settings.codec == .hevc { MediaMemory.zeroFillAllocations() }
        let options = CodecOptions(settings)

        format = try OutputFormatContext(
            format: settings.container.muxer, path: settings.container == .png ? path + "/frame_%05d.png" : path)
        let encoderName = options.encoderName
        guard let encoder = avcodec_find_encoder_by_name(encoderName) else {
            throw MediaError(
                call: "avcodec_find_encoder_by_name(\(encoderName))",
                message: "this FFmpeg has no \(encoderName) encoder; install Debian's libavcodec with it (scripts/setup.sh)")
        }
        let context = try CodecContext(codec: encoder)
        codec = context
        options.configure(
            context.pointer, globalHeader: format.pointer.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0)
        try withDictionary(options.privateOptions) { (dictionary) throws(MediaError) in
            try ff("avcodec_open2(\(encoderName))", avcodec_open2(context.pointer, encoder, &dictionary))
            // An option the encoder did not take is left in the dictionary; a typo must not pass silently.
            if let leftover = av_dict_get(dictionary, "", nil, AV_DICT_IGNORE_SUFFIX) {
                throw MediaError(
                    call: "avcodec_open2(\(encoderName))",
                    message: "option \(String(cString: leftover.pointee.key)) was not accepted")
            }
        }

        guard let st = avformat_new_stream(format.pointer, nil) else {
            throw MediaError(call: "avformat_new_stream", message: "out of memory")
        }
        stream = st
        try options.configure(st, from: context.pointer)

        packet = try PacketHandle()
        encodeFrame = try FrameHandle(format: options.pixelFormat, width: options.width, height: options.height)
        options.describeColour(of: encodeFrame.pointer)
        converter = try FrameConverter(settings, options: options)
        shared = try FrameHandle()

        if let sound = settings.audio {
            let formatContext = format.pointer
            audio = try AudioEncoder(sound, format: formatContext) { (packet) throws(MediaError) in
                try ff("av_interleaved_write_frame(audio)", av_interleaved_write_frame(formatContext, packet))
            }
        }
        if !settings.subtitles.isEmpty {
            let formatContext = format.pointer
            subtitles = try SubtitleEncoder(settings.subtitles, container: settings.container, format: formatContext) {
                (packet) throws(MediaError) in
                try ff("av_interleaved_write_frame(subtitles)", av_interleaved_write_frame(formatContext, packet))
            }
        }
        if settings.container == .png {
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } else {
            try format.openIO(path: path)
        }
        let muxer = MuxerOptions(settings: settings)
        let formatContext = format.pointer
        muxer.configure(formatContext)
        try withDictionary(muxer.privateOptions) { (dictionary) throws(MediaError) in
            try ff("avformat_write_header", avformat_write_header(formatContext, &dictionary))
        }
    }

    /// Appends one frame: `width × height` RGBA pixels, rows `width·4` bytes apart; opaque, or
    /// premultiplied with `settings.alpha`. `changedRows`: where it differs from the frame appended
    /// before (a renderer's damage), when known.
    func append(rgba input: [UInt8], changedRows: [Range<Int>]? = nil) throws(MediaError) {
        guard !finished else { throw MediaError(call: "VideoWriter.append", message: "writer already finished") }
        let w = settings.width, h = settings.height
        guard input.count == w * h * 4 else {
            throw MediaError(call: "VideoWriter.append", message: "expected \(w * h * 4) bytes of RGBA, got \(input.count)")
        }
        let pixels: [UInt8]
        if settings.alpha {
            VideoWriter.unpremultiply(input, into: &straight)
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
                try encodeRGBA(buffer.baseAddress!, stride: w * 4, changedRows: settings.alpha ? nil : changedRows)
            }
        }
    }

    /// Whether `append(_:)` takes `EncoderPicture`s: an encoder of 8-bit Y′CbCr 4:2:0 without alpha, at a
    /// size it encodes as it is (no edge repeated).
    var takesEncoderPictures: Bool {
        if case .yuv420 = converter, !settings.alpha {
            return settings.encodedWidth == settings.width && settings.encodedHeight == settings.height
        }
        return false
    }

    /// Appends a picture already in the encoder's format (`takesEncoderPictures`), as it is: the
    /// encoder's frame refers to its planes for the call (x264 copies what it keeps), and only the
    /// timestamp and the colour tags are the writer's.
    func append(_ picture: EncoderPicture) throws(MediaError) {
        holdsLastFrame = false
        guard !finished else { throw MediaError(call: "VideoWriter.append", message: "writer already finished") }
        guard takesEncoderPictures, picture.width == settings.width, picture.height == settings.height else {
            throw MediaError(
                call: "VideoWriter.append",
                message: "a \(picture.width)×\(picture.height) Y′CbCr 4:2:0 picture does not fit this writer")
        }
        let f = shared.pointer
        try ff("av_frame_ref", av_frame_ref(f, picture.frame.pointer))
        defer { av_frame_unref(f) }
        // The tags every frame of this stream carries, set once on the writer's own frame.
        let tags = encodeFrame.pointer.pointee
        f.pointee.color_primaries = tags.color_primaries
        f.pointee.color_trc = tags.color_trc
        f.pointee.colorspace = tags.colorspace
        f.pointee.color_range = tags.color_range
        try sendFrame(f)
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

    /// `changedRows`: where the frame differs from the one appended before. Where the picture still holds
    /// that frame, only those rows are converted (a 4:2:0 row pair depends on its two rows alone, so the
    /// picture is the same as one converted whole): a docs clip's still parts cost nothing.
    private func encodeRGBA(_ rgba: UnsafePointer<UInt8>, stride: Int, changedRows: [Range<Int>]? = nil) throws(MediaError) {
        let f = encodeFrame.pointer
        let fresh = try encodeFrame.makeWritable()
        if let changedRows, holdsLastFrame, !fresh, case .yuv420 = converter {
            converter.convertYUV420(rgba, stride: stride, into: f, rows: changedRows)
        } else {
            try converter.convert(rgba, stride: stride, into: f)
        }
        holdsLastFrame = true
        try sendFrame(f)
    }

    /// Sends a filled frame as the next, and the subtitles up to its end.
    private func sendFrame(_ f: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        f.pointee.pts = Int64(frameIndex)
        frameIndex += 1
        try send(f)
        try subtitles?.write(
            upTo: Double(frameIndex) * Double(settings.frameRateDenominator) / Double(settings.frameRateNumerator))
    }

    /// Flushes the encoder and writes the trailer. Must be called once, after the last frame.
    func finish() throws(MediaError) {
        guard !finished else { return }
        finished = true
        try send(nil)
        try audio?.finish()
        try subtitles?.finish()
        try ff("av_write_trailer", av_write_trailer(format.pointer))
        try format.closeIO()
    }

    /// Appends sound: 48 kHz stereo float samples, interleaved (left, right). The caller keeps it abreast
    /// of the video (the muxer interleaves the two by time).
    func appendAudio(_ samples: [Float]) throws(MediaError) {
        guard !finished else { throw MediaError(call: "VideoWriter.appendAudio", message: "writer already finished") }
        guard let audio else { throw MediaError(call: "VideoWriter.appendAudio", message: "this writer has no sound track") }
        try audio.append(samples)
    }

    var framesWritten: Int { frameIndex - settings.firstFrame }

    /// Bytes written to the output so far (for a PNG sequence, 0: each frame is its own file).
    var bytesWritten: Int {
        guard let pb = format.pointer.pointee.pb else { return 0 }
        return Int(max(0, avio_tell(pb)))
    }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws(MediaError) {
        let c = codec.pointer
        try ff("avcodec_send_frame(\(codec.name))", avcodec_send_frame(c, frame))
        while true {
            let status = avcodec_receive_packet(c, packet.pointer)
            guard try received("avcodec_receive_packet(\(codec.name))", status) == .got else { return }
            try writePacket()
        }
    }

    private func writePacket() throws(MediaError) {
        let p = packet.pointer
        p.pointee.stream_index = stream.pointee.index
        av_packet_rescale_ts(p, codec.pointer.pointee.time_base, stream.pointee.time_base)
        try ff("av_interleaved_write_frame", av_interleaved_write_frame(format.pointer, p))
    }
}
