/// The painter: shapes filled and groups composited (opacity, clip, mask, tint, filters) into one canvas.
internal import CRasterKernels
import Foundation
import ReelGeometry

/// Draws the tree into one canvas (a band of the frame, or an offscreen group). One per worker thread;
/// its memory (`PainterMemory`) is reused for every band that worker draws, and kept for the next drawing.
struct BandPainter {
    let frameWidth: Int
    let scratch: CoverageScratch
    /// One row of shaded colours (gradients, images).
    let shadeRow: UnsafeMutablePointer<SIMD4<Float>>
    let offscreen: OffscreenStack
    /// The pixel kernels of the rasterizer's variant (`KernelVariant`).
    let kernels: reel_raster_kernels

    private init(frameWidth: Int, memory: PainterMemory, kernels: reel_raster_kernels) {
        self.frameWidth = frameWidth
        self.kernels = kernels
        scratch = memory.scratch
        shadeRow = memory.shadeRow
        offscreen = memory.offscreen
    }

    /// A painter for bands of up to `maxRows` rows of a tree whose nodes reach at most `reach` rows and
    /// columns around a canvas, alive for `body` only: its memory, from `pool`, goes back to it when
    /// `body` returns.
    static func with<R>(
        frameWidth: Int, reach: Int, maxRows: Int, kernels: reel_raster_kernels, pool: PainterPool,
        _ body: (BandPainter) -> R
    ) -> R {
        let memory = pool.take(width: frameWidth + 2 * reach, rows: maxRows + 2 * reach)
        defer { pool.give(memory) }
        return withExtendedLifetime(memory) { body(BandPainter(frameWidth: frameWidth, memory: memory, kernels: kernels)) }
    }

    /// A painter of its own memory for `width` × `rows` pixels, alive for `body` only: for a picture
    /// larger than the band painters' memory holds (an SVG filter's whole region).
    func withPainter<R>(width: Int, rows: Int, _ body: (BandPainter) -> R) -> R {
        let memory = PainterMemory(width: width, rows: rows)
        return withExtendedLifetime(memory) { body(BandPainter(frameWidth: frameWidth, memory: memory, kernels: kernels)) }
    }

    func paint(_ nodes: [DrawTree.Node], into canvas: Canvas) {
        for node in nodes { paint(node, into: canvas) }
    }

    @inline(__always) func paint(_ node: DrawTree.Node, into canvas: Canvas) {
        switch node {
        case .shape(let shape):
            fill(shape.takeUnretainedValue(), into: canvas)
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
            fill(shape, color, into: canvas, columns: c0, c1)
        case .gradient(let g):
            if let axial = AxialLanes(g) {
                fill(shape, axial, g, into: canvas, columns: c0, c1)
                return
            }
            for y in rows(shape, canvas) {
                let out = canvas.row(y)
                scratch.spans(row: y - canvas.y0, c0: c0, c1: c1, rule: shape.rule) { start, end, c in
                    if c >= 1 && g.opaque {
                        g.shadeOpaque(y: y, x0: canvas.x0 &+ start, x1: canvas.x0 &+ end &- 1, into: out + start &* 4)
                    } else {
                        g.rampColors(y: y, x0: canvas.x0 &+ start, x1: canvas.x0 &+ end &- 1, into: shade)
                        blendShaded(
                            out + start &* 4, shade, count: end &- start, c,
                            dither: DitherPlace(row: (y & 7) &* 8, x0: canvas.x0 &+ start))
                    }
                }
            }
        case .image(let image):
            fill(shape, image, into: canvas, columns: c0, c1)
        }
    }

    /// A solid colour's rows, in one call to the C kernels: the walk along each row and the pixels'
    /// source-over together (`reel_solid_rows`), where the walk in Swift had called a closure for each
    /// run and each four edge pixels (butterfly: 29 % of its instructions in that walk).
    private func fill(
        _ shape: PreparedShape, _ color: SIMD4<Float>, into canvas: Canvas, columns c0: Int, _ c1: Int
    ) {
        let rows = rows(shape, canvas)
        guard !rows.isEmpty else { return }
        kernels.solid_rows(
            Self.solidRows(
                out: canvas.row(rows.lowerBound), outStride: canvas.stride &* 4, scratch: scratch,
                row: rows.lowerBound &- canvas.y0, rows: rows.count, columns: c0, c1, color: color, rule: shape.rule))
    }

