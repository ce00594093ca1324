/// SVG filter effects evaluated on a group's picture over the filter region: each primitive's inputs in
/// its colour space, its result kept to its subregion, the last result in sRGB (resvg's order of
/// operations, which the corpus's references were drawn with); the primitives' kernels are beside it.
import Foundation
import ReelGeometry

/// A filter effect ready to run: in device space, with its region and subregions as whole pixels.
struct EffectPlan: Equatable {
    let effect: FilterEffect
    /// The region's pixels: x0 ..< x1, y0 ..< y1.
    let x0, y0, x1, y1: Int
    /// The pictures its image primitives name.
    let images: [String: RasterImage]

    /// Nil when the region holds no pixel. A rectangle's whole pixels start at its floored corner and
    /// span its ceiled size (as resvg takes them), so a region at x = 0.5 of width 10 covers 0 ..< 10.
    init?(_ effect: FilterEffect, images: [String: RasterImage] = [:]) {
        guard let r = Self.pixels(effect.region) else { return nil }
        self.effect = effect
        self.images = images
        (x0, y0, x1, y1) = r
    }

    static func pixels(_ r: Rect) -> (Int, Int, Int, Int)? {
        let limit = 1e7
        guard r.minX.isFinite, r.minY.isFinite, r.width.isFinite, r.height.isFinite, r.width > 0, r.height > 0,
            abs(r.minX) < limit, abs(r.minY) < limit, r.width < limit, r.height < limit
        else { return nil }
        let x0 = Int(r.minX.rounded(.down)), y0 = Int(r.minY.rounded(.down))
        return (x0, y0, x0 + max(1, Int(r.width.rounded(.up))), y0 + max(1, Int(r.height.rounded(.up))))
    }
}

extension FilterKernels {
    /// A primitive's result: its pixels over the whole region, the part of them that holds anything
    /// (its subregion, in the region's pixels), and whether its colours are linear-light.
    struct Result {
        var pixels: FilterPixels
        var area: (x0: Int, y0: Int, x1: Int, y1: Int)
        var linear: Bool
    }

