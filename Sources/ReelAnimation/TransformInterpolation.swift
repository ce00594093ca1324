/// How `CATransform3D` values animate (CORE-ANIMATION.md §7.2): taken apart into scale, shear,
/// rotation, translation and perspective, mixed (the rotation slerped), put back together.
import Foundation
import ReelGeometry

/// A `CATransform3D` taken apart as CORE-ANIMATION.md §7.2 describes ("unmatrix", Graphics Gems): for
/// row vectors, M = S·K·R·T·P — scale, shear, rotation (a quaternion), translation, perspective.
public struct DecomposedTransform: Hashable, Sendable {
    public var scale: SIMD3<Double>
    /// Shears xy, xz, yz.
    public var skew: SIMD3<Double>
    /// Rotation as a unit quaternion (x, y, z, w).
    public var quaternion: SIMD4<Double>
    public var translation: SIMD3<Double>
    public var perspective: SIMD4<Double>

    public init?(_ m: Transform3D) {
        guard m.m44 != 0, m.isFinite else { return nil }
        var a = m.values.map { $0 / m.m44 }
        func at(_ i: Int, _ j: Int) -> Double { a[i * 4 + j] }
        // Perspective: M = A·P with A's last column (0, 0, 0, 1).
        var pm = a
        pm[3] = 0
        pm[7] = 0
        pm[11] = 0
        pm[15] = 1
        guard let pmt = Transform3D(pm), let inverse = pmt.inverse else { return nil }
        if at(0, 3) != 0 || at(1, 3) != 0 || at(2, 3) != 0 {
            let rhs = SIMD4(at(0, 3), at(1, 3), at(2, 3), at(3, 3))
            let inv = inverse.values
            var p = SIMD4<Double>(repeating: 0)
            for i in 0..<4 { p[i] = (0..<4).reduce(0) { $0 + inv[i * 4 + $1] * rhs[$1] } }
            perspective = p
            a[3] = 0
            a[7] = 0
            a[11] = 0
            a[15] = 1
        } else {
            perspective = SIMD4(0, 0, 0, 1)
        }
        translation = SIMD3(a[12], a[13], a[14])
        var r0 = SIMD3(a[0], a[1], a[2]), r1 = SIMD3(a[4], a[5], a[6]), r2 = SIMD3(a[8], a[9], a[10])
        func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        func dot(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> Double { (u * v).sum() }
        var sx = length(r0)
        guard sx > 0 else { return nil }
        r0 /= sx
        var kxy = dot(r0, r1)
        r1 -= r0 * kxy
        var sy = length(r1)
        guard sy > 0 else { return nil }
        r1 /= sy
        kxy /= sy
        var kxz = dot(r0, r2)
        r2 -= r0 * kxz
        var kyz = dot(r1, r2)
        r2 -= r1 * kyz
        var sz = length(r2)
        guard sz > 0 else { return nil }
        r2 /= sz
        kxz /= sz
        kyz /= sz
        let c = SIMD3(r1.y * r2.z - r1.z * r2.y, r1.z * r2.x - r1.x * r2.z, r1.x * r2.y - r1.y * r2.x)
        if dot(r0, c) < 0 {
            sx = -sx
            sy = -sy
            sz = -sz
            r0 = -r0
            r1 = -r1
            r2 = -r2
        }
        scale = SIMD3(sx, sy, sz)
        skew = SIMD3(kxy, kxz, kyz)
        var q = SIMD4(
            0.5 * max(1 + r0.x - r1.y - r2.z, 0).squareRoot(), 0.5 * max(1 - r0.x + r1.y - r2.z, 0).squareRoot(),
            0.5 * max(1 - r0.x - r1.y + r2.z, 0).squareRoot(), 0.5 * max(1 + r0.x + r1.y + r2.z, 0).squareRoot())
        if r2.y > r1.z { q.x = -q.x }
        if r0.z > r2.x { q.y = -q.y }
        if r1.x > r0.y { q.z = -q.z }
        quaternion = q
    }

    public init(
        scale: SIMD3<Double>, skew: SIMD3<Double>, quaternion: SIMD4<Double>, translation: SIMD3<Double>,
        perspective: SIMD4<Double>
    ) {
        self.scale = scale
        self.skew = skew
        self.quaternion = quaternion
        self.translation = translation
        self.perspective = perspective
    }

    /// The rotation's rows (p·R convention).
    var rotationRows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        let (x, y, z, w) = (quaternion.x, quaternion.y, quaternion.z, quaternion.w)
        return (
            SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
            SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
            SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
        )
    }

