#!/usr/bin/env python3
"""Writes independent references for Reel's text tests, with tools that are not Reel.

Run it through scripts/text-references.sh, which makes the virtual environment (.venv-text) with pinned
Pillow (raqm layout), uharfbuzz, python-bidi and numpy. Every case is described once, here; nothing is
taken from Reel's output. It writes:

- Tests/ReelEndToEndTests/TextReferences/cases.json and one NAME.png per case (RGB, 8-bit): text laid
  out by the rules below (computed here with uharfbuzz) and drawn by Pillow + raqm + FreeType;
- Tests/ReelTextTests/References/shaping.json: uharfbuzz's glyphs for Latin (kerning, ligatures on and
  off), Arabic, Hebrew and Devanagari strings, and bidirectional paragraphs resolved by python-bidi into
  runs in visual order, each run shaped.

Layout conventions (issue #17; all lengths in canvas points, y down, unrounded):
- font metrics come from HarfBuzz: ascender, descender (negative) and line gap of
  hb_font_get_h_extents in font units; scale = fontSize / upem.
- The first line's baseline is box.y + ascender * scale; each next baseline is
  (ascender - descender + lineGap) * scale * lineHeight lower.
- A line is shaped as a whole with HarfBuzz's default features (kerning, standard ligatures on). Its
  width is the sum of its x advances * scale plus letterSpacing * (clusters - 1): letterSpacing is added
  after every cluster, the last one of the line included, but the width used for alignment and wrapping
  leaves out that trailing letterSpacing (so centred text stays centred). Clusters are HarfBuzz's.
- left: the line's origin x is box.x; right: box.x + box.width - width; center: box.x + (box.width -
  width) / 2; justified: every line but the last of its paragraph is stretched to box.width by giving
  each space (U+0020) of the line an equal share of box.width - width, so each word starts at its own x;
  the last line of a paragraph is left-aligned.
- "\n" ends a paragraph. Wrapping (when "wrapped") is greedy: a paragraph is split into words at
  spaces; a line takes as many words as fit in box.width, a line's width being measured without its
  trailing spaces, which are dropped. The texts used here never need a word to be broken.
- Each line's documentation in cases.json gives its text, origin x, baseline y and width (and, for
  justified lines, each word's x). Lines with letterSpacing are drawn one cluster at a time at pen x =
  origin + (advances of the clusters before) * scale + k * letterSpacing for the k-th cluster; justified
  lines are drawn one word at a time; other lines in one call.

Rendering conventions:
- canvas pixels = canvas points * scale; Pillow draws coverage into an 'L' image S = SUPERSAMPLE = 32
  times larger (font size fontSize * scale * S, anchor "ls" at the line's or piece's baseline origin),
  which is box-filtered down (mean of each S x S block, exact integer sum) to a coverage a in 0..1; then
  pixel = round(background * (1 - a) + color * a) per channel, in 8-bit sRGB values (no gamma
  conversion), rounded half up. Overlapping glyphs combine as Pillow draws them (source-over).
- What this approximates: FreeType's rasterizer gives exact area coverage of the outline at S x, so the
  box filter gives exact coverage at 1x, except for two things Pillow does not let us change:
  1. Pillow puts every glyph's origin on a whole pixel of the S x image (its C code, font_render in
     _imagingft.c, rounds the 26.6 pen position to the nearest pixel; the fractional part of the
     position passed to draw.text is kept only up to that rounding), so a glyph may sit up to
     1/(2 S) canvas pixel from its exact position;
  2. Pillow loads glyphs with FT_LOAD_DEFAULT, i.e. hinted (TrueType, DejaVu: FreeType's v40
     interpreter, which moves points vertically only; CFF, Inter: the Adobe hinter). Pillow 13 has no
     switch to turn hinting off, and FREETYPE_PROPERTIES has no property that disables it. Hinting
     moves outline points by up to about half a pixel of the S x image, 1/(2 S) canvas pixel.
  Both errors halve with each doubling of S. The issue suggests 8x; `--psnr` shows that 8x is not close
  enough for a 35 dB test: against 64x, 8x references reach only 30.1 dB (DejaVu 12 px, where hinting
  at 96 px per em dominates) to 48 dB, 16x 40 to 67 dB, 32x 44 to 71 dB (and 32x is 44.6 dB from
  128x in the worst case). Hence S = 32; generating all cases still takes a few seconds.
- Positions inside a line drawn in one call come from raqm (HarfBuzz with FreeType's unhinted advances,
  26.6 at the S x size); the script checks that raqm's line widths agree with the uharfbuzz layout
  (within one 1/64 pixel of the S x size per glyph: FreeType and HarfBuzz round halves differently)
  and that every case's ink stays inside its canvas.

shaping.json conventions: glyph ids, clusters (Unicode scalar indices into the text: buffers are filled
with add_codepoints), advances and offsets in font units (HarfBuzz's default font scale = upem, y up),
direction and script as guessed by hb_buffer_guess_segment_properties (or set from the bidi level for
bidi runs). Bidi runs are maximal runs of equal resolved embedding level (python-bidi, UAX #9 up to I2;
no trailing whitespace in these paragraphs, so L1 changes nothing), listed in visual order (L2: from
the highest level down to the lowest odd level, every maximal sequence of runs at that level or higher
is reversed); each run keeps its text in logical order and is shaped with the whole paragraph as
context (item offset and length), so its clusters are indices into the paragraph. A glyph's pen x is the
sum of all advances before it in visual order (each run in its own font, scaled to fontSize points),
its origin x is pen x + xOffset * scale.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

import numpy as np
import PIL
import uharfbuzz as hb
from PIL import Image, ImageDraw, ImageFont, features

Image.MAX_IMAGE_PIXELS = None  # our own supersampled canvases exceed Pillow's decompression-bomb limit

import bidi
from bidi import algorithm as bidi_python
from bidi.bidi import get_display_inner

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
RENDER_OUT = os.path.join(ROOT, "Tests", "ReelEndToEndTests", "TextReferences")
SHAPING_OUT = os.path.join(ROOT, "Tests", "ReelTextTests", "References")
SUPERSAMPLE = 32  # the issue says 8x; see the docstring for why 32x

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
INTER = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"
INTER_BOLD = "/usr/share/fonts/opentype/inter/Inter-Bold.otf"
NOTO = "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"
NOTO_ARABIC = "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf"
NOTO_HEBREW = "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf"
NOTO_DEVANAGARI = "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf"


def fail(message):
    sys.exit(f"text-references: {message}")


# ---------------------------------------------------------------------------------------------------
# HarfBuzz (uharfbuzz)

_fonts = {}


def hb_font(path):
    if path not in _fonts:
        if not os.path.exists(path):
            fail(f"missing font {path} (install fonts-dejavu-core, fonts-inter, fonts-noto-core)")
        face = hb.Face(hb.Blob.from_file_path(path))
        _fonts[path] = hb.Font(face)  # scale = upem: positions in font units
    return _fonts[path]


def upem(path):
    return hb_font(path).face.upem


def extents(path):
    e = hb_font(path).get_font_extents("ltr")
    return e.ascender, e.descender, e.line_gap


def shape(path, codepoints, features=None, offset=0, length=-1, direction=None):
    """Shapes codepoints[offset:offset+length] with the rest as context; returns (buffer, glyphs)."""
    buf = hb.Buffer()
    buf.add_codepoints(codepoints, offset, length)
    if direction:
        buf.direction = direction
    buf.guess_segment_properties()
    hb.shape(hb_font(path), buf, features or {})
    glyphs = [
        dict(gid=i.codepoint, cluster=i.cluster, xa=p.x_advance, ya=p.y_advance, xo=p.x_offset, yo=p.y_offset)
        for i, p in zip(buf.glyph_infos, buf.glyph_positions)
    ]
    return buf, glyphs


# ---------------------------------------------------------------------------------------------------
# Layout (the rules of the docstring)


def measure(path, size, text, letter_spacing=0.0):
    """Shapes a left-to-right line; returns (width for alignment, clusters [(start, end, penX)])."""
    scale = size / upem(path)
    _, glyphs = shape(path, [ord(c) for c in text])
    starts = []
    advance = {}
    for g in glyphs:
        if not starts or g["cluster"] != starts[-1]:
            if starts and g["cluster"] < starts[-1]:
                fail(f"non-monotonic clusters in {text!r}")
            starts.append(g["cluster"])
        advance[g["cluster"]] = advance.get(g["cluster"], 0) + g["xa"]
    clusters, pen = [], 0.0
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(text)
        clusters.append((start, end, pen + k * letter_spacing))
        pen += advance[start] * scale
    width = pen + max(len(starts) - 1, 0) * letter_spacing
    return width, clusters


def wrap(path, size, paragraph, width, letter_spacing):
    words = paragraph.split(" ")
    if any(w == "" for w in words) and paragraph != "":
        fail(f"use single spaces between words: {paragraph!r}")
    lines, current = [], None
    for word in words:
        candidate = word if current is None else current + " " + word
        if current is not None and measure(path, size, candidate, letter_spacing)[0] > width:
            lines.append(current)
            current = word
        else:
            current = candidate
        if measure(path, size, word, letter_spacing)[0] > width:
            fail(f"word {word!r} is wider than the box: choose another text")
    lines.append(current if current is not None else "")
    return lines


def layout(case):
    path, size, box = case["font"], case["fontSize"], case["box"]
    ls, lh = case["letterSpacing"], case["lineHeight"]
    asc, desc, gap = extents(path)
    scale = size / upem(path)
    step = (asc - desc + gap) * scale * lh
    baseline = box["y"] + asc * scale
    out = []
    for paragraph in case["string"].split("\n"):
        texts = wrap(path, size, paragraph, box["width"], ls) if case["wrapped"] else [paragraph]
        for n, text in enumerate(texts):
            text = text.rstrip(" ") if case["wrapped"] else text
            width, clusters = measure(path, size, text, ls)
            line = {"text": text, "x": None, "baselineY": baseline, "width": width}
            alignment = case["alignment"]
            last = n == len(texts) - 1
            if alignment == "left" or (alignment == "justified" and last):
                line["x"] = box["x"]
            elif alignment == "right":
                line["x"] = box["x"] + box["width"] - width
            elif alignment == "center":
                line["x"] = box["x"] + (box["width"] - width) / 2
            elif alignment == "justified":
                if ls:
                    fail("justified text with letterSpacing is not used in the references")
                line["x"] = box["x"]
                spaces = text.count(" ")
                share = (box["width"] - width) / spaces if spaces else 0.0
                pen = {start: x for start, _, x in clusters}
                words, index = [], 0
                for word in text.split(" "):
                    # the word's first cluster starts at its first scalar (words start clusters in these texts)
                    if index not in pen:
                        fail(f"word {word!r} does not start a cluster")
                    words.append({"text": word, "x": box["x"] + pen[index] + text.count(" ", 0, index) * share})
                    index += len(word) + 1
                line["words"] = words
            else:
                fail(f"unknown alignment {alignment}")
            line["_clusters"] = [(text[s:e], line["x"] + x) for s, e, x in clusters]
            out.append(line)
            baseline += step
    return out


# ---------------------------------------------------------------------------------------------------
# Rendering (Pillow + raqm)

_pil_fonts = {}
WIDTH_DIFFERENCES = []  # |raqm's line width - uharfbuzz's| in canvas pixels


def pil_font(path, pixels):
    key = (path, pixels)
    if key not in _pil_fonts:
        _pil_fonts[key] = ImageFont.truetype(path, size=pixels, layout_engine=ImageFont.Layout.RAQM)
    return _pil_fonts[key]


def render(case, lines, factor=SUPERSAMPLE, check=True):
    c = case["canvas"]
    k = c["scale"] * factor
    width, height = round(c["width"] * c["scale"]), round(c["height"] * c["scale"])
    image = Image.new("L", (width * factor, height * factor), 0)
    draw = ImageDraw.Draw(image)
    font = pil_font(case["font"], case["fontSize"] * k)
    pieces = []
    for line in lines:
        if case["letterSpacing"]:
            pieces += [(t, x) for t, x in line["_clusters"] if t.strip()]
            for t, x in line["_clusters"]:  # each cluster drawn alone must be the glyphs of the line
                assert_same_glyphs(case["font"], line["text"], t)
        elif "words" in line:
            pieces += [(w["text"], w["x"]) for w in line["words"]]
        else:
            pieces.append((line["text"], line["x"]))
        if check:
            # raqm rounds each advance to 1/64 px at the drawn size (FreeType rounds halves up, HarfBuzz
            # differently): allow one such unit per glyph
            raqm = font.getlength(line["text"]) / k
            ours = line["width"] - case["letterSpacing"] * (len(line["_clusters"]) - 1)
            if abs(raqm - ours) > len(line["text"]) / (64 * k) + 1e-9:
                fail(f"{case['name']}: raqm's width of {line['text']!r} is {raqm}, uharfbuzz's {ours}")
            WIDTH_DIFFERENCES.append(abs(raqm - ours) * case["canvas"]["scale"])
        for text, x in pieces:
            draw.text((x * k, line["baselineY"] * k), text, fill=255, font=font, anchor="ls")
        pieces = []
    cover = np.asarray(image).reshape(height, factor, width, factor).sum(axis=(1, 3), dtype=np.uint32)
    cover = cover / (factor * factor * 255.0)
    if check:
        ys, xs = np.nonzero(cover)
        if len(xs) == 0 or xs.min() < 1 or ys.min() < 1 or xs.max() > width - 2 or ys.max() > height - 2:
            fail(f"{case['name']}: the text touches the canvas's edge or is empty")
    a = cover[..., None]
    bg = np.array(case["background"], dtype=np.float64)
    fg = np.array(case["color"], dtype=np.float64)
    rgb = np.floor(bg * (1 - a) + fg * a + 0.5).clip(0, 255).astype(np.uint8)
    return rgb


def assert_same_glyphs(path, line, piece):
    _, whole = shape(path, [ord(ch) for ch in line])
    _, alone = shape(path, [ord(ch) for ch in piece])
    ids = [g["gid"] for g in whole]
    sub = [g["gid"] for g in alone]
    if not any(ids[i:i + len(sub)] == sub for i in range(len(ids) - len(sub) + 1)):
        fail(f"{piece!r} shaped alone differs from its glyphs in {line!r}: avoid this text with letterSpacing")


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if mse == 0 else 10 * math.log10(255.0 ** 2 / mse)


# ---------------------------------------------------------------------------------------------------
# The rendered cases

WHITE, BLACK = [255, 255, 255], [0, 0, 0]


def case(name, font, size, string, canvas, box, alignment="left", wrapped=False, line_height=1.0,
         letter_spacing=0.0, background=BLACK, color=WHITE):
    w, h, s = canvas
    return {
        "name": name, "canvas": {"width": w, "height": h, "scale": s}, "background": background,
        "color": color, "font": font, "fontSize": size, "string": string,
        "box": dict(zip(("x", "y", "width", "height"), box)), "alignment": alignment, "wrapped": wrapped,
        "lineHeight": line_height, "letterSpacing": letter_spacing,
    }


CASES = [
    case("dejavu-12-left", DEJAVU, 12, "The quick brown fox jumps over the lazy dog.",
         (300, 24, 1), (6, 4, 288, 16)),
    case("dejavu-9-left-2x", DEJAVU, 9, "Small print at nine points, 0123456789.",
         (200, 20, 2), (4.25, 3.5, 190, 12)),
    case("inter-16-center-fractional", INTER, 16, "Centred at a fractional position",
         (300, 32, 1), (10.3, 6.6, 280.1, 20)),
    case("inter-24-right", INTER, 24, "Right aligned, 24 px",
         (320, 44, 1), (8, 7, 304, 30), alignment="right"),
    case("inter-36-center-2x", INTER, 36, "Retina title",
         (260, 60, 2), (5, 6.25, 250, 46), alignment="center"),
    case("inter-44-kerning", INTER, 44, "AVATAR Wave Toyota",
         (470, 70, 1), (10, 8, 450, 54)),
    case("dejavu-48-ligatures", DEJAVU, 48, "office fluffy",
         (340, 74, 1), (10, 8.5, 320, 58)),
    case("inter-96-glyphs", INTER, 96, "Ag&R",
         (280, 130, 1), (10, 6, 260, 118)),
    case("inter-bold-36-center", INTER_BOLD, 36, "Bold headline",
         (300, 56, 1), (0, 6, 300, 44), alignment="center"),
    case("inter-16-wrapped-lh14", INTER, 16,
         "Reel renders Core Animation scenes on the CPU, with text shaped by HarfBuzz and drawn from the "
         "glyph outlines.",
         (300, 120, 1), (10, 8, 280, 108), wrapped=True, line_height=1.4),
    case("dejavu-14-justified", DEJAVU, 14,
         "Justified text stretches every line but the last to the full width of the box, spreading the "
         "extra space evenly between the words.",
         (320, 84, 1), (10, 6, 300, 72), alignment="justified", wrapped=True),
    case("inter-12-justified-2x", INTER, 12,
         "Each word starts at its own position: the spaces between the words grow until both edges of "
         "the column line up.",
         (240, 80, 2), (8, 6, 224, 68), alignment="justified", wrapped=True),
    case("dejavu-16-multiline-center", DEJAVU, 16, "First line\nA second, longer line\nThird",
         (260, 76, 1), (10, 5, 240, 66), alignment="center"),
    case("inter-16-multiline-right-lh14-2x", INTER, 16, "Explicit\nline breaks, right\naligned",
         (200, 90, 2), (6, 4, 188, 80), alignment="right", line_height=1.4),
    case("inter-24-letterspacing-center", INTER, 24, "SPACED OUT",
         (320, 44, 1), (10, 7, 300, 30), alignment="center", letter_spacing=2.0),
    case("dejavu-12-letterspacing-2x", DEJAVU, 12, "Tracking: +2 pt",
         (160, 28, 2), (5.5, 5, 150, 18), letter_spacing=2.0),
    case("inter-36-colour", INTER, 36, "Colour on colour",
         (320, 60, 1), (10, 8, 300, 46), alignment="center", background=[28, 52, 110], color=[255, 196, 42]),
    case("dejavu-24-wrapped-center-newline", DEJAVU, 24,
         "A wrapped caption that breaks\ncentred", (280, 110, 1), (10, 6, 260, 98), alignment="center",
         wrapped=True),
]


# ---------------------------------------------------------------------------------------------------
# Shaping and bidi references


def hb_shape_cli(path, text, features, direction=None):
    """The system's hb-shape (the HarfBuzz Reel links) for a cross-check."""
    args = ["hb-shape", "--output-format=json", "--no-glyph-names", path, text]
    if features:
        args.insert(1, "--features=" + ",".join(f"{'' if v else '-'}{k}" for k, v in features.items()))
    if direction:
        args.insert(1, f"--direction={direction}")
    try:
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    # hb-shape reports clusters as character (scalar) indices unless --utf8-clusters is given
    return [dict(gid=g["g"], cluster=g["cl"], xa=g["ax"], ya=g["ay"], xo=g["dx"], yo=g["dy"])
            for g in json.loads(out)]


