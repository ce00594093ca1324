/// The convolution, morphology, displacement-map and component-transfer kernels against bytes worked
/// out by hand from resvg's formulas (its window for a radius, its f32 rounding and truncation).
import ReelGeometry
import Testing

@testable import ReelRaster

@Suite struct FilterPixelKernelTests {
    /// Opaque pixels whose red levels are `reds`, in one row unless `width` says otherwise.
    static func opaque(_ reds: [UInt8], width: Int? = nil) -> FilterPixels {
        let w = width ?? reds.count
        return FilterPixels(width: w, height: reds.count / w, bytes: reds.flatMap { [$0, 0, 0, 255] })
    }

    static func reds(_ p: FilterPixels) -> [UInt8] { stride(from: 0, to: p.bytes.count, by: 4).map { p.bytes[$0] } }
    static func alphas(_ p: FilterPixels) -> [UInt8] { stride(from: 0, to: p.bytes.count, by: 4).map { p.bytes[$0 + 3] } }

    static func box(_ edges: ConvolveMatrix.EdgeMode) -> ConvolveMatrix {
        ConvolveMatrix(
            columns: 3, rows: 3, kernel: Array(repeating: 1, count: 9), divisor: 9, bias: 0, targetX: 1, targetY: 1,
            edgeMode: edges, preserveAlpha: false)
    }

    /// A 3×3 box over red levels 0, 30, …, 240 (row by row), all opaque:
    /// - the centre averages all nine: 1080 / 9 = 120, under every edge mode;
    /// - duplicate: the top-left corner reads rows 0, 0, 1 and columns 0, 0, 1: (0+0+30)·2 + 90+90+120 = 360 → 40;
    /// - wrap: every window holds all nine pixels once: 120 everywhere;
    /// - none: the corner sums four pixels, 0+30+90+120 = 240 → 26.7 → 27, and its alpha 4/9 → 113.3 → 113.
    @Test func boxKernelAtTheEdges() {
        let grid = Self.opaque((0..<9).map { UInt8($0 * 30) }, width: 3)
        let duplicate = FilterKernels.convolve(Self.box(.duplicate), input: grid)
        #expect(Self.reds(duplicate)[4] == 120 && Self.reds(duplicate)[0] == 40)
        #expect(Self.alphas(duplicate).allSatisfy { $0 == 255 })
        #expect(Self.reds(FilterKernels.convolve(Self.box(.wrap), input: grid)) == Array(repeating: 120, count: 9))
        let none = FilterKernels.convolve(Self.box(.none), input: grid)
        #expect(Self.reds(none)[4] == 120 && Self.reds(none)[0] == 27 && Self.alphas(none)[0] == 113)
    }

    /// The kernel is read rotated: [1, 0, 0] centred weighs the pixel to the right, so (10, 20, 30) with
    /// duplicated edges becomes (20, 30, 30). A bias of 0.1 on opaque red 100 is scaled by the unclamped
    /// alpha 1.1: 100 + 0.11·255 = 128.05 → 128, green 28.05 → 28. With preserveAlpha, (40, 0, 0, 136)
    /// demultiplies to 75 and a bias of 0.2 gives (75 + 0.2·136)·136/255 = 54.5 → 55, green 0.2·136·136/255
    /// = 14.5 → 15, alpha kept.
    @Test func kernelOrientationBiasAndPreservedAlpha() {
        let right = ConvolveMatrix(
            columns: 3, rows: 1, kernel: [1, 0, 0], divisor: 1, bias: 0, targetX: 1, targetY: 0, edgeMode: .duplicate,
            preserveAlpha: false)
        #expect(Self.reds(FilterKernels.convolve(right, input: Self.opaque([10, 20, 30]))) == [20, 30, 30])
        var one = ConvolveMatrix(
            columns: 1, rows: 1, kernel: [1], divisor: 1, bias: 0.1, targetX: 0, targetY: 0, edgeMode: .none,
            preserveAlpha: false)
        #expect(FilterKernels.convolve(one, input: Self.opaque([100])).bytes == [128, 28, 28, 255])
        one.preserveAlpha = true
        one.bias = 0.2
        let translucent = FilterPixels(width: 1, height: 1, bytes: [40, 0, 0, 136])
        #expect(FilterKernels.convolve(one, input: translucent).bytes == [55, 15, 15, 136])
    }

