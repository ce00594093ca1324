/// Layer effects (`ef`): the Drop Shadow effect as Core Animation's layer shadow, the Gaussian Blur,
/// Tint and Fill effects as layer filters, one wrapping layer an effect so that each acts on what the ones before it
/// drew, as After Effects stacks them; any other effect is one note naming it.
import Foundation
import ReelAnimation
import ReelGeometry
import ReelScene

extension LottieImporter {
    /// `content` with the layer's effects applied (in the layer's own space, so they turn and scale with it).
    mutating func effects(_ list: [LottieEffect], _ content: [Layer], path: String, time: TimeMap, name: String) -> [Layer] {
        var out = content
        for (i, effect) in list.enumerated() {
            let p = "\(path).ef[\(i)]"
            guard effect.enabled else { continue }
            if effect.type == 29 {
                out = [gaussianBlur(effect, out, path: p, time: time, name: name)]
                continue
            }
            if effect.type == 20 || effect.type == 21 {
                out = [colorEffect(effect, out, time: time, name: name)]
                continue
            }
            guard effect.type == 25 else {
                let label = effect.name.map { " (\"\($0)\")" } ?? ""
                warn(p, "the effect\(label) is not supported and is ignored")
                continue
            }
            // Parameters by position: colour, opacity (0…255), direction (degrees clockwise from up),
            // distance, softness, shadow only.
            let params = effect.parameters
            func value(_ k: Int) -> Property? { k < params.count ? params[k] : nil }
            if value(5)?.value.first == 1 { warn(p, "a drop shadow drawn alone (Shadow Only) is drawn with its layer") }
            let color = value(0) ?? Property([0, 0, 0, 1]), opacity = value(1) ?? Property([127.5])
            let direction = value(2) ?? Property([135]), distance = value(3) ?? Property([5]),
                softness = value(4) ?? Property([0])
            var shadowed = Layer(name: unique("\(name)/drop shadow"))
            shadowed.sublayers = out
            func offset(_ f: Double) -> Point {
                let a = (direction.value(at: f).first ?? 0) * .pi / 180, d = distance.value(at: f).first ?? 0
                return Point(x: d * sin(a), y: -d * cos(a))
            }
            func shadowColor(_ f: Double) -> Color { Self.color(color.value(at: f), alpha: 1) }
            func shadowOpacity(_ f: Double) -> Double { min(max((opacity.value(at: f).first ?? 0) / 255, 0), 1) }
            // After Effects' softness is a blur about four standard deviations wide (as lottie-web draws it).
            func radius(_ f: Double) -> Double { max(softness.value(at: f).first ?? 0, 0) / Self.softnessPerSigma }
            let first = [color, opacity, direction, distance, softness].compactMap { $0.keyframes.first?.frame }.min() ?? 0
            shadowed.shadowColor = shadowColor(first)
            shadowed.shadowOpacity = shadowOpacity(first)
            shadowed.shadowOffset = offset(first)
            shadowed.shadowRadius = radius(first)
            let moving = [color, opacity, direction, distance, softness].filter(\.isAnimated)
            if !moving.isEmpty {
                var all = Property([0])
                all.keyframes = Set(moving.flatMap { $0.keyframes.map(\.frame) }).sorted().map {
                    Keyframe(frame: $0, value: [$0])
                }
                let keyed: [(String, (Double) -> AnimatableValue)] = [
                    ("shadowColor", { .color(shadowColor($0)) }), ("shadowOpacity", { .number(shadowOpacity($0)) }),
                    ("shadowOffset", { .point(offset($0)) }), ("shadowRadius", { .number(radius($0)) }),
                ]
                for (key, make) in keyed {
                    if let a = Self.sampled(all, time, make) { shadowed.addAnimation(.keyframe(a.with(keyPath: key))) }
                }
            }
            out = [shadowed]
        }
        return out
    }

    /// Softness over the shadow's standard deviation.
    static let softnessPerSigma = 4.0

