import Foundation
import ReelGeometry
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene

/// Overrides applied to a scene before rendering (the command line's `--fps`, `--scale`, `--duration`).
public struct SceneOverrides: Sendable {
    public var fps: FrameRate?
    public var scale: Double?
    public var duration: Double?

    public init(fps: FrameRate? = nil, scale: Double? = nil, duration: Double? = nil) {
        self.fps = fps
        self.scale = scale
        self.duration = duration
    }
}

public struct RenderOptions: Sendable {
    /// Rasterizer threads (bands rendered in parallel); the output is identical for any value.
    public var threads: Int = Rasterizer.defaultThreadCount
    public var crf: Int = 18
    public var preset: String = "medium"

    public init() {}
}

public struct RenderSummary: Sendable {
    public var output: String
    public var container: VideoContainer
    public var frames: Int
    public var width: Int
    public var height: Int
    public var frameRate: FrameRate
    public var bytes: Int
    public var seconds: Double
    /// Things the user should know about how the output differs from what the scene asked for.
    public var notes: [String]
}

/// The public facade: load a scene, render it to a file.
public enum Reel {
    public static func loadScene(_ path: String, overrides: SceneOverrides = SceneOverrides()) throws(ReelError) -> Scene {
        var scene: Scene
        do {
            scene = try SceneDecoder.load(contentsOf: path)
        } catch {
            throw .scene(error)
        }
        if let fps = overrides.fps { scene.fps = fps }
        if let scale = overrides.scale { scene.scale = scale }
        if let duration = overrides.duration { scene.duration = duration }
        // The decoder validated the scene as written, so a problem now comes from an override.
        if let (key, message, fix) = scene.validationProblem() {
            let option = ["fps": "--fps", "duration": "--duration"][key] ?? "--scale"
            throw .usage("\(option): \(message)", fix: fix)
        }
        return scene
    }

    /// The container for an output path, from its extension.
    public static func container(for output: String) throws(ReelError) -> VideoContainer {
        let ext = URL(fileURLWithPath: output).pathExtension
        guard let container = VideoContainer(pathExtension: ext) else {
            let supported = VideoContainer.allCases.map { ".\($0.rawValue)" }.joined(separator: ", ")
            throw .usage(
                "\(output): unsupported output extension \(ext.isEmpty ? "(none)" : "'.\(ext)'")",
                fix: "name the output with one of \(supported)")
        }
        return container
    }

    /// Checks the output path before any work is done.
    public static func checkOutput(_ output: String) throws(ReelError) -> VideoContainer {
        let container = try container(for: output)
        try checkWritableDestination(output)
        return container
    }

    /// Renders every frame of `scene` and encodes it to `output`, written under a temporary name and
    /// renamed into place when complete. On any error or interrupt nothing is left at `output`.
    public static func render(
        _ scene: Scene, to output: String, options: RenderOptions = RenderOptions(),
        note: (String) -> Void = { _ in }
    ) throws(ReelError) -> RenderSummary {
        let start = Date()
        let container = try checkOutput(output)
        var notes: [String] = []
        func tell(_ s: String) {
            notes.append(s)
            note(s)
        }

        let k = container.frameRateDivisor(numerator: scene.fps.numerator, denominator: scene.fps.denominator)
        let rate = FrameRate(numerator: scene.fps.numerator, denominator: scene.fps.denominator * k)!
        if k > 1 {
            tell(
                "GIF delays are whole centiseconds and players clamp delays under 2 cs, so \(scene.fps) fps is written as \(rate) fps (every \(k)th frame)"
            )
        }
        var drawn = scene
        if scene.background.alpha < 1 {
            drawn.background = over(scene.background, .white)
            tell(
                "\(container.rawValue.uppercased()) output here has no alpha channel: the transparent background is composited over white"
            )
        }
        let width = scene.pixelWidth, height = scene.pixelHeight
        var settings = VideoSettings(
            width: width, height: height, frameRateNumerator: rate.numerator,
            frameRateDenominator: rate.denominator, container: container)
        settings.crf = options.crf
        settings.preset = options.preset
        if settings.encodedWidth != width || settings.encodedHeight != height {
            tell(
                "H.264 4:2:0 needs even sides: \(width)×\(height) is encoded as \(settings.encodedWidth)×\(settings.encodedHeight), the last row/column repeated"
            )
        }

        let file = OutputFile(target: output)
        let frames = rate.frameCount(duration: scene.duration)
        let renderer = SceneRenderer(rasterizer: Rasterizer(threads: options.threads))
        do {
            let writer: VideoWriter
            do {
                writer = try VideoWriter(path: file.temporary, settings: settings)
            } catch {
                throw ReelError.media(error, output: output)
            }
            for i in 0..<frames {
                if let sig = Interrupts.pendingSignal { throw ReelError.cancelled(signal: sig) }
                let t = rate.time(ofFrame: i)
                let frame: Frame
                do {
                    frame = try renderer.frame(for: drawn, at: t)
                } catch {
                    throw ReelError.raster(error, time: t)
                }
                do {
                    try writer.append(rgba: frame.pixels)
                } catch {
                    throw ReelError.media(error, output: output)
                }
            }
            if let sig = Interrupts.pendingSignal { throw ReelError.cancelled(signal: sig) }
            do {
                try writer.finish()
            } catch {
                throw ReelError.media(error, output: output)
            }
            try file.commit()
        } catch let error as ReelError {
            file.discard()
            throw error
        } catch {
            file.discard()
            throw .usage("\(output): \(error)", fix: nil)
        }
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: output))?[.size] as? Int) ?? 0
        return RenderSummary(
            output: output, container: container, frames: frames, width: settings.encodedWidth,
            height: settings.encodedHeight, frameRate: rate, bytes: bytes,
            seconds: Date().timeIntervalSince(start), notes: notes)
    }

    /// Straight-alpha `top` over an opaque `bottom`.
    static func over(_ top: Color, _ bottom: Color) -> Color {
        let a = Color.unit(top.alpha)
        return Color(
            red: top.red * a + bottom.red * (1 - a), green: top.green * a + bottom.green * (1 - a),
            blue: top.blue * a + bottom.blue * (1 - a), alpha: 1)
    }
}
