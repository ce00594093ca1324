// Path animation (CORE-ANIMATION.md §7.4): paths written as cubics, and one morphed into another.

extension Path {
    /// The same shape with every segment written as a cubic (CORE-ANIMATION.md §7.4): lines get control
    /// points at ⅓ and ⅔, quads are degree-elevated, so two paths of the same element count line up.
    public func normalizedToCubics() -> Path {
        var out = Path()
        var current = Point.zero, start = Point.zero
        for element in elements {
            switch element {
            case .move(let p):
                out.move(to: p)
                current = p
                start = p
            case .line(let p):
                out.addCurve(to: p, control1: current + (p - current) * (1.0 / 3), control2: current + (p - current) * (2.0 / 3))
                current = p
            case .quad(let c, let p):
                out.addCurve(to: p, control1: current + (c - current) * (2.0 / 3), control2: p + (c - p) * (2.0 / 3))
                current = p
            case .cubic(let c1, let c2, let p):
                out.addCurve(to: p, control1: c1, control2: c2)
                current = p
            case .close:
                out.closeSubpath()
                current = start
            }
        }
        return out
    }

    /// Morphs `a` into `b` (§7.4): both normalised to cubics; where the element sequences match every
    /// point is lerped; otherwise (UNCONFIRMED) the common prefix is lerped and the rest is taken from
    /// the target once f ≥ ½ (from the source before).
    public static func morph(_ a: Path, _ b: Path, _ f: Double) -> Path {
        if f == 0 { return a }
        if f == 1 { return b }
        let x = a.normalizedToCubics().elements, y = b.normalizedToCubics().elements
        var out = Path()
        func mix(_ p: Point, _ q: Point) -> Point { p + (q - p) * f }
        var i = 0
        while i < min(x.count, y.count) {
            switch (x[i], y[i]) {
            case (.move(let p), .move(let q)): out.move(to: mix(p, q))
            case (.cubic(let c1, let c2, let p), .cubic(let d1, let d2, let q)):
                out.addCurve(to: mix(p, q), control1: mix(c1, d1), control2: mix(c2, d2))
            case (.close, .close): out.closeSubpath()
            default:
                // The sequences part here: the rest comes from one side.
                let rest = f >= 0.5 ? y[i...] : x[i...]
                for e in rest { out.elements.append(e) }
                return out
            }
            i += 1
        }
        for e in (f >= 0.5 ? y : x).dropFirst(i) { out.elements.append(e) }
        return out
    }
}
