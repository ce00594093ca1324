/// The errors a render can stop with, and their messages and exit statuses.
import ReelDocument
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene

/// Everything that can stop a render, each with a message that says what and where.
public enum ReelError: Error, Sendable, CustomStringConvertible {
    case scene(SceneError)
    case media(MediaError, output: String)
    /// A frame that could not be drawn, with the layer at fault when one is known.
    case raster(RasterError, time: Double, layer: String?)
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
        case .raster(.nonFinitePath, let t, let layer?):
            return
                "drawing the frame at \(t) s failed: layer \"\(layer)\" goes past the largest number once placed on the frame (a coordinate, scale or size too large)\n  fix: keep its coordinates within ±1e9 and the scales above it small enough that their product stays so"
        case .raster(let e, let t, _): return "drawing the frame at \(t) s failed: \(e)"
        case .usage(let message, let fix): return fix.map { "\(message)\n  fix: \($0)" } ?? message
        case .cancelled(let signal): return "interrupted by signal \(signal); no output written"
        case .stopped(let reason): return "stopped: \(reason); no output written"
        }
    }

    /// A frame that failed to draw; for a path that went non-finite, the layer it belongs to, found by
    /// walking the frame's layers again (the rasterizer knows only draw commands).
    static func drawing(_ error: RasterError, time: Double, scene: Scene) -> ReelError {
        guard case .nonFinitePath = error else { return .raster(error, time: time, layer: nil) }
        return .raster(error, time: time, layer: SceneRenderer.firstNonFiniteLayer(in: scene.sample(at: time), scene: scene))
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