    /// The effect's output over `region` (the plan's pixels), from the source picture over the same
    /// pixels: premultiplied sRGB, transparent outside the last primitive's subregion.
    static func evaluate(_ plan: EffectPlan, source: FilterPixels) -> FilterPixels {
        let w = plan.x1 - plan.x0, h = plan.y1 - plan.y0
        let whole = (x0: 0, y0: 0, x1: w, y1: h)
        var results: [Result] = []
        var sourceAlpha: Result?
        func input(_ i: FilterPrimitive.Input) -> Result {
            switch i {
            case .sourceGraphic: return Result(pixels: source, area: whole, linear: false)
            case .sourceAlpha:
                if let sourceAlpha { return sourceAlpha }
                var p = source
                for k in stride(from: 0, to: p.bytes.count, by: 4) {
                    p.bytes[k] = 0
                    p.bytes[k + 1] = 0
                    p.bytes[k + 2] = 0
                }
                sourceAlpha = Result(pixels: p, area: whole, linear: false)
                return sourceAlpha ?? Result(pixels: p, area: whole, linear: false)
            case .result(let index):
                return index >= 0 && index < results.count
                    ? results[index] : Result(pixels: source, area: whole, linear: false)
            }
        }
        // Each result is freed after the last primitive reading it (one nothing reads, at once), the
        // filter's own result aside: a region's picture is large.
        var lastUse: [Int: Int] = [:]
        let count = plan.effect.primitives.count
        for (i, p) in plan.effect.primitives.enumerated() {
            lastUse[i] = lastUse[i] ?? i
            for case .result(let r) in p.inputs { lastUse[r] = i }
        }
        for (index, primitive) in plan.effect.primitives.enumerated() {
            defer {
                for (r, last) in lastUse where last == index && r < results.count && r != count - 1 {
                    results[r].pixels = FilterPixels(width: 0, height: 0)
                }
            }
            let linear = primitive.linearRGB
            let inputs = primitive.inputs.map(input)
            func first() -> FilterPixels {
                inputs.first.map { converted($0, linear: linear) } ?? FilterPixels(width: w, height: h)
            }
            // The subregion within the region, in numbers first: a huge one still has its pixels.
            let region = plan.effect.region, wanted = primitive.subregion
            let sx0 = max(wanted.minX, region.minX), sy0 = max(wanted.minY, region.minY)
            let within = Rect(
                x: sx0, y: sy0, width: max(min(wanted.maxX, region.maxX) - sx0, 0),
                height: max(min(wanted.maxY, region.maxY) - sy0, 0))
            var sub =
                EffectPlan.pixels(within).map { r in
                    (x0: max(r.0 - plan.x0, 0), y0: max(r.1 - plan.y0, 0), x1: min(r.2 - plan.x0, w), y1: min(r.3 - plan.y0, h))
                } ?? (x0: 0, y0: 0, x1: 0, y1: 0)
            var out: Result
            switch primitive.operation {
            case .gaussianBlur(let sx, let sy):
                var p = first()
                blur(&p, sigmaX: sx, sigmaY: sy)
                out = Result(pixels: p, area: whole, linear: linear)
            case .offset(let dx, let dy):
                // An offset keeps its input's colours and, read from a named result, its subregion; it is
                // not clipped (resvg).
                let source = inputs.first ?? Result(pixels: FilterPixels(width: w, height: h), area: whole, linear: linear)
                out = Result(
                    pixels: shifted(source.pixels, dx: wholePixels(dx), dy: wholePixels(dy)), area: whole, linear: source.linear)
                if case .result = primitive.inputs.first { sub = source.area }
                results.append(Result(pixels: out.pixels, area: sub, linear: out.linear))
                continue
            case .flood(let c):
                let a = Color.unit(c.alpha)
                let px: [UInt8] =
                    [c.red, c.green, c.blue].map { UInt8((Color.unit($0) * a * 255).rounded()) }
                    + [UInt8((a * 255).rounded())]
                var p = FilterPixels(width: w, height: h)
                for k in stride(from: 0, to: p.bytes.count, by: 4) { p.bytes.replaceSubrange(k..<k + 4, with: px) }
                out = Result(pixels: p, area: whole, linear: false)
            case .merge:
                var p = FilterPixels(width: w, height: h)
                for i in inputs { sourceOver(converted(i, linear: linear), onto: &p) }
                out = Result(pixels: p, area: whole, linear: linear)
            case .blend(let mode):
                var p = inputs.count > 1 ? converted(inputs[1], linear: linear) : FilterPixels(width: w, height: h)
                blend(first(), onto: &p, mode: mode)
                out = Result(pixels: p, area: whole, linear: linear)
            case .composite(let op):
                let below = inputs.count > 1 ? converted(inputs[1], linear: linear) : FilterPixels(width: w, height: h)
                out = Result(pixels: composite(first(), below, op), area: whole, linear: linear)
            case .colorMatrix(let m):
                out = Result(pixels: colorMatrix(first(), m), area: whole, linear: linear)
            case .componentTransfer(let f):
                out = Result(pixels: componentTransfer(f, input: first()), area: whole, linear: linear)
            case .dropShadow(let dx, let dy, let sx, let sy, let color):
                out = Result(
                    pixels: dropShadow(first(), dx: dx, dy: dy, sigmaX: sx, sigmaY: sy, color: color, linear: linear),
                    area: whole, linear: linear)
            case .morphology(let dilate, let rx, let ry):
                out = Result(
                    pixels: morphology(dilate: dilate, radiusX: rx, radiusY: ry, input: first()), area: whole, linear: linear)
            case .tile:
                let source = inputs.first ?? Result(pixels: FilterPixels(width: w, height: h), area: whole, linear: linear)
                out = Result(pixels: tiled(source.pixels, tile: source.area), area: whole, linear: source.linear)
            case .turbulence(let t):
                out = Result(
                    pixels: turbulence(t, originX: plan.x0, originY: plan.y0, width: w, height: h), area: whole, linear: linear)
            case .convolveMatrix(let m):
                out = Result(pixels: convolve(m, input: first()), area: whole, linear: linear)
            case .displacementMap(let sx, let sy, let cx, let cy):
                let map = inputs.count > 1 ? converted(inputs[1], linear: linear) : FilterPixels(width: w, height: h)
                out = Result(
                    pixels: displacementMap(scaleX: sx, scaleY: sy, xChannel: cx, yChannel: cy, input: first(), map: map),
                    area: whole, linear: linear)
            case .lighting(let l):
                out = Result(pixels: lighting(l, input: first(), originX: plan.x0, originY: plan.y0), area: whole, linear: linear)
            case .image(let name, let place):
                // A picture is sRGB, whatever space the primitive works in (resvg).
                var p = FilterPixels(width: w, height: h)
                if let image = plan.images[name] {
                    // Placed from the subregion's whole pixel, as resvg renders it.
                    let snap = Transform2D.translation(
                        x: wanted.minX.rounded(.down) - wanted.minX, y: wanted.minY.rounded(.down) - wanted.minY)
                    drawImage(image, place: place.concatenating(snap), originX: plan.x0, originY: plan.y0, into: &p)
                }
                out = Result(pixels: p, area: whole, linear: false)
            }
            if sub != whole { clear(&out.pixels, outside: sub) }
            out.area = sub
            results.append(out)
        }
        guard let last = results.last else { return FilterPixels(width: w, height: h) }
        return converted(last, linear: false)
    }
}

/// sRGB ↔ linear-light for 8-bit levels (the sRGB transfer curve, rounded to the nearest level).
enum ColorSpaceTables {
    static let toLinear: [UInt8] = (0..<256).map { i in
        let c = Double(i) / 255
        let l = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        return UInt8((l * 255).rounded())
    }
    static let toSRGB: [UInt8] = (0..<256).map { i in
        let l = Double(i) / 255
        let c = l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055
        return UInt8((c * 255).rounded())
    }
}
