#!/usr/bin/env python3
"""Renders the rasterizer's golden corpus with Skia (skia-python), an independent renderer.

Writes Tests/ReelRasterTests/Goldens/corpus.json (the cases, read by the Swift tests, which draw the
same cases with Reel) and one NAME.png per case. Run it through scripts/goldens.sh, which makes the
virtual environment. Every case is described once, here; nothing is taken from Reel's output.

Conventions shared with the Swift side (Tests/ReelRasterTests/GoldenTests.swift):
- paths are lists of absolute commands ["M", x, y], ["L", x, y], ["Q", cx, cy, x, y],
  ["C", c1x, c1y, c2x, c2y, x, y], ["Z"], in device pixels, y down;
- colours are straight RGBA in 0..1;
- "stroke" ops take Core Animation's stroke properties; dashes are laid out on the whole path first and
  trimming (strokeStart/strokeEnd, fractions of the total length of all subpaths) cuts them after;
- gradient locations need not start at 0 or end at 1: outside them the end colours hold; colours are
  interpolated premultiplied;
- the test image is 8x8 pixels: pixel (x, y) = (32x, 32y, 255 - 16(x + y), 255), drawn through a
  matrix [a, b, c, d, tx, ty] (x' = a x + c y + tx, y' = b x + d y + ty) with bilinear filtering and
  clamped edges, over the image's rectangle;
- groups composite their content as one picture with an opacity, an optional clip path (anti-aliased)
  and an optional mask (its alpha multiplies the group).
"""
import json
import math
import os
import sys

import skia

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "ReelRasterTests", "Goldens")


def rgba(r, g, b, a=1.0):
    return [r, g, b, a]


BLACK, WHITE = rgba(0, 0, 0), rgba(1, 1, 1)
YELLOW, ORANGE, GREY, BLUE = rgba(0.933, 0.804, 0.204), rgba(0.906, 0.420, 0.224), rgba(0.62, 0.608, 0.608), rgba(0.204, 0.471, 0.965)


def star(cx, cy, r, points=5, step=2):
    cmds = []
    for i in range(points):
        a = -math.pi / 2 + i * step * 2 * math.pi / points
        cmds.append(["M" if i == 0 else "L", cx + r * math.cos(a), cy + r * math.sin(a)])
    return cmds + [["Z"]]


def polyline(*pts, closed=False):
    cmds = [["M" if i == 0 else "L", x, y] for i, (x, y) in enumerate(pts)]
    return cmds + ([["Z"]] if closed else [])


def rect(x, y, w, h):
    return polyline((x, y), (x + w, y), (x + w, y + h), (x, y + h), closed=True)


def circle(cx, cy, r):
    k = 0.5522847498 * r
    return [["M", cx + r, cy],
            ["C", cx + r, cy + k, cx + k, cy + r, cx, cy + r],
            ["C", cx - k, cy + r, cx - r, cy + k, cx - r, cy],
            ["C", cx - r, cy - k, cx - k, cy - r, cx, cy - r],
            ["C", cx + k, cy - r, cx + r, cy - k, cx + r, cy], ["Z"]]


def stroke(path, color, width, cap="butt", join="miter", miter=10, dash=None, phase=0, trim=None):
    op = {"op": "stroke", "path": path, "color": color, "width": width, "cap": cap, "join": join, "miterLimit": miter}
    if dash:
        op["dash"], op["phase"] = dash, phase
    if trim:
        op["trim"] = trim
    return op


def fill(path, color=None, rule="nonZero", gradient=None):
    op = {"op": "fill", "path": path, "rule": rule}
    if gradient:
        op["gradient"] = gradient
    else:
        op["color"] = color
    return op


