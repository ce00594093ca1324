/// The C kernels' variants against the portable one on seeded random spans, byte for byte, the
/// portable solid kernels against the Swift kernels they replaced, the solid, axial gradient and image
/// rows of every variant against the walks in Swift; `REEL_KERNELS`'s values.
import CRasterKernels
import Foundation
import ReelGeometry
import ReelTestSupport
import Testing

@testable import ReelRaster

@Suite struct KernelVariantTests {
    typealias Seeded = SeededGenerator

    /// A ramp in 8.7 as `Fixed87.fixed` makes them: colours within their alpha.
    static func ramp(_ g: inout Seeded) -> [Int16] {
        var ramp = [Int16]()
        for _ in 0..<GradientShader.rampSize {
            let a = Float.random(in: 0...255, using: &g)
            let entry = Fixed87.fixed(
                SIMD4(
                    Float.random(in: 0...a, using: &g), Float.random(in: 0...a, using: &g), Float.random(in: 0...a, using: &g), a)
            )
            for k in 0..<4 { ramp.append(entry[k]) }
        }
        return ramp
    }

    /// Coverages as the walks leave them: 0, 1 and values between.
    static func coverages(_ g: inout Seeded, _ count: Int) -> [Float] {
        (0..<count + 4).map { _ in
            switch Int.random(in: 0..<4, using: &g) {
            case 0: return 0
            case 1: return 1
            default: return Float.random(in: 0...1, using: &g)
            }
        }
    }

