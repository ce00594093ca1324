/// Segments for a later join: which frames a file holds (its comment), reading that back, and joining
/// segments losslessly by copying their packets.
internal import CFFmpeg
import Foundation
import ReelGIF

/// Which frames of a clip a file holds, when it is a segment rendered for a later join
/// (`reel render --frames A-B` / `--shard I/N`, then `reel concat`). Written into the file as its
/// comment, `reel segment: frames A-B of N` (frame numbers from 0, both ends included), so that the
/// join can order the segments and check that together they hold every frame exactly once.
public struct SegmentInfo: Sendable, Equatable, CustomStringConvertible {
    public var first: Int
    public var last: Int
    /// Frames in the whole clip.
    public var total: Int

    public init(first: Int, last: Int, total: Int) {
        self.first = first
        self.last = last
        self.total = total
    }

    public var count: Int { last - first + 1 }

    static let prefix = "reel segment: frames "

    public var description: String { "\(Self.prefix)\(first)-\(last) of \(total)" }

    /// Reads the comment written by `description`; nil for anything else.
    public init?(comment: String) {
        guard comment.hasPrefix(Self.prefix) else { return nil }
        let rest = comment.dropFirst(Self.prefix.count).split(separator: " ")
        guard rest.count == 3, rest[1] == "of", let total = Int(rest[2]) else { return nil }
        let range = rest[0].split(separator: "-")
        guard range.count == 2, let a = Int(range[0]), let b = Int(range[1]), 0 <= a, a <= b, b < total else { return nil }
        self.init(first: a, last: b, total: total)
    }

    /// The frames of shard `index` (from 0) of `count` over a clip of `total` frames: frames
    /// ⌊index·total/count⌋ … ⌊(index+1)·total/count⌋ − 1, so the shards differ by at most one frame.
    /// Nil when the shard holds no frame (more shards than frames).
    public static func shard(_ index: Int, of count: Int, total: Int) -> SegmentInfo? {
        let a = index * total / count, b = (index + 1) * total / count - 1
        return b >= a ? SegmentInfo(first: a, last: b, total: total) : nil
    }
}

/// A segment file as the join sees it.
public struct SegmentFile: Sendable {
    public var path: String
    public var info: SegmentInfo

    public init(path: String, info: SegmentInfo) {
        self.path = path
        self.info = info
    }
}

/// Joins segment files (`reel render --frames` / `--shard`) into one file without re-encoding: the
/// packets are copied in order into a new file of the same container. The segments must be one clip's
/// contiguous frames with the same codec parameters; anything else is refused before a byte is
/// written, and a segment that turns out shorter than its comment says fails the join.
public enum SegmentJoiner {
    /// Reads a segment's frame range from its comment.
    public static func info(ofFileAt path: String) throws(MediaError) -> SegmentInfo {
        let comments: [String]
        if path.lowercased().hasSuffix(".gif") {
            comments = GIFComment.read(fromFileAt: path)
        } else {
            let input = try InputFormatContext(path: path)
            comments = [tag(input.pointer!.pointee.metadata, "comment")].compactMap { $0 }
        }
        guard let info = comments.lazy.compactMap(SegmentInfo.init(comment:)).first else {
            throw MediaError(
                call: path,
                message:
                    "not a Reel segment (its comment does not say which frames it holds); render segments as a range of frames or a shard of the clip"
            )
        }
        return info
    }

    static func tag(_ dict: OpaquePointer?, _ key: String) -> String? {
        guard let e = av_dict_get(dict, key, nil, 0) else { return nil }
        return String(cString: e.pointee.value)
    }

