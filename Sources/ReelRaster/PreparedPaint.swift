/// Paints made ready to shade one frame: gradient ramps tabulated and dithered, image transforms
/// inverted for bilinear sampling.
import Foundation
import ReelGeometry

/// A paint made ready for one frame: gradient ramps tabulated, transforms inverted.
enum PreparedPaint: @unchecked Sendable {
    case solid(SIMD4<Float>)
    case gradient(GradientShader)
    case image(ImageShader)

    init?(_ paint: Paint, opacity: Double, ramps: RampCache? = nil) {
        switch paint {
        case .solid(let c):
            let p = c.premultiplied(opacity: opacity)
            guard p.a > 0 else { return nil }
            self = .solid(SIMD4(p.r, p.g, p.b, p.a))
        case .gradient(let g):
            guard let shader = GradientShader(g, opacity: opacity, ramps: ramps) else { return nil }
            self = .gradient(shader)
        case .image(let image, let transform):
            guard let shader = ImageShader(image, transform: transform, opacity: opacity) else { return nil }
            self = .image(shader)
        }
    }
}

/// Ordered-dither offsets in (−½, ½) of one 8-bit level: Bayer 8×8, fixed to the pixel grid so the same
/// pixel always gets the same offset (deterministic across bands and threads, stable across frames).
let ditherOffsets: [Float] = [
    0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26, 12, 44, 4, 36, 14, 46, 6, 38, 60, 28, 52, 20, 62, 30, 54, 22,
    3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25, 15, 47, 7, 39, 13, 45, 5, 37, 63, 31, 55, 23, 61, 29, 53, 21,
].map { (Float($0) + 0.5) / 64 - 0.5 }

/// For four pixels from each place of the 8×8 dither pattern (row · 8 + column): their offsets on the
/// colour lanes, 0 on alpha.
let ditherLanes: [SIMD16<Float>] = (0..<64).map { k in
    let row = k / 8 * 8, column = k % 8
    var v = SIMD16<Float>()
    for p in 0..<4 {
        let d = ditherOffsets[row + (column + p) % 8]
        v[p * 4] = d
        v[p * 4 + 1] = d
        v[p * 4 + 2] = d
    }
    return v
}

/// min(max(v, 0), alpha) lane by lane, a quarter at a time: the compiler makes `maxps`/`minps` of a
/// four-lane `replacing(with:where:)`, where sixteen-lane comparisons (and `pointwiseMin`/`clamped`,
/// generic calls) cost several times as many instructions.
@inline(__always) func clampedToAlpha(_ v: SIMD16<Float>, _ alpha: SIMD16<Float>) -> SIMD16<Float> {
    @inline(__always) func quarter(_ v: SIMD4<Float>, _ a: SIMD4<Float>) -> SIMD4<Float> {
        let p = v.replacing(with: 0, where: v .< 0)
        return p.replacing(with: a, where: p .> a)
    }
    return SIMD16(
        lowHalf: SIMD8(
            lowHalf: quarter(v.lowHalf.lowHalf, alpha.lowHalf.lowHalf),
            highHalf: quarter(v.lowHalf.highHalf, alpha.lowHalf.highHalf)),
        highHalf: SIMD8(
            lowHalf: quarter(v.highHalf.lowHalf, alpha.highHalf.lowHalf),
            highHalf: quarter(v.highHalf.highHalf, alpha.highHalf.highHalf)))
}

