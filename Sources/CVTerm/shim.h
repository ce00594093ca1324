/* libvterm, the terminal emulator ReelTerminal plays recordings through (Debian's libvterm-dev, the
   library Neovim's terminal uses); and inline functions for what Swift cannot import (macros). */
#ifndef REEL_CVTERM_SHIM_H
#define REEL_CVTERM_SHIM_H

#include <vterm.h>

/* The colour tests are macros. */
static inline int reel_vterm_color_is_default_fg(const VTermColor *c) { return VTERM_COLOR_IS_DEFAULT_FG(c); }
static inline int reel_vterm_color_is_default_bg(const VTermColor *c) { return VTERM_COLOR_IS_DEFAULT_BG(c); }
static inline int reel_vterm_color_is_indexed(const VTermColor *c) { return VTERM_COLOR_IS_INDEXED(c); }

/* The cell attributes are bit fields, which Swift imports only as accessors of the whole struct. */
static inline unsigned reel_vterm_cell_flags(const VTermScreenCell *cell) {
    return (cell->attrs.bold ? 1u : 0u) | (cell->attrs.italic ? 2u : 0u) | (cell->attrs.underline ? 4u : 0u)
        | (cell->attrs.underline == VTERM_UNDERLINE_DOUBLE ? 8u : 0u) | (cell->attrs.reverse ? 16u : 0u)
        | (cell->attrs.strike ? 32u : 0u) | (cell->attrs.blink ? 64u : 0u);
}

#endif
