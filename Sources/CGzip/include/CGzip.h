/* gzip files inflated by zlib into memory, with a limit on what they may expand to (CGzip). */
#ifndef REEL_CGZIP_H
#define REEL_CGZIP_H

#include <stddef.h>

enum {
    REEL_GUNZIP_OK = 0,
    /* The output would pass the limit: a gzip bomb, or a document too large. */
    REEL_GUNZIP_TOO_LARGE = 1,
    /* Not gzip, a damaged stream, a check that does not match, or a file cut short. */
    REEL_GUNZIP_DAMAGED = 2,
    REEL_GUNZIP_NO_MEMORY = 3,
};

/* Inflates the gzip member in `input` (`length` bytes) into a buffer allocated with malloc, set in
   `*output` with its size in `*written`; the caller frees it. Stops with REEL_GUNZIP_TOO_LARGE as soon
   as the output passes `limit` bytes, having held at most about twice the limit. */
int reel_gunzip(const unsigned char *input, size_t length, size_t limit, unsigned char **output, size_t *written);

#endif
