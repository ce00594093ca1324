/// The solid colour's kernels: edge pixels (up to four, each at its own coverage, in lanes) by hand and
/// against each pixel handed over on its own; `ConstantSourceOver`'s lanes against its one pixel and
/// the formula.
import ReelTestSupport
import Testing

@testable import ReelRaster

@Suite struct BlendKernelTests {
    /// `pixels` (one to four) after the four-lane kernel with `coverages` as its lanes (zero past the end).
    static func quad(_ pixels: [UInt8], _ color: SIMD4<Float>, _ coverages: [Float]) -> [UInt8] {
        var out = pixels + [UInt8](repeating: 0, count: 16 - pixels.count)
        var lanes = SIMD4<Float>()
        for (i, c) in coverages.enumerated() { lanes[i] = c }
        let color16 = SIMD16<Float>(
            lowHalf: SIMD8(lowHalf: color, highHalf: color), highHalf: SIMD8(lowHalf: color, highHalf: color))
        out.withUnsafeMutableBufferPointer { o in
            blend(o.baseAddress!, count: coverages.count, color, color16, coverages: lanes, full: ConstantSourceOver(color))
        }
        #expect(out[pixels.count...].allSatisfy { $0 == 0 }, "a byte past the pixels written")
        return Array(out[..<pixels.count])
    }

    /// Red at alpha 0.8 (premultiplied 204, 0, 0, 204) over opaque blue:
    /// - coverage ½: s = (102, 0, 0, 102), d · (1 − 102/255) = d · 0.6, so (102, 0, 153, 255);
    /// - coverage 1: (204, 0, 255 · 0.2 = 51, 255);
    /// - coverage 0: blue, untouched.
    /// Four pixels in lanes, then two as the last pixels before a row's end.
    @Test func handComputedQuad() {
        let blue: [UInt8] = [0, 0, 255, 255]
        let four = Array([[UInt8]](repeating: blue, count: 4).joined())
        let half: [UInt8] = [102, 0, 153, 255], full: [UInt8] = [204, 0, 51, 255]
        #expect(Self.quad(four, SIMD4(204, 0, 0, 204), [0, 0.5, 0, 1]) == Array([blue, half, blue, full].joined()))
        #expect(Self.quad(Array(four[..<8]), SIMD4(204, 0, 0, 204), [0.5, 1]) == half + full)
    }

    /// One to four pixels over varied bytes, at coverages 0, 1, tiny and in between, under translucent
    /// and opaque colours: the kernel's bytes are those of each pixel handed over as a run of its own
    /// (`ConstantSourceOver` at full coverage, `blend` below it, nothing at zero), as the walk did before
    /// the kernel.
    @Test func lanesMatchPixelByPixel() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 33
        }
        let colors: [SIMD4<Float>] = [
            SIMD4(204, 0, 0, 204), SIMD4(10, 200, 30, 255), SIMD4(0.5, 1.25, 3, 3.5), SIMD4(100, 60.4, 20, 127.5),
        ]
        for color in colors {
            for count in 1...4 {
                for _ in 0..<60 {
                    // Premultiplied destination bytes: each colour byte at most the alpha byte.
                    var pixels: [UInt8] = []
                    for _ in 0..<count {
                        let a = UInt8(next() % 256)
                        pixels += [
                            UInt8(next() % (UInt64(a) + 1)), UInt8(next() % (UInt64(a) + 1)), UInt8(next() % (UInt64(a) + 1)), a,
                        ]
                    }
                    let coverages: [Float] = (0..<count).map { _ in
                        switch next() % 5 {
                        case 0: 0
                        case 1: 1
                        case 2: 0.002
                        default: Float(next() % 1_000_000) / 1_000_000
                        }
                    }
                    var expected = pixels
                    expected.withUnsafeMutableBufferPointer { o in
                        for (i, c) in coverages.enumerated() where c > 0 {
                            if c >= 1 {
                                ConstantSourceOver(color).apply(to: o.baseAddress! + i * 4, count: 1)
                            } else {
                                blend(o.baseAddress! + i * 4, color, c)
                            }
                        }
                    }
                    #expect(Self.quad(pixels, color, coverages) == expected, "\(color) \(coverages) over \(pixels)")
                }
            }
        }
    }
    /// `ConstantSourceOver`'s four-pixel lanes (a run's interior, and `four` for the edge kernels) against
    /// its one-pixel path, over every destination byte under translucent colours, and both within half a
    /// level (plus the 0.01 its 1/65536 factor allows) of s + d · (1 − sₐ/255) computed in doubles.
    @Test func constantLanesMatchOnePixelAndTheFormula() {
        let colors: [SIMD4<Float>] = [
            SIMD4(204, 0, 0, 204), SIMD4(0.5, 1.25, 3, 3.5), SIMD4(100, 60.4, 20, 127.5), SIMD4(0, 0, 0, 1),
        ]
        for color in colors {
            let run = ConstantSourceOver(color)
            // 256 pixels: pixel k's channels are k, 255 − k, k / 2 and k (premultiplied need not hold here).
            var pixels: [UInt8] = []
            for k in 0..<256 { pixels += [UInt8(k), UInt8(255 - k), UInt8(k / 2), UInt8(k)] }
            var lanes = pixels, single = pixels
            lanes.withUnsafeMutableBufferPointer { run.apply(to: $0.baseAddress!, count: 256) }
            single.withUnsafeMutableBufferPointer { o in
                for i in 0..<256 { run.apply(to: o.baseAddress! + i * 4, count: 1) }
            }
            #expect(lanes == single, "\(color)")
            var four = [UInt8](repeating: 0, count: 16)
            for i in stride(from: 0, to: 256, by: 4) {
                let d = SIMD16<UInt8>((0..<16).map { pixels[i * 4 + $0] })
                let out = run.four(d)
                for j in 0..<16 { four[j] = out[j] }
                #expect(four == Array(single[(i * 4)..<(i * 4 + 16)]), "four at \(i), \(color)")
            }
            for (i, byte) in single.enumerated() {
                let exact = Double(color[i % 4]) + Double(pixels[i]) * (1 - Double(color.w) / 255)
                #expect(abs(Double(byte) - exact) <= Tolerance.nearestLevel, "byte \(i): \(byte) against \(exact), \(color)")
            }
        }
    }
}
