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

extension Color {
    /// `#rgb`, `#rrggbb` or `#rrggbbaa`.
    public init?(hex: String) {
        var s = Substring(hex)
        guard s.first == "#" else { return nil }
        s.removeFirst()
        var digits: [Double] = []
        digits.reserveCapacity(8)
        // ASCII digits from the bytes; `Character.hexDigitValue` (which also reads full-width digits, so
        // it stays for any other character) cost 6,000 instructions a colour.
        for b in s.utf8 {
            let v: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = b &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = b &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = b &- UInt8(ascii: "A") &+ 10
            default: v = 255
            }
            guard v < 16 else {
                digits = []
                for ch in s {
                    guard let v = ch.hexDigitValue else { return nil }
                    digits.append(Double(v))
                }
                break
            }
            digits.append(Double(v))
        }
        switch digits.count {
        case 3:
            self.init(red: digits[0] / 15, green: digits[1] / 15, blue: digits[2] / 15)
        case 6, 8:
            var c: [Double] = []
            var i = 0
            while i < digits.count {
                c.append((digits[i] * 16 + digits[i + 1]) / 255)
                i += 2
            }
            self.init(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)
        default:
            return nil
        }
    }
}
