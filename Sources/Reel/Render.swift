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
    /// Slow motion (< 1) or fast forward (> 1): the root timing's speed. The clip lasts the scene's
    /// duration divided by it, unless `duration` is given too.
    public var speed: Double?

    public init(fps: FrameRate? = nil, scale: Double? = nil, duration: Double? = nil, speed: Double? = nil) {
        self.fps = fps
        self.scale = scale
        self.duration = duration
        self.speed = speed
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

/// A scene ready to render: the model and the images its layers show.
public struct Clip: Sendable {
    public var scene: Scene
    /// Decoded `contents` images, by the name the scene gives them.
    public var images: [String: RasterImage]

    public init(scene: Scene, images: [String: RasterImage] = [:]) {
        self.scene = scene
        self.images = images
    }
}

/// The public facade: load a scene, render it to a file.
public enum Reel {
    /// Reads a scene file, applies overrides, and decodes the images its layers name (relative to the
    /// scene file's folder).
    public static func load(_ path: String, overrides: SceneOverrides = SceneOverrides()) throws(ReelError) -> Clip {
        let scene = try loadScene(path, overrides: overrides)
        let base = URL(fileURLWithPath: path).deletingLastPathComponent()
        var images: [String: RasterImage] = [:]
        func visit(_ layer: Layer) throws(ReelError) {
            if let name = layer.contents, images[name] == nil {
                let file = name.hasPrefix("/") ? name : base.appendingPathComponent(name).path
                guard FileManager.default.fileExists(atPath: file) else {
                    throw .scene(
                        SceneError(
                            file: path,
                            message: "layer \"\(layer.name)\": contents \"\(name)\": no such file (looked for \(file))",
                            fix: "paths are relative to the scene file"))
                }
                do {
                    let still = try ImageFile.read(path: file)
                    images[name] = RasterImage(width: still.width, height: still.height, premultipliedRGBA: still.rgba)
                } catch {
                    throw .scene(
                        SceneError(
                            file: path, message: "layer \"\(layer.name)\": contents \"\(name)\" cannot be decoded: \(error)"))
                }
            }
            for sublayer in layer.sublayers { try visit(sublayer) }
            if let mask = layer.mask { try visit(mask) }
        }
        for layer in scene.layers { try visit(layer) }
        return Clip(scene: scene, images: images)
    }

    public static func loadScene(_ path: String, overrides: SceneOverrides = SceneOverrides()) throws(ReelError) -> Scene {
        var scene: Scene
        do {
            scene = try SceneDecoder.load(contentsOf: path)
        } catch {
            throw .scene(error)
        }
        if let fps = overrides.fps { scene.fps = fps }
        if let scale = overrides.scale { scene.scale = scale }
        if let speed = overrides.speed {
            guard speed > 0, speed.isFinite, speed >= 0.001, speed <= 1000 else {
                throw .usage("--speed must be in 0.001…1000, got \(speed)", fix: "use 0.25 for quarter speed, 2 for double")
            }
            scene.speed = speed
            scene.duration /= speed
        }
        if let duration = overrides.duration { scene.duration = duration }
        // The decoder validated the scene as written, so a problem now comes from an override.
        if let (key, message, fix) = scene.validationProblem() {
            let option = ["fps": "--fps", "duration": overrides.duration == nil ? "--speed" : "--duration"][key] ?? "--scale"
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
    @discardableResult
    public static func render(
        _ clip: Clip, to output: String, options: RenderOptions = RenderOptions(),
        note: (String) -> Void = { _ in }
    ) throws(ReelError) -> RenderSummary {
        let scene = clip.scene
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
        let renderer = SceneRenderer(rasterizer: Rasterizer(threads: options.threads), images: clip.images)
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

    /// Renders the frame at `time` seconds to a PNG file (straight alpha, so a transparent background
    /// stays transparent), written under a temporary name and renamed when complete.
    public static func still(_ clip: Clip, at time: Double, to output: String, options: RenderOptions = RenderOptions())
        throws(ReelError)
    {
        guard time.isFinite, time >= 0 else {
            throw .usage("--at: the time must be a number of seconds ≥ 0, got \(time)", fix: nil)
        }
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard ext == "png" else {
            throw .usage("\(output): a still is written as PNG", fix: "name the output with .png")
        }
        try checkWritableDestination(output)
        let renderer = SceneRenderer(rasterizer: Rasterizer(threads: options.threads), images: clip.images)
        let frame: Frame
        do {
            frame = try renderer.frame(for: clip.scene, at: time)
        } catch {
            throw .raster(error, time: time)
        }
        let file = OutputFile(target: output)
        do {
            try ImageFile.writePNG(
                StillImage(width: frame.width, height: frame.height, rgba: unpremultiplied(frame.pixels)), to: file.temporary)
            try file.commit()
        } catch let error as MediaError {
            file.discard()
            throw .media(error, output: output)
        } catch let error as ReelError {
            file.discard()
            throw error
        } catch {
            file.discard()
            throw .usage("\(output): \(error)", fix: nil)
        }
    }

    /// Straight alpha from premultiplied, rounding to nearest.
    static func unpremultiplied(_ px: [UInt8]) -> [UInt8] {
        var out = px
        var i = 0
        while i < out.count {
            let a = Int(out[i + 3])
            if a != 0 && a != 255 {
                for k in 0..<3 { out[i + k] = UInt8(min(255, (Int(out[i + k]) * 255 + a / 2) / a)) }
            }
            i += 4
        }
        return out
    }

    /// Straight-alpha `top` over an opaque `bottom`.
    static func over(_ top: Color, _ bottom: Color) -> Color {
        let a = Color.unit(top.alpha)
        return Color(
            red: top.red * a + bottom.red * (1 - a), green: top.green * a + bottom.green * (1 - a),
            blue: top.blue * a + bottom.blue * (1 - a), alpha: 1)
    }
}
