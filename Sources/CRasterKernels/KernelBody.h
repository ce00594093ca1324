/* The kernels' one source, included once per variant (Portable.c, AVX2.c, AVX512.c) with its lane
   width and target attribute: PIXELS pixels an iteration in 4 · PIXELS 16-bit lanes. */

/* Set by the including file: VARIANT (a name suffix), TARGET (the function attribute), PIXELS (4, 8
   or 16: a divisor of 64, as an image span's coordinates are taken again every 64 pixels); on x86-64,
   NATIVE (a register of 2 · PIXELS 16-bit lanes) and MULHI_NATIVE (its `pmulhuw`). */
#if !defined(VARIANT) || !defined(TARGET) || !defined(PIXELS)
#error "KernelBody.h needs VARIANT, TARGET and PIXELS"
#endif

#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "CRasterKernels.h"

/* The portable kernels, which the wider variants hand spans of a few pixels (Portable.c). */
void reel_kernels_portable_axial(uint8_t *out, reel_axial_span span);
void reel_kernels_portable_axial_at(uint8_t *out, const reel_axial_span *span);
void reel_kernels_portable_image(uint8_t *out, reel_image_span span);

/* Float operations exactly as written, in the portable order: a variant whose instruction set has
   fused multiply-add must not fuse (nor reorder) where the portable one cannot, or its bytes differ. */
#pragma STDC FP_CONTRACT OFF
#pragma clang fp contract(off)
#pragma clang fp reassociate(off)

/* The helpers below take and return vectors wider than the narrower variants' registers, which would
   change how they are passed if they were ever called; they are always inlined, so never are. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"

#define KERNEL_NAME2(a, b) a##_##b
#define KERNEL_NAME(a, b) KERNEL_NAME2(a, b)
#define K(name) KERNEL_NAME(name, VARIANT)
#define LANES (PIXELS * 4)
#define INLINE static inline __attribute__((always_inline)) TARGET

typedef uint8_t K(u8v) __attribute__((ext_vector_type(LANES)));
typedef uint16_t K(u16v) __attribute__((ext_vector_type(LANES)));
typedef int16_t K(i16v) __attribute__((ext_vector_type(LANES)));
typedef uint32_t K(u32v) __attribute__((ext_vector_type(LANES)));
typedef float K(f32v) __attribute__((ext_vector_type(LANES)));
typedef uint32_t K(pu32) __attribute__((ext_vector_type(PIXELS)));
typedef uint64_t K(pu64) __attribute__((ext_vector_type(PIXELS)));
typedef int32_t K(pi32) __attribute__((ext_vector_type(PIXELS)));
typedef uint32_t K(hu32) __attribute__((ext_vector_type(PIXELS / 2)));
typedef uint64_t K(hu64) __attribute__((ext_vector_type(PIXELS / 2)));
#define U8V K(u8v)
#define U16V K(u16v)
#define I16V K(i16v)
#define U32V K(u32v)
#define F32V K(f32v)
#define PU32 K(pu32)
#define PU64 K(pu64)
#define PI32 K(pi32)

/* A pixel's four lanes repeated over every pixel (a constant shuffle mask of LANES entries). */
#define REPEAT4_PIXELS_4 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3
#define REPEAT4_PIXELS_8 REPEAT4_PIXELS_4, REPEAT4_PIXELS_4
#define REPEAT4_PIXELS_16 REPEAT4_PIXELS_8, REPEAT4_PIXELS_8
#define REPEAT4_N2(n) REPEAT4_PIXELS_##n
#define REPEAT4_N(n) REPEAT4_N2(n)
#define REPEAT4 REPEAT4_N(PIXELS)

/* Each pixel's lane 3 over its four lanes (a shuffle mask of LANES entries). */
#define ALPHA4_PIXELS_4 3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15
#define ALPHA4_PIXELS_8 ALPHA4_PIXELS_4, 19, 19, 19, 19, 23, 23, 23, 23, 27, 27, 27, 27, 31, 31, 31, 31
#define ALPHA4_PIXELS_16 \
    ALPHA4_PIXELS_8, 35, 35, 35, 35, 39, 39, 39, 39, 43, 43, 43, 43, 47, 47, 47, 47, 51, 51, 51, 51, 55, 55, 55, 55, 59, 59, 59, \
        59, 63, 63, 63, 63