/// Evaluates a gradient at pixel centres: a 1024-entry ramp of premultiplied colours (interpolated in
/// premultiplied space, so a fade to transparent does not darken, unless the gradient asks for straight
/// colours as SVG does), looked up by the gradient parameter s once the spread has folded it into 0…1,
/// then dithered by ±½ level so no band survives 8-bit storage, YUV conversion or a GIF palette.
struct GradientShader {
    static let rampSize = 1024
    /// The gradient parameter of each ramp entry, i / (rampSize − 1).
    static let positions: [Double] = (0..<rampSize).map { Double($0) / Double(rampSize - 1) }
    /// `rampSize` colours, then one transparent entry: what a two-point conical gradient paints where no
    /// circle passes (index `rampSize`, never reached by the other kinds).
    let ramp: [SIMD4<Float>]
    /// For an axial gradient with padded ends (`AxialLanes`): the ramp's colours in 8.7 fixed point
    /// (`Fixed87.fixed`).
    let ramp87: [SIMD4<Int16>]
    /// Every colour of the ramp is opaque.
    let opaque: Bool
    /// For a large opaque gradient: every ramp colour with each of the 64 dither offsets added, clamped
    /// and packed as RGBA bytes (`ditherIndex · rampSize + rampIndex`), so a pixel is a table look-up —
    /// exactly what `shadeOpaque` computes pixel by pixel. 64 Ki entries: worth building (about 0.2 ms)
    /// only for a gradient that covers many more pixels than that.
    var packed: [UInt32] = []
    static let packedTableWorth = 4 * 65_536

    func withPackedTable() -> GradientShader {
        var g = self
        var table = [UInt32](repeating: 0, count: ditherOffsets.count * Self.rampSize)
        for (k, d) in ditherOffsets.enumerated() {
            for i in 0..<Self.rampSize { table[k * Self.rampSize + i] = pack(Self.dithered(ramp[i], d)) }
        }
        g.packed = table
        return g
    }

    /// A ramp colour plus a dither offset on its colour channels, kept within 0…alpha.
    @inline(__always) static func dithered(_ color: SIMD4<Float>, _ d: Float) -> SIMD4<Float> {
        // `min(max(v, 0), a)` spelled as the standard library defines them (max: `0 >= v ? 0 : v`,
        // min: `a < p ? a : p`), the same values: its generic `min`/`max` were left as calls, six a
        // pixel on a gradient edge's one-pixel spans.
        @inline(__always) func clamp(_ v: Float, _ a: Float) -> Float {
            let p = 0 >= v ? 0 : v
            return a < p ? a : p
        }
        var c = color
        let a = c.w
        c.x = clamp(c.x + d, a)
        c.y = clamp(c.y + d, a)
        c.z = clamp(c.z + d, a)
        return c
    }
    let inverse: Transform2D
    let kind: Gradient.Kind
    let spread: Gradient.Spread

    init?(_ g: Gradient, opacity: Double, ramps: RampCache? = nil) {
        guard !g.colors.isEmpty, let inverse = g.transform.inverted else { return nil }
        self.inverse = inverse
        self.kind = g.kind
        self.spread = g.spread
        let n = g.colors.count
        var locations = (0..<n).map { n == 1 ? 0 : Double($0) / Double(n - 1) }
        if let given = g.locations, given.count == n, given.allSatisfy({ $0.isFinite }) {
            // UNCONFIRMED (CORE-ANIMATION.md §9.2): locations whose count differs from the colours'
            // are ignored; decreasing ones are held at the previous value.
            locations = given
            for i in 1..<max(n, 1) where locations[i] < locations[i - 1] { locations[i] = locations[i - 1] }
        }
        let straight = g.interpolation == .unpremultiplied
        let stops = g.colors.map { c -> SIMD4<Float> in
            if straight {
                // Mixed as they are written; premultiplied below, once mixed.
                let a = Color.unit(c.alpha) * Color.unit(opacity)
                return SIMD4(
                    Float(Color.unit(c.red) * 255), Float(Color.unit(c.green) * 255), Float(Color.unit(c.blue) * 255),
                    Float(a * 255))
            }
            let p = c.premultiplied(opacity: opacity)
            return SIMD4(p.r, p.g, p.b, p.a)
        }
        var axialPad = false
        if case .axial = g.kind, g.spread == .pad { axialPad = true }
        let make = { Self.tables(stops: stops, locations: locations, straight: straight) }
        let tables =
            ramps?.tables(RampCache.Key(stops: stops, locations: locations, straight: straight), fixed: axialPad, make: make)
            ?? make().withFixed(axialPad)
        ramp = tables.ramp
        ramp87 = axialPad ? tables.ramp87 : []
        opaque = tables.opaque && Self.coversThePlane(g.kind)
        guard tables.visible else { return nil }
    }

