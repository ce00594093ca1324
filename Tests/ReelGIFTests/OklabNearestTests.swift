// The lightness-pruned nearest-colour search against measuring every palette entry.
import Testing

@testable import ReelGIF

@Suite struct OklabNearestTests {
    /// What the quantizer did before: every entry measured, the first of equals kept.
    private func scan(_ lab: SIMD3<Float>, _ colours: [SIMD3<Float>]) -> Int {
        var best = 0, bestD = Float.infinity
        for (j, c) in colours.enumerated() {
            let d = lab - c
            let dd = (d * d).sum()
            if dd < bestD {
                bestD = dd
                best = j
            }
        }
        return best
    }

    /// A fixed linear congruential sequence, so a failure is the same on every run.
    private struct Sequence {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
    }

    @Test func sameIndexAsTheFullScan() {
        var random = Sequence(state: 7)
        for round in 0..<6 {
            // Palettes with repeated entries and lightness ties too, since ties decide the first of equals.
            let count = [1, 2, 16, 255, 256, 40][round]
            var colours: [SIMD3<Float>] = (0..<count).map { _ in
                GIFPaletteBuilder.oklab(random.next(256), random.next(256), random.next(256))
            }
            if count > 4 {
                colours[count - 1] = colours[1]
                colours[count - 2] = colours[3]
                colours[2] = SIMD3(colours[3].x, colours[2].y, colours[2].z)
            }
            let nearest = OklabNearest(colours)
            for _ in 0..<4000 {
                let lab = GIFPaletteBuilder.oklab(random.next(256), random.next(256), random.next(256))
                #expect(nearest(lab) == scan(lab, colours))
            }
            // The palette's own colours: exact hits, and the duplicates give the first index.
            for c in colours { #expect(nearest(c) == scan(c, colours)) }
            // A query that is not a number measures nothing: the first index, as the scan gives.
            for q in [SIMD3<Float>(.nan, 0, 0), SIMD3(0.5, .nan, 0), SIMD3(0.5, 0, .nan)] {
                #expect(nearest(q) == scan(q, colours))
            }
        }
        #expect(OklabNearest([])(SIMD3(0.5, 0, 0)) == 0)
    }

    /// Starting from a guess (any entry, near or far, or out of range) gives the full scan's index too:
    /// the walk bounded by the guess's distance still measures every entry at the nearest distance.
    @Test func aGuessChangesNoAnswer() {
        var random = Sequence(state: 19)
        for round in 0..<5 {
            let count = [1, 2, 16, 256, 64][round]
            var colours: [SIMD3<Float>] = (0..<count).map { _ in
                GIFPaletteBuilder.oklab(random.next(256), random.next(256), random.next(256))
            }
            if count > 4 {
                colours[count - 1] = colours[1]
                colours[count - 2] = colours[3]
            }
            let nearest = OklabNearest(colours)
            for _ in 0..<4000 {
                // Queries a level or two from an entry, and anywhere.
                let c = random.next(count)
                let lab =
                    random.next(2) == 0
                    ? GIFPaletteBuilder.oklab(random.next(256), random.next(256), random.next(256))
                    : colours[c] + SIMD3(Float(random.next(5)) - 2, Float(random.next(5)) - 2, Float(random.next(5)) - 2) / 2000
                let expected = scan(lab, colours)
                for guess in [c, random.next(count), expected, -1, count] {
                    #expect(nearest(lab, near: guess) == expected)
                }
            }
            // Exact hits on a duplicated entry give the first of the two, whichever is guessed.
            if count > 4 { #expect(nearest(colours[1], near: count - 1) == 1) }
            for q in [SIMD3<Float>(.nan, 0, 0), SIMD3(0.5, .nan, 0)] { #expect(nearest(q, near: count - 1) == scan(q, colours)) }
        }
    }

    /// The frame encoder remembers each colour's index (a table grown as colours come): a frame of
    /// 40,000 distinct colours (the table grown four times) maps each pixel to the full scan's index,
    /// when first met and again when met the second time.
    @Test func theEncodersMemoGivesTheFullScansIndex() {
        var random = Sequence(state: 11)
        let palette: [UInt32] = (0..<200).map { _ in UInt32(random.next(1 << 24)) }
        var options = GIFOptions()
        options.palette = palette
        let labs = palette.map { GIFPaletteBuilder.oklab(Int($0 >> 16), Int($0 >> 8 & 255), Int($0 & 255)) }
        let width = 400, height = 100
        var seen = Set<Int>()
        var colours: [Int] = []
        while colours.count < width * height {
            let c = random.next(1 << 24)
            if seen.insert(c).inserted { colours.append(c) }
        }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for (i, c) in colours.enumerated() {
            rgba[i * 4] = UInt8(c >> 16)
            rgba[i * 4 + 1] = UInt8(c >> 8 & 255)
            rgba[i * 4 + 2] = UInt8(c & 255)
        }
        let encoder = GIFFrameEncoder(width: width, height: height, options: options, alpha: false)
        for pass in 0..<2 {
            var indices = [UInt8](repeating: 0, count: width * height)
            var argb = [UInt32](repeating: 0, count: 256)
            rgba.withUnsafeBufferPointer { rgba in
                indices.withUnsafeMutableBufferPointer { indices in
                    argb.withUnsafeMutableBufferPointer { argb in
                        encoder.encode(
                            rgba: rgba.baseAddress!, rgbaStride: width * 4, into: indices.baseAddress!, indexStride: width,
                            palette: argb.baseAddress!)
                    }
                }
            }
            var wrong = 0
            for (i, c) in colours.enumerated() {
                let lab = GIFPaletteBuilder.oklab(c >> 16, c >> 8 & 255, c & 255)
                if Int(indices[i]) != scan(lab, labs) { wrong += 1 }
            }
            #expect(wrong == 0, "pass \(pass): \(wrong) pixels")
        }
    }
}
