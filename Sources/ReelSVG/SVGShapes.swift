/// The basic shapes and paths of SVG as `Path`s in user units, as the specification defines each
/// (where it starts and which way it runs matters for dashes and `strokeEnd`).
import ReelGeometry

enum SVGShapes {
    /// `viewport` is what percentages are of: x-like attributes of its width, y-like of its height, a
    /// radius of its normalized diagonal.
    static func path(of e: SVGElement, viewport: Size, fontSize: Double = 12) -> Path? {
        let a = e.attributes
        let diagonal = SVGValues.normalizedDiagonal(viewport)
        func len(_ key: String) -> Double? {
            let base: Double
            switch key {
            case "x", "width", "cx", "rx", "x1", "x2": base = viewport.width
            case "y", "height", "cy", "ry", "y1", "y2": base = viewport.height
            default: base = diagonal
            }
            return SVGValues.length(a[key], percentOf: base, fontSize: fontSize)
        }
        switch e.name {
        case "rect":
            let x = len("x") ?? 0, y = len("y") ?? 0
            guard let w = len("width"), let h = len("height"), w > 0, h > 0 else { return nil }
            // rx and ry: one given stands for both; each at most half the side.
            var rx = len("rx").flatMap { $0 >= 0 ? $0 : nil }, ry = len("ry").flatMap { $0 >= 0 ? $0 : nil }
            if rx == nil { rx = ry }
            if ry == nil { ry = rx }
            let cx = min(rx ?? 0, w / 2), cy = min(ry ?? 0, h / 2)
            guard cx > 0, cy > 0 else { return Path(rect: Rect(x: x, y: y, width: w, height: h)) }
            let d = """
                M \(x + cx) \(y) H \(x + w - cx) A \(cx) \(cy) 0 0 1 \(x + w) \(y + cy) V \(y + h - cy) \
                A \(cx) \(cy) 0 0 1 \(x + w - cx) \(y + h) H \(x + cx) A \(cx) \(cy) 0 0 1 \(x) \(y + h - cy) \
                V \(y + cy) A \(cx) \(cy) 0 0 1 \(x + cx) \(y) Z
                """
            return try? Path(svgPathData: d)
        case "circle":
            guard let r = len("r"), r > 0 else { return nil }
            let cx = len("cx") ?? 0, cy = len("cy") ?? 0
            return Path(ovalIn: Rect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r))
        case "ellipse":
            // SVG 2: a missing or negative radius is auto, which takes the other one.
            var rx = len("rx").flatMap { $0 >= 0 ? $0 : nil }, ry = len("ry").flatMap { $0 >= 0 ? $0 : nil }
            if rx == nil { rx = ry }
            if ry == nil { ry = rx }
            guard let rx, let ry, rx > 0, ry > 0 else { return nil }
            let cx = len("cx") ?? 0, cy = len("cy") ?? 0
            return Path(ovalIn: Rect(x: cx - rx, y: cy - ry, width: 2 * rx, height: 2 * ry))
        case "line":
            var p = Path()
            p.move(to: Point(x: len("x1") ?? 0, y: len("y1") ?? 0))
            p.addLine(to: Point(x: len("x2") ?? 0, y: len("y2") ?? 0))
            return p
        case "polyline", "polygon":
            // An odd count drops the last number; what was read before an error is drawn.
            var numbers: [Double] = []
            var rest = Substring(a["points"] ?? "")
            while true {
                rest = rest.drop { $0.isWhitespace || $0 == "," }
                guard let (v, after) = SVGValues.number(rest) else { break }
                numbers.append(v)
                rest = after
            }
            guard numbers.count >= 4 else { return nil }
            var p = Path()
            p.move(to: Point(x: numbers[0], y: numbers[1]))
            for i in stride(from: 2, to: numbers.count - 1, by: 2) { p.addLine(to: Point(x: numbers[i], y: numbers[i + 1])) }
            if e.name == "polygon" { p.closeSubpath() }
            return p
        case "path":
            guard let d = a["d"] else { return nil }
            do {
                return try Path(svgPathData: d)
            } catch {
                // SVG draws a path up to its first error: the segments before it that are complete. Up to
                // 8 trailing tokens (an arc has 7 numbers) are dropped until what is left reads.
                var bytes = Array(d.utf8).prefix(error.offset)
                for _ in 0..<8 {
                    if let p = try? Path(svgPathData: String(decoding: bytes, as: UTF8.self)) { return p }
                    while let last = bytes.last, last == 0x20 || last == 0x2C || (0x09...0x0D).contains(last) {
                        bytes.removeLast()
                    }
                    guard let last = bytes.last else { return nil }
                    if Self.isCommand(last) {
                        bytes.removeLast()
                    } else {
                        while let c = bytes.last, c != 0x20, c != 0x2C, !(0x09...0x0D).contains(c), !Self.isCommand(c) {
                            bytes.removeLast()
                        }
                    }
                }
                return nil
            }
        default:
            return nil
        }
    }

    /// A path command letter (not `e`/`E`, which are exponents).
    static func isCommand(_ b: UInt8) -> Bool { "MmLlHhVvCcSsQqTtAaZz".utf8.contains(b) }
}