    /// The ramp of `stops` at `locations` (premultiplied once mixed where `straight`), without its 8.7
    /// copy.
    static func tables(stops: [SIMD4<Float>], locations: [Double], straight: Bool) -> RampCache.Tables {
        let n = stops.count
        // Each segment's parameter is (s − location) times its reciprocal length: a division per entry
        // cost more than the rest of the ramp. In doubles, the product is within an ulp of the quotient,
        // so the float t is the same but where the quotient lies within 10⁻¹⁶ of a float's rounding
        // boundary.
        // Where the reciprocal is not a finite positive number (a subnormal or an overflowing span), the
        // quotient itself: 0 marks those.
        let reciprocals = (0..<max(n - 1, 0)).map { k -> Double in
            let r = 1 / (locations[k + 1] - locations[k])
            return r.isFinite && r > 0 ? r : 0
        }
        // Written entry by entry into uninitialized storage: zero-filling first was a tenth of the ramp's
        // cost (16 KiB a gradient).
        let ramp = [SIMD4<Float>](unsafeUninitializedCapacity: Self.rampSize + 1) { ramp, initialized in
            Self.positions.withUnsafeBufferPointer { positions in
                var k = 0
                for i in 0..<Self.rampSize {
                    let s = positions[i]
                    // Outside the first and last location the end colours hold (padding, UNCONFIRMED §9.2).
                    while k < n - 1 && locations[k + 1] < s { k += 1 }
                    var c: SIMD4<Float>
                    if s <= locations[0] {
                        c = stops[0]
                    } else if k >= n - 1 || s >= locations[n - 1] {
                        c = stops[n - 1]
                    } else {
                        let span = locations[k + 1] - locations[k]
                        let t = Float(
                            reciprocals[k] > 0 ? (s - locations[k]) * reciprocals[k] : span > 0 ? (s - locations[k]) / span : 1)
                        c = stops[k] + (stops[k + 1] - stops[k]) * t
                    }
                    if straight {
                        let a = c.w
                        c = SIMD4(c.x * a / 255, c.y * a / 255, c.z * a / 255, a)
                    }
                    (ramp.baseAddress! + i).initialize(to: c)
                }
            }
            (ramp.baseAddress! + Self.rampSize).initialize(to: .zero)
            initialized = Self.rampSize + 1
        }
        let colours = ramp[..<Self.rampSize]
        return RampCache.Tables(
            ramp: ramp, ramp87: [], opaque: colours.allSatisfy { $0.w >= 255 }, visible: colours.contains(where: { $0.w > 0 }))
    }

    /// Whether every point has a parameter: false for a two-point conical gradient whose start circle
    /// pokes out of its end circle (a cone, with nothing painted outside it).
    static func coversThePlane(_ kind: Gradient.Kind) -> Bool {
        guard case .conical(let s, let r0, let e, let r1) = kind else { return true }
        let dx = e.x - s.x, dy = e.y - s.y
        return (dx * dx + dy * dy).squareRoot() < r1 - r0
    }

    /// s folded into 0…1 by the spread: clamped, reflected (1…2 backwards) or repeated (its fraction).
    @inline(__always) static func spread(_ s: Double, _ spread: Gradient.Spread) -> Double {
        switch spread {
        case .pad: return min(max(s, 0), 1)
        case .repeat: return s - s.rounded(.down)
        case .reflect:
            let m = s - 2 * (s / 2).rounded(.down)
            return m > 1 ? 2 - m : m
        }
    }

    /// The two-point conical parameter at (x, y), or nil where no circle passes (see
    /// `Gradient.Kind.conical`). |P − C(t)| = r(t) is the quadratic a·t² − 2b·t + c = 0 with
    /// a = ‖Δc‖² − Δr², b = (P − c₀)·Δc + r₀·Δr, c = ‖P − c₀‖² − r₀²; of its roots the larger one
    /// whose radius is not negative.
    @inline(__always) static func conicalParameter(
        _ x: Double, _ y: Double, start: Point, r0: Double, dcx: Double, dcy: Double, dr: Double, a: Double
    ) -> Double? {
        let px = x - start.x, py = y - start.y
        let b = px * dcx + py * dcy + r0 * dr
        let c = px * px + py * py - r0 * r0
        if a == 0 {
            // The start circle touches the end circle from inside: one root.
            guard b != 0 else { return nil }
            let t = c / (2 * b)
            return r0 + t * dr >= 0 ? t : nil
        }
        let disc = b * b - a * c
        guard disc >= 0 else { return nil }
        let root = disc.squareRoot()
        let t1 = (b + root) / a, t2 = (b - root) / a
        let high = max(t1, t2), low = min(t1, t2)
        if r0 + high * dr >= 0 { return high }
        if r0 + low * dr >= 0 { return low }
        return nil
    }

