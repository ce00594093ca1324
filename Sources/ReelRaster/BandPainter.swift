import Foundation
import ReelGeometry

/// Draws the tree into one canvas (a band of the frame, or an offscreen group). One per worker thread;
/// its scratch memory is reused for every band that worker draws.
struct BandPainter {
    let frameWidth: Int
    var scratch: CoverageScratch
    /// One row of shaded colours (gradients, images).
    let shadeRow: UnsafeMutablePointer<SIMD4<Float>>
    let maxWidth: Int

    init(frameWidth: Int, tree: DrawTree, maxRows: Int) {
        self.frameWidth = frameWidth
        let reach = tree.nodes.map(\.reach).max() ?? 0
        maxWidth = frameWidth + 2 * reach
        scratch = CoverageScratch(width: maxWidth, rows: maxRows + 2 * reach)
        shadeRow = .allocate(capacity: maxWidth + 2)
    }

    func release() {
        scratch.deallocate()
        shadeRow.deallocate()
    }

    func paint(_ nodes: [DrawTree.Node], into canvas: Canvas) {
        for node in nodes { paint(node, into: canvas) }
    }

    @inline(__always) func paint(_ node: DrawTree.Node, into canvas: Canvas) {
        switch node {
        case .shape(let shape):
            fill(shape, into: canvas)
        case .group(let group):
            draw(group, into: canvas)
        }
    }

    /// The canvas-local column range a shape can touch, or nil when it misses the canvas.
    func columns(_ shape: PreparedShape, _ canvas: Canvas) -> (Int, Int)? {
        guard shape.maxY > Double(canvas.y0), shape.minY < Double(canvas.y1), shape.maxX > Double(canvas.x0),
            shape.minX < Double(canvas.x1)
        else { return nil }
        let c0 = max(0, Int(shape.minX.rounded(.down)) - canvas.x0)
        let c1 = min(canvas.width - 1, Int(shape.maxX.rounded(.up)) - canvas.x0)
        return (c0, c1)
    }

    func rows(_ shape: PreparedShape, _ canvas: Canvas) -> Range<Int> {
        max(canvas.y0, Int(shape.minY.rounded(.down)))..<min(canvas.y1, Int(shape.maxY.rounded(.up)))
    }

    func fill(_ shape: PreparedShape, into canvas: Canvas) {
        guard let (c0, c1) = columns(shape, canvas) else { return }
        scratch.accumulate(shape, x0: canvas.x0, y0: canvas.y0, width: canvas.width, rows: canvas.rows)
        let shade = shadeRow
        switch shape.paint {
        case .solid(let color):
            let run = ConstantSourceOver(color)
            for y in rows(shape, canvas) {
                let out = canvas.row(y)
                scratch.spans(row: y - canvas.y0, c0: c0, c1: c1, rule: shape.rule) { start, end, c in
                    if c >= 1 {
                        run.apply(to: out + start &* 4, count: end &- start)
                    } else {
                        for x in start..<end { blend(out + x &* 4, color, c) }
                    }
                }
            }
        case .gradient(let g):
            for y in rows(shape, canvas) {
                let out = canvas.row(y)
                scratch.spans(row: y - canvas.y0, c0: c0, c1: c1, rule: shape.rule) { start, end, c in
                    if c >= 1 && g.opaque {
                        g.shadeOpaque(y: y, x0: canvas.x0 &+ start, x1: canvas.x0 &+ end &- 1, into: out + start &* 4)
                    } else {
                        g.shade(y: y, x0: canvas.x0 &+ start, x1: canvas.x0 &+ end &- 1, into: shade)
                        blendShaded(out + start &* 4, shade, count: end &- start, c)
                    }
                }
            }
        case .image(let image):
            for y in rows(shape, canvas) {
                let out = canvas.row(y)
                scratch.spans(row: y - canvas.y0, c0: c0, c1: c1, rule: shape.rule) { start, end, c in
                    image.shade(y: y, x0: canvas.x0 &+ start, x1: canvas.x0 &+ end &- 1, into: shade)
                    blendShaded(out + start &* 4, shade, count: end &- start, c)
                }
            }
        }
    }

