/// A GIF's size budget (`--max-size 2MB`): the settings Reel controls tried in a fixed order, from the
/// best quality down, for the first that fits, and what was chosen said in a note.
import Foundation
import ReelGIF
import ReelMedia
import ReelScene

extension Reel {
    /// Bytes from a size as people write it: `2MB`, `1.5 MB`, `150KB` (powers of 1000), `2MiB`,
    /// `150KiB` (powers of 1024), or a number of bytes; nil for anything else.
    public static func byteSize(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [
            ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("KB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000),
            ("kB", 1000), ("B", 1),
        ]
        for (unit, factor) in units where t.hasSuffix(unit) {
            guard let v = Double(t.dropLast(unit.count).trimmingCharacters(in: .whitespaces)), v > 0, v * factor < 1e15 else {
                return nil
            }
            return Int((v * factor).rounded())
        }
        guard let v = Int(t), v > 0 else { return nil }
        return v
    }
}

/// One rung of the budget's ladder: the lossy level, the palette size, the frame-rate divisor and the
/// scale factor tried together.
struct GIFBudgetStep: Equatable {
    var lossy: Int
    var colors: Int
    var rateDivisor = 1
    var scale = 1.0

    /// As a note says it, in the settings' own names.
    var description: Message {
        var parts: [Message] = ["\(Setting.gifLossy, "\(lossy)")", "\(Setting.colors, "\(colors)")"]
        if rateDivisor > 1 { parts.append("1/\(rateDivisor) of the frame rate") }
        if scale < 1 { parts.append("\(Int((scale * 100).rounded())) % of the size") }
        return parts.dropFirst().reduce(parts[0]) { "\($0), \($1)" }
    }
}

extension Reel {
    /// The lowest frame rate the budget goes down to, in frames per second.
    static let budgetFrameRateFloor = 10.0

    /// The ladder, best quality first: lossy LZW up to 100 (its errors stay at edges), then fewer
    /// colours (128, 64, 32), then every second frame while the rate stays at or above 10 fps, then the
    /// size (75 %, 50 %) as a last resort. Dithering is not on it: nearest colour measured smaller.
    static func budgetLadder(from gif: GIFOptions, frameRate: Double) -> [GIFBudgetStep] {
        var steps = [GIFBudgetStep(lossy: gif.lossy, colors: gif.colors)]
        for lossy in [20, 40, 60, 100] where lossy > gif.lossy {
            steps.append(GIFBudgetStep(lossy: lossy, colors: gif.colors))
        }
        var last = steps.last!
        for colors in [128, 64, 32] where colors < gif.colors {
            last.colors = colors
            steps.append(last)
        }
        while frameRate / Double(last.rateDivisor * 2) >= budgetFrameRateFloor {
            last.rateDivisor *= 2
            steps.append(last)
        }
        for scale in [0.75, 0.5] {
            last.scale = scale
            steps.append(last)
        }
        return steps
    }

    /// Renders a GIF no larger than `maxBytes`: the first rung of `budgetLadder` whose file fits, found by
    /// bisection (each rung is smaller than the one before). `clip` is the scene as loaded with
    /// `overrides`; `load` reads it again with other overrides (the frame rate and size change on the
    /// lower rungs). A clip that does not fit on the last rung is an
    /// error that says the smallest size reached; nothing is written then.
    public static func renderGIF(
        within maxBytes: Int, clip first: Clip, load: (SceneOverrides) throws(ReelError) -> Clip, overrides: SceneOverrides,
        to output: String,
        options: RenderOptions, note: (Message) -> Void = { _ in }, progress: (RenderProgress) -> Void = { _ in }
    ) throws(ReelError) -> RenderSummary {
        let fps = Double(first.scene.fps.numerator) / Double(first.scene.fps.denominator)
        let ladder = budgetLadder(from: options.gif, frameRate: fps)
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        let name = URL(fileURLWithPath: output).lastPathComponent
        var trials: [Int: (path: String, summary: RenderSummary)] = [:]
        defer {
            for t in trials.values where FileManager.default.fileExists(atPath: t.path) {
                try? FileManager.default.removeItem(atPath: t.path)
            }
        }
        func attempt(_ k: Int) throws(ReelError) -> RenderSummary {
            if let done = trials[k] { return done.summary }
            let step = ladder[k]
            var o = options
            o.gif.lossy = step.lossy
            o.gif.colors = step.colors
            var ov = overrides
            let clip: Clip
            if step.rateDivisor == 1 && step.scale == 1 {
                clip = k == 0 ? first : try load(ov)
            } else {
                let scene = first.scene
                ov.fps = FrameRate(numerator: scene.fps.numerator, denominator: scene.fps.denominator * step.rateDivisor)
                if step.scale < 1 {
                    ov.scale = nil
                    ov.size = nil
                    ov.width = max(2, Int((Double(scene.pixelWidth) * step.scale).rounded()))
                }
                clip = try load(ov)
            }
            let path = (folder as NSString).appendingPathComponent(".\(name).budget-\(k).gif")
            let summary = try render(clip, to: path, options: o, note: { _ in }, progress: progress)
            trials[k] = (path, summary)
            return summary
        }
        // Bisection for the first rung that fits: rung 0 first (most clips fit as asked).
        var fits: Int?
        if try attempt(0).bytes <= maxBytes {
            fits = 0
        } else {
            var low = 1, high = ladder.count - 1
            if try attempt(high).bytes <= maxBytes {
                fits = high
                while low < high {
                    let mid = (low + high) / 2
                    if try attempt(mid).bytes <= maxBytes {
                        high = mid
                    } else {
                        low = mid + 1
                    }
                }
                fits = low
            }
        }
        func size(_ bytes: Int) -> String { ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file) }
        guard let k = fits, let chosen = trials[k] else {
            let smallest = trials[ladder.count - 1]?.summary.bytes ?? 0
            throw .usage(
                "\(output): the smallest GIF reached is \(size(smallest)) (\(ladder.last!.description)), above the budget of \(size(maxBytes))",
                fix: "raise \(Setting.maxSize), or shorten the clip (\(Setting.duration)) or make it smaller (\(Setting.width))")
        }
        guard rename(chosen.path, output) == 0 else {
            throw .usage("\(output): cannot move the finished GIF into place: \(String(cString: strerror(errno)))", fix: nil)
        }
        if k > 0 {
            note("\(output): to fit \(size(maxBytes)), written with \(ladder[k].description): \(size(chosen.summary.bytes))")
        }
        var summary = chosen.summary
        summary.output = output
        return summary
    }
}
