/// A clip's sound track in the writer's file: 48 kHz stereo float samples encoded AAC (MP4, MOV) or Opus
/// (WebM) into a second stream, in frames of the encoder's size, timestamped by sample index.
internal import CFFmpeg

/// How a clip's sound is encoded.
public struct AudioSettings: Sendable, Equatable {
    public enum Codec: String, Sendable {
        case aac, opus
    }

    public var codec: Codec
    /// Bits per second.
    public var bitRate: Int
    /// The clip's sample index of the first sample appended (a segment keeps the clip's timestamps).
    public var firstSample = 0

    public init(codec: Codec, bitRate: Int? = nil) {
        self.codec = codec
        self.bitRate = bitRate ?? (codec == .aac ? 192_000 : 128_000)
    }

    /// The codec a container carries sound in; nil for the formats without sound (GIF, APNG, WebP, PNG).
    public static func codec(for container: VideoContainer) -> Codec? {
        switch container {
        case .mp4, .mov: return .aac
        case .webm: return .opus
        default: return nil
        }
    }
}

/// The audio stream of a `VideoWriter`: samples are buffered into the encoder's frame size and each
/// packet goes to the muxer, which interleaves it with the video by time.
final class AudioEncoder {
    let settings: AudioSettings
    private let codec: CodecContext
    let stream: UnsafeMutablePointer<AVStream>
    private let frame: FrameHandle
    private let packet: PacketHandle
    private let frameSize: Int
    private var pending: [Float] = []
    private var nextSample: Int
    private let write: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void

    init(
        _ settings: AudioSettings, format: UnsafeMutablePointer<AVFormatContext>,
        write: @escaping (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void
    ) throws(MediaError) {
        self.settings = settings
        self.write = write
        nextSample = settings.firstSample
        let name = settings.codec == .aac ? "aac" : "libopus"
        guard let encoder = avcodec_find_encoder_by_name(name) else {
            throw MediaError(
                call: "avcodec_find_encoder_by_name(\(name))",
                message: "this FFmpeg has no \(name) encoder; install Debian's libavcodec with it (scripts/setup.sh)")
        }
        codec = try CodecContext(codec: encoder)
        let c = codec.pointer
        c.pointee.sample_rate = Int32(AudioSource.sampleRate)
        av_channel_layout_default(&c.pointee.ch_layout, 2)
        // AAC takes planar float; libopus interleaved float.
        c.pointee.sample_fmt = settings.codec == .aac ? AV_SAMPLE_FMT_FLTP : AV_SAMPLE_FMT_FLT
        c.pointee.bit_rate = Int64(settings.bitRate)
        c.pointee.time_base = AVRational(num: 1, den: Int32(AudioSource.sampleRate))
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        try ff("avcodec_open2(\(name))", avcodec_open2(c, encoder, nil))
        guard let st = avformat_new_stream(format, nil) else {
            throw MediaError(call: "avformat_new_stream", message: "out of memory")
        }
        stream = st
        try ff("avcodec_parameters_from_context", avcodec_parameters_from_context(st.pointee.codecpar, c))
        st.pointee.time_base = c.pointee.time_base
        frameSize = c.pointee.frame_size > 0 ? Int(c.pointee.frame_size) : 1024
        packet = try PacketHandle()
        frame = try FrameHandle()
        frame.pointer.pointee.format = c.pointee.sample_fmt.rawValue
        frame.pointer.pointee.nb_samples = Int32(frameSize)
        frame.pointer.pointee.sample_rate = c.pointee.sample_rate
        try ff("av_channel_layout_copy", av_channel_layout_copy(&frame.pointer.pointee.ch_layout, &c.pointee.ch_layout))
        try ff("av_frame_get_buffer(audio)", av_frame_get_buffer(frame.pointer, 0))
    }

    /// Appends stereo samples (left, right, interleaved), encoding every whole frame they complete.
    func append(_ samples: [Float]) throws(MediaError) {
        pending += samples
        var used = 0
        while pending.count - used >= frameSize * 2 {
            try encode(pending[used..<(used + frameSize * 2)])
            used += frameSize * 2
        }
        pending.removeFirst(used)
    }

    /// Encodes what is left (a shorter last frame) and drains the encoder.
    func finish() throws(MediaError) {
        if !pending.isEmpty {
            try encode(pending[...])
            pending.removeAll()
        }
        try send(nil)
    }

    private func encode(_ samples: ArraySlice<Float>) throws(MediaError) {
        let f = frame.pointer
        try ff("av_frame_make_writable(audio)", av_frame_make_writable(f))
        let count = samples.count / 2
        f.pointee.nb_samples = Int32(count)
        let planes = FramePlanes(f)
        samples.withUnsafeBufferPointer { s in
            if settings.codec == .aac {
                let left = UnsafeMutableRawPointer(planes.data[0]!).assumingMemoryBound(to: Float.self)
                let right = UnsafeMutableRawPointer(planes.data[1]!).assumingMemoryBound(to: Float.self)
                for i in 0..<count {
                    left[i] = s[2 * i]
                    right[i] = s[2 * i + 1]
                }
            } else {
                let both = UnsafeMutableRawPointer(planes.data[0]!).assumingMemoryBound(to: Float.self)
                for i in 0..<(2 * count) { both[i] = s[i] }
            }
        }
        f.pointee.pts = Int64(nextSample)
        nextSample += count
        try send(f)
    }

    private func send(_ f: UnsafeMutablePointer<AVFrame>?) throws(MediaError) {
        try ff("avcodec_send_frame(\(codec.name))", avcodec_send_frame(codec.pointer, f))
        while true {
            let status = avcodec_receive_packet(codec.pointer, packet.pointer)
            guard try received("avcodec_receive_packet(\(codec.name))", status) == .got else { return }
            packet.pointer.pointee.stream_index = stream.pointee.index
            av_packet_rescale_ts(packet.pointer, codec.pointer.pointee.time_base, stream.pointee.time_base)
            try write(packet.pointer)
        }
    }
}
