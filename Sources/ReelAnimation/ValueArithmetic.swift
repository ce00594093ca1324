/// The arithmetic animations do on values (CORE-ANIMATION.md §3, §4.3): ⊕ and ⊖ for additive,
/// scaling for cumulative, distances for paced keyframes.
import ReelGeometry

/// ⊕, ⊖, scaling and distance per value type (CORE-ANIMATION.md §3.1, §3.3, §4.3): component-wise for
/// numbers, points, sizes, rects and colours. Nil when the two values are of different types.
extension AnimatableValue {
    var components: [Double] {
        switch self {
        case .number(let v): return [v]
        case .point(let p): return [p.x, p.y]
        case .size(let s): return [s.width, s.height]
        case .rect(let r): return [r.origin.x, r.origin.y, r.size.width, r.size.height]
        case .color(let c): return [c.red, c.green, c.blue, c.alpha]
        case .transform(let t): return t.values
        case .path(let p): return p.normalizedToCubics().elements.flatMap(Self.points).flatMap { [$0.x, $0.y] }
        case .numbers(let v): return v
        case .colors(let c): return c.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] }
        case .bool(let b): return [b ? 1 : 0]
        case .string: return []
        }
    }

    static func points(_ e: Path.Element) -> [Point] {
        switch e {
        case .move(let p), .line(let p): return [p]
        case .quad(let c, let p): return [c, p]
        case .cubic(let c1, let c2, let p): return [c1, c2, p]
        case .close: return []
        }
    }

    func withComponents(_ c: [Double]) -> AnimatableValue {
        switch self {
        case .number: return .number(c[0])
        case .point: return .point(Point(x: c[0], y: c[1]))
        case .size: return .size(Size(width: c[0], height: c[1]))
        case .rect: return .rect(Rect(x: c[0], y: c[1], width: c[2], height: c[3]))
        case .color: return .color(Color(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
        case .transform: return .transform(Transform3D(c) ?? .identity)
        case .path(let p):
            // The same element structure, points taken in order from `c`.
            var out = Path()
            var k = 0
            func next() -> Point {
                defer { k += 2 }
                return k + 1 < c.count ? Point(x: c[k], y: c[k + 1]) : .zero
            }
            for e in p.normalizedToCubics().elements {
                switch e {
                case .move: out.move(to: next())
                case .cubic:
                    let c1 = next(), c2 = next()
                    out.addCurve(to: next(), control1: c1, control2: c2)
                case .close: out.closeSubpath()
                default: break
                }
            }
            return .path(out)
        case .numbers: return .numbers(c)
        case .colors:
            return .colors(
                stride(from: 0, to: c.count - 3, by: 4).map {
                    Color(red: c[$0], green: c[$0 + 1], blue: c[$0 + 2], alpha: c[$0 + 3])
                })
        case .bool: return .bool(c[0] >= 0.5)
        case .string: return self
        }
    }

    func sameType(_ other: AnimatableValue) -> Bool { typeName == other.typeName }

    /// a ⊕ b. For transforms, concatenation with b applied first: the additive rule
    /// `Concat(animValue, running)` of §3.2 (UNCONFIRMED there, WebKit's order).
    public static func adding(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
        guard a.sameType(b), a.components.count == b.components.count else { return nil }
        if case .path = a { return nil }  // paths do not add
        if case .bool = a { return nil }  // nor do switches
        if case .string = a { return nil }  // nor does text
        if case .transform(let ta) = a, case .transform(let tb) = b { return .transform(tb.concatenating(ta)) }
        return a.withComponents(zip(a.components, b.components).map { $0 + $1 })
    }

    /// a ⊖ b: the x with b ⊕ x = a.
    public static func subtracting(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
        guard a.sameType(b), a.components.count == b.components.count else { return nil }
        if case .path = a { return nil }
        if case .bool = a { return nil }
        if case .string = a { return nil }
        if case .transform(let ta) = a, case .transform(let tb) = b {
            guard let inverse = tb.inverse else { return nil }
            return .transform(ta.concatenating(inverse))
        }
        return a.withComponents(zip(a.components, b.components).map { $0 - $1 })
    }

    /// k·v, for the cumulative repeats of §3.3; a transform is concatenated with itself k times.
    public func scaled(by k: Double) -> AnimatableValue {
        if case .transform(let t) = self {
            var out = Transform3D.identity
            for _ in 0..<max(0, min(Int(k.rounded()), 10_000)) { out = out.concatenating(t) }
            return .transform(out)
        }
        return withComponents(components.map { $0 * k })
    }

    /// The distance paced keyframes use: |Δ| for numbers, Euclidean for the others (§4.3).
    public static func distance(_ a: AnimatableValue, _ b: AnimatableValue) -> Double {
        guard a.sameType(b) else { return 0 }
        if case .transform(let ta) = a, case .transform(let tb) = b, let da = DecomposedTransform(ta),
            let db = DecomposedTransform(tb)
        {
            return transformDistance(da, db)
        }
        return zip(a.components, b.components).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }

    /// Component-wise combination for the cubic keyframe spline.
    static func combine(_ terms: [(Double, AnimatableValue)]) -> AnimatableValue? {
        guard let first = terms.first?.1 else { return nil }
        var out = [Double](repeating: 0, count: first.components.count)
        for (k, v) in terms {
            guard v.sameType(first) else { return nil }
            for (i, c) in v.components.enumerated() { out[i] += k * c }
        }
        return first.withComponents(out)
    }
}

/// UNCONFIRMED (CORE-ANIMATION.md §4.3): the paced distance between two transforms is the Euclidean norm
/// of the difference of their decomposed components (translation, scale, shear, quaternion, perspective).
func transformDistance(_ a: DecomposedTransform, _ b: DecomposedTransform) -> Double {
    let parts = [a.translation - b.translation, a.scale - b.scale, a.skew - b.skew].map { ($0 * $0).sum() }
    let q = a.quaternion - b.quaternion, p = a.perspective - b.perspective
    return (parts.reduce(0, +) + (q * q).sum() + (p * p).sum()).squareRoot()
}
