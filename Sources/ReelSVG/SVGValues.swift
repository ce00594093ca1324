/// SVG's value syntaxes: numbers and lengths, number lists, colours (every CSS form SVG files use),
/// paints, and the `transform` attribute.
import Foundation
import ReelGeometry

enum SVGValues {
    /// A number at the start of `s` (SVG's grammar: sign, digits, fraction, exponent), and the rest.
    static func number(_ s: Substring) -> (Double, Substring)? {
        var i = s.startIndex
        func digits() -> Bool {
            let start = i
            while i < s.endIndex, s[i].isASCII, s[i].isNumber { i = s.index(after: i) }
            return i > start
        }
        if i < s.endIndex, s[i] == "+" || s[i] == "-" { i = s.index(after: i) }
        let whole = digits()
        var fraction = false
        if i < s.endIndex, s[i] == "." {
            i = s.index(after: i)
            fraction = digits()
        }
        guard whole || fraction else { return nil }
        if i < s.endIndex, s[i] == "e" || s[i] == "E" {
            var j = s.index(after: i)
            if j < s.endIndex, s[j] == "+" || s[j] == "-" { j = s.index(after: j) }
            if j < s.endIndex, s[j].isASCII, s[j].isNumber {
                i = j
                _ = digits()
            }
        }
        guard let v = Double(s[s.startIndex..<i]), v.isFinite, abs(v) <= 1e9 else { return nil }
        return (v, s[i...])
    }

