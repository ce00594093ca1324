/// Paths: SVG path data and lists of shapes (rects, ovals, arcs, lines), within the coordinate and
/// element limits.
import Foundation
import ReelAnimation
import ReelDocument
import ReelGeometry

extension Reader {
    /// A path: SVG path data, or a list of shapes.
    func shapePath(_ node: JSONNode, _ path: String) throws(SceneError) -> Path {
        let result: Path
        switch node.value {
        case .string(let data):
            result = try svg(data, node, path)
        case .array(let items):
            var out = Path()
            for (i, item) in items.enumerated() { out.addPath(try shape(item, "\(path)[\(i)]")) }
            result = out
        default:
            throw fail(
                node, path, "expected a path (SVG path data or a list of shapes), found \(node.kindName)",
                fix: "write e.g. \"M 0 0 L 10 10\" or [{\"oval\": [0, 0, 20, 20]}]")
        }
        // Past this no picture is meaningful, and outlines of strokes through ±1e308 overflow.
        let limit = Scene.maximumCoordinate
        for e in result.elements {
            let points: [Point]
            switch e {
            case .move(let p), .line(let p): points = [p]
            case .quad(let c, let p): points = [c, p]
            case .cubic(let c1, let c2, let p): points = [c1, c2, p]
            case .close: points = []
            }
            for p in points where !(abs(p.x) <= limit && abs(p.y) <= limit) {
                throw fail(
                    node, path, "a path coordinate (\(p.x), \(p.y)) is beyond ±\(limit) points",
                    fix: "keep coordinates within ±1e9; scale the layer instead")
            }
        }
        if result.elements.count > Self.maximumPathElements {
            throw fail(
                node, path, "the path has \(result.elements.count) elements, above the limit of \(Self.maximumPathElements)",
                fix: "simplify the path")
        }
        return result
    }

    /// The most elements one path may have.
    static let maximumPathElements = 1_000_000

    func svg(_ data: String, _ node: JSONNode, _ path: String) throws(SceneError) -> Path {
        let parsed: Path
        do {
            parsed = try Path(svgPathData: data)
        } catch {
            // Point at the bad token: the string's column, past the opening quote, plus the offset.
            var location = node.location
            location.column += 1 + error.offset
            throw SceneError(
                file: file, location: location, path: path, message: "SVG path data: \(error.message) (offset \(error.offset))")
        }
        return parsed
    }

    static let shapeKinds = ["rect", "roundedRect", "oval", "arc", "svg", "lines"]

    func shape(_ node: JSONNode, _ path: String) throws(SceneError) -> Path {
        let m = try members(
            node, path, known: Self.shapeKinds + ["cornerRadius", "radius", "startAngle", "endAngle", "clockwise", "closed"],
            what: "a shape")
        let kinds = Self.shapeKinds.filter { m[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first, let value = m[kind] else {
            throw fail(
                node, path, "a shape needs exactly one of \(Self.shapeKinds.joined(separator: ", "))",
                fix: "e.g. {\"oval\": [x, y, width, height]}")
        }
        let p = join(path, kind)
        switch kind {
        case "rect":
            return Path(rect: try rect(value, p))
        case "roundedRect":
            let r = try m["cornerRadius"].map { n throws(SceneError) in try number(n, join(path, "cornerRadius")) } ?? 0
            return Path(roundedRect: try rect(value, p), cornerRadius: r)
        case "oval":
            return Path(ovalIn: try rect(value, p))
        case "arc":
            let center = try point(value, p)
            func need(_ key: String) throws(SceneError) -> Double {
                guard let n = m[key] else { throw fail(node, join(path, key), "an arc needs \"\(key)\"") }
                return try number(n, join(path, key))
            }
            let clockwise = try m["clockwise"].map { n throws(SceneError) in try bool(n, join(path, "clockwise")) } ?? true
            var out = Path()
            out.addArc(
                center: center, radius: try need("radius"), startAngle: try need("startAngle"), endAngle: try need("endAngle"),
                clockwise: clockwise)
            return out
        case "svg":
            return try svg(try string(value, p), value, p)
        default:  // lines
            var out = Path()
            for (i, item) in try array(value, p).enumerated() {
                let q = try point(item, "\(p)[\(i)]")
                if i == 0 { out.move(to: q) } else { out.addLine(to: q) }
            }
            if try m["closed"].map({ n throws(SceneError) in try bool(n, join(path, "closed")) }) ?? false { out.closeSubpath() }
            return out
        }
    }
}