def glyph_arrays(path, glyphs):
    font = hb_font(path)
    return {
        "glyphs": [g["gid"] for g in glyphs],
        "glyphNames": [font.glyph_to_string(g["gid"]) for g in glyphs],
        "clusters": [g["cluster"] for g in glyphs],
        "xAdvances": [g["xa"] for g in glyphs],
        "yAdvances": [g["ya"] for g in glyphs],
        "xOffsets": [g["xo"] for g in glyphs],
        "yOffsets": [g["yo"] for g in glyphs],
    }


SHAPING = [
    ("latin-inter-kerning", INTER, "AVATAR Wave", {}),
    ("latin-inter-kerning-off", INTER, "AVATAR Wave", {"kern": False}),
    ("latin-dejavu-ligatures", DEJAVU, "office fluffy", {}),
    ("latin-dejavu-ligatures-off", DEJAVU, "office fluffy", {"liga": False}),
    ("latin-noto-ligatures", NOTO, "office fluffy", {}),
    ("arabic", NOTO_ARABIC, "مرحبا بالعالم", {}),
    ("hebrew", NOTO_HEBREW, "שלום עולם", {}),
    ("devanagari", NOTO_DEVANAGARI, "नमस्ते दुनिया", {}),
]

BIDI = [
    ("hebrew-digits-latin", "שלום 123 abc", NOTO_HEBREW),
    ("latin-digits-hebrew", "Price: 42 שקל", NOTO_HEBREW),
    ("arabic-digits", "مرحبا 2024", NOTO_ARABIC),
]
BIDI_FONT_SIZE = 36


