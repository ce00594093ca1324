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

/* FriBidi's paragraph directions are macros built from other macros. */
static inline FriBidiParType reel_fribidi_par_auto(void) { return FRIBIDI_PAR_ON; }
static inline FriBidiParType reel_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType reel_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }

/* A glyph's outline through draw callbacks, in font units: hb_font_get_glyph_shape (HarfBuzz 4–6,
   Debian 12) was renamed hb_font_draw_glyph in 7.0. */
static inline void reel_hb_draw_glyph(hb_font_t *font, hb_codepoint_t glyph, hb_draw_funcs_t *funcs, void *data) {
#if HB_VERSION_ATLEAST(7, 0, 0)
    hb_font_draw_glyph(font, glyph, funcs, data);
#else
    hb_font_get_glyph_shape(font, glyph, funcs, data);
#endif
}

#endif