    /// Where a row kernel draws `rows` rows of `scratch` from `row` on (canvas-local): into `out` (the
    /// first row's column 0), summing the cells of columns c0 through c1.
    static func cellRows(
        out: UnsafeMutablePointer<UInt8>, outStride: Int, scratch: CoverageScratch, row: Int, rows: Int, columns c0: Int,
        _ c1: Int
    ) -> reel_cell_rows {
        let cellStride = scratch.capacityWidth &+ 2
        return reel_cell_rows(
            out: out, out_stride: outStride, cells: scratch.cells + row &* cellStride, cell_stride: cellStride,
            touched: scratch.touched + row &* scratch.wordsPerRow, words_per_row: scratch.wordsPerRow, rows: rows, c0: c0,
            c1: c1)
    }

    /// The C kernels' arguments for `rows` rows of `scratch` from `row` on (canvas-local), drawn into
    /// `out` (the first row's column 0).
    static func solidRows(
        out: UnsafeMutablePointer<UInt8>, outStride: Int, scratch: CoverageScratch, row: Int, rows: Int, columns c0: Int,
        _ c1: Int, color: SIMD4<Float>, rule: FillRule
    ) -> reel_solid_rows {
        let run = ConstantSourceOver(color)
        return reel_solid_rows(
            span: cellRows(out: out, outStride: outStride, scratch: scratch, row: row, rows: rows, columns: c0, c1),
            color: reel_rgba_f(r: color.x, g: color.y, b: color.z, a: color.w), minimum: 0.5 / 255,
            even_odd: rule == .evenOdd ? 1 : 0, opaque: run.opaqueWord == nil ? 0 : 1, word: run.opaqueWord ?? 0,
            keep: run.keep, add: run.addWord)
    }

    /// An axial gradient with padded ends. Under a non-zero fill its rows go to the C kernels in one
    /// call (`reel_axial_rows`): the walk along each row, cut as `CoverageScratch.quads` cuts it, and
    /// each piece's pixels, where the walk in Swift had called a closure for each run and each four
    /// edge pixels and the kernels for each (rects_linear: a third of its instructions in that walk and
    /// the lanes inlined in it, 10 % fewer in all with the kernel). An even-odd fill's rows, and a row
    /// whose parameters are not finite, are walked here (`runs`).
    private func fill(
        _ shape: PreparedShape, _ axial: AxialLanes, _ g: GradientShader, into canvas: Canvas, columns c0: Int, _ c1: Int
    ) {
        let rows = rows(shape, canvas)
        guard !rows.isEmpty else { return }
        g.ramp87.withUnsafeBytes { ramp87 in
            g.ramp.withUnsafeBufferPointer { ramp in
                g.packed.withUnsafeBufferPointer { packed in
                    let ramp87 = ramp87.baseAddress!, ramp = ramp.baseAddress!
                    let table = g.packed.isEmpty ? nil : packed.baseAddress
                    guard shape.rule == .nonZero else {
                        for y in rows {
                            walk(
                                row: y, shape, axial, g, ramp87: ramp87, ramp: ramp, table: table, into: canvas, columns: c0, c1)
                        }
                        return
                    }
                    var y = rows.lowerBound
                    while y < rows.upperBound {
                        y &+= kernels.axial_rows(
                            Self.axialRows(
                                out: canvas.row(y), outStride: canvas.stride &* 4, scratch: scratch, row: y &- canvas.y0,
                                rows: rows.upperBound &- y, y: y, x0: canvas.x0, width: canvas.width, columns: c0, c1,
                                axial: axial, ramp87: ramp87, ramp: ramp, packed: table))
                        guard y < rows.upperBound else { break }
                        // A row the kernels stopped before: its parameters are not finite.
                        walk(row: y, shape, axial, g, ramp87: ramp87, ramp: ramp, table: table, into: canvas, columns: c0, c1)
                        y &+= 1
                    }
                }
            }
        }
    }