def cases():
    out = []

    def case(name, w, h, ops, background=WHITE, supersample=4):
        out.append({"name": name, "width": w, "height": h, "background": background, "ops": ops, "supersample": supersample})

    # Every cap and join, on an open zig-zag with a sharp and a gentle turn.
    ops = []
    for row, cap in enumerate(["butt", "round", "square"]):
        for col, join in enumerate(["miter", "round", "bevel"]):
            x, y = 14 + col * 70, 16 + row * 46
            ops.append(stroke(polyline((x, y + 26), (x + 22, y), (x + 34, y + 24), (x + 52, y + 14)), BLACK, 7.3, cap, join))
    case("caps_and_joins", 220, 150, ops)

    # Miter limit edge cases: a 90 degree corner has a miter ratio of sqrt(2) = 1.414; sharp corners.
    ops = []
    for i, limit in enumerate([1.0, 1.4, 1.42, 4.0, 10.0]):
        x = 12 + i * 42
        ops.append(stroke(polyline((x, 60), (x + 14, 14), (x + 28, 60)), BLACK, 6, "butt", "miter", limit))
        ops.append(stroke(polyline((x, 100), (x + 14, 76), (x + 28, 100)), ORANGE, 5, "butt", "miter", limit))
    case("miter_limits", 220, 115, ops)

    # Dashes with phase, on lines and a closed curve.
    ops = [
        stroke(polyline((10, 15), (210, 15)), BLACK, 4, "butt", dash=[12, 6], phase=0),
        stroke(polyline((10, 30), (210, 30)), BLACK, 4, "butt", dash=[12, 6], phase=5),
        stroke(polyline((10, 45), (210, 45)), BLACK, 4, "round", dash=[0.001, 10], phase=0),
        stroke(polyline((10, 60), (210, 60)), BLACK, 1.5, "square", dash=[5, 3, 1, 3], phase=-2.5),
        stroke(circle(60, 110, 35), BLUE, 5, "butt", dash=[9, 4], phase=3),
        stroke(polyline((120, 80), (200, 80), (200, 140), (120, 140), closed=True), ORANGE, 4, "butt", "miter", dash=[20, 7], phase=0),
    ]
    case("dashes", 220, 155, ops)

    # Trims across subpaths (strokeStart/strokeEnd), with and without dashes.
    two = polyline((10, 20), (110, 20)) + polyline((10, 45), (110, 45), (110, 70))
    ops = [
        stroke(two, BLACK, 5, "butt", trim=[0.2, 0.7]),
        stroke([[c[0]] + [v + (120 if j % 2 == 0 else 0) for j, v in enumerate(c[1:])] for c in two], BLUE, 5, "round", dash=[10, 5], trim=[0.1, 0.95]),
        stroke(circle(60, 120, 30), ORANGE, 6, "round", trim=[0.0, 0.6]),
        stroke(circle(170, 120, 30), ORANGE, 6, "butt", trim=[0.3, 0.9]),
    ]
    case("trims", 230, 160, ops)

    # Self-intersecting stars under both fill rules.
    case("fill_rules", 220, 110, [
        fill(star(55, 55, 48), YELLOW, "nonZero"),
        fill(star(165, 55, 48), YELLOW, "evenOdd"),
        fill(star(55, 55, 20, 7, 3), BLUE, "evenOdd"),
        fill(star(165, 55, 20, 7, 3), BLUE, "nonZero"),
    ])

    # Tiny (sub-pixel) and huge coordinates.
    # (The huge shapes' visible edges fall on exactly representable points, so Skia's float32
    # clipping of ±1e6 coordinates is exact there too.)
    ops = [fill(polyline((-1e6, -1e6), (1e6, 1e6), (-1e6, 1e6), closed=True), BLUE)]
    ops += [fill(rect(-1e6, 95.5, 2e6, 1e6), ORANGE)]
    ops += [stroke(polyline((-1e6, 70.25), (1e6, 70.25)), BLACK, 2.5)]
    ops += [fill(rect(40 + i * 5.3, 10.2 + i * 2.1, 0.3 + 0.1 * i, 0.45), BLACK) for i in range(10)]
    case("tiny_and_huge", 100, 110, ops)

    # Hairlines at fractional offsets.
    ops = []
    for i in range(8):
        off = i / 8
        ops.append(stroke(polyline((5, 8 + i * 10 + off), (95, 8 + i * 10 + off)), BLACK, 0.3 + 0.1 * i))
        ops.append(stroke(polyline((110 + i * 10 + off, 5), (118 + i * 10 + off, 80)), BLACK, 0.5))
    case("hairlines", 200, 90, ops)

    # Shapes sharing edges: no seam where two fills meet.
    ops = []
    for i in range(6):
        x0, x1 = 10 + i * 13.37, 10 + (i + 1) * 13.37
        ops.append(fill(polyline((x0, 10.5), (x1, 10.5), (x1 + 6.1, 60.25), (x0 + 6.1, 60.25), closed=True), BLUE))
    ops.append(fill(polyline((100, 10), (150, 35.3), (100, 60.7), closed=True), ORANGE))
    ops.append(fill(polyline((150, 35.3), (100, 60.7), (150, 85), closed=True), ORANGE))
    # Drawn at 1x: where two anti-aliased shapes share an edge, compositing one after the other leaves a
    # faint seam (coverage c, then 1 - c over it). Skia and Core Graphics both draw it that way at 1x,
    # so this checks Reel's seams are theirs and no crack is worse; a supersampled golden would have none.
    case("shared_edges", 170, 95, ops, supersample=1)

    # Gradients with uneven locations: linear, radial (elliptical), sweep.
    g = [rgba(0.031, 0.871, 0.839), rgba(0.094, 0.871, 0.725), rgba(0.937, 0.612, 0.161), rgba(0.906, 0.420, 0.224)]
    case("gradients", 240, 100, supersample=1, ops=[
        fill(rect(5, 5, 110, 40), gradient={"type": "linear", "start": [10, 0], "end": [110, 20], "colors": g, "locations": [0.1, 0.33, 0.63, 0.9]}),
        fill(rect(125, 5, 110, 90), gradient={"type": "radial", "center": [180, 50], "radiusX": 50, "radiusY": 30, "colors": [WHITE, BLUE, BLACK], "locations": [0, 0.3, 1]}),
        fill(circle(60, 72, 24), gradient={"type": "sweep", "center": [60, 72], "colors": [YELLOW, ORANGE, BLUE, YELLOW], "locations": [0, 0.2, 0.7, 1]}),
    ])

    # The test image, rotated and scaled, with bilinear filtering.
    case("rotated_images", 120, 100, supersample=1, ops=[
        {"op": "image", "matrix": [4, 0, 0, 4, 5, 5]},
        {"op": "image", "matrix": [4 * math.cos(0.5), 4 * math.sin(0.5), -4 * math.sin(0.5), 4 * math.cos(0.5), 80, 15]},
        {"op": "image", "matrix": [2.5, 1.0, -0.7, 3.1, 30.3, 52.6]},
    ])

    # Nested group opacity.
    inner = {"op": "group", "opacity": 0.6, "ops": [fill(rect(60, 20, 50, 50), BLUE), fill(rect(85, 45, 50, 50), YELLOW)]}
    case("group_opacity", 160, 110, [
        {"op": "group", "opacity": 0.7, "ops": [fill(rect(10, 10, 70, 70), ORANGE), inner, fill(circle(40, 80, 20), BLACK)]},
    ])

    # Clips and masks.
    case("clips_and_masks", 200, 110, [
        {"op": "group", "opacity": 1, "clip": circle(50, 55, 42), "ops": [
            fill(rect(0, 0, 100, 55), ORANGE), fill(rect(0, 55, 100, 55), BLUE), stroke(polyline((0, 0), (100, 110)), BLACK, 6)]},
        {"op": "group", "opacity": 0.9, "mask": [
            fill(rect(100, 0, 100, 110), gradient={"type": "linear", "start": [110, 0], "end": [190, 0], "colors": [BLACK, rgba(0, 0, 0, 0)], "locations": [0, 1]})],
         "ops": [fill(star(150, 55, 50), YELLOW), stroke(star(150, 55, 50), BLACK, 2.5, "round", "round")]},
    ])
    return out


