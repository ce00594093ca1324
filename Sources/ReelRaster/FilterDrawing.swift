/// A group's filters drawn on its content, in place: the Gaussian blur (exact, or on a coarse grid for
/// large σ) and colour matrices.
import Foundation

extension BandPainter {
    /// Applies `filters` in order to `content` within `bounds` (the group's pixels). A blur's values
    /// are exact only `margin` inside the canvas's edges, past which it reads no content: the content
    /// is drawn with the filters' margins around the canvas composited (`draw(_:into:)`), so every band
    /// composites the same pixels.
    func applyFilters(
        _ filters: [DrawTree.PreparedFilter], to content: Canvas, within bounds: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) {
        let x0 = max(content.x0, bounds.x0), x1 = min(content.x1, bounds.x1)
        let y0 = max(content.y0, bounds.y0), y1 = min(content.y1, bounds.y1)
        guard x0 < x1, y0 < y1 else { return }
        let area = content.view(x0: x0, y0: y0, x1: x1, y1: y1)
        for filter in filters {
            switch filter {
            case .blur(_, let kernel, let f, _):
                if f > 1 { Self.blurCoarse(area, kernel: kernel, factor: f) } else { Self.blurExact(area, kernel: kernel) }
            case .matrix(let rows, let bias):
                Self.applyMatrix(area, rows: rows, bias: bias)
            }
        }
    }

    /// A pixel's premultiplied channels, 0…255.
    @inline(__always) static func load(_ p: UnsafeMutablePointer<UInt8>) -> SIMD4<Float> {
        SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
    }

