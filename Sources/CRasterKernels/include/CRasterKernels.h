/* ReelRaster's pixel kernels in C, one table of them per instruction set (portable, AVX2, AVX-512). */
#ifndef REEL_CRASTERKERNELS_H
#define REEL_CRASTERKERNELS_H

#include <stdint.h>

/* Every variant gives the same bytes as the portable one for the same arguments (integer and
   fixed-point arithmetic, and float operations in the portable order, never fused): shards of one
   clip drawn on different machines must join without a seam. */

/* A colour premultiplied, 0…255 per channel, as floats. */
typedef struct reel_rgba_f {
    float r, g, b, a;
} reel_rgba_f;

/* An axial gradient's span (GradientLanes.swift's AxialLanes): ramp indices stepped in 16.16 fixed
   point (`fixed_point`: index + ½ of the first pixel and its step) or, where the parameter reaches
   beyond ±16, in float lanes of four stepped from `t` and `dt` as Swift's SIMD4 did; dithered,
   scaled by the coverage and composited in 16-bit lanes (Fixed87). */
typedef struct reel_axial_span {
    /* The ramp in 8.7: four int16 an entry, r g b a. */
    const int16_t *_Nonnull ramp;
    /* The dither offsets in 8.7 for each place of the 8 × 8 pattern (row · 8 + column), 16 lanes a
       place: the offsets of the four pixels from it on, each over r, g, b and 0 on alpha. */
    const int16_t *_Nonnull dither;
    /* Each pixel's coverage (0…1, readable to `count`), or NULL: every pixel at `coverage`. */
    const float *_Nullable coverages;
    intptr_t count;
    /* The first pixel's column and the dither pattern's row (`(y & 7) · 8`). */
    intptr_t x0;
    intptr_t dither_row;
    int32_t first;
    int32_t step;
    float t;
    float dt;
    int32_t fixed_point;
    int32_t ramp_size;
    /* Coverage in 0.16, used where `partial` and `coverages` is NULL. */
    uint16_t coverage;
    int32_t partial;
} reel_axial_span;

/* An image's span (ImageLanes.swift): texel coordinates in 16.16, taken from doubles every 64 pixels
   and stepped between, clamped to the image, bilinear in 0.16 weights, source-over in 8.8. */
typedef struct reel_image_span {
    /* Premultiplied RGBA, `width` × `height` (both 2…16,383). */
    const uint8_t *_Nonnull texels;
    intptr_t width;
    intptr_t height;
    /* The first pixel's texel coordinates (minus ½) and their steps along the row. */
    double u, v, du, dv;
    /* Each pixel's coverage, scaled by `opacity`, or NULL: every pixel at `factor` (0.16). */
    const float *_Nullable coverages;
    float opacity;
    uint16_t factor;
    /* Whether the factor applies (below 1, or coverages given). */
    int32_t scaled;
    intptr_t count;
} reel_image_span;

/* The rows a row kernel draws (`solid_rows`, `axial_rows`): where their pixels and their accumulated
   cells (`reel_cells`) are, and the columns c0 through c1 whose cells are summed. */
typedef struct reel_cell_rows {
    /* The first row's pixel of column 0, and the bytes from one row to the next. */
    uint8_t *_Nonnull out;
    intptr_t out_stride;
    /* The first row's cell of column 0, and the cells from one row to the next. */
    int32_t *_Nonnull cells;
    intptr_t cell_stride;
    /* The first row's touched bits (one a cell), and the words from one row to the next. */
    uint64_t *_Nonnull touched;
    intptr_t words_per_row;
    intptr_t rows;
    intptr_t c0;
    intptr_t c1;
} reel_cell_rows;

/* A solid colour's rows (BandPainter's fill): each row's accumulated cells (`reel_cells`) summed
   along the row from column c0 through c1, the fill rule applied, and the colour composited by the
   coverage (`fill` or `solid` where it is full, `solid_float`'s arithmetic below); zero cells leave
   the pixels as they are. The cells read, the cell past c1 and the row's touched bits are cleared. */
typedef struct reel_solid_rows {
    reel_cell_rows span;
    /* The colour, premultiplied, 0…255. */
    reel_rgba_f color;
    /* Coverage at most this leaves a pixel as it is. */
    float minimum;
    int32_t even_odd;
    /* An opaque colour's word, or the 8.8 source-over's `keep` and `add` (as for `solid`). */
    int32_t opaque;
    uint32_t word;
    uint16_t keep;
    uint64_t add;
} reel_solid_rows;

/* A padded axial gradient's rows under a non-zero fill (BandPainter's axial fill): each row's cells
   summed from column c0 through c1 as `reel_solid_rows` sums them, and cut as the walk in Swift cut
   them (CoverageScratch.quads): from a touched cell on, four cells at a time, each four through the
   `axial` kernel's lanes at their own coverages from their own first index; the runs of untouched
   cells between, above `minimum`, at one coverage: under full coverage with a packed table each
   pixel's word read from it, runs of one to three pixels from the float ramp through `blend`'s
   arithmetic, longer ones through `axial`. The cells read, the cell past c1 and the rows' touched
   bits are cleared. Returns the rows drawn: it stops before a row whose parameters are not finite
   below 10³⁰ (AxialLanes.row), which the caller walks in Swift. */
