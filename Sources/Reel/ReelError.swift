/// The errors a render can stop with, and their messages and exit statuses.
import ReelDocument
import ReelMedia
import ReelRaster
import ReelScene

/// Everything that can stop a render, each with a message that says what and where.
public enum ReelError: Error, Sendable, CustomStringConvertible {
    case scene(SceneError)
    case media(MediaError, output: String)
    case raster(RasterError, time: Double)
    /// A problem with the output path or a setting, with how to fix it.
    case usage(Message, fix: Message?)
    case cancelled(signal: Int32)
    /// Stopped by its caller (a batch stopping after another job failed, with fail-fast).
    case stopped(reason: Message)

    /// What went wrong and how to fix it, its settings left for the reader to spell.
    public var message: Message {
        switch self {
        case .scene(let e): return Message(e.description)
        case .media(let e, let output): return "\(output): encoding failed: \(e)"
        case .raster(let e, let t): return "drawing the frame at \(t) s failed: \(e)"
        case .usage(let message, let fix): return fix.map { "\(message)\n  fix: \($0)" } ?? message
        case .cancelled(let signal): return "interrupted by signal \(signal); no output written"
        case .stopped(let reason): return "stopped: \(reason); no output written"
        }
    }

    /// The message with settings spelled as the Swift API names them.
    public var description: String { message.text(.key) }

    /// Exit status for the command-line tool: 130 / 143 for SIGINT / SIGTERM, as shells expect.
    public var exitCode: Int32 {
        switch self {
        case .cancelled(let signal): return 128 + signal
        default: return 1
        }
    }
}
