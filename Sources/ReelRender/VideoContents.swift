/// Video layers for the renderer: where their frames come from, and how many device pixels their
/// pictures cover (the size a decoder scales them to).
import ReelGeometry
import ReelRaster
import ReelScene

/// Gives a video layer's picture at the time its presentation was sampled at (`layer.time`, its own
/// time), or nil when there is none to draw. Called from several render threads at once.
public protocol VideoFrameSource: Sendable {
    func image(for layer: PresentationLayer) -> RasterImage?
}

extension SceneRenderer {
    /// For each video layer of the snapshot: device pixels per pixel of its picture as displayed, at the
    /// largest the layer's transforms and bounds make it (1 draws it pixel for pixel). Perspective is
    /// taken at its affine part.
    public static func videoPixelScales(in snapshot: Snapshot, scene: Scene) -> [String: Double] {
        var out: [String: Double] = [:]
        func visit(_ layer: PresentationLayer, _ parentToDevice: Transform3D) {
            let toDevice = layer.toParent.concatenating(parentToDevice)
            if layer.type == .video, let playback = layer.video, playback.size.width > 0, playback.size.height > 0 {
                let natural = Size(
                    width: playback.size.width / layer.contentsScale, height: playback.size.height / layer.contentsScale)
                let place = layer.contentsGravity.frame(for: natural, in: layer.bounds)
                let fit = max(place.width / playback.size.width, place.height / playback.size.height)
                let scale = fit * (toDevice.isFinite ? toDevice.affine.maxScale : 1)
                if scale.isFinite { out[layer.name] = max(out[layer.name] ?? 0, scale) }
            }
            let child = layer.sublayerToParent.concatenating(toDevice)
            for s in layer.sublayers { visit(s, child) }
            for instance in layer.instances.dropFirst() { for s in instance { visit(s, child) } }
            if let mask = layer.mask { visit(mask, toDevice) }
        }
        for layer in snapshot.layers { visit(layer, .scale(scene.scale, scene.scale, 1)) }
        return out
    }
}

extension PresentationLayer {
    /// Its own coordinates to its superlayer's (CORE-ANIMATION.md §8.2): q ↦ ((q − ap)·self.transform) +
    /// (position, self.zPosition), with the anchor point ap = bounds.origin + anchorPoint ⊙ bounds.size.
    var toParent: Transform3D {
        Transform3D.translation(-anchor.x, -anchor.y).concatenating(self.transform)
            .concatenating(.translation(self.position.x, self.position.y, self.zPosition))
    }

    /// Its sublayers' coordinates to its own: sublayerTransform about the same pivot, T(−ap)·S·T(ap).
    var sublayerToParent: Transform3D {
        self.sublayerTransform.isIdentity
            ? .identity
            : Transform3D.translation(-anchor.x, -anchor.y).concatenating(self.sublayerTransform).concatenating(
                .translation(anchor.x, anchor.y))
    }

    var anchor: Point {
        Point(
            x: self.bounds.origin.x + self.anchorPoint.x * self.bounds.size.width,
            y: self.bounds.origin.y + self.anchorPoint.y * self.bounds.size.height)
    }
}
