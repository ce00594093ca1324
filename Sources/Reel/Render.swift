/// The render loop: frames drawn ahead of the encoder, encoded in order, committed atomically; and a
/// single frame to a PNG.
import Foundation
import ReelGeometry
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene

extension Reel {
    /// Renders every frame of `scene` and encodes it to `output`, written under a temporary name and
    /// renamed into place when complete. On any error or interrupt nothing is left at `output`.
    @discardableResult
    public static func render(
        _ clip: Clip, to output: String, options: RenderOptions = RenderOptions(),
        note: (Message) -> Void = { _ in }, progress: (RenderProgress) -> Void = { _ in }
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
        var drawn = scene
        if flatten { drawn.background = over(scene.background, options.matte ?? .white) }
        let renderer = clip.renderer(threads: options.threads)
        let sources = clip.mediaSources()
        let frames = rate.frameCount(duration: scene.duration)
        // A segment: frames first…last of the clip, keeping the clip's timestamps (see SegmentJoiner).
        var part = SegmentInfo(first: 0, last: frames - 1, total: frames)
        if let request = options.segment {
            guard [.mp4, .mov, .webm, .gif, .png].contains(container) else {
                throw .usage(
                    "\(output): segments (\(Setting.frames), \(Setting.shard)) are written as .mp4, .mov, .webm, .gif or a PNG sequence folder, not .\(container.rawValue)",
                    fix: "render the segments as a PNG sequence (-o frames/), join them with reel concat, then encode")
            }
            part = try request.resolve(total: frames)
            settings.firstFrame = part.first
            settings.comment = part.description
        }
        let mix = try soundTrack(for: clip, container: container, output: output, options: options, into: &settings) {
            notes.append($0)
        }
        subtitleTrack(for: scene, container: container, output: output, options: options, into: &settings) {
            notes.append($0)
        }
        for n in clip.notes + notes { note(n) }
        // Reading a large scene frees as much as it keeps (the parsed document, the arrays it grew), on
        // this thread's heap; the workers draw on heaps of their own and cannot reuse it, and with the
        // trim threshold raised for frames (tuneAllocatorForFrames) it would stay resident for the whole
        // render: 100,000 layers peaked at 1.2 GB, 660 MB with it handed back.
        MediaMemory.releaseFreed()
        let workers = max(1, min(options.workers, part.count))
        let estimate = estimatedMemory(
            of: clip, width: settings.width, height: settings.height, codec: settings.codec, workers: workers,
            threads: options.threads)
        let limit = options.memoryLimit.map { UInt64(max($0, 0)) } ?? ProcessInfo.processInfo.physicalMemory / 2
        if UInt64(estimate.total) > limit {
            throw ReelError.usage(
                "\(settings.width)×\(settings.height) at \(RenderAhead.frameBuffers(workers: workers)) frames in flight needs about \(estimate), more than the limit of \(limit >> 20) MiB"
                    + (options.memoryLimit == nil ? " (half of this machine's memory)" : ""),
                fix:
                    "lower \(Setting.scale), \(Setting.width) or \(Setting.size), render with \(Setting.workers, "1"), or raise \(Setting.memoryLimit)"
            )
        }
        var kept: GIFFrameCache?
        if settings.codec == .gif && !options.fixedGIFPalette {
            // The frames are kept for the encoding pass while their changes fit in a quarter of what the
            // render may use beyond its estimate (at most 256 MiB), and when drawing every frame of the
            // clip costs no more than sampling it and drawing the segment (a shard of a long clip samples).
            let spare = max(0, Int(clamping: limit) - estimate.total) / 4
            let keep = options.keepsGIFFrames && frames <= min(options.gifPaletteSamples, frames) + part.count
            kept = try wholeClipPalette(
                into: &settings, renderer: renderer, sources: sources, scene: drawn, rate: rate, frames: frames,
                workers: workers, options: options, cacheLimit: keep ? min(256 << 20, spare) : 0)
            if let cache = kept, cache.width != settings.width || cache.height != settings.height { kept = nil }
        }
        let file = OutputFile(target: output, isDirectory: container == .png)
        var passedThrough = 0
        try file.complete(output: output, cancellation: options.cancellation) {
            let writer = try writing(output) { () throws(MediaError) in
                try VideoWriter(path: file.temporary, settings: settings)
            }
            if let kept {
                // Drawn by the palette pass: the frames are replayed, not drawn again.
                var written = 0
                try kept.replay(part.first..<(part.last + 1)) { (pixels, changedRows, changedColumns) throws(ReelError) in
                    try options.cancellation.check()
                    try writing(output) { () throws(MediaError) in
                        try writer.append(rgba: pixels, changedRows: changedRows, changedColumns: changedColumns)
                    }
                    written += 1
                    progress(
                        RenderProgress(
                            frame: written, total: part.count, elapsed: Date().timeIntervalSince(start),
                            bytes: writer.bytesWritten))
                }
                try writing(output) { () throws(MediaError) in try writer.finish() }
                return
            }
            let scene = drawn, rate = rate, firstFrame = part.first
            let ahead = RenderAhead.drawing(
                scene, renderer: renderer, sources: sources, rate: rate, count: part.count, frame: { firstFrame + $0 },
                width: settings.width, height: settings.height, workers: workers, cancellation: options.cancellation,
                passThrough: sources?.mayPassThrough != true ? nil : PassThrough(scene: scene, renderer: renderer, writer: writer)
            )
            defer { ahead.stop() }
            var soundWritten = AudioMix.sample(atFrame: part.first, rate: rate)
            var shown: RenderAhead.Taken?  // the last frame given to the encoder, kept for repeats
            for i in 0..<part.count {
                try options.cancellation.check()
                let taken = try ahead.take(i)
                // The rows that differ from the frame before (none for a hold), when the renderer knows them.
                let changed = taken.changed
                let current: RenderAhead.Taken
                // A buffer goes back to the pool with no reference left here (`recycle`): the previous one
                // taken out of `shown`, not bound beside it (a worker drawing into a buffer still shared
                // copied all 8 MB of a 1080p frame, a quarter of spring-button's frames). And only once
                // this frame is appended: a GIF writer keeps the frame before by reference until then.
                var replaced: RenderAhead.Taken?
                if taken.same, let previous = shown {
                    current = previous
                    ahead.recycle(consume taken)
                } else {
                    current = taken
                    replaced = shown.take()
                    shown = current
                }
                try writing(output) { () throws(MediaError) in
                    if let picture = current.picture {
                        try writer.append(picture)
                        passedThrough += 1
                    } else {
                        try writer.append(
                            rgba: current.frame.pixels, changedRows: changed?.ranges, changedColumns: changed?.columns)
                    }
                }
                if let previous = replaced.take() { ahead.recycle(consume previous) }
                if let mix {
                    // The sound up to the end of this frame, so the muxer interleaves the two.
                    let end = AudioMix.sample(atFrame: part.first + i + 1, rate: rate)
                    let sound = try mix.samples(from: soundWritten, count: end - soundWritten)
                    try writing(output) { () throws(MediaError) in try writer.appendAudio(sound) }
                    soundWritten = end
                }
                progress(
                    RenderProgress(
                        frame: i + 1, total: part.count, elapsed: Date().timeIntervalSince(start),
                        bytes: writer.bytesWritten))
            }
            if let previous = shown.take() { ahead.recycle(consume previous) }
            try options.cancellation.check()
            try writing(output) { () throws(MediaError) in try writer.finish() }
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
            seconds: Date().timeIntervalSince(start), notes: notes, passedThrough: passedThrough)
    }

