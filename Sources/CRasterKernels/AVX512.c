/* The AVX-512 kernels: sixteen pixels an iteration in 512-bit lanes (x86-64 only). */
#if defined(__x86_64__)
#define VARIANT avx512
/* min_vector_width: without it the compiler may keep to 256-bit registers, as it does for AVX2. */
#define TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"), min_vector_width(512)))
#define PIXELS 16
#define NATIVE __m512i
#define MULHI_NATIVE _mm512_mulhi_epu16
#include "KernelBody.h"

reel_raster_kernels reel_kernels_avx512_table(void);
reel_raster_kernels reel_kernels_avx512_table(void) { return table_avx512; }
#endif
