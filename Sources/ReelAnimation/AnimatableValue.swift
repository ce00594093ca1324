/// The values layer properties hold and animations interpolate (numbers, points, colours, transforms,
/// paths, gradient stops, switches), and how two of them mix.
import ReelGeometry

/// A value a layer property can take and an animation can interpolate.
public enum AnimatableValue: Hashable, Sendable {
    case number(Double)
    case point(Point)
    case size(Size)
    case rect(Rect)
    case color(Color)
    case transform(Transform3D)
    case path(Path)
    /// `locations` of a gradient.
    case numbers([Double])
    /// `colors` of a gradient.
    case colors([Color])
    /// `hidden` and other switches.
    case bool(Bool)
    /// A text layer's `string`: it changes in a step, as switches do.
    case string(String)

    public var typeName: String {
        switch self {
        case .number: return "number"
        case .point: return "point"
        case .size: return "size"
        case .rect: return "rect"
        case .color: return "color"
        case .transform: return "transform"
        case .path: return "path"
        case .numbers: return "numbers"
        case .colors: return "colors"
        case .bool: return "bool"
        case .string: return "string"
        }
    }

    /// Linear interpolation, component by component (CORE-ANIMATION.md §7). Returns nil when the two
    /// values are of different types.
    public static func interpolate(_ a: AnimatableValue, _ b: AnimatableValue, _ f: Double) -> AnimatableValue? {
        // The ends exactly: a held end value must not drift by a rounding error.
        if f == 0 && a.typeName == b.typeName { return a }
        if f == 1 && a.typeName == b.typeName { return b }
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return .number(mix(x, y))
        case (.point(let p), .point(let q)):
            return .point(Point(x: mix(p.x, q.x), y: mix(p.y, q.y)))
        case (.size(let s), .size(let t)):
            return .size(Size(width: mix(s.width, t.width), height: mix(s.height, t.height)))
        case (.rect(let r), .rect(let s)):
            return .rect(
                Rect(
                    x: mix(r.origin.x, s.origin.x), y: mix(r.origin.y, s.origin.y),
                    width: mix(r.size.width, s.size.width), height: mix(r.size.height, s.size.height)))
        case (.color(let c), .color(let d)):
            return .color(interpolateLayerColor(c, d, f))
        case (.transform(let a), .transform(let b)):
            return .transform(TransformInterpolation.interpolate(a, b, f))
        case (.path(let a), .path(let b)):
            return .path(Path.morph(a, b, f))
        case (.numbers(let a), .numbers(let b)):
            // Arrays interpolate element-wise when the counts match; otherwise the animation is ignored (§7).
            guard a.count == b.count else { return nil }
            return .numbers(zip(a, b).map { $0 + ($1 - $0) * f })
        case (.colors(let a), .colors(let b)):
            guard a.count == b.count else { return nil }
            return .colors(zip(a, b).map { interpolateLayerColor($0, $1, f) })
        case (.bool(let a), .bool(let b)):
            return .bool(switchBoolean(a, b, f))
        case (.string(let a), .string(let b)):
            return .string(f >= 0.5 ? b : a)
        default:
            return nil
        }
    }

    /// UNCONFIRMED (CORE-ANIMATION.md §7, §10 item 11): a Boolean steps from a to b at f ≥ 0.5.
    public static func switchBoolean(_ a: Bool, _ b: Bool, _ f: Double) -> Bool { f >= 0.5 ? b : a }

    /// UNCONFIRMED (CORE-ANIMATION.md §7.1): layer colour properties interpolate straight
    /// (non-premultiplied) RGBA, component by component, in the render space (sRGB here).
    public static func interpolateLayerColor(_ c: Color, _ d: Color, _ f: Double) -> Color {
        Color(
            red: c.red + (d.red - c.red) * f,
            green: c.green + (d.green - c.green) * f,
            blue: c.blue + (d.blue - c.blue) * f,
            alpha: c.alpha + (d.alpha - c.alpha) * f)
    }
}

/// Numbers written directly where a value is expected: `toValue: 0.5`, as in Core Animation's `@0.5`.
extension AnimatableValue: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}