    /// Renders the frame at `time` seconds to a PNG file (straight alpha, so a transparent background
    /// stays transparent), written under a temporary name and renamed when complete.
    public static func still(_ clip: Clip, at time: Double, to output: String, options: RenderOptions = RenderOptions())
        throws(ReelError)
    {
        try checkStillTime(time)
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard ext == "png" else {
            throw .usage("\(output): a still is written as PNG", fix: "name the output with .png")
        }
        try checkWritableDestination(output)
        let image = try stillImage(clip, at: time, options: options)
        let file = OutputFile(target: output)
        try file.complete(output: output, cancellation: options.cancellation) {
            try ImageFile.writePNG(image, to: file.temporary)
        }
    }

    /// The PNG file `still` writes, as bytes (the preview server's frames).
    public static func stillPNG(_ clip: Clip, at time: Double, options: RenderOptions = RenderOptions()) throws(ReelError)
        -> [UInt8]
    {
        try checkStillTime(time)
        let image = try stillImage(clip, at: time, options: options)
        do throws(MediaError) {
            return try ImageFile.encodePNG(image)
        } catch {
            throw .media(error, output: "a PNG")
        }
    }

    /// Where every layer lies on the frame `still` draws at `time`, in its pixels (the preview's
    /// outlines and the layer under the pointer); one per row of `Layer.flattened()`.
    public static func layerOutlines(_ clip: Clip, at time: Double) -> [LayerOutline] {
        SceneRenderer.outlines(of: clip.scene.sample(at: time), scene: clip.scene)
    }

    private static func checkStillTime(_ time: Double) throws(ReelError) {
        guard time.isFinite, time >= 0 else {
            throw .usage("\(Setting.at): the time must be a number of seconds ≥ 0, got \(time)", fix: nil)
        }
    }

    private static func stillImage(_ clip: Clip, at time: Double, options: RenderOptions) throws(ReelError) -> StillImage {
        let frame = try clip.frame(
            at: time, renderer: clip.renderer(threads: options.threads), sources: clip.mediaSources())
        return StillImage(width: frame.width, height: frame.height, rgba: straightAlpha(frame.pixels))
    }

    /// Straight-alpha `top` over an opaque `bottom`.
    static func over(_ top: Color, _ bottom: Color) -> Color {
        let a = Color.unit(top.alpha)
        return Color(
            red: top.red * a + bottom.red * (1 - a), green: top.green * a + bottom.green * (1 - a),
            blue: top.blue * a + bottom.blue * (1 - a), alpha: 1)
    }

    /// The one unpremultiply (the encoders' own): straight alpha, rounded to nearest.
    static func straightAlpha(_ px: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        VideoWriter.unpremultiply(px, into: &out)
        return out
    }
}

/// The one place a media call's `MediaError` becomes a `ReelError` naming the output being written.
private func writing<T>(_ output: String, _ body: () throws(MediaError) -> T) throws(ReelError) -> T {
    do {
        return try body()
    } catch {
        throw ReelError.media(error, output: output)
    }
}
