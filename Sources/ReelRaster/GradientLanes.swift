/// The axial gradient's span kernel: parameters, ramp look-ups, dither and source-over, four pixels at a
/// time in SIMD lanes (in the C kernels for spans, in Swift for an edge's four pixels).
internal import CRasterKernels
import ReelGeometry

/// An axial gradient with padded ends, as one frame draws it: its parameter is affine in the pixel, so
/// a span's ramp indices step in 16.16 fixed point (in float lanes where the span's parameters reach
/// beyond ±16), four pixels at a time, instead of the general walk's per-pixel doubles. A non-zero
/// fill's edges come four pixels at a time with their coverages (`CoverageScratch.quads`), each
/// four's index stepped from its own start (an even-odd fill's, a stretch at a time: `runs`); runs of
/// one to three pixels at one coverage go pixel by pixel from the float ramp.
///
/// Not bit for bit the general walk: the stepped index drifts from the exact one along a span (by up to
/// count/131072 of an entry in fixed point; in the float lanes, used where t reaches beyond ±16, by up to
/// a couple of entries over 2,000 pixels), so a pixel may take a neighbouring entry (each ≤ 1/1023 of the
/// gradient's colour range: under half a level in all), and
/// the 16-bit compositing rounds differently (`Fixed87`). Measured on the 13 examples: 0.005–0.33 % of
/// the pixels of the four with axial gradients differ from the general walk's, by one level.
struct AxialLanes {
    let startX: Double
    let startY: Double
    /// The unit vector along the axis over its length (parameter per unit of gradient space).
    let ux: Double
    let uy: Double
    let inverse: Transform2D
    /// `Fixed87.ditherTable`, read once per shape and canvas: through the array's lazy global, every
    /// span paid its once-check and bounds checks (3.6 % of butterfly_linear's instructions).
    let dither = Fixed87.ditherTable

    init?(_ g: GradientShader) {
        guard case .axial(let s, let e) = g.kind, g.spread == .pad, g.ramp87.count == g.ramp.count else { return nil }
        let dx = e.x - s.x, dy = e.y - s.y
        let len2 = dx * dx + dy * dy
        guard len2 > 0, len2.isFinite else { return nil }
        startX = s.x
        startY = s.y
        ux = dx / len2
        uy = dy / len2
        inverse = g.inverse
    }

    /// The parameter at the centre of column `x0`'s pixel of row y and its step to the next pixel, for
    /// columns x0 ..< x0 + width; nil where the parameters there are not finite floats (a degenerate
    /// transform), for the general walk to handle. A span's first parameter is `t + Double(start) · dt`.
    @inline(__always) func row(y: Int, x0: Int, width: Int) -> (t: Double, dt: Double)? {
        let px = Double(x0) + 0.5, py = Double(y) + 0.5
        let gx = inverse.a * px + inverse.c * py + inverse.tx
        let gy = inverse.b * px + inverse.d * py + inverse.ty
        let t = (gx - startX) * ux + (gy - startY) * uy
        let dt = inverse.a * ux + inverse.b * uy
        guard t.magnitude < 1e30, (t + Double(width) * dt).magnitude < 1e30 else { return nil }
        return (t, dt)
    }

    /// Ramp indices of four parameters: each clamped to 0…1 (integer operations on the floats' bits,
    /// `Fixed87.clamped`), scaled to 0…1023 and rounded to nearest by adding 1.5·2²³, which leaves the
    /// integer in the low mantissa bits.
    @inline(__always) static func indices(_ t: SIMD4<Float>) -> SIMD4<UInt32> {
        let one = SIMD4<Int32>(repeating: 0x3F80_0000)
        let clamped = unsafeBitCast(Fixed87.clamped(unsafeBitCast(t, to: SIMD4<Int32>.self), to: one), to: SIMD4<Float>.self)
        let scaled = clamped * Float(GradientShader.rampSize - 1) + 12_582_912
        return unsafeBitCast(scaled, to: SIMD4<UInt32>.self) & UInt32(GradientShader.rampSize - 1)
    }

