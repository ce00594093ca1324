// The scripts/goldens.py corpus drawn by Reel every way against Skia's PNGs, within the named golden tolerances.
import Foundation
import ReelGeometry
import ReelMedia
import ReelRaster
import ReelTestSupport
import Testing

/// The corpus that scripts/goldens.py draws with Skia: each case is drawn here by Reel and compared
/// with Skia's PNG.
///
/// Metric and bounds (`GoldenComparison`): PSNR over RGB of at least `Tolerance.goldenPSNR` for the
/// whole picture, and away from edges (where Skia's own picture is flat) no channel off by more than
/// `Tolerance.goldenFlatLevels`; the reasons are with the constants. On a failure, expected |
/// difference ×8 | actual is written to test-artifacts/goldens/NAME.png.
@Suite struct GoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let json: [String: any Sendable]
        var testDescription: String { name }
    }

    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Goldens")

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("corpus.json")),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = root["cases"] as? [[String: any Sendable]]
        else { return [] }
        return list.map { Case(name: $0["name"] as! String, json: $0) }
    }()

    @Test func corpusIsThere() {
        #expect(Self.cases.count >= 12)
    }

    /// Every case drawn every way the renderer may run (`renderEveryWay`, as vello runs its tests: one
    /// thread or several, the usual 32-row bands, bands that cut shapes and groups at odd rows, one-row
    /// bands, one band for the whole frame), the same bytes each way, then compared with Skia's PNG.
    @Test(arguments: cases)
    func matchesSkia(_ c: Case) throws {
        let width = c.json["width"] as! Int, height = c.json["height"] as! Int
        var list = DisplayList(background: color(c.json["background"]))
        list.commands = commands(c.json["ops"] as! [Any])
        let frame = try renderEveryWay(list, width: width, height: height)
        let golden = try ImageFile.read(path: Self.directory.appendingPathComponent("\(c.name).png").path)
        try #require(golden.width == width && golden.height == height)

        let result = GoldenComparison(actual: frame.pixels, golden: golden.rgba, width: width, height: height)
        #expect(result.psnr >= Tolerance.goldenPSNR, "\(c.name): PSNR \(result.psnr) dB")
        #expect(
            result.worstFlat <= Tolerance.goldenFlatLevels,
            "\(c.name): \(result.worstFlat) levels off at \(result.worstAt), away from edges")
        if !result.passes {
            let px = GoldenComparison.sideBySide(golden: golden.rgba, actual: frame.pixels, width: width, height: height)
            try? ImageFile.writePNG(
                StillImage(width: width * 3, height: height, rgba: px),
                to: GoldenComparison.artifactsDirectory("goldens").appendingPathComponent("\(c.name).png").path)
        }
    }

    // MARK: - The corpus's conventions (see scripts/goldens.py)

    func color(_ v: Any?) -> Color {
        let c = (v as? [Double]) ?? [0, 0, 0, 1]
        return Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }

    func point(_ v: Any?) -> Point {
        let c = v as! [Double]
        return Point(x: c[0], y: c[1])
    }

    func path(_ v: Any?) -> Path {
        var p = Path()
        for cmd in v as! [[Any]] {
            let n = cmd.dropFirst().map { ($0 as! NSNumber).doubleValue }
            switch cmd[0] as! String {
            case "M": p.move(to: Point(x: n[0], y: n[1]))
            case "L": p.addLine(to: Point(x: n[0], y: n[1]))
            case "Q": p.addQuadCurve(to: Point(x: n[2], y: n[3]), control: Point(x: n[0], y: n[1]))
            case "C":
                p.addCurve(to: Point(x: n[4], y: n[5]), control1: Point(x: n[0], y: n[1]), control2: Point(x: n[2], y: n[3]))
            default: p.closeSubpath()
            }
        }
        return p
    }

    static let testImage: RasterImage = {
        var px: [UInt8] = []
        for y in 0..<8 {
            for x in 0..<8 { px += [UInt8(min(255, 32 * x)), UInt8(min(255, 32 * y)), UInt8(255 - 16 * (x + y)), 255] }
        }
        return RasterImage(width: 8, height: 8, premultipliedRGBA: px)!
    }()

    func commands(_ ops: [Any]) -> [DisplayList.Command] {
        var out: [DisplayList.Command] = []
        for case let op as [String: Any] in ops {
            switch op["op"] as! String {
            case "fill":
                let rule: FillRule = (op["rule"] as? String) == "evenOdd" ? .evenOdd : .nonZero
                if let g = op["gradient"] as? [String: Any] {
                    out.append(.fill(path: path(op["path"]), paint: .gradient(gradient(g)), opacity: 1, rule: rule))
                } else {
                    out.append(.fill(path: path(op["path"]), color: color(op["color"]), rule: rule))
                }
            case "stroke":
                var style = StrokeStyle(
                    lineWidth: op["width"] as! Double, lineCap: LineCap(rawValue: op["cap"] as! String)!,
                    lineJoin: LineJoin(rawValue: op["join"] as! String)!, miterLimit: op["miterLimit"] as! Double)
                if let dash = op["dash"] as? [Double] {
                    style.lineDashPattern = dash
                    style.lineDashPhase = op["phase"] as! Double
                }
                if let trim = op["trim"] as? [Double] {
                    style.strokeStart = trim[0]
                    style.strokeEnd = trim[1]
                }
                out.append(.fill(path: Stroker.outline(path(op["path"]), style: style), color: color(op["color"])))
            case "image":
                let m = op["matrix"] as! [Double]
                let t = Transform2D(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5])
                out.append(
                    .fill(
                        path: Path(rect: Rect(x: 0, y: 0, width: 8, height: 8)).applying(t),
                        paint: .image(Self.testImage, transform: t), opacity: 1, rule: .nonZero))
            default:  // group
                let mask = op["mask"] as? [Any]
                out.append(
                    .beginGroup(Group(opacity: op["opacity"] as! Double, clip: op["clip"].map { path($0) }, hasMask: mask != nil))
                )
                out.append(contentsOf: commands(op["ops"] as! [Any]))
                if let mask {
                    out.append(.beginMask)
                    out.append(contentsOf: commands(mask))
                }
                out.append(.endGroup)
            }
        }
        return out
    }

    func gradient(_ g: [String: Any]) -> Gradient {
        let colors = (g["colors"] as! [Any]).map { color($0) }
        let locations = g["locations"] as? [Double]
        switch g["type"] as! String {
        case "linear":
            return Gradient(kind: .axial(start: point(g["start"]), end: point(g["end"])), colors: colors, locations: locations)
        case "radial":
            return Gradient(
                kind: .radial(center: point(g["center"]), radiusX: g["radiusX"] as! Double, radiusY: g["radiusY"] as! Double),
                colors: colors, locations: locations)
        default:
            return Gradient(kind: .conic(center: point(g["center"]), startAngle: 0), colors: colors, locations: locations)
        }
    }
}
