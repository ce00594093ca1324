/* A solid colour's rows walked from their accumulated cells: the running sum, the fill rule and the
   source-over in one kernel a shape (included by KernelBody.h, inside one variant's macros). */

typedef float K(pf32) __attribute__((ext_vector_type(PIXELS)));
#define PF32 K(pf32)

/* Each pixel's value over its four lanes. */
#define SPREAD4_PIXELS_4 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3
#define SPREAD4_PIXELS_8 SPREAD4_PIXELS_4, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7
#define SPREAD4_PIXELS_16 \
    SPREAD4_PIXELS_8, 8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15
#define SPREAD4_N2(n) SPREAD4_PIXELS_##n
#define SPREAD4_N(n) SPREAD4_N2(n)
#define SPREAD4 SPREAD4_N(PIXELS)

/* Lanes shifted up by k (lane i takes lane i − k, the lowest k take zero), as the indices of a
   shuffle of (zero, v). */
#define SHIFT_UP_4(k) 4 - (k), 5 - (k), 6 - (k), 7 - (k)
#define SHIFT_UP_8(k) 8 - (k), 9 - (k), 10 - (k), 11 - (k), 12 - (k), 13 - (k), 14 - (k), 15 - (k)
#define SHIFT_UP_16(k)                                                                                                        \
    16 - (k), 17 - (k), 18 - (k), 19 - (k), 20 - (k), 21 - (k), 22 - (k), 23 - (k), 24 - (k), 25 - (k), 26 - (k), 27 - (k), \
        28 - (k), 29 - (k), 30 - (k), 31 - (k)
#define SHIFT_UP_N2(n, k) SHIFT_UP_##n(k)
#define SHIFT_UP_N(n, k) SHIFT_UP_N2(n, k)
#define SHIFT_UP(k) SHIFT_UP_N(PIXELS, k)

/* The fill rule applied to a running sum of cells, as CoverageScratch.coverage: |sum| capped at
   REEL_CELL_ONE, or folded (even-odd), then scaled to 0…1 (exactly: at most 2²⁰ times a power of two).
   |sum| as (s ^ m) − m with m its sign, in unsigned arithmetic, the same operations as the lanes below. */
INLINE float K(rule_coverage)(int32_t sum, int even_odd) {
    int32_t m = sum >> 31;
    int32_t a = (int32_t)(((uint32_t)sum ^ (uint32_t)m) - (uint32_t)m);
    if (even_odd) {
        a &= 2 * REEL_CELL_ONE - 1;
        if (a > REEL_CELL_ONE) a = 2 * REEL_CELL_ONE - a;
    } else if (a > REEL_CELL_ONE) {
        a = REEL_CELL_ONE;
    }
    return (float)a * (1.0f / REEL_CELL_ONE);
}

/* The same over lanes, as CoverageScratch.coverages (min(a, 2 · one − a) is the fold for
   0 ≤ a < 2 · one; |INT32_MIN| stays INT32_MIN, as (s ^ m) − m leaves it), then zero where the
   coverage is not above `minimum`. */
INLINE PI32 K(rule_lanes)(PI32 s, int even_odd, float minimum) {
    PI32 a = __builtin_elementwise_abs(s);
    if (even_odd) {
        a &= 2 * REEL_CELL_ONE - 1;
        a = __builtin_elementwise_min(a, 2 * REEL_CELL_ONE - a);
    } else {
        a = __builtin_elementwise_min(a, (PI32){0} + REEL_CELL_ONE);
    }
    PF32 c = __builtin_convertvector(a, PF32) * (1.0f / REEL_CELL_ONE);
    return (PI32)c & (c > minimum);
}

/* Pixels at one coverage c (> minimum): at full coverage the opaque word or the 8.8 source-over
   (`solid`), below it the float source-over of the colour scaled by c (`solid_float`), as the walk
   in Swift handed them to those kernels or to `blend`, whose arithmetic theirs is. */