    /// Numbers separated by white space and commas (`points`, `viewBox`, `stroke-dasharray`); nil if
    /// anything else is there.
    static func numbers(_ text: String) -> [Double]? {
        var out: [Double] = []
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "," }
            if rest.isEmpty { return out }
            guard let (v, after) = number(rest) else { return nil }
            out.append(v)
            rest = after
        }
    }

    /// A viewport's normalized diagonal, √(w² + h²)/√2: what a percentage of a length that is neither
    /// horizontal nor vertical (a radius, a stroke width, a dash) is of.
    static func normalizedDiagonal(_ viewport: Size) -> Double {
        (viewport.width * viewport.width + viewport.height * viewport.height).squareRoot() / 2.0.squareRoot()
    }

    /// A length in user units; `percentOf` is what 100 % is (a viewport side, or its diagonal).
    static func length(_ text: String?, percentOf base: Double = 0, fontSize: Double = 16) -> Double? {
        guard let t = text?.trimmingCharacters(in: .whitespaces), let (v, unit) = number(Substring(t)) else { return nil }
        switch unit.lowercased() {
        case "", "px": return v
        case "%": return v / 100 * base
        case "pt": return v * 4 / 3
        case "pc": return v * 16
        case "mm": return v * 96 / 25.4
        case "cm": return v * 96 / 2.54
        case "in": return v * 96
        case "em": return v * fontSize
        case "ex": return v * fontSize / 2
        default: return nil
        }
    }

    static let named: [String: UInt32] = [
        "aliceblue": 0xF0F8FF, "antiquewhite": 0xFAEBD7, "aqua": 0x00FFFF, "aquamarine": 0x7FFFD4, "azure": 0xF0FFFF,
        "beige": 0xF5F5DC, "bisque": 0xFFE4C4, "black": 0x000000, "blanchedalmond": 0xFFEBCD, "blue": 0x0000FF,
        "blueviolet": 0x8A2BE2, "brown": 0xA52A2A, "burlywood": 0xDEB887, "cadetblue": 0x5F9EA0, "chartreuse": 0x7FFF00,
        "chocolate": 0xD2691E, "coral": 0xFF7F50, "cornflowerblue": 0x6495ED, "cornsilk": 0xFFF8DC, "crimson": 0xDC143C,
        "cyan": 0x00FFFF, "darkblue": 0x00008B, "darkcyan": 0x008B8B, "darkgoldenrod": 0xB8860B, "darkgray": 0xA9A9A9,
        "darkgreen": 0x006400, "darkgrey": 0xA9A9A9, "darkkhaki": 0xBDB76B, "darkmagenta": 0x8B008B,
        "darkolivegreen": 0x556B2F, "darkorange": 0xFF8C00, "darkorchid": 0x9932CC, "darkred": 0x8B0000,
        "darksalmon": 0xE9967A, "darkseagreen": 0x8FBC8F, "darkslateblue": 0x483D8B, "darkslategray": 0x2F4F4F,
        "darkslategrey": 0x2F4F4F, "darkturquoise": 0x00CED1, "darkviolet": 0x9400D3, "deeppink": 0xFF1493,
        "deepskyblue": 0x00BFFF, "dimgray": 0x696969, "dimgrey": 0x696969, "dodgerblue": 0x1E90FF, "firebrick": 0xB22222,
        "floralwhite": 0xFFFAF0, "forestgreen": 0x228B22, "fuchsia": 0xFF00FF, "gainsboro": 0xDCDCDC,
        "ghostwhite": 0xF8F8FF, "gold": 0xFFD700, "goldenrod": 0xDAA520, "gray": 0x808080, "green": 0x008000,
        "greenyellow": 0xADFF2F, "grey": 0x808080, "honeydew": 0xF0FFF0, "hotpink": 0xFF69B4, "indianred": 0xCD5C5C,
        "indigo": 0x4B0082, "ivory": 0xFFFFF0, "khaki": 0xF0E68C, "lavender": 0xE6E6FA, "lavenderblush": 0xFFF0F5,
        "lawngreen": 0x7CFC00, "lemonchiffon": 0xFFFACD, "lightblue": 0xADD8E6, "lightcoral": 0xF08080,
        "lightcyan": 0xE0FFFF, "lightgoldenrodyellow": 0xFAFAD2, "lightgray": 0xD3D3D3, "lightgreen": 0x90EE90,
        "lightgrey": 0xD3D3D3, "lightpink": 0xFFB6C1, "lightsalmon": 0xFFA07A, "lightseagreen": 0x20B2AA,
        "lightskyblue": 0x87CEFA, "lightslategray": 0x778899, "lightslategrey": 0x778899, "lightsteelblue": 0xB0C4DE,
        "lightyellow": 0xFFFFE0, "lime": 0x00FF00, "limegreen": 0x32CD32, "linen": 0xFAF0E6, "magenta": 0xFF00FF,
        "maroon": 0x800000, "mediumaquamarine": 0x66CDAA, "mediumblue": 0x0000CD, "mediumorchid": 0xBA55D3,
        "mediumpurple": 0x9370DB, "mediumseagreen": 0x3CB371, "mediumslateblue": 0x7B68EE, "mediumspringgreen": 0x00FA9A,
        "mediumturquoise": 0x48D1CC, "mediumvioletred": 0xC71585, "midnightblue": 0x191970, "mintcream": 0xF5FFFA,
        "mistyrose": 0xFFE4E1, "moccasin": 0xFFE4B5, "navajowhite": 0xFFDEAD, "navy": 0x000080, "oldlace": 0xFDF5E6,
        "olive": 0x808000, "olivedrab": 0x6B8E23, "orange": 0xFFA500, "orangered": 0xFF4500, "orchid": 0xDA70D6,
        "palegoldenrod": 0xEEE8AA, "palegreen": 0x98FB98, "paleturquoise": 0xAFEEEE, "palevioletred": 0xDB7093,
        "papayawhip": 0xFFEFD5, "peachpuff": 0xFFDAB9, "peru": 0xCD853F, "pink": 0xFFC0CB, "plum": 0xDDA0DD,
        "powderblue": 0xB0E0E6, "purple": 0x800080, "rebeccapurple": 0x663399, "red": 0xFF0000, "rosybrown": 0xBC8F8F,
        "royalblue": 0x4169E1, "saddlebrown": 0x8B4513, "salmon": 0xFA8072, "sandybrown": 0xF4A460, "seagreen": 0x2E8B57,
        "seashell": 0xFFF5EE, "sienna": 0xA0522D, "silver": 0xC0C0C0, "skyblue": 0x87CEEB, "slateblue": 0x6A5ACD,
        "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xFFFAFA, "springgreen": 0x00FF7F, "steelblue": 0x4682B4,
        "tan": 0xD2B48C, "teal": 0x008080, "thistle": 0xD8BFD8, "tomato": 0xFF6347, "turquoise": 0x40E0D0,
        "violet": 0xEE82EE, "wheat": 0xF5DEB3, "white": 0xFFFFFF, "whitesmoke": 0xF5F5F5, "yellow": 0xFFFF00,
        "yellowgreen": 0x9ACD32,
    ]

    /// A CSS colour: names, `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()` (numbers or
    /// percentages), `hsl()`/`hsla()`, `transparent`. Nil for anything else.
    static func color(_ text: String) -> Color? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t == "transparent" { return .clear }
        if let v = named[t] { return rgb(v) }
        if t.hasPrefix("#") {
            let hex = t.dropFirst()
            guard hex.allSatisfy(\.isHexDigit), let v = UInt32(hex, radix: 16) else { return nil }
            switch hex.count {
            case 3:
                return Color(
                    red: Double((v >> 8) & 15) / 15, green: Double((v >> 4) & 15) / 15, blue: Double(v & 15) / 15)
            case 4:
                return Color(
                    red: Double((v >> 12) & 15) / 15, green: Double((v >> 8) & 15) / 15, blue: Double((v >> 4) & 15) / 15,
                    alpha: Double(v & 15) / 15)
            case 6: return rgb(v)
            case 8:
                return Color(
                    red: Double((v >> 24) & 255) / 255, green: Double((v >> 16) & 255) / 255, blue: Double((v >> 8) & 255) / 255,
                    alpha: Double(v & 255) / 255)
            default: return nil
            }
        }
        guard let open = t.firstIndex(of: "("), t.hasSuffix(")") else { return nil }
        let function = t[..<open].trimmingCharacters(in: .whitespaces)
        let args = t[t.index(after: open)..<t.index(before: t.endIndex)]
            .split(whereSeparator: { $0 == "," || $0 == " " || $0 == "/" }).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        func component(_ s: String, scale: Double) -> Double? {
            if s.hasSuffix("%"), let v = Double(s.dropLast()) { return v / 100 }
            return Double(s).map { $0 / scale }
        }
        func alpha(_ i: Int) -> Double? { i < args.count ? component(args[i], scale: 1) : 1 }
        switch function {
        case "rgb", "rgba":
            // Percentages and numbers do not mix among r, g and b (CSS Color).
            guard args.count == 3 || args.count == 4, Set(args.prefix(3).map { $0.hasSuffix("%") }).count == 1,
                let r = component(args[0], scale: 255),
                let g = component(args[1], scale: 255), let b = component(args[2], scale: 255), let a = alpha(3)
            else { return nil }
            return Color(red: Color.unit(r), green: Color.unit(g), blue: Color.unit(b), alpha: Color.unit(a))
        case "hsl", "hsla":
            guard args.count == 3 || args.count == 4, let h = Double(args[0].replacingOccurrences(of: "deg", with: "")),
                let s = component(args[1], scale: 100), let l = component(args[2], scale: 100), let a = alpha(3)
            else { return nil }
            return hsl(h, Color.unit(s), Color.unit(l), alpha: Color.unit(a))
        default: return nil
        }
    }

    static func rgb(_ v: UInt32) -> Color {
        Color(red: Double((v >> 16) & 255) / 255, green: Double((v >> 8) & 255) / 255, blue: Double(v & 255) / 255)
    }

    /// CSS Color 4's HSL to RGB.
    static func hsl(_ h: Double, _ s: Double, _ l: Double, alpha: Double) -> Color {
        let hue = (h.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 30
        func f(_ n: Double) -> Double {
            let k = (n + hue).truncatingRemainder(dividingBy: 12)
            return l - s * min(l, 1 - l) * max(-1, min(k - 3, 9 - k, 1))
        }
        return Color(red: f(0), green: f(8), blue: f(4), alpha: alpha)
    }

    /// The `transform` attribute: a list of matrix, translate, scale, rotate, skewX, skewY, applied
    /// left to right as written (the rightmost first to a point). Nil when it cannot be read.
    static func transform(_ text: String) -> Transform2D? {
        var result = Transform2D.identity
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "," }
            if rest.isEmpty { return result }
            guard let open = rest.firstIndex(of: "("), let close = rest.firstIndex(of: ")"), open < close else { return nil }
            let name = rest[..<open].trimmingCharacters(in: .whitespaces)
            guard let a = numbers(String(rest[rest.index(after: open)..<close])) else { return nil }
            rest = rest[rest.index(after: close)...]
            let t: Transform2D
            switch (name, a.count) {
            case ("matrix", 6): t = Transform2D(a: a[0], b: a[1], c: a[2], d: a[3], tx: a[4], ty: a[5])
            case ("translate", 1): t = .translation(x: a[0], y: 0)
            case ("translate", 2): t = .translation(x: a[0], y: a[1])
            case ("scale", 1): t = .scale(x: a[0], y: a[0])
            case ("scale", 2): t = .scale(x: a[0], y: a[1])
            case ("rotate", 1), ("rotate", 3):
                let r = a[0] * .pi / 180
                let rot = Transform2D(a: cos(r), b: sin(r), c: -sin(r), d: cos(r), tx: 0, ty: 0)
                t =
                    a.count == 1
                    ? rot
                    : Transform2D.translation(x: -a[1], y: -a[2]).concatenating(rot).concatenating(.translation(x: a[1], y: a[2]))
            case ("skewX", 1): t = Transform2D(a: 1, b: 0, c: tan(a[0] * .pi / 180), d: 1, tx: 0, ty: 0)
            case ("skewY", 1): t = Transform2D(a: 1, b: tan(a[0] * .pi / 180), c: 0, d: 1, tx: 0, ty: 0)
            default: return nil
            }
            // Written left to right, the rightmost applies first: T = t_1 · t_2 ⋯ in column form.
            result = t.concatenating(result)
        }
    }

    /// `transform-origin` (CSS Transforms; SVG's box is the viewport, as resvg takes it): one or two
    /// values, lengths, percentages of `viewport` or keywords (`left`, `center`, `right`, `top`,
    /// `bottom`, in either order), a missing one `center`; a third (z) value is ignored. Nil when it
    /// cannot be read, which leaves the origin at 0 0.
    static func origin(_ value: String, viewport: Size, fontSize: Double) -> Point? {
        let words = value.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
        guard (1...3).contains(words.count) else { return nil }
        var x: Double?, y: Double?
        func horizontal(_ w: String) -> Double? {
            ["left": 0, "center": 0.5, "right": 1][w].map { $0 * viewport.width }
        }
        func vertical(_ w: String) -> Double? {
            ["top": 0, "center": 0.5, "bottom": 1][w].map { $0 * viewport.height }
        }
        var first = words[0], second = words.count > 1 ? words[1] : nil
        // `center left`: the horizontal keyword second.
        if first == "center", let s = second, s == "left" || s == "right" { (first, second) = (s, "center") }
        if let second, first == "top" || first == "bottom", horizontal(second) != nil || second == "center" {
            // `top left`: the vertical keyword first.
            y = vertical(first)
            x = horizontal(second)
        } else {
            x = horizontal(first) ?? length(first, percentOf: viewport.width, fontSize: fontSize)
            if x == nil, second == nil, let v = vertical(first) {
                // One vertical keyword: the horizontal is the centre.
                x = viewport.width / 2
                y = v
            } else if let second {
                y = vertical(second) ?? length(second, percentOf: viewport.height, fontSize: fontSize)
            } else {
                y = viewport.height / 2
            }
        }
        guard let x, let y, x.isFinite, y.isFinite else { return nil }
        return Point(x: x, y: y)
    }
}