def has_glyphs(path, text):
    font = hb_font(path)
    return all(font.get_nominal_glyph(ord(c)) for c in text)


def bidi_levels(text):
    """Resolved levels per scalar from python-bidi's Rust implementation (levels are per UTF-8 byte),
    checked against its pure-Python implementation; returns (base level, levels)."""
    debug = get_display_inner(text, None, True)
    body = debug.split("levels:", 1)[1].split("paragraphs:", 1)[0]
    per_byte = [int(v) for v in re.findall(r"Level\(\s*(\d+),?\s*\)", body)]
    paragraph = int(re.search(r"level: Level\(\s*(\d+)", debug.split("paragraphs:", 1)[1]).group(1))
    levels, offset = [], 0
    for ch in text:
        levels.append(per_byte[offset])
        offset += len(ch.encode("utf-8"))
    storage = bidi_python.get_empty_storage()
    base = bidi_python.get_base_level(text)
    storage["base_level"], storage["base_dir"] = base, ("L", "R")[base]
    bidi_python.get_embedding_levels(text, storage)
    bidi_python.explicit_embed_and_overrides(storage)
    bidi_python.resolve_weak_types(storage)
    bidi_python.resolve_neutral_types(storage, False)
    bidi_python.resolve_implicit_levels(storage, False)
    python_levels = [c["level"] for c in storage["chars"]]
    if python_levels != levels or base != paragraph or bidi.get_base_level(text) != base:
        fail(f"python-bidi's implementations disagree on {text!r}: {levels} {python_levels}")
    return base, levels


