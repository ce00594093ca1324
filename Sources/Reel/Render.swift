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
    /// Output width in pixels: sets the scale, keeping the aspect.
    public var width: Int?
    /// A fixed output size in pixels: the clip is fitted and centred (`Scene.fitted`).
    public var size: (width: Int, height: Int)?
    /// Values for the variables the scene declares (`SceneVariables`).
    public var variables: [String: JSONNode] = [:]

    public init(
        fps: FrameRate? = nil, scale: Double? = nil, duration: Double? = nil, speed: Double? = nil, width: Int? = nil,
        size: (width: Int, height: Int)? = nil, variables: [String: JSONNode] = [:]
    ) {
        self.variables = variables
        self.fps = fps
        self.scale = scale
        self.duration = duration
        self.speed = speed
        self.width = width
        self.size = size
    }
}

public struct RenderOptions: Sendable {
    /// Rasterizer threads per frame (bands rendered in parallel); the output is identical for any value.
    public var threads: Int = Rasterizer.defaultThreadCount
    /// Frames rendered at the same time, ahead of the encoder; the output is identical for any value.
    public var workers: Int = RenderOptions.defaultWorkers
    /// The most memory the frames in flight may take, in bytes (nil: half the machine's memory).
    public var memoryLimit: Int?
    /// Two frames in flight on any machine with two cores or more: one drawn while the encoder works on
    /// the one before (BENCHMARKS.md).
    public static var defaultWorkers: Int { ProcessInfo.processInfo.activeProcessorCount >= 2 ? 2 : 1 }
    /// The codec; nil for the output's default (MP4 H.264, MOV ProRes 422 HQ, WebM VP9, …).
    public var codec: VideoCodec?
    public var chroma: ChromaSubsampling?
    public var bitDepth: Int?
    /// Constant rate factor; nil for the codec's default.
    public var crf: Int?
    /// Encoder speed preset; nil for the codec's default.
    public var preset: String?
    /// GIF/APNG/WebP loop count: 0 forever.
    public var loop: Int = 0
    /// WebP quality (0…100) and lossless mode.
    public var quality: Double = 90
    public var lossless = false
    /// What a transparent clip is composited over in formats without alpha (and with `flatten`, in all):
    /// nil for white.
    public var matte: Color?
    /// Composite over the matte even when the format carries alpha.
    public var flatten = false
    /// GIF colours, dithering and alpha threshold. Its `palette` is built from the clip unless
    /// `fixedGIFPalette`.
    public var gif = GIFOptions()
    public var fixedGIFPalette = false
    /// Frames sampled to build a GIF's palette for the whole clip (evenly spread; every frame when
    /// the clip has no more).
    public var gifPaletteSamples = 600
    /// Render part of the clip as a segment that `Reel.concat` joins with the others without
    /// re-encoding: nil renders the whole clip.
    public var segment: SegmentRequest?
    /// Asked between frames; true stops the render with `ReelError.stopped` (and nothing written).
    public var shouldStop: (@Sendable () -> String?)?

    public init() {}
}

/// Which part of a clip a segment holds.
public enum SegmentRequest: Sendable, Equatable {
    /// Frames `first…last` of the output (from 0, both included).
    case frames(Int, Int)
    /// Shard `index` (from 0) of `count` equal parts.
    case shard(Int, Int)

    /// Parses `A-B` (frames) or `I/N` (a shard).
    public init?(frames text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= a else { return nil }
        self = .frames(a, b)
    }

    public init?(shard text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0 else { return nil }
        self = .shard(i, n)
    }

