import ReelMedia
import ReelRaster
import ReelScene

/// Everything that can stop a render, each with a message that says what and where.
public enum ReelError: Error, Sendable, CustomStringConvertible {
    case scene(SceneError)
    case media(MediaError, output: String)
    case raster(RasterError, time: Double)
    /// A problem with the output path or an option, with how to fix it.
    case usage(String, fix: String?)
    case cancelled(signal: Int32)
    /// Stopped by its caller (a batch stopping after another job failed, with --fail-fast).
    case stopped(reason: String)

    public var description: String {
        switch self {
        case .scene(let e): return e.description
        case .media(let e, let output): return "\(output): encoding failed: \(e)"
        case .raster(let e, let t): return "drawing the frame at \(t) s failed: \(e)"
        case .usage(let message, let fix): return fix.map { "\(message)\n  fix: \($0)" } ?? message
        case .cancelled(let signal): return "interrupted by signal \(signal); no output written"
        case .stopped(let reason): return "stopped: \(reason); no output written"
        }
    }

    /// Exit status for the command-line tool: 130 / 143 for SIGINT / SIGTERM, as shells expect.
    public var exitCode: Int32 {
        switch self {
        case .cancelled(let signal): return 128 + signal
        default: return 1
        }
    }
}