    /// Rebuilt in the order of §7.2, step 3.
    public var transform: Transform3D {
        let (r0, r1, r2) = rotationRows
        let row0 = r0 * scale.x
        let row1 = (r1 + r0 * skew.x) * scale.y
        let row2 = (r2 + r1 * skew.z + r0 * skew.y) * scale.z
        let a = Transform3D([
            row0.x, row0.y, row0.z, 0, row1.x, row1.y, row1.z, 0, row2.x, row2.y, row2.z, 0, translation.x, translation.y,
            translation.z, 1,
        ])!
        if perspective == SIMD4(0, 0, 0, 1) { return a }
        var p = Transform3D.identity
        (p.m14, p.m24, p.m34, p.m44) = (perspective.x, perspective.y, perspective.z, perspective.w)
        return a.concatenating(p)
    }

    /// Euler angles (x, then y, then z, as p·Rx·Ry·Rz) of the rotation, for the `transform.rotation.*`
    /// key paths.
    public var eulerAngles: SIMD3<Double> {
        let (r0, r1, r2) = rotationRows
        return SIMD3(atan2(r1.z, r2.z), -asin(min(max(r0.z, -1), 1)), atan2(r0.y, r0.x))
    }

    public mutating func setEulerAngles(_ e: SIMD3<Double>) {
        let r = Transform3D.rotation(e.x, 1, 0, 0).concatenating(.rotation(e.y, 0, 1, 0)).concatenating(.rotation(e.z, 0, 0, 1))
        if let d = DecomposedTransform(r) { quaternion = d.quaternion }
    }
}

extension Transform3D {
    /// The inverse, or nil for a singular matrix.
    public var inverse: Transform3D? {
        var m = values, inv = [Double](repeating: 0, count: 16)
        for i in 0..<4 { inv[i * 4 + i] = 1 }
        for col in 0..<4 {
            var pivot = col
            for r in col..<4 where abs(m[r * 4 + col]) > abs(m[pivot * 4 + col]) { pivot = r }
            guard abs(m[pivot * 4 + col]) > 1e-300 else { return nil }
            if pivot != col {
                for k in 0..<4 {
                    m.swapAt(col * 4 + k, pivot * 4 + k)
                    inv.swapAt(col * 4 + k, pivot * 4 + k)
                }
            }
            let d = m[col * 4 + col]
            for k in 0..<4 {
                m[col * 4 + k] /= d
                inv[col * 4 + k] /= d
            }
            for r in 0..<4 where r != col {
                let f = m[r * 4 + col]
                if f == 0 { continue }
                for k in 0..<4 {
                    m[r * 4 + k] -= f * m[col * 4 + k]
                    inv[r * 4 + k] -= f * inv[col * 4 + k]
                }
            }
        }
        return Transform3D(inv)
    }
}

public enum TransformInterpolation {
    /// Whole-matrix interpolation (CORE-ANIMATION.md §7.2): decompose, lerp translation, scale, shear
    /// and perspective, slerp the rotation along the shorter arc, recompose. Two identities give the
    /// identity; a singular end falls back to `lerpEntries`.
    public static func interpolate(_ a: Transform3D, _ b: Transform3D, _ f: Double) -> Transform3D {
        if a.isIdentity && b.isIdentity { return .identity }
        guard let da = DecomposedTransform(a), let db = DecomposedTransform(b) else { return lerpEntries(a, b, f) }
        func mix<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar == Double { x + (y - x) * f }
        return DecomposedTransform(
            scale: mix(da.scale, db.scale), skew: mix(da.skew, db.skew), quaternion: slerp(da.quaternion, db.quaternion, f),
            translation: mix(da.translation, db.translation), perspective: mix(da.perspective, db.perspective)
        ).transform
    }

    /// UNCONFIRMED (CORE-ANIMATION.md §7.2): a singular (non-invertible) end is interpolated entry by
    /// entry.
    public static func lerpEntries(_ a: Transform3D, _ b: Transform3D, _ f: Double) -> Transform3D {
        Transform3D(zip(a.values, b.values).map { $0 + ($1 - $0) * f })!
    }

    /// Along the shorter arc; a plain normalised lerp when the two are within about 18° (dot > 0.95).
    static func slerp(_ qa: SIMD4<Double>, _ qb: SIMD4<Double>, _ f: Double) -> SIMD4<Double> {
        var b = qb
        var d = (qa * b).sum()
        if d < 0 {
            b = -b
            d = -d
        }
        var q: SIMD4<Double>
        if d > 0.95 {
            q = qa + (b - qa) * f
        } else {
            let theta = acos(min(d, 1))
            let s = sin(theta)
            q = qa * (sin((1 - f) * theta) / s) + b * (sin(f * theta) / s)
        }
        let n = (q * q).sum().squareRoot()
        return n > 0 ? q / n : SIMD4(0, 0, 0, 1)
    }
}
