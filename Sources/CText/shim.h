/* The text stack for ReelText: HarfBuzz (shaping, outlines), FreeType (colour bitmap strikes),
   fontconfig (finding fonts), and FriBidi (paragraph direction);
   and inline functions for what Swift cannot import (macros). ICU's line breaks are in CLineBreak. */
#ifndef REEL_CTEXT_SHIM_H
#define REEL_CTEXT_SHIM_H

#include <hb.h>
#include <hb-ot.h>
#include <hb-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <fontconfig/fontconfig.h>
#include <fribidi.h>

/* HB_TAG is a macro. */
static inline hb_tag_t reel_hb_tag(char a, char b, char c, char d) {
    return HB_TAG(a, b, c, d);
}

/* FT_LOAD_COLOR and friends are macros. */
static inline int32_t reel_ft_load_color(void) { return FT_LOAD_COLOR; }
static inline int32_t reel_ft_pixel_mode_bgra(void) { return FT_PIXEL_MODE_BGRA; }

#endif
