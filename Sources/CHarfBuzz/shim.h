/* HarfBuzz for ReelText: the headers, and inline functions for what Swift cannot import (macros). */
#ifndef REEL_CHARFBUZZ_SHIM_H
#define REEL_CHARFBUZZ_SHIM_H

#include <hb.h>
#include <hb-ot.h>

/* HB_TAG is a macro. */
static inline hb_tag_t reel_hb_tag(char a, char b, char c, char d) {
    return HB_TAG(a, b, c, d);
}

#endif
