import ReelGeometry
import ReelRaster
import ReelScene

/// Turns a snapshot into a display list in device pixels, and into a frame.
public struct SceneRenderer: Sendable {
    public var rasterizer: Rasterizer

    public init(rasterizer: Rasterizer = Rasterizer()) {
        self.rasterizer = rasterizer
    }

    /// Layer geometry as CORE-ANIMATION.md §8.2 defines it (no transform yet): the bounds rectangle is
    /// placed so that its anchor point sits at `position`; points are scaled to pixels by `scale`.
    public static func displayList(for snapshot: Snapshot, scene: Scene) -> DisplayList {
        var list = DisplayList(background: scene.background)
        let toPixels = Transform2D.scale(x: scene.scale, y: scene.scale)
        for layer in snapshot.layers {
            guard !layer.hidden, layer.opacity > 0, let color = layer.backgroundColor, color.alpha > 0 else { continue }
            let size = layer.bounds.size
            let origin = Point(
                x: layer.position.x - layer.anchorPoint.x * size.width,
                y: layer.position.y - layer.anchorPoint.y * size.height)
            let rect = Rect(origin: origin, size: size)
            guard !rect.isEmpty else { continue }
            let path = Path(roundedRect: rect, cornerRadius: layer.cornerRadius).applying(toPixels)
            list.commands.append(.fill(path: path, color: color, opacity: min(max(layer.opacity, 0), 1)))
        }
        return list
    }

    public func frame(for scene: Scene, at time: Double) throws(RasterError) -> Frame {
        let list = Self.displayList(for: scene.sample(at: time), scene: scene)
        return try rasterizer.render(list, width: scene.pixelWidth, height: scene.pixelHeight)
    }
}