#define ALPHA4_N2(n) ALPHA4_PIXELS_##n
#define ALPHA4_N(n) ALPHA4_N2(n)
#define ALPHA4 ALPHA4_N(PIXELS)

typedef float K(f32x4) __attribute__((ext_vector_type(4)));

/* Built in registers, not lane by lane: a vector filled element by element in a loop went through
   the stack, each store followed by a wide reload (solid's set-up took four times its pixels). */
INLINE U16V K(splat16)(uint16_t x) {
    U16V v = {0};
    return v + x;
}

/* The high halves of the 32-bit products (`pmulhuw`). On x86-64 through the instruction on the
   variant's two registers: spelled with 32-bit products, the compiler widened every operand first. */
INLINE U16V K(mulhi)(U16V a, U16V b) {
#if defined(MULHI_NATIVE)
    NATIVE x[2], y[2], r[2];
    memcpy(x, &a, sizeof a);
    memcpy(y, &b, sizeof b);
    r[0] = MULHI_NATIVE(x[0], y[0]);
    r[1] = MULHI_NATIVE(x[1], y[1]);
    U16V out;
    memcpy(&out, r, sizeof out);
    return out;
#else
    return __builtin_convertvector((__builtin_convertvector(a, U32V) * __builtin_convertvector(b, U32V)) >> 16, U16V);
#endif
}

INLINE U8V K(load)(const uint8_t *p) {
    U8V v;
    memcpy(&v, p, sizeof v);
    return v;
}

INLINE void K(store)(uint8_t *p, U8V v) { memcpy(p, &v, sizeof v); }

/* Bytes as the high bytes of 16-bit lanes (8.8). */
INLINE U16V K(high_bytes)(U8V b) { return __builtin_convertvector(b, U16V) << 8; }

/* Each pixel's lane 3 over its four lanes. */
INLINE U16V K(alpha_lanes)(U16V s) {
    PU64 a = ((PU64)s) >> 48;
    a |= a << 16;
    a |= a << 32;
    return (U16V)a;
}

/* One 16-bit value a pixel, over its four lanes. */
INLINE U16V K(pixel_lanes)(PU32 v) {
    PU64 a = __builtin_convertvector(v & 0xFFFFu, PU64);
    a |= a << 16;
    a |= a << 32;
    return (U16V)a;
}

/* Premultiplied 8.8 colours over the destination's bytes, `a` their alphas over each pixel's lanes:
   s + d · (1 − a/255), the factor (65280 − a) · (1 + 1/256) in 0.16, rounded half up to bytes. */
INLINE U8V K(over)(U16V s, U16V a, U8V bytes) {
    U16V inverse = K(splat16)(65280) - a;
    U16V k = inverse + (inverse >> 8);
    return __builtin_convertvector((s + K(mulhi)(K(high_bytes)(bytes), k) + (uint16_t)128) >> 8, U8V);
}

/* A coverage (0…1) in 0.16, 1 held to 65535, rounded by adding 2²³ (Fixed87.spread). */
INLINE uint16_t K(spread)(float c) {
    float scaled = c * 65536.0f;
    float held = scaled > 65535.0f ? 65535.0f : scaled;
    float t = held + 8388608.0f;
    uint32_t bits;
    memcpy(&bits, &t, sizeof bits);
    return (uint16_t)bits;
}

/* Each coverage of pixels i ..< i + PIXELS (zero past `count`) in 0.16 over its pixel's lanes,
   scaled by `k` first (an image's opacity; 1 leaves it). */
INLINE U16V K(coverage_lanes)(const float *coverages, intptr_t i, intptr_t count, float k, int scale) {
    PU32 c = {0};
#pragma clang loop unroll(full)
    for (int j = 0; j < PIXELS; j++) {
        if (i + j < count) c[j] = K(spread)(scale ? coverages[i + j] * k : coverages[i + j]);
    }
    return K(pixel_lanes)(c);
}