    /// The C kernels' arguments for the axial gradient's `rows` rows of `scratch` from `row` on
    /// (canvas-local; `y` absolute), drawn into `out` (the first row's column 0) of a canvas whose
    /// column 0 is `x0` and width `width`.
    static func axialRows(
        out: UnsafeMutablePointer<UInt8>, outStride: Int, scratch: CoverageScratch, row: Int, rows: Int, y: Int, x0: Int,
        width: Int, columns c0: Int, _ c1: Int, axial: AxialLanes, ramp87: UnsafeRawPointer,
        ramp: UnsafePointer<SIMD4<Float>>, packed: UnsafePointer<UInt32>?
    ) -> reel_axial_rows {
        let inverse = axial.inverse
        return reel_axial_rows(
            span: cellRows(out: out, outStride: outStride, scratch: scratch, row: row, rows: rows, columns: c0, c1), y: y, x0: x0,
            width: width, a: inverse.a, b: inverse.b, c: inverse.c, d: inverse.d, tx: inverse.tx,
            ty: inverse.ty, start_x: axial.startX, start_y: axial.startY, ux: axial.ux, uy: axial.uy,
            ramp87: ramp87.assumingMemoryBound(to: Int16.self),
            dither: UnsafeRawPointer(axial.dither).assumingMemoryBound(to: Int16.self),
            ramp: UnsafeRawPointer(ramp).assumingMemoryBound(to: Float.self), dither_offsets: Fixed87.ditherOffsetTable,
            packed: packed, ramp_size: Int32(GradientShader.rampSize), minimum: 0.5 / 255)
    }

    /// An image's rows. Where the lanes take every span (`imageRows`), in one call to the C kernels
    /// (`reel_image_rows`): the walk along each row and each piece's pixels, where the walk in Swift
    /// (`imageWalk`) called a closure for each run and stretch and set up each span in Swift
    /// (butterfly_image: 29 % of its drawing in that walk).
    private func fill(_ shape: PreparedShape, _ image: ImageShader, into canvas: Canvas, columns c0: Int, _ c1: Int) {
        let rows = rows(shape, canvas)
        guard !rows.isEmpty else { return }
        image.image.pixels.withUnsafeBytes { texels in
            let texels = texels.baseAddress!
            if let arguments = Self.imageRows(
                image, texels: texels, out: canvas.row(rows.lowerBound), outStride: canvas.stride &* 4, scratch: scratch,
                row: rows.lowerBound &- canvas.y0, rows: rows.count, y: rows.lowerBound, x0: canvas.x0, columns: c0, c1,
                rule: shape.rule)
            {
                kernels.image_rows(arguments)
                return
            }
            let lanes = ImageLanes.fits(image.image) ? ImageLanes(shader: image) : nil
            for y in rows {
                Self.imageWalk(
                    image, lanes, texels: texels, row: y &- canvas.y0, y: y, x0: canvas.x0, out: canvas.row(y), scratch: scratch,
                    shade: shadeRow, columns: c0, c1, rule: shape.rule, kernels: kernels)
            }
        }
    }

    /// The C kernels' arguments for the image's `rows` rows of `scratch` from `row` on (canvas-local;
    /// `y` absolute), drawn into `out` (the first row's column 0) of a canvas whose column 0 is `x0`; or
    /// nil where the lanes would decline a span (`ImageLanes`): an image they do not take, the identity
    /// (on whole pixels, `ImageShader.shade`'s exact path), or samples 16,383 texels or more from the
    /// image's corner at a corner of the pixel centres of columns c0…c1 and those rows (an affine map's
    /// extremes over a rectangle are at its corners; the margin of a texel covers the spans' rounding).
    static func imageRows(
        _ image: ImageShader, texels: UnsafeRawPointer, out: UnsafeMutablePointer<UInt8>, outStride: Int,
        scratch: CoverageScratch, row: Int, rows: Int, y: Int, x0: Int, columns c0: Int, _ c1: Int, rule: FillRule
    ) -> reel_image_rows? {
        let m = image.inverse
        guard ImageLanes.fits(image.image), !(m.a == 1 && m.b == 0 && m.c == 0 && m.d == 1) else { return nil }
        let limit = 16_383.0
        guard abs(m.a) < limit && abs(m.b) < limit else { return nil }
        @inline(__always) func within(_ px: Double, _ py: Double) -> Bool {
            let u = m.a * px + m.c * py + m.tx - 0.5, v = m.b * px + m.d * py + m.ty - 0.5
            return abs(u) < limit && abs(v) < limit
        }
        let left = Double(x0 &+ c0) + 0.5, right = Double(x0 &+ c1) + 0.5
        let top = Double(y) + 0.5, bottom = Double(y &+ rows &- 1) + 0.5
        guard within(left, top) && within(right, top) && within(left, bottom) && within(right, bottom) else { return nil }
        return reel_image_rows(
            span: cellRows(out: out, outStride: outStride, scratch: scratch, row: row, rows: rows, columns: c0, c1), y: y,
            x0: x0, a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx, ty: m.ty, texels: texels.assumingMemoryBound(to: UInt8.self),
            width: image.image.width, height: image.image.height, opacity: image.opacity, minimum: 0.5 / 255,
            even_odd: rule == .evenOdd ? 1 : 0, coverage: scratch.coverage)
    }

