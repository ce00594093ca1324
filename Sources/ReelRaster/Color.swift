/// Colours as the compositor works with them: premultiplied, in 0…255 units, rounded to 8-bit levels.
import ReelGeometry

extension Color {
    /// Premultiplied, with an extra opacity factor, in 0…255 units.
    public func premultiplied(opacity: Double = 1) -> PremultipliedColor {
        let a = Self.unit(alpha) * Self.unit(opacity)
        return PremultipliedColor(
            r: Float(Self.unit(red) * a * 255),
            g: Float(Self.unit(green) * a * 255),
            b: Float(Self.unit(blue) * a * 255),
            a: Float(a * 255))
    }
}

/// A premultiplied colour in 0…255 units, as the compositor works with it.
public struct PremultipliedColor: Hashable, Sendable {
    public var r, g, b, a: Float

    public init(r: Float, g: Float, b: Float, a: Float) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public static let clear = PremultipliedColor(r: 0, g: 0, b: 0, a: 0)

    /// Rounded to the nearest 8-bit level.
    public var bytes: (UInt8, UInt8, UInt8, UInt8) {
        (Self.byte(r), Self.byte(g), Self.byte(b), Self.byte(a))
    }

    @inline(__always) static func byte(_ v: Float) -> UInt8 { UInt8(min(max(v + 0.5, 0), 255)) }
}
