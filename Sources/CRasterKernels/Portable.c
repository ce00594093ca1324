/* The portable kernels: four pixels an iteration, in whatever vector lanes the build's baseline has. */
#define VARIANT portable
#define TARGET
#define PIXELS 4
#if defined(__x86_64__)
#define NATIVE __m128i
#define MULHI_NATIVE _mm_mulhi_epu16
#endif
#include "KernelBody.h"

void reel_kernels_portable_axial(uint8_t *out, reel_axial_span span) { axial_portable(out, span); }
void reel_kernels_portable_axial_at(uint8_t *out, const reel_axial_span *span) { axial_at_portable(out, span); }
void reel_kernels_portable_image(uint8_t *out, reel_image_span span) { image_portable(out, span); }

reel_raster_kernels reel_kernels_portable_table(void);
reel_raster_kernels reel_kernels_portable_table(void) { return table_portable; }
