/// SVG filter effects evaluated on a group's picture over the filter region: each primitive's inputs in
/// its colour space, its result kept to its subregion, the last result in sRGB (resvg's order of
/// operations, which the corpus's references were drawn with).
import Foundation
import ReelGeometry

/// A filter effect ready to run: in device space, with its region and subregions as whole pixels.
struct EffectPlan: Equatable {
    let effect: FilterEffect
    /// The region's pixels: x0 ..< x1, y0 ..< y1.
    let x0, y0, x1, y1: Int

    /// Nil when the region holds no pixel. A rectangle's whole pixels start at its floored corner and
    /// span its ceiled size (as resvg takes them), so a region at x = 0.5 of width 10 covers 0 ..< 10.
    init?(_ effect: FilterEffect) {
        guard let r = Self.pixels(effect.region) else { return nil }
        self.effect = effect
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
        // Each result is freed after the last primitive reading it: a region's picture is large.
        var lastUse: [Int: Int] = [:]
        for (i, p) in plan.effect.primitives.enumerated() {
            for case .result(let r) in p.inputs { lastUse[r] = i }
        }
        for (index, primitive) in plan.effect.primitives.enumerated() {
            defer {
                for (r, last) in lastUse where last == index && r < results.count - 1 {
                    results[r].pixels = FilterPixels(width: 0, height: 0)
                }
            }
            let linear = primitive.linearRGB
            let inputs = primitive.inputs.map(input)
            func first() -> FilterPixels {
                inputs.first.map { converted($0, linear: linear) } ?? FilterPixels(width: w, height: h)
            }
            var sub =
                EffectPlan.pixels(primitive.subregion).map { r in
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
            }
            if sub != whole { clear(&out.pixels, outside: sub) }
            out.area = sub
            results.append(out)
        }
        guard let last = results.last else { return FilterPixels(width: w, height: h) }
        return converted(last, linear: false)
    }

    /// A result's pixels in the colour space asked for.
    static func converted(_ r: Result, linear: Bool) -> FilterPixels {
        guard r.linear != linear else { return r.pixels }
        let table = linear ? ColorSpaceTables.toLinear : ColorSpaceTables.toSRGB
        var p = r.pixels
        p.bytes.withUnsafeMutableBufferPointer { b in
            for k in stride(from: 0, to: b.count, by: 4) where b[k + 3] != 0 {
                let a = b[k + 3]
                for c in 0..<3 { b[k + c] = premultiply(table[Int(unpremultiply(b[k + c], a))], a) }
            }
        }
        return p
    }

