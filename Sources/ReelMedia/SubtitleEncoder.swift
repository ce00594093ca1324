/// A clip's captions as a soft subtitle track in the writer's file: `mov_text` in MP4 and MOV, WebVTT in
/// WebM, each cue one packet timed in milliseconds, written as the picture reaches its start.
internal import CFFmpeg
import Foundation

/// One caption of a subtitle track: its text (lines joined by newlines) and its time in seconds.
public struct SubtitleTrackCue: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var text: String

    public init(start: Double, end: Double, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }
}

/// The subtitle stream of a `VideoWriter`.
final class SubtitleEncoder {
    private let codec: CodecContext
    let stream: UnsafeMutablePointer<AVStream>
    private var cues: [SubtitleTrackCue]
    private var next = 0
    private let packet: PacketHandle
    private let write: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void
    /// The encoders read their styles from an ASS header; this is the plainest one.
    static let header = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 384
        PlayResY: 288

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,Arial,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

        """

    /// The codec a container carries soft subtitles in; nil for the formats without them.
    static func encoderName(for container: VideoContainer) -> String? {
        switch container {
        case .mp4, .mov: return "mov_text"
        case .webm: return "webvtt"
        default: return nil
        }
    }

    init(
        _ cues: [SubtitleTrackCue], container: VideoContainer, format: UnsafeMutablePointer<AVFormatContext>,
        write: @escaping (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void
    ) throws(MediaError) {
        self.cues = cues.sorted { $0.start < $1.start }
        self.write = write
        guard let name = Self.encoderName(for: container), let encoder = avcodec_find_encoder_by_name(name) else {
            throw MediaError(call: "avcodec_find_encoder", message: ".\(container.rawValue) carries no subtitle track")
        }
        codec = try CodecContext(codec: encoder)
        let c = codec.pointer
        c.pointee.time_base = AVRational(num: 1, den: 1000)
        let header = Array(Self.header.utf8) + [0]
        guard let copy = av_mallocz(header.count)?.assumingMemoryBound(to: UInt8.self) else {
            throw MediaError(call: "av_mallocz", message: "out of memory")
        }
        copy.update(from: header, count: header.count)
        // Freed with the codec context (avcodec_free_context frees subtitle_header).
        c.pointee.subtitle_header = copy
        c.pointee.subtitle_header_size = Int32(header.count - 1)
        try ff("avcodec_open2(\(name))", avcodec_open2(c, encoder, nil))
        guard let st = avformat_new_stream(format, nil) else {
            throw MediaError(call: "avformat_new_stream", message: "out of memory")
        }
        stream = st
        try ff("avcodec_parameters_from_context", avcodec_parameters_from_context(st.pointee.codecpar, c))
        st.pointee.time_base = c.pointee.time_base
        packet = try PacketHandle()
    }

    /// Writes the cues that start before `time` (seconds), so they interleave with the picture.
    func write(upTo time: Double) throws(MediaError) {
        while next < cues.count, cues[next].start < time {
            try encode(cues[next])
            next += 1
        }
    }

    /// Writes the cues left.
    func finish() throws(MediaError) { try write(upTo: .infinity) }

    /// ASS dialogue text: line breaks as `\N`, braces (ASS overrides) dropped.
    static func dialogue(_ text: String) -> String {
        let plain = text.replacingOccurrences(of: "\r\n", with: "\n").filter { $0 != "{" && $0 != "}" }
        return "0,0,Default,,0,0,0,," + plain.replacingOccurrences(of: "\n", with: "\\N")
    }

    private func encode(_ cue: SubtitleTrackCue) throws(MediaError) {
        let startMS = Int64((cue.start * 1000).rounded()), endMS = Int64((cue.end * 1000).rounded())
        guard endMS > startMS else { return }
        var subtitle = AVSubtitle()
        defer { avsubtitle_free(&subtitle) }
        guard
            let rects = av_mallocz(MemoryLayout<UnsafeMutablePointer<AVSubtitleRect>?>.size)?
                .assumingMemoryBound(to: UnsafeMutablePointer<AVSubtitleRect>?.self),
            let rect = av_mallocz(MemoryLayout<AVSubtitleRect>.size)?.assumingMemoryBound(to: AVSubtitleRect.self)
        else { throw MediaError(call: "av_mallocz", message: "out of memory") }
        rects[0] = rect
        subtitle.rects = rects
        subtitle.num_rects = 1
        rect.pointee.type = SUBTITLE_ASS
        rect.pointee.ass = av_strdup(Self.dialogue(cue.text))
        subtitle.start_display_time = 0
        subtitle.end_display_time = UInt32(endMS - startMS)
        subtitle.pts = startMS * 1000  // AV_TIME_BASE (microseconds)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let size = buffer.withUnsafeMutableBufferPointer {
            avcodec_encode_subtitle(codec.pointer, $0.baseAddress, Int32($0.count), &subtitle)
        }
        try ff("avcodec_encode_subtitle", size)
        let p = packet.pointer
        try ff("av_new_packet", av_new_packet(p, size))
        buffer.withUnsafeBufferPointer { p.pointee.data.update(from: $0.baseAddress!, count: Int(size)) }
        p.pointee.pts = startMS
        p.pointee.dts = startMS
        p.pointee.duration = endMS - startMS
        p.pointee.stream_index = stream.pointee.index
        av_packet_rescale_ts(p, codec.pointer.pointee.time_base, stream.pointee.time_base)
        defer { av_packet_unref(p) }
        try write(p)
    }
}
