/// `CATransform3D`: translations, scales and rotations, concatenation, and points and paths mapped
/// through it with the perspective divide.
import Foundation

/// `CATransform3D`: a 4×4 matrix for row vectors (p′ = p·M), the translation in m41…m43, perspective in
/// m14…m34 (CORE-ANIMATION.md §0, §7.2).
public struct Transform3D: Hashable, Sendable {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    public init(
        m11: Double, m12: Double, m13: Double, m14: Double, m21: Double, m22: Double, m23: Double, m24: Double,
        m31: Double, m32: Double, m33: Double, m34: Double, m41: Double, m42: Double, m43: Double, m44: Double
    ) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    /// From 16 numbers, row by row (m11, m12, …, m44).
    public init?(_ v: [Double]) {
        guard v.count == 16 else { return nil }
        self.init(
            m11: v[0], m12: v[1], m13: v[2], m14: v[3], m21: v[4], m22: v[5], m23: v[6], m24: v[7],
            m31: v[8], m32: v[9], m33: v[10], m34: v[11], m41: v[12], m42: v[13], m43: v[14], m44: v[15])
    }

    public var values: [Double] { [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44] }

    public static let identity = Transform3D([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])!

    public var isIdentity: Bool { self == .identity }
    /// Without an array of the entries (one was made for each question).
    public var isFinite: Bool {
        let a = SIMD4(m11, m12, m13, m14), b = SIMD4(m21, m22, m23, m24)
        let c = SIMD4(m31, m32, m33, m34), d = SIMD4(m41, m42, m43, m44)
        // A NaN or an infinity times zero is NaN, which no sum leaves behind; finite entries give zeros.
        let zeros: SIMD4<Double> = a * 0 + b * 0 + c * 0 + d * 0
        return zeros == SIMD4<Double>(repeating: 0)
    }

    /// `CATransform3DMakeTranslation`.
    public static func translation(_ x: Double, _ y: Double, _ z: Double = 0) -> Transform3D {
        var t = identity
        (t.m41, t.m42, t.m43) = (x, y, z)
        return t
    }

    /// `CATransform3DMakeScale`.
    public static func scale(_ x: Double, _ y: Double, _ z: Double = 1) -> Transform3D {
        var t = identity
        (t.m11, t.m22, t.m33) = (x, y, z)
        return t
    }

    /// `CATransform3DMakeRotation(angle, x, y, z)`: about the axis (x, y, z), angle in radians; in the
    /// y-down space of iOS a positive rotation about z turns clockwise on screen.
    public static func rotation(_ angle: Double, _ x: Double = 0, _ y: Double = 0, _ z: Double = 1) -> Transform3D {
        let len = (x * x + y * y + z * z).squareRoot()
        guard len > 0 else { return identity }
        let (ux, uy, uz) = (x / len, y / len, z / len)
        let c = cos(angle), s = sin(angle), t = 1 - c
        return Transform3D(
            m11: t * ux * ux + c, m12: t * ux * uy + s * uz, m13: t * ux * uz - s * uy, m14: 0,
            m21: t * ux * uy - s * uz, m22: t * uy * uy + c, m23: t * uy * uz + s * ux, m24: 0,
            m31: t * ux * uz + s * uy, m32: t * uy * uz - s * ux, m33: t * uz * uz + c, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// `self` first, then `other` (`CATransform3DConcat(self, other)`).
    public func concatenating(_ o: Transform3D) -> Transform3D {
        // Row by row in lanes: each entry the same sum, in the same order from 0 (which turns a −0 into
        // +0), as entry by entry. Through arrays, three made for each product, a layer's transforms cost
        // 2,000 instructions a product (13 M of a 1080p GIF of 2,000 shapes, emitted once).
        let b1 = SIMD4(o.m11, o.m12, o.m13, o.m14), b2 = SIMD4(o.m21, o.m22, o.m23, o.m24)
        let b3 = SIMD4(o.m31, o.m32, o.m33, o.m34), b4 = SIMD4(o.m41, o.m42, o.m43, o.m44)
        func row(_ x: Double, _ y: Double, _ z: Double, _ w: Double) -> SIMD4<Double> {
            var sum = SIMD4<Double>(repeating: 0)
            sum += x * b1
            sum += y * b2
            sum += z * b3
            sum += w * b4
            return sum
        }
        let r1 = row(m11, m12, m13, m14), r2 = row(m21, m22, m23, m24)
        let r3 = row(m31, m32, m33, m34), r4 = row(m41, m42, m43, m44)
        return Transform3D(
            m11: r1[0], m12: r1[1], m13: r1[2], m14: r1[3], m21: r2[0], m22: r2[1], m23: r2[2], m24: r2[3],
            m31: r3[0], m32: r3[1], m33: r3[2], m34: r3[3], m41: r4[0], m42: r4[1], m43: r4[2], m44: r4[3])
    }

    /// A 2-D affine transform embedded in 3-D.
    public init(_ t: Transform2D) {
        self.init(
            m11: t.a, m12: t.b, m13: 0, m14: 0, m21: t.c, m22: t.d, m23: 0, m24: 0, m31: 0, m32: 0, m33: 1, m34: 0,
            m41: t.tx, m42: t.ty, m43: 0, m44: 1)
    }

    /// True when points of the plane z = 0 map by an affine 2-D transform (no perspective on them).
    public var isAffineOnPlane: Bool { m14 == 0 && m24 == 0 && m44 == 1 }

    /// The 2-D affine part acting on the plane z = 0 (exact when `isAffineOnPlane`).
    public var affine: Transform2D {
        let w = m44 == 0 ? 1 : m44
        return Transform2D(a: m11 / w, b: m12 / w, c: m21 / w, d: m22 / w, tx: m41 / w, ty: m42 / w)
    }

    /// Maps a point of the plane z = 0, with the perspective divide.
    public func apply(_ p: Point) -> Point {
        let x = p.x * m11 + p.y * m21 + m41
        let y = p.x * m12 + p.y * m22 + m42
        let w = p.x * m14 + p.y * m24 + m44
        guard w != 0, w.isFinite else { return Point(x: .infinity, y: .infinity) }
        return Point(x: x / w, y: y / w)
    }
}

extension Path {
    /// The path's points mapped through a 3-D transform (with the perspective divide). Curves keep
    /// their form with mapped control points, exact for affine maps and close for mild perspective.
    public func applying(_ t: Transform3D) -> Path {
        if t.isAffineOnPlane { return applying(t.affine) }
        var out = Path()
        for element in elements {
            switch element {
            case .move(let p): out.move(to: t.apply(p))
            case .line(let p): out.addLine(to: t.apply(p))
            case .quad(let c, let p): out.addQuadCurve(to: t.apply(p), control: t.apply(c))
            case .cubic(let c1, let c2, let p): out.addCurve(to: t.apply(p), control1: t.apply(c1), control2: t.apply(c2))
            case .close: out.closeSubpath()
            }
        }
        return out
    }
}
