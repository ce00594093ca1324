/// Video layers' frames for the renderer: one decoder per layer, shared by the render threads, and the
/// reader that decodes ahead of a render the frames its next frames show.
import Foundation
import ReelGeometry
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene

/// The pictures of a clip's video layers, by layer name. Each layer has its own decoder (two layers
/// showing one file at different times do not fight over one position), opened when first asked for and
/// read forward as time moves on; a failure is kept for the render loop to report.
final class VideoFrames: VideoFrameSource, @unchecked Sendable {
    final class Track {
        let lock = NSLock()
        let playback: VideoPlayback
        let width: Int
        let height: Int
        var source: VideoSource?
        var failure: ReelError?

        init(playback: VideoPlayback, width: Int, height: Int) {
            self.playback = playback
            self.width = width
            self.height = height
        }

        /// The picture at file time `t` (the lock held by the caller).
        func picture(at t: Double) -> VideoPicture? {
            guard failure == nil else { return nil }
            do throws(MediaError) {
                if source == nil {
                    source = try VideoSource(
                        path: playback.file, width: width, height: height, maximumPixels: Scene.maximumPixelArea)
                }
                return try source!.picture(at: t)
            } catch {
                failure = .usage(
                    "\(playback.name): the frame at \(Self.seconds(t)) s cannot be decoded: \(error.message)",
                    fix: "re-encode the video (ffmpeg -i \(playback.name) -c:v libx264 fixed.mp4) and play that")
                return nil
            }
        }

        static func seconds(_ t: Double) -> String { String(format: "%.3f", t) }
    }

    let tracks: [String: Track]

    /// `sizes` gives each video layer's picture size in pixels (what it is drawn at, at most its own).
    init(scene: Scene, sizes: [String: (width: Int, height: Int)]) {
        var tracks: [String: Track] = [:]
        for (name, playback, _) in scene.videoLayerTimes(at: 0) {
            let size = sizes[name] ?? (Int(playback.size.width), Int(playback.size.height))
            tracks[name] = Track(playback: playback, width: size.width, height: size.height)
        }
        self.tracks = tracks
    }

    var isEmpty: Bool { tracks.isEmpty }

    func image(for layer: PresentationLayer) -> RasterImage? {
        guard let track = tracks[layer.name], let playback = layer.video else { return nil }
        let t = playback.fileTime(atLayerTime: layer.time)
        let picture = track.lock.withLock { track.picture(at: t) }
        guard let picture else { return nil }
        return RasterImage(width: picture.width, height: picture.height, premultipliedRGBA: picture.premultipliedRGBA)
    }

    /// The first failure of any layer's decoder.
    var failure: ReelError? {
        for name in tracks.keys.sorted() {
            if let f = tracks[name]!.lock.withLock({ tracks[name]!.failure }) { return f }
        }
        return nil
    }

    /// How many seeks the decoders have made (a clip played forward makes one per layer at most).
    var seeks: Int { tracks.values.reduce(0) { sum, t in sum + t.lock.withLock { t.source?.seeks ?? 0 } } }
}

/// Decodes, on its own thread and in clip order, the pictures the next `window` frames of a render show,
/// so that the render threads find them ready; tells each decoder what it may let go of (the frames
/// before the one the encoder takes next). Decoding stays sequential: no seek per frame.
final class VideoReadAhead: @unchecked Sendable {
    private let condition = NSCondition()
    private var consumed: Int
    private var stopped = false
    private var finished = false
    private let window: Int

    init(videos: VideoFrames, scene: Scene, rate: FrameRate, frames: Range<Int>, window: Int) {
        consumed = frames.lowerBound
        self.window = window
        let thread = Thread { [self] in
            for i in frames {
                condition.lock()
                while !stopped && i >= consumed + window { condition.wait() }
                let stop = stopped, oldest = consumed
                condition.unlock()
                if stop { break }
                let retain = Dictionary(
                    scene.videoLayerTimes(at: rate.time(ofFrame: oldest)).map {
                        ($0.name, $0.playback.fileTime(atLayerTime: $0.time))
                    }, uniquingKeysWith: { a, _ in a })
                for (name, playback, time) in scene.videoLayerTimes(at: rate.time(ofFrame: i)) {
                    guard let track = videos.tracks[name] else { continue }
                    track.lock.withLock {
                        track.source?.retainFrom = retain[name]
                        _ = track.picture(at: playback.fileTime(atLayerTime: time))
                    }
                }
            }
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// Frames before `index` are encoded: their pictures may go, and reading may run further ahead.
    func advance(to index: Int) {
        condition.lock()
        consumed = index
        condition.broadcast()
        condition.unlock()
    }

    /// Stops reading ahead and waits for the thread (it finishes the picture it is decoding).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}

extension Reel {
    /// Each video layer's picture size: its size as displayed, scaled down to the most device pixels it
    /// covers at any of 64 times over the clip (a zoom animation raises it; nothing is scaled up).
    static func videoSizes(for scene: Scene) -> [String: (width: Int, height: Int)] {
        let layers = scene.videoLayerTimes(at: 0)
        guard !layers.isEmpty else { return [:] }
        var scales: [String: Double] = [:]
        let samples = 64
        for k in 0...samples {
            let t = scene.duration * Double(k) / Double(samples)
            for (name, s) in SceneRenderer.videoPixelScales(in: scene.sample(at: min(t, scene.duration.nextDown)), scene: scene) {
                scales[name] = max(scales[name] ?? 0, s)
            }
        }
        var sizes: [String: (width: Int, height: Int)] = [:]
        for (name, playback, _) in layers {
            let w = playback.size.width, h = playback.size.height
            // A little over what is covered: the samples may miss the peak of a zoom.
            let s = min(1, (scales[name] ?? 1) * 1.05)
            sizes[name] = (max(1, Int((w * s).rounded(.up))), max(1, Int((h * s).rounded(.up))))
        }
        return sizes
    }
}
