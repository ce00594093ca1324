/* The layer filters' kernels, included by KernelBody.h once per variant: a coarse blur's cells, its
   grid's taps and the rows sampled back from it (BandPainter.blurCoarse), and the colour matrix. In C
   so that the wide variants run them in their full lanes: in Swift's baseline lanes the sampling alone
   took a tenth of a blurred 1080p clip's CPU, most of it moving lanes about. Float operations as
   written (KernelBody.h's pragmas): each lane is the same float on every variant. */

typedef float K(f32x2) __attribute__((ext_vector_type(2)));
typedef float K(f32x8) __attribute__((ext_vector_type(8)));
typedef uint32_t K(u32x8) __attribute__((ext_vector_type(8)));
typedef uint8_t K(u8x8) __attribute__((ext_vector_type(8)));

TARGET static void K(blur_cells)(reel_blur_cells c) {
    const intptr_t n = c.width * 4;
    intptr_t y = 0, row = 2;
    while (y < c.rows) {
        const intptr_t end = y == 0 ? c.first_rows : (y + c.f < c.rows ? y + c.f : c.rows);
        memset(c.columns, 0, (size_t)n * sizeof(uint32_t));
        for (; y < end && y < c.rows; y++) {
            const uint8_t *p = c.pixels + y * c.stride;
            for (intptr_t j = 0; j < n; j++) c.columns[j] += p[j];
        }
        float *out = c.grid + (row * c.pw + 2) * 4;
        for (intptr_t k = 0; k < c.gw; k++) {
            uint32_t acc[4] = {0, 0, 0, 0};
            for (intptr_t x = c.edges[k]; x < c.edges[k + 1]; x++)
                for (int ch = 0; ch < 4; ch++) acc[ch] += c.columns[x * 4 + ch];
            for (int ch = 0; ch < 4; ch++) out[k * 4 + ch] = (float)acc[ch] * c.scale;
        }
        row++;
    }
}

/* `out[j] += k · in[j]` for j < n: lanes are independent, so any width sums each in the same order. */
INLINE void K(tap)(float *restrict out, const float *restrict in, float k, intptr_t n) {
    for (intptr_t j = 0; j < n; j++) out[j] += k * in[j];
}

TARGET static void K(blur_grid)(reel_blur_grid g) {
    const intptr_t r = g.taps / 2, line = g.pw * 4;
    /* Along the rows with content: a tap at offset d reads cell x + d, skipped where that is outside. */
    for (intptr_t y = g.rows_from; y < g.rows_to; y++) {
        float *out = g.across + y * line;
        const float *in = g.grid + y * line;
        memset(out, 0, (size_t)line * sizeof(float));
        for (intptr_t i = 0; i < g.taps; i++) {
            const intptr_t d = i - r;
            const intptr_t x0 = d < 0 ? -d : 0, x1 = d > 0 ? g.pw - d : g.pw;
            if (x0 < x1) K(tap)(out + x0 * 4, in + (x0 + d) * 4, g.kernel[i], (x1 - x0) * 4);
        }
    }
    /* Down the columns, only the rows sampled from; rows without content add nothing. */
    for (intptr_t y = g.out_from; y < g.out_to; y++) {
        float *out = g.grid + y * line;
        memset(out, 0, (size_t)line * sizeof(float));
        for (intptr_t i = 0; i < g.taps; i++) {
            const intptr_t row = y + i - r;
            if (row < g.rows_from || row >= g.rows_to) continue;
            K(tap)(out, g.across + row * line, g.kernel[i], line);
        }
    }
}

/* Premultiplied channels stored as BandPainter.store16 stores them: the alpha held to 0…255 and
   rounded to the nearest (even) level by adding and taking away 1.5 · 2²³, the colour held to 0…alpha
   and rounded by adding it; the low byte of each lane's bits. */
INLINE K(u8x8) K(levels)(K(f32x8) v) {
    const float magic = 12582912.0f;
    K(f32x8) c = v < 0 ? (K(f32x8))0 : v;
    K(f32x8) a = c > 255 ? (K(f32x8))255 : c;
    a = __builtin_shufflevector(a, a, 3, 3, 3, 3, 7, 7, 7, 7);
    a = (a + magic) - magic;
    c = c > a ? a : c;
    K(u32x8) bits;
    K(f32x8) biased = c + magic;
    memcpy(&bits, &biased, sizeof bits);
    return __builtin_convertvector(bits & 255, K(u8x8));
}

TARGET static void K(blur_row)(reel_blur_row row) {
    const intptr_t n = row.cells * 4;
    for (intptr_t j = 0; j < n; j++) row.line[j] = row.top[j] + (row.bottom[j] - row.top[j]) * row.tv;
    /* Two pixels a step: each one's cell and the next in one load of eight floats. */
    intptr_t x = 0;
    for (; x + 2 <= row.count; x += 2) {
        K(f32x8) p, q;
        memcpy(&p, row.line + (intptr_t)row.pixel_cells[x] * 4, sizeof p);
        memcpy(&q, row.line + (intptr_t)row.pixel_cells[x + 1] * 4, sizeof q);
        K(f32x8) left = __builtin_shufflevector(p, q, 0, 1, 2, 3, 8, 9, 10, 11);
        K(f32x8) right = __builtin_shufflevector(p, q, 4, 5, 6, 7, 12, 13, 14, 15);
        K(f32x2) w;
        memcpy(&w, row.weights + x, sizeof w);
        K(f32x8) t = __builtin_shufflevector(w, w, 0, 0, 0, 0, 1, 1, 1, 1);
        K(u8x8) bytes = K(levels)(left + (right - left) * t);
        memcpy(row.out + x * 4, &bytes, sizeof bytes);
    }
    if (x < row.count) {
        K(f32x8) p;
        memcpy(&p, row.line + (intptr_t)row.pixel_cells[x] * 4, sizeof p);
        K(f32x8) left = __builtin_shufflevector(p, p, 0, 1, 2, 3, 0, 1, 2, 3);
        K(f32x8) right = __builtin_shufflevector(p, p, 4, 5, 6, 7, 4, 5, 6, 7);
        float w = row.weights[x];
        K(u8x8) bytes = K(levels)(left + (right - left) * w);
        memcpy(row.out + x * 4, &bytes, 4);
    }
}

