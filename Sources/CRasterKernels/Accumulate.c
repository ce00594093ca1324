/* Edges accumulated into a canvas's integer cells in fixed point (23.9), as FreeType's and Blend2D's
   analytic rasterizers do: one body for every kernel variant, since integer arithmetic gives the same
   cells on any instruction set. */
#include <string.h>

#include "CRasterKernels.h"

enum {
    /* Subpixel bits of a coordinate: 1/512 of a pixel (a pixel's area 2¹⁹, REEL_CELL_ONE). */
    SHIFT = 9,
    ONE = 1 << SHIFT,
};

/* Cells added to as unsigned, so that a sum past int32 (a winding beyond 2¹² layers) wraps instead of
   being undefined. */
static inline void add(int32_t *cell, int64_t v) { *cell = (int32_t)((uint32_t)*cell + (uint32_t)v); }

static inline void mark(uint64_t *bits, intptr_t c) { bits[c >> 6] |= (uint64_t)1 << (c & 63); }

static inline void mark_through(uint64_t *bits, intptr_t a, intptr_t b) {
    intptr_t wa = a >> 6, wb = b >> 6;
    uint64_t head = ~(uint64_t)0 << (a & 63), tail = ~(uint64_t)0 >> (63 - (b & 63));
    if (wa == wb) {
        bits[wa] |= head & tail;
        return;
    }
    bits[wa] |= head;
    for (intptr_t w = wa + 1; w < wb; w++) bits[w] = ~(uint64_t)0;
    bits[wb] |= tail;
}

/* v · 512 rounded to the nearest integer (ties to even) for |v| < 2⁴²: adding 1.5 · 2⁵² leaves the
   rounded value in the low bits of the sum (no conversion instruction or library call, and the same
   on every build). */
static inline int64_t to_fixed(double v) {
    double t = v * (double)ONE + 6755399441055744.0;
    int64_t bits;
    memcpy(&bits, &t, sizeof bits);
    return bits - 0x4338000000000000LL;
}

/* ⌊a / b⌋ and its remainder (0 ≤ r < b), b > 0. */
static inline int64_t floor_div(int64_t a, int64_t b, int64_t *r) {
    int64_t q = a / b, m = a % b;
    if (m < 0) {
        q--;
        m += b;
    }
    *r = m;
    return q;
}

/* A piece across columns c0 < c1 (`piece` below): the height at each column boundary b is
   |dy| · (b − lo) / (hi − lo) rounded to the nearest (⌊(2 · |dy| · (b − lo) + w) / 2w⌋, w = hi − lo), stepped column to column as a quotient and remainder, so the parts sum
   to |dy| exactly. Out of line: most pieces stay in one column. */
static __attribute__((noinline)) void piece_across(
    int32_t *line, uint64_t *bits, intptr_t c0, int64_t lo, int64_t hi, int64_t dy) {
    int64_t sign = dy < 0 ? -1 : 1, h = dy * sign, dx = hi - lo;
    intptr_t c1 = (intptr_t)((hi - 1) >> SHIFT);
    int64_t fa = lo - ((int64_t)c0 << SHIFT), fb = hi - ((int64_t)c1 << SHIFT);
    int64_t r, den = 2 * dx;
    int64_t y = floor_div(2 * h * (ONE - fa) + dx, den, &r);
    add(&line[c0], sign * y * (ONE - fa));
    int64_t carry = sign * y * (ONE + fa);
    if (c1 > c0 + 1) {
        int64_t stepRemainder, step = floor_div(2 * h * ONE, den, &stepRemainder);
        for (intptr_t c = c0 + 1; c < c1; c++) {
            r += stepRemainder;
            int64_t over = r >= den;
            int64_t part = step + over;
            r -= den & -over;
            y += part;
            add(&line[c], carry + sign * part * ONE);
            carry = sign * part * ONE;
        }
    }
    int64_t last = h - y;
    add(&line[c1], carry + sign * last * (2 * ONE - fb));
    add(&line[c1 + 1], sign * last * fb);
    mark_through(bits, c0, c1 + 1);
}

/* Marks n ≤ 3 cells from c as touched. */
static inline void mark_few(uint64_t *bits, intptr_t c, int n) {
    uint64_t m = ((uint64_t)1 << n) - 1;
    intptr_t w = c >> 6, at = c & 63;
    bits[w] |= m << at;
    if (at + n > 64) bits[w + 1] |= m >> (64 - at);
}

