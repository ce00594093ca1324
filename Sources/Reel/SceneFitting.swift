/// `--size`: a scene fitted into a fixed canvas of pixels, centred and letterboxed.
import ReelGeometry
import ReelScene

extension Scene {
    /// The clip scaled to fit `width × height` pixels and centred on its own background (letterboxed);
    /// what lies outside the original canvas stays hidden: covered by bars of the background colour when
    /// it is opaque (cheap: four fills), clipped when it is not (an offscreen group).
    public func fitted(pixelWidth: Int, pixelHeight: Int) -> Scene {
        let k = min(Double(pixelWidth) / width, Double(pixelHeight) / height)
        var out = self
        out.scale = k
        out.width = Double(pixelWidth) / k
        out.height = Double(pixelHeight) / k
        var frame = Layer(name: "reel.fit")
        frame.bounds = Rect(x: 0, y: 0, width: width, height: height)
        frame.position = Point(x: out.width / 2, y: out.height / 2)
        frame.sublayers = layers
        out.layers = [frame]
        let mx = (out.width - width) / 2, my = (out.height - height) / 2
        if background.alpha >= 1 {
            // Bars over the margins, a point past the canvas edge each way against anti-aliasing seams.
            for (i, r) in [
                Rect(x: -1, y: -1, width: out.width + 2, height: my + 1),
                Rect(x: -1, y: my + height, width: out.width + 2, height: my + 1),
                Rect(x: -1, y: -1, width: mx + 1, height: out.height + 2),
                Rect(x: mx + width, y: -1, width: mx + 1, height: out.height + 2),
            ].enumerated() where r.width > 1 && r.height > 1 {
                var bar = Layer(name: "reel.fit.bar\(i)")
                bar.bounds = Rect(x: 0, y: 0, width: r.width, height: r.height)
                bar.position = Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2)
                bar.backgroundColor = background
                out.layers.append(bar)
            }
        } else {
            out.layers[0].masksToBounds = true
        }
        return out
    }
}
