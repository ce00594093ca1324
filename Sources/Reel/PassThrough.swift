/// Frames that are one video picture and nothing else, pixel for pixel: the rule they are told by
/// (checked on the frame's own display list), and what a frame's media stage hands the pipeline — the
/// pictures to draw, or such a frame's picture already in the encoder's format, nothing to draw.
import ReelGeometry
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene

/// A frame's media, prepared ahead of it.
enum FrameMedia: Sendable {
    /// The pictures its display list draws.
    case pictures(LayerPictures)
    /// The frame is this decoded picture as it is: the encoder takes it without drawing, converting it
    /// to RGBA or back.
    case encoderPicture(EncoderPicture)

    /// The pictures to draw, nil for a frame that is not drawn.
    var pictures: LayerPictures? {
        if case .pictures(let pictures) = self { return pictures }
        return nil
    }
}

/// Tells the frames that pass through: those whose display list is exactly one fill, with opacity 1,
/// of one video layer's picture at the output's size with the identity transform (one picture pixel
/// per device pixel, no offset), over the whole frame. A picture passes through only if it is opaque
/// (`YUVToEncoder` takes 4:2:0 without alpha), so the background under it does not show. Anything else
/// on the frame (a layer over the video, even a transparent one that still paints; a group; a shadow;
/// a mask), a video scaled, moved, turned or translucent: the frame is drawn. The list is the same one
/// the renderer would draw, made with a stand-in picture, so the rule cannot drift from the drawing.
struct PassThrough: Sendable {
    let width: Int
    let height: Int
    let scene: Scene
    /// Makes the lists; its own kept commands, so stand-in pictures never reach the render workers'.
    let renderer: SceneRenderer
    /// Stands in for the video's picture in the list: only where it is drawn matters, not its pixels.
    let standIn: RasterImage

    /// Nil when no frame of this output can pass through: the writer takes only RGBA, or the output is
    /// not the scene's own pixel size.
    init?(scene: Scene, renderer: SceneRenderer, writer: VideoWriter) {
        let (w, h) = (writer.settings.width, writer.settings.height)
        guard writer.takesEncoderPictures, w == scene.pixelWidth, h == scene.pixelHeight,
            let standIn = RasterImage(width: w, height: h, premultipliedRGBA: [UInt8](repeating: 0, count: w * h * 4))
        else { return nil }
        var own = renderer
        own.retainedCommands = RetainedCommands()
        (self.width, self.height, self.scene, self.renderer, self.standIn) = (w, h, scene, own, standIn)
    }

    /// Most layers shown (not hidden, not transparent) on a frame that is worth asking: the list is made
    /// afresh for the question, without the workers' kept commands, so a scene of many layers would
    /// pay a whole display list a frame to learn what their drawing says anyway — that it is drawn.
    static let mostLayers = 16

    /// Whether `snapshot`, whose only video picture is `request`'s, is that picture alone as it is.
    func passes(_ snapshot: Snapshot, showing request: VideoFrameRequest) -> Bool {
        guard Self.shownLayers(in: snapshot, upTo: Self.mostLayers + 1) <= Self.mostLayers else { return false }
        var pictures = LayerPictures()
        pictures[layer: request.layer, at: request.fileTime] = standIn
        return isStandInAlone(renderer.displayList(for: snapshot, scene: scene, pictures: pictures))
    }

    /// The layers `snapshot` shows, counted up to `limit` (every replicator instance and mask counts).
    static func shownLayers(in snapshot: Snapshot, upTo limit: Int) -> Int {
        var count = 0
        func visit(_ layer: PresentationLayer) {
            guard count < limit, !layer.hidden, layer.opacity > 0 else { return }
            count += 1
            for s in layer.sublayers { visit(s) }
            for instance in layer.instances.dropFirst() { for s in instance { visit(s) } }
            if let mask = layer.mask { visit(mask) }
        }
        for i in snapshot.top.indices { snapshot.top.withLayer(at: i) { visit($0) } }
        return count
    }

    func isStandInAlone(_ list: DisplayList) -> Bool {
        guard list.commands.count == 1, case .fill(let path, .image(let image, let transform), let opacity, _) = list.commands[0],
            opacity == 1, transform == .identity, isStandIn(image),
            path == Path(rect: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        else { return false }
        return true
    }

    /// The stand-in itself, not another picture of its size (an image layer's): the same pixel storage.
    private func isStandIn(_ image: RasterImage) -> Bool {
        guard image.width == width && image.height == height else { return false }
        return image.pixels.withUnsafeBufferPointer { a in
            standIn.pixels.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
        }
    }
}
