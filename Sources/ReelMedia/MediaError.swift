/// The media module's errors (`MediaError`, `SettingProblem`, the GIF codec's in a media failure's words),
/// the one chokepoint every FFmpeg status goes through, and the process-wide allocator settings encoders need.
internal import CFFmpeg
import ReelGIF

/// A failure in FFmpeg or around it: the call that failed, its code and FFmpeg's own words.
public struct MediaError: Error, Sendable, CustomStringConvertible {
    /// The FFmpeg function (or the step) that failed, e.g. `avcodec_open2(libx264)`.
    public var call: String
    /// FFmpeg's negative error code, when there is one.
    public var code: Int32?
    public var message: String

    public init(call: String, code: Int32? = nil, message: String) {
        self.call = call
        self.code = code
        self.message = message
    }

    public var description: String {
        if let code { return "\(call) failed (\(code)): \(message)" }
        return "\(call): \(message)"
    }
}

extension MediaError {
    /// A failure of Reel's GIF codec, worded as the other media failures are: the step that failed and why.
    public init(_ error: GIFError) {
        switch error {
        case .cannotCreate(let path, let reason): self.init(call: "GIFFileWriter", message: "cannot create \(path): \(reason)")
        case .cannotWrite(let reason): self.init(call: "write", message: reason)
        case .cannotClose(let reason): self.init(call: "close", message: reason)
        case .unreadableSegment(let path): self.init(call: path, message: "cannot read the segment")
        case .notWhole(let path, let reason): self.init(call: path, message: "is not a whole GIF (\(reason)); render it again")
        case .encodedDifferently(let path, let first):
            self.init(
                call: path,
                message:
                    "was encoded differently from \(first) (screen size or palette); segments must come from the same scene and options"
            )
        case .cannotWriteJoined(let path, let reason):
            self.init(call: path, message: "cannot write the joined file: \(reason)")
        }
    }
}

/// A step of the GIF codec, its failure thrown as a `MediaError` like any other encoder's.
func gifStep<T>(_ body: () throws(GIFError) -> T) throws(MediaError) -> T {
    do {
        return try body()
    } catch {
        throw MediaError(error)
    }
}

/// FFmpeg's text for an error code (what `av_err2str` gives in C).
func ffErrorString(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    buffer.withUnsafeMutableBufferPointer { reel_av_strerror(code, $0.baseAddress, $0.count) }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The one chokepoint for FFmpeg calls that return a status: a negative value becomes a `MediaError`
/// naming the call. `EAGAIN` and `EOF` are not errors in the send/receive loops; those loops test for
/// them before calling this.
@discardableResult
func ff(_ call: @autoclosure () -> String, _ status: Int32) throws(MediaError) -> Int32 {
    if status < 0 {
        throw MediaError(call: call(), code: status, message: ffErrorString(status))
    }
    return status
}

let averrorEAGAIN = reel_averror_eagain()
let averrorEOF = reel_averror_eof()

/// What a receive call (`avcodec_receive_frame`, `avcodec_receive_packet`) gave.
enum Received {
    /// A frame or packet, in the handle passed.
    case got
    /// Nothing yet: send more input (`EAGAIN`).
    case needsInput
    /// Nothing more will come: the codec is flushed (`EOF`).
    case drained
}

/// The one reading of a receive call's status; any other negative value is a `MediaError` naming the call.
func received(_ call: @autoclosure () -> String, _ status: Int32) throws(MediaError) -> Received {
    if status == averrorEAGAIN { return .needsInput }
    if status == averrorEOF { return .drained }
    try ff(call(), status)
    return .got
}

/// Silences FFmpeg's own logging, once: Reel reports every failure itself, as one message naming the
/// call, and FFmpeg's lines (`[png @ 0x…] chunk too big`) would come before it unasked.
let configureFFmpegLogging: Void = {
    av_log_set_level(AV_LOG_QUIET)
}()

/// Allocator settings for programs that push many large frames through the encoders.
/// What is wrong with one of `VideoSettings`' values, named by its property (`crf`, `colors`) and not
/// spelled: the caller names it as its users write it (the command line's `--crf`).
public struct SettingProblem: Sendable, Equatable, CustomStringConvertible {
    /// The property, nil for a problem of the combination (alpha in a codec without it).
    public var key: String?
    /// The value as the message quotes it after the name, if it does.
    public var value: String?
    /// What follows the name: "must be in 2…255, got 300".
    public var message: String

    public init(_ key: String?, value: String? = nil, _ message: String) {
        self.key = key
        self.value = value
        self.message = message
    }

    public var description: String {
        guard let key else { return message }
        return key + (value.map { " \($0)" } ?? "") + " " + message
    }
}

public enum MediaMemory {
    /// See `Reel.tuneAllocatorForFrames`.
    public static func tuneForFrames() { reel_tune_malloc_for_frames() }

    /// See `Reel.render`: what loading freed, handed back before the workers start.
    public static func releaseFreed() { reel_release_freed_memory() }

    /// From now on every allocation comes zero-filled (glibc's `M_PERTURB`; freed blocks are filled
    /// too). x264's macroblock-tree rate control reads buffers it never wrote: with recycled heap blocks
    /// whose contents depend on what other threads freed, the first IDR frame's macroblock QPs varied
    /// between identical renders (decoded frames identical, files not; 2 in 40 under load). Zeroing keeps
    /// the tree (turning it off costs 30–45 % more bytes) and the files reproducible; the cost is a
    /// memset per allocation, within the noise of the benchmark. Process-wide and idempotent.
    static func zeroFillAllocations() { reel_zero_fill_allocations() }
}
let reelNoPTS = reel_av_nopts_value()