    func draw(_ group: DrawTree.PreparedGroup, into band: Canvas) {
        // Only the part of the band the group can paint.
        let b = group.bounds
        let x0 = max(band.x0, b.x0), x1 = min(band.x1, b.x1), y0 = max(band.y0, b.y0), y1 = min(band.y1, b.y1)
        guard x0 < x1, y0 < y1 else { return }
        let canvas = band.view(x0: x0, y0: y0, x1: x1, y1: y1)
        let margin = group.shadow?.margin ?? 0
        let content = OffscreenCanvas(
            x0: canvas.x0 - margin, y0: canvas.y0 - margin, width: canvas.width + 2 * margin, rows: canvas.rows + 2 * margin)
        defer { content.release() }
        paint(group.content, into: content.canvas)

        if let shadow = group.shadow, group.opacity >= 1, group.clip == nil, group.mask == nil, group.tint == nil {
            // Source-over is associative: (content over shadow) over the band is content over (shadow over
            // the band). Drawn so, straight into the band, the shadowed picture needs no canvas of its own
            // nor a pass to composite it (the same colours within rounding: ±1 level where both overlap).
            drawShadow(shadow, of: content.canvas, into: canvas)
            composite(content.canvas, onto: canvas, factor: 1, clip: nil, mask: nil)
            return
        }

        // The picture to composite, in the canvas's rectangle: the content, over its shadow if any.
        var picture = content.canvas
        var shadowed: OffscreenCanvas?
        defer { shadowed?.release() }
        if let shadow = group.shadow {
            let s = OffscreenCanvas(x0: canvas.x0, y0: canvas.y0, width: canvas.width, rows: canvas.rows)
            drawShadow(shadow, of: content.canvas, into: s.canvas)
            composite(content.canvas, onto: s.canvas, factor: 1, clip: nil, mask: nil)
            shadowed = s
            picture = s.canvas
        }
        var maskCanvas: OffscreenCanvas?
        defer { maskCanvas?.release() }
        if let mask = group.mask {
            let m = OffscreenCanvas(x0: canvas.x0, y0: canvas.y0, width: canvas.width, rows: canvas.rows)
            paint(mask, into: m.canvas)
            maskCanvas = m
        }
        composite(picture, onto: band, factor: group.opacity, clip: group.clip, mask: maskCanvas?.canvas, tint: group.tint)
    }

    /// Source-over of the pixels `columns` of one row of `src` onto `dst`, scaled by `f` (> 0): a word
    /// per pixel, transparent ones skipped, opaque ones copied at full strength (what `blend` computes).
    @inline(__always) func compositeWords(
        _ src: UnsafeMutableRawPointer, _ dst: UnsafeMutableRawPointer, _ columns: Range<Int>, _ f: Float
    ) {
        for x in columns {
            let word = src.load(fromByteOffset: x &* 4, as: UInt32.self)
            if word == 0 { continue }
            if f == 1 && word >= 0xFF00_0000 {
                dst.storeBytes(of: word, toByteOffset: x &* 4, as: UInt32.self)
                continue
            }
            let color = SIMD4<Float>(SIMD4<UInt32>(word, word &>> 8, word &>> 16, word &>> 24) & 0xFF)
            blend(dst.assumingMemoryBound(to: UInt8.self) + x &* 4, color, f)
        }
    }