    /// Source-over of the gradient over pixels x0 ..< x0 + count of row y (count ≥ 1), each at its own
    /// coverage (`coverages[0 ..< count]`; see `CoverageScratch.runs`): the pixels where edges cross a
    /// row, through the C kernels' lanes.
    @inline(__always) func composite(
        ramp: UnsafeRawPointer, t: Double, dt: Double, x0: Int, ditherRow: Int, count: Int,
        into out: UnsafeMutablePointer<UInt8>, coverages: UnsafePointer<Float>, kernels: reel_raster_kernels
    ) {
        kernels.axial(
            out,
            span(
                ramp: ramp, t: t, dt: dt, x0: x0, ditherRow: ditherRow, count: count, coverage: 0, coverages: coverages,
                partial: true))
    }

    /// Source-over of the gradient over pixels x0 ..< x0 + count of row y (count 1…4), each at its own
    /// coverage (the lanes of `coverages`): four pixels where an edge crosses a row
    /// (`CoverageScratch.quads`).
    @inline(__always) func composite(
        ramp: UnsafeRawPointer, t: Double, dt: Double, x0: Int, ditherRow: Int, count: Int,
        into out: UnsafeMutablePointer<UInt8>, coverages: SIMD4<Float>
    ) {
        let spread = Fixed87.spread(coverages)
        composite(ramp: ramp, t: t, dt: dt, x0: x0, ditherRow: ditherRow, count: count, into: out, partial: true) { _ in spread }
    }

    /// Source-over of the gradient at coverage `c` onto pixels x0 ..< x0 + count of row y (`out` is the
    /// first; count ≥ 4), dithered on the colour channels, from the ramp in 8.7 fixed point
    /// (`GradientShader.ramp87`, entries from `Fixed87.fixed`), through the C kernels' lanes. The span's
    /// first parameter is t, its step dt.
    @inline(__always) func composite(
        ramp: UnsafeRawPointer, t: Double, dt: Double, x0: Int, ditherRow: Int, count: Int,
        into out: UnsafeMutablePointer<UInt8>, coverage c: Float, kernels: reel_raster_kernels
    ) {
        // Coverage in 0.16 fixed point (used only when below 1).
        let c16 = UInt16(min(c * 65536 + 0.5, 65535))
        if count < Self.kernelSpan {
            let lanes = SIMD16<UInt16>(repeating: c16)
            composite(ramp: ramp, t: t, dt: dt, x0: x0, ditherRow: ditherRow, count: count, into: out, partial: c < 1) { _ in
                lanes
            }
            return
        }
        kernels.axial(
            out,
            span(
                ramp: ramp, t: t, dt: dt, x0: x0, ditherRow: ditherRow, count: count, coverage: c16, coverages: nil,
                partial: c < 1))
    }

    /// Spans of at least this many pixels go to the C kernels, shorter ones through the Swift lanes (the
    /// same arithmetic, the same bytes): for a few pixels the call and the kernel's set-up cost more than
    /// its lanes gain. (Measured, one thread, alternating with the Swift lanes alone: the gradient rows
    /// within ±3 %; the gradient kernel is gather-bound, 16 bytes an entry, in every variant.)
    static let kernelSpan = 8

    /// A span for the C kernels (`reel_axial_span`): its ramp indices + ½ in 16.16 fixed point where
    /// the parameters stay within ±16, its parameters as floats (stepped in four lanes) beyond, as
    /// `composite(ramp:t:dt:x0:ditherRow:count:into:partial:_:)` steps them.
    @inline(__always) private func span(
        ramp: UnsafeRawPointer, t: Double, dt: Double, x0: Int, ditherRow: Int, count: Int, coverage: UInt16,
        coverages: UnsafePointer<Float>?, partial: Bool
    ) -> reel_axial_span {
        let end = t + Double(count) * dt
        let fixed = t.magnitude < 16 && end.magnitude < 16
        let scale = Double(GradientShader.rampSize - 1) * 65536
        return reel_axial_span(
            ramp: ramp.assumingMemoryBound(to: Int16.self), dither: UnsafeRawPointer(dither).assumingMemoryBound(to: Int16.self),
            coverages: coverages, count: count,
            x0: x0, dither_row: ditherRow, first: fixed ? Fixed87.nearestInt32(t * scale + 32768) : 0,
            step: fixed ? Fixed87.nearestInt32(dt * scale) : 0, t: Float(t), dt: Float(dt), fixed_point: fixed ? 1 : 0,
            ramp_size: Int32(GradientShader.rampSize), coverage: coverage, partial: partial ? 1 : 0)
    }