    /// `draw` run with every variant this CPU runs on a copy of `pixels`: each must leave the portable
    /// one's bytes, and nothing past the span's `count` pixels changed.
    static func expectSameBytes(
        _ kind: String, _ pixels: [UInt8], count: Int, sourceLocation: SourceLocation = #_sourceLocation,
        _ draw: (reel_raster_kernels, UnsafeMutablePointer<UInt8>) -> Void
    ) {
        func run(_ v: KernelVariant) -> [UInt8] {
            var out = pixels
            out.withUnsafeMutableBufferPointer { draw(v.table, $0.baseAddress!) }
            return out
        }
        let portable = run(.portable)
        #expect(
            portable[(count * 4)...] == pixels[(count * 4)...], "\(kind): written past the span", sourceLocation: sourceLocation)
        for v in KernelVariant.supported.dropFirst() {
            let out = run(v)
            if out != portable {
                let i = out.indices.first { out[$0] != portable[$0] } ?? 0
                Issue.record(
                    "\(kind), \(count) pixels: \(v) differs from portable at byte \(i): \(out[i]) not \(portable[i])",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func everyVariantWritesThePortableBytes() {
        var g = Seeded(state: 48)
        let ramp = Self.ramp(&g)
        let image = (0..<(37 * 23 * 4)).map { _ in UInt8.random(in: 0...255, using: &g) }
        ramp.withUnsafeBufferPointer { ramp in
            image.withUnsafeBufferPointer { image in
                for trial in 0..<600 {
                    let count = trial % 7 == 0 ? Int.random(in: 1...40, using: &g) : Int.random(in: 1...300, using: &g)
                    let pixels = (0..<(count + 20) * 4).map { _ in UInt8.random(in: 0...255, using: &g) }
                    let coverages = Self.coverages(&g, count)
                    coverages.withUnsafeBufferPointer { coverages in
                        check(trial, count, pixels, ramp.baseAddress!, image.baseAddress!, coverages.baseAddress!, &g)
                    }
                }
            }
        }
    }

    private func check(
        _ trial: Int, _ count: Int, _ pixels: [UInt8], _ ramp: UnsafePointer<Int16>, _ image: UnsafePointer<UInt8>,
        _ coverages: UnsafePointer<Float>, _ g: inout Seeded
    ) {
        let alpha = Float.random(in: 0...255, using: &g)
        let color = SIMD4(
            Float.random(in: 0...alpha, using: &g), Float.random(in: 0...alpha, using: &g),
            Float.random(in: 0...alpha, using: &g),
            alpha)
        let run = ConstantSourceOver(color)
        let word = UInt32.random(in: 0...UInt32.max, using: &g)
        Self.expectSameBytes("fill", pixels, count: count) { k, p in k.fill(p, count, word) }
        Self.expectSameBytes("solid", pixels, count: count) { k, p in k.solid(p, count, run.keep, run.addWord) }
        let s = color * Float.random(in: 0...1, using: &g)
        Self.expectSameBytes("solid_float", pixels, count: count) { k, p in
            k.solid_float(p, count, reel_rgba_f(r: s.x, g: s.y, b: s.z, a: s.w), 1 - s.w * (1 / 255))
        }
        // Parameters within ±16 step in 16.16 (indices clamped where they leave the ramp), beyond in floats.
        let fixed = trial % 3 != 0
        let t = fixed ? Double.random(in: -1.5...2.5, using: &g) : Double.random(in: -300...300, using: &g)
        let dt = Double.random(in: -0.02...0.02, using: &g)
        let scale = Double(GradientShader.rampSize - 1) * 65536
        let partial = trial % 2 == 0
        let axial = reel_axial_span(
            ramp: ramp, dither: UnsafeRawPointer(Fixed87.ditherTable).assumingMemoryBound(to: Int16.self),
            coverages: trial % 4 == 1 ? coverages : nil, count: count,
            x0: Int.random(in: 0...2000, using: &g), dither_row: Int.random(in: 0..<8, using: &g) * 8,
            first: fixed ? Fixed87.nearestInt32(t * scale + 32768) : 0, step: fixed ? Fixed87.nearestInt32(dt * scale) : 0,
            t: Float(t), dt: Float(dt), fixed_point: fixed ? 1 : 0, ramp_size: Int32(GradientShader.rampSize),
            coverage: UInt16.random(in: 0...65535, using: &g), partial: partial || trial % 4 == 1 ? 1 : 0)
        Self.expectSameBytes("axial", pixels, count: count) { k, p in k.axial(p, axial) }
        // Images scaled, turned (or level: dv = 0), beyond their sides (clamped), with a factor or coverages.
        let level = trial % 5 == 0
        let span = reel_image_span(
            texels: image, width: 37, height: 23, u: Double.random(in: -20...50, using: &g),
            v: Double.random(in: -10...30, using: &g), du: Double.random(in: -0.7...0.7, using: &g),
            dv: level ? 0 : Double.random(in: -0.3...0.3, using: &g), coverages: trial % 4 == 3 ? coverages : nil,
            opacity: Float.random(in: 0...1, using: &g), factor: UInt16.random(in: 0...65535, using: &g),
            scaled: trial % 2 == 1 ? 1 : 0, count: count)
        Self.expectSameBytes("image", pixels, count: count) { k, p in k.image(p, span) }
    }

    /// The portable solid kernels give the bytes of the Swift kernels that drew runs before them
    /// (`ConstantSourceOver.apply` at full coverage, `blend(_:count:_:_:)` below it), which the
    /// short runs and the edges' lanes still use.
    @Test func portableSolidMatchesTheSwiftKernels() {
        var g = Seeded(state: 24)
        for _ in 0..<300 {
            let count = Int.random(in: 1...70, using: &g)
            let pixels = (0..<count * 4).map { _ in UInt8.random(in: 0...255, using: &g) }
            let alpha = Float.random(in: 0...254, using: &g)
            let color = SIMD4(
                Float.random(in: 0...alpha, using: &g), Float.random(in: 0...alpha, using: &g),
                Float.random(in: 0...alpha, using: &g), alpha)
            let c = Float.random(in: 0..<1, using: &g)
            let run = ConstantSourceOver(color)
            var swiftFull = pixels, cFull = pixels, swiftPartial = pixels, cPartial = pixels
            swiftFull.withUnsafeMutableBufferPointer { run.apply(to: $0.baseAddress!, count: count) }
            cFull.withUnsafeMutableBufferPointer {
                KernelVariant.portable.table.solid($0.baseAddress!, count, run.keep, run.addWord)
            }
            swiftPartial.withUnsafeMutableBufferPointer { blend($0.baseAddress!, count: count, color, c) }
            let s = color * c
            cPartial.withUnsafeMutableBufferPointer {
                KernelVariant.portable.table.solid_float(
                    $0.baseAddress!, count, reel_rgba_f(r: s.x, g: s.y, b: s.z, a: s.w), 1 - s.w * (1 / 255))
            }
            #expect(cFull == swiftFull)
            #expect(cPartial == swiftPartial)
        }
    }

    /// `solid_rows` with every variant gives the bytes of the walk in Swift it replaced (`quads`, each
    /// four edge pixels through `blend`'s lanes, each run through `blend` at its coverage), under both
    /// rules, for opaque and translucent colours, and leaves the cells and touched bits zero.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func solidRowsMatchTheSwiftWalk(_ rule: FillRule) {
        var g = Seeded(state: 96)
        let width = CoverageWalkTests.width
        for (n, row) in CoverageWalkTests.randomRows().enumerated() {
            let alpha: Float = n % 3 == 0 ? 255 : Float.random(in: 0...255, using: &g)
            let color = SIMD4(
                Float.random(in: 0...alpha, using: &g), Float.random(in: 0...alpha, using: &g),
                Float.random(in: 0...alpha, using: &g), alpha)
            let pixels = (0..<width * 4).map { _ in UInt8.random(in: 0...255, using: &g) }
            var expected = pixels
            CoverageWalkTests.withScratch(row) { scratch in
                let run = ConstantSourceOver(color)
                let color16 = SIMD16<Float>(
                    lowHalf: SIMD8(lowHalf: color, highHalf: color), highHalf: SIMD8(lowHalf: color, highHalf: color))
                expected.withUnsafeMutableBufferPointer { o in
                    let out = o.baseAddress!
                    scratch.quads(row: 1, c0: row.c0, c1: row.c1, rule: rule) { start, count, coverages in
                        blend(out + start * 4, count: count, color, color16, coverages: coverages, full: run)
                    } constant: { start, end, c in
                        blend(out + start * 4, count: end - start, color, c, full: run)
                    }
                }
            }
            for v in KernelVariant.supported {
                var drawn = pixels
                CoverageWalkTests.withScratch(row) { scratch in
                    drawn.withUnsafeMutableBufferPointer { o in
                        v.table.solid_rows(
                            BandPainter.solidRows(
                                out: o.baseAddress!, outStride: width * 4, scratch: scratch, row: 1, rows: 1,
                                columns: row.c0, row.c1, color: color, rule: rule))
                    }
                }
                if drawn != expected {
                    let i = drawn.indices.first { drawn[$0] != expected[$0] } ?? 0
                    Issue.record(
                        "row \(n), \(v): byte \(i) is \(drawn[i]), the Swift walk's \(expected[i]) (c0 \(row.c0) c1 \(row.c1))")
                }
            }
        }
    }

    /// `axial_rows` with every variant gives the bytes of the walk in Swift it replaced (`quads`: each
    /// four edge pixels through `AxialLanes`' lanes from the four's own first parameter; each run stored
    /// from the packed table, blended pixel by pixel from the float ramp, or through the `axial` kernel),
    /// for translucent and opaque gradients (with their packed table and without), parameters within the
    /// ramp, padded beyond its ends, and beyond ±16 (float lanes), turned and sheared, on canvases
    /// anywhere (the dither's places), and leaves the cells and touched bits zero.
    @Test func axialRowsMatchTheSwiftWalk() {
        var g = Seeded(state: 144)
        let width = CoverageWalkTests.width
        let portable = KernelVariant.portable.table
        for (n, row) in CoverageWalkTests.randomRows().enumerated() {
            let opaque = n % 3 != 1
            let colors = (0..<Int.random(in: 2...4, using: &g)).map { _ in
                Color(
                    red: .random(in: 0...1, using: &g), green: .random(in: 0...1, using: &g), blue: .random(in: 0...1, using: &g),
                    alpha: opaque ? 1 : .random(in: 0...1, using: &g))
            }
            // Axes from a few pixels (parameters beyond ±16 across the row) to several canvases long.
            let length = [2.5, 12, 40, 150, 900][n % 5]
            let angle = Double.random(in: 0..<(2 * .pi), using: &g)
            let start = Point(x: .random(in: -100...250, using: &g), y: .random(in: -60...60, using: &g))
            let end = Point(x: start.x + length * cos(angle), y: start.y + length * sin(angle))
            let transform =
                n % 4 == 0
                ? Transform2D(
                    a: .random(in: 0.5...1.5, using: &g), b: .random(in: -0.5...0.5, using: &g),
                    c: .random(in: -0.5...0.5, using: &g), d: .random(in: 0.5...1.5, using: &g), tx: 3, ty: -7) : .identity
            let gradient = Gradient(kind: .axial(start: start, end: end), colors: colors, transform: transform)
            guard var shader = GradientShader(gradient, opacity: n % 7 == 2 ? 0.6 : 1) else {
                Issue.record("row \(n): no shader")
                continue
            }
            if shader.opaque && n % 2 == 0 { shader = shader.withPackedTable() }
            guard let axial = AxialLanes(shader) else {
                Issue.record("row \(n): no lanes")
                continue
            }
            let x0 = Int.random(in: -40...300, using: &g), y = Int.random(in: -20...200, using: &g)
            let pixels = (0..<width * 4).map { _ in UInt8.random(in: 0...255, using: &g) }
            var expected = pixels
            shader.ramp87.withUnsafeBytes { ramp87 in
                shader.ramp.withUnsafeBufferPointer { ramp in
                    shader.packed.withUnsafeBufferPointer { packed in
                        let ramp87 = ramp87.baseAddress!, ramp = ramp.baseAddress!
                        let table = shader.packed.isEmpty ? nil : packed.baseAddress
                        CoverageWalkTests.withScratch(row) { scratch in
                            expected.withUnsafeMutableBufferPointer { o in
                                Self.axialWalk(
                                    scratch, row, axial, ramp87: ramp87, ramp: ramp, table: table, y: y, x0: x0,
                                    into: o.baseAddress!, kernels: portable)
                            }
                        }
                        for v in KernelVariant.supported {
                            var drawn = pixels
                            var done = 0
                            CoverageWalkTests.withScratch(row) { scratch in
                                drawn.withUnsafeMutableBufferPointer { o in
                                    done = v.table.axial_rows(
                                        BandPainter.axialRows(
                                            out: o.baseAddress!, outStride: width * 4, scratch: scratch, row: 1, rows: 1, y: y,
                                            x0: x0, width: width, columns: row.c0, row.c1, axial: axial, ramp87: ramp87,
                                            ramp: ramp, packed: table))
                                }
                            }
                            #expect(done == 1, "row \(n), \(v): rows drawn")
                            if drawn != expected {
                                let i = drawn.indices.first { drawn[$0] != expected[$0] } ?? 0
                                Issue.record(
                                    "row \(n), \(v): byte \(i) is \(drawn[i]), the Swift walk's \(expected[i]) (c0 \(row.c0) c1 \(row.c1), length \(length), opaque \(opaque), table \(table != nil))"
                                )
                            }
                        }
                    }
                }
            }
        }
    }

    /// `image_rows` with every variant gives the bytes of the walk in Swift it replaced
    /// (`BandPainter.imageWalk`: each stretch of edge pixels and each run of four or more through the
    /// `image` kernel, shorter runs sampled in floats and blended), under both rules, for opaque and
    /// translucent images at full and partial opacity, magnified, minified, turned and sheared, sampled
    /// inside the image and beyond its edges (clamped), on canvases anywhere; and leaves the cells and
    /// touched bits zero. The identity is left to the walk in Swift (`imageRows` is nil).
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func imageRowsMatchTheSwiftWalk(_ rule: FillRule) throws {
        var g = Seeded(state: rule == .nonZero ? 233 : 377)
        let width = CoverageWalkTests.width
        let portable = KernelVariant.portable.table
        let shade = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width + 8)
        defer { shade.deallocate() }
        for (n, row) in CoverageWalkTests.randomRows().enumerated() {
            let w = [2, 3, 16, 64][n % 4], h = [2, 16, 5, 40][(n / 4) % 4]
            let opaque = n % 3 == 0
            var texels = [UInt8]()
            for _ in 0..<(w * h) {
                let a = opaque ? 255 : UInt8.random(in: 0...255, using: &g)
                for _ in 0..<3 { texels.append(UInt8.random(in: 0...a, using: &g)) }
                texels.append(a)
            }
            let image = try #require(RasterImage(width: w, height: h, premultipliedRGBA: texels))
            // From 1/40 of a texel a pixel to 30 texels a pixel, a turn and a shear, placed so that the
            // row's pixels sample the image's inside, its edges and beyond.
            let scale = [0.03, 0.4, 1, 1.7, 9, 30][n % 6] * Double.random(in: 0.9...1.1, using: &g)
            let angle = n % 5 == 0 ? 0 : Double.random(in: 0..<(2 * .pi), using: &g)
            let shear = n % 7 == 3 ? Double.random(in: -0.6...0.6, using: &g) : 0
            let x0 = Int.random(in: -40...300, using: &g), y = Int.random(in: -20...200, using: &g)
            let transform = Transform2D(
                a: scale * cos(angle), b: scale * sin(angle), c: scale * (shear - sin(angle)), d: scale * cos(angle),
                tx: Double(x0) + .random(in: -20...Double(width), using: &g), ty: Double(y) + .random(in: -30...5, using: &g))
            let opacity = n % 4 == 1 ? Double.random(in: 0.05...0.95, using: &g) : 1
            let shader = try #require(ImageShader(image, transform: transform, opacity: opacity))
            let pixels = (0..<width * 4).map { _ in UInt8.random(in: 0...255, using: &g) }
            var expected = pixels
            texels.withUnsafeBytes { t in
                CoverageWalkTests.withScratch(row) { scratch in
                    expected.withUnsafeMutableBufferPointer { o in
                        BandPainter.imageWalk(
                            shader, ImageLanes(shader: shader), texels: t.baseAddress!, row: 1, y: y, x0: x0, out: o.baseAddress!,
                            scratch: scratch, shade: shade, columns: row.c0, row.c1, rule: rule, kernels: portable)
                    }
                }
            }
            for v in KernelVariant.supported {
                var drawn = pixels
                var taken = false
                image.pixels.withUnsafeBytes { t in
                    CoverageWalkTests.withScratch(row) { scratch in
                        drawn.withUnsafeMutableBufferPointer { o in
                            guard
                                let arguments = BandPainter.imageRows(
                                    shader, texels: t.baseAddress!, out: o.baseAddress!, outStride: width * 4, scratch: scratch,
                                    row: 1, rows: 1, y: y, x0: x0, columns: row.c0, row.c1, rule: rule)
                            else {
                                // The cells must still be walked for `withScratch`'s check.
                                scratch.sweep(row: 1, c0: row.c0, c1: row.c1, rule: rule)
                                return
                            }
                            taken = true
                            v.table.image_rows(arguments)
                        }
                    }
                }
                #expect(taken, "row \(n): the C kernels declined (scale \(scale))")
                if drawn != expected {
                    let i = drawn.indices.first { drawn[$0] != expected[$0] } ?? 0
                    Issue.record(
                        "row \(n), \(v): byte \(i) is \(drawn[i]), the Swift walk's \(expected[i]) (c0 \(row.c0) c1 \(row.c1), image \(w)×\(h), scale \(scale), opacity \(opacity))"
                    )
                }
            }
        }
        // The identity (an image drawn at its own size), and samples 16,384 texels out: the walk in Swift.
        let image = try #require(RasterImage(width: 4, height: 4, premultipliedRGBA: [UInt8](repeating: 255, count: 64)))
        let scratch = CoverageScratch(width: width, rows: 3)
        defer { scratch.deallocate() }
        var out = [UInt8](repeating: 0, count: width * 4)
        for (transform, why) in [
            (Transform2D(a: 1, b: 0, c: 0, d: 1, tx: 3, ty: 2), "the identity"),
            (Transform2D(a: 1, b: 0, c: 0, d: 1, tx: 3.5, ty: 2.25), "the identity off whole pixels"),
            (Transform2D(a: 0.001, b: 0, c: 0, d: 1, tx: 0, ty: 0), "samples 16,384 texels out"),
        ] {
            let shader = try #require(ImageShader(image, transform: transform, opacity: 1))
            let arguments = image.pixels.withUnsafeBytes { t in
                out.withUnsafeMutableBufferPointer { o in
                    BandPainter.imageRows(
                        shader, texels: t.baseAddress!, out: o.baseAddress!, outStride: width * 4, scratch: scratch, row: 1,
                        rows: 1, y: 0, x0: 0, columns: 0, width - 1, rule: rule)
                }
            }
            #expect(arguments == nil, "\(why): the C kernels' rows")
        }
    }

    /// The walk in Swift that drew a padded axial gradient's non-zero rows before `axial_rows` (row 1
    /// of `scratch`, the canvas's row y, its column 0 at x0 and `out`).
    static func axialWalk(
        _ scratch: CoverageScratch, _ row: CoverageWalkTests.Row, _ axial: AxialLanes, ramp87: UnsafeRawPointer,
        ramp: UnsafePointer<SIMD4<Float>>, table: UnsafePointer<UInt32>?, y: Int, x0: Int, into out: UnsafeMutablePointer<UInt8>,
        kernels: reel_raster_kernels
    ) {
        let ditherRow = (y & 7) * 8
        guard let (t0, dt0) = axial.row(y: y, x0: x0, width: CoverageWalkTests.width) else {
            Issue.record("parameters not finite")
            return
        }
        scratch.quads(row: 1, c0: row.c0, c1: row.c1, rule: .nonZero) { start, count, coverages in
            axial.composite(
                ramp: ramp87, t: t0 + Double(start) * dt0, dt: dt0, x0: x0 + start, ditherRow: ditherRow, count: count,
                into: out + start * 4, coverages: coverages)
        } constant: { start, end, c in
            let x = x0 + start, count = end - start
            let t = Float(t0 + Double(start) * dt0), dt = Float(dt0)
            if c >= 1, let table {
                axial.store(packed: table, t: t, dt: dt, x0: x, ditherRow: ditherRow, count: count, into: out + start * 4)
            } else if count < 4 {
                axial.compositeFew(
                    ramp: ramp, t: t, dt: dt, x0: x, ditherRow: ditherRow, count: count, into: out + start * 4, coverage: c)
            } else {
                axial.composite(
                    ramp: ramp87, t: t0 + Double(start) * dt0, dt: dt0, x0: x, ditherRow: ditherRow, count: count,
                    into: out + start * 4, coverage: c, kernels: kernels)
            }
        }
    }

    /// `REEL_KERNELS`: unset or empty is the widest this CPU runs; a variant it runs is that variant; a
    /// name that is no variant is an error naming the variable, the value, what this CPU runs and the fix.
    @Test func environmentChoice() throws {
        #expect(try KernelVariant.choice(nil).get() == KernelVariant.widest)
        #expect(try KernelVariant.choice("").get() == KernelVariant.widest)
        #expect(try KernelVariant.choice("portable").get() == .portable)
        let runs = KernelVariant.supported.map(\.rawValue).joined(separator: ", ")
        let error = RasterError.kernelsUnavailable(requested: "avx9", fromEnvironment: true)
        #expect(KernelVariant.choice("avx9") == .failure(error))
        #expect(
            error.description
                == "REEL_KERNELS=avx9 names no kernel variant (there are portable, avx2, avx512); this CPU runs \(runs)")
        #expect(error.fix?.hasPrefix("unset REEL_KERNELS to draw with the widest this CPU runs") == true)
        for v in KernelVariant.allCases where !v.isSupported {
            #expect(
                KernelVariant.choice(v.rawValue) == .failure(.kernelsUnavailable(requested: v.rawValue, fromEnvironment: true)))
            #expect(throws: RasterError.kernelsUnavailable(requested: v.rawValue, fromEnvironment: false)) {
                try Rasterizer(kernels: v).render(DisplayList(background: .white), width: 2, height: 2)
            }
        }
    }
}