def to_path(cmds):
    p = skia.Path()
    for c in cmds:
        k = c[0]
        if k == "M":
            p.moveTo(c[1], c[2])
        elif k == "L":
            p.lineTo(c[1], c[2])
        elif k == "Q":
            p.quadTo(c[1], c[2], c[3], c[4])
        elif k == "C":
            p.cubicTo(c[1], c[2], c[3], c[4], c[5], c[6])
        elif k == "Z":
            p.close()
    return p


def color4f(c):
    return skia.Color4f(c[0], c[1], c[2], c[3])


def padded_stops(colors, locations):
    """Skia wants stops from 0 to 1; outside the given locations the end colours hold."""
    cs = [skia.Color4f(*c).toColor() for c in colors]
    ls = list(locations) if locations else [i / (len(colors) - 1) for i in range(len(colors))]
    if ls[0] > 0:
        cs, ls = [cs[0]] + cs, [0.0] + ls
    if ls[-1] < 1:
        cs, ls = cs + [cs[-1]], ls + [1.0]
    return cs, ls


def shader(g):
    cs, ls = padded_stops(g["colors"], g.get("locations"))
    premul = skia.GradientShader.kInterpolateColorsInPremul_Flag
    if g["type"] == "linear":
        return skia.GradientShader.MakeLinear([skia.Point(*g["start"]), skia.Point(*g["end"])], cs, ls, skia.TileMode.kClamp, premul)
    if g["type"] == "radial":
        cx, cy = g["center"]
        m = skia.Matrix()
        m.setScale(1, g["radiusY"] / g["radiusX"], cx, cy)
        return skia.GradientShader.MakeRadial(skia.Point(cx, cy), g["radiusX"], cs, ls, skia.TileMode.kClamp, premul, m)
    cx, cy = g["center"]
    return skia.GradientShader.MakeSweep(cx, cy, cs, ls, skia.TileMode.kClamp, 0, 360, premul)