/* One row's piece of an edge from x = xa to xb (fixed point, canvas-local, 0 ≤ xa, xb ≤ 512 · width),
   `dy` of the row tall (1…512) and signed by the edge's direction. Each cell it crosses gets the area
   the piece leaves to its right and the next cell the rest of its height, as the float cells had them:
   a pixel wholly covered sums to ±2¹⁹ (512 · 1024) exactly. A piece within one column or across two
   (nearly all of a curve's) is added here; wider ones by `piece_across`, whose arithmetic for two
   columns this is. */
static inline __attribute__((always_inline)) void piece(
    int32_t *line, uint64_t *bits, intptr_t width, int64_t xa, int64_t xb, int64_t dy) {
    int64_t lo = xa < xb ? xa : xb, hi = xa < xb ? xb : xa;
    intptr_t c0 = (intptr_t)(lo >> SHIFT);
    /* Only a piece at the right side itself (lo = 512 · width, clipped) starts past the last column. */
    if (c0 >= width) c0 = width - 1;
    int64_t left = (int64_t)c0 << SHIFT;
    if (hi <= left + ONE) {
        int64_t area = dy * ((lo - left) + (hi - left));
        add(&line[c0], dy * 2 * ONE - area);
        add(&line[c0 + 1], area);
        mark_few(bits, c0, 2);
        return;
    }
    if (hi > left + 2 * ONE) {
        piece_across(line, bits, c0, lo, hi, dy);
        return;
    }
    int64_t fa = lo - left, fb = hi - left - ONE, dx = hi - lo;
    int64_t h = dy < 0 ? -dy : dy;
    int64_t y = (2 * h * (ONE - fa) + dx) / (2 * dx);
    if (dy < 0) y = -y;
    int64_t rest = dy - y;
    add(&line[c0], y * (ONE - fa));
    add(&line[c0 + 1], y * (ONE + fa) + rest * (2 * ONE - fb));
    add(&line[c0 + 2], rest * fb);
    mark_few(bits, c0, 3);
}

/* A piece of an edge that may reach past the canvas's sides: what is left of column 0 covers every
   column of the row (its height goes to cell 0), what is right of the last column none; the part
   between is split off at the sides by its share of the piece's width, as the float cells did. */
static __attribute__((noinline)) void clipped_piece(int32_t *line, uint64_t *bits, intptr_t width, int64_t xa, int64_t xb, int64_t dy) {
    int64_t lo = xa < xb ? xa : xb, hi = xa < xb ? xb : xa, right = (int64_t)width << SHIFT;
    if (lo >= 0 && hi <= right) {
        piece(line, bits, width, xa, xb, dy);
        return;
    }
    if (hi <= 0) {
        add(&line[0], dy * 2 * ONE);
        mark(bits, 0);
        return;
    }
    if (lo >= right) return;
    int64_t sign = dy < 0 ? -1 : 1, h = dy * sign;
    if (lo < 0) {
        int64_t r, outside = floor_div(h * -lo, hi - lo, &r);
        add(&line[0], sign * outside * 2 * ONE);
        mark(bits, 0);
        h -= outside;
        lo = 0;
    }
    if (hi > right) {
        int64_t r;
        h -= floor_div(h * (hi - right), hi - lo, &r);
        hi = right;
    }
    if (h > 0) piece(line, bits, width, lo, hi, sign * h);
}

/* ⌊a / b⌋ and its remainder in 128 bits, for a canvas starting below an edge's top (b > 0). */
static __attribute__((noinline)) int64_t floor_div_wide(__int128 a, int64_t b, int64_t *r) {
    __int128 q = a / b, m = a % b;
    if (m < 0) {
        q--;
        m += b;
    }
    *r = (int64_t)m;
    return (int64_t)q;
}

/* The row piece, clipped at the canvas's sides or not (a constant where this is inlined). */
static inline __attribute__((always_inline)) void row_piece(
    int32_t *line, uint64_t *bits, intptr_t width, int64_t xa, int64_t xb, int64_t dy, int clip) {
    if (clip)
        clipped_piece(line, bits, width, xa, xb, dy);
    else
        piece(line, bits, width, xa, xb, dy);
}