    /// One row of an image walked in Swift (`runs`; canvas-local `row`, absolute `y`, `out` its column
    /// 0): each stretch of edge pixels and each run of four or more through the lanes where they take
    /// it, the rest sampled in floats (`ImageShader.shade`) and blended.
    static func imageWalk(
        _ image: ImageShader, _ lanes: ImageLanes?, texels: UnsafeRawPointer, row: Int, y: Int, x0: Int,
        out: UnsafeMutablePointer<UInt8>, scratch: CoverageScratch, shade: UnsafeMutablePointer<SIMD4<Float>>,
        columns c0: Int, _ c1: Int, rule: FillRule, kernels: reel_raster_kernels
    ) {
        scratch.runs(row: row, c0: c0, c1: c1, rule: rule) { start, end in
            let count = end &- start
            if let lanes,
                lanes.composite(
                    texels: texels, y: y, x0: x0 &+ start, count: count, into: out + start &* 4, coverages: scratch.coverage,
                    kernels: kernels)
            {
                return
            }
            image.shade(y: y, x0: x0 &+ start, x1: x0 &+ end &- 1, into: shade)
            blendShaded(out + start &* 4, shade, count: count, coverages: scratch.coverage)
        } constant: { start, end, c in
            if c >= 1, image.copyOpaque(texels: texels, y: y, x: x0 &+ start, count: end &- start, into: out + start &* 4) {
                return
            }
            if let lanes,
                lanes.composite(
                    texels: texels, y: y, x0: x0 &+ start, count: end &- start, into: out + start &* 4, coverage: c,
                    kernels: kernels)
            {
                return
            }
            image.shade(y: y, x0: x0 &+ start, x1: x0 &+ end &- 1, into: shade)
            blendShaded(out + start &* 4, shade, count: end &- start, c)
        }
    }

    /// One row of an axial gradient walked in Swift (`runs`): an even-odd fill's, or a row whose
    /// parameters are not finite (the general walk's colours).
    private func walk(
        row y: Int, _ shape: PreparedShape, _ axial: AxialLanes, _ g: GradientShader, ramp87: UnsafeRawPointer,
        ramp: UnsafePointer<SIMD4<Float>>, table: UnsafePointer<UInt32>?, into canvas: Canvas, columns c0: Int, _ c1: Int
    ) {
        let out = canvas.row(y)
        let ditherRow = (y & 7) &* 8
        let parameters = axial.row(y: y, x0: canvas.x0, width: canvas.width)
        scratch.runs(row: y - canvas.y0, c0: c0, c1: c1, rule: shape.rule) { start, end in
            let x = canvas.x0 &+ start, count = end &- start
            guard let (t0, dt0) = parameters else {
                g.rampColors(y: y, x0: x, x1: x &+ count &- 1, into: shadeRow)
                blendShaded(
                    out + start &* 4, shadeRow, count: count, coverages: scratch.coverage,
                    dither: DitherPlace(row: ditherRow, x0: x))
                return
            }
            axial.composite(
                ramp: ramp87, t: t0 + Double(start) * dt0, dt: dt0, x0: x, ditherRow: ditherRow, count: count,
                into: out + start &* 4, coverages: scratch.coverage, kernels: kernels)
        } constant: { start, end, c in
            let x = canvas.x0 &+ start, count = end &- start
            guard let (t0, dt0) = parameters else {
                g.rampColors(y: y, x0: x, x1: x &+ count &- 1, into: shadeRow)
                blendShaded(out + start &* 4, shadeRow, count: count, c, dither: DitherPlace(row: ditherRow, x0: x))
                return
            }
            let t = Float(t0 + Double(start) * dt0), dt = Float(dt0)
            if c >= 1, let table {
                axial.store(packed: table, t: t, dt: dt, x0: x, ditherRow: ditherRow, count: count, into: out + start &* 4)
            } else if count < 4 {
                axial.compositeFew(
                    ramp: ramp, t: t, dt: dt, x0: x, ditherRow: ditherRow, count: count, into: out + start &* 4, coverage: c)
            } else {
                axial.composite(
                    ramp: ramp87, t: t0 + Double(start) * dt0, dt: dt0, x0: x, ditherRow: ditherRow, count: count,
                    into: out + start &* 4, coverage: c, kernels: kernels)
            }
        }
    }

