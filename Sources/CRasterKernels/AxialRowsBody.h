/* A padded axial gradient's rows walked from their accumulated cells: the running sum, the cuts of
   the walk in Swift (CoverageScratch.quads) and each piece's pixels in one kernel a shape (included
   by KernelBody.h after SolidRowsBody.h, inside one variant's macros). */

typedef uint32_t K(u32x4) __attribute__((ext_vector_type(4)));
typedef int32_t K(i32x4) __attribute__((ext_vector_type(4)));

/* A parameter's ramp index (AxialLanes.indices): clamped to 0…1 on its bits, scaled to the ramp and
   rounded by adding 1.5 · 2²³, which leaves the integer in the low mantissa bits. */
INLINE uint32_t K(float_index)(float t, int32_t ramp_size) {
    int32_t bits;
    memcpy(&bits, &t, sizeof bits);
    int32_t c = K(clamped)(bits, 0x3F800000);
    float clamped;
    memcpy(&clamped, &c, sizeof clamped);
    float scaled = clamped * (float)(ramp_size - 1) + 12582912.0f;
    uint32_t sb;
    memcpy(&sb, &scaled, sizeof sb);
    return sb & (uint32_t)(ramp_size - 1);
}

/* A span for the `axial` kernel from its first parameter (a double, as AxialLanes.span takes it):
   indices + ½ in 16.16 where the parameters stay within ±16, float lanes beyond. */
INLINE reel_axial_span K(axial_span_at)(
    const reel_axial_rows *r, double t, double dt, intptr_t x, intptr_t dither_row, intptr_t count, uint16_t coverage,
    const float *coverages, int partial) {
    double end = t + (double)count * dt;
    int fixed = __builtin_fabs(t) < 16 && __builtin_fabs(end) < 16;
    double scale = (double)(r->ramp_size - 1) * 65536.0;
    reel_axial_span span = {
        .ramp = r->ramp87,
        .dither = r->dither,
        .coverages = coverages,
        .count = count,
        .x0 = x,
        .dither_row = dither_row,
        .first = fixed ? K(nearest_i32)(t * scale + 32768) : 0,
        .step = fixed ? K(nearest_i32)(dt * scale) : 0,
        .t = (float)t,
        .dt = (float)dt,
        .fixed_point = fixed,
        .ramp_size = r->ramp_size,
        .coverage = coverage,
        .partial = partial,
    };
    return span;
}

/* `blend`: s = colour · c, then s + d · (1 − sₐ/255) onto one pixel, rounded by adding 1.5 · 2²³. */
INLINE void K(blend_pixel)(uint8_t *o, K(f32x4) color, float c) {
    K(f32x4) s = color * c;
    float inverse = 1 - s.w * (1.0f / 255.0f);
    K(u32x4) d = {o[0], o[1], o[2], o[3]};
    K(u32x4) bits = (K(u32x4))(s + __builtin_convertvector(d, K(f32x4)) * inverse + 12582912.0f);
    o[0] = (uint8_t)bits[0];
    o[1] = (uint8_t)bits[1];
    o[2] = (uint8_t)bits[2];
    o[3] = (uint8_t)bits[3];
}

/* A run of `count` pixels from column x (absolute; `p` its first pixel) at one coverage c, the
   run's first parameter t and step dt: as BandPainter's walk in Swift drew it. */
INLINE void K(axial_constant)(
    const reel_axial_rows *r, uint8_t *p, double t, double dt, intptr_t x, intptr_t dither_row, intptr_t count, float c) {
    float tf = (float)t, dtf = (float)dt;
    if (c >= 1 && r->packed) {
        /* AxialLanes.store: four parameters stepped together, each pixel's word from the table. */
        float tv[4];
        for (int m = 0; m < 4; m++) tv[m] = tf + dtf * (float)m;
        float step = dtf * 4;
        for (intptr_t i = 0; i < count; i += 4) {
            intptr_t n = count - i < 4 ? count - i : 4;
            for (intptr_t j = 0; j < n; j++) {
                intptr_t d = dither_row + ((x + i + j) & 7);
                uint32_t word = r->packed[d * r->ramp_size + K(float_index)(tv[j], r->ramp_size)];
                memcpy(p + 4 * (i + j), &word, 4);
            }
            for (int m = 0; m < 4; m++) tv[m] += step;
        }
        return;
    }
    if (count < 4) {
        /* AxialLanes.compositeFew: each pixel's ramp colour dithered (GradientShader.dithered), then
           `blend` at c. */
        /* In four float lanes, a pixel's channels: the same operations lane by lane as the scalar
           ones (`clamp` on the colour lanes as selections, the alpha lane as it is). */
        K(i32x4) colour_lanes = {-1, -1, -1, 0};
        K(f32x4) zero = {0};
        float tt = tf;
        for (intptr_t i = 0; i < count; i++) {
            K(f32x4) e;
            memcpy(&e, r->ramp + 4 * K(float_index)(tt, r->ramp_size), sizeof e);
            K(f32x4) v = e + r->dither_offsets[dither_row + ((x + i) & 7)];
            K(f32x4) a = __builtin_shufflevector(e, e, 3, 3, 3, 3);
            K(i32x4) q = (K(i32x4))v & ~(zero >= v);
            K(i32x4) above = a < (K(f32x4))q;
            K(i32x4) clamped = ((K(i32x4))a & above) | (q & ~above);
            K(blend_pixel)(p + 4 * i, (K(f32x4))((clamped & colour_lanes) | ((K(i32x4))e & ~colour_lanes)), c);
            tt += dtf;
        }
        return;
    }
    /* AxialLanes.composite(…coverage:…): the coverage in 0.16 rounded half up, 1 held to 65535. */
    float scaled = c * 65536 + 0.5f;
    uint16_t c16 = (uint16_t)(65535 < scaled ? 65535 : scaled);
    reel_axial_span span = K(axial_span_at)(r, t, dt, x, dither_row, count, c16, 0, c < 1);
    K(axial_at)(p, &span);
}