typedef struct reel_axial_rows {
    reel_cell_rows span;
    /* The first row, the canvas's column 0 (both absolute) and the canvas's width. */
    intptr_t y;
    intptr_t x0;
    intptr_t width;
    /* The gradient's inverse transform (x' = a·x + c·y + tx, y' = b·x + d·y + ty), its axis's start
       and the unit vector along the axis over its length (AxialLanes). */
    double a, b, c, d, tx, ty;
    double start_x, start_y, ux, uy;
    /* The ramp in 8.7 (as for `reel_axial_span`) and the dither offsets in 8.7 (Fixed87.ditherTable). */
    const int16_t *_Nonnull ramp87;
    const int16_t *_Nonnull dither;
    /* The ramp as premultiplied floats, four an entry, and the 64 dither offsets in levels. */
    const float *_Nonnull ramp;
    const float *_Nonnull dither_offsets;
    /* An opaque gradient's packed table (dither place · ramp_size + index), or NULL. */
    const uint32_t *_Nullable packed;
    int32_t ramp_size;
    /* Coverage at most this leaves a pixel as it is. */
    float minimum;
} reel_axial_rows;

/* An image's rows (BandPainter's image fill): each row's cells summed from column c0 through c1 and
   cut as the walk in Swift cut them (CoverageScratch.runs): a stretch of touched cells but its last
   through the `image` kernel at each pixel's own coverage; each run from there to the next touched
   cell, above `minimum`, at one coverage: four pixels or more through the `image` kernel, fewer
   bilinear in floats and blended as `blend` (ImageShader.shade, blendShaded). For images the `image`
   kernel takes (2…16,383 texels a side) under a transform that is not the identity, and samples
   within ±16,383 texels (BandPainter checks the shape's corners); the cells read, the cell past c1
   and the rows' touched bits are cleared. */
typedef struct reel_image_rows {
    reel_cell_rows span;
    /* The first row and the canvas's column 0, both absolute. */
    intptr_t y;
    intptr_t x0;
    /* The image's inverse transform (u = a·x + c·y + tx, v = b·x + d·y + ty; texel centres at
       integer + ½). */
    double a, b, c, d, tx, ty;
    /* Premultiplied RGBA, `width` × `height`. */
    const uint8_t *_Nonnull texels;
    intptr_t width;
    intptr_t height;
    float opacity;
    /* Coverage at most this leaves a pixel as it is. */
    float minimum;
    int32_t even_odd;
    /* Room for one stretch's coverages: c1 − c0 + 1 floats. */
    float *_Nonnull coverage;
} reel_image_rows;

/* A canvas's accumulation cells (CoverageScratch): one row of int32 cells a canvas row, a wholly
   covered pixel's cells summing to ±2¹⁹ (REEL_CELL_ONE), and a touched bit a cell. */
typedef struct reel_cells {
    /* The cell of the canvas's first row and column 0, and the cells from one row to the next. */
    int32_t *_Nonnull cells;
    intptr_t cell_stride;
    uint64_t *_Nonnull touched;
    intptr_t words_per_row;
    /* The canvas's first row and first column, absolute; its width in columns. */
    intptr_t canvas_y0;
    int64_t x0;
    intptr_t width;
} reel_cells;

enum { REEL_CELL_ONE = 1 << 19 };

/* Adds the parts of `count` edges (x0, y0, x1, y1 each, absolute) inside the absolute rows
   [row_lo, row_hi) to the cells, in 23.9 fixed point: the same cells on every CPU, and a row's cells
   the same whichever row the canvas starts at. Edges reaching past 2²⁶ (or NaN) add nothing. */
void reel_accumulate_edges(reel_cells cells, const double *_Nonnull edges, intptr_t count, intptr_t row_lo, intptr_t row_hi);

/* A coarse blur's grid (BandPainter.blurCoarse): `pw` × `ph` cells of four floats (premultiplied
   channels, 0…255), blurred by `taps` weights along rows into `across`, then down the columns back
   into `grid`. Each cell sums its taps in order from the first, skipping those outside the grid: the
   same floats as the Swift loops this replaced, and on every variant. */
typedef struct reel_blur_grid {
    float *_Nonnull grid;
    float *_Nonnull across;
    const float *_Nonnull kernel;
    intptr_t taps;
    intptr_t pw;
    intptr_t ph;
    /* The rows that hold content (the others are zero): the rows blurred along. */
    intptr_t rows_from;
    intptr_t rows_to;
    /* The rows of `grid` blurred down the columns: those the pixels are sampled from. */
    intptr_t out_from;
    intptr_t out_to;
} reel_blur_grid;