    /// The parameters' lanes for `lanes`: the span's ramp indices stepped in 16.16 fixed point where
    /// they stay within ±16, in float lanes beyond.
    @inline(__always) private func composite(
        ramp: UnsafeRawPointer, t: Double, dt: Double, x0: Int, ditherRow: Int, count: Int,
        into out: UnsafeMutablePointer<UInt8>, partial: Bool, _ coverage: (Int) -> SIMD16<UInt16>
    ) {
        let end = t + Double(count) * dt
        // `magnitude`, not `abs`: in this function the compiler left `abs` a call, and every vector
        // register live across it was stored and reloaded (rects_linear: 0.8 % of its instructions in
        // `abs` alone). Both bounds keep the 16.16 values below 2³¹ (|dt| < 32, so |dt · scale| < 2³¹
        // too), as `nearestInt32` needs.
        if t.magnitude < 16, end.magnitude < 16 {
            // Ramp index + ½ in 16.16 fixed point, stepped in general registers where no index needs
            // clamping (below) and in integer lanes otherwise: a short chain from one step's indices to
            // its loads, which is what the float lanes' chain cost.
            let scale = Double(GradientShader.rampSize - 1) * 65536
            let first = Fixed87.nearestInt32(t * scale + 32768), step = Fixed87.nearestInt32(dt * scale)
            // The lanes' last values (count rounded up to four) within the ramp: none needs clamping,
            // as the steps are affine.
            let last = Int64(first) + Int64(step) * Int64((count &+ 3) & ~3 &- 1)
            let top = Int64(GradientShader.rampSize) << 16
            if first >= 0, Int64(first) < top, last >= 0, last < top {
                // Stepped in general registers, where the gathers' loads take them: from vector lanes,
                // each index was moved out through shuffles.
                var index = first
                let step2 = step &* 2, step3 = step &* 3, fourSteps = step &* 4
                self.lanes(ramp: ramp, x0: x0, ditherRow: ditherRow, count: count, into: out, partial: partial, coverage) {
                    let k = SIMD4<UInt32>(
                        UInt32(truncatingIfNeeded: index &>> 16), UInt32(truncatingIfNeeded: (index &+ step) &>> 16),
                        UInt32(truncatingIfNeeded: (index &+ step2) &>> 16), UInt32(truncatingIfNeeded: (index &+ step3) &>> 16))
                    index &+= fourSteps
                    return k
                }
                return
            }
            var lanes = first &+ step &* SIMD4<Int32>(0, 1, 2, 3)
            let step4 = SIMD4<Int32>(repeating: step &* 4)
            self.lanes(ramp: ramp, x0: x0, ditherRow: ditherRow, count: count, into: out, partial: partial, coverage) {
                let k = Self.fixedIndices(lanes)
                lanes &+= step4
                return k
            }
        } else {
            var tv = Float(t) + Float(dt) * SIMD4<Float>(0, 1, 2, 3)
            let step = SIMD4<Float>(repeating: Float(dt) * 4)
            self.lanes(ramp: ramp, x0: x0, ditherRow: ditherRow, count: count, into: out, partial: partial, coverage) {
                let k = Self.indices(tv)
                tv += step
                return k
            }
        }
    }

    /// Ramp indices from 16.16 fixed-point index + ½, clamped to the ramp (integer operations).
    @inline(__always) static func fixedIndices(_ v: SIMD4<Int32>) -> SIMD4<UInt32> {
        let top = SIMD4<Int32>(repeating: Int32(GradientShader.rampSize) &<< 16 &- 1)
        return SIMD4<UInt32>(truncatingIfNeeded: Fixed87.clamped(v, to: top) &>> 16)
    }

    /// The lanes loop of `composite`: each four pixels' ramp indices from `indices`, their coverage
    /// (0.16, each pixel's over its four lanes; used where `partial`) from `coverage(i)`.
    @inline(__always) private func lanes(
        ramp: UnsafeRawPointer, x0: Int, ditherRow: Int, count: Int, into out: UnsafeMutablePointer<UInt8>,
        partial: Bool, _ coverage: (Int) -> SIMD16<UInt16>, indices: () -> SIMD4<UInt32>
    ) {
        // A loop for each value of `partial`, each with it constant: passed through, the compiler
        // worked it out again from the coverage on every iteration, twice.
        if partial {
            lanesLoop(
                ramp: ramp, x0: x0, ditherRow: ditherRow, count: count, into: out, partial: true, coverage, indices: indices)
        } else {
            lanesLoop(
                ramp: ramp, x0: x0, ditherRow: ditherRow, count: count, into: out, partial: false, coverage, indices: indices)
        }
    }