typedef uint8_t K(u8x16) __attribute__((ext_vector_type(16)));
typedef uint8_t K(u8x32) __attribute__((ext_vector_type(32)));

/* Eight pixels' channel `c` (0…3) as floats. */
#define CHANNEL(bytes, c)                                                                                               \
    __builtin_convertvector(                                                                                            \
        __builtin_shufflevector(bytes, bytes, c, c + 4, c + 8, c + 12, c + 16, c + 20, c + 24, c + 28), K(f32x8))

/* Eight pixels through the matrix: channels apart (lane i the pixel i), as `reel_color_matrix` says. */
INLINE K(u8x32) K(matrix8)(K(u8x32) bytes, const reel_color_matrix *m) {
    K(f32x8) r = CHANNEL(bytes, 0), g = CHANNEL(bytes, 1), b = CHANNEL(bytes, 2), a = CHANNEL(bytes, 3);
    K(f32x8) cr = r / a, cg = g / a, cb = b / a, ca = a / 255;
    K(f32x8) zero = 0, one = 1;
    cr = a > 0 ? cr : zero;
    cg = a > 0 ? cg : zero;
    cb = a > 0 ? cb : zero;
    K(f32x8) o[4];
    for (int i = 0; i < 4; i++) {
        K(f32x8) v = m->m[i * 4] * cr;
        v = v + m->m[i * 4 + 1] * cg;
        v = v + m->m[i * 4 + 2] * cb;
        v = v + m->m[i * 4 + 3] * ca;
        v = v + m->bias[i];
        v = v < 0 ? zero : v;
        o[i] = v > 1 ? one : v;
    }
    /* Premultiplied again in 0…255, then each pixel's four lanes together for `levels`. */
    K(f32x8) pr = o[0] * o[3] * 255, pg = o[1] * o[3] * 255, pb = o[2] * o[3] * 255, pa = o[3] * 255;
    K(f32x8) rg0 = __builtin_shufflevector(pr, pg, 0, 8, 1, 9, 2, 10, 3, 11);
    K(f32x8) rg1 = __builtin_shufflevector(pr, pg, 4, 12, 5, 13, 6, 14, 7, 15);
    K(f32x8) ba0 = __builtin_shufflevector(pb, pa, 0, 8, 1, 9, 2, 10, 3, 11);
    K(f32x8) ba1 = __builtin_shufflevector(pb, pa, 4, 12, 5, 13, 6, 14, 7, 15);
    K(u8x8) q0 = K(levels)(__builtin_shufflevector(rg0, ba0, 0, 1, 8, 9, 2, 3, 10, 11));
    K(u8x8) q1 = K(levels)(__builtin_shufflevector(rg0, ba0, 4, 5, 12, 13, 6, 7, 14, 15));
    K(u8x8) q2 = K(levels)(__builtin_shufflevector(rg1, ba1, 0, 1, 8, 9, 2, 3, 10, 11));
    K(u8x8) q3 = K(levels)(__builtin_shufflevector(rg1, ba1, 4, 5, 12, 13, 6, 7, 14, 15));
    K(u8x16) q01 = __builtin_shufflevector(q0, q1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    K(u8x16) q23 = __builtin_shufflevector(q2, q3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    K(u8x32) out = __builtin_shufflevector(q01, q23, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                                           18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    if (!m->adds_alpha) {
        /* A transparent pixel is left as it was. */
        K(u8x32) alpha = __builtin_shufflevector(bytes, bytes, 3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15,
                                                 19, 19, 19, 19, 23, 23, 23, 23, 27, 27, 27, 27, 31, 31, 31, 31);
        out = alpha == 0 ? bytes : out;
    }
    return out;
}
#undef CHANNEL

TARGET static void K(color_matrix)(reel_color_matrix m) {
    for (intptr_t y = 0; y < m.rows; y++) {
        uint8_t *row = m.pixels + y * m.stride;
        intptr_t x = 0;
        for (; x + 8 <= m.width; x += 8) {
            K(u8x32) bytes;
            memcpy(&bytes, row + x * 4, sizeof bytes);
            /* Wholly transparent pixels are the common case around a blurred shape. */
            uint64_t words[4];
            memcpy(words, &bytes, sizeof words);
            if (!m.adds_alpha && (words[0] | words[1] | words[2] | words[3]) == 0) continue;
            K(u8x32) out = K(matrix8)(bytes, &m);
            memcpy(row + x * 4, &out, sizeof out);
        }
        if (x < m.width) {
            /* The last few pixels through the same lanes, in a copy. */
            K(u8x32) bytes = 0;
            memcpy(&bytes, row + x * 4, (size_t)(m.width - x) * 4);
            K(u8x32) out = K(matrix8)(bytes, &m);
            memcpy(row + x * 4, &out, (size_t)(m.width - x) * 4);
        }
    }
}