/* The rows of one edge within the cells' rows [row_lo, row_hi), its ends in fixed point (x
   canvas-local, y absolute), `first` … `last` its rows there: x at each row boundary Y is
   x_top + (Y − y_top) · dx / dy rounded to the nearest (⌊(2 · (Y − y_top) · dx + dy) / 2dy⌋), stepped
   row to row as a quotient and remainder (the first one divided out from the edge's top, in 128 bits
   where the canvas starts below it) — so a row's piece does not depend on which row the canvas starts
   at. An edge within one row takes no division at all. */
static inline __attribute__((always_inline)) void edge_rows(
    reel_cells c, int64_t xt, int64_t yt, int64_t xb, int64_t yb, int64_t dir, intptr_t first, intptr_t last, int clip) {
    int64_t dx = xb - xt, dy = yb - yt, den = 2 * dy;
    int32_t *line = c.cells + (first - c.canvas_y0) * c.cell_stride;
    uint64_t *bits = c.touched + (first - c.canvas_y0) * c.words_per_row;
    int64_t rowTop = (int64_t)first << SHIFT, bottom = rowTop + ONE;
    int64_t ya = yt, xa = xt, x, r;
    if (yt < rowTop) {
        ya = rowTop;
        xa = xt + floor_div_wide((__int128)(ya - yt) * 2 * dx + dy, den, &r);
        x = xt + floor_div_wide((__int128)(bottom - yt) * 2 * dx + dy, den, &r);
    } else {
        if (yb <= bottom) {
            row_piece(line, bits, c.width, xt, xb, (yb - yt) * dir, clip);
            return;
        }
        x = xt + floor_div(2 * dx * (bottom - yt) + dy, den, &r);
    }
    if (first == last && yb <= bottom) {
        row_piece(line, bits, c.width, xa, xb, (yb - ya) * dir, clip);
        return;
    }
    row_piece(line, bits, c.width, xa, x, (bottom - ya) * dir, clip);
    if (first == last) return;
    int64_t stepRemainder, step = floor_div(2 * dx * ONE, den, &stepRemainder);
    for (intptr_t row = first + 1;; row++) {
        line += c.cell_stride;
        bits += c.words_per_row;
        rowTop = bottom;
        bottom += ONE;
        xa = x;
        if (row == last && yb <= bottom) {
            row_piece(line, bits, c.width, xa, xb, (yb - rowTop) * dir, clip);
            return;
        }
        /* Without a branch: whether the remainder carries is as good as random, row to row. */
        r += stepRemainder;
        int64_t over = r >= den;
        x += step + over;
        r -= den & -over;
        row_piece(line, bits, c.width, xa, x, ONE * dir, clip);
        if (row == last) return;
    }
}

void reel_accumulate_edges(reel_cells cells, const double *edges, intptr_t count, intptr_t row_lo, intptr_t row_hi) {
    int64_t right = (int64_t)cells.width << SHIFT, origin = cells.x0 * ONE;
    /* Beyond ±2²⁶ pixels (NaN included) the fixed point could overflow: such an edge is skipped. Shapes'
       edges are clipped to ±2²⁴ (EdgeClipping), so none is. */
    const uint64_t reach = (uint64_t)1 << (26 + SHIFT);
    for (intptr_t i = 0; i < count; i++) {
        const double *e = edges + 4 * i;
        int64_t x0 = to_fixed(e[0]), y0 = to_fixed(e[1]), x1 = to_fixed(e[2]), y1 = to_fixed(e[3]);
        if ((((uint64_t)x0 + reach) | ((uint64_t)y0 + reach) | ((uint64_t)x1 + reach) | ((uint64_t)y1 + reach)) >= 2 * reach)
            continue;
        if (y0 == y1) continue;
        x0 -= origin;
        x1 -= origin;
        int down = y0 < y1;
        int64_t xt = down ? x0 : x1, yt = down ? y0 : y1, xb = down ? x1 : x0, yb = down ? y1 : y0;
        intptr_t first = (intptr_t)(yt >> SHIFT), last = (intptr_t)((yb - 1) >> SHIFT);
        if (first < row_lo) first = row_lo;
        if (last > row_hi - 1) last = row_hi - 1;
        if (first > last) continue;
        int64_t dir = down ? 1 : -1;
        if ((x0 < x1 ? x0 : x1) >= 0 && (x0 < x1 ? x1 : x0) < right)
            edge_rows(cells, xt, yt, xb, yb, dir, first, last, 0);
        else
            edge_rows(cells, xt, yt, xb, yb, dir, first, last, 1);
    }
}
