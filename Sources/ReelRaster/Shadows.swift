/// Drop shadows: the exact Gaussian blur for small radii and the coarse-grid blur for large ones.
import Foundation
import ReelGeometry

extension BandPainter {
    /// The shadow of `content`'s alpha: blurred, offset and tinted, written into `target`.
    func drawShadow(_ shadow: DrawTree.PreparedShadow, of content: Canvas, into target: Canvas) {
        if shadow.sigma >= Self.coarseShadowSigma {
            drawCoarseShadow(shadow, of: content, into: target)
            return
        }
        let w = content.width, h = content.rows
        let k = shadow.kernel
        let r = k.count / 2
        // Only what the target samples: content coordinates (p − offset), one more for the bilinear tap.
        let u0 = Double(target.x0) - shadow.offset.x - Double(content.x0),
            v0 = Double(target.y0) - shadow.offset.y - Double(content.y0)
        let colLo = max(0, Int(u0.rounded(.down))), colHi = min(w - 1, Int(u0.rounded(.down)) + target.width)
        let rowLo = max(0, Int(v0.rounded(.down))), rowHi = min(h - 1, Int(v0.rounded(.down)) + target.rows)
        guard colLo <= colHi, rowLo <= rowHi else { return }
        var alpha = [Float](repeating: 0, count: w * h)
        var temp = [Float](repeating: 0, count: w * h)
        var rowHasInk = [Bool](repeating: false, count: h)
        for y in 0..<h {
            let row = content.pixels + y * w * 4
            for x in 0..<w where row[x * 4 + 3] != 0 {
                alpha[y * w + x] = Float(row[x * 4 + 3]) / 255
                rowHasInk[y] = true
            }
        }
        k.withUnsafeBufferPointer { k in
            alpha.withUnsafeMutableBufferPointer { alpha in
                temp.withUnsafeMutableBufferPointer { temp in
                    // Horizontal over the rows the vertical pass reads, then vertical over the target's rows;
                    // outside the content canvas is transparent.
                    for y in max(0, rowLo - r)...min(h - 1, rowHi + r) where rowHasInk[y] {
                        for x in colLo...colHi {
                            var sum: Float = 0
                            for i in max(0, r - x)..<min(k.count, w - x + r) { sum += k[i] * alpha[y * w + x + i - r] }
                            temp[y * w + x] = sum
                        }
                    }
                    for y in rowLo...rowHi {
                        for x in colLo...colHi {
                            var sum: Float = 0
                            for i in max(0, r - y)..<min(k.count, h - y + r) { sum += k[i] * temp[(y + i - r) * w + x] }
                            alpha[y * w + x] = sum
                        }
                    }
                }
            }
        }
        // Sample the blurred alpha at (p − offset), bilinearly.
        alpha.withUnsafeBufferPointer { alpha in
            for y in target.y0..<target.y1 {
                let out = target.row(y)
                let cover = content.row(y) + (target.x0 - content.x0) * 4
                for x in target.x0..<target.x1 {
                    if cover[(x - target.x0) * 4 + 3] == 255 { continue }  // the content will cover it
                    let u = Double(x) - shadow.offset.x - Double(content.x0)
                    let v = Double(y) - shadow.offset.y - Double(content.y0)
                    let fu = u.rounded(.down), fv = v.rounded(.down)
                    let iu = Int(fu), iv = Int(fv)
                    let tu = Float(u - fu), tv = Float(v - fv)
                    func at(_ a: Int, _ b: Int) -> Float {
                        a >= colLo && a <= colHi && b >= rowLo && b <= rowHi ? alpha[b * w + a] : 0
                    }
                    let a =
                        (at(iu, iv) * (1 - tu) + at(iu + 1, iv) * tu) * (1 - tv)
                        + (at(iu, iv + 1) * (1 - tu) + at(iu + 1, iv + 1) * tu) * tv
                    guard a > 0.5 / 255 else { continue }
                    blend(out + (x - target.x0) * 4, shadow.color, a)
                }
            }
        }
    }
}

extension BandPainter {
    /// From this standard deviation (pixels) on, shadows are blurred on a grid f = ⌊σ/4⌋ times coarser:
    /// each cell the mean of f×f pixels, blurred by a Gaussian of σ/f, sampled back bilinearly. The box
    /// and the bilinear taps widen the blur by a variance of about f²/4 (σ = 54: 54.4 instead of 54,
    /// under 1 %), and the cost falls from O(σ) to O(1) per pixel: a large soft shadow no longer costs
    /// seconds a frame.
    static let coarseShadowSigma = 8.0

