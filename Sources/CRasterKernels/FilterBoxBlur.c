/* feGaussianBlur's box passes on a filter's premultiplied RGBA8 pixels: in C so that the debug build
   (the test suite's) runs the five passes in a fraction of what unoptimised Swift takes. Integer sums
   and an integer rounding: the same bytes on any instruction set. */
#include "CRasterKernels.h"

void reel_box_pass(uint8_t *pixels, intptr_t width, intptr_t height, intptr_t radius, int vertical, uint8_t *line) {
    if (radius <= 0 || width <= 0 || height <= 0) return;
    const intptr_t lines = vertical ? width : height, length = vertical ? height : width;
    const intptr_t step = vertical ? width * 4 : 4;
    const int64_t size = 2 * radius + 1;
    for (intptr_t l = 0; l < lines; l++) {
        uint8_t *base = pixels + (vertical ? l * 4 : l * width * 4);
        for (intptr_t i = 0; i < length; i++)
            for (int c = 0; c < 4; c++) line[i * 4 + c] = base[i * step + c];
        int64_t sum[4] = {0, 0, 0, 0};
        for (intptr_t i = 0; i <= radius && i < length; i++)
            for (int c = 0; c < 4; c++) sum[c] += line[i * 4 + c];
        for (intptr_t i = 0; i < length; i++) {
            /* The mean rounded half up; a box is odd-sized, so no mean is exactly half way. */
            for (int c = 0; c < 4; c++) base[i * step + c] = (uint8_t)((2 * sum[c] + size) / (2 * size));
            const intptr_t in = i + radius + 1, out = i - radius;
            if (in < length)
                for (int c = 0; c < 4; c++) sum[c] += line[in * 4 + c];
            if (out >= 0)
                for (int c = 0; c < 4; c++) sum[c] -= line[out * 4 + c];
        }
    }
}
