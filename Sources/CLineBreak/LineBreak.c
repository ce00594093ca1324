/* ICU's line-break iterator, called from C because ICU renames its functions by macro (ubrk_open_72). */
#include "CLineBreak.h"

#include <unicode/ubrk.h>

int32_t reel_line_breaks(const uint16_t *text, int32_t length, int32_t *breaks, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *it = ubrk_open(UBRK_LINE, "", (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return -1;
    int32_t count = 0;
    for (int32_t b = ubrk_next(it); b != UBRK_DONE; b = ubrk_next(it)) {
        if (count < capacity) breaks[count] = b;
        count++;
    }
    ubrk_close(it);
    return count;
}
