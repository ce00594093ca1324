/* Which kernel variants this CPU runs, and each variant's table. */
#include "CRasterKernels.h"

reel_raster_kernels reel_kernels_portable_table(void);
#if defined(__x86_64__)
reel_raster_kernels reel_kernels_avx2_table(void);
reel_raster_kernels reel_kernels_avx512_table(void);
#endif

int reel_kernels_supported(int variant) {
    switch (variant) {
    case REEL_KERNELS_PORTABLE: return 1;
#if defined(__x86_64__)
    /* __builtin_cpu_supports also asks whether the operating system saves the wider registers. */
    case REEL_KERNELS_AVX2: __builtin_cpu_init(); return __builtin_cpu_supports("avx2") != 0;
    case REEL_KERNELS_AVX512:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
#endif
    default: return 0;
    }
}

reel_raster_kernels reel_kernels_table(int variant) {
    switch (variant) {
#if defined(__x86_64__)
    case REEL_KERNELS_AVX2: return reel_kernels_avx2_table();
    case REEL_KERNELS_AVX512: return reel_kernels_avx512_table();
#endif
    default: return reel_kernels_portable_table();
    }
}