/* A coarse blur's cells (BandPainter.blurCoarse): each the mean of its pixels of premultiplied RGBA8
   (integer sums, exact in any order, times `scale`), written to `grid` from row 2 and column 2 on (a
   border of two cells left as they are). Cell rows start every `f` pixel rows after the first, which
   has `first_rows`; cell column c covers pixels edges[c] ..< edges[c + 1]. */
typedef struct reel_blur_cells {
    const uint8_t *_Nonnull pixels;
    intptr_t stride;
    intptr_t width;
    intptr_t rows;
    intptr_t first_rows;
    intptr_t f;
    const intptr_t *_Nonnull edges;
    intptr_t gw;
    float *_Nonnull grid;
    intptr_t pw;
    float scale;
    /* Room for 4 · width sums. */
    uint32_t *_Nonnull columns;
} reel_blur_cells;

/* One row of pixels sampled back from a blurred grid: the line between two grid rows (`top` +
   (`bottom` − `top`) · `tv`, `cells` cells of four floats into `line`), then each pixel between its
   two cells of the line (`left` + (`right` − `left`) · weight), stored as BandPainter.store stores:
   channels rounded to the nearest level, no colour above the rounded alpha. Every pixel's cell and
   the one after it lie in the line. */
typedef struct reel_blur_row {
    uint8_t *_Nonnull out;
    const float *_Nonnull top;
    const float *_Nonnull bottom;
    float tv;
    intptr_t cells;
    float *_Nonnull line;
    /* Each pixel's first cell and its weight. */
    const int32_t *_Nonnull pixel_cells;
    const float *_Nonnull weights;
    intptr_t count;
} reel_blur_row;

/* A colour matrix on premultiplied RGBA8 pixels in place (a layer's `colorMatrix`, `colorControls`,
   `sepiaTone`, …): each pixel's colour unpremultiplied (divided by its alpha, the alpha by 255), the
   rows' dot products summed in order from the first plus the bias, held to 0…1, premultiplied again
   and stored as BandPainter.store stores. A transparent pixel stays as it is unless `adds_alpha`. */
typedef struct reel_color_matrix {
    uint8_t *_Nonnull pixels;
    intptr_t stride;
    intptr_t width;
    intptr_t rows;
    /* Row by row: the factors of r, g, b and a. */
    float m[16];
    float bias[4];
    int32_t adds_alpha;
} reel_color_matrix;

typedef struct reel_raster_kernels {
    /* `count` pixels set to one word (an opaque colour under full coverage). */
    void (*_Nonnull fill)(uint8_t *_Nonnull out, intptr_t count, uint32_t word);
    /* Source-over of a translucent colour at full coverage in 8.8: d · keep (0.16) + add, where `add`
       holds the four channels' 8.8 values plus ½, 16 bits each from the low. */
    void (*_Nonnull solid)(uint8_t *_Nonnull out, intptr_t count, uint16_t keep, uint64_t add);
    /* Source-over of a colour already scaled by its coverage, in floats: s + d · inverse, rounded by
       adding 1.5 · 2²³. */
    void (*_Nonnull solid_float)(uint8_t *_Nonnull out, intptr_t count, reel_rgba_f s, float inverse);
    void (*_Nonnull axial)(uint8_t *_Nonnull out, reel_axial_span span);
    void (*_Nonnull image)(uint8_t *_Nonnull out, reel_image_span span);
    void (*_Nonnull solid_rows)(reel_solid_rows rows);
    intptr_t (*_Nonnull axial_rows)(reel_axial_rows rows);
    void (*_Nonnull image_rows)(reel_image_rows rows);
    void (*_Nonnull blur_cells)(reel_blur_cells cells);
    void (*_Nonnull blur_grid)(reel_blur_grid grid);
    void (*_Nonnull blur_row)(reel_blur_row row);
    void (*_Nonnull color_matrix)(reel_color_matrix matrix);
    /* Source-over of `count` premultiplied pixels of `src` scaled by `factor` onto `out`, in floats:
       s · factor + d · (1 − alpha · (1/255)), rounded by adding 1.5 · 2²³ (BlendKernels.swift's
       `blend`; a transparent source leaves d, an opaque one at factor 1 gives s, exactly). */
    void (*_Nonnull composite)(uint8_t *_Nonnull out, const uint8_t *_Nonnull src, intptr_t count, float factor);
} reel_raster_kernels;

enum {
    REEL_KERNELS_PORTABLE = 0,
    REEL_KERNELS_AVX2 = 1,
    REEL_KERNELS_AVX512 = 2,
};

/* One box of width 2·radius + 1 along rows (vertical 0) or columns of premultiplied RGBA8 pixels, in
   place; `line` holds 4·max(width, height) bytes of scratch. What lies outside is transparent. */
void reel_box_pass(uint8_t *_Nonnull pixels, intptr_t width, intptr_t height, intptr_t radius, int vertical,
                   uint8_t *_Nonnull line);

/* Whether this CPU (and its operating system) runs the variant. */
int reel_kernels_supported(int variant);

/* The variant's table; the portable one for a variant this build lacks (not x86-64). Call only for a
   supported variant. */
reel_raster_kernels reel_kernels_table(int variant);

#endif
