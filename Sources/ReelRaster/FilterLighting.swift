/// feDiffuseLighting's and feSpecularLighting's kernel: the input's alpha as a height map, its Sobel
/// normals lit by a distant, point or spot light, number for number as resvg draws it.
import Foundation
import ReelGeometry

extension FilterKernels {
    /// `l` lighting `input`'s alpha, over the same pixels; `originX`, `originY` is the device pixel of
    /// `input`'s pixel (0, 0) (the light's positions are in device pixels).
    ///
    /// As resvg, in single precision: the surface point of pixel (x, y) is (x, y, surfaceScale · α)
    /// (its corner, not its centre); the lighting colour and a spot light's colour are bytes; diffuse
    /// light is opaque, specular light takes its brightest channel as alpha (which keeps it
    /// premultiplied). An input narrower or shorter than three pixels gives transparency.
    static func lighting(_ l: Lighting, input: FilterPixels, originX: Int, originY: Int) -> FilterPixels {
        let w = input.width, h = input.height
        var out = FilterPixels(width: w, height: h)
        guard w >= 3, h >= 3 else { return out }
        let surfaceScale = Float(l.surfaceScale), constant = Float(l.constant)
        let exponent = Float(l.specularExponent)
        let color = SIMD3<Float>(byte(l.color.red), byte(l.color.green), byte(l.color.blue))
        let source = LightSource(l.light, originX: originX, originY: originY, color: color)
        input.bytes.withUnsafeBufferPointer { src in
            out.bytes.withUnsafeMutableBufferPointer { dst in
                func alpha(_ x: Int, _ y: Int) -> Int { Int(src[(y * w + x) * 4 + 3]) }
                for y in 0..<h {
                    // The Sobel kernels lose the rows or columns past the edge; the factors rescale
                    // what remains (the specification's edge kernels, in one formula).
                    let top = max(y - 1, 0), bottom = min(y + 1, h - 1)
                    for x in 0..<w {
                        let left = max(x - 1, 0), right = min(x + 1, w - 1)
                        var dx = 0, dy = 0, columnWeights = 0, rowWeights = 0
                        for row in top...bottom {
                            let weight = row == y ? 2 : 1
                            dx += weight * (alpha(right, row) - alpha(left, row))
                            rowWeights += weight
                        }
                        for column in left...right {
                            let weight = column == x ? 2 : 1
                            dy += weight * (alpha(column, bottom) - alpha(column, top))
                            columnWeights += weight
                        }
                        let factorX = 2 / Float((right - left) * rowWeights)
                        let factorY = 2 / Float((bottom - top) * columnWeights)
                        let scale = surfaceScale / 255
                        let normal = SIMD3<Float>(Float(-dx) * scale * factorX, Float(-dy) * scale * factorY, 1)
                        let z = Float(alpha(x, y)) / 255 * surfaceScale
                        let toLight = source.vector(to: SIMD3(Float(x), Float(y), z))
                        let lightColor = source.color(toLight: toLight)
                        let k: Float
                        if l.specular {
                            let halfway = toLight + SIMD3(0, 0, 1)
                            let length = norm(halfway)
                            if isNearZero(length) {
                                k = 0
                            } else {
                                let nDotH = dot(normal, halfway) / norm(normal) / length
                                k = constant * pow(nDotH, exponent)
                            }
                        } else {
                            k = constant * (dot(normal, toLight) / norm(normal))
                        }
                        let o = (y * w + x) * 4
                        var brightest: UInt8 = 0
                        for i in 0..<3 {
                            let v = quantized(lightColor[i] * k)
                            dst[o + i] = v
                            brightest = max(brightest, v)
                        }
                        dst[o + 3] = l.specular ? brightest : 255
                    }
                }
            }
        }
        return out
    }
}

/// The light in the input's pixel coordinates, single precision.
private enum LightSource {
    /// The unit vector towards the light.
    case distant(SIMD3<Float>, color: SIMD3<Float>)
    case point(SIMD3<Float>, color: SIMD3<Float>)
    /// Position, unit direction (towards pointsAt), exponent, cosine of the cone's half-angle.
    case spot(SIMD3<Float>, direction: SIMD3<Float>, exponent: Float, cosCone: Float?, color: SIMD3<Float>)

    init(_ light: Lighting.Light, originX: Int, originY: Int, color: SIMD3<Float>) {
        switch light {
        case .distant(let azimuth, let elevation):
            let a = Float(azimuth) * radiansPerDegree, e = Float(elevation) * radiansPerDegree
            self = .distant(SIMD3(cos(a) * cos(e), sin(a) * cos(e), sin(e)), color: color)
        case .point(let x, let y, let z):
            self = .point(SIMD3(Float(x - Double(originX)), Float(y - Double(originY)), Float(z)), color: color)
        case .spot(let x, let y, let z, let px, let py, let pz, let exponent, let cone):
            let p = SIMD3(Float(x - Double(originX)), Float(y - Double(originY)), Float(z))
            let at = SIMD3(Float(px - Double(originX)), Float(py - Double(originY)), Float(pz))
            self = .spot(
                p, direction: normalized(at - p), exponent: Float(exponent),
                cosCone: cone.map { cos(Float($0) * radiansPerDegree) }, color: color)
        }
    }

    /// From the surface point `s` towards the light, unit length unless the light is at `s`.
    func vector(to s: SIMD3<Float>) -> SIMD3<Float> {
        switch self {
        case .distant(let v, _): return v
        case .point(let p, _), .spot(let p, _, _, _, _): return normalized(p - s)
        }
    }

    /// The light's colour (bytes as Float) arriving along `toLight`: a spot light's falls off with the
    /// angle from its axis, to black outside its cone, and is rounded to bytes as resvg keeps it.
    func color(toLight: SIMD3<Float>) -> SIMD3<Float> {
        switch self {
        case .distant(_, let c), .point(_, let c): return c
        case .spot(_, let direction, let exponent, let cosCone, let c):
            let along = -dot(toLight, direction)
            guard along > 0 else { return .zero }
            if let cosCone, along < cosCone { return .zero }
            let f = pow(along, exponent)
            return SIMD3(Float(quantized(c.x * f)), Float(quantized(c.y * f)), Float(quantized(c.z * f)))
        }
    }
}

/// Degrees to radians as Rust's `f32::to_radians` (one product by a rounded constant).
private let radiansPerDegree = Float.pi / 180

/// A straight colour channel in 0…1 as the byte resvg holds it.
private func byte(_ v: Double) -> Float { Float((Color.unit(v) * 255).rounded()) }

/// `v` clamped to 0…255 (NaN as 0) and rounded half up to a byte.
private func quantized(_ v: Float) -> UInt8 {
    let b: Float = v > 255 ? 255 : (v >= 0 ? v : 0)
    return UInt8((b + 0.5).rounded(.down))
}

private func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { a.x * b.x + a.y * b.y + a.z * b.z }

private func norm(_ v: SIMD3<Float>) -> Float { dot(v, v).squareRoot() }

/// Within four steps of the smallest subnormal of zero (resvg's `approx_zero_ulps(4)`).
private func isNearZero(_ v: Float) -> Bool { abs(v) <= 4 * Float.leastNonzeroMagnitude }

/// `v` at unit length, or as it is when it has none to scale.
private func normalized(_ v: SIMD3<Float>) -> SIMD3<Float> {
    let length = norm(v)
    return isNearZero(length) ? v : v / length
}