/* Keeps a value in a general register: index arithmetic stepped pixel by pixel, which the compiler
   otherwise packs into vector lanes and takes out again lane by lane for the loads (SSE2 has no
   instruction for a lane but the first). */
#define IN_REGISTER(x) __asm__("" : "+r"(x))

/* 0, 1, … PIXELS − 1, and the halves of PIXELS lanes. */
#define SEQ_4 0, 1, 2, 3
#define SEQ_8 0, 1, 2, 3, 4, 5, 6, 7
#define SEQ_16 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#define HIGH_8 4, 5, 6, 7
#define HIGH_16 8, 9, 10, 11, 12, 13, 14, 15
#define SEQ_N2(n) SEQ_##n
#define SEQ_N(n) SEQ_N2(n)
#define SEQ SEQ_N(PIXELS)
#define HALF_N2(n) SEQ_N(n)
#define HIGH_N2(n) HIGH_##n
#define HIGH_N(n) HIGH_N2(n)

#if defined(__x86_64__) && PIXELS >= 8
/* Indices worked out in lanes and eight bytes loaded at each (`vpgatherdq`): the wide variants'
   loads, where each pixel's two loads and inserts had cost more than its arithmetic. */
#define GATHER 1
#if PIXELS == 16
#define HALF_LOW SEQ_8
#define HALF_HIGH HIGH_16
#else
#define HALF_LOW SEQ_4
#define HALF_HIGH HIGH_8
#endif
INLINE PU64 K(gather64)(const void *base, PU32 offsets) {
    K(hu32) low = __builtin_shufflevector(offsets, offsets, HALF_LOW);
    K(hu32) high = __builtin_shufflevector(offsets, offsets, HALF_HIGH);
#if PIXELS == 16
    K(hu64) a = (K(hu64))_mm512_i32gather_epi64((__m256i)low, base, 1);
    K(hu64) b = (K(hu64))_mm512_i32gather_epi64((__m256i)high, base, 1);
#else
    K(hu64) a = (K(hu64))_mm256_i32gather_epi64((const long long *)base, (__m128i)low, 1);
    K(hu64) b = (K(hu64))_mm256_i32gather_epi64((const long long *)base, (__m128i)high, 1);
#endif
    return __builtin_shufflevector(a, b, SEQ);
}
#endif

INLINE PI32 K(clamped_lanes)(PI32 v, int32_t top) {
    PI32 positive = v & ~(v >> 31);
    PI32 below = (positive - top) >> 31;
    return (positive & below) | (top & ~below);
}

/* Each lane kept within 0…top (Fixed87.clamped): integer operations on 32-bit lanes. */
INLINE int32_t K(clamped)(int32_t v, int32_t top) {
    int32_t positive = v & ~(v >> 31);
    int32_t below = (positive - top) >> 31;
    return (positive & below) | (top & ~below);
}

/* x rounded to an integer, ties to even, from the low bits of x + 1.5 · 2⁵² (|x| < 2³¹). */
INLINE int32_t K(nearest_i32)(double x) {
    double t = x + 6755399441055744.0;
    uint64_t bits;
    memcpy(&bits, &t, sizeof bits);
    return (int32_t)(uint32_t)bits;
}

/* The last 1 … PIXELS − 1 pixels of a span into a copy of a whole iteration's bytes and back, so they
   go through the same lanes: masked loads and stores where the instruction set has them, whole words
   otherwise (a copy of a variable length was a call to memcpy, its bytes then read back wide). */