    /// The coarse grid's factor for a shadow.
    static func coarseFactor(sigma: Double) -> Int { max(2, Int(sigma / 4)) }

    /// One cell of a row blurred by the kernel: its taps from the first, those outside the row's
    /// `count` cells left out.
    @inline(__always) static func tap(
        _ k: UnsafeBufferPointer<Float>, _ row: UnsafeMutablePointer<Float>, at x: Int, count: Int, reach r: Int
    ) -> Float {
        var sum: Float = 0
        for i in max(0, r - x)..<min(k.count, count - x + r) { sum += k[i] * row[x + i - r] }
        return sum
    }

    func drawCoarseShadow(_ shadow: DrawTree.PreparedShadow, of content: Canvas, into target: Canvas) {
        let w = content.width, h = content.rows
        let f = Self.coarseFactor(sigma: shadow.sigma)
        // Cells are aligned to the device grid (not to this band's canvas), so every band computes the
        // same cells from the same pixels and the result does not depend on the band split.
        func cell(_ p: Int) -> Int { p >= 0 ? p / f : -((-p + f - 1) / f) }
        let gx0 = cell(content.x0), gy0 = cell(content.y0)
        let gw = cell(content.x0 + w - 1) - gx0 + 1, gh = cell(content.y0 + h - 1) - gy0 + 1
        let k = gaussianKernel(sigma: shadow.sigma / Double(f))
        let r = k.count / 2
        // A device pixel X sits at grid coordinate (X − (f − 1)/2)/f, the centre of its cell's pixels.
        let half = Double(f - 1) / 2, inv = 1 / Double(f)
        // The cells the target's pixels sample (two a side of each, bilinearly; the coordinate grows with
        // the pixel, so the target's first and last pixels bound them), in grid coordinates: only these
        // are blurred, from the cells within the kernel's reach of them, summed from their pixels. Each
        // is the same sum as when the whole grid was made, so the shadow is the same; what a band draws
        // now costs what its own rows need, not the whole group (a docs GIF whose window casts a shadow
        // had each frame's few damaged rows blur the window's whole grid: 44 % of its time).
        func cellOf(_ p: Int, _ offset: Double) -> Int { Int(((Double(p) - offset - half) * inv).rounded(.down)) }
        let ox0 = max(0, cellOf(target.x0, shadow.offset.x) - gx0)
        let ox1 = min(gw, cellOf(target.x1 - 1, shadow.offset.x) + 2 - gx0)
        let oy0 = max(0, cellOf(target.y0, shadow.offset.y) - gy0)
        let oy1 = min(gh, cellOf(target.y1 - 1, shadow.offset.y) + 2 - gy0)
        guard ox0 < ox1, oy0 < oy1 else { return }
        // The cells summed: those within the kernel's reach of the sampled ones.
        let sx0 = max(0, ox0 - r), sx1 = min(gw, ox1 + r), sy0 = max(0, oy0 - r), sy1 = min(gh, oy1 + r)
        // Each cell's alpha, summed exactly as integers (so the result does not depend on the order of
        // the pixels, nor on the band that computes it), then scaled to the mean coverage.
        var sums = [UInt32](repeating: 0, count: gw * gh)
        var inked = false
        // Grid column k holds content columns edges[k] ..< edges[k + 1].
        let edges = (0...gw).map { k in max(0, min(w, (gx0 + k) * f - content.x0)) }
        let columns = UnsafeMutablePointer<UInt32>.allocate(capacity: w + 8)
        defer { columns.deallocate() }
        let c0 = edges[sx0], c1 = edges[sx1]
        sums.withUnsafeMutableBufferPointer { sums in
            var y = max(0, (gy0 + sy0) * f - content.y0)
            let last = min(h, (gy0 + sy1) * f - content.y0)
            while y < last {
                // One row of cells: each column's alpha summed over the cell's rows (eight columns at a
                // time), then f columns per cell.
                let gy = cell(content.y0 + y)
                let end = min(h, (gy + 1) * f - content.y0)
                (columns + c0).update(repeating: 0, count: c1 - c0)
                let sumsRaw = UnsafeMutableRawPointer(columns)
                while y < end {
                    let row = UnsafeRawPointer(content.row(content.y0 + y))
                    var x = c0
                    while x &+ 8 <= c1 {
                        let a = row.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<UInt32>.self) &>> 24
                        let c = sumsRaw.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<UInt32>.self)
                        sumsRaw.storeBytes(of: c &+ a, toByteOffset: x &* 4, as: SIMD8<UInt32>.self)
                        x &+= 8
                    }
                    while x < c1 {
                        columns[x] &+= row.load(fromByteOffset: x &* 4, as: UInt32.self) &>> 24
                        x &+= 1
                    }
                    y &+= 1
                }
                let g = sums.baseAddress! + (gy - gy0) * gw
                for k in sx0..<sx1 {
                    var acc: UInt32 = 0
                    for x in edges[k]..<edges[k + 1] { acc &+= columns[x] }
                    g[k] = acc
                    if acc != 0 { inked = true }
                }
            }
        }
        guard inked else { return }
        let scale = 1 / (255 * Float(f * f))
        var grid = sums.map { Float($0) * scale }
        var temp = [Float](repeating: 0, count: gw * gh)
        k.withUnsafeBufferPointer { k in
            grid.withUnsafeMutableBufferPointer { grid in
                temp.withUnsafeMutableBufferPointer { temp in
                    // Each cell's sum in the same order as one at a time (the kernel's taps from the first,
                    // those outside the grid left out), eight neighbouring cells in eight lanes.
                    for y in sy0..<sy1 {
                        let row = grid.baseAddress! + y * gw
                        var x = ox0
                        // Lanes whose taps all fall inside the grid: x − r ≥ 0 and x + 7 + r < gw.
                        if x < r { x = min(r, ox1) }
                        for x in ox0..<x { temp[y * gw + x] = Self.tap(k, row, at: x, count: gw, reach: r) }
                        while x &+ 8 <= ox1 && x &+ 7 &+ r < gw {
                            var sum = SIMD8<Float>(repeating: 0)
                            for i in 0..<k.count {
                                let cells = UnsafeRawPointer(row + (x &+ i &- r)).loadUnaligned(as: SIMD8<Float>.self)
                                sum += SIMD8<Float>(repeating: k[i]) * cells
                            }
                            UnsafeMutableRawPointer(temp.baseAddress! + y * gw + x).storeBytes(of: sum, as: SIMD8<Float>.self)
                            x &+= 8
                        }
                        while x < ox1 {
                            temp[y * gw + x] = Self.tap(k, row, at: x, count: gw, reach: r)
                            x &+= 1
                        }
                    }
                    for y in oy0..<oy1 {
                        let lo = max(0, r - y), hi = min(k.count, gh - y + r)
                        var x = ox0
                        while x &+ 8 <= ox1 {
                            var sum = SIMD8<Float>(repeating: 0)
                            for i in lo..<hi {
                                let cells = UnsafeRawPointer(temp.baseAddress! + ((y &+ i &- r) &* gw &+ x))
                                    .loadUnaligned(as: SIMD8<Float>.self)
                                sum += SIMD8<Float>(repeating: k[i]) * cells
                            }
                            UnsafeMutableRawPointer(grid.baseAddress! + y * gw + x).storeBytes(of: sum, as: SIMD8<Float>.self)
                            x &+= 8
                        }
                        while x < ox1 {
                            var sum: Float = 0
                            for i in lo..<hi { sum += k[i] * temp[(y + i - r) * gw + x] }
                            grid[y * gw + x] = sum
                            x &+= 1
                        }
                    }
                }
            }
        }
        // The grid with a border of one empty cell, so the bilinear taps need no bounds checks.
        let pw = gw + 2
        var padded = [Float](repeating: 0, count: pw * (gh + 2))
        for y in 0..<gh {
            for x in 0..<gw { padded[(y + 1) * pw + x + 1] = grid[y * gw + x] }
        }
        // Each column's cell (in the padded grid) and weight, once; columns xa ..< xb are those whose
        // bilinear taps meet the grid (a contiguous run: the cell grows with the column).
        let columnCell = UnsafeMutablePointer<Int>.allocate(capacity: target.width)
        let columnWeight = UnsafeMutablePointer<Float>.allocate(capacity: target.width)
        defer {
            columnCell.deallocate()
            columnWeight.deallocate()
        }
        var xa = target.width, xb = 0
        for x in target.x0..<target.x1 {
            let u = (Double(x) - shadow.offset.x - half) * inv
            let fu = u.rounded(.down)
            let iu = Int(fu)
            columnCell[x - target.x0] = iu - gx0 + 1
            columnWeight[x - target.x0] = Float(u - fu)
            if iu + 1 >= gx0 && iu < gx0 + gw {
                xa = min(xa, x - target.x0)
                xb = max(xb, x - target.x0 + 1)
            }
        }
        guard xa < xb else { return }
        padded.withUnsafeBufferPointer { grid in
            // One row of the grid interpolated vertically, then each pixel between two of its values.
            let line = UnsafeMutablePointer<Float>.allocate(capacity: pw)
            defer { line.deallocate() }
            for y in target.y0..<target.y1 {
                let out = target.row(y)
                let v = (Double(y) - shadow.offset.y - half) * inv
                let fv = v.rounded(.down)
                let iv = Int(fv), tv = Float(v - fv)
                guard iv + 1 >= gy0, iv < gy0 + gh else { continue }
                let top = grid.baseAddress! + (iv - gy0 + 1) * pw, bottom = top + pw
                for i in 0..<pw { line[i] = top[i] * (1 - tv) + bottom[i] * tv }
                // Where the content itself is opaque it will cover the shadow entirely: skip those pixels.
                let cover = content.row(y) + (target.x0 - content.x0) * 4
                var x = xa
                // Four pixels at a time in sixteen lanes: `blend`'s arithmetic lane by lane, each pixel at its
                // own alpha, so the same bytes. A pixel covered or too faint is blended at alpha 0, which
                // gives its bytes back (d · 1 + 0). The pixel loop below was half of this function's time:
                // spring-button's σ 48 shadow, 8 % of its 1080p render.
                let color8 = SIMD8(lowHalf: shadow.color, highHalf: shadow.color)
                let color16 = SIMD16(lowHalf: color8, highHalf: color8)
                let raw = UnsafeMutableRawPointer(out)
                while x &+ 4 <= xb {
                    let coverAlphas = UnsafeRawPointer(cover + x &* 4).loadUnaligned(as: SIMD4<Int32>.self) &>> 24 & 255
                    let i = SIMD4(columnCell[x], columnCell[x &+ 1], columnCell[x &+ 2], columnCell[x &+ 3])
                    let tu = SIMD4(columnWeight[x], columnWeight[x &+ 1], columnWeight[x &+ 2], columnWeight[x &+ 3])
                    let left = SIMD4(line[i[0]], line[i[1]], line[i[2]], line[i[3]])
                    let right = SIMD4(line[i[0] &+ 1], line[i[1] &+ 1], line[i[2] &+ 1], line[i[3] &+ 1])
                    let blended = left * (1 - tu) + right * tu
                    let drawn = (coverAlphas .!= 255) .& (blended .> 0.5 / 255)
                    if any(drawn) {
                        let a = blended.replacing(with: 0, where: .!drawn)
                        let spread = SIMD16(
                            a[0], a[0], a[0], a[0], a[1], a[1], a[1], a[1], a[2], a[2], a[2], a[2], a[3], a[3], a[3], a[3])
                        let s = color16 * spread
                        let bytes = raw.loadUnaligned(fromByteOffset: x &* 4, as: SIMD16<UInt8>.self)
                        let d = unsafeBitCast(widened(bytes) | 0x4B00_0000, to: SIMD16<Float>.self) - 8_388_608
                        let r = s + d * (1 - alphas(s) * (1 / 255))
                        let bits = unsafeBitCast(r + SIMD16(repeating: 12_582_912), to: SIMD16<UInt32>.self)
                        raw.storeBytes(of: lowBytes(bits), toByteOffset: x &* 4, as: SIMD16<UInt8>.self)
                    }
                    x &+= 4
                }
                while x < xb {
                    defer { x &+= 1 }
                    if cover[x &* 4 &+ 3] == 255 { continue }
                    let i = columnCell[x], tu = columnWeight[x]
                    let a = line[i] * (1 - tu) + line[i &+ 1] * tu
                    guard a > 0.5 / 255 else { continue }
                    blend(out + x &* 4, shadow.color, a)
                }
            }
        }
    }
}
