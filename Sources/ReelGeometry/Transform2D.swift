/// A 2-D affine transform, as Core Graphics' `CGAffineTransform` (named apart from Foundation's
/// `AffineTransform`): `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
import Foundation

public struct Transform2D: Hashable, Sendable {
    public var a, b, c, d, tx, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    public static let identity = Transform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(x: Double, y: Double) -> Transform2D {
        Transform2D(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public static func scale(x: Double, y: Double) -> Transform2D {
        Transform2D(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// Turns by `radians` from the x axis toward the y axis (clockwise where y points down).
    public static func rotation(_ radians: Double) -> Transform2D {
        Transform2D(a: cos(radians), b: sin(radians), c: -sin(radians), d: cos(radians), tx: 0, ty: 0)
    }

    /// `self` first, then `other`.
    public func concatenating(_ other: Transform2D) -> Transform2D {
        Transform2D(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty
        )
    }

    public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    /// The inverse, or nil when the transform collapses the plane (determinant 0 or not finite).
    public var inverted: Transform2D? {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        let inverse = Transform2D(a: ia, b: ib, c: ic, d: id, tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
        // A determinant near the smallest double (1e-320) passes the test above but leaves infinities,
        // and from them NaNs, in the inverse: a sample point there would trap on conversion.
        guard inverse.a.isFinite, inverse.b.isFinite, inverse.c.isFinite, inverse.d.isFinite, inverse.tx.isFinite,
            inverse.ty.isFinite
        else { return nil }
        return inverse
    }

    public var isFinite: Bool { a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite }

    /// The largest factor by which the transform stretches a length (for flattening tolerances).
    public var maxScale: Double {
        let sx = (a * a + b * b).squareRoot()
        let sy = (c * c + d * d).squareRoot()
        return max(sx, sy)
    }
}