    /// Stores premultiplied channels rounded to the nearest level, no colour above the alpha.
    @inline(__always) static func store(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt8>) {
        let a = min(max(v.w, 0), 255).rounded(.toNearestOrEven)
        let c = v.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: a)).rounded(.toNearestOrEven)
        p[0] = UInt8(c.x)
        p[1] = UInt8(c.y)
        p[2] = UInt8(c.z)
        p[3] = UInt8(a)
    }

    /// The separable Gaussian over pixels: rows, then columns; taps outside the area read transparent.
    static func blurExact(_ area: Canvas, kernel k: [Float]) {
        let w = area.width, h = area.rows, r = k.count / 2
        var source = [SIMD4<Float>](repeating: .zero, count: w * h)
        var across = [SIMD4<Float>](repeating: .zero, count: w * h)
        var inked = [Bool](repeating: false, count: h)
        for y in 0..<h {
            let row = area.row(area.y0 + y)
            for x in 0..<w where UnsafeRawPointer(row + x * 4).loadUnaligned(as: UInt32.self) != 0 {
                source[y * w + x] = load(row + x * 4)
                inked[y] = true
            }
        }
        k.withUnsafeBufferPointer { k in
            source.withUnsafeMutableBufferPointer { source in
                across.withUnsafeMutableBufferPointer { across in
                    for y in 0..<h where inked[y] {
                        let line = source.baseAddress! + y * w
                        for x in 0..<w {
                            var sum = SIMD4<Float>.zero
                            for i in max(0, r - x)..<min(k.count, w - x + r) { sum += k[i] * line[x + i - r] }
                            across[y * w + x] = sum
                        }
                    }
                    // Down the columns a row at a time: each output row sums the kernel's rows in order.
                    let sums = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: w)
                    defer { sums.deallocate() }
                    for y in 0..<h {
                        sums.update(repeating: .zero, count: w)
                        for i in max(0, r - y)..<min(k.count, h - y + r) where inked[y + i - r] {
                            let line = across.baseAddress! + (y + i - r) * w
                            let weight = k[i]
                            for x in 0..<w { sums[x] += weight * line[x] }
                        }
                        let out = area.row(area.y0 + y)
                        for x in 0..<w { store(sums[x], out + x * 4) }
                    }
                }
            }
        }
    }

    /// A large blur on a grid f times coarser (`coarseFactor`): each cell the mean of its f×f pixels,
    /// the cells blurred by `kernel`, each pixel sampled back bilinearly — O(1) per pixel whatever σ.
    /// The cells are aligned to the device grid, so every band computes the same cells from the same
    /// pixels. `kernel`'s σ is the filter's less what the box and the bilinear taps add (f²/4 of
    /// variance, `coarseSigma`).
    static func blurCoarse(_ area: Canvas, kernel k: [Float], factor f: Int) {
        func cell(_ p: Int) -> Int { p >= 0 ? p / f : -((-p + f - 1) / f) }
        let gx0 = cell(area.x0), gy0 = cell(area.y0)
        let gw = cell(area.x1 - 1) - gx0 + 1, gh = cell(area.y1 - 1) - gy0 + 1
        // Integer sums per cell: exact whatever the order of the pixels.
        var sums = [SIMD4<UInt32>](repeating: .zero, count: gw * gh)
        for y in area.y0..<area.y1 {
            let row = area.row(y), g = (cell(y) - gy0) * gw
            for x in 0..<area.width {
                let word = UnsafeRawPointer(row + x * 4).loadUnaligned(as: UInt32.self)
                guard word != 0 else { continue }
                sums[g + cell(area.x0 + x) - gx0] &+= SIMD4(word, word >> 8, word >> 16, word >> 24) & 255
            }
        }
        let scale = 1 / Float(f * f)
        // The grid with a border of two empty cells (the kernel's taps are bounded; the bilinear ones
        // need no checks).
        let pw = gw + 4, ph = gh + 4
        var grid = [SIMD4<Float>](repeating: .zero, count: pw * ph)
        for y in 0..<gh {
            for x in 0..<gw { grid[(y + 2) * pw + x + 2] = SIMD4<Float>(sums[y * gw + x]) * scale }
        }
        var across = [SIMD4<Float>](repeating: .zero, count: pw * ph)
        let r = k.count / 2
        k.withUnsafeBufferPointer { k in
            for y in 2..<(gh + 2) {
                for x in 0..<pw {
                    var sum = SIMD4<Float>.zero
                    for i in max(0, r - x)..<min(k.count, pw - x + r) { sum += k[i] * grid[y * pw + x + i - r] }
                    across[y * pw + x] = sum
                }
            }
            for y in 0..<ph {
                for x in 0..<pw {
                    var sum = SIMD4<Float>.zero
                    for i in max(0, r - y)..<min(k.count, ph - y + r) { sum += k[i] * across[(y + i - r) * pw + x] }
                    grid[y * pw + x] = sum
                }
            }
        }
        // A pixel X sits at grid coordinate (X − (f − 1)/2)/f, the centre of its cell's pixels.
        let half = Double(f - 1) / 2, inv = 1 / Double(f)
        for y in area.y0..<area.y1 {
            let v = (Double(y) - half) * inv - Double(gy0) + 2
            let iv = Int(v.rounded(.down)), tv = Float(v - v.rounded(.down))
            guard iv >= 0, iv + 1 < ph else { continue }
            let out = area.row(y)
            for x in 0..<area.width {
                let u = (Double(area.x0 + x) - half) * inv - Double(gx0) + 2
                let iu = Int(u.rounded(.down)), tu = Float(u - u.rounded(.down))
                guard iu >= 0, iu + 1 < pw else { continue }
                let top = grid[iv * pw + iu] * (1 - tu) + grid[iv * pw + iu + 1] * tu
                let bottom = grid[(iv + 1) * pw + iu] * (1 - tu) + grid[(iv + 1) * pw + iu + 1] * tu
                store(top * (1 - tv) + bottom * tv, out + x * 4)
            }
        }
    }

    /// The variance a coarse blur's box and bilinear taps add is about f²/4 pixels²: the cells are
    /// blurred by what is left of σ², so the whole is σ within a few per cent.
    static func coarseSigma(_ sigma: Double, factor f: Int) -> Double {
        let ff = Double(f * f)
        return max(sigma * sigma - ff / 4, ff / 4).squareRoot() / Double(f)
    }

    /// The matrix on each pixel's unpremultiplied colour, clamped, premultiplied again. A transparent
    /// pixel stays so unless the matrix adds alpha.
    static func applyMatrix(_ area: Canvas, rows: [SIMD4<Float>], bias: SIMD4<Float>) {
        let (mr, mg, mb, ma) = (rows[0], rows[1], rows[2], rows[3])
        let addsAlpha = bias.w > 0
        for y in area.y0..<area.y1 {
            let row = area.row(y)
            for x in 0..<area.width {
                let p = row + x * 4
                let q = load(p)
                if q.w == 0 && !addsAlpha { continue }
                let c = q.w > 0 ? SIMD4(q.x / q.w, q.y / q.w, q.z / q.w, q.w / 255) : .zero
                let o = (SIMD4((mr * c).sum(), (mg * c).sum(), (mb * c).sum(), (ma * c).sum()) + bias)
                    .clamped(lowerBound: .zero, upperBound: .one)
                store(SIMD4(o.x * o.w, o.y * o.w, o.z * o.w, o.w) * 255, p)
            }
        }
    }
}
