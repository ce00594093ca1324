/// Time remapping (a precomp layer's `tm`): the precomp's content is imported in its own seconds, then
/// every animation in it is keyed again at every frame of the layer, at the content time the remap gives.
import ReelAnimation
import ReelScene

extension LottieImporter {
    /// `content` (keyed in the precomp's own seconds) shown at `inner[k]` seconds of its time at scene
    /// second `outer[k]`, for every frame k of the layer: nothing of a remap maps to Core Animation's
    /// linear timing, so each value is sampled, as the issue asks, never approximated.
    static func remapped(_ content: Layer, inner: [Double], outer: [Double]) -> Layer {
        var layer = content
        for i in layer.attachedAnimations.indices {
            let animation = layer.attachedAnimations[i].animation
            guard let keyPath = LayerKeyPath(rawValue: animation.keyPath), let first = outer.first, let last = outer.last,
                last > first
            else { continue }
            let model = keyPath.get(layer)
            let values = inner.map { animation.value(at: $0, model: model) ?? model }
            var keyed = KeyframeAnimation(
                keyPath: animation.keyPath, values: values, keyTimes: outer.map { ($0 - first) / (last - first) },
                timing: MediaTiming(beginTime: first, duration: last - first, fillMode: .both, removedOnCompletion: false))
            // A switch holds from one frame to the next rather than flipping half way.
            if case .bool = model { keyed.calculationMode = .discrete }
            layer.attachedAnimations[i].animation = .keyframe(keyed)
        }
        layer.mask = layer.mask.map { remapped($0, inner: inner, outer: outer) }
        layer.sublayers = layer.sublayers.map { remapped($0, inner: inner, outer: outer) }
        return layer
    }
}