    /// resvg's window for radius r is 2⌈r⌉ pixels from ⌈r⌉ before: radius 1 dilates a lone pixel at (2, 2)
    /// of 5×5 into (2…3, 2…3); radius 1.5 across and 0.2 down reaches x = 1…4 on rows 2 and 3. Eroding it
    /// leaves nothing; a radius of 0 gives transparency. Eroding the row (50, 10, 90, 70) by 1 takes each
    /// pixel's minimum with its left neighbour, the first having none: (50, 10, 10, 70).
    @Test func morphologyWindows() {
        var dot = FilterPixels(width: 5, height: 5)
        for c in 0..<4 { dot.bytes[(2 * 5 + 2) * 4 + c] = 255 }
        func lit(_ p: FilterPixels) -> [Int] { (0..<25).filter { p.bytes[$0 * 4 + 3] == 255 } }
        #expect(lit(FilterKernels.morphology(dilate: true, radiusX: 1, radiusY: 1, input: dot)) == [12, 13, 17, 18])
        #expect(
            lit(FilterKernels.morphology(dilate: true, radiusX: 1.5, radiusY: 0.2, input: dot))
                == [11, 12, 13, 14, 16, 17, 18, 19])
        #expect(FilterKernels.morphology(dilate: false, radiusX: 1, radiusY: 1, input: dot).bytes.allSatisfy { $0 == 0 })
        #expect(FilterKernels.morphology(dilate: true, radiusX: 0, radiusY: 1, input: dot).bytes.allSatisfy { $0 == 0 })
        let row = Self.opaque([50, 10, 90, 70])
        #expect(Self.reds(FilterKernels.morphology(dilate: false, radiusX: 1, radiusY: 1, input: row)) == [50, 10, 10, 70])
    }

    /// A constant map: red 255 with scale 2 moves by (1 − ½)·2 = 1, so each pixel takes its right
    /// neighbour's and the last, reading past the edge, is transparent; red 0 with scale 4 takes the
    /// pixel two to the left.
    @Test func displacementByAConstantMap() {
        let source = Self.opaque([10, 20, 30, 40])
        let toRight = FilterKernels.displacementMap(
            scaleX: 2, scaleY: 0, xChannel: 0, yChannel: 3, input: source, map: Self.opaque([255, 255, 255, 255]))
        #expect(toRight.bytes == [20, 0, 0, 255, 30, 0, 0, 255, 40, 0, 0, 255, 0, 0, 0, 0])
        let toLeft = FilterKernels.displacementMap(
            scaleX: 4, scaleY: 0, xChannel: 0, yChannel: 1, input: source, map: Self.opaque([0, 0, 0, 0]))
        #expect(Self.reds(toLeft) == [0, 0, 10, 20])
    }

    /// On opaque (51, 102, 204) — 0.2, 0.4, 0.8 — results truncated, not rounded:
    /// - table (0.1, 0.9): 0.1 + 0.2·0.8 = 0.26 → 66.3 → 66;
    /// - discrete (¼, ½, ¾): ⌊0.4·3⌋ = 1 → ½ → 127.5 → 127;
    /// - linear ½·0.8 + ¼ = 0.65 → 165.75 → 165.
    /// Gamma 2·c² + 0.1 on red: 0.2 → 0.18 → 45.9 → 45; on (40, 0, 0, 136), demultiplied to 75 (0.294),
    /// 0.273 → 69.6 → 69, premultiplied 69·136/255 + ½ = 37.3 → 37. A transparent pixel under red = ½ and
    /// alpha = 1 becomes (127, 0, 0, 255).
    @Test func transferFunctions() {
        let pixel = FilterPixels(width: 1, height: 1, bytes: [51, 102, 204, 255])
        let mixed: [TransferFunction] = [
            .table([0.1, 0.9]), .discrete([0.25, 0.5, 0.75]), .linear(slope: 0.5, intercept: 0.25), .identity,
        ]
        #expect(FilterKernels.componentTransfer(mixed, input: pixel).bytes == [66, 127, 165, 255])
        let two = FilterPixels(width: 2, height: 1, bytes: [51, 0, 0, 255, 40, 0, 0, 136])
        let gamma = FilterKernels.componentTransfer([.gamma(amplitude: 2, exponent: 2, offset: 0.1)], input: two)
        #expect(gamma.bytes == [45, 0, 0, 255, 37, 0, 0, 136])
        let lifted = FilterKernels.componentTransfer(
            [.linear(slope: 0, intercept: 0.5), .identity, .identity, .linear(slope: 0, intercept: 1)],
            input: FilterPixels(width: 1, height: 1))
        #expect(lifted.bytes == [127, 0, 0, 255])
    }
}