    /// Source-over of `source` (same or larger rectangle) onto `canvas`, scaled by `factor`, by the clip
    /// shape's coverage and by the mask's alpha.
    func composite(
        _ source: Canvas, onto canvas: Canvas, factor: Float, clip: PreparedShape?, mask: Canvas?, tint: SIMD4<Float>? = nil
    ) {
        var clipColumns: (Int, Int)?
        if let clip {
            guard let cols = columns(clip, canvas) else { return }
            clipColumns = cols
            scratch.accumulate(clip, x0: canvas.x0, y0: canvas.y0, width: canvas.width, rows: canvas.rows)
        }
        let clipRows = clip.map { rows($0, canvas) }
        /// The clip's coverage was accumulated over all its rows in the canvas; rows the compositing
        /// below does not sweep must be swept here, or their cells stay in the scratch and add to the
        /// next shape drawn in this band.
        func clearClip(outside done: Range<Int>) {
            guard let clip, let (ca, cb) = clipColumns, let clipRows else { return }
            for y in clipRows where (y < done.lowerBound || y >= done.upperBound) && y >= canvas.y0 && y < canvas.y1 {
                scratch.sweep(row: y - canvas.y0, c0: ca, c1: cb, rule: clip.rule)
            }
        }
        // The source (and mask) may cover only part of the canvas: columns a ..< b, rows of both.
        let a = max(canvas.x0, source.x0) - canvas.x0, b = min(canvas.x1, source.x1) - canvas.x0
        let sourceRows = max(canvas.y0, source.y0)..<max(max(canvas.y0, source.y0), min(canvas.y1, source.y1))
        guard a < b else {
            clearClip(outside: 0..<0)
            return
        }
        if let clip, let (ca, cb) = clipColumns, let clipRows, mask == nil && tint == nil {
            // A clipped group (masksToBounds): runs of constant clip coverage, the inside of the clip
            // one run — the same values as the general loop below, without a coverage row.
            for y in max(canvas.y0, source.y0, clipRows.lowerBound)..<min(canvas.y1, source.y1, clipRows.upperBound) {
                let src = UnsafeMutableRawPointer(source.row(y) + (canvas.x0 - source.x0) * 4)
                let dst = UnsafeMutableRawPointer(canvas.row(y))
                scratch.spans(row: y - canvas.y0, c0: ca, c1: cb, rule: clip.rule, minimum: 0) { start, end, c in
                    let f = factor * c
                    guard f > 0 else { return }
                    compositeWords(src, dst, max(start, a)..<max(min(end, b), max(start, a)), f)
                }
            }
            clearClip(outside: sourceRows)
            return
        }
        if clip == nil && mask == nil && tint == nil {
            // The common case (a group with opacity, a shadow under its content): a word per pixel,
            // transparent ones skipped, opaque ones copied at full opacity — the same values as below.
            for y in max(canvas.y0, source.y0)..<min(canvas.y1, source.y1) {
                let src = UnsafeMutableRawPointer(source.row(y) + (canvas.x0 - source.x0) * 4)
                let dst = UnsafeMutableRawPointer(canvas.row(y))
                if factor > 0 { compositeWords(src, dst, a..<b, factor) }
            }
            return
        }
        for y in max(canvas.y0, source.y0)..<min(canvas.y1, source.y1) {
            var c0 = a, c1 = b - 1
            var clipStart = 0
            if let clip, let (ca, cb) = clipColumns, let clipRows {
                guard clipRows.contains(y) else { continue }
                scratch.sweep(row: y - canvas.y0, c0: ca, c1: cb, rule: clip.rule)
                clipStart = ca
                c0 = max(c0, ca)
                c1 = min(c1, cb)
                guard c0 <= c1 else { continue }
            }
            let src = source.row(y) + (canvas.x0 - source.x0) * 4
            let dst = canvas.row(y)
            let m = mask.map { $0.row(y) + (canvas.x0 - $0.x0) * 4 }
            for x in c0...c1 {
                var f = factor
                if clip != nil { f *= scratch.coverage[x - clipStart] }
                if let m { f *= Float(m[x * 4 + 3]) / 255 }
                let s = src + x * 4
                guard f > 0, s[3] != 0 || s[0] != 0 || s[1] != 0 || s[2] != 0 else { continue }
                if f == 1 && tint == nil && s[3] == 255 {
                    // Source-over of an opaque pixel is that pixel (what `blend` computes, exactly).
                    UnsafeMutableRawPointer(dst + x * 4).copyMemory(from: s, byteCount: 4)
                    continue
                }
                var color = SIMD4(Float(s[0]), Float(s[1]), Float(s[2]), Float(s[3]))
                if let tint { color *= tint }
                blend(dst + x * 4, color, f)
            }
        }
        clearClip(outside: sourceRows)
    }

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

/// Premultiplied source-over of `color` (0…255) scaled by `coverage` onto an 8-bit pixel, rounded to
/// nearest (ties to even).
///
/// The four channels go through SIMD lanes together; the float result is rounded by adding 1.5·2²³,
/// which leaves the rounded integer in the low mantissa bits (exact for 0…2²²), instead of a
/// checked Float → Int conversion per channel. The result never exceeds 255: s + d·(1 − sₐ/255) ≤ 255.
@inline(__always) func blend(_ p: UnsafeMutablePointer<UInt8>, _ color: SIMD4<Float>, _ coverage: Float) {
    let s = color * coverage
    let raw = UnsafeMutableRawPointer(p).loadUnaligned(as: UInt32.self)
    let lanes = SIMD4<UInt32>(raw, raw &>> 8, raw &>> 16, raw &>> 24) & 0xFF
    let d = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: lanes))
    let r = s + d * (1 - s.w * (1 / 255))
    UnsafeMutableRawPointer(p).storeBytes(of: pack(r), as: UInt32.self)
}