/* Four pixels' lanes whatever the variant: an edge's four cells (CoverageScratch.quads' cut). */
typedef int16_t K(q16i) __attribute__((ext_vector_type(16)));
typedef uint16_t K(q16u) __attribute__((ext_vector_type(16)));
typedef uint8_t K(q8u) __attribute__((ext_vector_type(16)));
typedef uint64_t K(q64u) __attribute__((ext_vector_type(4)));

INLINE K(q16u) K(quad_mulhi)(K(q16u) a, K(q16u) b) {
#if defined(__x86_64__)
    __m128i x[2], y[2], r[2];
    memcpy(x, &a, sizeof a);
    memcpy(y, &b, sizeof b);
    r[0] = _mm_mulhi_epu16(x[0], y[0]);
    r[1] = _mm_mulhi_epu16(x[1], y[1]);
    K(q16u) out;
    memcpy(&out, r, sizeof out);
    return out;
#else
    typedef uint32_t q32u __attribute__((ext_vector_type(16)));
    return __builtin_convertvector((__builtin_convertvector(a, q32u) * __builtin_convertvector(b, q32u)) >> 16, K(q16u));
#endif
}

/* Four running sums' coverages under the non-zero rule (`rule_coverage` in lanes, as
   CoverageScratch.coverages: |INT32_MIN| stays INT32_MIN, below any coverage), zero where at most
   `minimum`. */
INLINE K(f32x4) K(quad_coverages)(K(i32x4) s, float minimum) {
    K(i32x4) a = __builtin_elementwise_min(__builtin_elementwise_abs(s), (K(i32x4)){0} + REEL_CELL_ONE);
    K(f32x4) c = __builtin_convertvector(a, K(f32x4)) * (1.0f / REEL_CELL_ONE);
    return (K(f32x4))((K(i32x4))c & (c > minimum));
}

/* Pixels x ..< x + n (n 1…4; `p` the first) at their own coverages, from the four's first parameter
   t: what the `axial` kernel's lanes make of such a span (AxialLanes' `composite` with four
   coverages, as the walk in Swift drew it), its indices clamped (a no-op where they stay inside the
   ramp, so the same as the kernel's unclamped steps there). */
