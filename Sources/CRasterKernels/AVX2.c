/* The AVX2 kernels: eight pixels an iteration in 256-bit lanes (x86-64 only). */
#if defined(__x86_64__)
#define VARIANT avx2
#define TARGET __attribute__((target("avx2")))
#define PIXELS 8
#define NATIVE __m256i
#define MULHI_NATIVE _mm256_mulhi_epu16
#include "KernelBody.h"

/* The AVX-512 variant's groups of edge cells (SolidRowsBody.h). */
int32_t reel_kernels_avx2_solid_group(
    const reel_solid_rows *r, uint8_t *out, int32_t *line, intptr_t x, intptr_t n, int32_t sum, intptr_t skip);
TARGET int32_t reel_kernels_avx2_solid_group(
    const reel_solid_rows *r, uint8_t *out, int32_t *line, intptr_t x, intptr_t n, int32_t sum, intptr_t skip) {
    return solid_group_avx2(r, out, line, x, n, sum, skip);
}

reel_raster_kernels reel_kernels_avx2_table(void);
reel_raster_kernels reel_kernels_avx2_table(void) { return table_avx2; }
#endif