/// Composites shaded colours at one coverage; fully covered opaque pixels are stored without reading
/// what is below (source-over of an opaque source is the source).
@inline(__always) func blendShaded(
    _ out: UnsafeMutablePointer<UInt8>, _ colors: UnsafeMutablePointer<SIMD4<Float>>, count: Int, _ c: Float
) {
    if c >= 1 {
        for i in 0..<count {
            let color = colors[i]
            if color.w >= 255 {
                UnsafeMutableRawPointer(out + i &* 4).storeBytes(of: pack(color), as: UInt32.self)
            } else {
                blend(out + i &* 4, color, 1)
            }
        }
    } else {
        for i in 0..<count { blend(out + i &* 4, colors[i], c) }
    }
}

/// Rounds four channel values in 0…255 and packs them as RGBA bytes.
@inline(__always) func pack(_ v: SIMD4<Float>) -> UInt32 {
    let bits = unsafeBitCast(v + SIMD4(repeating: 12_582_912), to: SIMD4<UInt32>.self) & 0xFF
    return bits.x | bits.y &<< 8 | bits.z &<< 16 | bits.w &<< 24
}

/// Source-over of one constant premultiplied colour onto runs of pixels: out = s + d·(1 − sₐ/255),
/// rounded to nearest, in 8.8 fixed point with the factor kept to 1/65536. Four pixels go through
/// SIMD lanes at a time (the compiler emits SSE2 for it); a result differs from the float formula only
/// where that lands within 0.01 level of a rounding tie.
struct ConstantSourceOver {
    let opaqueWord: UInt32?
    let keep: UInt16
    /// The colour in 8.8 fixed point plus ½ for rounding, repeated for four pixels.
    let add: SIMD16<UInt16>

    @inline(__always) init(_ color: SIMD4<Float>) {
        opaqueWord = color.w >= 255 ? pack(color) : nil
        keep = UInt16(min(65535, (max(0, 1 - color.w / 255) * 65536).rounded()))
        func fixed(_ v: Float) -> UInt16 { UInt16((min(max(v, 0), 255) * 256).rounded()) &+ 128 }
        let one = SIMD4<UInt16>(fixed(color.x), fixed(color.y), fixed(color.z), fixed(color.w))
        add = SIMD16(lowHalf: SIMD8(lowHalf: one, highHalf: one), highHalf: SIMD8(lowHalf: one, highHalf: one))
    }