def dash_intervals(length, pattern, phase):
    """The "on" intervals of a dash pattern along one contour (Core Graphics' rule: the pattern
    starts again on each subpath, shifted by the phase; an odd pattern is repeated)."""
    if len(pattern) % 2:
        pattern = pattern + pattern
    period = sum(pattern)
    pos, i, out = -(phase % period), 0, []
    while pos <= length:
        seg = pattern[i]
        if i % 2 == 0:
            a, b = max(pos, 0.0), min(pos + seg, length)
            if b > a or (seg == 0 and 0 <= pos <= length):
                out.append((a, b))
        pos += seg
        i = (i + 1) % len(pattern)
    return out


def dash_and_trim(path, pattern, phase, trim):
    """Core Animation's dashes and strokeStart/strokeEnd, done here rather than with Skia's path
    effects (Skia's trim measures the dashed path, not the original): dashes are laid out on every
    contour, trim fractions are of the total length of all contours, and a dash that runs through the
    closing point of a closed contour is one joined piece. Skia's ContourMeasure cuts the pieces."""
    def contours():
        m = skia.PathMeasure(path, False)
        while True:
            yield m
            if not m.nextContour():
                return

    total = sum(m.getLength() for m in contours())
    lo, hi = (trim[0] * total, trim[1] * total) if trim else (0.0, total)
    out, offset = skia.Path(), 0.0
    for c in contours():
        n = c.getLength()
        ivs = dash_intervals(n, pattern, phase) if pattern else [(0.0, n)]
        ivs = [(max(a + offset, lo) - offset, min(b + offset, hi) - offset) for a, b in ivs]
        ivs = [(a, b) for a, b in ivs if b > a or (b == a and lo <= a + offset <= hi and pattern)]
        wrap = c.isClosed() and bool(pattern) and len(ivs) > 1 and ivs[0][0] <= 0 and ivs[-1][1] >= n
        def segment(a, b):
            seg = skia.Path()
            c.getSegment(a, b, seg, True)  # skia-python replaces, rather than appends to, its dst
            return seg

        if wrap:
            joined = segment(ivs[-1][0], n)
            joined.addPath(segment(0, ivs[0][1]), skia.Path.AddPathMode.kExtend_AddPathMode)
            out.addPath(joined)
            ivs = ivs[1:-1]
        for a, b in ivs:
            seg = segment(a, b)
            if c.isClosed() and a <= 0 and b >= n and not pattern:
                seg.close()
            out.addPath(seg)
        offset += n
    return out