    /// The gradient parameter at a point of gradient space (CORE-ANIMATION.md §9.2).
    @inline(__always) func parameter(_ x: Double, _ y: Double) -> Double {
        switch kind {
        case .axial(let s, let e):
            let dx = e.x - s.x, dy = e.y - s.y
            let len2 = dx * dx + dy * dy
            return len2 > 0 ? ((x - s.x) * dx + (y - s.y) * dy) / len2 : 0
        case .radial(let c, let rx, let ry):
            let u = rx > 0 ? (x - c.x) / rx : 0, v = ry > 0 ? (y - c.y) / ry : 0
            return (u * u + v * v).squareRoot()
        case .conic(let c, let start):
            var a = atan2(y - c.y, x - c.x) - start
            a -= 2 * Double.pi * (a / (2 * Double.pi)).rounded(.down)
            return a / (2 * Double.pi)
        case .conical(let s, let r0, let e, let r1):
            let dcx = e.x - s.x, dcy = e.y - s.y, dr = r1 - r0
            let a = Self.conicalA(dcx, dcy, dr)
            return Self.conicalParameter(x, y, start: s, r0: r0, dcx: dcx, dcy: dcy, dr: dr, a: a) ?? .nan
        }
    }

    /// ‖Δc‖² − Δr², snapped to 0 when rounding is all that keeps it from 0 (a focal point on the end
    /// circle), where the quadratic becomes linear.
    static func conicalA(_ dcx: Double, _ dcy: Double, _ dr: Double) -> Double {
        let d2 = dcx * dcx + dcy * dcy, r2 = dr * dr
        let a = d2 - r2
        return abs(a) <= 1e-9 * max(d2, r2) ? 0 : a
    }

    /// The ramp's colours at pixels x0…x1 of row y into `out[0…]`, not yet dithered: `blendShaded`
    /// dithers them (`dithered`, lane for lane) as it composites. The parameter is stepped along the
    /// row (the inverse transform is affine); an axial ramp's parameter is itself affine.
    func rampColors(y: Int, x0: Int, x1: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        ramp.withUnsafeBufferPointer { ramp in
            parameters(y: y, x0: x0, x1: x1) { i, index, _ in out[i] = ramp[index] }
        }
    }

    /// For an opaque gradient under full coverage: pixels x0…x1 of row y stored straight into `out`
    /// as RGBA bytes — what `shade` then a source-over of an opaque colour would store, without the
    /// row of floats in between.
    func shadeOpaque(y: Int, x0: Int, x1: Int, into out: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(out)
        if packed.isEmpty {
            walk(y: y, x0: x0, x1: x1) { i, c in raw.storeBytes(of: pack(c), toByteOffset: i &* 4, as: UInt32.self) }
            return
        }
        packed.withUnsafeBufferPointer { table in
            parameters(y: y, x0: x0, x1: x1) { i, index, ditherIndex in
                raw.storeBytes(of: table[ditherIndex &* Self.rampSize &+ index], toByteOffset: i &* 4, as: UInt32.self)
            }
        }
    }

    /// Calls `store` with each pixel's dithered colour.
    @inline(__always) func walk(y: Int, x0: Int, x1: Int, _ store: (Int, SIMD4<Float>) -> Void) {
        ramp.withUnsafeBufferPointer { ramp in
            ditherOffsets.withUnsafeBufferPointer { dither in
                parameters(y: y, x0: x0, x1: x1) { i, index, d in store(i, Self.dithered(ramp[index], dither[d])) }
            }
        }
    }