INLINE void K(copy_in)(uint8_t *copy, const uint8_t *p, intptr_t n) {
#if defined(__x86_64__) && PIXELS == 16
    _mm512_storeu_si512(copy, _mm512_maskz_loadu_epi32((__mmask16)((1u << n) - 1), p));
#elif defined(__x86_64__) && PIXELS == 8
    __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    _mm256_storeu_si256((__m256i *)copy, _mm256_maskload_epi32((const int *)p, mask));
#else
    /* Whole words of a constant count: a loop of them became a call to memcpy. */
    memset(copy, 0, LANES);
    switch (n) {
    case 1: memcpy(copy, p, 4); break;
    case 2: memcpy(copy, p, 8); break;
    default: memcpy(copy, p, 12); break;
    }
#endif
}

INLINE void K(copy_out)(uint8_t *p, const uint8_t *copy, intptr_t n) {
#if defined(__x86_64__) && PIXELS == 16
    _mm512_mask_storeu_epi32(p, (__mmask16)((1u << n) - 1), _mm512_loadu_si512(copy));
#elif defined(__x86_64__) && PIXELS == 8
    __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    _mm256_maskstore_epi32((int *)p, mask, _mm256_loadu_si256((const __m256i *)copy));
#else
    switch (n) {
    case 1: memcpy(p, copy, 4); break;
    case 2: memcpy(p, copy, 8); break;
    default: memcpy(p, copy, 12); break;
    }
#endif
}

/* `STEP(p, i)` over the `count` pixels from `out`, PIXELS at a time (pixel `i` at `p`); the last, partial
   group through a copy of its pixels, so that a step always reads and writes whole lanes. */
#define EACH_GROUP(out, count, STEP)                                                                        \
    do {                                                                                                    \
        intptr_t i = 0;                                                                                     \
        for (; i + PIXELS <= (count); i += PIXELS) STEP((out) + 4 * i, i);                                  \
        if (i < (count)) {                                                                                  \
            uint8_t copy[LANES];                                                                            \
            K(copy_in)(copy, (out) + 4 * i, (count) - i);                                                   \
            STEP(copy, i);                                                                                  \
            K(copy_out)((out) + 4 * i, copy, (count) - i);                                                  \
        }                                                                                                   \
    } while (0)

TARGET static void K(fill)(uint8_t *out, intptr_t count, uint32_t word) {
    for (intptr_t i = 0; i < count; i++) memcpy(out + 4 * i, &word, 4);
}

TARGET static void K(solid)(uint8_t *out, intptr_t count, uint16_t keep, uint64_t add) {
    PU64 add64 = {0};
    U16V addv = (U16V)(add64 + add);
    U16V keepv = K(splat16)(keep);
#define SOLID_STEP(p, i) K(store)(p, __builtin_convertvector((K(mulhi)(K(high_bytes)(K(load)(p)), keepv) + addv) >> 8, U8V))
    EACH_GROUP(out, count, SOLID_STEP);
#undef SOLID_STEP
}

TARGET static void K(solid_float)(uint8_t *out, intptr_t count, reel_rgba_f s, float inverse) {
    K(f32x4) one = {s.r, s.g, s.b, s.a};
    F32V sv = __builtin_shufflevector(one, one, REPEAT4);
    /* s + d · inverse, then + 1.5 · 2²³: the rounded value in the low bits (BlendKernels.swift's `pack`). */
#define FLOAT_STEP(p, i)                                                                                    \
    do {                                                                                                    \
        F32V r = sv + __builtin_convertvector(K(load)(p), F32V) * inverse;                                  \
        K(store)(p, __builtin_convertvector((U32V)(r + 12582912.0f), U8V));                                 \
    } while (0)
    EACH_GROUP(out, count, FLOAT_STEP);
#undef FLOAT_STEP
}