    /// The Gaussian Blur effect as a layer filter on a layer wrapping `content` (what the effects before it
    /// drew): parameters by position, blurriness, dimensions (1 both, 2 across, 3 down), repeat edge pixels.
    mutating func gaussianBlur(_ effect: LottieEffect, _ content: [Layer], path p: String, time: TimeMap, name: String)
        -> Layer
    {
        let params = effect.parameters
        let blurriness = params.first.flatMap { $0 } ?? Property([0])
        if params.count > 1, let d = params[1]?.value.first, d != 1 {
            warn(p, "a Gaussian blur in one direction only is drawn in both")
        }
        func radius(_ f: Double) -> Double { max(blurriness.value(at: f).first ?? 0, 0) * Self.sigmaPerBlurriness }
        var blurred = Layer(name: unique("\(name)/gaussian blur"))
        blurred.sublayers = content
        var filter = LayerFilter(.gaussianBlur, name: "blur")
        filter.inputRadius = radius(blurriness.keyframes.first?.frame ?? 0)
        blurred.filters = [filter]
        if blurriness.isAnimated, let a = Self.sampled(blurriness, time, { .number(radius($0)) }) {
            blurred.addAnimation(.keyframe(a.with(keyPath: "filters.blur.inputRadius")))
        }
        return blurred
    }

    /// The Tint (20) and Fill (21) effects as a colour matrix on a layer wrapping `content`. Tint, by
    /// position: map black to, map white to, amount (0…100): each colour goes toward black + luma ·
    /// (white − black) by the amount (luma of Rec. 709's weights). Fill: fill mask, all masks, colour,
    /// invert, feathers, opacity (0…1): the colour replaces the layer's, its alpha scaled by the opacity.
    mutating func colorEffect(_ effect: LottieEffect, _ content: [Layer], time: TimeMap, name: String) -> Layer {
        let params = effect.parameters
        func param(_ k: Int) -> Property? { k < params.count ? params[k] : nil }
        let tint = effect.type == 20
        let inputs = tint ? [param(0), param(1), param(2)] : [param(2), param(6)]
        func matrix(_ f: Double) -> LayerFilter {
            var m = LayerFilter(.colorMatrix, name: tint ? "tint" : "fill")
            if tint {
                let black = inputs[0]?.value(at: f) ?? [0, 0, 0], white = inputs[1]?.value(at: f) ?? [1, 1, 1]
                let amount = min(max((inputs[2]?.value(at: f).first ?? 100) / 100, 0), 1)
                let luma = [0.2126, 0.7152, 0.0722]
                func row(_ c: Int) -> [Double] {
                    let span = (c < white.count ? white[c] : 1) - (c < black.count ? black[c] : 0)
                    return (0..<3).map { k in (k == c ? 1 - amount : 0) + amount * span * luma[k] } + [0]
                }
                (m.inputRVector, m.inputGVector, m.inputBVector) = (row(0), row(1), row(2))
                m.inputBiasVector = (0..<3).map { c in amount * (c < black.count ? black[c] : 0) } + [0]
            } else {
                let colour = inputs[0]?.value(at: f) ?? [1, 0, 0], opacity = min(max(inputs[1]?.value(at: f).first ?? 1, 0), 1)
                (m.inputRVector, m.inputGVector, m.inputBVector) = ([0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0])
                m.inputAVector = [0, 0, 0, opacity]
                m.inputBiasVector = (0..<3).map { c in c < colour.count ? colour[c] : 0 } + [0]
            }
            return m
        }
        var wrapped = Layer(name: unique("\(name)/\(tint ? "tint" : "fill")"))
        wrapped.sublayers = content
        let moving = inputs.compactMap { $0 }.filter(\.isAnimated)
        wrapped.filters = [matrix(moving.compactMap { $0.keyframes.first?.frame }.min() ?? 0)]
        if !moving.isEmpty {
            var all = Property([0])
            all.keyframes = Set(moving.flatMap { $0.keyframes.map(\.frame) }).sorted().map { Keyframe(frame: $0, value: [$0]) }
            let keyed: [(FilterInput, (LayerFilter) -> [Double])] = [
                (.inputRVector, \.inputRVector), (.inputGVector, \.inputGVector), (.inputBVector, \.inputBVector),
                (.inputAVector, \.inputAVector), (.inputBiasVector, \.inputBiasVector),
            ]
            for (input, read) in keyed {
                let path = FilterKeyPath(name: tint ? "tint" : "fill", input: input).rawValue
                if let a = Self.sampled(all, time, { .numbers(read(matrix($0))) }) {
                    wrapped.addAnimation(.keyframe(a.with(keyPath: path)))
                }
            }
        }
        return wrapped
    }

    /// The blur's standard deviation per unit of After Effects' blurriness, as ThorVG (the reference)
    /// draws it: a Gaussian fitted to its blur of a square at blurriness 10, 20 and 40 has σ = 0.21, 0.23
    /// and 0.24 × the blurriness (it blurs by box passes); 0.24 matches its frames at 45.9–53.3 dB. lottie-web
    /// takes 0.3.
    static let sigmaPerBlurriness = 0.24
}
