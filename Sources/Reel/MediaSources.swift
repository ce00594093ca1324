/// Where a render's per-frame media comes from: its video layers' decoders and its terminal layers'
/// players, asked together for what one frame shows.
import ReelGeometry
import ReelRaster
import ReelRender
import ReelScene

/// A clip's video decoders and terminal players, one owner at a time (the media stage's thread during a
/// render, the caller for a still), each read forward as the clip plays.
final class MediaSources: @unchecked Sendable {
    let videos: VideoDecoders?
    let terminals: TerminalPlayers?

    /// Nil for a clip without video or terminal layers.
    init?(videos: VideoDecoders?, terminals: TerminalPlayers?) {
        guard videos != nil || terminals != nil else { return nil }
        self.videos = videos
        self.terminals = terminals
    }

    /// The pictures and screens `snapshot` shows.
    func pictures(for snapshot: Snapshot) throws(ReelError) -> LayerPictures {
        var pictures = try videos?.pictures(for: snapshot) ?? LayerPictures()
        if let terminals { try terminals.screens(for: SceneRenderer.terminalScreens(in: snapshot), into: &pictures) }
        return pictures
    }

    /// What the frame of `snapshot` needs (see `VideoDecoders.media`): a frame showing a terminal never
    /// passes through, as it draws over whatever video it shows.
    func media(for snapshot: Snapshot, passThrough: PassThrough?) throws(ReelError) -> FrameMedia {
        let screens = terminals == nil ? [] : SceneRenderer.terminalScreens(in: snapshot)
        guard let videos, screens.isEmpty else {
            var pictures = try videos?.pictures(for: snapshot) ?? LayerPictures()
            try terminals?.screens(for: screens, into: &pictures)
            return .pictures(pictures)
        }
        return try videos.media(for: snapshot, passThrough: passThrough)
    }

    /// Whether a frame may pass a video picture through to the encoder at all.
    var mayPassThrough: Bool { videos != nil && terminals == nil }
}

extension Clip {
    /// This clip's decoders and players, nil without video or terminal layers. Each render has its own.
    func mediaSources() -> MediaSources? {
        MediaSources(
            videos: VideoDecoders(scene: scene, sizes: videoSizes),
            terminals: TerminalPlayers(scene: scene, recordings: recordings))
    }

    /// The frame at `time`, its video layers' pictures decoded first (a still, a sheet's frame); with
    /// motion blur, the mean of its shutter's samples around `time`.
    func frame(at time: Double, renderer: SceneRenderer, sources: MediaSources?) throws(ReelError) -> Frame {
        let snapshot = scene.sample(at: time)
        let pictures = try sources?.pictures(for: snapshot) ?? LayerPictures()
        let times =
            scene.motionBlur.map { $0.times(at: time, frameDuration: scene.fps.time(ofFrame: 1)) } ?? [time]
        let lists = FrameLists(
            lists: times.map { t in
                renderer.displayList(for: t == time ? snapshot : scene.sample(at: t), scene: scene, pictures: pictures)
            })
        do throws(RasterError) {
            var frame = Frame(width: scene.pixelWidth, height: scene.pixelHeight)
            _ = try lists.draw(into: &frame, over: nil, rasterizer: renderer.rasterizer)
            return frame
        } catch {
            throw ReelError.drawing(error, time: time, scene: scene)
        }
    }
}
