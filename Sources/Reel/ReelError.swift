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
    /// A frame that could not be drawn, with the layer at fault when one is known (for filters over too
    /// many pixels, the filtered layers, named: `layers "a", "b" and 3 more`).
    case raster(RasterError, time: Double, layer: String?)
    /// A problem with the output path or a setting, with how to fix it.
    case usage(Message, fix: Message?)
    case cancelled(signal: Int32)
    /// A picture refused before decoding: the clip's decoded pictures would pass their budget.
    case pictures(PictureBudgetError)
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
        case .raster(.filterPixels(let limit), let t, let layers):
            let whose = layers.map { "the SVG filters of \($0)" } ?? "the frame's SVG filters"
            return
                "drawing the frame at \(t) s failed: \(whose) cover more than \(limit / 1_000_000) megapixels together\n  fix: \(RasterError.filterPixels(limit: limit).fix ?? "")"
        case .raster(let e, _, _) where e.fix != nil:
            // Not about a frame (the kernels this process was told to draw with): said with its fix.
            return "\(e.description)\n  fix: \(e.fix ?? "")"
        case .raster(let e, let t, _): return "drawing the frame at \(t) s failed: \(e)"
        case .usage(let message, let fix): return fix.map { "\(message)\n  fix: \($0)" } ?? message
        case .cancelled(let signal): return "interrupted by signal \(signal); no output written"
        case .pictures(let e): return Self.overBudget(e)
        case .stopped(let reason): return "stopped: \(reason); no output written"
        }
    }

    /// A frame that failed to draw; for a path that went non-finite, the layer it belongs to, and for
    /// filters over too many pixels, the filtered layers, found by walking the frame's layers again (the
    /// rasterizer knows only draw commands).
    static func drawing(_ error: RasterError, time: Double, scene: Scene) -> ReelError {
        switch error {
        case .nonFinitePath:
            return .raster(error, time: time, layer: SceneRenderer.firstNonFiniteLayer(in: scene.sample(at: time), scene: scene))
        case .filterPixels:
            // Every filtered layer counts toward the limit: the first few named, with how many there are.
            let names = SceneRenderer.filteredLayers(in: scene.sample(at: time))
            guard !names.isEmpty else { return .raster(error, time: time, layer: nil) }
            let shown = names.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")
            let more = names.count > 3 ? " and \(names.count - 3) more" : ""
            return .raster(error, time: time, layer: (names.count == 1 ? "layer " : "layers ") + shown + more)
        default:
            return .raster(error, time: time, layer: nil)
        }
    }

    /// Where the picture is named, its size, what the pictures would come to and what they may take;
    /// the fix names the memory limit that would hold them (pictures take a share of it).
    static func overBudget(_ e: PictureBudgetError) -> Message {
        var place = e.file
        if let l = e.location { place += ":\(l.line):\(l.column)" }
        if let path = e.path, !path.isEmpty { place += ": \(path)" }
        let size = PictureBudget.bytes(width: e.width, height: e.height)
        let (total, overflow) = e.held.addingReportingOverflow(size)
        let mib = { (bytes: Int) in (bytes >> 20) + (bytes & ((1 << 20) - 1) == 0 ? 0 : 1) }
        let whose =
            e.budget.memoryLimit.map {
                "half the memory limit of \($0 >> 20) MiB"
                    + (e.budget.jobs > 1 ? ", shared by \(e.budget.jobs) jobs at once" : "")
            } ?? "the default; pictures stay decoded for the whole render"
        let first = "\(place): \(e.picture) is \(e.width)×\(e.height) pixels, \(mib(size)) MiB decoded"
        guard !overflow, total <= Int.max / (PictureBudget.shareOfLimit * e.budget.jobs) else {
            return "\(first), more than any memory limit\n  fix: use smaller pictures"
        }
        let limit = mib(total * PictureBudget.shareOfLimit * e.budget.jobs)
        return
            "\(first)\(e.held > 0 ? ": with the pictures before it, \(mib(total)) MiB" : ""), above the \(e.budget.bytes >> 20) MiB a clip's decoded pictures may take (\(whose))\n  fix: use smaller pictures, or raise \(Setting.memoryLimit, "\(limit)") or more (pictures may take half of it)"
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
