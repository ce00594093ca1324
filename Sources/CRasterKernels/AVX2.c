/* The AVX2 kernels: eight pixels an iteration in 256-bit lanes (x86-64 only). */
#if defined(__x86_64__)
#define VARIANT avx2
#define TARGET __attribute__((target("avx2")))
#define PIXELS 8
#define NATIVE __m256i
#define MULHI_NATIVE _mm256_mulhi_epu16
#include "KernelBody.h"

reel_raster_kernels reel_kernels_avx2_table(void);
reel_raster_kernels reel_kernels_avx2_table(void) { return table_avx2; }
#endif