TARGET static void K(composite)(uint8_t *out, const uint8_t *src, intptr_t count, float factor) {
    const float unit = 1.0f / 255.0f;
#define COMPOSITE_STEP(p, s8)                                                                               \
    do {                                                                                                    \
        F32V s = __builtin_convertvector(s8, F32V) * factor;                                                \
        F32V inverse = 1.0f - __builtin_shufflevector(s, s, ALPHA4) * unit;                                 \
        F32V r = s + __builtin_convertvector(K(load)(p), F32V) * inverse;                                   \
        K(store)(p, __builtin_convertvector((U32V)(r + 12582912.0f), U8V));                                 \
    } while (0)
    intptr_t i = 0;
    for (; i + PIXELS <= count; i += PIXELS) {
        U8V s8 = K(load)(src + 4 * i);
        /* A transparent source leaves the pixels: most of a blurred picture's margin. */
        uint64_t words[LANES / 8], any = 0;
        memcpy(words, &s8, sizeof words);
        for (int k = 0; k < LANES / 8; k++) any |= words[k];
        if (any == 0) continue;
        COMPOSITE_STEP(out + 4 * i, s8);
    }
    if (i < count) {
        uint8_t copy[LANES];
        U8V s8 = {0};
        memcpy(&s8, src + 4 * i, (size_t)(count - i) * 4);
        K(copy_in)(copy, out + 4 * i, count - i);
        COMPOSITE_STEP(copy, s8);
        K(copy_out)(out + 4 * i, copy, count - i);
    }
#undef COMPOSITE_STEP
}

/* The axial gradient's state along a span: the dither lanes from its first pixel on, and the float
   lanes' parameters (stepped four pixels at a time, as the portable order has them). */
typedef struct K(axial_state) {
    /* Read where it is: a copy of a span just made field by field (as `axial_rows` makes them) read
       the narrow stores back wide, a stalled store forwarding each. */
    const reel_axial_span *span;
    /* The dither lanes of pixels x0 … x0 + max(7, PIXELS − 1). */
    int16_t dither[PIXELS == 16 ? 64 : 32];
    float t[4];
    float step4;
    U16V coverage;
} K(axial_state);

/* How an axial span's indices are made (AXIAL_INSIDE: 16.16, none clamped; AXIAL_CLAMPED: 16.16,
   clamped to the ramp; AXIAL_FLOAT: float lanes) and how its pixels are covered (COVER_FULL: not
   scaled; COVER_CONSTANT: one coverage; COVER_VARYING: each its own): constants in each loop, so no
   loop tests them. */
enum { AXIAL_INSIDE, AXIAL_CLAMPED, AXIAL_FLOAT };
enum { COVER_FULL, COVER_CONSTANT, COVER_VARYING };

/* Pixels i ..< i + PIXELS of the span, from and into `p`. */
INLINE void K(axial_step)(K(axial_state) *st, uint8_t *p, intptr_t i, const int mode, const int cover) {
    const reel_axial_span *span = st->span;
    uint32_t k[PIXELS];
    uint32_t index = (uint32_t)span->first + (uint32_t)span->step * (uint32_t)i;
    if (mode == AXIAL_INSIDE) {
#pragma clang loop vectorize(disable) unroll(full)
        for (int j = 0; j < PIXELS; j++) {
            k[j] = index >> 16;
            index += (uint32_t)span->step;
            IN_REGISTER(index);
        }
    } else if (mode == AXIAL_CLAMPED) {
        int32_t top = (int32_t)((uint32_t)span->ramp_size << 16) - 1;
#pragma clang loop vectorize(disable) unroll(full)
        for (int j = 0; j < PIXELS; j++) {
            k[j] = (uint32_t)K(clamped)((int32_t)index, top) >> 16;
            index += (uint32_t)span->step;
            IN_REGISTER(index);
        }
    } else {
        /* AxialLanes.indices: the parameter clamped to 0…1 on its bits, scaled to the ramp and rounded. */
        float last = (float)(span->ramp_size - 1);
        uint32_t mask = (uint32_t)(span->ramp_size - 1);
        for (int g = 0; g < PIXELS; g += 4) {
            for (int m = 0; m < 4; m++) {
                int32_t bits;
                memcpy(&bits, &st->t[m], sizeof bits);
                int32_t c = K(clamped)(bits, 0x3F800000);
                float clamped;
                memcpy(&clamped, &c, sizeof clamped);
                float scaled = clamped * last + 12582912.0f;
                uint32_t sb;
                memcpy(&sb, &scaled, sizeof sb);
                k[g + m] = sb & mask;
                st->t[m] += st->step4;
            }
        }
    }
    /* Each entry (eight bytes, r g b a) read whole; each pixel's alpha spread over its lanes. */
    PU64 colors64;
#pragma clang loop unroll(full)
    for (int j = 0; j < PIXELS; j++) {
        uint64_t e;
        memcpy(&e, span->ramp + 4 * k[j], 8);
        colors64[j] = e;
    }
    I16V colors = (I16V)colors64, alphas = __builtin_shufflevector(colors, colors, ALPHA4);
    I16V dither;
    memcpy(&dither, st->dither + 4 * (i & 7), sizeof dither);
    I16V zero = {0};
    I16V s7 = __builtin_elementwise_min(__builtin_elementwise_max(colors + dither, zero), alphas);
    U16V s = ((U16V)s7) << 1;
    U16V a = ((U16V)alphas) << 1;
    if (cover != COVER_FULL) {
        U16V c = cover == COVER_VARYING ? K(coverage_lanes)(span->coverages, i, span->count, 1, 0) : st->coverage;
        s = K(mulhi)(s, c);
        a = K(mulhi)(a, c);
    }
    K(store)(p, K(over)(s, a, K(load)(p)));
}

