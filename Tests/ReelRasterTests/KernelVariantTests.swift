/// The C kernels' variants against the portable one on seeded random spans, byte for byte, the
/// portable solid kernels against the Swift kernels they replaced, the solid rows of every variant
/// against the walk in Swift; `REEL_KERNELS`'s values.
import CRasterKernels
import ReelTestSupport
import Testing

@testable import ReelRaster

@Suite struct KernelVariantTests {
    typealias Seeded = SeededGenerator

    /// A ramp in 8.7 as `Fixed87.fixed` makes them: colours within their alpha, the alpha four times.
    static func ramp(_ g: inout Seeded) -> [Int16] {
        var ramp = [Int16]()
        for _ in 0..<GradientShader.rampSize {
            let a = Float.random(in: 0...255, using: &g)
            let entry = Fixed87.fixed(
                SIMD4(
                    Float.random(in: 0...a, using: &g), Float.random(in: 0...a, using: &g), Float.random(in: 0...a, using: &g), a)
            )
            for k in 0..<8 { ramp.append(entry[k]) }
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