    @inline(__always) func apply(to p: UnsafeMutablePointer<UInt8>, count: Int) {
        let raw = UnsafeMutableRawPointer(p)
        if let word = opaqueWord {
            raw.bindMemory(to: UInt32.self, capacity: count).update(repeating: word, count: count)
            return
        }
        let k = SIMD16<UInt32>(repeating: UInt32(keep))
        var i = 0
        while i &+ 4 <= count {
            let d = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<UInt8>.self)
            let d88 = SIMD16<UInt16>(truncatingIfNeeded: d) &<< 8
            let scaled = SIMD16<UInt16>(truncatingIfNeeded: (SIMD16<UInt32>(truncatingIfNeeded: d88) &* k) &>> 16)
            raw.storeBytes(
                of: SIMD16<UInt8>(truncatingIfNeeded: (scaled &+ add) &>> 8), toByteOffset: i &* 4, as: SIMD16<UInt8>.self)
            i &+= 4
        }
        while i < count {
            let d = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<UInt8>.self)
            let d88 = SIMD4<UInt16>(truncatingIfNeeded: d) &<< 8
            let scaled = SIMD4<UInt16>(
                truncatingIfNeeded: (SIMD4<UInt32>(truncatingIfNeeded: d88) &* SIMD4(repeating: UInt32(keep))) &>> 16)
            let a = SIMD4<UInt16>(add[0], add[1], add[2], add[3])
            raw.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: (scaled &+ a) &>> 8), toByteOffset: i &* 4, as: SIMD4<UInt8>.self)
            i &+= 1
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
        // Each cell's alpha, summed exactly as integers (so the result does not depend on the order of
        // the pixels, nor on the band that computes it), then scaled to the mean coverage.
        var sums = [UInt32](repeating: 0, count: gw * gh)
        var any = false
        // Grid column k holds content columns edges[k] ..< edges[k + 1].
        let edges = (0...gw).map { k in max(0, min(w, (gx0 + k) * f - content.x0)) }
        let columns = UnsafeMutablePointer<UInt32>.allocate(capacity: w + 8)
        defer { columns.deallocate() }
        sums.withUnsafeMutableBufferPointer { sums in
            var y = 0
            while y < h {
                // One row of cells: each column's alpha summed over the cell's rows (eight columns at a
                // time), then f columns per cell.
                let gy = cell(content.y0 + y)
                let end = min(h, (gy + 1) * f - content.y0)
                columns.update(repeating: 0, count: w)
                let sumsRaw = UnsafeMutableRawPointer(columns)
                while y < end {
                    let row = UnsafeRawPointer(content.row(content.y0 + y))
                    var x = 0
                    while x &+ 8 <= w {
                        let a = row.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<UInt32>.self) &>> 24
                        let c = sumsRaw.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<UInt32>.self)
                        sumsRaw.storeBytes(of: c &+ a, toByteOffset: x &* 4, as: SIMD8<UInt32>.self)
                        x &+= 8
                    }
                    while x < w {
                        columns[x] &+= row.load(fromByteOffset: x &* 4, as: UInt32.self) &>> 24
                        x &+= 1
                    }
                    y &+= 1
                }
                let g = sums.baseAddress! + (gy - gy0) * gw
                for k in 0..<gw {
                    var acc: UInt32 = 0
                    for x in edges[k]..<edges[k + 1] { acc &+= columns[x] }
                    g[k] = acc
                    if acc != 0 { any = true }
                }
            }
        }
        guard any else { return }
        let scale = 1 / (255 * Float(f * f))
        var grid = sums.map { Float($0) * scale }
        var temp = [Float](repeating: 0, count: gw * gh)
        k.withUnsafeBufferPointer { k in
            grid.withUnsafeMutableBufferPointer { grid in
                temp.withUnsafeMutableBufferPointer { temp in
                    for y in 0..<gh {
                        for x in 0..<gw {
                            var sum: Float = 0
                            for i in max(0, r - x)..<min(k.count, gw - x + r) { sum += k[i] * grid[y * gw + x + i - r] }
                            temp[y * gw + x] = sum
                        }
                    }
                    for y in 0..<gh {
                        for x in 0..<gw {
                            var sum: Float = 0
                            for i in max(0, r - y)..<min(k.count, gh - y + r) { sum += k[i] * temp[(y + i - r) * gw + x] }
                            grid[y * gw + x] = sum
                        }
                    }
                }
            }
        }
        // A device pixel X sits at grid coordinate (X − (f − 1)/2)/f, the centre of its cell's pixels.
        let half = Double(f - 1) / 2, inv = 1 / Double(f)
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

/// A transparent canvas of its own memory, for a group's content, shadow or mask.
struct OffscreenCanvas {
    let canvas: Canvas

    init(x0: Int, y0: Int, width: Int, rows: Int) {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: width * rows * 4)
        p.initialize(repeating: 0, count: width * rows * 4)
        canvas = Canvas(pixels: p, x0: x0, y0: y0, width: width, rows: rows)
    }

    func release() { canvas.pixels.deallocate() }
}
