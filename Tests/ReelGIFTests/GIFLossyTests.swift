// The GIF writer's lossy mode, read back by the test support's decoder: lossless pixels as quantized, every
// lossy pixel within its level's bound, pixels that keep their colour drawn for the frame after, files no
// larger as the level grows, the same bytes every run.
import Foundation
import ReelTestSupport
import Testing

@testable import ReelGIF

@Suite struct GIFLossyTests {
    static let width = 64, height = 40, frameCount = 8

    /// Frame f: a horizontal gradient (a slow ramp, banded by the palette) sliding 3 px a frame, a white
    /// square moving across it, and a still dark band along the top. Heavy loss works on the gradient's
    /// bands; the band and the unchanged parts test that what stays still stays so.
    static func frame(_ f: Int) -> [UInt8] {
        var px = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let p = (y * width + x) * 4
                if y < 6 {
                    (px[p], px[p + 1], px[p + 2]) = (30, 40, 50)
                } else if (8 + 4 * f..<20 + 4 * f).contains(x) && (14..<26).contains(y) {
                    (px[p], px[p + 1], px[p + 2]) = (250, 250, 250)
                } else {
                    let t = Double((x + 3 * f) % 96) / 95
                    px[p] = UInt8(20 + 220 * t)
                    px[p + 1] = UInt8(120 + 40 * t)
                    px[p + 2] = UInt8(200 - 160 * t)
                }
            }
        }
        return px
    }

    static let frames = (0..<frameCount).map(frame)

    /// The clip's palette, as the render pipeline builds it (every frame, the changed pixels counted).
    static let palette: [UInt32] = {
        var builder = GIFPaletteBuilder()
        var previous: [UInt8]?
        for f in frames {
            builder.add(rgba: f, width: width, height: height, previous: previous)
            previous = f
        }
        return builder.palette(count: 255)
    }()

    /// The clip written at lossy `level`, every frame kept (no merging, so frame n is source frame n).
    static func written(lossy level: Int) throws -> [UInt8] {
        try write(frames, lossy: level, alpha: false, merge: false) { _ in nil }
    }

    static func oklab(_ px: [UInt8], _ p: Int) -> SIMD3<Float> {
        GIFPaletteBuilder.oklab(Int(px[p]), Int(px[p + 1]), Int(px[p + 2]))
    }

    /// Lossless: every pixel of every frame is the palette colour nearest the source's (in Oklab, the
    /// first of equals, as the quantizer picks), computed here by brute force.
    @Test func losslessDecodesToTheNearestPaletteColour() throws {
        let gif = try decodeGIF(try Self.written(lossy: 0))
        #expect(gif.frames.count == Self.frameCount)
        let labs = Self.palette.map { GIFPaletteBuilder.oklab(Int($0 >> 16), Int($0 >> 8 & 255), Int($0 & 255)) }
        var wrong = 0
        for (f, source) in Self.frames.enumerated() {
            for p in stride(from: 0, to: source.count, by: 4) {
                let lab = Self.oklab(source, p)
                var best = 0, bestD = Float.infinity
                for (j, c) in labs.enumerated() {
                    let d = ((lab - c) * (lab - c)).sum()
                    if d < bestD {
                        bestD = d
                        best = j
                    }
                }
                let c = Self.palette[best], shown = gif.frames[f]
                if [shown[p], shown[p + 1], shown[p + 2], shown[p + 3]] != [
                    UInt8(c >> 16), UInt8(c >> 8 & 255), UInt8(c & 255), 255,
                ] {
                    wrong += 1
                }
            }
        }
        #expect(wrong == 0)
    }

    /// Lossy L: every shown pixel within L/1000 of Oklab distance of the lossless GIF's colour there, at
    /// the docs-gif level (pixel by pixel) and at heavy levels (the string search, the widened allowance
    /// in gradients, changed pixels left as shown): each of these only ever takes a colour within the
    /// pixel's allowance, which is at most the bound; a pixel that stays as shown was within it when
    /// first shown, and keeps the same intended colour.
    @Test(arguments: [10, 40, 100, 200]) func lossyPixelsStayWithinTheBound(level: Int) throws {
        let exact = try decodeGIF(try Self.written(lossy: 0)), lossy = try decodeGIF(try Self.written(lossy: level))
        #expect(lossy.frames.count == Self.frameCount)
        let bound = Float(level) / 1000 + Tolerance.gifLossyOklab
        var worst: Float = 0, changed = 0
        for (a, b) in zip(exact.frames, lossy.frames) {
            for p in stride(from: 0, to: a.count, by: 4) {
                let d = Self.oklab(a, p) - Self.oklab(b, p)
                let distance = (d * d).sum().squareRoot()
                worst = max(worst, distance)
                if distance > 0 { changed += 1 }
            }
        }
        #expect(worst <= bound, "level \(level): a pixel \(worst) from its lossless colour")
        // The bound is not met by changing nothing: at these levels the writer does change pixels.
        #expect(changed > 0)
    }

    /// On a fixed input, a higher level gives no larger a file than any lower level, but for the slack
    /// greedy LZW parsing needs (`Tolerance.gifLossyLevelSlack`), and the heaviest is smaller than
    /// lossless and than the docs-gif level.
    @Test func sizeFallsWithTheLevel() throws {
        let levels = [0, 5, 10, 11, 20, 30, 40, 50, 60, 80, 100, 150, 200]
        let sizes = try levels.map { try Self.written(lossy: $0).count }
        for k in 1..<sizes.count {
            for j in 0..<k {
                #expect(
                    Double(sizes[k]) <= Double(sizes[j]) * (1 + Tolerance.gifLossyLevelSlack),
                    "lossy \(levels[k]): \(sizes[k]) B against \(sizes[j]) B at \(levels[j])")
            }
        }
        #expect(sizes.last! < sizes[0] && sizes.last! < sizes[2], "\(sizes)")
    }

    /// Heavy loss, a pixel drawn in a frame that keeps its colour in the next: its error stays on screen,
    /// so it gets no more than the next frame's neighbours hide. Frame 0: 2-px stripes of two greys
    /// 0.03 apart in Oklab (each pixel beside the other grey: in reach of the level's bound); frames 1
    /// and 2: the lighter grey everywhere. Frame 0's lighter stripes keep their colour in a flat frame,
    /// so they are drawn exactly, and frames 1 and 2 decode to the lossless GIF's; the darker stripes,
    /// which change, may still take the lighter grey in frame 0 (they do: the level acts there).
    @Test(arguments: [40, 100]) func keptPixelsAreDrawnForTheFrameAfter(level: Int) throws {
        let (w, h) = (Self.width, Self.height)
        let light: [UInt8] = [128, 128, 128], dark: [UInt8] = [118, 118, 118]
        func frame(striped: Bool) -> [UInt8] {
            var px = [UInt8](repeating: 255, count: w * h * 4)
            for y in 0..<h {
                for x in 0..<w {
                    let c = striped && (x / 2) % 2 == 1 ? dark : light
                    for k in 0..<3 { px[(y * w + x) * 4 + k] = c[k] }
                }
            }
            return px
        }
        let frames = [frame(striped: true), frame(striped: false), frame(striped: false)]
        var builder = GIFPaletteBuilder()
        builder.add(rgba: frames[0], width: w, height: h, previous: nil)
        let palette = builder.palette(count: 255)
        let d = GIFPaletteBuilder.oklab(128, 128, 128) - GIFPaletteBuilder.oklab(118, 118, 118)
        #expect((d * d).sum().squareRoot() < Float(level) / 1000)
        func decoded(_ lossy: Int) throws -> [[UInt8]] {
            try decodeGIF(try Self.write(frames, lossy: lossy, alpha: false, merge: false, palette: palette) { _ in nil }).frames
        }
        let exact = try decoded(0), lossy = try decoded(level)
        #expect(exact.count == 3 && lossy.count == 3)
        #expect(lossy[1] == exact[1] && lossy[2] == exact[2], "level \(level): the flat frames differ from lossless")
        #expect(lossy[0] != exact[0], "level \(level): frame 0 is drawn exactly (the test shows nothing)")
    }

    /// Heavy loss, a pixel that keeps its index in the next frame takes only a share of its contrast
    /// there, a share that reaches all of it at the heaviest level (200) only. Three frames of 2-px
    /// stripes of two greys 0.03 apart in Oklab (every pixel beside the other grey, so its contrast is
    /// that distance, and within level 100's bound): at level 100 no pixel may take the other grey
    /// (its share is 0.63), so frame 0 is drawn exactly; at level 200 (share 1) it may, and does.
    /// With the share reaching 1 at level 100, as it did, frame 0 changes at level 100 too.
    @Test func lastingPixelsTakeAllTheirContrastAtTheHeaviestLevelOnly() throws {
        let (w, h) = (Self.width, Self.height)
        var striped = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let g: UInt8 = (x / 2) % 2 == 1 ? 118 : 128
                for k in 0..<3 { striped[(y * w + x) * 4 + k] = g }
            }
        }
        let frames = [striped, striped, striped]
        var builder = GIFPaletteBuilder()
        builder.add(rgba: striped, width: w, height: h, previous: nil)
        let palette = builder.palette(count: 255)
        let d = GIFPaletteBuilder.oklab(128, 128, 128) - GIFPaletteBuilder.oklab(118, 118, 118)
        let distance = (d * d).sum().squareRoot()
        // Within level 100's bound: all of its contrast would let a pixel take the other grey.
        #expect(distance < 0.1 && GIFFileWriter.lastingShare(atLevel: 100) < 1)
        #expect(GIFFileWriter.lastingShare(atLevel: 200) == 1)
        func decoded(_ lossy: Int) throws -> [[UInt8]] {
            try decodeGIF(try Self.write(frames, lossy: lossy, alpha: false, merge: false, palette: palette) { _ in nil }).frames
        }
        let exact = try decoded(0), level100 = try decoded(100), level200 = try decoded(200)
        #expect(exact.count == 3 && level100.count == 3 && level200.count == 3)
        // Compared first, so that a failure does not print the frames.
        let exactAt100 = level100 == exact, exactAt200 = level200[0] == exact[0]
        #expect(exactAt100, "level 100: a lasting pixel took more than its share of its contrast")
        #expect(!exactAt200, "level 200: frame 0 is drawn exactly (the test shows nothing)")
    }

    /// The same input gives the same bytes every time (the string search visits the dictionary in a fixed
    /// order and its budget is a count).
    @Test func heavyLossIsDeterministic() throws {
        #expect(try Self.written(lossy: 100) == Self.written(lossy: 100))
    }

    /// Heavy loss parses flexibly: a string may stop short of the longest where the next one then
    /// reaches farther. Ten exact pixels of 2-bit indices, traced by hand: greedy LZW writes the codes
    /// 2 2 1 7 0 8 1 0 (8 = "12", then "1", "0"); flexible parsing writes "1" alone at the seventh pixel,
    /// because "210" (code 9) follows it, and ends 2 2 1 7 0 1 9. With the clear and end codes at 3 and
    /// then 4 bits, 5 bytes against 4. Its entry "12" after that "1" is one the dictionary holds: the code
    /// is spent (the decoder adds it too) and the stream still decodes.
    @Test func heavyLossParsesFlexibly() throws {
        let pixels: [UInt8] = [2, 2, 1, 2, 1, 0, 1, 2, 1, 0]
        let none = [UInt8](repeating: 0, count: pixels.count)
        let input = GIFCodingInput(
            kind: [UInt8](repeating: GIFPixel.exact, count: pixels.count), want: pixels, base: none,
            allowed: [Float](repeating: 0, count: pixels.count))
        let distance = [Float](repeating: .infinity, count: 65_536)
        let greedy = GIFLZWEncoder().encode(input, minimumCodeSize: 2, transparent: nil, distance: distance)
        let flexible = GIFLZWEncoder().encode(
            input, minimumCodeSize: 2, transparent: nil, distance: distance, searching: true)
        let searchedGreedily = GIFLZWEncoder().encode(
            input, minimumCodeSize: 2, transparent: nil, distance: distance, searching: true, flexibly: false)
        #expect(greedy.bytes.count == 5 && flexible.bytes.count == 4, "\(greedy.bytes) against \(flexible.bytes)")
        #expect(searchedGreedily.bytes == greedy.bytes)
        #expect(try decodeLZW(greedy.bytes, codeSize: 2, count: pixels.count) == pixels)
        #expect(try decodeLZW(flexible.bytes, codeSize: 2, count: pixels.count) == pixels)
        #expect(flexible.coded == pixels)
    }

    /// The rows where frame f differs from the one before, found here by comparing them.
    static func changedRows(_ a: [UInt8], _ b: [UInt8]) -> [Range<Int>] {
        (0..<height).filter { y in a[y * width * 4..<(y + 1) * width * 4] != b[y * width * 4..<(y + 1) * width * 4] }
            .map { $0..<$0 + 1 }
    }

    /// Frames told where they changed (the renderer's damage) make the same file as frames compared by the
    /// writer itself, lossless and lossy, frames merged or not, opaque or with a transparent hole moving
    /// (which clears what was shown); so do rows told too generously (every other row added).
    @Test(arguments: [0, 8, 20, 60])
    func rowsToldGiveTheSameFile(lossy level: Int) throws {
        for alpha in [false, true] {
            for merge in [false, true] {
                var frames = Self.frames
                if alpha {
                    for f in frames.indices {
                        for y in 28..<36 {
                            for x in 4 * f..<4 * f + 10 { frames[f][(y * Self.width + x) * 4 + 3] = 0 }
                        }
                    }
                }
                // Frame 3 repeats frame 2: told no rows at all.
                frames[3] = frames[2]
                func written(_ rows: @escaping (Int) -> [Range<Int>]?) throws -> [UInt8] {
                    try Self.write(frames, lossy: level, alpha: alpha, merge: merge, rows: rows)
                }
                let compared = try written { _ in nil }
                let told = try written { f in f > 0 ? Self.changedRows(frames[f], frames[f - 1]) : nil }
                let generous = try written { f in
                    f > 0
                        ? Self.changedRows(frames[f], frames[f - 1]) + stride(from: 0, to: Self.height, by: 2).map { $0..<$0 + 1 }
                        : nil
                }
                // Columns told too: the rows' changed columns (a column more or fewer on each side must
                // not matter where those pixels are the same), and all of them.
                for widen in [0, 3] {
                    let narrow = try Self.write(
                        frames, lossy: level, alpha: alpha, merge: merge,
                        rows: { f in f > 0 ? Self.changedRows(frames[f], frames[f - 1]) : nil },
                        columns: { f in
                            guard f > 0, let c = Self.changedColumns(frames[f], frames[f - 1]) else { return f > 0 ? 0..<0 : nil }
                            return (c.lowerBound - widen)..<(c.upperBound + widen)
                        })
                    #expect(narrow == compared, "columns ±\(widen): lossy \(level), alpha \(alpha), merge \(merge)")
                }
                #expect(told == compared, "lossy \(level), alpha \(alpha), merge \(merge)")
                #expect(generous == compared, "lossy \(level), alpha \(alpha), merge \(merge)")
            }
        }
    }

    /// The columns where frame f differs from the one before (nil: none).
    static func changedColumns(_ a: [UInt8], _ b: [UInt8]) -> Range<Int>? {
        let xs = (0..<width).filter { x in
            (0..<height).contains { y in (0..<4).contains { a[(y * width + x) * 4 + $0] != b[(y * width + x) * 4 + $0] } }
        }
        guard let first = xs.first, let last = xs.last else { return nil }
        return first..<(last + 1)
    }

    static func write(
        _ frames: [[UInt8]], lossy level: Int, alpha: Bool, merge: Bool, palette: [UInt32] = palette,
        rows: (Int) -> [Range<Int>]?, columns: (Int) -> Range<Int>? = { _ in nil }
    ) throws -> [UInt8] {
        var options = GIFOptions()
        options.palette = palette
        options.lossy = level
        options.mergeFrames = merge
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-rows-\(UUID().uuidString).gif").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try GIFFileWriter(
            path: path, width: width, height: height, options: options, alpha: alpha, loop: 0, comment: nil,
            frameRate: (10, 1), firstFrame: 0)
        for (f, frame) in frames.enumerated() {
            try frame.withUnsafeBufferPointer {
                try writer.append(rgba: $0.baseAddress!, stride: width * 4, changedRows: rows(f), changedColumns: columns(f))
            }
        }
        try writer.finish()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
