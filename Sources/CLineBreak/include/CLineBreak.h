/* Unicode line-break opportunities (UAX #14) from ICU, behind one plain C function: ICU's headers
   cannot be imported next to Foundation (which carries its own copy of ICU's declarations), so they
   stay inside this file's implementation. */
#ifndef REEL_CLINEBREAK_H
#define REEL_CLINEBREAK_H

#include <stdint.h>

/* Writes to `breaks` the offsets (UTF-16 code units) at which a line may start, ascending, the end of
   the text included; at most `capacity` of them. Returns how many there are (which may exceed
   `capacity`), or -1 when ICU fails. */
int32_t reel_line_breaks(const uint16_t *text, int32_t length, int32_t *breaks, int32_t capacity);

#endif