    /// The frames it names in a clip of `total` frames, or why it names none.
    func resolve(total: Int) throws(ReelError) -> SegmentInfo {
        switch self {
        case .frames(let a, let b):
            guard b < total else {
                throw .usage(
                    "--frames \(a)-\(b): the clip has \(total) frames, numbered 0-\(total - 1)",
                    fix: "give a range within 0-\(total - 1)")
            }
            return SegmentInfo(first: a, last: b, total: total)
        case .shard(let i, let n):
            guard i < n else {
                throw .usage(
                    "--shard \(i)/\(n): shards are numbered from 0", fix: "use 0/\(n) … \(n - 1)/\(n)")
            }
            guard let info = SegmentInfo.shard(i, of: n, total: total) else {
                throw .usage(
                    "--shard \(i)/\(n): the clip has only \(total) frames, so this shard holds none",
                    fix: "split it into at most \(total) shards")
            }
            return info
        }
    }
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
    /// With `sandboxed`, every image must lie inside the scene file's folder (see `Sandbox`).
    public static func load(_ path: String, overrides: SceneOverrides = SceneOverrides(), sandboxed: Bool = false)
        throws(ReelError) -> Clip
    {
        let scene = try loadScene(path, overrides: overrides)
        let base = URL(fileURLWithPath: path).deletingLastPathComponent()
        var images: [String: RasterImage] = [:]
        func visit(_ layer: Layer) throws(ReelError) {
            if let name = layer.contents, images[name] == nil {
                let file = name.hasPrefix("/") ? name : base.appendingPathComponent(name).path
                let place = scene.contentsReferences[layer.name]
                func failure(_ message: String, fix: String? = nil) -> ReelError {
                    .scene(SceneError(file: path, location: place?.location, path: place?.path, message: message, fix: fix))
                }
                if sandboxed && (name.hasPrefix("/") || !Sandbox.contains(base.path, file)) {
                    throw failure(
                        "\"\(name)\" is outside the scene's folder, and --sandbox confines reading to it",
                        fix: "put the image in the scene's folder and name it relative to the scene")
                }
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
                    throw failure(
                        "\"\(name)\": no such image file (looked for \(file))", fix: "paths are relative to the scene file")
                }
                do {
                    let still = try ImageFile.read(path: file, maximumPixels: Scene.maximumPixelArea)
                    images[name] = RasterImage(width: still.width, height: still.height, premultipliedRGBA: still.rgba)
                } catch {
                    throw failure(
                        "\"\(name)\" cannot be read as an image: \(error.message)", fix: "give a PNG, JPEG or WebP file")
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
            scene = try SceneDecoder.load(contentsOf: path, variables: overrides.variables)
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
        if let w = overrides.width {
            guard w >= 1, w <= Scene.maximumPixelSide else {
                throw .usage("--width must be 1…\(Scene.maximumPixelSide) pixels, got \(w)", fix: nil)
            }
            scene.scale = Double(w) / scene.width
        }
        if let size = overrides.size {
            guard (2...Scene.maximumPixelSide).contains(size.width), (2...Scene.maximumPixelSide).contains(size.height) else {
                throw .usage("the output size must be 2…\(Scene.maximumPixelSide) pixels a side", fix: nil)
            }
            scene = scene.fitted(pixelWidth: size.width, pixelHeight: size.height)
        }
        // The decoder validated the scene as written, so a problem now comes from an override.
        if let (key, message, fix) = scene.validationProblem() {
            let option = ["fps": "--fps", "duration": overrides.duration == nil ? "--speed" : "--duration"][key] ?? "--scale"
            throw .usage("\(option): \(message)", fix: fix)
        }
        return scene
    }

    /// The container for an output path: from its extension, or a PNG sequence for a folder (a name
    /// ending in `/`, or an existing folder); `codec` decides when it only fits one.
    public static func container(for output: String, codec: VideoCodec? = nil) throws(ReelError) -> VideoContainer {
        var isDirectory: ObjCBool = false
        if output.hasSuffix("/") || codec == .png
            || (FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            return .png
        }
        let ext = URL(fileURLWithPath: output).pathExtension
        guard let container = VideoContainer(pathExtension: ext) else {
            let supported = VideoContainer.allCases.filter { $0 != .png }.map { ".\($0.rawValue)" }.joined(separator: ", ")
            throw .usage(
                "\(output): unsupported output extension \(ext.isEmpty ? "(none)" : "'.\(ext)'")",
                fix: "name the output with one of \(supported), or end it with / for a PNG sequence"
                    + (ext.lowercased() == "png" ? " (one frame: reel still)" : ""))
        }
        return container
    }

    /// Checks the output path and the codec before any work is done.
    public static func checkOutput(_ output: String, codec: VideoCodec? = nil) throws(ReelError) -> VideoContainer {
        let container = try container(for: output, codec: codec)
        if let codec, !codec.containers.contains(container) {
            throw .usage(
                "\(output): \(codec.rawValue) cannot go in .\(container.rawValue)",
                fix: "name the output \(codec.containers.map { "*.\($0.rawValue)" }.joined(separator: " or "))")
        }
        if container == .png { try checkSequenceDestination(output) } else { try checkWritableDestination(output) }
        return container
    }

    /// The encoder settings for a clip and options, and the notes that explain what was adapted.
    public static func settings(for scene: Scene, container: VideoContainer, options: RenderOptions) throws(ReelError) -> (
        settings: VideoSettings, rate: FrameRate, flatten: Bool, notes: [String]
    ) {
        var notes: [String] = []
        let k = container.frameRateDivisor(numerator: scene.fps.numerator, denominator: scene.fps.denominator)
        guard let rate = FrameRate(numerator: scene.fps.numerator, denominator: scene.fps.denominator * k) else {
            throw .usage(
                "\(scene.fps) fps cannot be divided by \(k) for this format within the frame-rate limits",
                fix: "use a frame rate such as 30 or 60")
        }
        if k > 1 {
            notes.append(
                "GIF delays are whole centiseconds and players clamp delays under 2 cs, so \(scene.fps) fps is written as \(rate) fps (every \(k)th frame)"
            )
        }
        var settings = VideoSettings(
            width: scene.pixelWidth, height: scene.pixelHeight, frameRateNumerator: rate.numerator,
            frameRateDenominator: rate.denominator, container: container, codec: options.codec)
        settings.chroma = options.chroma
        if let depth = options.bitDepth { settings.bitDepth = depth }
        settings.crf = options.crf
        settings.preset = options.preset
        settings.loop = options.loop
        settings.quality = options.quality
        settings.lossless = options.lossless
        settings.gif = options.gif
        let transparent = scene.background.alpha < 1
        var flatten = false
        if transparent {
            if options.flatten || !settings.codec.carriesAlpha {
                flatten = true
                let matte = options.matte.map { colour($0) } ?? "white"
                notes.append(
                    options.flatten
                        ? "the transparent background is composited over \(matte) (--matte)"
                        : "\(settings.codec.rawValue) has no alpha channel: the transparent background is composited over \(matte) (--matte to choose)"
                )
            } else {
                settings.alpha = true
                if settings.codec == .gif {
                    notes.append("GIF alpha is one bit: pixels under alpha \(options.gif.alphaThreshold) are transparent")
                }
            }
        }
        if let problem = settings.problem { throw .usage(problem, fix: nil) }
        if settings.encodedWidth != settings.width || settings.encodedHeight != settings.height {
            notes.append(
                "\(settings.codec.rawValue) \(settings.effectiveChroma.rawValue) needs even sides: \(settings.width)×\(settings.height) is encoded as \(settings.encodedWidth)×\(settings.encodedHeight), the last row/column repeated"
            )
        }
        return (settings, rate, flatten, notes)
    }

    static func colour(_ c: Color) -> String {
        func h(_ v: Double) -> String { String(format: "%02x", Int((min(max(v, 0), 1) * 255).rounded())) }
        return "#" + h(c.red) + h(c.green) + h(c.blue)
    }

    /// Renders every frame of `scene` and encodes it to `output`, written under a temporary name and
    /// renamed into place when complete. On any error or interrupt nothing is left at `output`.
    @discardableResult
    public static func render(
        _ clip: Clip, to output: String, options: RenderOptions = RenderOptions(),
        note: (String) -> Void = { _ in }, progress: (RenderProgress) -> Void = { _ in }
    ) throws(ReelError) -> RenderSummary {
        let scene = clip.scene
        let start = Date()
        if let (name, count) = scene.replicationBeyond(Scene.maximumDrawnLayers) {
            throw .usage(
                "replicator \"\(name)\" draws up to \(count) layers a frame, above the limit of \(Scene.maximumDrawnLayers)",
                fix: "lower instanceCount, or nest fewer replicators")
        }
        let container = try checkOutput(output, codec: options.codec)
        var (settings, rate, flatten, notes) = try self.settings(for: scene, container: container, options: options)
        for n in notes { note(n) }
        var drawn = scene
        if flatten { drawn.background = over(scene.background, options.matte ?? .white) }
        let renderer = SceneRenderer(rasterizer: Rasterizer(threads: options.threads), images: clip.images)
        let frames = rate.frameCount(duration: scene.duration)
        // A segment: frames first…last of the clip, keeping the clip's timestamps (see SegmentJoiner).
        var part = SegmentInfo(first: 0, last: frames - 1, total: frames)
        if let request = options.segment {
            guard [.mp4, .mov, .webm, .gif, .png].contains(container) else {
                throw .usage(
                    "\(output): segments (--frames, --shard) are written as .mp4, .mov, .webm, .gif or a PNG sequence folder, not .\(container.rawValue)",
                    fix: "render the segments as a PNG sequence (-o frames/), join them with reel concat, then encode")
            }
            part = try request.resolve(total: frames)
            settings.firstFrame = part.first
            settings.comment = part.description
        }
        let workers = max(1, min(options.workers, part.count))
        let estimate = estimatedMemory(
            of: clip, width: settings.width, height: settings.height, codec: settings.codec, workers: workers,
            threads: options.threads)
        let limit = options.memoryLimit.map { UInt64(max($0, 0)) } ?? ProcessInfo.processInfo.physicalMemory / 2
        if UInt64(estimate.total) > limit {
            throw ReelError.usage(
                "\(settings.width)×\(settings.height) at \(RenderAhead.capacity(workers: workers)) frames in flight needs about \(estimate), more than the limit of \(limit >> 20) MiB"
                    + (options.memoryLimit == nil ? " (half of this machine's memory)" : ""),
                fix: "lower --scale, --width or --size, render with --workers 1, or raise --memory-limit")
        }
        if settings.codec == .gif && !options.fixedGIFPalette {
            // One palette for the whole clip, from frames sampled evenly over it.
            var builder = GIFPaletteBuilder()
            let samples = max(1, min(options.gifPaletteSamples, frames))
            var previous: [UInt8]?
            for j in 0..<samples {
                if let sig = Interrupts.pendingSignal { throw ReelError.cancelled(signal: sig) }
                let i = samples == 1 ? 0 : j * (frames - 1) / (samples - 1)
                let t = rate.time(ofFrame: i)
                do {
                    let f = try renderer.frame(for: drawn, at: t)
                    builder.add(
                        rgba: f.pixels, width: f.width, height: f.height, alphaThreshold: settings.gif.alphaThreshold,
                        previous: previous)
                    previous = f.pixels
                } catch {
                    throw ReelError.raster(error, time: t)
                }
            }
            let palette = builder.palette(count: settings.gif.colors)
            settings.gif.palette = palette.isEmpty ? [0] : palette  // a clip with nothing opaque
        }
        let file = OutputFile(target: output, isDirectory: container == .png)
        do {
            let writer: VideoWriter
            do {
                writer = try VideoWriter(path: file.temporary, settings: settings)
            } catch {
                throw ReelError.media(error, output: output)
            }
            let scene = drawn, rate = rate, firstFrame = part.first
            let lists = RecentDisplayLists(keep: workers + 2)
            let ahead = RenderAhead(frames: part.count, width: settings.width, height: settings.height, workers: workers) {
                (k, frame) throws(ReelError) -> Bool in
                let i = firstFrame + k
                let t = rate.time(ofFrame: i)
                let list = renderer.displayList(for: scene.sample(at: t), scene: scene)
                lists.put(k, list)
                // A frame that would draw exactly what the one before drew (a hold) is not drawn again.
                // The frame before's list is usually already made by the worker that drew it.
                if k > 0,
                    (lists.get(k - 1) ?? renderer.displayList(for: scene.sample(at: rate.time(ofFrame: i - 1)), scene: scene))
                        == list
                {
                    return false
                }
                do throws(RasterError) {
                    try renderer.rasterizer.render(list, into: &frame)
                } catch {
                    throw ReelError.raster(error, time: t)
                }
                return true
            }
            defer { ahead.stop() }
            var shown: Frame?  // the last frame given to the encoder, kept for repeats
            for i in 0..<part.count {
                if let sig = Interrupts.pendingSignal { throw ReelError.cancelled(signal: sig) }
                if let reason = options.shouldStop?() { throw ReelError.stopped(reason: reason) }
                let (frame, same) = try ahead.take(i)
                let current: Frame
                if same, let previous = shown {
                    current = previous
                    ahead.recycle(frame)
                } else {
                    current = frame
                    if let previous = shown { ahead.recycle(previous) }
                    shown = frame
                }
                do throws(MediaError) {
                    try writer.append(rgba: current.pixels)
                } catch {
                    throw ReelError.media(error, output: output)
                }
                progress(
                    RenderProgress(
                        frame: i + 1, total: part.count, elapsed: Date().timeIntervalSince(start),
                        bytes: writer.bytesWritten))
            }
            if let previous = shown { ahead.recycle(previous) }
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
        var bytes = ((try? FileManager.default.attributesOfItem(atPath: file.target))?[.size] as? Int) ?? 0
        if container == .png {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: file.target)) ?? []
            bytes = names.reduce(0) {
                $0 + (((try? FileManager.default.attributesOfItem(atPath: file.target + "/" + $1))?[.size] as? Int) ?? 0)
            }
        }
        return RenderSummary(
            output: file.target, container: container, frames: part.count, width: settings.encodedWidth,
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
