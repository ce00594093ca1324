#ifndef REEL_CFFMPEG_SHIM_H
#define REEL_CFFMPEG_SHIM_H

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavutil/channel_layout.h>
#include <malloc.h>

// Function-like macros Swift cannot import, as tiny inline functions.

static inline int reel_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int reel_averror_eof(void) { return AVERROR_EOF; }
static inline int reel_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int reel_averror_einval(void) { return AVERROR(EINVAL); }
static inline int64_t reel_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int reel_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int reel_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }

// av_err2str is a macro over a compound literal; write into a caller buffer instead.
static inline void reel_av_strerror(int code, char *buffer, size_t size) {
    if (av_strerror(code, buffer, size) < 0) {
        snprintf(buffer, size, "unknown FFmpeg error %d", code);
    }
}

// Keeps freed frame-sized blocks in the heap instead of returning them to the kernel (see
// Reel.tuneAllocatorForFrames). glibc's mallopt is not visible to Swift through Glibc.
/* Every allocation (but calloc's) zero-filled from now on, process-wide: x264's macroblock-tree
   rate control reads memory it never wrote, so what the allocator hands it must not depend on what
   other threads freed (see VideoWriter.init). */
static inline void reel_zero_fill_allocations(void) {
#ifdef M_PERTURB
    mallopt(M_PERTURB, 0xFF);
#endif
}

/* Gives the pages of freed blocks back to the kernel, in every arena (glibc's malloc_trim). */
static inline void reel_release_freed_memory(void) {
    malloc_trim(0);
}

static inline void reel_tune_malloc_for_frames(void) {
#ifdef M_MMAP_THRESHOLD
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 64 << 20);
#endif
}

#endif