    /// resvg's rounding both ways, so that a conversion there and back lands where its does.
    @inline(__always) static func unpremultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
        a == 0 ? 0 : UInt8(min(255, Float(c) / (Float(a) / 255) + 0.5))
    }

    @inline(__always) static func premultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
        UInt8(Float(c) * (Float(a) / 255) + 0.5)
    }

    /// A distance as whole pixels, truncated toward zero (resvg), held to ±10⁷ (past any region) and NaN
    /// as none, so that no value traps on conversion.
    static func wholePixels(_ d: Double) -> Int { d.isNaN ? 0 : Int(min(max(d, -1e7), 1e7)) }

    /// Transparent outside `area`.
    static func clear(_ p: inout FilterPixels, outside area: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        let w = p.width
        for y in 0..<p.height {
            let inside = y >= area.y0 && y < area.y1
            for x in 0..<w where !inside || x < area.x0 || x >= area.x1 {
                let k = (y * w + x) * 4
                p.bytes[k] = 0
                p.bytes[k + 1] = 0
                p.bytes[k + 2] = 0
                p.bytes[k + 3] = 0
            }
        }
    }

    /// Moved by whole pixels; what comes in from outside is transparent.
    static func shifted(_ p: FilterPixels, dx: Int, dy: Int) -> FilterPixels {
        var out = FilterPixels(width: p.width, height: p.height)
        for y in 0..<p.height {
            let sy = y - dy
            guard sy >= 0, sy < p.height else { continue }
            for x in 0..<p.width {
                let sx = x - dx
                guard sx >= 0, sx < p.width else { continue }
                for c in 0..<4 { out.bytes[(y * p.width + x) * 4 + c] = p.bytes[(sy * p.width + sx) * 4 + c] }
            }
        }
        return out
    }

    /// The tile's pixels repeated over the whole picture, aligned to the tile's own place.
    static func tiled(_ p: FilterPixels, tile: (x0: Int, y0: Int, x1: Int, y1: Int)) -> FilterPixels {
        let tw = tile.x1 - tile.x0, th = tile.y1 - tile.y0
        guard tw > 0, th > 0 else { return FilterPixels(width: p.width, height: p.height) }
        var out = FilterPixels(width: p.width, height: p.height)
        func wrap(_ v: Int, _ n: Int) -> Int { ((v % n) + n) % n }
        for y in 0..<p.height {
            let sy = tile.y0 + wrap(y - tile.y0, th)
            for x in 0..<p.width {
                let sx = tile.x0 + wrap(x - tile.x0, tw)
                for c in 0..<4 { out.bytes[(y * p.width + x) * 4 + c] = p.bytes[(sy * p.width + sx) * 4 + c] }
            }
        }
        return out
    }

    /// `top` source-over onto `p`.
    static func sourceOver(_ top: FilterPixels, onto p: inout FilterPixels) {
        for k in stride(from: 0, to: p.bytes.count, by: 4) {
            let sa = Float(top.bytes[k + 3]) / 255
            guard sa > 0 else { continue }
            for c in 0..<4 {
                p.bytes[k + c] = UInt8(min(255, (Float(top.bytes[k + c]) + Float(p.bytes[k + c]) * (1 - sa)).rounded()))
            }
        }
    }

    /// `top` blended onto `p` by `mode` (the compositing of CSS's blend modes).
    static func blend(_ top: FilterPixels, onto p: inout FilterPixels, mode: FilterBlendMode) {
        let m =
            BlendMode(
                rawValue: mode.rawValue.replacingOccurrences(of: "-d", with: "D")
                    .replacingOccurrences(of: "-b", with: "B").replacingOccurrences(of: "-l", with: "L")) ?? .normal
        for k in stride(from: 0, to: p.bytes.count, by: 4) {
            let s =
                SIMD4<Float>(Float(top.bytes[k]), Float(top.bytes[k + 1]), Float(top.bytes[k + 2]), Float(top.bytes[k + 3])) / 255
            guard s.w > 0 else { continue }
            let d = SIMD4<Float>(Float(p.bytes[k]), Float(p.bytes[k + 1]), Float(p.bytes[k + 2]), Float(p.bytes[k + 3])) / 255
            let cs = SIMD3(s.x, s.y, s.z) / s.w
            let cb = d.w > 0 ? SIMD3(d.x, d.y, d.z) / d.w : SIMD3<Float>(repeating: 0)
            let b = blended(cb, cs, m)
            let rgb = SIMD3(s.x, s.y, s.z) * (1 - d.w) + SIMD3(d.x, d.y, d.z) * (1 - s.w) + b * (s.w * d.w)
            let a = s.w + d.w * (1 - s.w)
            store(SIMD4(rgb.x, rgb.y, rgb.z, a), &p.bytes, k)
        }
    }

    /// Premultiplied channels in 0…1 stored rounded, no colour above its alpha.
    @inline(__always) static func store(_ v: SIMD4<Float>, _ bytes: inout [UInt8], _ k: Int) {
        let a = min(max(v.w, 0), 1)
        for c in 0..<3 { bytes[k + c] = UInt8((min(max(v[c], 0), a) * 255).rounded()) }
        bytes[k + 3] = UInt8((a * 255).rounded())
    }

    /// Porter-Duff with `top` as source and `below` as destination, or the arithmetic combination.
    static func composite(_ top: FilterPixels, _ below: FilterPixels, _ op: FilterComposite) -> FilterPixels {
        var out = FilterPixels(width: top.width, height: top.height)
        for k in stride(from: 0, to: out.bytes.count, by: 4) {
            let s =
                SIMD4<Float>(Float(top.bytes[k]), Float(top.bytes[k + 1]), Float(top.bytes[k + 2]), Float(top.bytes[k + 3])) / 255
            let d =
                SIMD4<Float>(
                    Float(below.bytes[k]), Float(below.bytes[k + 1]), Float(below.bytes[k + 2]), Float(below.bytes[k + 3])) / 255
            let v: SIMD4<Float>
            switch op {
            case .over: v = s + d * (1 - s.w)
            case .in: v = s * d.w
            case .out: v = s * (1 - d.w)
            case .atop: v = s * d.w + d * (1 - s.w)
            case .xor: v = s * (1 - d.w) + d * (1 - s.w)
            case .arithmetic(let k1, let k2, let k3, let k4):
                let r = Float(k1) * s * d + Float(k2) * s + Float(k3) * d + SIMD4(repeating: Float(k4))
                v = r.clamped(lowerBound: .zero, upperBound: .one)
            }
            store(v, &out.bytes, k)
        }
        return out
    }

    /// The matrix on unpremultiplied colour (resvg's rounding on the way in and out).
    static func colorMatrix(_ p: FilterPixels, _ m: [Double]) -> FilterPixels {
        guard m.count == 20 else { return p }
        let f = m.map(Float.init)
        var out = p
        for k in stride(from: 0, to: p.bytes.count, by: 4) {
            let a = p.bytes[k + 3]
            let c =
                SIMD4<Float>(
                    Float(unpremultiply(p.bytes[k], a)), Float(unpremultiply(p.bytes[k + 1], a)),
                    Float(unpremultiply(p.bytes[k + 2], a)), Float(a)) / 255
            var o = SIMD4<Float>.zero
            for r in 0..<4 {
                o[r] = f[r * 5] * c.x + f[r * 5 + 1] * c.y + f[r * 5 + 2] * c.z + f[r * 5 + 3] * c.w + f[r * 5 + 4]
            }
            o = o.clamped(lowerBound: .zero, upperBound: .one) * 255
            let oa = UInt8(o.w.rounded())
            for i in 0..<3 { out.bytes[k + i] = premultiply(UInt8(o[i].rounded()), oa) }
            out.bytes[k + 3] = oa
        }
        return out
    }

    /// The input over its shadow: its alpha blurred, flooded with `color`, offset.
    static func dropShadow(
        _ input: FilterPixels, dx: Double, dy: Double, sigmaX: Double, sigmaY: Double, color: Color, linear: Bool
    ) -> FilterPixels {
        var shadow = input
        blur(&shadow, sigmaX: sigmaX, sigmaY: sigmaY)
        let c = SIMD3(Color.unit(color.red), Color.unit(color.green), Color.unit(color.blue))
        let table = ColorSpaceTables.toLinear
        for k in stride(from: 0, to: shadow.bytes.count, by: 4) {
            let a = UInt8((Double(shadow.bytes[k + 3]) * Color.unit(color.alpha)).rounded())
            for i in 0..<3 {
                let level = UInt8((c[i] * 255).rounded())
                shadow.bytes[k + i] = premultiply(linear ? table[Int(level)] : level, a)
            }
            shadow.bytes[k + 3] = a
        }
        var out = shifted(shadow, dx: wholePixels(dx), dy: wholePixels(dy))
        sourceOver(input, onto: &out)
        return out
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

extension BandPainter {
    /// The group's content with all its filters applied over their area: made by the first band that
    /// needs it, the same pixels for every band.
    func filteredPicture(of group: DrawTree.PreparedGroup, _ evaluated: DrawTree.EvaluatedFilters) -> FilterPixels {
        evaluated.picture.withLock { made in
            if let made { return made }
            let a = evaluated.area
            let picture = withOffscreen(x0: a.x0, y0: a.y0, width: a.x1 - a.x0, rows: a.y1 - a.y0) { c in
                // The band painter's memory holds a band's rows: the area is painted in strips of them
                // where it is no wider than the memory, else by a painter of its own.
                if c.width <= scratch.capacityWidth {
                    var y = c.y0
                    while y < c.y1 {
                        let y1 = min(c.y1, y + scratch.capacityRows)
                        paint(group.content, into: c.view(x0: c.x0, y0: y, x1: c.x1, y1: y1))
                        y = y1
                    }
                } else {
                    withPainter(width: c.width, rows: c.rows) { $0.paint(group.content, into: c) }
                }
                for f in group.filters {
                    if case .effect(let plan) = f {
                        Self.applyEffect(plan, to: c)
                    } else {
                        applyFilters([f], to: c, within: a, needed: a)
                    }
                }
                return FilterPixels(
                    width: c.width, height: c.rows,
                    bytes: Array(UnsafeBufferPointer(start: c.pixels, count: c.width * c.rows * 4)))
            }
            made = picture
            return picture
        }
    }

    /// The effect's output over its region of `c` (which holds the region), transparent around it.
    static func applyEffect(_ plan: EffectPlan, to c: Canvas) {
        let w = plan.x1 - plan.x0, h = plan.y1 - plan.y0
        var source = FilterPixels(width: w, height: h)
        for y in 0..<h {
            let row = c.row(plan.y0 + y) + (plan.x0 - c.x0) * 4
            for k in 0..<(w * 4) { source.bytes[y * w * 4 + k] = row[k] }
        }
        let out = FilterKernels.evaluate(plan, source: source)
        for y in c.y0..<c.y1 {
            let row = c.row(y)
            for x in c.x0..<c.x1 {
                let p = row + (x - c.x0) * 4
                if y >= plan.y0 && y < plan.y1 && x >= plan.x0 && x < plan.x1 {
                    let k = ((y - plan.y0) * w + (x - plan.x0)) * 4
                    for i in 0..<4 { p[i] = out.bytes[k + i] }
                } else {
                    for i in 0..<4 { p[i] = 0 }
                }
            }
        }
    }

    /// The picture's pixels (laid over `area`) where `content` holds them.
    func copy(_ picture: FilterPixels, at area: (x0: Int, y0: Int, x1: Int, y1: Int), into content: Canvas) {
        let x0 = max(area.x0, content.x0), x1 = min(area.x1, content.x1)
        let y0 = max(area.y0, content.y0), y1 = min(area.y1, content.y1)
        guard x0 < x1, y0 < y1 else { return }
        picture.bytes.withUnsafeBufferPointer { b in
            for y in y0..<y1 {
                let from = b.baseAddress! + ((y - area.y0) * picture.width + (x0 - area.x0)) * 4
                (content.row(y) + (x0 - content.x0) * 4).update(from: from, count: (x1 - x0) * 4)
            }
        }
    }
}
