/// Where each layer lies on a frame: its bounds in device pixels, for the preview's outlines and the
/// layer under the pointer (`CALayer.hitTest`'s rules).
import ReelGeometry
import ReelScene

/// One layer's place on a frame.
public struct LayerOutline: Sendable, Equatable {
    public var name: String
    /// Its bounds' corners in device pixels (top-left, top-right, bottom-right, bottom-left of the
    /// bounds as the layer sees them). A shape layer with empty bounds, as shape layers often have,
    /// gives its path's box instead: what it draws is what a user points at. Nil when nothing of it
    /// is on screen: hidden, fully transparent, under such a layer or a clip of empty bounds, empty,
    /// or partly behind the viewer in perspective (or placed absurdly far off the frame).
    public var corners: [Point]?
    /// Its place in drawing order: a layer with a higher one is drawn over it.
    public var order: Int
    /// The nearest layer above it in the tree that clips it (`masksToBounds`), as an index into the
    /// same list: a point outside that layer's bounds cannot be on this one.
    public var clippedBy: Int?
    /// A mask (or a layer under one) is not drawn itself and is never the layer under the pointer.
    public var inMask: Bool
}

extension SceneRenderer {
    /// Every layer of `snapshot`, in the order `Layer.flattened()` lists the model (each layer, its
    /// sublayers, then its mask): the same rows `reel preview`'s timeline shows. A replicator's
    /// sublayers are placed as its first instance.
    public static func outlines(of snapshot: Snapshot, scene: Scene) -> [LayerOutline] {
        var out: [LayerOutline] = []
        // Each row's sublayers' rows with their zPositions: to number them in drawing order once
        // every row is listed.
        var sublayers: [[(row: Int, z: Double)]] = []
        func visit(
            _ layer: PresentationLayer, _ parentToDevice: Transform3D, shown: Bool, clippedBy: Int?, inMask: Bool
        ) -> Int {
            let index = out.count
            let toDevice = layer.toParent.concatenating(parentToDevice)
            // A layer that clips to empty bounds draws nothing, itself included (SceneRenderer clips to them).
            let shown =
                shown && !layer.hidden && layer.opacity > 0 && toDevice.isFinite
                && !(layer.masksToBounds && layer.bounds.isEmpty)
            var box: Rect? = layer.bounds.isEmpty ? nil : layer.bounds
            if box == nil, layer.type == .shape, let b = layer.shape.path.controlPointBounds, b.width > 0 || b.height > 0 {
                box = b
            }
            var corners: [Point]?
            if shown, let b = box {
                let points = [
                    Point(x: b.minX, y: b.minY), Point(x: b.maxX, y: b.minY), Point(x: b.maxX, y: b.maxY),
                    Point(x: b.minX, y: b.maxY),
                ]
                // Behind the viewer (w ≤ 0) a corner has no place on the frame; far beyond it, none worth
                // naming (and JSON could not carry it).
                let inFront = points.allSatisfy { p in p.x * toDevice.m14 + p.y * toDevice.m24 + toDevice.m44 > 0 }
                let c = points.map(toDevice.apply)
                if inFront, c.allSatisfy({ abs($0.x) < 1e7 && abs($0.y) < 1e7 }) { corners = c }
            }
            out.append(LayerOutline(name: layer.name, corners: corners, order: 0, clippedBy: clippedBy, inMask: inMask))
            sublayers.append([])
            let child = layer.sublayerToParent.concatenating(toDevice)
            let clip = layer.masksToBounds && corners != nil ? index : clippedBy
            for s in layer.sublayers {
                let row = visit(s, child, shown: shown, clippedBy: clip, inMask: inMask)
                sublayers[index].append((row, s.zPosition))
            }
            if let mask = layer.mask { _ = visit(mask, toDevice, shown: shown, clippedBy: clip, inMask: true) }
            return index
        }
        let toPixels = Transform3D.scale(scene.scale, scene.scale, 1)
        let roots = snapshot.layers.map {
            (row: visit($0, toPixels, shown: true, clippedBy: nil, inMask: false), z: $0.zPosition)
        }
        // Drawing order, as SceneRenderer draws: a layer, then its sublayers by zPosition (equal ones
        // in their order); masks last, as they are never drawn themselves.
        var order = 0
        func number(_ rows: [(row: Int, z: Double)]) {
            let sorted = rows.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }
            for (_, r) in sorted {
                out[r.row].order = order
                order += 1
                number(sublayers[r.row])
            }
        }
        number(roots)
        for row in out.indices where out[row].inMask {
            out[row].order = order
            order += 1
        }
        return out
    }
}
