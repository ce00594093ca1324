/// Sound files (and videos' sound) read as the mix needs them: decoded with libavcodec, resampled with
/// libswresample to 48 kHz stereo float, by sample index from the file's start, sequentially.
internal import CFFmpeg

/// What a file says about its sound.
public struct AudioFacts: Sendable, Equatable {
    /// Seconds of sound.
    public var duration: Double
    public var sampleRate: Int
    public var channels: Int
    public var codecName: String
}

/// Reads one file's best audio stream as 48 kHz stereo float samples, interleaved (left, right), by
/// their index from the start of the file. Reading on from where the last read ended decodes forward;
/// anything else seeks (to the packet before, then decodes up to the exact sample). Past the end it
/// gives silence. Not thread-safe: one owner.
public final class AudioSource {
    /// The rate everything is mixed and encoded at.
    public static let sampleRate = 48_000
    public let facts: AudioFacts
    /// Seeks made so far: sound played forward seeks at most once.
    public private(set) var seeks = 0

    private let path: String
    private var input: InputFormatContext
    private var codec: CodecContext
    private let streamIndex: Int32
    private let timeBase: Double
    private let origin: Int64
    private let packet: PacketHandle
    private let frame: FrameHandle
    private var resampler: Resampler?
    /// Decoded samples not yet read (stereo, interleaved), the first of them at file sample `bufferStart`.
    private var buffer: [Float] = []
    private var bufferStart = 0
    /// Whether `bufferStart` is known (it is set from the first frame's timestamp after a seek).
    private var placed = true
    private var drained = false
    private var flushed = false

    /// Further ahead than this (in samples), a seek is cheaper than decoding everything in between.
    static let seekAhead = 5 * sampleRate

    public init(path: String) throws(MediaError) {
        self.path = path
        (input, codec, streamIndex) = try Self.open(path)
        packet = try PacketHandle()
        frame = try FrameHandle()
        let stream = input.pointer!.pointee.streams[Int(streamIndex)]!
        timeBase = av_q2d(stream.pointee.time_base)
        origin = stream.pointee.start_time == reel_av_nopts_value() ? 0 : stream.pointee.start_time
        var duration = 0.0
        if stream.pointee.duration != reel_av_nopts_value(), stream.pointee.duration > 0 {
            duration = Double(stream.pointee.duration) * timeBase
        } else if input.pointer!.pointee.duration != reel_av_nopts_value(), input.pointer!.pointee.duration > 0 {
            duration = Double(input.pointer!.pointee.duration) / Double(AV_TIME_BASE)
        }
        let par = stream.pointee.codecpar.pointee
        facts = AudioFacts(
            duration: duration, sampleRate: Int(par.sample_rate), channels: Int(par.ch_layout.nb_channels),
            codecName: String(cString: avcodec_get_name(par.codec_id)))
    }

