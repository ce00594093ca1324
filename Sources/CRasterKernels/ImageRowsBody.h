/* An image's rows walked from their accumulated cells: the running sum, the cuts of the walk in Swift
   (CoverageScratch.runs) and each piece's pixels in one kernel a shape (included by KernelBody.h after
   AxialRowsBody.h, inside one variant's macros). */

/* A texel as four floats, as `unpack` takes it in Swift. */
INLINE K(f32x4) K(texel_floats)(const uint8_t *texels, intptr_t offset) {
    K(u32x4) b = {texels[offset], texels[offset + 1], texels[offset + 2], texels[offset + 3]};
    return __builtin_convertvector(b, K(f32x4));
}

/* A run of 1…3 pixels from column x (absolute) of row y at one coverage c, as the walk in Swift drew
   one the lanes decline (ImageShader.shade then blendShaded, floats): each sample's bilinear colour
   times the opacity, stored where it is opaque under full coverage, blended otherwise. Never the
   identity on whole pixels (shade's first case): BandPainter walks such an image in Swift. */
INLINE void K(image_few)(const reel_image_rows *r, uint8_t *p, intptr_t x, intptr_t y, intptr_t count, float c) {
    double py = (double)y + 0.5, px = (double)x + 0.5;
    double u = r->a * px + r->c * py + r->tx - 0.5;
    double v = r->b * px + r->d * py + r->ty - 0.5;
    double du = r->a, dv = r->b;
    intptr_t w = r->width, h = r->height, row = w * 4;
    double n = (double)(count - 1), u_end = u + n * du, v_end = v + n * dv;
    int inside = (u < u_end ? u : u_end) >= 1 && (u < u_end ? u_end : u) < (double)(w - 2) &&
                 (v < v_end ? v : v_end) >= 1 && (v < v_end ? v_end : v) < (double)(h - 2);
    for (intptr_t i = 0; i < count; i++) {
        K(f32x4) t00, t01, t10, t11;
        float tx, ty;
        if (inside) {
            /* Positive here: truncation is the floor. */
            double fu = (double)(int64_t)u, fv = (double)(int64_t)v;
            intptr_t base = ((intptr_t)(int64_t)fv * w + (intptr_t)(int64_t)fu) * 4;
            tx = (float)(u - fu);
            ty = (float)(v - fv);
            t00 = K(texel_floats)(r->texels, base);
            t01 = K(texel_floats)(r->texels, base + 4);
            t10 = K(texel_floats)(r->texels, base + row);
            t11 = K(texel_floats)(r->texels, base + row + 4);
        } else {
            double fu = __builtin_floor(u), fv = __builtin_floor(v);
            /* Swift's max(x, −1e9) then min(…, 1e9), as written there. */
            double cu = -1e9 >= fu ? -1e9 : fu, cv = -1e9 >= fv ? -1e9 : fv;
            cu = 1e9 < cu ? 1e9 : cu;
            cv = 1e9 < cv ? 1e9 : cv;
            intptr_t ix = (intptr_t)(int64_t)cu, iy = (intptr_t)(int64_t)cv;
            tx = (float)(u - fu);
            ty = (float)(v - fv);
            intptr_t x0 = ix < 0 ? 0 : ix > w - 1 ? w - 1 : ix, x1 = ix + 1 < 0 ? 0 : ix + 1 > w - 1 ? w - 1 : ix + 1;
            intptr_t y0 = iy < 0 ? 0 : iy > h - 1 ? h - 1 : iy, y1 = iy + 1 < 0 ? 0 : iy + 1 > h - 1 ? h - 1 : iy + 1;
            t00 = K(texel_floats)(r->texels, (y0 * w + x0) * 4);
            t01 = K(texel_floats)(r->texels, (y0 * w + x1) * 4);
            t10 = K(texel_floats)(r->texels, (y1 * w + x0) * 4);
            t11 = K(texel_floats)(r->texels, (y1 * w + x1) * 4);
        }
        K(f32x4) top = t00 * (1 - tx) + t01 * tx;
        K(f32x4) bottom = t10 * (1 - tx) + t11 * tx;
        K(f32x4) color = (top * (1 - ty) + bottom * ty) * r->opacity;
        uint8_t *o = p + 4 * i;
        if (c >= 1 && color.w >= 255) {
            K(u32x4) bits = (K(u32x4))(color + 12582912.0f);
            o[0] = (uint8_t)bits[0];
            o[1] = (uint8_t)bits[1];
            o[2] = (uint8_t)bits[2];
            o[3] = (uint8_t)bits[3];
        } else {
            K(blend_pixel)(o, color, c >= 1 ? 1 : c);
        }
        u += du;
        v += dv;
    }
}

