/// Video layers' decoders: one per layer, read forward as a clip plays; the pictures one frame's
/// snapshot shows, decoded from them (or, for a frame that passes through, its one picture in the
/// encoder's format); and the size each layer is decoded at.
import Foundation
import ReelGeometry
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene

/// The decoders of a clip's video layers, by layer name. Each layer has its own (two layers showing one
/// file at different times do not fight over one position), opened when first asked for. One owner at a
/// time: the media stage's thread during a render, the caller for a still.
final class VideoDecoders: @unchecked Sendable {
    private final class Track {
        let playback: VideoPlayback
        let width: Int
        let height: Int
        var source: VideoSource?

        init(playback: VideoPlayback, width: Int, height: Int) {
            self.playback = playback
            self.width = width
            self.height = height
        }
    }

    private let tracks: [String: Track]

    /// Nil for a scene without video layers. `sizes` gives each video layer's picture size in pixels
    /// (what it is drawn at, at most its own).
    init?(scene: Scene, sizes: [String: (width: Int, height: Int)]) {
        var tracks: [String: Track] = [:]
        for (name, playback, _) in scene.videoLayerTimes(at: 0) {
            let size = sizes[name] ?? (Int(playback.size.width), Int(playback.size.height))
            tracks[name] = Track(playback: playback, width: size.width, height: size.height)
        }
        guard !tracks.isEmpty else { return nil }
        self.tracks = tracks
    }

    /// The pictures `snapshot` shows. Frames are asked for in clip order, so each decoder may let go of
    /// what comes before the earliest time this frame shows of its file (a replicator shows several).
    func pictures(for snapshot: Snapshot) throws(ReelError) -> LayerPictures {
        try pictures(for: SceneRenderer.videoFrames(in: snapshot))
    }

    /// What the frame of `snapshot` needs: with `passThrough`, a frame that is one video picture alone and
    /// as it is gets that picture in the encoder's format (not decoded to RGBA at all); any other frame,
    /// the pictures its display list draws.
    func media(for snapshot: Snapshot, passThrough: PassThrough?) throws(ReelError) -> FrameMedia {
        let requests = SceneRenderer.videoFrames(in: snapshot)
        if let passThrough, requests.count == 1, let r = requests.first, let track = tracks[r.layer],
            track.width == passThrough.width, track.height == passThrough.height, passThrough.passes(snapshot, showing: r)
        {
            let picture = try decoding(track, at: r.fileTime) { (source) throws(MediaError) in
                source.retainFrom = r.fileTime
                return try source.encoderPicture(at: r.fileTime)
            }
            if let picture { return .encoderPicture(picture) }
        }
        return .pictures(try pictures(for: requests))
    }

    private func pictures(for requests: [VideoFrameRequest]) throws(ReelError) -> LayerPictures {
        var earliest: [String: Double] = [:]
        for r in requests { earliest[r.layer] = min(earliest[r.layer] ?? r.fileTime, r.fileTime) }
        var pictures = LayerPictures()
        for r in requests {
            guard let track = tracks[r.layer] else { continue }
            let picture = try decoding(track, at: r.fileTime) { (source) throws(MediaError) in
                source.retainFrom = earliest[r.layer]
                return try source.picture(at: r.fileTime)
            }
            pictures[layer: r.layer, at: r.fileTime] = RasterImage(
                width: picture.width, height: picture.height, premultipliedRGBA: picture.premultipliedRGBA)
        }
        return pictures
    }

    /// `body` on the track's decoder (opened when first asked for), its failure said as the frame at
    /// `fileTime` that cannot be decoded.
    private func decoding<T>(_ track: Track, at fileTime: Double, _ body: (VideoSource) throws(MediaError) -> T)
        throws(ReelError) -> T
    {
        do throws(MediaError) {
            if track.source == nil {
                track.source = try VideoSource(
                    path: track.playback.file, width: track.width, height: track.height, maximumPixels: Scene.maximumPixelArea)
            }
            return try body(track.source!)
        } catch {
            throw .usage(
                "\(track.playback.name): the frame at \(String(format: "%.3f", fileTime)) s cannot be decoded: \(error.message)",
                fix: "re-encode the video (ffmpeg -i \(track.playback.name) -c:v libx264 fixed.mp4) and play that")
        }
    }

    /// How many seeks the decoders have made (a clip played forward makes one per layer at most).
    var seeks: Int { tracks.values.reduce(0) { $0 + ($1.source?.seeks ?? 0) } }
}

extension Reel {
    /// Each video layer's picture size: its size as displayed, scaled down to the most device pixels it
    /// covers at any of 65 times over the clip (a zoom animation raises it; nothing is scaled up). A
    /// decoder keeps one size for the whole clip (every shard must scale alike), so it is found before the
    /// first frame rather than frame by frame.
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
