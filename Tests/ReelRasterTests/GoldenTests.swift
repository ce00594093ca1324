// The scripts/goldens.py corpus drawn by Reel against Skia's PNGs (PSNR ≥ 40 dB, flat areas within 2 levels), any bands.
import Foundation
import ReelGeometry
import ReelMedia
import ReelRaster
import Testing

/// The corpus that scripts/goldens.py draws with Skia: each case is drawn here by Reel and compared
/// with Skia's PNG.
///
/// Metric and bounds:
/// - PSNR over RGB ≥ 40 dB for the whole picture. The two renderers compute anti-aliased coverage
///   differently (Skia's analytic AA and supersampling vs Reel's exact area), which moves edge pixels
///   by a few levels; ≥ 40 dB means an RMS difference under 2.6 levels.
/// - Away from edges — where Skia's own picture is flat, every channel of the 3×3 neighbourhood
///   within 2 levels — no pixel off by more than 2 levels: what is left there is gradient dithering
///   (±½ level) and rounding; a wrong colour, join, dash or missing piece shows as tens of levels.
/// On a failure, expected | difference ×8 | actual is written to test-artifacts/goldens/NAME.png.
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

    /// Every case in every configuration the renderer may run in (as vello runs its tests): one thread
    /// or several, the usual 32-row bands, bands that cut shapes and groups at odd rows, and one-row
    /// bands. The same tolerances hold in each; the band-identity tests check they agree byte for byte.
    static let configurations: [Configuration] = [
        Configuration(threads: 1, bandHeight: 32), Configuration(threads: 2, bandHeight: 32),
        Configuration(threads: 3, bandHeight: 7), Configuration(threads: 4, bandHeight: 1),
    ]

    struct Configuration: CustomTestStringConvertible, Sendable {
        let threads: Int
        let bandHeight: Int
        var testDescription: String { "\(threads) threads, \(bandHeight)-row bands" }
    }

    @Test(arguments: cases, configurations)
    func matchesSkia(_ c: Case, _ configuration: Configuration) throws {
        let width = c.json["width"] as! Int, height = c.json["height"] as! Int
        var list = DisplayList(background: color(c.json["background"]))
        list.commands = commands(c.json["ops"] as! [Any])
        let frame = try Rasterizer(threads: configuration.threads, bandHeight: configuration.bandHeight)
            .render(list, width: width, height: height)
        let golden = try ImageFile.read(path: Self.directory.appendingPathComponent("\(c.name).png").path)
        #expect(golden.width == width && golden.height == height)

        var sum = 0.0
        var worstFlat = 0
        var worstAt = (0, 0)
        for y in 0..<height {
            for x in 0..<width {
                for ch in 0..<3 {
                    let i = (y * width + x) * 4 + ch
                    let d = Int(frame.pixels[i]) - Int(golden.rgba[i])
                    sum += Double(d * d)
                    if abs(d) > worstFlat && isFlat(golden, x, y, width, height) {
                        worstFlat = abs(d)
                        worstAt = (x, y)
                    }
                }
            }
        }
        let mse = sum / Double(width * height * 3)
        let psnr = mse == 0 ? Double.infinity : 10 * log10(255 * 255 / mse)
        let ok = psnr >= 40 && worstFlat <= 2
        #expect(psnr >= 40, "\(c.name): PSNR \(psnr) dB")
        #expect(worstFlat <= 2, "\(c.name): \(worstFlat) levels off at \(worstAt), away from edges")
        if !ok { writeComparison(c.name, golden: golden.rgba, actual: frame.pixels, width: width, height: height) }
    }

    func isFlat(_ g: StillImage, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Bool {
        for ch in 0..<3 {
            var lo = 255, hi = 0
            for yy in max(0, y - 1)...min(h - 1, y + 1) {
                for xx in max(0, x - 1)...min(w - 1, x + 1) {
                    let v = Int(g.rgba[(yy * w + xx) * 4 + ch])
                    lo = min(lo, v)
                    hi = max(hi, v)
                }
            }
            if hi - lo > 2 { return false }
        }
        return true
    }

    func writeComparison(_ name: String, golden: [UInt8], actual: [UInt8], width: Int, height: Int) {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("test-artifacts/goldens")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var px = [UInt8](repeating: 255, count: width * 3 * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let s = (y * width + x) * 4
                for ch in 0..<3 {
                    px[(y * width * 3 + x) * 4 + ch] = golden[s + ch]
                    px[(y * width * 3 + width + x) * 4 + ch] = UInt8(min(255, abs(Int(golden[s + ch]) - Int(actual[s + ch])) * 8))
                    px[(y * width * 3 + 2 * width + x) * 4 + ch] = actual[s + ch]
                }
            }
        }
        try? ImageFile.writePNG(
            StillImage(width: width * 3, height: height, rgba: px), to: dir.appendingPathComponent("\(name).png").path)
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
