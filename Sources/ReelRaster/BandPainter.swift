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
        for node in nodes {
            switch node {
            case .shape(let shape):
                fill(shape, into: canvas)
            case .group(let group):
                draw(group, into: canvas)
            }
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
                    g.shade(y: y, x0: canvas.x0 &+ start, x1: canvas.x0 &+ end &- 1, into: shade)
                    blendShaded(out + start &* 4, shade, count: end &- start, c)
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

    func draw(_ group: DrawTree.PreparedGroup, into canvas: Canvas) {
        let margin = group.shadow?.margin ?? 0
        let content = OffscreenCanvas(
            x0: canvas.x0 - margin, y0: canvas.y0 - margin, width: canvas.width + 2 * margin, rows: canvas.rows + 2 * margin)
        defer { content.release() }
        paint(group.content, into: content.canvas)

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
        composite(picture, onto: canvas, factor: group.opacity, clip: group.clip, mask: maskCanvas?.canvas, tint: group.tint)
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
        for y in canvas.y0..<canvas.y1 {
            var c0 = 0, c1 = canvas.width - 1
            if let clip, let (a, b) = clipColumns, let clipRows {
                guard clipRows.contains(y) else { continue }
                scratch.sweep(row: y - canvas.y0, c0: a, c1: b, rule: clip.rule)
                c0 = a
                c1 = b
            }
            let src = source.row(y) + (canvas.x0 - source.x0) * 4
            let dst = canvas.row(y)
            let m = mask.map { $0.row(y) }
            for x in c0...c1 {
                var f = factor
                if clip != nil { f *= scratch.coverage[x - c0] }
                if let m { f *= Float(m[x * 4 + 3]) / 255 }
                let s = src + x * 4
                guard f > 0, s[3] != 0 || s[0] != 0 || s[1] != 0 || s[2] != 0 else { continue }
                var color = SIMD4(Float(s[0]), Float(s[1]), Float(s[2]), Float(s[3]))
                if let tint { color *= tint }
                blend(dst + x * 4, color, f)
            }
        }
    }

    /// The shadow of `content`'s alpha: blurred, offset and tinted, written into `target`.
    func drawShadow(_ shadow: DrawTree.PreparedShadow, of content: Canvas, into target: Canvas) {
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
                for x in target.x0..<target.x1 {
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