    /// `lanes`' loop, `partial` a constant at each call.
    @inline(__always) private func lanesLoop(
        ramp: UnsafeRawPointer, x0: Int, ditherRow: Int, count: Int, into out: UnsafeMutablePointer<UInt8>,
        partial: Bool, _ coverage: (Int) -> SIMD16<UInt16>, indices: () -> SIMD4<UInt32>
    ) {
        let raw = UnsafeMutableRawPointer(out)
        // The dither pattern repeats every eight columns: two lane sets alternate.
        var dither = self.dither[ditherRow &+ (x0 & 7)], next = self.dither[ditherRow &+ ((x0 &+ 4) & 7)]
        var i = 0
        while i &+ 4 <= count {
            let bytes = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<UInt8>.self)
            let (colors, alphas) = Fixed87.gather(ramp, indices())
            let r = Fixed87.sourceOver(
                colors, alphas: alphas, onto: bytes, dither: dither, coverage: coverage(i), partial: partial)
            raw.storeBytes(of: r, toByteOffset: i &* 4, as: SIMD16<UInt8>.self)
            swap(&dither, &next)
            i &+= 4
        }
        guard i < count else { return }
        let c = coverage(i)
        Fixed87.throughCopy(raw + i &* 4, count: count &- i) { bytes in
            let (colors, alphas) = Fixed87.gather(ramp, indices())
            return Fixed87.sourceOver(colors, alphas: alphas, onto: bytes, dither: dither, coverage: c, partial: partial)
        }
    }

    /// The same for a few pixels (a shape edge's one-pixel spans, most of the calls), one at a time from
    /// the float ramp: `dithered` then `blend`.
    @inline(__always) func compositeFew(
        ramp: UnsafePointer<SIMD4<Float>>, t: Float, dt: Float, x0: Int, ditherRow: Int, count: Int,
        into out: UnsafeMutablePointer<UInt8>, coverage c: Float
    ) {
        var tt = t
        for i in 0..<count {
            let k = Int(Self.indices(SIMD4(repeating: tt))[0])
            blend(out + i &* 4, GradientShader.dithered(ramp[k], ditherOffsets[ditherRow &+ ((x0 &+ i) & 7)]), c)
            tt += dt
        }
    }

    /// For an opaque gradient under full coverage with its packed table: each pixel's dithered colour
    /// read from the table (`GradientShader.withPackedTable`) and stored.
    @inline(__always) func store(
        packed: UnsafePointer<UInt32>, t: Float, dt: Float, x0: Int, ditherRow: Int, count: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let raw = UnsafeMutableRawPointer(out)
        var tv = t + dt * SIMD4<Float>(0, 1, 2, 3)
        let step = SIMD4<Float>(repeating: dt * 4)
        var i = 0
        while i < count {
            let k = Self.indices(tv)
            for j in 0..<min(4, count &- i) {
                let d = ditherRow &+ ((x0 &+ i &+ j) & 7)
                raw.storeBytes(
                    of: packed[d &* GradientShader.rampSize &+ Int(k[j])], toByteOffset: (i &+ j) &* 4, as: UInt32.self)
            }
            tv += step
            i &+= 4
        }
    }
}

/// Premultiplied colours in 8.7 fixed point (128 is one level, 32640 is 255) while they are dithered
/// and clamped (signed lanes), 8.8 from there on (unsigned): four pixels' source-over in 16-bit integer
/// operations, where SSE2 does eight lanes per instruction (`pmulhuw` for the products, `pmaxsw` for
/// the clamp; written so the compiler finds them: conversions spelled lane by lane, vector operands,
/// a gradient's alpha over its four lanes read from its ramp entry (`fixed`) and an image's broadcast
/// from values the clamps do not change — each measured, the other spellings scalarize). Three times
/// fewer instructions than the float kernel (`compositeLanes`).
///
/// Against the float kernel: the colour is held to 1/256 of a level, the products truncated to 1/256,
/// the result rounded half up — a byte differs from it by one level where the exact value lies within
/// ~1/100 of a level of a rounding tie.
enum Fixed87 {
    /// `ditherOffsets` in 8.7 on the colour lanes of four pixels (0 on alpha), for each place of the
    /// 8×8 pattern (row · 8 + column).
    static let dither: [SIMD16<Int16>] = ditherLanes.map { v in
        var out = SIMD16<Int16>()
        for k in 0..<16 { out[k] = Int16((v[k] * 128).rounded()) }
        return out
    }

