/// Encodes RGBA frames into a file through FFmpeg: `VideoSettings`, their checks, and the writer that
/// opens the encoder and muxer (options in CodecOptions.swift, conversion in FrameConverter.swift).
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
    /// A sound track beside the video (`appendAudio`); nil for none.
    public var audio: AudioSettings?
    /// A soft subtitle track (MP4, MOV, WebM): each cue written as the picture reaches it.
    public var subtitles: [SubtitleTrackCue] = []

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
    public var problem: SettingProblem? {
        if !codec.containers.contains(container) {
            return SettingProblem(
                "codec",
                "\(codec.rawValue) cannot go in .\(container.rawValue) (it goes in \(codec.containers.map { ".\($0.rawValue)" }.joined(separator: " or ")))"
            )
        }
        if let chroma, !codec.chromaChoices.contains(chroma) {
            let choices = codec.chromaChoices.map(\.rawValue)
            return SettingProblem(
                "chroma", value: chroma.rawValue,
                "is not offered by \(codec.rawValue)"
                    + (choices.isEmpty ? " (it is RGB)" : " (it offers \(choices.joined(separator: ", ")))"))
        }
        if !codec.bitDepthChoices.contains(bitDepth) {
            return SettingProblem(
                "bitDepth", value: "\(bitDepth)",
                "is not offered by \(codec.rawValue) (it offers \(codec.bitDepthChoices.map(String.init).joined(separator: ", ")))"
            )
        }
        if alpha && !codec.carriesAlpha { return SettingProblem(nil, "\(codec.rawValue) has no alpha channel") }
        if alpha && codec == .vp9 && (bitDepth != 8 || effectiveChroma != .yuv420) {
            return SettingProblem(nil, "VP9 with alpha is 8-bit 4:2:0 only (yuva420p)")
        }
        if let crf {
            let range: ClosedRange<Int> = codec == .h264 ? 0...51 : codec == .hevc ? 0...51 : 0...63
            if ![VideoCodec.h264, .hevc, .vp9, .av1].contains(codec) {
                return SettingProblem("crf", "applies to h264, hevc, vp9 and av1")
            }
            if !range.contains(crf) {
                return SettingProblem(
                    "crf", value: "\(crf)", "is outside \(range.lowerBound)…\(range.upperBound) for \(codec.rawValue)")
            }
        }
        if !(0...100).contains(quality) { return SettingProblem("quality", "must be in 0…100, got \(quality)") }
        if loop < -1 || loop > 65_535 {
            return SettingProblem("loop", "must be in 0…65535 (or -1 to play once), got \(loop)")
        }
        return gif.problem
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
    private let encodeFrame: FrameHandle
    private let converter: FrameConverter
    private var padded: [UInt8] = []  // odd-sized frames, with the edge repeated
    private var straight: [UInt8] = []  // un-premultiplied frames
    private var frameIndex = 0
    private var audio: AudioEncoder?
    private var subtitles: SubtitleEncoder?
    private let path: String
    private var finished = false

    /// `path` is the file, or for a PNG sequence the folder (created if needed).
    public init(path: String, settings: VideoSettings) throws(MediaError) {
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
        try converter.convert(rgba, stride: stride, into: f)
        f.pointee.pts = Int64(frameIndex)
        frameIndex += 1
        try send(f)
        try subtitles?.write(
            upTo: Double(frameIndex) * Double(settings.frameRateDenominator) / Double(settings.frameRateNumerator))
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
        try audio?.finish()
        try subtitles?.finish()
        try ff("av_write_trailer", av_write_trailer(format.pointer))
        try format.closeIO()
        if settings.container == .gif, let comment = settings.comment {
            try GIFComment.insert(comment, intoFileAt: path)
        }
    }

    /// Appends sound: 48 kHz stereo float samples, interleaved (left, right). The caller keeps it abreast
    /// of the video (the muxer interleaves the two by time).
    public func appendAudio(_ samples: [Float]) throws(MediaError) {
        guard !finished else { throw MediaError(call: "VideoWriter.appendAudio", message: "writer already finished") }
        guard let audio else { throw MediaError(call: "VideoWriter.appendAudio", message: "this writer has no sound track") }
        try audio.append(samples)
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
