/// Blend modes: how a group's picture combines with what is below it (W3C Compositing and Blending
/// Level 1, the separable and non-separable modes, and plus-lighter), for Core Animation's
/// `compositingFilter`; source-over is the `blend` kernel.
import Foundation

/// A group's blend mode; `normal` is source-over.
public enum BlendMode: String, Sendable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight, difference,
        exclusion, hue, saturation, color, luminosity
    /// The sum, clamped (Core Image's addition compositing, After Effects' Add).
    case plusLighter
}

/// `color` (premultiplied, 0…255) at `coverage`, blended by `mode` onto an 8-bit premultiplied pixel:
/// co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs), αo = αs + αb·(1 − αs), with Cs and Cb the
/// unpremultiplied colours.
@inline(__always) func blend(_ p: UnsafeMutablePointer<UInt8>, _ color: SIMD4<Float>, _ coverage: Float, mode: BlendMode) {
    let s = color * (coverage / 255)
    guard s.w > 0 else { return }
    let raw = UnsafeMutableRawPointer(p).loadUnaligned(as: UInt32.self)
    let lanes = SIMD4<UInt32>(raw, raw &>> 8, raw &>> 16, raw &>> 24) & 0xFF
    let d = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: lanes)) * (1 / 255)
    var out: SIMD4<Float>
    if mode == .plusLighter {
        out = (s + d).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1))
    } else {
        let cs = SIMD3(s.x, s.y, s.z) / s.w
        let cb = d.w > 0 ? SIMD3(d.x, d.y, d.z) / d.w : SIMD3<Float>(repeating: 0)
        let b = blended(cb, cs, mode)
        let rgb = SIMD3(s.x, s.y, s.z) * (1 - d.w) + SIMD3(d.x, d.y, d.z) * (1 - s.w) + b * (s.w * d.w)
        out = SIMD4(rgb.x, rgb.y, rgb.z, s.w + d.w * (1 - s.w))
        out = out.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: out.w))
    }
    UnsafeMutableRawPointer(p).storeBytes(of: pack(out * 255), as: UInt32.self)
}

/// B(Cb, Cs) for unpremultiplied backdrop and source colours in 0…1.
@inline(__always) func blended(_ cb: SIMD3<Float>, _ cs: SIMD3<Float>, _ mode: BlendMode) -> SIMD3<Float> {
    func each(_ f: (Float, Float) -> Float) -> SIMD3<Float> { SIMD3(f(cb.x, cs.x), f(cb.y, cs.y), f(cb.z, cs.z)) }
    func hardLight(_ b: Float, _ s: Float) -> Float { s <= 0.5 ? b * 2 * s : screen(b, 2 * s - 1) }
    func screen(_ b: Float, _ s: Float) -> Float { b + s - b * s }
    switch mode {
    case .normal, .plusLighter: return cs
    case .multiply: return cb * cs
    case .screen: return each(screen)
    case .overlay: return each { b, s in hardLight(s, b) }
    case .darken: return pointwiseMin(cb, cs)
    case .lighten: return pointwiseMax(cb, cs)
    case .colorDodge:
        return each { b, s in b == 0 ? 0 : s >= 1 ? 1 : min(1, b / (1 - s)) }
    case .colorBurn:
        return each { b, s in b >= 1 ? 1 : s <= 0 ? 0 : 1 - min(1, (1 - b) / s) }
    case .hardLight: return each(hardLight)
    case .softLight:
        return each { b, s in
            if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
            let dd = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
            return b + (2 * s - 1) * (dd - b)
        }
    case .difference: return each { b, s in abs(b - s) }
    case .exclusion: return each { b, s in b + s - 2 * b * s }
    case .hue: return setLum(setSat(cs, sat(cb)), lum(cb))
    case .saturation: return setLum(setSat(cb, sat(cs)), lum(cb))
    case .color: return setLum(cs, lum(cb))
    case .luminosity: return setLum(cb, lum(cs))
    }
}

@inline(__always) func lum(_ c: SIMD3<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

@inline(__always) func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> {
    let moved = c + SIMD3(repeating: l - lum(c))
    let m = lum(moved), lo = moved.min(), hi = moved.max()
    var out = moved
    if lo < 0 { out = SIMD3(repeating: m) + (out - SIMD3(repeating: m)) * m / (m - lo) }
    if hi > 1 { out = SIMD3(repeating: m) + (out - SIMD3(repeating: m)) * (1 - m) / (hi - m) }
    return out
}

@inline(__always) func sat(_ c: SIMD3<Float>) -> Float { c.max() - c.min() }

@inline(__always) func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
    let lo = c.min(), hi = c.max()
    guard hi > lo else { return .zero }
    return (c - SIMD3(repeating: lo)) * s / (hi - lo)
}
