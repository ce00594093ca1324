/// The GIF palette pass: one palette for the whole clip, built before encoding from frames sampled
/// evenly over it (the quantizer itself lives in ReelGIF); the frames themselves kept for the
/// encoding pass when their changes fit in memory.
import ReelGIF
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene

extension Reel {
    /// Builds the palette into `settings`. With a `cacheLimit`, every frame is drawn and kept (as the
    /// rectangles that change) and returned, so the encoding pass draws nothing; a clip whose changes
    /// pass the limit is sampled from there on (the samples before are counted already), and nil
    /// returned. `workers` is the render's (what its memory check counted).
    static func wholeClipPalette(
        into settings: inout VideoSettings, renderer: SceneRenderer, sources: MediaSources?, scene drawn: Scene,
        rate: FrameRate, frames: Int, workers: Int, options: RenderOptions, cacheLimit: Int
    ) throws(ReelError) -> GIFFrameCache? {
        let samples = max(1, min(options.gifPaletteSamples, frames))
        let sampled = (0..<samples).map { j in samples == 1 ? 0 : j * (frames - 1) / (samples - 1) }
        let threshold = settings.gif.alphaThreshold, colours = settings.gif.colors
        let (width, height) = (drawn.pixelWidth, drawn.pixelHeight)
        var builder = GIFPaletteBuilder()
        // The last frame the builder counted: the next counts the pixels that changed since, in the rows
        // that changed since (nil: not known, all of them). A copy of its own, brought up to date in
        // those rows where they are fewer than half: holding the pool's frame itself until the next sample
        // (four frames on when a clip has four times as many frames as samples) made the worker that drew
        // into its buffer next copy all of it first, 8 MB at 1080p.
        var added: [UInt8]?
        var changedSinceAdded: [Range<Int>]? = []
        // And the columns where they changed since: one span (within the frame) for all those rows,
        // empty for none, nil for every column.
        var columnsSinceAdded: Range<Int>? = 0..<0
        func note(_ pixels: [UInt8]?, _ changed: DamagedRows?) {
            guard pixels != nil else { return }  // a hold: nothing changed
            if let changed { changedSinceAdded? += changed.ranges } else { changedSinceAdded = nil }
            if let seen = columnsSinceAdded, let span = changed?.columns?.clamped(to: 0..<width) {
                columnsSinceAdded =
                    seen.isEmpty ? span : min(seen.lowerBound, span.lowerBound)..<max(seen.upperBound, span.upperBound)
            } else {
                columnsSinceAdded = nil
            }
        }
        func add(_ pixels: [UInt8]) {
            builder.add(
                rgba: pixels, width: width, height: height, alphaThreshold: threshold, previous: added, rows: changedSinceAdded,
                columns: columnsSinceAdded)
            let most = changedSinceAdded.map { 2 * $0.reduce(0) { $0 + $1.count } >= height } ?? false
            if let rows = changedSinceAdded, added != nil, !most {
                // Only the columns that changed: the rest of those rows is as it was.
                let span = columnsSinceAdded ?? 0..<width
                let rowBytes = width * 4
                added!.withUnsafeMutableBufferPointer { kept in
                    pixels.withUnsafeBufferPointer { from in
                        for r in rows {
                            for y in max(0, r.lowerBound)..<min(height, max(0, r.upperBound)) {
                                let at = y * rowBytes + span.lowerBound * 4
                                (kept.baseAddress! + at).update(from: from.baseAddress! + at, count: span.count * 4)
                            }
                        }
                    }
                }
            } else if most {
                // Most rows changed (text that scrolls): the frame itself is held, and the worker that
                // draws into its buffer next copies it, drawing most of it again anyway, off this thread.
                added = pixels
            } else {
                added = pixels.withUnsafeBufferPointer { Array($0) }
            }
            changedSinceAdded = []
            columnsSinceAdded = 0..<0
        }
        var remaining = sampled
        if cacheLimit > 4 * width * height * 4 {
            let cache = GIFFrameCache(width: width, height: height, limit: cacheLimit)
            let isSample = Set(sampled)
            var shown: [UInt8]?, changed = true, stoppedAt = frames
            let fits = try drawEach(
                Array(0..<frames), renderer: renderer, sources: sources, scene: drawn, rate: rate, workers: workers,
                options: options
            ) { i, pixels, changedRows in
                if let pixels {
                    shown = pixels
                    changed = true
                }
                note(pixels, changedRows)
                guard cache.add(pixels, changedRows: changedRows?.ranges, changedColumns: changedRows?.columns) else {
                    stoppedAt = i
                    return false
                }
                if isSample.contains(i), changed, let shown {
                    add(shown)
                    changed = false
                }
                return true
            }
            if fits {
                settings.gif.palette = palette(builder, colours)
                return cache
            }
            remaining = sampled.filter { $0 >= stoppedAt }
        }
        _ = try drawEach(
            remaining, renderer: renderer, sources: sources, scene: drawn, rate: rate, workers: workers, options: options
        ) {
            _, pixels, changedRows in
            note(pixels, changedRows)
            if let pixels { add(pixels) }
            return true
        }
        settings.gif.palette = palette(builder, colours)
        return nil
    }

    /// The builder's palette of at most `count` colours (one black entry for a clip with nothing opaque).
    private static func palette(_ builder: GIFPaletteBuilder, _ count: Int) -> [UInt32] {
        let palette = builder.palette(count: count)
        return palette.isEmpty ? [0] : palette
    }

    /// Draws the frames `indices` (increasing) with the render loop's workers and hands each to `body`
    /// in order: its pixels, or nil when it draws what the one before drew (a hold, not drawn at all),
    /// and the rows (with their columns) where it may differ from the one before (`indices`' previous), when
    /// known.
    /// `body` returns false to stop; so does drawEach.
    private static func drawEach(
        _ indices: [Int], renderer: SceneRenderer, sources: MediaSources?, scene: Scene, rate: FrameRate, workers: Int,
        options: RenderOptions,
        body: (Int, [UInt8]?, DamagedRows?) throws(ReelError) -> Bool
    ) throws(ReelError) -> Bool {
        let workers = max(1, min(workers, indices.count))
        let ahead = RenderAhead.drawing(
            scene, renderer: renderer, sources: sources, rate: rate, count: indices.count, frame: { indices[$0] },
            width: scene.pixelWidth, height: scene.pixelHeight, workers: workers, cancellation: options.cancellation)
        // The last frame drawn goes back to the pool only once the next drawn frame has been handed on:
        // `body` keeps its pixels until then (the frame before, which the palette builder and the frame
        // cache compare with), and a worker drawing into a buffer still shared copied all of it first
        // (an 8 MB copy into fresh pages nearly every frame of a 1080p GIF: 14 % of the CPU time of one
        // with 2,000 still shapes).
        var held: RenderAhead.Taken?
        defer {
            if let held = held.take() { ahead.recycle(consume held) }
            ahead.stop()
        }
        for j in indices.indices {
            try options.cancellation.check()
            let taken = try ahead.take(j)
            let go = try body(indices[j], taken.same ? nil : taken.frame.pixels, taken.changed)
            // Recycled with no reference left here (`recycle`): the one held taken out, not bound beside it.
            if taken.same {
                ahead.recycle(consume taken)
            } else {
                if let previous = held.take() { ahead.recycle(consume previous) }
                held = consume taken
            }
            if !go { return false }
        }
        return true
    }
}
