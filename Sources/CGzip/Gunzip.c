/* gzip inflated by zlib (windowBits 16 + 15: zlib reads the gzip header and checks the CRC-32 and the
   length in the trailer), into a buffer that doubles as it fills, up to the limit and no further. */
#include "CGzip.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int reel_gunzip(const unsigned char *input, size_t length, size_t limit, unsigned char **output, size_t *written) {
    *output = NULL;
    *written = 0;
    if (length > UINT_MAX) return REEL_GUNZIP_TOO_LARGE;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) return REEL_GUNZIP_NO_MEMORY;
    /* One byte past the limit tells "exactly the limit" from "more". */
    size_t ceiling = limit < SIZE_MAX ? limit + 1 : limit;
    size_t capacity = length < ceiling / 4 ? length * 4 : ceiling;
    if (capacity < 4096) capacity = ceiling < 4096 ? ceiling : 4096;
    unsigned char *buffer = malloc(capacity > 0 ? capacity : 1);
    if (buffer == NULL) {
        inflateEnd(&stream);
        return REEL_GUNZIP_NO_MEMORY;
    }
    stream.next_in = (unsigned char *)input;
    stream.avail_in = (unsigned int)length;
    size_t used = 0;
    int status = REEL_GUNZIP_DAMAGED;
    for (;;) {
        if (used == capacity) {
            if (capacity >= ceiling) {
                status = REEL_GUNZIP_TOO_LARGE;
                break;
            }
            size_t grown = capacity <= ceiling / 2 ? capacity * 2 : ceiling;
            unsigned char *larger = realloc(buffer, grown);
            if (larger == NULL) {
                status = REEL_GUNZIP_NO_MEMORY;
                break;
            }
            buffer = larger;
            capacity = grown;
        }
        size_t room = capacity - used;
        stream.next_out = buffer + used;
        stream.avail_out = room > UINT_MAX ? UINT_MAX : (unsigned int)room;
        unsigned int before = stream.avail_out;
        int result = inflate(&stream, Z_NO_FLUSH);
        used += before - stream.avail_out;
        if (result == Z_STREAM_END) {
            status = used > limit ? REEL_GUNZIP_TOO_LARGE : REEL_GUNZIP_OK;
            break;
        }
        if (result == Z_MEM_ERROR) {
            status = REEL_GUNZIP_NO_MEMORY;
            break;
        }
        if (result == Z_OK || result == Z_BUF_ERROR) {
            if (used == capacity) continue; /* out of room: grown at the top */
            /* Room left but no input: the file ended before the stream did (cut short). */
            if (stream.avail_in == 0 || result == Z_BUF_ERROR) break;
            continue;
        }
        break; /* Z_DATA_ERROR, Z_NEED_DICT, Z_STREAM_ERROR: not gzip, or damaged */
    }
    inflateEnd(&stream);
    if (status != REEL_GUNZIP_OK) {
        free(buffer);
        return status;
    }
    *output = buffer;
    *written = used;
    return REEL_GUNZIP_OK;
}
