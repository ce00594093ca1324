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
        let cov = scratch.coverage
        for y in rows(shape, canvas) {
            scratch.sweep(row: y - canvas.y0, c0: c0, c1: c1, rule: shape.rule)
            let out = canvas.row(y) + c0 * 4
            switch shape.paint {
            case .solid(let color):
                for i in 0...(c1 - c0) where cov[i] > 0.5 / 255 {
                    blend(out + i * 4, color, cov[i])
                }
            case .gradient(let g):
                g.shade(y: y, x0: canvas.x0 + c0, x1: canvas.x0 + c1, into: shadeRow)
                for i in 0...(c1 - c0) where cov[i] > 0.5 / 255 {
                    blend(out + i * 4, shadeRow[i], cov[i])
                }
            case .image(let image):
                image.shade(y: y, x0: canvas.x0 + c0, x1: canvas.x0 + c1, into: shadeRow)
                for i in 0...(c1 - c0) where cov[i] > 0.5 / 255 {
                    blend(out + i * 4, shadeRow[i], cov[i])
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
        composite(picture, onto: canvas, factor: group.opacity, clip: group.clip, mask: maskCanvas?.canvas)
    }

    /// Source-over of `source` (same or larger rectangle) onto `canvas`, scaled by `factor`, by the clip
    /// shape's coverage and by the mask's alpha.
    func composite(_ source: Canvas, onto canvas: Canvas, factor: Float, clip: PreparedShape?, mask: Canvas?) {
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
                blend(dst + x * 4, SIMD4(Float(s[0]), Float(s[1]), Float(s[2]), Float(s[3])), f)
            }
        }
    }

    /// The shadow of `content`'s alpha: blurred, offset and tinted, written into `target`.
    func drawShadow(_ shadow: DrawTree.PreparedShadow, of content: Canvas, into target: Canvas) {
        let w = content.width, h = content.rows
        let k = shadow.kernel
        let r = k.count / 2
        var alpha = [Float](repeating: 0, count: w * h)
        var temp = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            let row = content.pixels + y * w * 4
            for x in 0..<w { alpha[y * w + x] = Float(row[x * 4 + 3]) / 255 }
        }
        k.withUnsafeBufferPointer { k in
            // Horizontal, then vertical; outside the content canvas is transparent.
            for y in 0..<h {
                for x in 0..<w {
                    var sum: Float = 0
                    for i in max(0, r - x)..<min(k.count, w - x + r) { sum += k[i] * alpha[y * w + x + i - r] }
                    temp[y * w + x] = sum
                }
            }
            for y in 0..<h {
                for x in 0..<w {
                    var sum: Float = 0
                    for i in max(0, r - y)..<min(k.count, h - y + r) { sum += k[i] * temp[(y + i - r) * w + x] }
                    alpha[y * w + x] = sum
                }
            }
        }
        // Sample the blurred alpha at (p − offset), bilinearly.
        for y in target.y0..<target.y1 {
            let out = target.row(y)
            for x in target.x0..<target.x1 {
                let u = Double(x) - shadow.offset.x - Double(content.x0)
                let v = Double(y) - shadow.offset.y - Double(content.y0)
                let fu = u.rounded(.down), fv = v.rounded(.down)
                let iu = Int(fu), iv = Int(fv)
                let tu = Float(u - fu), tv = Float(v - fv)
                func at(_ a: Int, _ b: Int) -> Float { a >= 0 && a < w && b >= 0 && b < h ? alpha[b * w + a] : 0 }
                let a =
                    (at(iu, iv) * (1 - tu) + at(iu + 1, iv) * tu) * (1 - tv)
                    + (at(iu, iv + 1) * (1 - tu) + at(iu + 1, iv + 1) * tu) * tv
                guard a > 0.5 / 255 else { continue }
                blend(out + (x - target.x0) * 4, shadow.color, a)
            }
        }
    }
}

/// Premultiplied source-over of `color` (0…255) scaled by `coverage` onto an 8-bit pixel.
@inline(__always) func blend(_ p: UnsafeMutablePointer<UInt8>, _ color: SIMD4<Float>, _ coverage: Float) {
    let s = color * coverage
    let keep = 1 - s.w / 255
    p[0] = PremultipliedColor.byte(s.x + Float(p[0]) * keep)
    p[1] = PremultipliedColor.byte(s.y + Float(p[1]) * keep)
    p[2] = PremultipliedColor.byte(s.z + Float(p[2]) * keep)
    p[3] = PremultipliedColor.byte(s.w + Float(p[3]) * keep)
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
