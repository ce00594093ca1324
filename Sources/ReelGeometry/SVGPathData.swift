/// SVG path data (the `d` attribute): read into a `Path`, with errors at an offset, and written back
/// from one.
import Foundation

/// A problem in SVG path data, at a character offset (0-based) into the string.
public struct SVGPathError: Error, Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public var description: String { "at offset \(offset): \(message)" }
}

extension Path {
    /// Parses SVG path data (the `d` attribute): every command of SVG 1.1 §8.3, absolute and relative —
    /// M L H V C S Q T A Z — with implicit repetition, compact numbers (`1.5.5`, `1e-3`, `-1-2`) and
    /// compact arc flags (`a1 1 0 0110 10`). Errors name the offset of the bad token.
    public init(svgPathData data: String) throws(SVGPathError) {
        var parser = SVGPathParser(Array(data.utf8))
        self = try parser.parse()
    }
}

struct SVGPathParser {
    let bytes: [UInt8]
    var i = 0
    var path = Path()
    var current = Point.zero
    var subpathStart = Point.zero
    var lastCubicControl: Point?
    var lastQuadControl: Point?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func parse() throws(SVGPathError) -> Path {
        skipSpace()
        var command: UInt8 = 0
        var first = true
        while i < bytes.count {
            let b = bytes[i]
            if isCommand(b) {
                command = b
                i += 1
            } else if first || command == 0 {
                throw SVGPathError(
                    offset: i, message: "path data must start with a moveto (M or m), found '\(Character(UnicodeScalar(b)))'")
            } else if command == UInt8(ascii: "Z") || command == UInt8(ascii: "z") {
                throw SVGPathError(offset: i, message: "unexpected '\(Character(UnicodeScalar(b)))' after closepath")
            }
            // Otherwise the previous command repeats; a repeated moveto is a lineto.
            if first && command != UInt8(ascii: "M") && command != UInt8(ascii: "m") {
                throw SVGPathError(
                    offset: i - 1,
                    message: "path data must start with a moveto (M or m), found '\(Character(UnicodeScalar(command)))'")
            }
            first = false
            try run(command)
            if command == UInt8(ascii: "M") { command = UInt8(ascii: "L") }
            if command == UInt8(ascii: "m") { command = UInt8(ascii: "l") }
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: ",") {
                throw SVGPathError(offset: i, message: "unexpected ','")
            }
        }
        return path
    }

    func isCommand(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "M"), UInt8(ascii: "m"), UInt8(ascii: "L"), UInt8(ascii: "l"), UInt8(ascii: "H"), UInt8(ascii: "h"),
            UInt8(ascii: "V"), UInt8(ascii: "v"), UInt8(ascii: "C"), UInt8(ascii: "c"), UInt8(ascii: "S"), UInt8(ascii: "s"),
            UInt8(ascii: "Q"), UInt8(ascii: "q"), UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: "A"), UInt8(ascii: "a"),
            UInt8(ascii: "Z"), UInt8(ascii: "z"):
            return true
        default:
            return false
        }
    }

    mutating func run(_ c: UInt8) throws(SVGPathError) {
        let relative = c >= UInt8(ascii: "a")
        let base = relative ? current : Point.zero
        func pt(_ x: Double, _ y: Double) -> Point { Point(x: base.x + x, y: base.y + y) }
        switch c | 0x20 {  // lower-case
        case UInt8(ascii: "m"):
            let p = pt(try number(), try number())
            path.move(to: p)
            current = p
            subpathStart = p
            lastCubicControl = nil
            lastQuadControl = nil
        case UInt8(ascii: "l"):
            let p = pt(try number(), try number())
            line(to: p)
        case UInt8(ascii: "h"):
            let x = try number()
            line(to: Point(x: relative ? current.x + x : x, y: current.y))
        case UInt8(ascii: "v"):
            let y = try number()
            line(to: Point(x: current.x, y: relative ? current.y + y : y))
        case UInt8(ascii: "c"):
            let c1 = pt(try number(), try number()), c2 = pt(try number(), try number()), p = pt(try number(), try number())
            cubic(c1, c2, p)
        case UInt8(ascii: "s"):
            let c1 = lastCubicControl.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
            let c2 = pt(try number(), try number()), p = pt(try number(), try number())
            cubic(c1, c2, p)
        case UInt8(ascii: "q"):
            let q = pt(try number(), try number()), p = pt(try number(), try number())
            quad(q, p)
        case UInt8(ascii: "t"):
            let q = lastQuadControl.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
            let p = pt(try number(), try number())
            quad(q, p)
        case UInt8(ascii: "a"):
            let rx = try number(), ry = try number(), rotation = try number()
            let large = try flag(), sweep = try flag()
            let p = pt(try number(), try number())
            arc(rx: rx, ry: ry, rotationDegrees: rotation, largeArc: large, sweep: sweep, to: p)
        default:  // z
            path.closeSubpath()
            current = subpathStart
            lastCubicControl = nil
            lastQuadControl = nil
        }
    }

    mutating func line(to p: Point) {
        if path.isEmpty { path.move(to: current) }
        path.addLine(to: p)
        current = p
        lastCubicControl = nil
        lastQuadControl = nil
    }

    mutating func cubic(_ c1: Point, _ c2: Point, _ p: Point) {
        if path.isEmpty { path.move(to: current) }
        path.addCurve(to: p, control1: c1, control2: c2)
        current = p
        lastCubicControl = c2
        lastQuadControl = nil
    }

    mutating func quad(_ q: Point, _ p: Point) {
        if path.isEmpty { path.move(to: current) }
        path.addQuadCurve(to: p, control: q)
        current = p
        lastQuadControl = q
        lastCubicControl = nil
    }

    /// SVG 1.1 F.6.5: endpoint to centre parameterisation, radii scaled up when too small (F.6.6).
    mutating func arc(rx rxIn: Double, ry ryIn: Double, rotationDegrees: Double, largeArc: Bool, sweep: Bool, to p: Point) {
        let p0 = current
        var rx = abs(rxIn), ry = abs(ryIn)
        if p0 == p { return }
        if rx == 0 || ry == 0 {
            line(to: p)
            return
        }
        let phi = rotationDegrees * Double.pi / 180
        let cphi = cos(phi), sphi = sin(phi)
        let dx = (p0.x - p.x) / 2, dy = (p0.y - p.y) / 2
        let x1 = cphi * dx + sphi * dy, y1 = -sphi * dx + cphi * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            rx *= lambda.squareRoot()
            ry *= lambda.squareRoot()
        }
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var coef = (max(0, num) / den).squareRoot()
        if largeArc == sweep { coef = -coef }
        let cx1 = coef * rx * y1 / ry, cy1 = -coef * ry * x1 / rx
        let center = Point(x: cphi * cx1 - sphi * cy1 + (p0.x + p.x) / 2, y: sphi * cx1 + cphi * cy1 + (p0.y + p.y) / 2)
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep && delta > 0 { delta -= 2 * Double.pi }
        if sweep && delta < 0 { delta += 2 * Double.pi }
        // Radii or endpoints so extreme (1e-320, 1e200) that the centre cannot be computed: the arc is
        // drawn as the straight line it degenerates to, as SVG does for zero radii.
        guard center.isFinite, theta1.isFinite, delta.isFinite, rx.isFinite, ry.isFinite, rx > 0, ry > 0 else {
            line(to: p)
            return
        }
        if path.isEmpty { path.move(to: p0) }
        let before = path.elements.count
        path.appendArcCurves(center: center, rx: rx, ry: ry, rotation: phi, start: theta1, sweep: delta)
        // Land exactly on the endpoint the data names.
        if path.elements.count > before, case .cubic(let c1, let c2, _) = path.elements.last! {
            path.replaceLast(with: .cubic(c1, c2, p))
        }
        current = p
        lastCubicControl = nil
        lastQuadControl = nil
    }

    mutating func skipSpace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(bytes[i]) { i += 1 }
    }

    mutating func skipSeparator() {
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: ",") {
            i += 1
            skipSpace()
        }
    }

    mutating func number() throws(SVGPathError) -> Double {
        skipSeparator()
        let start = i
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
        var digits = 0
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            i += 1
            digits += 1
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                i += 1
                digits += 1
            }
        }
        guard digits > 0 else {
            let found = start < bytes.count ? "'\(Character(UnicodeScalar(bytes[start])))'" : "the end of the data"
            i = start
            throw SVGPathError(offset: start, message: "expected a number, found \(found)")
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            var j = i + 1
            if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            if j < bytes.count, bytes[j] >= 0x30, bytes[j] <= 0x39 {
                i = j
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            throw SVGPathError(offset: start, message: "number \(text) is out of range")
        }
        return v
    }

    mutating func flag() throws(SVGPathError) -> Bool {
        skipSeparator()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "0") || bytes[i] == UInt8(ascii: "1") else {
            throw SVGPathError(offset: i, message: "expected an arc flag (0 or 1)")
        }
        defer { i += 1 }
        return bytes[i] == UInt8(ascii: "1")
    }
}

extension Path {
    mutating func replaceLast(with element: Element) {
        elements[elements.count - 1] = element
    }
}

extension Path {
    /// SVG path data for the path (absolute commands M, L, Q, C, Z).
    public var svgPathData: String {
        func n(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)" }
        func p(_ q: Point) -> String { "\(n(q.x)) \(n(q.y))" }
        return elements.map { e -> String in
            switch e {
            case .move(let q): return "M\(p(q))"
            case .line(let q): return "L\(p(q))"
            case .quad(let c, let q): return "Q\(p(c)) \(p(q))"
            case .cubic(let c1, let c2, let q): return "C\(p(c1)) \(p(c2)) \(p(q))"
            case .close: return "Z"
            }
        }.joined(separator: " ")
    }
}
