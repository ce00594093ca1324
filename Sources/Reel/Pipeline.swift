/// The render pipeline: frames rendered ahead of the encoder into a fixed pool of buffers, each from its
/// snapshot and its media (decoded ahead by `MediaAhead`; a frame that passes through is its picture,
/// not drawn), progress reports, and the recent display lists that show a frame is held.
import Foundation
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene

/// Renders frames ahead of the encoder: `workers` threads each take the next frame index, sample the
/// scene and rasterize it into a frame buffer from a fixed pool; the encoder takes the frames back in
/// order and returns each buffer to the pool. The pool bounds how far rendering runs ahead, and so the
/// memory: `capacity` frames, however long the clip (and the first while the pool fills: `frameBuffers`).
/// No frame buffer is allocated after the pool has filled.
final class RenderAhead: @unchecked Sendable {
    /// A frame buffer of the pool and the display list whose picture it holds (nil: none known), from
    /// which the next frame drawn into it redraws only the rows that differ.
    struct Buffer: Sendable {
        var frame: Frame
        var shows: DisplayList?
    }

    /// A frame as the encoder takes it: its buffer, and whether it is the same as the frame before (then
    /// the buffer holds nothing of use).
    struct Taken: Sendable {
        let buffer: Buffer
        /// The rows where the frame differs from the one before, when known (nil: not known).
        let changed: DamagedRows?
        /// The frame as a picture in the encoder's format, not drawn (the buffer holds nothing of use).
        let picture: EncoderPicture?
        /// No row differs: the frame was not drawn, and the buffer holds nothing of use.
        var same: Bool { picture == nil && (changed?.isEmpty ?? false) }
        var frame: Frame { buffer.frame }
    }

    /// What drawing a frame gave: as `Taken` has it.
    struct Drawn: Sendable {
        var changed: DamagedRows?
        var picture: EncoderPicture?
    }

    private let condition = NSCondition()
    private var ready: [Int: Taken] = [:]
    private var free: [Buffer]
    /// The first buffer drawn, shared (its pixels are copied on write), until every buffer of the pool
    /// has been taken once: a buffer that holds no picture starts from its picture instead of being drawn
    /// whole. The pool's four buffers of a 1080p GIF of 2,000 still shapes each drew all of them once.
    private var seed: Buffer?
    private var takesBeforeSeedIsDropped: Int
    /// A worker is drawing a picture from nothing (no seed yet): another with a buffer that holds none
    /// waits for its picture rather than draw a whole frame too.
    private var seeding = false
    private var next = 0
    private var failure: ReelError?
    private var stopped = false
    private var running = 0
    private let frames: Int
    private let cancellation: Cancellation
    /// The media stage feeding the workers, told as frames are taken so that it runs ahead of them.
    private let media: MediaAhead?
    /// Draws frame `index` into the buffer and gives the rows where it differs from the frame before
    /// (nil: not known), or empty rows without drawing when the frame is the same as the one before, or
    /// the frame's picture in the encoder's format without drawing.
    private let render: @Sendable (Int, inout Buffer) throws(ReelError) -> Drawn

    /// Frames the pool holds for `workers` threads: one being rendered per worker, one being encoded,
    /// one ready ahead.
    static func capacity(workers: Int) -> Int { workers + 2 }

    /// Frame buffers alive at most: the pool, and the first frame drawn while it is shared as the seed
    /// (a buffer that shares it and is drawn into is copied).
    static func frameBuffers(workers: Int) -> Int { capacity(workers: workers) + 1 }

