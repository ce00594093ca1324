/// The C kernels behind layer filters and group compositing — a coarse blur's cells, grid and rows, the
/// colour matrix, `composite` — on every variant against the portable one byte for byte, and the
/// portable ones against hand-computed values and the Swift arithmetic they replaced.
import CRasterKernels
import Foundation
import ReelTestSupport
import Testing

@testable import ReelRaster

@Suite struct FilterKernelVariantTests {
    /// Premultiplied pixels: a quarter transparent (zero words), a quarter opaque, the rest between.
    static func pixels(_ g: inout SeededGenerator, _ count: Int) -> [UInt8] {
        var out = [UInt8]()
        for _ in 0..<count {
            let kind = Int.random(in: 0..<4, using: &g)
            let a: UInt8 = kind == 0 ? 0 : kind == 1 ? 255 : UInt8.random(in: 1...254, using: &g)
            for _ in 0..<3 { out.append(a == 0 ? 0 : UInt8.random(in: 0...a, using: &g)) }
            out.append(a)
        }
        return out
    }

    /// `draw` with every variant this CPU runs on a copy of `pixels`; each copy must equal the portable one.
    static func everyVariant(
        _ kind: String, _ pixels: [UInt8], sourceLocation: SourceLocation = #_sourceLocation,
        _ draw: (reel_raster_kernels, UnsafeMutablePointer<UInt8>) -> Void
    ) -> [UInt8] {
        func run(_ v: KernelVariant) -> [UInt8] {
            var out = pixels
            out.withUnsafeMutableBufferPointer { draw(v.table, $0.baseAddress!) }
            return out
        }
        let portable = run(.portable)
        for v in KernelVariant.supported.dropFirst() {
            let out = run(v)
            if out != portable, let i = out.indices.first(where: { out[$0] != portable[$0] }) {
                Issue.record("\(kind): \(v) differs from portable at byte \(i)", sourceLocation: sourceLocation)
            }
        }
        return portable
    }

    /// `composite` gives `blend`'s bytes pixel by pixel (transparent sources skipped), at factor 1 and
    /// below, on spans of every length around the variants' widths.
    @Test func compositeIsBlendOnEveryVariant() {
        var g = SeededGenerator(state: 491)
        for trial in 0..<400 {
            let count = Int.random(in: 1...70, using: &g)
            let below = Self.pixels(&g, count + 3), source = Self.pixels(&g, count)
            let f: Float = trial % 3 == 0 ? 1 : Float.random(in: 0.01...1, using: &g)
            let out = Self.everyVariant("composite", below) { k, p in
                source.withUnsafeBufferPointer { k.composite(p, $0.baseAddress!, count, f) }
            }
            var expected = below
            expected.withUnsafeMutableBufferPointer { d in
                for x in 0..<count where source[x * 4..<x * 4 + 4].contains(where: { $0 != 0 }) {
                    let s = SIMD4(
                        Float(source[x * 4]), Float(source[x * 4 + 1]), Float(source[x * 4 + 2]), Float(source[x * 4 + 3]))
                    blend(d.baseAddress! + x * 4, s, f)
                }
            }
            #expect(out == expected, "trial \(trial), \(count) pixels at \(f)")
        }
    }

    /// One pixel by hand: (100, 50, 0, 128) over opaque grey 200 leaves 200 · (1 − 128/255) = 99.61
    /// of the grey: 199.6, 149.6, 99.6 and 128 + 127.0 → 200, 150, 100, 255.
    @Test func compositeByHand() {
        let out = Self.everyVariant("composite", [200, 200, 200, 255, 9, 8, 7, 6]) { k, p in
            [UInt8]([100, 50, 0, 128, 0, 0, 0, 0]).withUnsafeBufferPointer { k.composite(p, $0.baseAddress!, 2, 1) }
        }
        #expect(out == [200, 150, 100, 255, 9, 8, 7, 6])
    }

    static func matrix(_ rows: [SIMD4<Float>], _ bias: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt8>, width: Int, rows n: Int)
        -> reel_color_matrix
    {
        reel_color_matrix(
            pixels: p, stride: width * 4, width: width, rows: n,
            m: (
                rows[0].x, rows[0].y, rows[0].z, rows[0].w, rows[1].x, rows[1].y, rows[1].z, rows[1].w,
                rows[2].x, rows[2].y, rows[2].z, rows[2].w, rows[3].x, rows[3].y, rows[3].z, rows[3].w
            ),
            bias: (bias.x, bias.y, bias.z, bias.w), adds_alpha: bias.w > 0 ? 1 : 0)
    }