    private static func open(_ path: String) throws(MediaError) -> (InputFormatContext, CodecContext, Int32) {
        let input = try InputFormatContext(path: path)
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(input.pointer, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        if index == reel_averror_stream_not_found() {
            throw MediaError(call: "av_find_best_stream(\(path))", code: index, message: "the file has no sound")
        }
        try ff("av_find_best_stream(\(path))", index)
        guard let decoder else { throw MediaError(call: "av_find_best_stream(\(path))", message: "no decoder for the sound") }
        let stream = input.pointer!.pointee.streams[Int(index)]!
        let codec = try CodecContext(codec: decoder)
        try ff("avcodec_parameters_to_context", avcodec_parameters_to_context(codec.pointer, stream.pointee.codecpar))
        codec.pointer.pointee.pkt_timebase = stream.pointee.time_base
        try ff("avcodec_open2(\(String(cString: decoder.pointee.name)))", avcodec_open2(codec.pointer, decoder, nil))
        return (input, codec, index)
    }

    /// `count` stereo samples from file sample `start` (48 kHz), interleaved; silence where the file
    /// has none (before its start, after its end).
    public func read(from start: Int, count: Int) throws(MediaError) -> [Float] {
        guard count > 0 else { return [] }
        var out = [Float](repeating: 0, count: count * 2)
        var at = start
        if at < 0 {
            let skip = min(-at, count)
            at += skip
            if skip == count { return out }
        }
        if placed, at < bufferStart || at > bufferStart + buffer.count / 2 + Self.seekAhead {
            try seek(to: at)
        }
        let end = start + count
        while !drained && (!placed || bufferStart + buffer.count / 2 < end) { try decodeNext() }
        // Samples before `at` are no longer needed.
        let drop = min(max(0, at - bufferStart), buffer.count / 2)
        if drop > 0 {
            buffer.removeFirst(drop * 2)
            bufferStart += drop
        }
        let available = min(end - bufferStart, buffer.count / 2)
        if available > 0 {
            let offset = (bufferStart - start) * 2
            for i in 0..<(available * 2) { out[offset + i] = buffer[i] }
        }
        return out
    }

    private func seek(to sample: Int) throws(MediaError) {
        seeks += 1
        buffer.removeAll(keepingCapacity: true)
        drained = false
        flushed = false
        // A little before: a packet may start before the sample wanted (and a decoder needs a run-in).
        let seconds = max(0, Double(sample) / Double(Self.sampleRate) - 0.1)
        let ticks = origin + Int64(seconds / timeBase)
        if av_seek_frame(input.pointer, streamIndex, ticks, AVSEEK_FLAG_BACKWARD) >= 0 {
            avcodec_flush_buffers(codec.pointer)
        } else {
            (input, codec, _) = try Self.open(path)
        }
        resampler = nil
        placed = false
    }

    private func decodeNext() throws(MediaError) {
        while true {
            switch try received("avcodec_receive_frame(\(path))", avcodec_receive_frame(codec.pointer, frame.pointer)) {
            case .got:
                defer { av_frame_unref(frame.pointer) }
                try take(frame.pointer)
                return
            case .drained:
                if let resampler { append(try resampler.flush()) }
                drained = true
                return
            case .needsInput:
                break
            }
            if flushed {
                drained = true
                return
            }
            let read = av_read_frame(input.pointer, packet.pointer)
            if read == averrorEOF {
                flushed = true
                try ff("avcodec_send_packet(flush)", avcodec_send_packet(codec.pointer, nil))
                continue
            }
            try ff("av_read_frame(\(path))", read)
            defer { av_packet_unref(packet.pointer) }
            guard packet.pointer.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(codec.pointer, packet.pointer)
            if sent == reel_averror_invaliddata() { continue }
            try ff("avcodec_send_packet(\(path))", sent)
        }
    }

    private func take(_ f: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        if resampler == nil { resampler = try Resampler(from: f) }
        if !placed {
            let pts = f.pointee.best_effort_timestamp != reel_av_nopts_value() ? f.pointee.best_effort_timestamp : f.pointee.pts
            let seconds = pts == reel_av_nopts_value() ? 0 : Double(pts - origin) * timeBase
            bufferStart = Int((seconds * Double(Self.sampleRate)).rounded())
            placed = true
        }
        append(try resampler!.convert(f))
    }

    private func append(_ samples: [Float]) { buffer += samples }
}

/// A libswresample context: any layout, format and rate to 48 kHz stereo float, interleaved.
final class Resampler {
    private let context: OpaquePointer
    private let inputRate: Int32

    init(from f: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        var out = AVChannelLayout()
        av_channel_layout_default(&out, 2)
        var input = f.pointee.ch_layout
        if input.nb_channels == 0 { av_channel_layout_default(&input, 2) }
        var ctx: OpaquePointer?
        try ff(
            "swr_alloc_set_opts2",
            swr_alloc_set_opts2(
                &ctx, &out, AV_SAMPLE_FMT_FLT, Int32(AudioSource.sampleRate), &input,
                AVSampleFormat(rawValue: f.pointee.format), f.pointee.sample_rate, 0, nil))
        guard let ctx else { throw MediaError(call: "swr_alloc_set_opts2", message: "out of memory") }
        context = ctx
        inputRate = f.pointee.sample_rate
        try ff("swr_init", swr_init(ctx))
    }

    func convert(_ f: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> [Float] {
        let room = Int(swr_get_out_samples(context, f.pointee.nb_samples))
        guard room > 0 else { return [] }
        var out = [Float](repeating: 0, count: room * 2)
        let status = out.withUnsafeMutableBytes { raw -> Int32 in
            var plane: UnsafeMutablePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let input = UnsafeMutableRawPointer(f.pointee.extended_data).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
            return swr_convert(context, &plane, Int32(room), input, f.pointee.nb_samples)
        }
        let written = try ff("swr_convert", status)
        return Array(out.prefix(Int(written) * 2))
    }

    /// What the resampler still holds at the end of the stream.
    func flush() throws(MediaError) -> [Float] {
        let room = Int(swr_get_out_samples(context, 0))
        guard room > 0 else { return [] }
        var out = [Float](repeating: 0, count: room * 2)
        let status = out.withUnsafeMutableBytes { raw -> Int32 in
            var plane: UnsafeMutablePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return swr_convert(context, &plane, Int32(room), nil, 0)
        }
        let written = try ff("swr_convert(flush)", status)
        return Array(out.prefix(Int(written) * 2))
    }

    deinit {
        var ctx: OpaquePointer? = context
        swr_free(&ctx)
    }
}