    func draw(_ group: DrawTree.PreparedGroup, into band: Canvas) {
        // Only the part of the band the group can paint.
        let b = group.bounds
        let x0 = max(band.x0, b.x0), x1 = min(band.x1, b.x1), y0 = max(band.y0, b.y0), y1 = min(band.y1, b.y1)
        guard x0 < x1, y0 < y1 else { return }
        let canvas = band.view(x0: x0, y0: y0, x1: x1, y1: y1)
        if let backdrop = group.backdrop {
            drawBackdrop(backdrop, opacity: group.opacity, into: canvas)
            if group.content.isEmpty { return }
        }
        // The shadow reads content around the canvas, and the filters before it read around that.
        let margin = (group.shadow?.margin ?? 0) + group.filterMargin
        offscreen.with(
            x0: canvas.x0 - margin, y0: canvas.y0 - margin, width: canvas.width + 2 * margin, rows: canvas.rows + 2 * margin
        ) { content in
            if let evaluated = group.evaluated {
                copy(filteredPicture(of: group, evaluated), at: evaluated.area, into: content)
            } else {
                paint(group.content, into: content)
            }
            if !group.filters.isEmpty && group.evaluated == nil {
                // What the shadow and the compositing read: the canvas and the shadow's margin.
                let m = group.shadow?.margin ?? 0
                applyFilters(
                    group.filters, to: content, within: group.bounds,
                    needed: (canvas.x0 - m, canvas.y0 - m, canvas.x1 + m, canvas.y1 + m))
            }

            if let shadow = group.shadow, group.opacity >= 1, group.clip == nil, group.mask == nil, group.tint == nil,
                group.blendMode == .normal
            {
                // Source-over is associative: (content over shadow) over the band is content over (shadow over
                // the band). Drawn so, straight into the band, the shadowed picture needs no canvas of its own
                // nor a pass to composite it (the same colours within rounding: ±1 level where both overlap).
                drawShadow(shadow, of: content, into: canvas)
                composite(content, onto: canvas, factor: 1, clip: nil, mask: nil)
                return
            }
            withPicture(of: group, content: content, in: canvas) { picture in
                withMask(of: group, in: canvas) { mask in
                    composite(
                        picture, onto: band, factor: group.opacity, clip: group.clip, mask: mask, tint: group.tint,
                        mode: group.blendMode)
                }
            }
        }
    }

    /// The picture to composite, in the canvas's rectangle: the content, over its shadow (in a canvas of
    /// its own) if the group has one.
    private func withPicture(
        of group: DrawTree.PreparedGroup, content: Canvas, in canvas: Canvas, _ body: (Canvas) -> Void
    ) {
        guard let shadow = group.shadow else { return body(content) }
        offscreen.with(x0: canvas.x0, y0: canvas.y0, width: canvas.width, rows: canvas.rows) { shadowed in
            drawShadow(shadow, of: content, into: shadowed)
            composite(content, onto: shadowed, factor: 1, clip: nil, mask: nil)
            body(shadowed)
        }
    }