    /// The identity leaves every premultiplied pixel; a greyscale matrix gives each opaque pixel the
    /// weighted sum of its channels (computed here in Double, rounded); transparent pixels stay unless
    /// the bias adds alpha, when they take the bias's colour at its alpha.
    @Test func colorMatrixByHand() {
        var g = SeededGenerator(state: 77)
        let width = 37, rows = 3
        let pixels = Self.pixels(&g, width * rows)
        let identity: [SIMD4<Float>] = [SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)]
        let same = Self.everyVariant("identity", pixels) { k, p in
            k.color_matrix(Self.matrix(identity, .zero, p, width: width, rows: rows))
        }
        #expect(same == pixels)
        let w = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)
        let grey = Self.everyVariant("greyscale", pixels) { k, p in
            k.color_matrix(Self.matrix([w, w, w, SIMD4(0, 0, 0, 1)], .zero, p, width: width, rows: rows))
        }
        for i in 0..<(width * rows) where pixels[i * 4 + 3] == 255 {
            let y = 0.2126 * Double(pixels[i * 4]) + 0.7152 * Double(pixels[i * 4 + 1]) + 0.0722 * Double(pixels[i * 4 + 2])
            for c in 0..<3 { #expect(abs(Double(grey[i * 4 + c]) - y) <= 0.5 + 1e-3, "pixel \(i)") }
            #expect(grey[i * 4 + 3] == 255)
        }
        for i in 0..<(width * rows) where pixels[i * 4 + 3] == 0 { #expect(grey[i * 4..<i * 4 + 4] == [0, 0, 0, 0]) }
        // A bias of (0.4, 0.2, 1, 0.5) on transparent pixels: 0.4 · 0.5 · 255 = 51, 25.5 → 26 (nearest
        // even), 127.5 → 128; alpha 127.5 → 128.
        let lifted = Self.everyVariant("adds alpha", [UInt8](repeating: 0, count: 8 * 4)) { k, p in
            k.color_matrix(Self.matrix(identity, SIMD4(0.4, 0.2, 1, 0.5), p, width: 8, rows: 1))
        }
        #expect(lifted == [UInt8]((0..<8).flatMap { _ in [UInt8]([51, 26, 128, 128]) }))
    }

    /// `blur_cells`: each cell the mean of its pixels (summed here one by one), with the two-cell
    /// border left zero; the first cell row shorter, as a band's grid starts mid-cell.
    @Test func blurCellsAreMeans() {
        var g = SeededGenerator(state: 5)
        let width = 45, rows = 29, f = 4, firstRows = 3
        let pixels = Self.pixels(&g, width * rows)
        let edges = [0, 2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 42, 45]
        let gw = edges.count - 1, gh = 1 + (rows - firstRows + f - 1) / f
        let pw = gw + 4, ph = gh + 4
        func run(_ v: KernelVariant) -> [Float] {
            var grid = [Float](repeating: 0, count: pw * ph * 4)
            var columns = [UInt32](repeating: 0, count: width * 4)
            pixels.withUnsafeBufferPointer { p in
                edges.withUnsafeBufferPointer { e in
                    grid.withUnsafeMutableBufferPointer { gr in
                        columns.withUnsafeMutableBufferPointer { c in
                            v.table.blur_cells(
                                reel_blur_cells(
                                    pixels: p.baseAddress!, stride: width * 4, width: width, rows: rows, first_rows: firstRows,
                                    f: f, edges: e.baseAddress!, gw: gw, grid: gr.baseAddress!, pw: pw, scale: 1 / Float(f * f),
                                    columns: c.baseAddress!))
                        }
                    }
                }
            }
            return grid
        }
        let portable = run(.portable)
        for v in KernelVariant.supported.dropFirst() { #expect(run(v) == portable, "\(v)") }
        for cy in 0..<ph {
            for cx in 0..<pw {
                for ch in 0..<4 {
                    var sum = 0
                    if cy >= 2, cy < gh + 2, cx >= 2, cx < gw + 2 {
                        let r0 = cy == 2 ? 0 : firstRows + (cy - 3) * f, r1 = cy == 2 ? firstRows : min(rows, r0 + f)
                        for y in r0..<r1 {
                            for x in edges[cx - 2]..<edges[cx - 1] { sum += Int(pixels[(y * width + x) * 4 + ch]) }
                        }
                    }
                    #expect(portable[(cy * pw + cx) * 4 + ch] == Float(sum) / Float(f * f), "cell \(cx), \(cy)")
                }
            }
        }
    }

    /// `blur_grid` on one lit cell gives the kernel's outer product there, k[i] · (k[j] · v) exactly; the
    /// rows not asked for stay as they were; every variant the same floats on random cells.
    @Test func blurGridIsSeparable() {
        let k: [Float] = [0.05, 0.1, 0.2, 0.3, 0.2, 0.1, 0.05]
        let pw = 12, ph = 13
        func run(_ v: KernelVariant, _ start: [Float], outFrom: Int, outTo: Int) -> [Float] {
            var grid = start
            var across = [Float](repeating: 0, count: pw * ph * 4)
            k.withUnsafeBufferPointer { k in
                grid.withUnsafeMutableBufferPointer { gr in
                    across.withUnsafeMutableBufferPointer { a in
                        v.table.blur_grid(
                            reel_blur_grid(
                                grid: gr.baseAddress!, across: a.baseAddress!, kernel: k.baseAddress!, taps: k.count, pw: pw,
                                ph: ph, rows_from: 2, rows_to: ph - 2, out_from: outFrom, out_to: outTo))
                    }
                }
            }
            return grid
        }
        var lit = [Float](repeating: 0, count: pw * ph * 4)
        let (cx, cy) = (5, 6)
        lit[(cy * pw + cx) * 4 + 1] = 200
        let blurred = run(.portable, lit, outFrom: 0, outTo: ph)
        for y in 0..<ph {
            for x in 0..<pw {
                let i = y - cy + 3, j = x - cx + 3
                let expected: Float = (0..<7).contains(i) && (0..<7).contains(j) ? k[i] * (k[j] * 200) : 0
                #expect(blurred[(y * pw + x) * 4 + 1] == expected, "cell \(x), \(y)")
                #expect(blurred[(y * pw + x) * 4] == 0)
            }
        }
        var g = SeededGenerator(state: 12)
        var random = [Float](repeating: 0, count: pw * ph * 4)
        for y in 2..<(ph - 2) { for i in 0..<(pw * 4) { random[y * pw * 4 + i] = Float.random(in: 0...255, using: &g) } }
        let partial = run(.portable, random, outFrom: 4, outTo: 9)
        #expect(partial[..<(4 * pw * 4)] == random[..<(4 * pw * 4)])
        #expect(partial[(9 * pw * 4)...] == random[(9 * pw * 4)...])
        for v in KernelVariant.supported.dropFirst() { #expect(run(v, random, outFrom: 4, outTo: 9) == partial, "\(v)") }
    }

    /// `blur_row`: each pixel the two lerps (between grid rows, then cells), within half a level of the
    /// same in Double, the colour no higher than the alpha, nothing written past `count`; every variant
    /// the portable bytes.
    @Test func blurRowSamplesBetweenCells() {
        var g = SeededGenerator(state: 31)
        let cells = 9
        func cellRow() -> [Float] {
            (0..<cells).flatMap { _ -> [Float] in
                let a = Float.random(in: -5...270, using: &g)
                return [Float.random(in: -5...a, using: &g), Float.random(in: 0...max(0, a), using: &g), 300, a]
            }
        }
        for trial in 0..<50 {
            let top = cellRow(), bottom = cellRow()
            let tv = Float.random(in: 0..<1, using: &g)
            let count = Int.random(in: 1...20, using: &g)
            let pixelCells = (0..<count).map { _ in Int32.random(in: 0...Int32(cells - 2), using: &g) }
            let weights = (0..<count).map { _ in Float.random(in: 0..<1, using: &g) }
            let sentinel = [UInt8](repeating: 0xAB, count: (count + 2) * 4)
            let out = Self.everyVariant("blur_row", sentinel) { k, p in
                var line = [Float](repeating: 0, count: cells * 4)
                top.withUnsafeBufferPointer { t in
                    bottom.withUnsafeBufferPointer { b in
                        pixelCells.withUnsafeBufferPointer { c in
                            weights.withUnsafeBufferPointer { w in
                                line.withUnsafeMutableBufferPointer { l in
                                    k.blur_row(
                                        reel_blur_row(
                                            out: p, top: t.baseAddress!, bottom: b.baseAddress!, tv: tv, cells: cells,
                                            line: l.baseAddress!, pixel_cells: c.baseAddress!, weights: w.baseAddress!,
                                            count: count))
                                }
                            }
                        }
                    }
                }
            }
            #expect(out[(count * 4)...] == sentinel[(count * 4)...], "trial \(trial): written past the span")
            for x in 0..<count {
                func at(_ cell: Int, _ ch: Int) -> Double {
                    let i = cell * 4 + ch
                    return Double(top[i]) + (Double(bottom[i]) - Double(top[i])) * Double(tv)
                }
                func v(_ ch: Int) -> Double {
                    let c = Int(pixelCells[x])
                    return at(c, ch) + (at(c + 1, ch) - at(c, ch)) * Double(weights[x])
                }
                let alpha = min(max(v(3), 0), 255)
                #expect(abs(Double(out[x * 4 + 3]) - alpha) <= 0.5 + 1e-3, "trial \(trial) pixel \(x) alpha")
                for ch in 0..<3 {
                    let expected = min(max(v(ch), 0), Double(out[x * 4 + 3]))
                    #expect(abs(Double(out[x * 4 + ch]) - expected) <= 0.5 + 1e-3, "trial \(trial) pixel \(x) channel \(ch)")
                }
            }
        }
    }
}
