/// Repeaters (`rp`): what the items before one draw, copied `c` times, copy n moved by the repeater's
/// transform taken n times (n counted from the offset `o`) and faded from its start to its end opacity.
import Foundation
import ReelAnimation
import ReelGeometry
import ReelScene

extension LottieImporter {
    /// The copies of `content` (bottom first), or `content` alone when the repeater makes none.
    mutating func repeated(
        _ content: [Layer], _ rp: LottieShapeItem.Repeater, path: String, time: TimeMap, name: String
    ) -> [Layer] {
        let copyCount = rp.copies ?? Property([1])
        let offset = rp.offset ?? Property([0])
        let tr = rp.transform
        let parts = [tr?.position, tr?.anchor, tr?.scale, tr?.rotation, tr?.startOpacity, tr?.endOpacity].compactMap { $0 }
        let moving = ([copyCount, offset] + parts).filter(\.isAnimated)
        // As many copies as the count ever asks for; those past it at a frame are see-through then.
        let most = ([copyCount.value] + copyCount.keyframes.map(\.value)).map { $0.first ?? 1 }.max() ?? 1
        let copies = most.isFinite ? Int(min(max(most.rounded(.up), 0), Double(LottieLimits.maximumCopies))) : 0
        if most > Double(LottieLimits.maximumCopies) {
            warn(path, "a repeater's copies past \(LottieLimits.maximumCopies) are left out")
        }
        guard copies > 0 else { return [] }
        // Each copy is all of the content's layers again: they count toward the file's limit.
        let size = content.reduce(0) { $0 + $1.flattened().count }
        var out: [Layer] = []
        for k in 0..<copies {
            items += size
            guard count() else { break }
            var copy = Layer(name: unique("\(name)/copy \(k)"))
            copy.anchorPoint = .zero
            // Every copy's layers are named apart (`name#2`…), so that each can be found and animated.
            copy.sublayers = k == 0 ? content : content.map { renamed($0) }
            let frame = moving.flatMap { $0.keyframes.map(\.frame) }.min() ?? 0
            copy.transform = Transform3D(Self.copyPlacement(tr, copy: k, offset: offset.value(at: frame).first ?? 0, at: frame))
            copy.opacity = Self.repeatOpacity(tr, copy: k, of: copyCount.value(at: frame).first ?? 1, at: frame)
            if !moving.isEmpty {
                var all = Property([0])
                all.keyframes = Set(moving.flatMap { $0.keyframes.map(\.frame) }).sorted().map {
                    Keyframe(frame: $0, value: [$0])
                }
                if let a = Self.sampled(
                    all, time,
                    { .transform(Transform3D(Self.copyPlacement(tr, copy: k, offset: offset.value(at: $0).first ?? 0, at: $0))) })
                {
                    copy.addAnimation(.keyframe(a.with(keyPath: "transform")))
                }
                if let a = Self.sampled(
                    all, time, { .number(Self.repeatOpacity(tr, copy: k, of: copyCount.value(at: $0).first ?? 1, at: $0)) })
                {
                    copy.addAnimation(.keyframe(a.with(keyPath: "opacity")))
                }
            }
            out.append(copy)
        }
        // Composite 2 puts each copy below the one before it.
        return rp.below ? out.reversed() : out
    }

    /// The tree with each layer given the next free name after its own.
    mutating func renamed(_ layer: Layer) -> Layer {
        var out = layer
        var k = nextSuffix[layer.name, default: 2]
        while !names.insert("\(layer.name)#\(k)").inserted { k += 1 }
        nextSuffix[layer.name] = k + 1
        out.name = "\(layer.name)#\(k)"
        out.sublayers = layer.sublayers.map { renamed($0) }
        out.mask = layer.mask.map { renamed($0) }
        return out
    }

    /// Copy k's placement: q ↦ n·p + a + S(sⁿ)·R(n·r)·(q − a), n = offset + k (as ThorVG composes it).
    static func copyPlacement(_ tr: LottieTransform?, copy k: Int, offset: Double, at f: Double) -> Transform2D {
        let n = offset + Double(k)
        let p = tr?.position?.value(at: f) ?? [0, 0]
        let a = tr?.anchor?.value(at: f) ?? [0, 0]
        let s = tr?.scale?.value(at: f) ?? [100, 100]
        let r = (tr?.rotation?.value(at: f).first ?? 0) * n * .pi / 180
        let ax = a.first ?? 0, ay = a.count > 1 ? a[1] : 0
        let sx = pow((s.first ?? 100) / 100, n), sy = pow((s.count > 1 ? s[1] : 100) / 100, n)
        let rotation = Transform2D.rotation(r)
        return Transform2D.translation(x: -ax, y: -ay)
            .concatenating(rotation)
            .concatenating(.scale(x: sx.isFinite ? sx : 0, y: sy.isFinite ? sy : 0))
            .concatenating(.translation(x: n * (p.first ?? 0) + ax, y: n * (p.count > 1 ? p[1] : 0) + ay))
    }

    /// Copy k of `count`'s opacity: the start opacity to the end one, evenly; none past the count.
    static func repeatOpacity(_ tr: LottieTransform?, copy k: Int, of count: Double, at f: Double) -> Double {
        guard Double(k) < count else { return 0 }
        let so = (tr?.startOpacity?.value(at: f).first ?? 100) / 100
        let eo = (tr?.endOpacity?.value(at: f).first ?? 100) / 100
        let whole = count.rounded(.up)
        let o = whole > 1 ? so + (eo - so) * Double(k) / (whole - 1) : so
        return min(max(o, 0), 1)
    }
}