    /// The group's mask painted in the canvas's rectangle, or nil when it has none.
    private func withMask(of group: DrawTree.PreparedGroup, in canvas: Canvas, _ body: (Canvas?) -> Void) {
        guard let mask = group.mask else { return body(nil) }
        offscreen.with(x0: canvas.x0, y0: canvas.y0, width: canvas.width, rows: canvas.rows) { m in
            paint(mask, into: m)
            if group.maskByLuminance { Self.luminanceToAlpha(m) }
            if group.maskInverted { Self.invertAlpha(m) }
            body(m)
        }
    }

    /// A luminance mask as an alpha mask: each pixel's alpha becomes the luminance of its premultiplied
    /// colour, which is luminance × alpha of the colour itself (SVG masking's coefficients, applied to
    /// sRGB values as resvg and browsers do for the default `color-interpolation`).
    static func luminanceToAlpha(_ m: Canvas) {
        for y in m.y0..<m.y1 {
            let row = m.row(y)
            for x in 0..<m.width {
                let p = row + x * 4
                guard p[3] != 0 else { continue }
                let l = 0.2125 * Float(p[0]) + 0.7154 * Float(p[1]) + 0.0721 * Float(p[2])
                p[3] = UInt8(min(max(l.rounded(), 0), 255))
            }
        }
    }

    /// An inverted mask: each pixel's alpha becomes what it leaves, 255 − alpha.
    static func invertAlpha(_ m: Canvas) {
        for y in m.y0..<m.y1 {
            let row = m.row(y)
            for x in 0..<m.width { row[x * 4 + 3] = 255 &- row[x * 4 + 3] }
        }
    }

    /// Source-over of the pixels `columns` of one row of `src` onto `dst`, scaled by `f` (> 0): a word
    /// per pixel, transparent ones skipped, opaque ones copied at full strength (what `blend` computes),
    /// in the C kernels' `composite`, whose wide lanes gave a blurred 1080p clip a tenth of its drawing.
    @inline(__always) func compositeWords(
        _ src: UnsafeMutableRawPointer, _ dst: UnsafeMutableRawPointer, _ columns: Range<Int>, _ f: Float
    ) {
        guard !columns.isEmpty else { return }
        kernels.composite(
            dst.assumingMemoryBound(to: UInt8.self) + columns.lowerBound &* 4,
            src.assumingMemoryBound(to: UInt8.self) + columns.lowerBound &* 4, columns.count, f)
    }

    /// Source-over of `source` (same or larger rectangle) onto `canvas`, scaled by `factor`, by the clip
    /// shape's coverage and by the mask's alpha.
    func composite(
        _ source: Canvas, onto canvas: Canvas, factor: Float, clip: PreparedShape?, mask: Canvas?, tint: SIMD4<Float>? = nil,
        mode: BlendMode = .normal
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
        if let clip, let (ca, cb) = clipColumns, let clipRows, mask == nil && tint == nil && mode == .normal {
            // A clipped group (masksToBounds): runs of constant clip coverage, the inside of the clip
            // one run — the same values as the general loop below, without a coverage row.
            // Rows of the source that the clip covers; none when the clip lies wholly above or below it.
            let top = max(sourceRows.lowerBound, clipRows.lowerBound)
            for y in top..<max(top, min(sourceRows.upperBound, clipRows.upperBound)) {
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
        if clip == nil && mask == nil && tint == nil && mode == .normal {
            // The common case (a group with opacity, a shadow under its content): a word per pixel,
            // transparent ones skipped, opaque ones copied at full opacity — the same values as below.
            for y in sourceRows {
                let src = UnsafeMutableRawPointer(source.row(y) + (canvas.x0 - source.x0) * 4)
                let dst = UnsafeMutableRawPointer(canvas.row(y))
                if factor > 0 { compositeWords(src, dst, a..<b, factor) }
            }
            return
        }
        for y in sourceRows {
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
                if mode != .normal {
                    var color = SIMD4(Float(s[0]), Float(s[1]), Float(s[2]), Float(s[3]))
                    if let tint { color *= tint }
                    blend(dst + x * 4, color, f, mode: mode)
                    continue
                }
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
}