    /// Copies the packets of `segments` (already ordered, contiguous, same container) into `output`
    /// with the muxer `muxer`. Returns the number of frames written. With `sound`, the joined file also
    /// gets a sound track encoded from the samples it gives (48 kHz stereo, interleaved, by clip sample
    /// index), written abreast of the frames: `samples(atFrame:)` is the sample where frame n starts.
    public static func join(
        _ segments: [SegmentFile], to output: String, muxer: String, sound: SoundTrack? = nil
    ) throws(MediaError) -> Int {
        precondition(!segments.isEmpty)
        // GIF frames are blocks of bytes that stand alone: joined by Reel's own GIF code.
        if muxer == "gif" {
            try gifStep { () throws(GIFError) in try GIFJoiner.join(segments.map(\.path), to: output) }
            return segments.reduce(0) { $0 + $1.info.count }
        }
        let inputs = try segments.map { (s) throws(MediaError) in try InputFormatContext(path: s.path) }
        // One video stream each, with the same codec parameters as the first.
        var streams: [UnsafeMutablePointer<AVStream>] = []
        for (k, input) in inputs.enumerated() {
            let ctx = input.pointer!
            guard ctx.pointee.nb_streams == 1, let st = ctx.pointee.streams[0],
                st.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
            else {
                throw MediaError(call: segments[k].path, message: "a segment holds exactly one video stream")
            }
            streams.append(st)
            if k > 0, let difference = difference(streams[0], st) {
                throw MediaError(
                    call: segments[k].path,
                    message:
                        "was encoded differently from \(segments[0].path) (\(difference)); segments must come from the same scene and options"
                )
            }
        }
        let out = try OutputFormatContext(format: muxer, path: output)
        guard let ost = avformat_new_stream(out.pointer, nil) else {
            throw MediaError(call: "avformat_new_stream", message: "out of memory")
        }
        let first = streams[0]
        try ff("avcodec_parameters_copy", avcodec_parameters_copy(ost.pointee.codecpar, first.pointee.codecpar))
        if muxer != "mp4" && muxer != "mov" { ost.pointee.codecpar.pointee.codec_tag = 0 }
        ost.pointee.time_base = first.pointee.time_base
        ost.pointee.avg_frame_rate = first.pointee.avg_frame_rate
        ost.pointee.r_frame_rate = first.pointee.r_frame_rate
        av_dict_copy(&ost.pointee.metadata, first.pointee.metadata, 0)
        av_dict_set(&ost.pointee.metadata, "comment", nil, 0)
        var audio: AudioEncoder?
        if let sound {
            let outContext = out.pointer
            audio = try AudioEncoder(sound.settings, format: outContext) { (packet) throws(MediaError) in
                try ff("av_interleaved_write_frame(audio)", av_interleaved_write_frame(outContext, packet))
            }
        }
        var soundWritten = 0
        try out.openIO(path: output)
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        switch muxer {
        case "mp4", "mov": av_dict_set(&options, "movflags", "+faststart+write_colr", 0)
        default: break
        }
        try ff("avformat_write_header", avformat_write_header(out.pointer, &options))

        let packet = try PacketHandle()
        let p = packet.pointer
        var written = 0
        var lastDTS = Int64.min
        var firstSettings: String?
        for (k, input) in inputs.enumerated() {
            let ctx = input.pointer!
            let tb = streams[k].pointee.time_base
            var count = 0
            var shift: Int64 = 0
            while true {
                let status = av_read_frame(ctx, p)
                if status == averrorEOF { break }
                try ff("av_read_frame(\(segments[k].path))", status)
                defer { av_packet_unref(p) }
                count += 1
                if count == 1 {
                    // x264 and x265 write their whole configuration (crf, preset…) into the first
                    // frame; segments encoded with different settings are refused even when their
                    // parameter sets happen to match.
                    let settings = encoderSettings(p)
                    if k == 0 {
                        firstSettings = settings
                    } else if settings != firstSettings {
                        throw MediaError(
                            call: segments[k].path,
                            message:
                                "was encoded with other encoder settings than \(segments[0].path) (crf, preset…); segments must come from the same scene and options"
                        )
                    }
                }
                if count == 1 {
                    // A segment's first packet is its first frame, a key frame. MP4 and MOV start a
                    // later segment with an empty edit rounded to the movie's millisecond clock, so
                    // its times read back up to ½ ms early; each segment is placed exactly where its
                    // first frame belongs instead: frame number × frame duration.
                    let rate = streams[k].pointee.avg_frame_rate
                    let frame =
                        p.pointee.duration > 0
                        ? p.pointee.duration : av_rescale_q(1, AVRational(num: rate.den, den: rate.num), tb)
                    shift = Int64(segments[k].info.first) * frame - p.pointee.pts
                }
                p.pointee.pts += shift
                if p.pointee.dts != reelNoPTS { p.pointee.dts += shift }
                av_packet_rescale_ts(p, tb, first.pointee.time_base)
                let dts = p.pointee.dts == reelNoPTS ? p.pointee.pts : p.pointee.dts
                guard dts > lastDTS else {
                    throw MediaError(
                        call: segments[k].path,
                        message:
                            "its timestamps overlap the segment before it (\(segments[k - 1].path)): was it rendered with another range of frames?"
                    )
                }
                lastDTS = dts
                av_packet_rescale_ts(p, first.pointee.time_base, ost.pointee.time_base)
                p.pointee.stream_index = 0
                p.pointee.pos = -1
                try ff("av_interleaved_write_frame", av_interleaved_write_frame(out.pointer, p))
                if let sound, let audio {
                    // The sound up to the end of the frames written so far, so the muxer interleaves them.
                    let end = sound.sample(written + count)
                    try audio.append(try sound.samples(soundWritten, end - soundWritten))
                    soundWritten = end
                }
            }
            guard count == segments[k].info.count else {
                throw MediaError(
                    call: segments[k].path,
                    message:
                        "holds \(count) frames where its comment says \(segments[k].info.count) (frames \(segments[k].info.first)-\(segments[k].info.last)): the file is incomplete; render it again"
                )
            }
            written += count
        }
        try audio?.finish()
        try ff("av_write_trailer", av_write_trailer(out.pointer))
        try out.closeIO()
        return written
    }

