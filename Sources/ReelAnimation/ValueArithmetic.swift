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
        }
    }

    func withComponents(_ c: [Double]) -> AnimatableValue {
        switch self {
        case .number: return .number(c[0])
        case .point: return .point(Point(x: c[0], y: c[1]))
        case .size: return .size(Size(width: c[0], height: c[1]))
        case .rect: return .rect(Rect(x: c[0], y: c[1], width: c[2], height: c[3]))
        case .color: return .color(Color(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
        }
    }

    func sameType(_ other: AnimatableValue) -> Bool { typeName == other.typeName }

    /// a ⊕ b.
    public static func adding(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
        guard a.sameType(b) else { return nil }
        return a.withComponents(zip(a.components, b.components).map { $0 + $1 })
    }

    /// a ⊖ b.
    public static func subtracting(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
        guard a.sameType(b) else { return nil }
        return a.withComponents(zip(a.components, b.components).map { $0 - $1 })
    }

    /// k·v, for the cumulative repeats of §3.3.
    public func scaled(by k: Double) -> AnimatableValue { withComponents(components.map { $0 * k }) }

    /// The distance paced keyframes use: |Δ| for numbers, Euclidean for the others (§4.3).
    public static func distance(_ a: AnimatableValue, _ b: AnimatableValue) -> Double {
        guard a.sameType(b) else { return 0 }
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
