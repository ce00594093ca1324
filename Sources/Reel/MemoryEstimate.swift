/// What a render is expected to hold at its peak, part by part, so that `--memory-limit` can refuse it
/// before anything large is allocated (and a batch can admit outputs under one ceiling).
import Foundation
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene

public struct MemoryEstimate: Sendable, CustomStringConvertible {
    /// Frames in flight (the render-ahead pool).
    public var frames = 0
    /// The encoder's working set: x264 at 1080p holds about 500 MiB (some 240 bytes a pixel, measured
    /// with `--stats`); VP9, AV1 and HEVC are of the same order; the others far less.
    public var encoder = 0
    /// Decoded `contents` images.
    public var images = 0
    /// Video layers' decoded frames: those the frames in flight show, and the decoder's own.
    public var videos = 0
    /// The rasterizer's scratch: coverage cells and offscreen canvases for each band being drawn,
    /// widened by the widest shadow's or blur filter's reach, and a blur filter's float pictures.
    public var raster = 0
    /// Display lists of the frames in flight (a replicated layer is a few draw commands each).
    public var displayLists = 0
    /// Draw commands kept across frames for still subtrees (`RetainedCommands`): a frame's list at most,
    /// and never more than their budget.
    public var retained = 0
    /// The program itself, FFmpeg's tables and everything small.
    public var baseline = 16 << 20

    public var total: Int { frames + encoder + images + videos + raster + displayLists + retained + baseline }

    public var description: String {
        func mib(_ b: Int) -> String { "\(b >> 20) MiB" }
        return
            "\(mib(total)) (frames in flight \(mib(frames)), encoder \(mib(encoder)), images \(mib(images))\(videos > 0 ? ", videos \(mib(videos))" : ""), drawing \(mib(raster + displayLists + retained)))"
    }
}

extension Reel {
    /// The peak memory of rendering `clip` at `width`×`height` pixels with `codec`, `workers` frames
    /// drawn at once and `threads` band threads each.
    public static func estimatedMemory(
        of clip: Clip, width: Int, height: Int, codec: VideoCodec, workers: Int, threads: Int
    ) -> MemoryEstimate {
        let pixels = width * height
        var e = MemoryEstimate()
        e.frames = RenderAhead.frameBuffers(workers: workers) * pixels * 4
        e.encoder = [.h264, .hevc, .vp9, .av1].contains(codec) ? 240 * pixels : 16 * pixels
        e.images = clip.images.values.reduce(0) { $0 + $1.pixels.count }
        // Per video layer: a picture for each frame in flight and a few ahead, and the frames it holds
        // decoded (Y′CbCr, about 2 bytes a pixel at the file's size, up to the decoder's bound).
        for (name, playback, _) in clip.scene.videoLayerTimes(at: 0) {
            let size = clip.videoSizes[name] ?? (Int(playback.size.width), Int(playback.size.height))
            let held = VideoSource.heldFrames(width: Int(playback.size.width), height: Int(playback.size.height))
            e.videos += (RenderAhead.capacity(workers: workers) + 2) * size.width * size.height * 4
            e.videos += held * Int(playback.size.width) * Int(playback.size.height) * 2
        }
        // Each band thread holds cells (4 bytes) and touched bits for its band and a shadow's margin, and
        // an offscreen canvas (4 bytes a pixel) per level of nested groups, of the same size.
        let scene = clip.scene
        let blur = Self.widestBlur(scene)
        let reach = Int(blur.sigma * 4) + 64
        let bandRows = max(32, min(4 * reach, height)) + 2 * reach
        let bandPixels = (width + 2 * reach + 2) * bandRows
        let depth = Self.groupDepth(scene)
        // A blur filter's pass holds two pictures of floats (16 bytes a pixel each) the size of the canvas.
        e.raster = workers * max(1, threads) * bandPixels * (4 + 4 * depth + (blur.filtered ? 32 : 0))
        // Motion blur: each worker draws its samples into a copy of the frame and sums them, 2 bytes a
        // channel (`FrameLists.draw`); and holds a display list a sample.
        if let m = scene.motionBlur, m.shutterAngle > 0 {
            e.raster += workers * pixels * (4 + 8)
        }
        let samples = scene.motionBlur.map { $0.shutterAngle > 0 ? $0.samples : 1 } ?? 1
        e.displayLists = Int(min(scene.drawnLayerBound, 1e12)) * 2048 * RenderAhead.capacity(workers: workers) * samples
        e.retained = min(Int(min(scene.drawnLayerBound, 1e12)) * 2048, RetainedCommands.defaultBudget)
        return e
    }

    /// The widest blur a layer reads content around itself for, as a σ in device pixels: its shadow's
    /// and its blur filters' added, or its background filters', each held to the raster's cap (an
    /// animated one at the cap); and whether any layer has a blur filter.
    static func widestBlur(_ scene: Scene) -> (sigma: Double, filtered: Bool) {
        var filtered = false
        func device(_ points: Double) -> Double { min(max(points, 0) * scene.scale, maximumShadowSigma) }
        func visit(_ l: Layer) -> Double {
            var shadow = l.shadowOpacity > 0 || !l.animations.isEmpty ? device(l.shadowRadius) : 0
            var blurs = 0.0
            var backdrop = 0.0
            for list in FilterKeyPath.List.allCases {
                var sum = 0.0
                for f in list.get(l.properties) where f.type == .gaussianBlur {
                    filtered = true
                    let radius = FilterKeyPath(list, name: f.name, input: .inputRadius).rawValue
                    sum += l.animations.contains { $0.keyPath == radius } ? maximumShadowSigma : device(f.inputRadius)
                }
                if list == .filters { blurs = sum } else { backdrop = sum }
            }
            for a in l.animations where a.keyPath == "shadowRadius" { shadow = maximumShadowSigma }  // animated: the cap
            var r = max(shadow + blurs, backdrop)
            for s in l.sublayers { r = max(r, visit(s)) }
            if let m = l.mask { r = max(r, visit(m)) }
            return r
        }
        let sigma = scene.layers.reduce(0) { max($0, visit($1)) }
        return (sigma, filtered)
    }

    static func groupDepth(_ scene: Scene) -> Int {
        func visit(_ l: Layer) -> Int { 1 + ((l.sublayers + (l.mask.map { [$0] } ?? [])).map(visit).max() ?? 0) }
        return min(scene.layers.map(visit).max() ?? 1, 64)
    }
}