    /// Calls `body(i, rampIndex, ditherIndex)` for pixels x0…x1 of row y. The parameter is stepped along
    /// the row (the inverse transform is affine); an axial ramp's parameter is itself affine.
    @inline(__always) func parameters(y: Int, x0: Int, x1: Int, _ body: (Int, Int, Int) -> Void) {
        let py = Double(y) + 0.5, px = Double(x0) + 0.5
        var gx = inverse.a * px + inverse.c * py + inverse.tx
        var gy = inverse.b * px + inverse.d * py + inverse.ty
        let stepX = inverse.a, stepY = inverse.b
        let count = x1 - x0 + 1
        let row = (y & 7) &* 8
        let last = Double(Self.rampSize - 1)
        let spread = self.spread
        @inline(__always) func put(_ i: Int, _ s: Double) {
            let index = s.isNaN ? 0 : Int(Self.spread(min(max(s, -1e9), 1e9), spread) * last + 0.5)
            body(i, index, row &+ ((x0 &+ i) & 7))
        }
        switch kind {
        case .axial(let s, let e):
            let dx = e.x - s.x, dy = e.y - s.y
            let len2 = dx * dx + dy * dy
            let ux = len2 > 0 ? dx / len2 : 0, uy = len2 > 0 ? dy / len2 : 0
            let t0 = (gx - s.x) * ux + (gy - s.y) * uy
            let dt = stepX * ux + stepY * uy
            for i in 0..<count { put(i, t0 + Double(i) * dt) }
        case .radial(let c, let rx, let ry):
            let irx = rx > 0 ? 1 / rx : 0, iry = ry > 0 ? 1 / ry : 0
            for i in 0..<count {
                let u = (gx - c.x) * irx, v = (gy - c.y) * iry
                put(i, (u * u + v * v).squareRoot())
                gx += stepX
                gy += stepY
            }
        case .conic:
            for i in 0..<count {
                put(i, parameter(gx, gy))
                gx += stepX
                gy += stepY
            }
        case .conical(let s, let r0, let e, let r1):
            let dcx = e.x - s.x, dcy = e.y - s.y, dr = r1 - r0
            let a = Self.conicalA(dcx, dcy, dr)
            for i in 0..<count {
                if let t = Self.conicalParameter(gx, gy, start: s, r0: r0, dcx: dcx, dcy: dcy, dr: dr, a: a) {
                    put(i, t)
                } else {
                    body(i, Self.rampSize, 0)
                }
                gx += stepX
                gy += stepY
            }
        }
    }
}

/// Samples an image at pixel centres through the inverse of its transform, bilinearly, edges clamped.
struct ImageShader {
    let image: RasterImage
    let inverse: Transform2D
    let opacity: Float
    /// Where pixel (x, y) takes texel (x + dx, y + dy) as it is: the image drawn at its own size on whole
    /// pixels, at full opacity (nil otherwise). Fully covered pixels of opaque texels are then copied.
    let copyOffset: (dx: Int, dy: Int)?

    init?(_ image: RasterImage, transform: Transform2D, opacity: Double) {
        guard let inverse = transform.inverted, opacity > 0 else { return nil }
        self.image = image
        self.inverse = inverse
        self.opacity = Float(min(opacity, 1))
        let m = inverse
        copyOffset =
            m.a == 1 && m.b == 0 && m.c == 0 && m.d == 1 && opacity >= 1 && abs(m.tx) < 1e9 && abs(m.ty) < 1e9
                && m.tx == m.tx.rounded() && m.ty == m.ty.rounded()
            ? (Int(m.tx), Int(m.ty)) : nil
    }