    /// `dither` at an address fixed for the process's life (never freed, never written after it is
    /// made), for kernels to index without the array.
    nonisolated(unsafe) static let ditherTable: UnsafePointer<SIMD16<Int16>> = {
        let table = UnsafeMutablePointer<SIMD16<Int16>>.allocate(capacity: dither.count)
        table.initialize(from: dither, count: dither.count)
        return UnsafePointer(table)
    }()

    /// `ditherOffsets` at an address fixed for the process's life (as `ditherTable`), for the C kernels'
    /// gradient rows (`reel_axial_rows`), whose runs of one to three pixels dither in floats.
    nonisolated(unsafe) static let ditherOffsetTable: UnsafePointer<Float> = {
        let table = UnsafeMutablePointer<Float>.allocate(capacity: ditherOffsets.count)
        table.initialize(from: ditherOffsets, count: ditherOffsets.count)
        return UnsafePointer(table)
    }()

    /// Each lane kept within 0…top (top ≥ 0) in integer operations: a negative lane (sign bit) to 0, then
    /// the sign of lane − top picks the lane or top. On a float's bits it clamps non-negative floats too,
    /// whose bits order as their values.
    @inline(__always) static func clamped(_ v: SIMD4<Int32>, to top: SIMD4<Int32>) -> SIMD4<Int32> {
        let positive = v & ~(v &>> 31)
        let below = (positive &- top) &>> 31
        return (positive & below) | (top & ~below)
    }

    /// The last one to three pixels of a span (`count`, from `raw`) through four-pixel lanes: their
    /// bytes copied into four pixels' worth, `lanes` applied, the first `count` copied back. Loaded and
    /// stored as whole words per count: a loop setting lanes one by one went through the stack, each
    /// narrow store followed by a wide reload (a store-forwarding stall per pixel; ~10 % of a gradient
    /// fill's time, measured).
    @inline(__always) static func throughCopy(
        _ raw: UnsafeMutableRawPointer, count: Int, _ lanes: (SIMD16<UInt8>) -> SIMD16<UInt8>
    ) {
        assert((1...3).contains(count), "a span's last one to three pixels")
        let first = raw.load(as: UInt32.self)
        let words: SIMD4<UInt32>
        switch count {
        case 1: words = SIMD4(first, 0, 0, 0)
        case 2: words = SIMD4(first, raw.load(fromByteOffset: 4, as: UInt32.self), 0, 0)
        default:
            words = SIMD4(
                first, raw.load(fromByteOffset: 4, as: UInt32.self), raw.load(fromByteOffset: 8, as: UInt32.self), 0)
        }
        let result = unsafeBitCast(lanes(unsafeBitCast(words, to: SIMD16<UInt8>.self)), to: SIMD4<UInt32>.self)
        raw.storeBytes(of: result[0], as: UInt32.self)
        guard count > 1 else { return }
        raw.storeBytes(of: result[1], toByteOffset: 4, as: UInt32.self)
        guard count > 2 else { return }
        raw.storeBytes(of: result[2], toByteOffset: 8, as: UInt32.self)
    }

    /// A ramp colour (premultiplied, 0…255 floats) in 8.7: eight bytes an entry, so a ramp is 8 KiB.
    /// With the alpha stored four times more (sixteen bytes, which spared the kernel a shuffle a pixel)
    /// a drawing of many gradients waited on their ramps: rects_linear's 1,000 gradients drew 1.45×
    /// as fast when all were one gradient, whose ramp stays cached.
    @inline(__always) static func fixed(_ c: SIMD4<Float>) -> SIMD4<Int16> {
        let bits = unsafeBitCast(c * 128 + 12_582_912, to: SIMD4<UInt32>.self)
        return SIMD4<Int16>(
            Int16(truncatingIfNeeded: bits[0]), Int16(truncatingIfNeeded: bits[1]), Int16(truncatingIfNeeded: bits[2]),
            Int16(truncatingIfNeeded: bits[3]))
    }