INLINE void K(solid_run)(const reel_solid_rows *r, uint8_t *p, intptr_t count, float c) {
    if (c >= 1) {
        if (r->opaque)
            K(fill)(p, count, r->word);
        else
            K(solid)(p, count, r->keep, r->add);
        return;
    }
    reel_rgba_f s = {r->color.r * c, r->color.g * c, r->color.b * c, r->color.a * c};
    K(solid_float)(p, count, s, 1 - s.a * (1.0f / 255.0f));
}

/* PIXELS pixels from `p`, each at its own coverage (`cover`, zero leaves a pixel as it is: 0 + d · 1
   is d): full coverage as `solid_run`, the others by the float source-over, lane for lane the
   operations of `blend`. */
INLINE void K(solid_lanes)(const reel_solid_rows *r, uint8_t *p, PI32 cover, F32V color, U16V keep, U16V add) {
    PF32 c = (PF32)cover;
    F32V spread = __builtin_shufflevector(c, c, SPREAD4);
    U8V bytes = K(load)(p);
    F32V s = color * spread;
    F32V d = __builtin_convertvector(bytes, F32V);
    F32V alpha = __builtin_shufflevector(s, s, ALPHA4);
    F32V out = s + d * (1 - alpha * (1.0f / 255.0f));
    U8V partial = __builtin_convertvector((U32V)(out + 12582912.0f), U8V);
    U8V whole;
    if (r->opaque) {
        PU32 w = {0};
        whole = (U8V)(w + r->word);
    } else {
        whole = __builtin_convertvector((K(mulhi)(K(high_bytes)(bytes), keep) + add) >> 8, U8V);
    }
    PI32 full = c >= 1;
    PU32 chosen = ((PU32)whole & (PU32)full) | ((PU32)partial & ~(PU32)full);
    K(store)(p, (U8V)chosen);
}

/* The first cell from x on (x ≤ limit) whose touched bit is set, or `limit`. */
INLINE intptr_t K(first_touched)(const uint64_t *bits, intptr_t x, intptr_t limit) {
    intptr_t w = x >> 6;
    uint64_t word = bits[w] & (~(uint64_t)0 << (x & 63));
    while (word == 0) {
        w++;
        if ((w << 6) >= limit) return limit;
        word = bits[w];
    }
    intptr_t at = (w << 6) + __builtin_ctzll(word);
    return at < limit ? at : limit;
}

/* One row of a row kernel's rows (`reel_cell_rows`): its cells, touched bits and first pixel. */
typedef struct K(cell_row) {
    int32_t *line;
    uint64_t *bits;
    uint8_t *out;
} K(cell_row);

INLINE K(cell_row) K(row_of)(const reel_cell_rows *span, intptr_t row) {
    K(cell_row) r = {span->cells + row * span->cell_stride, span->touched + row * span->words_per_row,
                     span->out + row * span->out_stride};
    return r;
}

/* The end of a walked row: the cell past c1 (which only an edge's right part reaches) and the row's
   touched bits cleared, as CoverageScratch.endRow. */
INLINE void K(end_row)(const reel_cell_rows *span, K(cell_row) r) {
    intptr_t limit = span->c1 + 1;
    r.line[limit] = 0;
    for (intptr_t w = span->c0 >> 6; w <= (limit >> 6); w++) r.bits[w] = 0;
}

/* Cells x ..< x + n (n ≤ PIXELS) of a row: summed cell by cell in order from `sum` (their sums
   returned, the cells cleared), the rule in lanes, `solid_lanes` over their pixels, but for the first
   `skip` lanes, whose pixels are left as they are (their cells must be zero: a row's tail, walked as
   the last whole group with the cells already walked at its start). */