/* The `image` kernel's span from column x (absolute) of row y, as ImageLanes.lanes makes it. */
INLINE reel_image_span K(image_span_at)(
    const reel_image_rows *r, intptr_t x, intptr_t y, intptr_t count, const float *coverages, float factor) {
    double py = (double)y + 0.5, px = (double)x + 0.5;
    float scaled = factor * 65536 + 0.5f;
    reel_image_span span = {
        .texels = r->texels,
        .width = r->width,
        .height = r->height,
        .u = r->a * px + r->c * py + r->tx - 0.5,
        .v = r->b * px + r->d * py + r->ty - 0.5,
        .du = r->a,
        .dv = r->b,
        .coverages = coverages,
        .opacity = r->opacity,
        .factor = coverages ? 0 : (uint16_t)(65535 < scaled ? 65535 : scaled),
        .scaled = coverages || factor < 1,
        .count = count,
    };
    return span;
}

/* The first cell from x on (x ≤ limit) whose touched bit is clear, or `limit`. */
INLINE intptr_t K(first_untouched)(const uint64_t *bits, intptr_t x, intptr_t limit) {
    intptr_t w = x >> 6;
    uint64_t word = ~bits[w] & (~(uint64_t)0 << (x & 63));
    while (word == 0) {
        w++;
        if ((w << 6) >= limit) return limit;
        word = ~bits[w];
    }
    intptr_t at = (w << 6) + __builtin_ctzll(word);
    return at < limit ? at : limit;
}

/* Each row cut as CoverageScratch.runs cuts it: a stretch of two or more touched cells but its last
   through the `image` kernel at each pixel's own coverage (`coverages`, zero where at most
   `minimum`); from there, a run to the next touched cell at one coverage, above `minimum`: four or
   more pixels through the `image` kernel at opacity × coverage, fewer through `image_few`. */
TARGET static void K(image_rows)(reel_image_rows r) {
    intptr_t limit = r.span.c1 + 1;
    for (intptr_t row = 0; row < r.span.rows; row++) {
        intptr_t y = r.y + row;
        K(cell_row) cr = K(row_of)(&r.span, row);
        int32_t *line = cr.line;
        uint64_t *bits = cr.bits;
        uint8_t *out = cr.out;
        int32_t sum = 0;
        intptr_t x = r.span.c0;
        while (x < limit) {
            intptr_t stretch_end = K(first_untouched)(bits, x, limit);
            if (stretch_end - x >= 2) {
                intptr_t last = stretch_end - 1;
                for (intptr_t i = 0; x + i < last; i++) {
                    sum = (int32_t)((uint32_t)sum + (uint32_t)line[x + i]);
                    line[x + i] = 0;
                    float c = K(rule_coverage)(sum, r.even_odd);
                    r.coverage[i] = c > r.minimum ? c : 0;
                }
                reel_image_span span = K(image_span_at)(&r, r.x0 + x, y, last - x, r.coverage, 0);
                K(image)(out + 4 * x, span);
                x = last;
            }
            sum = (int32_t)((uint32_t)sum + (uint32_t)line[x]);
            line[x] = 0;
            intptr_t end = K(first_touched)(bits, x + 1, limit);
            float c = K(rule_coverage)(sum, r.even_odd);
            if (c > r.minimum) {
                if (end - x >= 4) {
                    reel_image_span span = K(image_span_at)(&r, r.x0 + x, y, end - x, 0, r.opacity * c);
                    K(image)(out + 4 * x, span);
                } else {
                    K(image_few)(&r, out + 4 * x, r.x0 + x, y, end - x, c);
                }
            }
            x = end;
        }
        K(end_row)(&r.span, cr);
    }
}
