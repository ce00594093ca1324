// The output formats (containers) and the codecs each can hold with their chroma and bit depths.

/// The output formats, chosen from the file extension (or `--codec`).
public enum VideoContainer: String, Sendable, CaseIterable {
    case mp4
    case mov
    case webm
    case gif
    case apng
    case webp
    /// A folder of `frame_00000.png`, `frame_00001.png`, …
    case png

    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "mp4", "m4v": self = .mp4
        case "mov", "qt": self = .mov
        case "webm": self = .webm
        case "gif": self = .gif
        case "apng": self = .apng
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The codec a container gets when none is asked for.
    public var defaultCodec: VideoCodec {
        switch self {
        case .mp4: return .h264
        case .mov: return .prores
        case .webm: return .vp9
        case .gif: return .gif
        case .apng: return .apng
        case .webp: return .webp
        case .png: return .png
        }
    }

    /// libavformat's muxer name.
    public var muxerName: String { muxer }

    var muxer: String {
        switch self {
        case .mp4: return "mp4"
        case .mov: return "mov"
        case .webm: return "webm"
        case .gif: return "gif"
        case .apng: return "apng"
        case .webp: return "webp"
        case .png: return "image2"
        }
    }

    /// GIF frame delays are whole centiseconds, and browsers replace delays under 2 cs with 10 cs, so a
    /// GIF cannot honestly play faster than 50 fps. Clips above that are written at `fps / k` with the
    /// smallest whole `k` that brings the rate to 50 or below (60 → 30, 120 → 40): every k-th frame,
    /// the same moments in time, none invented.
    public static let gifMaximumFrameRate = 50

    /// The frame-rate divisor for this container (1 when the rate is kept).
    public func frameRateDivisor(numerator: Int, denominator: Int) -> Int {
        guard self == .gif else { return 1 }
        var k = 1
        while numerator > Self.gifMaximumFrameRate * denominator * k { k += 1 }
        return k
    }
}

/// Chroma subsampling of the YUV codecs.
public enum ChromaSubsampling: String, Sendable, CaseIterable {
    case yuv420 = "420"
    case yuv422 = "422"
    case yuv444 = "444"
}

/// What a clip is encoded with.
public enum VideoCodec: String, Sendable, CaseIterable {
    /// H.264 (libx264): MP4 or MOV; 4:2:0 by default, 4:4:4 and 10-bit on request.
    case h264
    /// HEVC (libx265), tagged `hvc1` so Apple players open it: MP4 or MOV.
    case hevc
    /// VP9 (libvpx-vp9) in WebM, with alpha (`yuva420p`) when the clip has it.
    case vp9
    /// AV1 (libsvtav1) in MP4 or WebM.
    case av1
    /// Apple ProRes 422 HQ (prores_ks) in MOV, 10-bit 4:2:2.
    case prores
    /// Apple ProRes 4444 (prores_ks) in MOV, 10-bit 4:4:4 with alpha.
    case prores4444 = "prores-4444"
    case gif
    /// Animated PNG: lossless, 8-bit, with alpha.
    case apng
    /// Animated WebP (libwebp), with alpha.
    case webp
    /// A PNG sequence.
    case png

    /// The containers that can hold it.
    public var containers: [VideoContainer] {
        switch self {
        case .h264, .hevc: return [.mp4, .mov]
        case .vp9: return [.webm]
        case .av1: return [.mp4, .webm]
        case .prores, .prores4444: return [.mov]
        case .gif: return [.gif]
        case .apng: return [.apng]
        case .webp: return [.webp]
        case .png: return [.png]
        }
    }

    /// Whether it carries an alpha channel (GIF: one bit).
    public var carriesAlpha: Bool {
        switch self {
        case .vp9, .prores4444, .apng, .webp, .png, .gif: return true
        case .h264, .hevc, .av1, .prores: return false
        }
    }

    /// Whether it is YUV (and so needs a matrix, a range and, for subsampled chroma, even sides).
    public var isYUV: Bool {
        switch self {
        case .h264, .hevc, .vp9, .av1, .prores, .prores4444: return true
        case .gif, .apng, .webp, .png: return false
        }
    }

    /// The subsamplings and bit depths it offers.
    public var chromaChoices: [ChromaSubsampling] {
        switch self {
        case .h264, .hevc: return [.yuv420, .yuv444]
        case .vp9: return [.yuv420, .yuv444]
        case .av1: return [.yuv420]
        case .prores: return [.yuv422]
        case .prores4444: return [.yuv444]
        default: return []
        }
    }

    public var bitDepthChoices: [Int] {
        switch self {
        case .h264, .hevc, .vp9, .av1: return [8, 10]
        case .prores, .prores4444: return [10]
        default: return [8]
        }
    }

    /// The default chroma subsampling.
    public var defaultChroma: ChromaSubsampling { chromaChoices.first ?? .yuv444 }

    /// libavcodec's encoder name.
    var encoder: String {
        switch self {
        case .h264: return "libx264"
        case .hevc: return "libx265"
        case .vp9: return "libvpx-vp9"
        case .av1: return "libsvtav1"
        case .prores, .prores4444: return "prores_ks"
        case .gif: return "gif"
        case .apng: return "apng"
        case .webp: return "libwebp_anim"
        case .png: return "png"
        }
    }
}