    /// Four entries of an 8.7 ramp (eight bytes each, `fixed`): their colours, and their alphas each
    /// over its pixel's four lanes.
    @inline(__always) static func gather(
        _ ramp: UnsafeRawPointer, _ k: SIMD4<UInt32>
    ) -> (colors: SIMD16<Int16>, alphas: SIMD16<Int16>) {
        let a = ramp.load(fromByteOffset: Int(k[0]) &* 8, as: SIMD4<Int16>.self)
        let b = ramp.load(fromByteOffset: Int(k[1]) &* 8, as: SIMD4<Int16>.self)
        let c = ramp.load(fromByteOffset: Int(k[2]) &* 8, as: SIMD4<Int16>.self)
        let d = ramp.load(fromByteOffset: Int(k[3]) &* 8, as: SIMD4<Int16>.self)
        let colors = SIMD16(lowHalf: SIMD8(lowHalf: a, highHalf: b), highHalf: SIMD8(lowHalf: c, highHalf: d))
        return (colors, Self.alphaLanes(colors))
    }

    /// Each pixel's alpha (its fourth lane) over its four lanes.
    @inline(__always) static func alphaLanes(_ v: SIMD16<Int16>) -> SIMD16<Int16> {
        SIMD16(
            v[3], v[3], v[3], v[3], v[7], v[7], v[7], v[7], v[11], v[11], v[11], v[11], v[15], v[15], v[15], v[15])
    }

    /// The high halves of the 32-bit products, lane by lane (`pmulhuw`).
    @inline(__always) static func productHigh(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let wa = SIMD8<UInt32>(
            UInt32(a[0]), UInt32(a[1]), UInt32(a[2]), UInt32(a[3]), UInt32(a[4]), UInt32(a[5]), UInt32(a[6]), UInt32(a[7]))
        let wb = SIMD8<UInt32>(
            UInt32(b[0]), UInt32(b[1]), UInt32(b[2]), UInt32(b[3]), UInt32(b[4]), UInt32(b[5]), UInt32(b[6]), UInt32(b[7]))
        let p = (wa &* wb) &>> 16
        return SIMD8<UInt16>(
            UInt16(truncatingIfNeeded: p[0]), UInt16(truncatingIfNeeded: p[1]), UInt16(truncatingIfNeeded: p[2]),
            UInt16(truncatingIfNeeded: p[3]), UInt16(truncatingIfNeeded: p[4]), UInt16(truncatingIfNeeded: p[5]),
            UInt16(truncatingIfNeeded: p[6]), UInt16(truncatingIfNeeded: p[7]))
    }

    /// Two pixels: the colour dithered and kept within 0…alpha (in 8.7, signed lanes; `a7`, each
    /// pixel's alpha over its four lanes), scaled by the coverage (in 8.8, unsigned lanes, from here
    /// on), over the destination's bytes: s + d · (1 − sₐ/255), rounded to bytes (still in 16-bit lanes).
    @inline(__always) static func two(
        _ color: SIMD8<Int16>, alphas a7: SIMD8<Int16>, _ bytes: SIMD8<UInt8>, _ dither: SIMD8<Int16>,
        _ coverage: SIMD8<UInt16>, _ partial: Bool
    ) -> SIMD8<UInt16> {
        // The alpha the ramp gives: neither the dither (0 on alpha) nor the clamps change it.
        // `pmaxsw`, `pminsw`: on 16-bit integer lanes the generic `pointwiseMax`/`Min` become one
        // instruction each (checked in the disassembly), unlike on sixteen float lanes
        // (`clampedToAlpha`).
        let s7 = pointwiseMin(pointwiseMax(color &+ dither, .zero), a7)
        var s = SIMD8<UInt16>(truncatingIfNeeded: s7) &<< 1
        var a = SIMD8<UInt16>(truncatingIfNeeded: a7) &<< 1
        if partial {
            s = productHigh(s, coverage)
            a = productHigh(a, coverage)
        }
        return over(s, alphas: a, bytes)
    }

