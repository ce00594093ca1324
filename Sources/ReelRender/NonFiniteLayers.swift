/// Which layers a frame cannot be drawn for: the rasterizer refuses a path that a transform pushed past
/// the largest Double by its draw command's number, which tells a user nothing; this finds the layer
/// whose geometry goes non-finite once placed on the frame, so the error can name it (for an imported
/// SVG, the element: its id or its place in the file); and the layers whose SVG filters a frame holds
/// when they cover too many pixels together.
import ReelGeometry
import ReelScene

extension SceneRenderer {
    /// The name of the first layer (the tree walked as it is drawn: a layer, its sublayers, its mask)
    /// whose path or bounds have a coordinate that is infinite or NaN in device pixels; nil when none
    /// has. Walked only after a frame failed, so it costs nothing while frames draw.
    public static func firstNonFiniteLayer(in snapshot: Snapshot, scene: Scene) -> String? {
        func visit(_ layer: PresentationLayer, _ parentToDevice: Transform3D) -> String? {
            guard !layer.hidden, layer.opacity > 0 else { return nil }
            let toDevice = layer.toParent.concatenating(parentToDevice)
            // A transform that is itself non-finite is skipped when drawing (`emit`): not the culprit.
            guard toDevice.isFinite else { return nil }
            if layer.type == .shape, !layer.shape.path.isEmpty, !layer.shape.path.applying(toDevice).isFinite {
                return layer.name
            }
            let drawsBounds =
                layer.backgroundColor != nil || layer.masksToBounds || layer.contents != nil || layer.borderWidth > 0
            if drawsBounds, !layer.bounds.isEmpty, !Path(rect: layer.bounds).applying(toDevice).isFinite {
                return layer.name
            }
            let childToDevice = layer.sublayerToParent.concatenating(toDevice)
            for sublayer in layer.sublayers {
                if let name = visit(sublayer, childToDevice) { return name }
            }
            return layer.mask.flatMap { visit($0, toDevice) }
        }
        let toPixels = Transform3D.scale(scene.scale, scene.scale, 1)
        for i in snapshot.top.indices {
            if let name = snapshot.top.withLayer(at: i, { visit($0, toPixels) }) { return name }
        }
        return nil
    }

    /// The names of the shown layers with SVG filter effects at this time, in drawing order: the
    /// layers a frame's filter regions add up over.
    public static func filteredLayers(in snapshot: Snapshot) -> [String] {
        var names: [String] = []
        func visit(_ layer: PresentationLayer) {
            guard !layer.hidden, layer.opacity > 0 else { return }
            if !layer.filterEffects.isEmpty { names.append(layer.name) }
            for sublayer in layer.sublayers { visit(sublayer) }
            layer.mask.map(visit)
        }
        for i in snapshot.top.indices { snapshot.top.withLayer(at: i) { visit($0) } }
        return names
    }
}
