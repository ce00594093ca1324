#!/usr/bin/env python3
"""Writes independent references for Reel's terminal layers, with tools that are not Reel.

Run it through scripts/terminal-references.sh, which makes the virtual environment (.venv-terminal) with
pinned pyte (a terminal emulator in Python, not libvterm), Pillow, fontTools and numpy. It writes, into
Tests/ReelEndToEndTests/TerminalReferences/:

- session.cast: an asciicast v2 recording made here (prompt and typing; the 16 colours as foreground and
  background, bold, italic, underline, inverse, strikethrough, 256 colours, true colour, wide CJK
  characters, a combining accent; output scrolling; a scroll region; the alternate screen drawn on with
  erases that keep the background colour);
- cases.json: at each checkpoint time, the screen pyte shows after every event up to that time: per
  cell its character, its foreground and background as drawn (the theme below applied, inverse
  swapped), and its style; the cursor's cell;
- screen-N.png for checkpoint N: that screen drawn by Pillow (RGB, 8-bit).

Layout conventions (the terminal layer's documented rule; lengths in pixels at scale 1):
- a grid of COLUMNS x ROWS cells of CELL_W x CELL_H: cell (c, r) spans x in [c CELL_W, (c+1) CELL_W),
  y in [r CELL_H, (r+1) CELL_H) (the layer's bounds are exactly the grid; no padding);
- each cell is filled with its background colour; a character is drawn with its pen at the cell's left
  edge on the baseline y = r CELL_H + (CELL_H - (ascender - descender) * k) / 2 + ascender * k, where
  ascender and descender are the regular face's hhea values (read here with fontTools) and
  k = FONT_SIZE / unitsPerEm; bold, italic and bold italic cells use DejaVu Sans Mono's Bold, Oblique and
  Bold Oblique faces; a character DejaVu Sans Mono lacks is drawn with the font fontconfig's fc-match
  gives for it (CJK: WenQuanYi Micro Hei, fonts-wqy-microhei);
- underline and strikethrough: a rectangle as wide as the cell (two for a wide character), thickness
  post.underlineThickness * k, centred at baseline - post.underlinePosition * k (underline) and at
  baseline - OS/2.yStrikeoutPosition * k (strikethrough), in the foreground colour.
Rendering: each glyph is drawn by Pillow into a coverage image S = 32 times larger (font size
FONT_SIZE * S, anchor "ls" at the pen), box-filtered down to coverage a, and composited
round(under * (1 - a) + fg * a) per channel over what is there; decoration rectangles are exact area
coverage. See scripts/text-references.py for why 32x: Pillow hints and rounds glyph origins to the
supersampled grid, errors that halve with each doubling of S.

Theme: Reel's built-in "dark" theme, as docs/scene-format.md lists it (default foreground, background
and the 16 palette colours); colours 16-255 are pyte's own xterm table; true colour is as given.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pyte
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "Tests", "ReelEndToEndTests", "TerminalReferences")
COLUMNS, ROWS = 48, 12
CELL_W, CELL_H = 10, 20
FONT_SIZE = 16
S = 32
PYTE_VERSION = "0.8.2"  # pinned in scripts/terminal-references.sh
FONTS = {
    (False, False): "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    (True, False): "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
    (False, True): "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Oblique.ttf",
    (True, True): "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-BoldOblique.ttf",
}
DARK = {
    "foreground": "d5d9e0",
    "background": "171a21",
    "palette": [
        "2a2e37", "e06471", "94c47a", "e3bd74", "5fa8ec", "c27bd9", "52b5c0", "d5d9e0",
        "5e6573", "f0838e", "b2de93", "f2d293", "86c0f4", "d89cea", "78cfd8", "ffffff",
    ],
}
# pyte's names for the 16 colours (its graphics.FG_ANSI / FG_AIXTERM tables), in palette order.
NAMES = [
    "black", "red", "green", "brown", "blue", "magenta", "cyan", "white",
    "brightblack", "brightred", "brightgreen", "brightbrown", "brightblue", "brightmagenta", "brightcyan",
    "brightwhite",
]


def session():
    """The recording's events: (time, output)."""
    esc = "\x1b["
    ev = [(0.2, "$ ")]
    t = 0.4
    for ch in "ls --color":
        ev.append((round(t, 3), ch))
        t += 0.05
    ev.append((1.2, "\r\n"))
    line = "".join(f"{esc}{30 + i}m{i}" for i in range(8)) + "".join(f"{esc}{90 + i}m{i + 8:x}" for i in range(8))
    line += f"{esc}0m " + "".join(f"{esc}{40 + i}m{i}" for i in range(8)) + f"{esc}0m\r\n"
    line += f"{esc}1mbold{esc}0m {esc}3mitalic{esc}0m {esc}1;3mboth{esc}0m {esc}4munder{esc}0m "
    line += f"{esc}7minverse{esc}0m {esc}9mstrike{esc}0m\r\n"
    line += f"{esc}38;5;208m208{esc}0m {esc}48;5;24m 24 {esc}0m {esc}38;2;255;128;0;48;2;20;40;80m true {esc}0m "
    line += "漢字 cafe\u0301 ✓ ─│┌┐\r\n$ "
    ev.append((1.5, line))
    # Output that scrolls the screen: 14 numbered lines.
    ev.append((2.5, "seq 14\r\n" + "".join(f"line {i}\r\n" for i in range(1, 15)) + "$ "))
    # A scroll region of rows 3-6: four lines written in it scroll only it.
    ev.append((3.5, f"{esc}3;6r{esc}6;1H" + "".join(f"\r\nregion {i}" for i in range(4)) + f"{esc}r{esc}12;3H"))
    # The alternate screen, cleared, a box drawn, erases with a background colour.
    box = f"{esc}?1049h{esc}H{esc}2J{esc}44m{esc}2;3H┌──────┐{esc}3;3H│ menu │{esc}4;3H└──────┘{esc}0m"
    box += f"{esc}6;1H{esc}41mred to end{esc}K{esc}0m{esc}8;5H{esc}42m{esc}1Kleft{esc}0m{esc}10;2Hdone"
    ev.append((4.5, box))
    return ev


