/// A layer's masks (`masksProperties`) as one Reel mask layer in the layer's own coordinates: each mask
/// a filled path (its opacity as the fill's alpha, inverted as the path cut out of a large rectangle),
/// combined in order — add as a union, subtract and intersect as groups masked by the next path.
import Foundation
import ReelAnimation
import ReelGeometry
import ReelScene

extension LottieImporter {
    /// Far beyond any canvas: what an inverted mask keeps outside its path.
    static let everywhere = Rect(x: -1e6, y: -1e6, width: 2e6, height: 2e6)

    /// The mask for a layer's masks, or nil when it has none that mask anything.
    mutating func masks(_ list: [LottieMask], path: String, time: TimeMap, name: String) -> Layer? {
        var current: Layer?
        for (i, m) in list.enumerated() {
            let p = "\(path)[\(i)]"
            let mode = m.mode ?? "a"
            guard mode != "n" else { continue }
            if let x = m.expansion, x.isAnimated || x.value.first != 0 {
                warn(p, "mask expansion is not supported yet and is ignored")
            }
            var shape = Layer(name: unique("\(name)/mask \(i)"), type: .shape)
            let outline = m.outline
            let inverted = m.inverted
            func filled(_ path: Path) -> Path {
                guard inverted else { return path }
                var p = Path(rect: Self.everywhere)
                p.addPath(path)
                return p
            }
            shape.shape.path = filled(outline?.path(at: outline?.frames.first?.frame ?? 0) ?? Path())
            shape.shape.fillRule = inverted ? .evenOdd : .nonZero
            if let outline, outline.isAnimated, case .keyframe(var k)? = outline.animation(time) {
                k.values = k.values.map { if case .path(let p) = $0 { return .path(filled(p)) } else { return $0 } }
                shape.addAnimation(.keyframe(k))
            }
            let opacity = m.opacity ?? Property([100])
            shape.shape.fillColor = Color(red: 0, green: 0, blue: 0, alpha: min(max((opacity.value.first ?? 100) / 100, 0), 1))
            if let a = opacity.animation(
                "fillColor", time, { .color(Color(red: 0, green: 0, blue: 0, alpha: min(max(($0.first ?? 100) / 100, 0), 1))) })
            {
                shape.addAnimation(a)
            }
            switch mode {
            case "a", "l", "d", "f":
                if mode != "a" { warn(p, "the mask mode \"\(mode)\" is drawn as add") }
                if var union = current {
                    if union.type == .shape || union.mask != nil {
                        var group = Layer(name: unique("\(name)/masks"))
                        group.sublayers = [union]
                        union = group
                    }
                    union.sublayers.append(shape)
                    current = union
                } else {
                    current = shape
                }
            case "s":
                // What is there so far (everything, for a first mask), less the path: opacity o removes
                // o of what the path covers, which is the inverted alpha of the filled path.
                var group = Layer(name: unique("\(name)/subtracted"))
                group.sublayers = [current ?? Self.everywhereLayer(unique("\(name)/all"))]
                group.mask = shape
                group.maskMode = .alphaInverted
                current = group
            case "i":
                var group = Layer(name: unique("\(name)/intersected"))
                group.sublayers = [current ?? Self.everywhereLayer(unique("\(name)/all"))]
                group.mask = shape
                current = group
            default:
                warn(p, "the mask mode \"\(mode)\" is not supported and is ignored")
            }
        }
        return current
    }

    static func everywhereLayer(_ name: String) -> Layer {
        var all = Layer(name: name, type: .shape)
        all.shape.path = Path(rect: everywhere)
        all.shape.fillColor = .black
        return all
    }
}
