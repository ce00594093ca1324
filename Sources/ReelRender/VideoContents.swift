/// Video layers for the renderer: which pictures a snapshot needs (decoded ahead of the frame into its
/// `LayerPictures`), and how many device pixels they cover (the size a decoder scales them to).
import ReelGeometry
import ReelRaster
import ReelScene

/// A picture a snapshot shows: the video layer, its media and the file time on screen.
public struct VideoFrameRequest: Sendable, Equatable {
    public var layer: String
    public var playback: VideoPlayback
    public var fileTime: Double
}

extension SceneRenderer {
    /// The pictures `snapshot` shows, each once, in a walk of the tree `emit` draws (sublayers, every
    /// replicator instance, masks; hidden and transparent subtrees skipped, as `emit` skips them): what a
    /// frame's media stage decodes before its display list is made. The file times are the ones `emit`
    /// looks up, computed by the same function from the same presentation layers, so each is found exactly.
    public static func videoFrames(in snapshot: Snapshot) -> [VideoFrameRequest] {
        var out: [VideoFrameRequest] = []
        var seen: Set<LayerPictures.Key> = []
        forEachDrawnLayer(in: snapshot) { layer in
            if layer.type == .video, let playback = layer.properties.video, !layer.properties.bounds.isEmpty {
                let t = playback.fileTime(atLayerTime: layer.time)
                if seen.insert(LayerPictures.Key(layer: layer.name, fileTime: t)).inserted {
                    out.append(VideoFrameRequest(layer: layer.name, playback: playback, fileTime: t))
                }
            }
        }
        return out
    }

    /// Every layer of the snapshot `emit` may draw, in its walk's order: sublayers, every replicator
    /// instance, masks; hidden and transparent subtrees skipped, as `emit` skips them. What a frame's
    /// media stage asks for is found by this walk.
    static func forEachDrawnLayer(in snapshot: Snapshot, _ body: (PresentationLayer) -> Void) {
        func visit(_ layer: PresentationLayer) {
            guard !layer.properties.hidden, layer.properties.opacity > 0 else { return }
            body(layer)
            for s in layer.sublayers { visit(s) }
            for instance in layer.instances.dropFirst() { for s in instance { visit(s) } }
            if let mask = layer.mask { visit(mask) }
        }
        for i in snapshot.top.indices { snapshot.top.withLayer(at: i) { visit($0) } }
    }

    /// For each video layer of the snapshot: device pixels per pixel of its picture as displayed, at the
    /// largest the layer's transforms and bounds make it (1 draws it pixel for pixel). Perspective is
    /// taken at its affine part.
    public static func videoPixelScales(in snapshot: Snapshot, scene: Scene) -> [String: Double] {
        var out: [String: Double] = [:]
        func visit(_ layer: PresentationLayer, _ parentToDevice: Transform3D) {
            let toDevice = layer.toParent.concatenating(parentToDevice)
            if layer.type == .video, let playback = layer.properties.video, playback.size.width > 0, playback.size.height > 0 {
                let natural = Size(
                    width: playback.size.width / layer.properties.contentsScale,
                    height: playback.size.height / layer.properties.contentsScale)
                let place = layer.properties.contentsGravity.frame(for: natural, in: layer.properties.bounds)
                let fit = max(place.width / playback.size.width, place.height / playback.size.height)
                let scale = fit * (toDevice.isFinite ? toDevice.affine.maxScale : 1)
                if scale.isFinite { out[layer.name] = max(out[layer.name] ?? 0, scale) }
            }
            let child = layer.sublayerToParent.concatenating(toDevice)
            for s in layer.sublayers { visit(s, child) }
            for instance in layer.instances.dropFirst() { for s in instance { visit(s, child) } }
            if let mask = layer.mask { visit(mask, toDevice) }
        }
        for i in snapshot.top.indices { snapshot.top.withLayer(at: i) { visit($0, .scale(scene.scale, scene.scale, 1)) } }
        return out
    }
}

extension PresentationLayer {
    /// Its own coordinates to its superlayer's (CORE-ANIMATION.md §8.2): q ↦ ((q − ap)·self.transform) +
    /// (position, self.zPosition), with the anchor point ap = bounds.origin + anchorPoint ⊙ bounds.size.
    var toParent: Transform3D {
        Transform3D.translation(-anchor.x, -anchor.y).concatenating(properties.transform)
            .concatenating(.translation(properties.position.x, properties.position.y, properties.zPosition))
    }

    /// Its sublayers' coordinates to its own: sublayerTransform about the same pivot, T(−ap)·S·T(ap).
    var sublayerToParent: Transform3D {
        properties.sublayerTransform.isIdentity
            ? .identity
            : Transform3D.translation(-anchor.x, -anchor.y).concatenating(properties.sublayerTransform).concatenating(
                .translation(anchor.x, anchor.y))
    }

    var anchor: Point {
        Point(
            x: properties.bounds.origin.x + properties.anchorPoint.x * properties.bounds.size.width,
            y: properties.bounds.origin.y + properties.anchorPoint.y * properties.bounds.size.height)
    }
}