def bidi_case(name, text, script_font):
    base, levels = bidi_levels(text)
    runs, start = [], 0
    for i in range(1, len(text) + 1):
        if i == len(text) or levels[i] != levels[start]:
            runs.append({"start": start, "end": i, "level": levels[start]})
            start = i
    order = list(range(len(runs)))
    top = max(r["level"] for r in runs)
    lowest_odd = min([l for l in (r["level"] for r in runs) if l % 2] or [top + 1])
    for level in range(top, lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if runs[order[i]]["level"] >= level:
                j = i
                while j < len(order) and runs[order[j]]["level"] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    display = "".join(text[runs[k]["start"]:runs[k]["end"]][::(-1 if runs[k]["level"] % 2 else 1)] for k in order)
    if display != bidi.get_display(text):
        fail(f"visual order of {text!r} differs from python-bidi's get_display: {display!r}")
    codepoints = [ord(c) for c in text]
    pen, out_runs, cli_agrees = 0.0, [], True
    for k in order:
        run = runs[k]
        piece = text[run["start"]:run["end"]]
        path = script_font if has_glyphs(script_font, piece) else NOTO
        direction = "rtl" if run["level"] % 2 else "ltr"
        buf, glyphs = shape(path, codepoints, {}, run["start"], run["end"] - run["start"], direction)
        _, alone = shape(path, [ord(c) for c in piece], {}, 0, -1, direction)
        if [dict(g, cluster=g["cluster"] + run["start"]) for g in alone] != glyphs:
            fail(f"{name}: run {piece!r} shapes differently with and without the paragraph as context")
        cli = hb_shape_cli(path, piece, {}, direction)
        if cli is not None:
            cli_agrees &= [dict(g, cluster=g["cluster"] + run["start"]) for g in cli] == glyphs
        scale = BIDI_FONT_SIZE / upem(path)
        pens, origins = [], []
        for g in glyphs:
            pens.append(pen)
            origins.append(pen + g["xo"] * scale)
            pen += g["xa"] * scale
        out_runs.append({
            "text": piece, "start": run["start"], "end": run["end"], "level": run["level"],
            "direction": direction, "script": buf.script, "font": path, "upem": upem(path),
            **glyph_arrays(path, glyphs), "penX": pens, "originX": origins,
        })
    return {
        "name": name, "text": text, "baseLevel": base, "baseDirection": "rtl" if base else "ltr",
        "levels": levels, "display": display, "fontSize": BIDI_FONT_SIZE, "width": pen,
        "runs": out_runs, "systemHbShapeAgrees": cli_agrees,
    }


def shaping_references():
    cases = []
    for name, path, text, feats in SHAPING:
        buf, glyphs = shape(path, [ord(c) for c in text], feats)
        cli = hb_shape_cli(path, text, feats)
        cases.append({
            "name": name, "font": path, "upem": upem(path), "text": text,
            "features": {k: int(v) for k, v in feats.items()},
            "direction": buf.direction, "script": buf.script, **glyph_arrays(path, glyphs),
            "systemHbShapeAgrees": None if cli is None else cli == glyphs,
        })
    return cases


def versions():
    return {
        "Pillow": PIL.__version__, "raqm": features.version("raqm"), "fribidi": features.version("fribidi"),
        "harfbuzz (Pillow)": features.version("harfbuzz"), "freetype (Pillow)": features.version("freetype2"),
        "uharfbuzz": hb.__version__, "harfbuzz (uharfbuzz)": hb.version_string(), "python-bidi": bidi.VERSION,
        "numpy": np.__version__,
    }


def write_json(path, data):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--psnr", action="store_true", help="compare 8x, 16x and 32x renderings with 64x")
    args = parser.parse_args()
    if not features.check("raqm"):
        fail("Pillow's raqm layout is not available (is libfribidi0 installed?)")
    os.makedirs(RENDER_OUT, exist_ok=True)
    os.makedirs(SHAPING_OUT, exist_ok=True)

    documented = []
    names = set()
    for c in CASES:
        if c["name"] in names:
            fail(f"duplicate case {c['name']}")
        names.add(c["name"])
        cv = c["canvas"]
        limit = (480, 200) if cv["scale"] == 1 else (300, 120)
        if cv["width"] > limit[0] or cv["height"] > limit[1]:
            fail(f"{c['name']}: canvas too large")
        lines = layout(c)
        rgb = render(c, lines)
        Image.fromarray(rgb, "RGB").save(os.path.join(RENDER_OUT, c["name"] + ".png"), optimize=True)
        asc, desc, gap = extents(c["font"])
        documented.append(dict(c, fontExtents={"upem": upem(c["font"]), "ascender": asc, "descender": desc,
                                               "lineGap": gap},
                               lines=[{k: v for k, v in l.items() if not k.startswith("_")} for l in lines]))
        if args.psnr:
            other = {f: render(c, lines, f, check=False) for f in (8, 16, 64)}
            other[SUPERSAMPLE] = rgb
            print(f"{c['name']:36s} PSNR against 64x:" +
                  "".join(f"  {f}x {psnr(other[f], other[64]):6.2f} dB" for f in (8, 16, 32)))
    print(f"largest difference between raqm's and uharfbuzz's line widths: {max(WIDTH_DIFFERENCES):.4f} px")
    write_json(os.path.join(RENDER_OUT, "cases.json"), {
        "generator": "scripts/text-references.py (see its docstring for the conventions)",
        "versions": versions(), "supersample": SUPERSAMPLE, "cases": documented,
    })

    write_json(os.path.join(SHAPING_OUT, "shaping.json"), {
        "generator": "scripts/text-references.py (see its docstring for the conventions)",
        "versions": versions(),
        "shaping": shaping_references(),
        "bidi": [bidi_case(*b) for b in BIDI],
    })
    print(f"wrote {len(CASES)} rendered cases to {os.path.relpath(RENDER_OUT)} and {os.path.relpath(SHAPING_OUT)}/shaping.json")


if __name__ == "__main__":
    main()
