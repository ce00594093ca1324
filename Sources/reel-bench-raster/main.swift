// Draws the path sets of a benchmark spec (written by scripts/bench_raster.py) with Reel's rasterizer
// and prints draws per millisecond, one JSON object per line. See scripts/bench-raster.sh. `--dump DIR`
// writes each test's frame there (NAME.rgba), to compare two builds' pictures byte for byte.
import Dispatch
import Foundation
import ReelGeometry
import ReelRaster

struct Options {
    var spec = ""
    var threads = 1
    var iterations = 5
    var only: String?
    /// A folder to write each test's frame into (`NAME.rgba`, raw RGBA8) after its warm-up, so that two
    /// builds' pictures can be compared byte for byte.
    var dump: String?
}

func parseOptions() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    while let a = args.popFirst() {
        switch a {
        case "--threads": o.threads = Int(args.popFirst() ?? "") ?? 1
        case "--iterations": o.iterations = Int(args.popFirst() ?? "") ?? 5
        case "--only": o.only = args.popFirst()
        case "--dump": o.dump = args.popFirst()
        default: o.spec = a
        }
    }
    return o
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("reel-bench-raster: \(message)\n".utf8))
    exit(1)
}

struct Test {
    let name: String
    let stroke: Double?
    let paint: String
    let paths: [Path]
    let colors: [Color]
}

func path(_ commands: [[Any]]) -> Path {
    var p = Path()
    for c in commands {
        let n = c.dropFirst().map { ($0 as! NSNumber).doubleValue }
        switch c[0] as! String {
        case "M": p.move(to: Point(x: n[0], y: n[1]))
        case "L": p.addLine(to: Point(x: n[0], y: n[1]))
        case "Q": p.addQuadCurve(to: Point(x: n[2], y: n[3]), control: Point(x: n[0], y: n[1]))
        case "C": p.addCurve(to: Point(x: n[4], y: n[5]), control1: Point(x: n[0], y: n[1]), control2: Point(x: n[2], y: n[3]))
        default: p.closeSubpath()
        }
    }
    return p
}

let options = parseOptions()
guard let data = FileManager.default.contents(atPath: options.spec),
    let spec = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
    let width = spec["width"] as? Int, let height = spec["height"] as? Int,
    let imageSpec = spec["image"] as? [String: Any], let testSpecs = spec["tests"] as? [[String: Any]]
else { fail("cannot read the spec \(options.spec)") }

let image: RasterImage = {
    let rgba = (imageSpec["rgba"] as! [NSNumber]).map { UInt8(truncating: $0) }
    return RasterImage(width: imageSpec["width"] as! Int, height: imageSpec["height"] as! Int, premultipliedRGBA: rgba)!
}()

let tests: [Test] = testSpecs.map { t in
    Test(
        name: t["name"] as! String,
        stroke: (t["mode"] as! String) == "stroke" ? (t["strokeWidth"] as! NSNumber).doubleValue : nil,
        paint: t["paint"] as! String, paths: (t["paths"] as! [[[Any]]]).map(path),
        colors: (t["colors"] as! [[NSNumber]]).map { c in
            Color(red: c[0].doubleValue, green: c[1].doubleValue, blue: c[2].doubleValue, alpha: c[3].doubleValue)
        })
}

let rasterizer = Rasterizer(threads: options.threads)

/// The test's display list: one command per path, made once before anything is timed, as the peers'
/// harnesses make their paths and paints (gradient and image paints included) before their loops.
/// Strokes are stroke commands, outlined by the rasterizer as it draws (as the peers stroke per draw,
/// and as Reel's scenes draw them: on every thread it has).
func displayList(_ test: Test) -> DisplayList {
    var commands: [DisplayList.Command] = []
    commands.reserveCapacity(test.paths.count)
    for (i, p) in test.paths.enumerated() {
        let paint: Paint
        switch test.paint {
        case "linear", "image":
            let b = p.controlPointBounds ?? Rect(x: 0, y: 0, width: 1, height: 1)
            if test.paint == "linear" {
                paint = .gradient(
                    Gradient(kind: .axial(start: b.origin, end: Point(x: b.maxX, y: b.maxY)), colors: [test.colors[i], .white]))
            } else {
                let t = Transform2D.scale(x: b.width / Double(image.width), y: b.height / Double(image.height))
                    .concatenating(.translation(x: b.minX, y: b.minY))
                paint = .image(image, transform: t)
            }
        default:
            paint = .solid(test.colors[i])
        }
        if let width = test.stroke {
            commands.append(
                .stroke(path: p, style: StrokeStyle(lineWidth: width), transform: .identity, paint: paint, opacity: 1))
        } else {
            commands.append(.fill(path: p, paint: paint, opacity: 1, rule: .nonZero))
        }
    }
    return DisplayList(background: .white, commands: commands)
}

/// One iteration: clear, then draw every path — all of a frame's work from a display list: preparing
/// the shapes (flattening, stroking), the gradients' ramps, coverage and compositing.
func draw(_ list: DisplayList, _ test: Test, into frame: inout Frame) {
    do {
        try rasterizer.render(list, into: &frame)
    } catch {
        fail("\(test.name): \(error)")
    }
}

var frame = Frame(width: width, height: height)
for test in tests where options.only == nil || options.only == test.name {
    let list = displayList(test)
    draw(list, test, into: &frame)  // warm-up
    if let dump = options.dump {
        let file = URL(fileURLWithPath: dump).appendingPathComponent("\(test.name).rgba")
        do { try Data(frame.pixels).write(to: file) } catch { fail("cannot write \(file.path): \(error)") }
    }
    var times: [Double] = []
    for _ in 0..<max(1, options.iterations) {
        let start = DispatchTime.now().uptimeNanoseconds
        draw(list, test, into: &frame)
        let end = DispatchTime.now().uptimeNanoseconds
        times.append(Double(end - start) / 1e6)
    }
    times.sort()
    let median = times[times.count / 2]
    print(
        #"{"test": "\#(test.name)", "threads": \#(options.threads), "draws_per_ms": \#(Double(test.paths.count) / median), "median_ms": \#(median)}"#
    )
}