CHECKPOINTS = [1.0, 2.0, 3.0, 4.0, 5.0]


def colour(name, default):
    if name == "default":
        return default
    if name in NAMES:
        return DARK["palette"][NAMES.index(name)]
    if len(name) == 6:
        return name.lower()
    raise ValueError(f"unknown pyte colour {name!r}")


def font_for(ch, bold, italic):
    path = FONTS[(bold, italic)]
    base = ch[0]
    if ord(base) in TTFont(path).getBestCmap():
        return path, 0
    found = subprocess.run(
        ["fc-match", "-f", "%{file}\n%{index}", f":charset={ord(base):x}"], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    return found[0], int(found[1] or 0)


def metrics():
    f = TTFont(FONTS[(False, False)])
    k = FONT_SIZE / f["head"].unitsPerEm
    return {
        "ascender": f["hhea"].ascent * k,
        "descender": f["hhea"].descent * k,
        "underline": f["post"].underlinePosition * k,
        "thickness": f["post"].underlineThickness * k,
        "strikeout": f["OS/2"].yStrikeoutPosition * k,
    }


def rgb(h):
    return np.array([int(h[i : i + 2], 16) for i in (0, 2, 4)], dtype=np.float64)


def draw(cells, m):
    img = np.zeros((ROWS * CELL_H, COLUMNS * CELL_W, 3), dtype=np.float64)
    for r in range(ROWS):
        for c in range(COLUMNS):
            img[r * CELL_H : (r + 1) * CELL_H, c * CELL_W : (c + 1) * CELL_W] = rgb(cells[r][c]["background"])
    img = np.round(img)
    baseline_in_cell = (CELL_H - (m["ascender"] - m["descender"])) / 2 + m["ascender"]
    fonts = {}
    for r in range(ROWS):
        for c in range(COLUMNS):
            cell = cells[r][c]
            fg = rgb(cell["foreground"])
            if cell["text"].strip():
                path, index = font_for(cell["text"], cell["bold"], cell["italic"])
                key = (path, index)
                if key not in fonts:
                    fonts[key] = ImageFont.truetype(path, FONT_SIZE * S, index=index, layout_engine=ImageFont.Layout.RAQM)
                # A window of three cells each side and a row above and below, in supersampled pixels.
                x0, y0 = max(c - 3, 0) * CELL_W, max(r - 1, 0) * CELL_H
                x1, y1 = min(c + 4, COLUMNS) * CELL_W, min(r + 2, ROWS) * CELL_H
                mask = Image.new("L", ((x1 - x0) * S, (y1 - y0) * S), 0)
                pen = ((c * CELL_W - x0) * S, (r * CELL_H + baseline_in_cell - y0) * S)
                ImageDraw.Draw(mask).text(pen, cell["text"], fill=255, font=fonts[key], anchor="ls")
                a = np.asarray(mask, dtype=np.float64).reshape(y1 - y0, S, x1 - x0, S).mean(axis=(1, 3)) / 255
                region = img[y0:y1, x0:x1]
                img[y0:y1, x0:x1] = np.floor(region * (1 - a[..., None]) + fg * a[..., None] + 0.5)
            lines = []
            if cell["underline"]:
                lines.append(m["underline"])
            if cell["strikethrough"]:
                lines.append(m["strikeout"])
            for centre in lines:
                top = r * CELL_H + baseline_in_cell - centre - m["thickness"] / 2
                bottom = top + m["thickness"]
                width = 2 if cell["wide"] else 1
                for y in range(int(np.floor(top)), int(np.ceil(bottom))):
                    a = min(bottom, y + 1) - max(top, y)
                    span = img[y, c * CELL_W : (c + width) * CELL_W]
                    img[y, c * CELL_W : (c + width) * CELL_W] = np.floor(span * (1 - a) + fg * a + 0.5)
    return Image.fromarray(img.astype(np.uint8), "RGB")


def main():
    os.makedirs(OUT, exist_ok=True)
    events = session()
    with open(os.path.join(OUT, "session.cast"), "w", encoding="utf-8") as f:
        f.write(json.dumps({"version": 2, "width": COLUMNS, "height": ROWS, "timestamp": 0}) + "\n")
        for t, data in events:
            f.write(json.dumps([t, "o", data], ensure_ascii=False) + "\n")
    m = metrics()
    cases = []
    for n, t in enumerate(CHECKPOINTS):
        screen = pyte.Screen(COLUMNS, ROWS)
        stream = pyte.Stream(screen)
        for when, data in events:
            if when <= t:
                stream.feed(data)
        cells = []
        for r in range(ROWS):
            row = []
            for c in range(COLUMNS):
                ch = screen.buffer[r][c]
                fg = colour(ch.fg, DARK["foreground"])
                bg = colour(ch.bg, DARK["background"])
                if ch.reverse:
                    fg, bg = bg, fg
                wide = c + 1 < COLUMNS and screen.buffer[r][c + 1].data == "" and ch.data != ""
                row.append({
                    "text": ch.data if ch.data != " " else "",
                    "foreground": fg,
                    "background": bg,
                    "bold": ch.bold,
                    "italic": ch.italics,
                    "underline": ch.underscore,
                    "strikethrough": ch.strikethrough,
                    "wide": wide,
                })
            cells.append(row)
        draw(cells, m).save(os.path.join(OUT, f"screen-{n}.png"))
        cases.append({
            "time": t,
            "image": f"screen-{n}.png",
            "cursor": {"row": screen.cursor.y, "column": screen.cursor.x},
            "text": ["".join(c["text"] or " " for c in row).rstrip() for row in cells],
            "cells": [[{"text": c["text"], "foreground": c["foreground"], "background": c["background"]} for c in row]
                      for row in cells],
        })
    doc = {
        "generator": "scripts/terminal-references.py (pyte %s, Pillow %s)" % (PYTE_VERSION, Image.__version__),
        "columns": COLUMNS, "rows": ROWS, "cellWidth": CELL_W, "cellHeight": CELL_H, "fontSize": FONT_SIZE,
        "theme": DARK, "cases": cases,
    }
    with open(os.path.join(OUT, "cases.json"), "w", encoding="utf-8") as f:
        # One line per screen row: the file stays readable in a diff.
        f.write(json.dumps({k: v for k, v in doc.items() if k != "cases"}, ensure_ascii=False)[:-1] + ', "cases": [\n')
        for i, case in enumerate(cases):
            head = {k: v for k, v in case.items() if k != "cells"}
            f.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "cells": [\n')
            f.write(",\n".join(json.dumps(row, ensure_ascii=False, separators=(",", ":")) for row in case["cells"]))
            f.write("]}" + (",\n" if i + 1 < len(cases) else "\n"))
        f.write("]}\n")
    print(f"wrote {len(cases)} screens to {OUT}")


if __name__ == "__main__":
    sys.exit(main())
