/// `VideoSettings`, their checks, and `VideoWriter`, which writes frames with the codec's writer:
/// Reel's own for GIF (the ReelGIF module), FFmpeg's for the others (LibavVideoWriter.swift).
import Foundation
import ReelGIF

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

extension GIFOptions {
    /// What is wrong with the GIF settings, named as `VideoSettings`' problems are.
    var problem: SettingProblem? {
        if !(2...255).contains(colors) { return SettingProblem("colors", "must be in 2…255, got \(colors)") }
        if !(1...255).contains(alphaThreshold) {
            return SettingProblem("alphaThreshold", "must be in 1…255, got \(alphaThreshold)")
        }
        if let palette, palette.isEmpty || palette.count > 255 { return SettingProblem(nil, "a GIF palette holds 1…255 colours") }
        if !(0...32).contains(tolerance) { return SettingProblem("tolerance", "must be in 0…32 levels, got \(tolerance)") }
        let levels = GIFOptions.lossyLevels
        if !levels.contains(lossy) {
            return SettingProblem("gifLossy", "must be in \(levels.lowerBound)…\(levels.upperBound), got \(lossy)")
        }
        return nil
    }
}

/// Encodes RGBA frames into a file (or, for a PNG sequence, a folder): the codecs of `VideoCodec`,
/// GIF by Reel's own writer and the others through FFmpeg. Frames are written in order; call
/// `finish()` to flush the encoder and write the trailer. A writer that is not finished leaves a
/// partial file at `path`, which the caller (writing to a temporary name) removes.
public final class VideoWriter {
    public let settings: VideoSettings
    private enum Backend {
        case gif(GIFFileWriter)
        case libav(LibavVideoWriter)
    }
    private let backend: Backend
    private var straight: [UInt8] = []  // un-premultiplied frames (GIF)
    private var finished = false

    /// `path` is the file, or for a PNG sequence the folder (created if needed).
    public init(path: String, settings: VideoSettings) throws(MediaError) {
        guard settings.width > 0, settings.height > 0, settings.frameRateNumerator > 0, settings.frameRateDenominator > 0 else {
            throw MediaError(call: "VideoWriter", message: "size and frame rate must be positive")
        }
        if let problem = settings.problem { throw MediaError(call: "VideoWriter", message: problem.description) }
        self.settings = settings
        if settings.codec == .gif {
            if settings.audio != nil || !settings.subtitles.isEmpty {
                throw MediaError(call: "VideoWriter", message: "a GIF has no sound or subtitle track")
            }
            backend = .gif(
                try gifStep { () throws(GIFError) in
                    try GIFFileWriter(
                        path: path, width: settings.width, height: settings.height, options: settings.gif, alpha: settings.alpha,
                        loop: settings.loop, comment: settings.comment,
                        frameRate: (settings.frameRateNumerator, settings.frameRateDenominator), firstFrame: settings.firstFrame)
                })
        } else {
            backend = .libav(try LibavVideoWriter(path: path, settings: settings))
        }
    }

    /// Appends one frame: `width × height` RGBA pixels, rows `width·4` bytes apart; opaque, or
    /// premultiplied with `settings.alpha`. `changedRows`: the rows where it differs from the frame
    /// appended before, when the caller knows them (a renderer's damage): a GIF maps only those to its
    /// palette. Nil: not known.
    /// `changedColumns`, with `changedRows`: the columns outside which those rows are the same as the
    /// frame before's (nil: not known); the GIF writer maps only those pixels again.
    public func append(rgba input: [UInt8], changedRows: [Range<Int>]? = nil, changedColumns: Range<Int>? = nil)
        throws(MediaError)
    {
        guard !finished else { throw MediaError(call: "VideoWriter.append", message: "writer already finished") }
        switch backend {
        case .libav(let writer): try writer.append(rgba: input, changedRows: changedRows)
        case .gif(let writer):
            let w = settings.width, h = settings.height
            guard input.count == w * h * 4 else {
                throw MediaError(call: "VideoWriter.append", message: "expected \(w * h * 4) bytes of RGBA, got \(input.count)")
            }
            if settings.alpha {
                // `straight` holds the frame before's: only the rows that changed are made again.
                let rows = straight.count == input.count ? changedRows : nil
                Self.unpremultiply(input, into: &straight, bytes: rows?.map { $0.lowerBound * w * 4..<$0.upperBound * w * 4 })
            }
            try (settings.alpha ? straight : input).withUnsafeBufferPointer { (buffer) throws(MediaError) in
                try gifStep { () throws(GIFError) in
                    try writer.append(
                        rgba: buffer.baseAddress!, stride: w * 4, changedRows: changedRows, changedColumns: changedColumns,
                        frame: settings.alpha ? nil : input)
                }
            }
        }
    }

    /// Whether `append(_:)` takes pictures already in the encoder's format: H.264, HEVC, VP9 or AV1 in
    /// 8-bit 4:2:0 without alpha, at even sides.
    public var takesEncoderPictures: Bool {
        if case .libav(let writer) = backend { return writer.takesEncoderPictures }
        return false
    }

    /// Appends one frame given in the encoder's own format (see `takesEncoderPictures`), as it is.
    public func append(_ picture: EncoderPicture) throws(MediaError) {
        guard !finished else { throw MediaError(call: "VideoWriter.append", message: "writer already finished") }
        guard case .libav(let writer) = backend else {
            throw MediaError(call: "VideoWriter.append", message: "a GIF is written from RGBA only")
        }
        try writer.append(picture)
    }

    /// Flushes the encoder and writes the trailer. Must be called once, after the last frame.
    public func finish() throws(MediaError) {
        guard !finished else { return }
        finished = true
        switch backend {
        case .libav(let writer): try writer.finish()
        case .gif(let writer): try gifStep { () throws(GIFError) in try writer.finish() }
        }
    }

    /// Appends sound: 48 kHz stereo float samples, interleaved (left, right). The caller keeps it abreast
    /// of the video (the muxer interleaves the two by time).
    public func appendAudio(_ samples: [Float]) throws(MediaError) {
        guard case .libav(let writer) = backend else {
            throw MediaError(call: "VideoWriter.appendAudio", message: "this writer has no sound track")
        }
        try writer.appendAudio(samples)
    }

    public var framesWritten: Int {
        switch backend {
        case .libav(let writer): return writer.framesWritten
        case .gif(let writer): return writer.framesAppended
        }
    }

    /// Bytes written to the output so far (for a PNG sequence, 0: each frame is its own file).
    public var bytesWritten: Int {
        switch backend {
        case .libav(let writer): return writer.bytesWritten
        case .gif(let writer): return writer.bytesWritten
        }
    }

    /// Straight alpha from premultiplied, rounding to nearest; a fully transparent pixel becomes
    /// transparent black. With `bytes` (ranges of whole pixels), only those are made and the rest of `out`
    /// is kept.
    public static func unpremultiply(_ px: [UInt8], into out: inout [UInt8], bytes: [Range<Int>]? = nil) {
        if out.count != px.count { out = [UInt8](repeating: 0, count: px.count) }
        px.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for span in bytes ?? [0..<src.count] {
                    unpremultiply(src, into: dst, span.clamped(to: 0..<src.count))
                }
            }
        }
    }

    private static func unpremultiply(
        _ src: UnsafeBufferPointer<UInt8>, into dst: UnsafeMutableBufferPointer<UInt8>, _ span: Range<Int>
    ) {
        var i = span.lowerBound
        while i + 3 < span.upperBound {
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
