/// The CSS filter functions of SVG 2's `filter` property (`blur(4) grayscale()`) as layer filters and a
/// drop shadow, with the Filter Effects spec's matrices.
import Foundation
import ReelGeometry
import ReelScene

/// A `filter` value of filter functions, as the layer draws it: its filters in order, and a shadow when
/// the list ends with `drop-shadow()`.
struct SVGFilterFunctions {
    var filters: [LayerFilter] = []
    var shadow: (color: Color, offset: Point, sigma: Double)?

    /// Nil when the value is not a list of filter functions Reel draws: a `url()` (a filter element), an
    /// invalid function (which invalidates the declaration, as CSS does), or a `drop-shadow()` that is
    /// not the last function or not the only one (the layer's shadow comes after its filters).
    static func parse(_ value: String, color currentColor: Color, fontSize: Double) -> SVGFilterFunctions? {
        var out = SVGFilterFunctions()
        var rest = Substring(value)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "," }
            if rest.isEmpty { break }
            guard let open = rest.firstIndex(of: "("), let close = Self.closing(rest, open) else { return nil }
            let name = rest[..<open].trimmingCharacters(in: .whitespaces).lowercased()
            let args = String(rest[rest.index(after: open)..<close]).trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: close)...]
            guard out.shadow == nil else { return nil }
            if name == "drop-shadow" {
                guard let shadow = dropShadow(args, color: currentColor, fontSize: fontSize) else { return nil }
                out.shadow = shadow
                continue
            }
            guard let filter = function(name, args, fontSize: fontSize) else { return nil }
            out.filters.append(filter)
        }
        return out
    }

    /// One function other than `drop-shadow()`.
    static func function(_ name: String, _ args: String, fontSize: Double) -> LayerFilter? {
        if name == "blur" {
            var f = LayerFilter(.gaussianBlur)
            guard args.isEmpty || !args.contains(" ") else { return nil }
            guard let r = args.isEmpty ? 0 : SVGValues.length(args, fontSize: fontSize), r >= 0, !args.hasSuffix("%")
            else { return nil }
            f.inputRadius = min(r, Scene.maximumFilterRadius)
            return f
        }
        if name == "hue-rotate" {
            guard let degrees = args.isEmpty ? 0 : angle(args) else { return nil }
            return matrix(hueRotate(degrees * .pi / 180))
        }
        // The rest take a number or a percentage, ≥ 0, 1 by default.
        guard let amount = args.isEmpty ? 1 : fraction(args), amount >= 0 else { return nil }
        let a = min(amount, 1)
        switch name {
        case "grayscale":
            let k = 1 - a
            return matrix([
                0.2126 + 0.7874 * k, 0.7152 - 0.7152 * k, 0.0722 - 0.0722 * k, 0, 0,
                0.2126 - 0.2126 * k, 0.7152 + 0.2848 * k, 0.0722 - 0.0722 * k, 0, 0,
                0.2126 - 0.2126 * k, 0.7152 - 0.7152 * k, 0.0722 + 0.9278 * k, 0, 0,
            ])
        case "sepia":
            // The Filter Effects spec's sepia matrix is the one `sepiaTone` draws.
            var f = LayerFilter(.sepiaTone)
            f.inputIntensity = a
            return f
        case "saturate":
            let s = amount
            return matrix([
                0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s, 0, 0,
                0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s, 0, 0,
                0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s, 0, 0,
            ])
        case "invert":
            return matrix([1 - 2 * a, 0, 0, 0, a, 0, 1 - 2 * a, 0, 0, a, 0, 0, 1 - 2 * a, 0, a])
        case "opacity":
            var f = LayerFilter(.colorMatrix)
            f.inputAVector = [0, 0, 0, a]
            return f
        case "brightness":
            return matrix([amount, 0, 0, 0, 0, 0, amount, 0, 0, 0, 0, 0, amount, 0, 0])
        case "contrast":
            let b = 0.5 - 0.5 * amount
            return matrix([amount, 0, 0, 0, b, 0, amount, 0, 0, b, 0, 0, amount, 0, b])
        default:
            return nil
        }
    }

    /// A colour matrix filter of three rows (red, green, blue: four coefficients and a bias each); alpha
    /// is kept.
    static func matrix(_ rows: [Double]) -> LayerFilter {
        var f = LayerFilter(.colorMatrix)
        f.inputRVector = Array(rows[0..<4])
        f.inputGVector = Array(rows[5..<9])
        f.inputBVector = Array(rows[10..<14])
        f.inputBiasVector = [rows[4], rows[9], rows[14], 0]
        return f
    }

    /// `hue-rotate()`'s matrix (feColorMatrix type="hueRotate").
    static func hueRotate(_ r: Double) -> [Double] {
        let c = cos(r), s = sin(r)
        return [
            0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928, 0, 0,
            0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283, 0, 0,
            0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072, 0, 0,
        ]
    }

    /// A number, or a percentage as a fraction.
    static func fraction(_ text: String) -> Double? {
        if text.hasSuffix("%") { return Double(text.dropLast()).map { $0 / 100 } }
        return Double(text)
    }

    /// An angle in degrees: `deg`, `rad`, `grad`, `turn`, or a bare 0.
    static func angle(_ text: String) -> Double? {
        for (unit, scale) in [("grad", 0.9), ("deg", 1.0), ("rad", 180 / Double.pi), ("turn", 360.0)] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).map { $0 * scale }
        }
        return Double(text) == 0 ? 0 : nil
    }

    /// The parenthesis closing the one at `open`, nested ones passed over (`drop-shadow(… rgba(…))`).
    static func closing(_ text: Substring, _ open: Substring.Index) -> Substring.Index? {
        var depth = 0
        for i in text[open...].indices {
            if text[i] == "(" { depth += 1 }
            if text[i] == ")" {
                depth -= 1
                if depth == 0 { return i }
            }
        }
        return nil
    }

    /// Words separated by white space outside parentheses (`0 2px rgba(0, 0, 0, 0.5)` is three).
    static func words(_ text: String) -> [String] {
        var out: [String] = [], word = "", depth = 0
        for c in text {
            if c == "(" { depth += 1 }
            if c == ")" { depth -= 1 }
            if c.isWhitespace && depth == 0 {
                if !word.isEmpty { out.append(word) }
                word = ""
            } else {
                word.append(c)
            }
        }
        if !word.isEmpty { out.append(word) }
        return out
    }

    /// `drop-shadow(color? dx dy blur?)`, the colour first or last (currentColor when absent); the blur
    /// is the Gaussian's standard deviation, as `feDropShadow`'s (measured against resvg's references).
    static func dropShadow(_ args: String, color currentColor: Color, fontSize: Double) -> (
        color: Color, offset: Point, sigma: Double
    )? {
        // Commas between the values, or no values at all, make the declaration invalid (resvg and Chrome
        // draw no shadow); a colour function keeps its own commas.
        var words = Self.words(args)
        guard !words.isEmpty, !words.contains(where: { !$0.hasSuffix(")") && $0.contains(",") }) else { return nil }
        var color = currentColor
        if let first = words.first, SVGValues.length(first, fontSize: fontSize) == nil {
            guard let c = first == "currentColor" ? currentColor : SVGValues.color(first) else { return nil }
            color = c
            words.removeFirst()
        } else if let last = words.last, SVGValues.length(last, fontSize: fontSize) == nil {
            guard let c = last == "currentColor" ? currentColor : SVGValues.color(last) else { return nil }
            color = c
            words.removeLast()
        }
        guard words.count <= 3, !words.contains(where: { $0.hasSuffix("%") }) else { return nil }
        let v = words.compactMap { SVGValues.length($0, fontSize: fontSize) }
        guard v.count == words.count, v.count != 1 else { return nil }
        guard v.count >= 2 else { return nil }
        let sigma = v.count == 3 ? v[2] : 0
        guard sigma >= 0 else { return nil }
        return (color, Point(x: v[0], y: v[1]), sigma)
    }
}
