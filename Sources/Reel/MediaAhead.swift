/// The pipeline's media stage: each frame's video pictures decoded ahead, in clip order, and handed to
/// the render workers as part of the frame's input (for a frame that passes through, its picture in
/// the encoder's format).
import Foundation
import ReelRender
import ReelScene

/// Prepares, on its own thread and in clip order, the pictures each of a render's frames shows, so that
/// a render worker finds its frame's input ready and the decoders and emulators read forward without a seek per
/// frame. It runs at most `window` frames ahead of the frames taken for encoding. A decoder's failure is
/// thrown to the worker waiting for that frame: the pipeline's normal error path.
final class MediaAhead: @unchecked Sendable {
    private let condition = NSCondition()
    private var prepared: [Int: FrameMedia] = [:]
    /// Frames before this one are encoded.
    private var consumed = 0
    private var failure: (frame: Int, error: ReelError)?
    private var stopped = false
    private var finished = false
    private let window: Int

    /// Frames `0..<count` of the render are clip frames `frame(k)`, increasing.
    /// With `passThrough`, frames that are one video picture as it is get it in the encoder's format.
    init(
        sources: MediaSources, scene: Scene, rate: FrameRate, count: Int, frame: @escaping @Sendable (Int) -> Int,
        window: Int, passThrough: PassThrough? = nil
    ) {
        self.window = max(1, window)
        let thread = Thread { [self] in
            for k in 0..<count {
                condition.lock()
                while !stopped && k >= consumed + self.window { condition.wait() }
                let stop = stopped
                condition.unlock()
                if stop { break }
                let result: Result<FrameMedia, ReelError>
                do throws(ReelError) {
                    // Only the pictures are kept and the worker samples the frame again: holding a window
                    // of snapshots would cost memory in proportion to the layers (a presentation layer is
                    // about 1.4 KB, so 100,000 layers make a snapshot of some 140 MB).
                    result = .success(
                        try sources.media(for: scene.sample(at: rate.time(ofFrame: frame(k))), passThrough: passThrough))
                } catch {
                    result = .failure(error)
                }
                condition.lock()
                switch result {
                case .success(let media): prepared[k] = media
                case .failure(let error): failure = (k, error)
                }
                condition.broadcast()
                condition.unlock()
                if case .failure = result { break }
            }
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// Frame `k`'s media, waiting until it is decoded.
    func media(_ k: Int) throws(ReelError) -> FrameMedia {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let media = prepared[k] { return media }
            if let failure, failure.frame <= k { throw failure.error }
            if stopped || finished { throw ReelError.usage("rendering stopped", fix: nil) }
            condition.wait()
        }
    }

    /// Frame `k`'s pictures if they are still held (the frame before a worker's own, to tell a hold); nil
    /// too for a frame that passes through (it has no display list to compare with).
    func held(_ k: Int) -> LayerPictures? { condition.withLock { prepared[k]?.pictures } }

    /// Frames before `k` are encoded. Their pictures may go, but the last of them: the worker drawing
    /// frame k may need it to tell whether frame k is a hold.
    func advance(to k: Int) {
        condition.lock()
        consumed = max(consumed, k)
        for key in prepared.keys where key < consumed - 1 { prepared[key] = nil }
        condition.broadcast()
        condition.unlock()
    }

    /// Stops decoding ahead, wakes every worker waiting for a frame, and waits for the thread (it
    /// finishes the frame it is decoding).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
