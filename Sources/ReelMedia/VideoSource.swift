/// Video files as layer contents: what a file says about its picture (size as displayed, duration,
/// rotation), and the frame on screen at a file time — frame-exact from the stream's own timestamps,
/// decoded in order, scaled with libswscale to the size it is drawn at.
internal import CFFmpeg

/// What a video file says about its picture, read before anything is drawn.
public struct VideoFacts: Sendable, Equatable {
    /// The picture as displayed, in pixels: sample aspect ratio and rotation applied.
    public var width: Int
    public var height: Int
    /// Seconds from the file's start to the end of its last frame.
    public var duration: Double
    /// Degrees the picture is turned clockwise for display (0, 90, 180 or 270), from the display matrix.
    public var rotation: Int
    public var codecName: String
    /// Whether the pictures carry alpha (VP9 or ProRes 4444 with alpha, a transparent GIF).
    public var hasAlpha: Bool
    /// The stream's average frame rate, when it states one.
    public var frameRate: Double?
    /// Whether the file also has an audio stream.
    public var hasAudio: Bool
}

/// One source frame as drawn: premultiplied RGBA at the size asked for, and the file times it is on
/// screen for (its presentation interval, from its timestamp to the next frame's).
public struct VideoPicture: Sendable {
    public var width: Int
    public var height: Int
    public var premultipliedRGBA: [UInt8]
    public var start: Double
    public var end: Double
}

/// Decodes one file's video for a layer. At file time t it gives the frame whose presentation interval
/// holds t (never a blend, never a neighbour), reading on from where it is while time moves forward and
/// seeking only when it moves back or far ahead. It holds the frames between `retainFrom` and the last
/// one asked for (bounded), each converted once when first asked for. Not thread-safe: one owner.
public final class VideoSource {
    public let facts: VideoFacts
    /// The size pictures are given at (as displayed).
    public let width: Int
    public let height: Int
    /// Seeks made so far: a clip played forward seeks at most once (to its first frame).
    public private(set) var seeks = 0
    /// Frames before this file time are let go; nil lets go of all before the last one asked for.
    /// A pipeline whose workers ask slightly out of order sets it to the earliest time still to come.
    public var retainFrom: Double?

    private let path: String
    private let maximumPixels: Int?
    private var opened: VideoInput
    private let timeBase: Double
    private let timestamps: FrameTimestamps
    /// The stream timestamp of file time 0 (the stream's start).
    private let origin: Int64
    private var held: [Held] = []
    private var drained = false
    private var flushed = false
    /// Whether `held[0]` is the stream's first frame (nothing earlier to seek to).
    private var fromStart = true
    private let packet: PacketHandle
    private var scaler: Scaler?
    private var scaled: FrameHandle?
    private var scalerSource: (Int32, Int32, Int32) = (0, 0, -1)
    private let encoderPictures = EncoderPicturePool()
    private let toEncoder = YUVToEncoder()

    /// Time within which a frame boundary counts as reached: clip times are computed in floating point
    /// (frame / fps · speed + offset) and land a few ulps either side of a timestamp meant exactly.
    static let tolerance = 1e-6
    /// Further ahead than this, a seek is cheaper than decoding every frame in between.
    static let seekAhead = 5.0
    /// Most decoded frames held at once, whatever `retainFrom` says, for a picture of this size: 64, or
    /// fewer when that would pass 256 MiB (memory stays flat whatever the file).
    public static func heldFrames(width: Int, height: Int) -> Int {
        max(4, min(64, (256 << 20) / max(1, width * height * 2)))
    }

    private lazy var maximumHeld = Self.heldFrames(width: facts.width, height: facts.height)

    private final class Held {
        let frame: FrameHandle
        let start: Double
        var end = Double.infinity
        var picture: VideoPicture?
        var encoderPicture: EncoderPicture?
        init(frame: FrameHandle, start: Double) {
            self.frame = frame
            self.start = start
        }
    }

    /// Reads what the file says about its video (nothing decoded but what probing needs).
    public static func facts(path: String, maximumPixels: Int? = nil) throws(MediaError) -> VideoFacts {
        try VideoSource(path: path, width: nil, height: nil, maximumPixels: maximumPixels).facts
    }