INLINE int32_t K(solid_group)(
    const reel_solid_rows *r, uint8_t *out, int32_t *line, intptr_t x, intptr_t n, int32_t sum, intptr_t skip) {
    K(f32x4) one = {r->color.r, r->color.g, r->color.b, r->color.a};
    F32V color = __builtin_shufflevector(one, one, REPEAT4);
    PU64 add64 = {0};
    U16V add = (U16V)(add64 + r->add);
    U16V keep = K(splat16)(r->keep);
    /* The running sum in lanes, by shifted adds (integers: any order gives the same sums). Lanes past
       n read zero. */
    PU32 v = {0};
    if (n == PIXELS) {
        memcpy(&v, line + x, sizeof v);
        memset(line + x, 0, sizeof v);
    } else {
        for (intptr_t j = 0; j < n; j++) {
            v[j] = (uint32_t)line[x + j];
            line[x + j] = 0;
        }
    }
    PU32 zero = {0};
    v += __builtin_shufflevector(zero, v, SHIFT_UP(1));
    v += __builtin_shufflevector(zero, v, SHIFT_UP(2));
#if PIXELS >= 8
    v += __builtin_shufflevector(zero, v, SHIFT_UP(4));
#endif
#if PIXELS >= 16
    v += __builtin_shufflevector(zero, v, SHIFT_UP(8));
#endif
    v += (uint32_t)sum;
    PI32 sums = (PI32)v;
    sum = sums[PIXELS - 1];
    PI32 cover = K(rule_lanes)(sums, r->even_odd, r->minimum);
    if (skip > 0) {
        PI32 lane = {0};
        for (int j = 0; j < PIXELS; j++) lane[j] = j;
        cover &= lane >= (int32_t)skip;
    }
    if (n == PIXELS) {
        K(solid_lanes)(r, out + 4 * x, cover, color, keep, add);
    } else {
        uint8_t copy[LANES];
        K(copy_in)(copy, out + 4 * x, n);
        K(solid_lanes)(r, copy, cover, color, keep, add);
        K(copy_out)(out + 4 * x, copy, n);
    }
    return sum;
}

#if PIXELS == 16
/* The AVX2 variant's groups (AVX2.c), eight cells at a time: sixteen had cost a rectangle's side
   (one or two touched cells) a chain of sixteen dependent sums and four registers of float lanes,
   where eight cost half (rects: 0.92× with sixteen, against the Swift walk's four). */
int32_t reel_kernels_avx2_solid_group(
    const reel_solid_rows *r, uint8_t *out, int32_t *line, intptr_t x, intptr_t n, int32_t sum, intptr_t skip);
#define GROUP 8
#else
#define GROUP PIXELS
#endif

/* Each row: runs of untouched cells (one coverage) to `solid_run`; from a touched cell on, GROUP
   cells at a time (fewer before c1) through `solid_group`. Every pixel's bytes depend only on its
   running sum, so how the row is cut into runs and groups does not change them. The cells read, the
   one past c1 and the row's touched bits are cleared. */
TARGET static void K(solid_rows)(reel_solid_rows r) {
    intptr_t limit = r.span.c1 + 1;
    for (intptr_t row = 0; row < r.span.rows; row++) {
        K(cell_row) cr = K(row_of)(&r.span, row);
        int32_t *line = cr.line;
        uint64_t *bits = cr.bits;
        uint8_t *out = cr.out;
        int32_t sum = 0;
        intptr_t x = r.span.c0;
        while (x < limit) {
            if (((bits[x >> 6] >> (x & 63)) & 1) == 0) {
                intptr_t end = K(first_touched)(bits, x, limit);
                float c = K(rule_coverage)(sum, r.even_odd);
                if (c > r.minimum) K(solid_run)(&r, out + 4 * x, end - x, c);
                x = end;
                continue;
            }
            /* A row's last cells, fewer than a group, as the whole group ending there: the cells
               before x in it are walked (zero) and their pixels skipped, where a partial group went
               cell by cell through a copy. */
            intptr_t n = GROUP, skip = 0;
            if (limit - x < GROUP) {
                if (limit - r.span.c0 >= GROUP) {
                    skip = x - (limit - GROUP);
                    x = limit - GROUP;
                } else {
                    n = limit - x;
                }
            }
#if PIXELS == 16
            sum = reel_kernels_avx2_solid_group(&r, out, line, x, n, sum, skip);
#else
            sum = K(solid_group)(&r, out, line, x, n, sum, skip);
#endif
            x += n;
        }
        K(end_row)(&r.span, cr);
    }
}

#undef PF32
#undef SHIFT_UP
#undef GROUP
#undef SPREAD4