INLINE void K(axial_run)(K(axial_state) *st, uint8_t *out, const int mode, const int cover) {
#define AXIAL_STEP(p, i) K(axial_step)(st, p, i, mode, cover)
    EACH_GROUP(out, st->span->count, AXIAL_STEP);
#undef AXIAL_STEP
}

TARGET static void K(axial_at)(uint8_t *out, const reel_axial_span *span) {
#if PIXELS > 4
    /* A few pixels (an edge's stretch) in four-pixel lanes: the same bytes, without a whole
       iteration of lanes for them. */
    if (span->count <= 4) {
        reel_kernels_portable_axial_at(out, span);
        return;
    }
#endif
    K(axial_state) st;
    st.span = span;
    /* Pixels x0 … x0 + 7 from two places of the pattern (it repeats every eight columns). */
    const int16_t *first_four = span->dither + 16 * (span->dither_row + (span->x0 & 7));
    const int16_t *next_four = span->dither + 16 * (span->dither_row + ((span->x0 + 4) & 7));
    memcpy(st.dither, first_four, 32);
    memcpy(st.dither + 16, next_four, 32);
    /* Sixteen pixels: the same eight again, from the table (read back from `st.dither` as one wide
       load, the two narrower stores just made stalled its store forwarding: 10 % of this kernel's
       samples on rects_linear). */
    if (PIXELS == 16) {
        memcpy(st.dither + 32, first_four, 32);
        memcpy(st.dither + 48, next_four, 32);
    }
    for (int m = 0; m < 4; m++) st.t[m] = span->t + span->dt * (float)m;
    st.step4 = span->dt * 4;
    st.coverage = K(splat16)(span->coverage);
    /* Every lane's index (the span rounded up to whole iterations) inside the ramp: none needs
       clamping, as the steps are affine. */
    int64_t last = (int64_t)span->first + (int64_t)span->step * (((span->count + PIXELS - 1) & ~(intptr_t)(PIXELS - 1)) - 1);
    int64_t top = (int64_t)span->ramp_size << 16;
    int inside = span->first >= 0 && span->first < top && last >= 0 && last < top;
    int mode = !span->fixed_point ? AXIAL_FLOAT : inside ? AXIAL_INSIDE : AXIAL_CLAMPED;
    int cover = !span->partial ? COVER_FULL : span->coverages ? COVER_VARYING : COVER_CONSTANT;
    switch (mode * 3 + cover) {
    case AXIAL_INSIDE * 3 + COVER_FULL: K(axial_run)(&st, out, AXIAL_INSIDE, COVER_FULL); break;
    case AXIAL_INSIDE * 3 + COVER_CONSTANT: K(axial_run)(&st, out, AXIAL_INSIDE, COVER_CONSTANT); break;
    case AXIAL_INSIDE * 3 + COVER_VARYING: K(axial_run)(&st, out, AXIAL_INSIDE, COVER_VARYING); break;
    case AXIAL_CLAMPED * 3 + COVER_FULL: K(axial_run)(&st, out, AXIAL_CLAMPED, COVER_FULL); break;
    case AXIAL_CLAMPED * 3 + COVER_CONSTANT: K(axial_run)(&st, out, AXIAL_CLAMPED, COVER_CONSTANT); break;
    case AXIAL_CLAMPED * 3 + COVER_VARYING: K(axial_run)(&st, out, AXIAL_CLAMPED, COVER_VARYING); break;
    case AXIAL_FLOAT * 3 + COVER_FULL: K(axial_run)(&st, out, AXIAL_FLOAT, COVER_FULL); break;
    case AXIAL_FLOAT * 3 + COVER_CONSTANT: K(axial_run)(&st, out, AXIAL_FLOAT, COVER_CONSTANT); break;
    default: K(axial_run)(&st, out, AXIAL_FLOAT, COVER_VARYING); break;
    }
}

