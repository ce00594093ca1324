// The versions of the media libraries this process runs with, for `reel --version`: output bytes depend on them.
internal import CFFmpeg
import Foundation

public enum MediaLibraries {
    /// FFmpeg's release as its build calls itself (Debian's "5.1.8-0+deb12u1").
    public static var ffmpeg: String { String(cString: av_version_info()) }

    /// The versions of the FFmpeg libraries Reel calls, as loaded (not as compiled against).
    public static var libraries: [(name: String, version: String)] {
        [
            ("libavcodec", dotted(avcodec_version())), ("libavformat", dotted(avformat_version())),
            ("libswscale", dotted(swscale_version())), ("libswresample", dotted(swresample_version())),
        ]
    }

    /// The x264 behind libavcodec's libx264 encoder, as x264 itself writes it into every H.264 file it
    /// makes ("core 164 r3095 baf6b3a"): the one name that says which encoder made the bytes. x264 has
    /// no call that returns it, so one 16×16 frame is encoded and the string read from that file's
    /// first packet. nil when this FFmpeg has no libx264 or the string is not found.
    public static func x264() -> String? {
        _ = configureFFmpegLogging
        guard let encoder = avcodec_find_encoder_by_name("libx264"), let context = try? CodecContext(codec: encoder),
            let frame = try? FrameHandle(format: AV_PIX_FMT_YUV420P, width: 16, height: 16),
            let packet = try? PacketHandle()
        else { return nil }
        let c = context.pointer
        c.pointee.width = 16
        c.pointee.height = 16
        c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        c.pointee.time_base = AVRational(num: 1, den: 25)
        c.pointee.thread_count = 1
        guard avcodec_open2(c, encoder, nil) >= 0, avcodec_send_frame(c, frame.pointer) >= 0, avcodec_send_frame(c, nil) >= 0
        else { return nil }
        var bytes = Data()
        while avcodec_receive_packet(c, packet.pointer) >= 0 {
            if let data = packet.pointer.pointee.data { bytes.append(data, count: Int(packet.pointer.pointee.size)) }
            av_packet_unref(packet.pointer)
        }
        // x264's SEI text: "x264 - core 164 r3095 baf6b3a - H.264/MPEG-4 AVC codec - Copyleft … - options: …".
        guard let start = bytes.range(of: Data("x264 - ".utf8)),
            let end = bytes[start.upperBound...].range(of: Data(" - H.264".utf8))
        else { return nil }
        return String(decoding: bytes[start.upperBound..<end.lowerBound], as: UTF8.self)
    }

    private static func dotted(_ version: UInt32) -> String { "\(version >> 16).\((version >> 8) & 0xff).\(version & 0xff)" }
}