    /// Opens the file's video; pictures come at `width`×`height` (as displayed), the file's own size when
    /// nil.
    public init(path: String, width: Int?, height: Int?, maximumPixels: Int? = nil) throws(MediaError) {
        self.path = path
        self.maximumPixels = maximumPixels
        opened = try VideoInput(path: path, maximumPixels: maximumPixels)
        packet = try PacketHandle()
        let stream = opened.stream
        let fmt = opened.input.pointer!
        timeBase = av_q2d(stream.pointee.time_base)
        let grid = stream.pointee.r_frame_rate
        timestamps = FrameTimestamps(
            tickNumerator: stream.pointee.time_base.num, tickDenominator: stream.pointee.time_base.den,
            rateNumerator: grid.num, rateDenominator: grid.den)
        origin = stream.pointee.start_time == reel_av_nopts_value() ? 0 : stream.pointee.start_time
        let par = stream.pointee.codecpar.pointee
        var w = Int(par.width), h = Int(par.height)
        guard w > 0, h > 0 else {
            throw MediaError(call: "avformat_find_stream_info(\(path))", message: "the video stream has no picture size")
        }
        let sar = par.sample_aspect_ratio
        if sar.num > 0, sar.den > 0, sar.num != sar.den {
            w = max(1, Int((Double(w) * Double(sar.num) / Double(sar.den)).rounded()))
        }
        let rotation = Self.rotation(stream)
        if rotation % 180 != 0 { swap(&w, &h) }
        let format = AVPixelFormat(rawValue: par.format)
        let alpha =
            format == AV_PIX_FMT_PAL8
            || (av_pix_fmt_desc_get(format).map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0 } ?? false)
            || VideoReader.dictionary(stream.pointee.metadata)["alpha_mode"] == "1"
        var duration: Double?
        if stream.pointee.duration != reel_av_nopts_value(), stream.pointee.duration > 0 {
            duration = Double(stream.pointee.duration) * timeBase
        } else if fmt.pointee.duration != reel_av_nopts_value(), fmt.pointee.duration > 0 {
            duration = Double(fmt.pointee.duration) / Double(AV_TIME_BASE)
        }
        let rate = stream.pointee.avg_frame_rate
        let audio = av_find_best_stream(fmt, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0) >= 0
        let codecName = String(cString: avcodec_get_name(par.codec_id))
        if duration == nil {
            duration = Self.measuredDuration(opened, packet: packet, origin: origin, timeBase: timeBase)
            opened = try VideoInput(path: path, maximumPixels: maximumPixels)
        }
        facts = VideoFacts(
            width: w, height: h, duration: duration ?? 0, rotation: rotation, codecName: codecName, hasAlpha: alpha,
            frameRate: rate.num > 0 && rate.den > 0 ? av_q2d(rate) : nil, hasAudio: audio)
        self.width = max(1, width ?? w)
        self.height = max(1, height ?? h)
    }

    /// The display matrix's rotation as degrees clockwise, 0 when there is none.
    static func rotation(_ stream: UnsafeMutablePointer<AVStream>) -> Int {
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) else { return 0 }
        let degrees = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard degrees.isFinite else { return 0 }
        let clockwise = Int((-degrees / 90).rounded()) * 90
        return ((clockwise % 360) + 360) % 360
    }

    /// A file whose container states no duration (some WebM and raw streams): the end of its last
    /// packet, read without decoding (the caller opens the file again to decode it).
    private static func measuredDuration(_ opened: VideoInput, packet: PacketHandle, origin: Int64, timeBase: Double)
        -> Double
    {
        var end: Int64 = 0
        while av_read_frame(opened.input.pointer, packet.pointer) >= 0 {
            let p = packet.pointer.pointee
            if p.stream_index == opened.streamIndex, p.pts != reel_av_nopts_value() {
                end = max(end, p.pts - origin + max(p.duration, 0))
            }
            av_packet_unref(packet.pointer)
        }
        return Double(end) * timeBase
    }

    private func reopen() throws(MediaError) {
        opened = try VideoInput(path: path, maximumPixels: maximumPixels)
        held.removeAll()
        drained = false
        flushed = false
        fromStart = true
    }

    /// The frame on screen at file time `t` (seconds from the file's start): the last frame whose
    /// timestamp is at or before t. Before the first frame it is the first; after the last, the last.
    public func picture(at t: Double) throws(MediaError) -> VideoPicture {
        let entry = try entry(at: t)
        if entry.picture == nil { entry.picture = try convert(entry) }
        return entry.picture!
    }

    /// The frame on screen at file time `t` (as `picture(at:)` finds it) in the encoder's own format,
    /// without RGBA, for a frame that shows it alone and pixel for pixel; nil when the decoded frame is
    /// not one `YUVToEncoder` takes (then the caller draws `picture(at:)`). The file's own size only.
    public func encoderPicture(at t: Double) throws(MediaError) -> EncoderPicture? {
        let entry = try entry(at: t)
        if let done = entry.encoderPicture { return done }
        let f = entry.frame.pointer
        // Turned or stretched pictures are drawn: only what is shown as it is stored passes through.
        guard facts.rotation == 0, width == facts.width, height == facts.height,
            let matrix = YUVToEncoder.matrix(of: f, width: width, height: height)
        else { return nil }
        let picture = try encoderPictures.take(width: width, height: height)
        toEncoder.convert(f, matrix: matrix, into: picture)
        entry.encoderPicture = picture
        return picture
    }

    /// The held frame on screen at file time `t`, decoding on to it (or seeking) as needed.
    private func entry(at t: Double) throws(MediaError) -> Held {
        let t = t.isFinite ? t : 0
        let reach = t + Self.tolerance
        if let first = held.first {
            if reach < first.start && !fromStart {
                try seek(to: t)
            } else if let last = held.last, !drained, reach - last.start > Self.seekAhead {
                try seek(to: t)
            }
        } else if !fromStart {
            try seek(to: t)
        } else if t > Self.seekAhead {
            try seek(to: t)
        }
        // On until the frame after the one on screen is known (its timestamp ends the interval).
        while !drained, held.last.map({ $0.start <= reach }) ?? true {
            try decodeNext()
            letGo(before: reach)
        }
        guard !held.isEmpty else {
            throw MediaError(call: "avcodec_receive_frame(\(path))", message: "the video stream has no frames")
        }
        return held.last(where: { $0.start <= reach }) ?? held[0]
    }

    /// Lets go of frames that can no longer be on screen: those ending at or before the earliest time
    /// still to come, and the oldest beyond the bound.
    private func letGo(before reach: Double) {
        let keep = min(retainFrom.map { $0 + Self.tolerance } ?? reach, reach)
        var drop = 0
        while drop + 1 < held.count, held[drop + 1].start <= keep { drop += 1 }
        drop = max(drop, held.count - maximumHeld)
        if drop > 0 {
            held.removeFirst(drop)
            fromStart = false
        }
    }

    /// Seeks to the keyframe at or before `t` and decodes from there; if the container's index lands
    /// after t, seeks again from further back, and at last reads from the start.
    private func seek(to t: Double) throws(MediaError) {
        seeks += 1
        for back in [0.0, 5, 30] {
            let target = max(0, t - back)
            held.removeAll()
            drained = false
            flushed = false
            let ticks = origin + Int64((target / timeBase).rounded(.down))
            guard av_seek_frame(opened.input.pointer, opened.streamIndex, ticks, AVSEEK_FLAG_BACKWARD) >= 0 else { break }
            avcodec_flush_buffers(opened.codec.pointer)
            fromStart = target <= 0
            try decodeNext()
            if let first = held.first, first.start <= t + Self.tolerance || fromStart { return }
        }
        try reopen()
    }

    /// Decodes the next frame into `held` (or learns that there is none).
    private func decodeNext() throws(MediaError) {
        let codec = opened.codec.pointer
        while true {
            let frame = try FrameHandle()
            switch try received("avcodec_receive_frame(\(path))", avcodec_receive_frame(codec, frame.pointer)) {
            case .got:
                append(frame)
                return
            case .drained:
                drained = true
                return
            case .needsInput:
                break
            }
            if flushed {
                drained = true
                return
            }
            let read = av_read_frame(opened.input.pointer, packet.pointer)
            if read == averrorEOF {
                flushed = true
                try ff("avcodec_send_packet(flush)", avcodec_send_packet(codec, nil))
                continue
            }
            try ff("av_read_frame(\(path))", read)
            defer { av_packet_unref(packet.pointer) }
            guard packet.pointer.pointee.stream_index == opened.streamIndex else { continue }
            let sent = avcodec_send_packet(codec, packet.pointer)
            // A damaged packet is skipped, as players do; the frames around it still decode.
            if sent == reel_averror_invaliddata() { continue }
            try ff("avcodec_send_packet(\(path))", sent)
        }
    }

    private func append(_ frame: FrameHandle) {
        let f = frame.pointer.pointee
        let pts = f.best_effort_timestamp != reel_av_nopts_value() ? f.best_effort_timestamp : f.pts
        var start: Double
        if pts != reel_av_nopts_value() {
            start = timestamps.seconds(ticks: pts &- origin)
        } else {
            start = (held.last?.start ?? -1 / (facts.frameRate ?? 25)) + 1 / (facts.frameRate ?? 25)
        }
        // A timestamp that goes back (a damaged stream) would break the order the lookup relies on.
        if let last = held.last {
            guard start > last.start else { return }
            last.end = start
        }
        held.append(Held(frame: frame, start: start))
    }

    /// Scales the frame to the size asked for (the colour matrix and range it signals), turns it as the
    /// display matrix says, and premultiplies its alpha.
    private func convert(_ entry: Held) throws(MediaError) -> VideoPicture {
        let f = entry.frame.pointer
        let turned = facts.rotation % 180 != 0
        let tw = Int32(turned ? height : width), th = Int32(turned ? width : height)
        let source = (f.pointee.width, f.pointee.height, f.pointee.format)
        if scaler == nil || source != scalerSource {
            let format = AVPixelFormat(rawValue: f.pointee.format)
            let isYUV =
                av_pix_fmt_desc_get(format).map {
                    $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 && $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_PAL) == 0
                } ?? false
            let matrix: Int32
            switch f.pointee.colorspace {
            case AVCOL_SPC_BT709: matrix = SWS_CS_ITU709
            case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: matrix = SWS_CS_BT2020
            case AVCOL_SPC_FCC: matrix = SWS_CS_FCC
            case AVCOL_SPC_SMPTE240M: matrix = SWS_CS_SMPTE240M
            default: matrix = SWS_CS_DEFAULT
            }
            let full = f.pointee.color_range == AVCOL_RANGE_JPEG || !isYUV
            // Area averaging going down (no aliasing in a screen recording's text), bicubic going up.
            let shrinking = Int(tw) * Int(th) < Int(f.pointee.width) * Int(f.pointee.height)
            scaler = try Scaler(
                srcWidth: f.pointee.width, srcHeight: f.pointee.height, srcFormat: format,
                dstWidth: tw, dstHeight: th, dstFormat: AV_PIX_FMT_RGBA,
                srcColorspace: matrix, srcFullRange: full, dstColorspace: SWS_CS_ITU709, dstFullRange: true,
                filter: shrinking ? SWS_AREA : SWS_BICUBIC)
            scaled = try FrameHandle(format: AV_PIX_FMT_RGBA, width: tw, height: th)
            scalerSource = source
        }
        guard let scaler, let scaled else { throw MediaError(call: "sws_getContext", message: "no scaler") }
        try scaler.scale(src: f, dst: scaled.pointer)
        let planes = FramePlanes(scaled.pointer)
        let sw = Int(tw), sh = Int(th), stride = Int(planes.linesize[0])
        let w = width, h = height, rotation = facts.rotation, alpha = facts.hasAlpha
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let src = planes.data[0]!
        pixels.withUnsafeMutableBufferPointer { out in
            if rotation == 0 && !alpha {
                // Upright and opaque: swscale's rows as they are.
                for y in 0..<h { (out.baseAddress! + y * w * 4).update(from: src + y * stride, count: w * 4) }
                return
            }
            for oy in 0..<h {
                for ox in 0..<w {
                    // Where output pixel (ox, oy) comes from in the scaled, unturned picture.
                    let (ix, iy): (Int, Int)
                    switch rotation {
                    case 90: (ix, iy) = (oy, sh - 1 - ox)
                    case 180: (ix, iy) = (sw - 1 - ox, sh - 1 - oy)
                    case 270: (ix, iy) = (sw - 1 - oy, ox)
                    default: (ix, iy) = (ox, oy)
                    }
                    let s = src + iy * stride + ix * 4
                    let o = (oy * w + ox) * 4
                    let a = alpha ? UInt32(s[3]) : 255
                    if a == 255 {
                        out[o] = s[0]
                        out[o + 1] = s[1]
                        out[o + 2] = s[2]
                        out[o + 3] = 255
                    } else {
                        out[o] = UInt8((UInt32(s[0]) * a + 127) / 255)
                        out[o + 1] = UInt8((UInt32(s[1]) * a + 127) / 255)
                        out[o + 2] = UInt8((UInt32(s[2]) * a + 127) / 255)
                        out[o + 3] = UInt8(a)
                    }
                }
            }
        }
        return VideoPicture(width: w, height: h, premultipliedRGBA: pixels, start: entry.start, end: entry.end)
    }
}