def test_image():
    import numpy as np
    a = np.zeros((8, 8, 4), dtype=np.uint8)
    for y in range(8):
        for x in range(8):
            a[y, x] = (min(255, 32 * x), min(255, 32 * y), 255 - 16 * (x + y), 255)
    return skia.Image.fromarray(a, colorType=skia.ColorType.kRGBA_8888_ColorType)


def draw(canvas, ops):
    for op in ops:
        kind = op["op"]
        paint = skia.Paint(AntiAlias=True)
        if kind == "fill":
            path = to_path(op["path"])
            path.setFillType(skia.PathFillType.kEvenOdd if op["rule"] == "evenOdd" else skia.PathFillType.kWinding)
            if "gradient" in op:
                paint.setShader(shader(op["gradient"]))
            else:
                paint.setColor4f(color4f(op["color"]))
            canvas.drawPath(path, paint)
        elif kind == "stroke":
            paint.setStyle(skia.Paint.kStroke_Style)
            paint.setStrokeWidth(op["width"])
            paint.setStrokeCap({"butt": skia.Paint.kButt_Cap, "round": skia.Paint.kRound_Cap, "square": skia.Paint.kSquare_Cap}[op["cap"]])
            paint.setStrokeJoin({"miter": skia.Paint.kMiter_Join, "round": skia.Paint.kRound_Join, "bevel": skia.Paint.kBevel_Join}[op["join"]])
            paint.setStrokeMiter(op["miterLimit"])
            paint.setColor4f(color4f(op["color"]))
            path = to_path(op["path"])
            if "dash" in op or "trim" in op:
                path = dash_and_trim(path, op.get("dash"), op.get("phase", 0), op.get("trim"))
            canvas.drawPath(path, paint)
        elif kind == "image":
            a, b, c, d, tx, ty = op["matrix"]
            m = skia.Matrix.MakeAll(a, c, tx, b, d, ty, 0, 0, 1)
            paint.setShader(test_image().makeShader(skia.TileMode.kClamp, skia.TileMode.kClamp,
                                                    skia.SamplingOptions(skia.FilterMode.kLinear)))
            canvas.save()
            canvas.concat(m)
            canvas.drawRect(skia.Rect.MakeWH(8, 8), paint)
            canvas.restore()
        elif kind == "group":
            canvas.save()
            if "clip" in op:
                canvas.clipPath(to_path(op["clip"]), skia.ClipOp.kIntersect, True)
            canvas.saveLayerAlpha(None, round(op["opacity"] * 255))
            draw(canvas, op["ops"])
            if "mask" in op:
                canvas.saveLayer(None, skia.Paint(BlendMode=skia.BlendMode.kDstIn))
                draw(canvas, op["mask"])
                canvas.restore()
            canvas.restore()
            canvas.restore()


def main():
    os.makedirs(OUT, exist_ok=True)
    all_cases = cases()
    import numpy as np
    for c in all_cases:
        # Drawn at k times the size and averaged over k x k blocks, so the golden's anti-aliasing is
        # accurate to about 1/k of Skia's own (its edge coverage is approximate, and it draws strokes
        # thinner than a pixel as modulated hairlines); images and gradients are drawn at 1x, since
        # averaging would smooth them.
        k = c["supersample"]
        surface = skia.Surface(c["width"] * k, c["height"] * k)
        canvas = surface.getCanvas()
        canvas.clear(color4f(c["background"]))
        canvas.scale(k, k)
        draw(canvas, c["ops"])
        a = surface.makeImageSnapshot().toarray(colorType=skia.ColorType.kRGBA_8888_ColorType).astype(np.float64)
        a = a.reshape(c["height"], k, c["width"], k, 4).mean(axis=(1, 3))
        out = np.clip(np.floor(a + 0.5), 0, 255).astype(np.uint8)
        skia.Image.fromarray(out, colorType=skia.ColorType.kRGBA_8888_ColorType).save(os.path.join(OUT, c["name"] + ".png"), skia.kPNG)
    with open(os.path.join(OUT, "corpus.json"), "w") as f:
        json.dump({"renderer": "skia-python " + skia.__version__, "cases": all_cases}, f, indent=1)
    print(f"goldens: wrote {len(all_cases)} cases to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    sys.exit(main())