INLINE void K(axial_quad)(
    const reel_axial_rows *r, uint8_t *p, double t, double dt, intptr_t x, intptr_t dither_row, intptr_t n,
    K(f32x4) cv) {
    double end = t + (double)n * dt;
    uint32_t k[4];
    if (__builtin_fabs(t) < 16 && __builtin_fabs(end) < 16) {
        double scale = (double)(r->ramp_size - 1) * 65536.0;
        uint32_t index = (uint32_t)K(nearest_i32)(t * scale + 32768);
        uint32_t step = (uint32_t)K(nearest_i32)(dt * scale);
        int32_t top = (int32_t)((uint32_t)r->ramp_size << 16) - 1;
        for (int j = 0; j < 4; j++) {
            k[j] = (uint32_t)K(clamped)((int32_t)index, top) >> 16;
            index += step;
        }
    } else {
        float tf = (float)t, dtf = (float)dt;
        for (int m = 0; m < 4; m++) k[m] = K(float_index)(tf + dtf * (float)m, r->ramp_size);
    }
    /* Each entry (eight bytes, r g b a) read whole into its pixel's lanes, then each alpha spread over
       its pixel's lanes by a shuffle: set lane by lane, the lanes went through the stack, each narrow
       store followed by a wide reload. */
    uint64_t e0, e1, e2, e3;
    memcpy(&e0, r->ramp87 + 4 * k[0], 8);
    memcpy(&e1, r->ramp87 + 4 * k[1], 8);
    memcpy(&e2, r->ramp87 + 4 * k[2], 8);
    memcpy(&e3, r->ramp87 + 4 * k[3], 8);
    K(q64u) colors64 = {e0, e1, e2, e3};
    K(q16i) colors = (K(q16i))colors64, dither;
    K(q16i) alphas = __builtin_shufflevector(colors, colors, ALPHA4_PIXELS_4);
    memcpy(&dither, r->dither + 16 * (dither_row + (x & 7)), sizeof dither);
    K(q16i) zero = {0};
    K(q16i) s7 = __builtin_elementwise_min(__builtin_elementwise_max(colors + dither, zero), alphas);
    K(q16u) s = ((K(q16u))s7) << 1;
    K(q16u) a = ((K(q16u))alphas) << 1;
    /* The coverages in 0.16 (`spread` in lanes), each over its pixel's four lanes; lanes past n are
       never stored. */
    K(f32x4) scaled = cv * 65536.0f;
    K(f32x4) held = __builtin_elementwise_min(scaled, (K(f32x4)){0} + 65535.0f); /* never NaN: as `spread`'s test */
    K(q64u) c64 = __builtin_convertvector((K(u32x4))(held + 8388608.0f) & 0xFFFFu, K(q64u));
    c64 |= c64 << 16;
    c64 |= c64 << 32;
    K(q16u) c = (K(q16u))c64;
    s = K(quad_mulhi)(s, c);
    a = K(quad_mulhi)(a, c);
    /* Whole words of a constant count (a copy of a variable length was a call to memcpy). */
    K(q8u) bytes = {0};
    switch (n) {
    case 1: memcpy(&bytes, p, 4); break;
    case 2: memcpy(&bytes, p, 8); break;
    case 3: memcpy(&bytes, p, 12); break;
    default: memcpy(&bytes, p, 16); break;
    }
    K(q16u) inverse = (K(q16u)){0} + (uint16_t)65280 - a;
    K(q16u) kk = inverse + (inverse >> 8);
    K(q16u) d = __builtin_convertvector(bytes, K(q16u)) << 8;
    K(q8u) result = __builtin_convertvector((s + K(quad_mulhi)(d, kk) + (uint16_t)128) >> 8, K(q8u));
    switch (n) {
    case 1: memcpy(p, &result, 4); break;
    case 2: memcpy(p, &result, 8); break;
    case 3: memcpy(p, &result, 12); break;
    default: memcpy(p, &result, 16); break;
    }
}

/* Each row: runs of untouched cells (one coverage) to `axial_constant`; from a touched cell on, four
   cells at a time (fewer before c1), their sums in order, the rule in lanes and each pixel's coverage
   zero where at most `minimum`, through the `axial` kernel's lanes from the four's own first
   parameter (`axial_quad`). */
TARGET static intptr_t K(axial_rows)(reel_axial_rows r) {
    intptr_t limit = r.span.c1 + 1;
    double dt = r.a * r.ux + r.b * r.uy;
    for (intptr_t row = 0; row < r.span.rows; row++) {
        intptr_t y = r.y + row;
        /* AxialLanes.row: the parameter at the centre of the canvas's column 0. */
        double px = (double)r.x0 + 0.5, py = (double)y + 0.5;
        double gx = r.a * px + r.c * py + r.tx;
        double gy = r.b * px + r.d * py + r.ty;
        double t0 = (gx - r.start_x) * r.ux + (gy - r.start_y) * r.uy;
        if (!(__builtin_fabs(t0) < 1e30) || !(__builtin_fabs(t0 + (double)r.width * dt) < 1e30)) return row;
        K(cell_row) cr = K(row_of)(&r.span, row);
        int32_t *line = cr.line;
        uint64_t *bits = cr.bits;
        uint8_t *out = cr.out;
        intptr_t dither_row = (y & 7) * 8;
        int32_t sum = 0;
        intptr_t x = r.span.c0;
        while (x < limit) {
            if (((bits[x >> 6] >> (x & 63)) & 1) == 0) {
                intptr_t end = K(first_touched)(bits, x, limit);
                float c = K(rule_coverage)(sum, 0);
                if (c > r.minimum)
                    K(axial_constant)(&r, out + 4 * x, t0 + (double)x * dt, dt, r.x0 + x, dither_row, end - x, c);
                x = end;
                continue;
            }
            intptr_t n = limit - x < 4 ? limit - x : 4;
            /* The running sum in lanes, by shifted adds (integers: the same sums as cell by cell);
               lanes past n read zero, so the last lane is the sum after the four. */
            K(u32x4) v = {0};
            if (n == 4) {
                memcpy(&v, line + x, sizeof v);
                memset(line + x, 0, sizeof v);
            } else {
                for (intptr_t j = 0; j < n; j++) {
                    v[j] = (uint32_t)line[x + j];
                    line[x + j] = 0;
                }
            }
            K(u32x4) none = {0};
            v += __builtin_shufflevector(none, v, 3, 4, 5, 6);
            v += __builtin_shufflevector(none, v, 2, 3, 4, 5);
            v += (uint32_t)sum;
            sum = (int32_t)v[3];
            K(axial_quad)(&r, out + 4 * x, t0 + (double)x * dt, dt, r.x0 + x, dither_row, n, K(quad_coverages)((K(i32x4))v, r.minimum));
            x += n;
        }
        K(end_row)(&r.span, cr);
    }
    return r.span.rows;
}