TARGET static void K(axial)(uint8_t *out, reel_axial_span span) { K(axial_at)(out, &span); }

/* The image's state along a span: the 16.16 coordinates of the current 64 pixels' first. */
typedef struct K(image_state) {
    reel_image_span span;
    int32_t step_u, step_v, last_u, last_v;
    int32_t anchor_u, anchor_v;
    U16V factor;
} K(image_state);

/* A texel pair: the texel at `offset` and the one right of it, as one 8-byte load. */
INLINE uint64_t K(texel_pair)(const uint8_t *texels, intptr_t offset) {
    uint64_t t;
    memcpy(&t, texels + offset, 8);
    return t;
}

INLINE void K(image_step)(K(image_state) *st, uint8_t *p, intptr_t i, const int cover) {
    const reel_image_span *span = &st->span;
    if ((i & 63) == 0 && i > 0) {
        /* The steps' rounding adds up along a span: taken again from the doubles every 64 pixels. */
        st->anchor_u = K(nearest_i32)((span->u + (double)i * span->du) * 65536.0);
        st->anchor_v = K(nearest_i32)((span->v + (double)i * span->dv) * 65536.0);
    }
    intptr_t row = span->width * 4;
    PU64 top, bottom;
    PU32 fx, fy;
#if defined(GATHER)
    PU32 lanes = {SEQ};
    PU32 m = (uint32_t)(i & 63) + lanes;
    PI32 u = K(clamped_lanes)((PI32)((uint32_t)st->anchor_u + (uint32_t)st->step_u * m), st->last_u);
    PI32 v = K(clamped_lanes)((PI32)((uint32_t)st->anchor_v + (uint32_t)st->step_v * m), st->last_v);
    PU32 base = ((PU32)(v >> 16) * (uint32_t)span->width + (PU32)(u >> 16)) * 4;
    top = K(gather64)(span->texels, base);
    bottom = K(gather64)(span->texels, base + (uint32_t)row);
    fx = (PU32)u;
    fy = (PU32)v;
#else
    uint32_t m = (uint32_t)(i & 63);
    uint32_t uu = (uint32_t)st->anchor_u + (uint32_t)st->step_u * m, vv = (uint32_t)st->anchor_v + (uint32_t)st->step_v * m;
#pragma clang loop vectorize(disable) unroll(full)
    for (int j = 0; j < PIXELS; j++) {
        int32_t u = K(clamped)((int32_t)uu, st->last_u), v = K(clamped)((int32_t)vv, st->last_v);
        uu += (uint32_t)st->step_u;
        vv += (uint32_t)st->step_v;
        IN_REGISTER(uu);
        IN_REGISTER(vv);
        intptr_t base = ((intptr_t)(v >> 16) * span->width + (intptr_t)(u >> 16)) * 4;
        top[j] = K(texel_pair)(span->texels, base);
        bottom[j] = K(texel_pair)(span->texels, base + row);
        fx[j] = (uint32_t)u;
        fy[j] = (uint32_t)v;
    }
#endif
    /* Each pair's left texel in its low half, its right one in its high half. */
    PU32 tl = __builtin_convertvector(top, PU32), tr = __builtin_convertvector(top >> 32, PU32);
    PU32 bl = __builtin_convertvector(bottom, PU32), br = __builtin_convertvector(bottom >> 32, PU32);
    U16V wy = K(pixel_lanes)(fy), wx = K(pixel_lanes)(fx);
    U16V ones = K(splat16)(65535);
    /* Down the two rows, then across the two columns, each weight pair summing to 65535/65536. */
    U16V left = K(mulhi)(K(high_bytes)((U8V)tl), ones - wy) + K(mulhi)(K(high_bytes)((U8V)bl), wy);
    U16V right = K(mulhi)(K(high_bytes)((U8V)tr), ones - wy) + K(mulhi)(K(high_bytes)((U8V)br), wy);
    U16V s = K(mulhi)(left, ones - wx) + K(mulhi)(right, wx);
    if (cover != COVER_FULL) {
        U16V f = cover == COVER_VARYING ? K(coverage_lanes)(span->coverages, i, span->count, span->opacity, 1) : st->factor;
        s = K(mulhi)(s, f);
    }
    K(store)(p, K(over)(s, K(alpha_lanes)(s), K(load)(p)));
}

