/// A colour with straight (non-premultiplied) components in 0…1, in sRGB.
public struct Color: Hashable, Sendable {
    public var red, green, blue, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)

    /// `v` clamped to 0…1, NaN as 0.
    public static func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
}