    /// Copies texels into pixels x ..< x + count of row y (`out` is the first) where that is what
    /// drawing them fully covered gives: the image on whole pixels at its own size and full opacity,
    /// every texel of the span inside it and opaque (source-over of an opaque source is the source,
    /// as `shade` and the blend would give it byte for byte). False, with nothing drawn, otherwise.
    /// A terminal's rows drawn as pictures (1,880 × 30 each at 1080p) are copied, not blended in floats.
    func copyOpaque(texels: UnsafeRawPointer, y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt8>) -> Bool {
        guard let (dx, dy) = copyOffset else { return false }
        let iy = y &+ dy, ix = x &+ dx
        guard iy >= 0, iy < image.height, ix >= 0, count > 0, ix <= image.width &- count else { return false }
        let from = texels + (iy &* image.width &+ ix) &* 4
        if !image.isOpaque {
            var alpha: UInt32 = 0xFF00_0000
            for i in 0..<count { alpha &= from.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self) }
            guard alpha == 0xFF00_0000 else { return false }
        }
        UnsafeMutableRawPointer(out).copyMemory(from: from, byteCount: count &* 4)
        return true
    }

    func shade(y: Int, x0: Int, x1: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let py = Double(y) + 0.5, px = Double(x0) + 0.5
        let w = image.width, h = image.height
        // Texel centres are at integer + ½: sample at (u − ½, v − ½) and step along the row.
        var u = inverse.a * px + inverse.c * py + inverse.tx - 0.5
        var v = inverse.b * px + inverse.d * py + inverse.ty - 0.5
        let du = inverse.a, dv = inverse.b
        let k = opacity
        image.pixels.withUnsafeBufferPointer { buffer in
            let raw = UnsafeRawPointer(buffer.baseAddress!)
            @inline(__always) func texel(_ ix: Int, _ iy: Int) -> SIMD4<Float> {
                let i = (min(max(iy, 0), h &- 1) &* w &+ min(max(ix, 0), w &- 1)) &* 4
                return unpack(raw.loadUnaligned(fromByteOffset: i, as: UInt32.self))
            }
            // Pixel for pixel (an image drawn at its own size on whole pixels: a video frame decoded at
            // the size it is drawn): every sample falls on a texel centre, where the bilinear weights
            // are 1 and 0, so the texels themselves are the same result, bit for bit.
            // (Whole numbers tested by adding 1.5·2⁵², as `ImageLanes`: no call hoisted into every span.)
            if inverse.a == 1, inverse.b == 0, inverse.c == 0, inverse.d == 1, u == Fixed87.nearest(u), v == Fixed87.nearest(v),
                abs(u) < 1e9, abs(v) < 1e9
            {
                let iy = Int(v), ix = Int(u)
                for i in 0...(x1 - x0) { out[i] = texel(ix &+ i, iy) * k }
                return
            }
            // Every sample of the span well inside the image (its ends, one texel of margin for the
            // rounding of the steps): the four texels at fixed offsets, without the edge clamps.
            let n = Double(x1 - x0), uEnd = u + n * du, vEnd = v + n * dv
            if min(u, uEnd) >= 1, max(u, uEnd) < Double(w - 2), min(v, vEnd) >= 1, max(v, vEnd) < Double(h - 2) {
                let row = w &* 4
                for i in 0...(x1 - x0) {
                    // Positive here, so truncation is the floor (`rounded(.down)` is a call without SSE4.1).
                    let fu = Double(Int(u)), fv = Double(Int(v))
                    let base = (Int(fv) &* w &+ Int(fu)) &* 4
                    let tx = Float(u - fu), ty = Float(v - fv)
                    @inline(__always) func at(_ offset: Int) -> SIMD4<Float> {
                        unpack(raw.loadUnaligned(fromByteOffset: base &+ offset, as: UInt32.self))
                    }
                    let top = at(0) * (1 - tx) + at(4) * tx
                    let bottom = at(row) * (1 - tx) + at(row &+ 4) * tx
                    out[i] = (top * (1 - ty) + bottom * ty) * k
                    u += du
                    v += dv
                }
                return
            }
            for i in 0...(x1 - x0) {
                let fu = u.rounded(.down), fv = v.rounded(.down)
                // Clamped before conversion: a nearly singular transform must not trap.
                let ix = Int(min(max(fu, -1e9), 1e9)), iy = Int(min(max(fv, -1e9), 1e9))
                let tx = Float(u - fu), ty = Float(v - fv)
                let top = texel(ix, iy) * (1 - tx) + texel(ix &+ 1, iy) * tx
                let bottom = texel(ix, iy &+ 1) * (1 - tx) + texel(ix &+ 1, iy &+ 1) * tx
                out[i] = (top * (1 - ty) + bottom * ty) * k
                u += du
                v += dv
            }
        }
    }
}