    init(
        frames: Int, width: Int, height: Int, workers: Int, cancellation: Cancellation, media: MediaAhead? = nil,
        render: @escaping @Sendable (Int, inout Buffer) throws(ReelError) -> Drawn
    ) {
        self.frames = frames
        self.cancellation = cancellation
        self.media = media
        self.render = render
        free = (0..<Self.capacity(workers: workers)).map { _ in Buffer(frame: Frame(width: width, height: height)) }
        takesBeforeSeedIsDropped = Self.capacity(workers: workers)
        running = workers
        for _ in 0..<workers {
            let thread = Thread { [self] in work() }
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    private func work() {
        while true {
            condition.lock()
            while (free.isEmpty || (free.last!.shows == nil && seed == nil && seeding)) && !stopped { condition.wait() }
            if stopped || next >= frames {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let index = next
            next += 1
            var buffer = free.removeLast()
            if buffer.shows == nil, let seed { buffer = seed }
            let seeds = buffer.shows == nil && takesBeforeSeedIsDropped > 0
            if seeds { seeding = true }
            takesBeforeSeedIsDropped -= 1
            if takesBeforeSeedIsDropped <= 0 { seed = nil }
            condition.unlock()
            do {
                let drawn = try render(index, &buffer)
                condition.lock()
                if seeds {
                    seeding = false
                    if takesBeforeSeedIsDropped > 0 && buffer.shows != nil { seed = buffer }
                }
                ready[index] = Taken(buffer: buffer, changed: drawn.changed, picture: drawn.picture)
            } catch {
                condition.lock()
                if seeds { seeding = false }
                if failure == nil { failure = error }
                stopped = true
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Frame `index`, waiting for it, and whether it is the same as the one before (then the buffer
    /// holds nothing of use); the frames must be taken in order.
    func take(_ index: Int) throws(ReelError) -> Taken {
        condition.lock()
        defer {
            condition.unlock()
            media?.advance(to: index + 1)
        }
        while ready[index] == nil {
            if let failure { throw failure }
            if stopped { throw ReelError.usage("rendering stopped", fix: nil) }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
            do {
                try cancellation.check()
            } catch {
                stopped = true
                condition.broadcast()
                throw error
            }
        }
        return ready.removeValue(forKey: index)!
    }

    /// Gives a frame buffer back to the pool. The taker must not have changed its pixels, and must keep
    /// no other reference to them: a worker that draws into a buffer still shared copies all of it first.
    func recycle(_ taken: consuming Taken) {
        // Moved into the pool: no reference of this call's is left for the worker that takes it to find.
        let buffer = taken.buffer
        _ = consume taken
        condition.lock()
        free.append(consume buffer)
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the workers and waits for them (a worker finishes the frame it is drawing); the media stage
    /// first, so that no worker is left waiting for a picture.
    func stop() {
        media?.stop()
        condition.lock()
        stopped = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }
}

extension RenderAhead {
    /// Draws `scene`'s frames `frame(0)`, `frame(1)` … `frame(count − 1)` (increasing frame numbers)
    /// ahead of their taker. Each frame's input is its snapshot and, with `sources`, the pictures and screens its
    /// video layers show, decoded ahead by a media stage. A frame that would draw exactly what the one
    /// before drew (a hold) is not drawn again: `take` says it is the same. The frame before's display
    /// list is usually already made by the worker that drew it, and is made again from its input if not.
    /// With `passThrough`, a frame that is one video picture as it is is not drawn: `take` gives the picture.
    static func drawing(
        _ scene: Scene, renderer: SceneRenderer, sources: MediaSources?, rate: FrameRate, count: Int,
        frame: @escaping @Sendable (Int) -> Int, width: Int, height: Int, workers: Int, cancellation: Cancellation,
        passThrough: PassThrough? = nil
    ) -> RenderAhead {
        // The media stage runs as far ahead as the pool of frames and a little more: the frames being drawn
        // and those waiting for the encoder already have their pictures.
        let media = sources.map {
            MediaAhead(
                sources: $0, scene: scene, rate: rate, count: count, frame: frame, window: capacity(workers: workers) + 2,
                passThrough: passThrough)
        }
        // As many as frames are drawn at once: a worker needs the list of the frame before its own, which
        // another worker made moments ago (a list missed is made again). Each list holds every path of a
        // frame: with 100,000 layers, two more of them were 80 MB.
        let lists = RecentDisplayLists(keep: workers)
        // Still subtrees presented once for the whole clip, and their commands kept by the renderer.
        let presentation = RetainedPresentation(scene)
        // With motion blur, a frame's lists are those of its shutter's sample times (`FrameLists`).
        let blur = scene.motionBlur
        let frameDuration = rate.time(ofFrame: 1)
        @Sendable func list(_ k: Int, pictures: LayerPictures) -> FrameLists {
            let t = rate.time(ofFrame: frame(k))
            let times = blur?.times(at: t, frameDuration: frameDuration) ?? [t]
            return FrameLists(
                lists: times.map { renderer.displayList(for: presentation.sample(at: $0), scene: scene, pictures: pictures) })
        }
        return RenderAhead(
            frames: count, width: width, height: height, workers: workers, cancellation: cancellation, media: media
        ) { (k, buffer) throws(ReelError) -> Drawn in
            let input = try media?.media(k) ?? .pictures(LayerPictures())
            guard let pictures = input.pictures else {
                // Not drawn: the buffer keeps a picture no list describes, so the next frame drawn into it
                // is drawn whole; and the next frame has no list to compare with (its damage is not known).
                buffer.shows = nil
                if case .encoderPicture(let picture) = input { return Drawn(picture: picture) }
                return Drawn()
            }
            let current = list(k, pictures: pictures)
            lists.put(k, current)
            // The rows that differ from the frame before: none is a hold, not drawn (a list that changed
            // only off the frame is one too); the encoder is told the rest.
            var changed: DamagedRows?
            if k > 0 {
                let before = media == nil ? LayerPictures() : media?.held(k - 1)
                if let previous = lists.get(k - 1) ?? before.map({ list(k - 1, pictures: $0) }) {
                    changed = current.damage(since: previous, height: height)
                    if changed?.isEmpty == true { return Drawn(changed: changed) }
                }
            }
            do throws(RasterError) {
                // The buffer holds an earlier frame's picture (the pool's capacity back, usually): only the
                // rows where this frame differs from it are drawn, and only what paints them.
                let shown = buffer.shows
                buffer.shows = nil
                buffer.shows = try current.draw(into: &buffer.frame, over: shown, rasterizer: renderer.rasterizer)
            } catch {
                throw ReelError.drawing(error, time: rate.time(ofFrame: frame(k)), scene: scene)
            }
            return Drawn(changed: changed)
        }
    }
}

/// What a render reports as it goes.
public struct RenderProgress: Sendable {
    /// Frames encoded so far, of `total`.
    public var frame: Int
    public var total: Int
    public var elapsed: Double
    /// Bytes written to the output so far (the temporary file).
    public var bytes: Int

    /// Frames per second so far.
    public var rate: Double { elapsed > 0 ? Double(frame) / elapsed : 0 }
    /// Seconds left at the rate so far.
    public var remaining: Double { rate > 0 ? Double(total - frame) / rate : 0 }
}

/// The display lists of the last few frames, shared by the render workers: a worker compares its
/// frame's list with the frame before's (a hold is not redrawn), which another worker has usually
/// just made.
final class RecentDisplayLists: @unchecked Sendable {
    private let lock = NSLock()
    private var lists: [Int: FrameLists] = [:]
    private let keep: Int

    init(keep: Int) { self.keep = keep }

    func put(_ index: Int, _ list: FrameLists) {
        lock.withLock {
            lists[index] = list
            for key in lists.keys where key < index - keep { lists[key] = nil }
        }
    }

    func get(_ index: Int) -> FrameLists? { lock.withLock { lists[index] } }
}
