/* The portable kernels: four pixels an iteration, in whatever vector lanes the build's baseline has. */
#define VARIANT portable
#define TARGET
#define PIXELS 4
#if defined(__x86_64__)
#define NATIVE __m128i
#define MULHI_NATIVE _mm_mulhi_epu16
#endif
#include "KernelBody.h"

reel_raster_kernels reel_kernels_portable_table(void);
reel_raster_kernels reel_kernels_portable_table(void) { return table_portable; }