INLINE void K(image_run)(K(image_state) *st, uint8_t *out, const int cover) {
#define IMAGE_STEP(p, i) K(image_step)(st, p, i, cover)
    EACH_GROUP(out, st->span.count, IMAGE_STEP);
#undef IMAGE_STEP
}

TARGET static void K(image)(uint8_t *out, reel_image_span span) {
#if PIXELS > 4
    if (span.count <= 4) {
        reel_kernels_portable_image(out, span);
        return;
    }
#endif
    K(image_state) st;
    st.span = span;
    st.step_u = K(nearest_i32)(span.du * 65536.0);
    st.step_v = K(nearest_i32)(span.dv * 65536.0);
    /* A sample clamped to just before the last texel's centre: its pair starts at w − 2 (h − 2). */
    st.last_u = (int32_t)((uint32_t)(span.width - 1) << 16) - 1;
    st.last_v = (int32_t)((uint32_t)(span.height - 1) << 16) - 1;
    st.anchor_u = K(nearest_i32)(span.u * 65536.0);
    st.anchor_v = K(nearest_i32)(span.v * 65536.0);
    st.factor = K(splat16)(span.factor);
    int cover = !span.scaled ? COVER_FULL : span.coverages ? COVER_VARYING : COVER_CONSTANT;
    switch (cover) {
    case COVER_FULL: K(image_run)(&st, out, COVER_FULL); break;
    case COVER_CONSTANT: K(image_run)(&st, out, COVER_CONSTANT); break;
    default: K(image_run)(&st, out, COVER_VARYING); break;
    }
}

#include "SolidRowsBody.h"
#include "AxialRowsBody.h"
#include "ImageRowsBody.h"
#include "FilterRowsBody.h"

/* The variant's table. */
static const reel_raster_kernels K(table) = {
    .fill = K(fill), .solid = K(solid), .solid_float = K(solid_float), .axial = K(axial), .image = K(image),
    .solid_rows = K(solid_rows), .axial_rows = K(axial_rows), .image_rows = K(image_rows),
    .blur_cells = K(blur_cells), .blur_grid = K(blur_grid), .blur_row = K(blur_row), .color_matrix = K(color_matrix),
    .composite = K(composite),
};

#pragma clang diagnostic pop

#undef U8V
#undef U16V
#undef I16V
#undef U32V
#undef F32V
#undef PU32
#undef PU64
#undef PI32
#undef SEQ
#undef HALF_LOW
#undef HALF_HIGH
#undef GATHER
#undef REPEAT4
#undef ALPHA4
#undef IN_REGISTER
#undef NATIVE
#undef MULHI_NATIVE
#undef EACH_GROUP
#undef INLINE
#undef LANES
#undef K