    /// Two premultiplied 8.8 colours over two pixels' bytes, `a` their alphas over each's four lanes:
    /// s + d · (1 − a/255), rounded to bytes (still in 16-bit lanes).
    @inline(__always) static func over(_ s: SIMD8<UInt16>, alphas a: SIMD8<UInt16>, _ bytes: SIMD8<UInt8>) -> SIMD8<UInt16> {
        // 1 − a/255 in 0.16: (65280 − a) · 65535/65280, the factor as 1 + 1/256 (exact at both ends).
        let inverse = SIMD8<UInt16>(repeating: 65280) &- a
        let k = inverse &+ (inverse &>> 8)
        return (s &+ productHigh(highBytes(bytes), k) &+ 128) &>> 8
    }

    /// Two premultiplied 8.8 colours over two pixels' bytes (see `over(_:alphas:_:)`).
    @inline(__always) static func over(_ s: SIMD8<UInt16>, _ bytes: SIMD8<UInt8>) -> SIMD8<UInt16> {
        over(s, alphas: SIMD8(s[3], s[3], s[3], s[3], s[7], s[7], s[7], s[7]), bytes)
    }

    /// x rounded to the nearest integer (ties to even) by adding and taking away 1.5·2⁵²: `rounded()`
    /// is a call to round() without SSE4.1. For |x| < 2⁵¹.
    @inline(__always) static func nearest(_ x: Double) -> Double { (x + 6_755_399_441_055_744) - 6_755_399_441_055_744 }

    /// `Int32(nearest(x))` for |x| < 2³¹, read from the low bits of x + 1.5·2⁵² (whose mantissa holds
    /// the rounded x plus 2⁵¹): `Int32(_:)` checks its range first, about twenty instructions, where
    /// the callers have bounded x already.
    @inline(__always) static func nearestInt32(_ x: Double) -> Int32 {
        Int32(truncatingIfNeeded: (x + 6_755_399_441_055_744).bitPattern)
    }

    /// Eight bytes as the high bytes of 16-bit lanes (8.8 fixed point), spelled lane by lane.
    @inline(__always) static func highBytes(_ b: SIMD8<UInt8>) -> SIMD8<UInt16> {
        SIMD8<UInt16>(
            UInt16(b[0]), UInt16(b[1]), UInt16(b[2]), UInt16(b[3]), UInt16(b[4]), UInt16(b[5]), UInt16(b[6]), UInt16(b[7]))
            &<< 8
    }

    /// Four coverages (0…1) in 0.16 fixed point, each over its pixel's four lanes: rounded to nearest
    /// by adding 2²³ (no conversion instruction without SSE4.1 that the compiler would keep in lanes),
    /// 1 held to 65535.
    @inline(__always) static func spread(_ c: SIMD4<Float>) -> SIMD16<UInt16> {
        let scaled = c * 65536
        let held = scaled.replacing(with: SIMD4(repeating: 65535), where: scaled .> SIMD4(repeating: 65535))
        let v = unsafeBitCast(held + 8_388_608, to: SIMD4<UInt32>.self)
        let a = UInt16(truncatingIfNeeded: v[0]), b = UInt16(truncatingIfNeeded: v[1])
        let c = UInt16(truncatingIfNeeded: v[2]), d = UInt16(truncatingIfNeeded: v[3])
        return SIMD16(a, a, a, a, b, b, b, b, c, c, c, c, d, d, d, d)
    }

    /// Four pixels' source-over (see `two`); `coverage` in 0.16, each pixel's over its four lanes (used
    /// where `partial`).
    @inline(__always) static func sourceOver(
        _ colors: SIMD16<Int16>, alphas: SIMD16<Int16>, onto bytes: SIMD16<UInt8>, dither: SIMD16<Int16>,
        coverage: SIMD16<UInt16>, partial: Bool
    ) -> SIMD16<UInt8> {
        let low = two(colors.lowHalf, alphas: alphas.lowHalf, bytes.lowHalf, dither.lowHalf, coverage.lowHalf, partial)
        let high = two(colors.highHalf, alphas: alphas.highHalf, bytes.highHalf, dither.highHalf, coverage.highHalf, partial)
        return lowBytes(SIMD16<UInt16>(lowHalf: low, highHalf: high))
    }
}