    /// A sound track for a joined clip: how it is encoded, where each frame starts in samples, and the
    /// samples themselves.
    public struct SoundTrack {
        public var settings: AudioSettings
        public var sample: (_ frame: Int) -> Int
        public var samples: (_ start: Int, _ count: Int) throws(MediaError) -> [Float]

        public init(
            settings: AudioSettings, sample: @escaping (_ frame: Int) -> Int,
            samples: @escaping (_ start: Int, _ count: Int) throws(MediaError) -> [Float]
        ) {
            self.settings = settings
            self.sample = sample
            self.samples = samples
        }
    }

    /// The encoder's own description of its settings in a packet (x264's and x265's SEI text), if any.
    static func encoderSettings(_ p: UnsafeMutablePointer<AVPacket>) -> String? {
        guard let data = p.pointee.data, p.pointee.size > 0 else { return nil }
        let bytes = UnsafeBufferPointer(start: data, count: Int(p.pointee.size))
        for marker in ["x264 - core", "x265 (build"] {
            let m = Array(marker.utf8)
            guard bytes.count > m.count else { continue }
            for i in 0..<(bytes.count - m.count) where bytes[i] == m[0] && bytes[i..<(i + m.count)].elementsEqual(m) {
                var end = i
                while end < bytes.count && bytes[end] != 0 && end - i < 8192 { end += 1 }
                // The build line varies with nothing but the settings: the whole text is compared.
                return String(decoding: bytes[i..<end], as: UTF8.self)
            }
        }
        return nil
    }

    /// What differs between two segments' video streams, said for a person; nil when they match.
    static func difference(_ a: UnsafeMutablePointer<AVStream>, _ b: UnsafeMutablePointer<AVStream>) -> String? {
        let x = a.pointee.codecpar.pointee, y = b.pointee.codecpar.pointee
        if x.codec_id != y.codec_id {
            return "codec \(String(cString: avcodec_get_name(x.codec_id))) vs \(String(cString: avcodec_get_name(y.codec_id)))"
        }
        if x.width != y.width || x.height != y.height { return "size \(x.width)×\(x.height) vs \(y.width)×\(y.height)" }
        if x.format != y.format { return "pixel format" }
        if x.color_primaries != y.color_primaries || x.color_trc != y.color_trc || x.color_space != y.color_space
            || x.color_range != y.color_range
        {
            return "colour description"
        }
        if x.profile != y.profile || x.level != y.level { return "codec profile or level" }
        let fa = a.pointee.avg_frame_rate, fb = b.pointee.avg_frame_rate
        // A GIF has delays, not a frame rate (the demuxer guesses one per file).
        if x.codec_id != AV_CODEC_ID_GIF && fa.num != 0 && fb.num != 0
            && Int64(fa.num) * Int64(fb.den) != Int64(fb.num) * Int64(fa.den)
        {
            return "frame rate \(fa.num)/\(fa.den) vs \(fb.num)/\(fb.den)"
        }
        let ea = x.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(x.extradata_size))) } ?? []
        let eb = y.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(y.extradata_size))) } ?? []
        if ea != eb { return "encoder settings (the codec's parameter sets differ)" }
        return nil
    }
}
