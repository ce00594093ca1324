#!/usr/bin/env python3
"""Renders scene-level goldens with Skia (skia-python), an independent renderer.

For each case it writes, into Tests/ReelRenderTests/Goldens/:
- NAME.yaml, a Reel scene file of a few layers (the Swift test, SceneGoldenTests, renders it through
  SceneDecoder and SceneRenderer);
- NAME.png, the same layers drawn here with Skia from the same numbers, by Core Animation's rules as
  written below, never from Reel's output.
Run it through scripts/goldens.sh (which makes the virtual environment and runs both golden scripts).

Core Animation's rules this script implements itself (docs/scene-format.md states them for Reel):
- a layer with position p, anchorPoint a, bounds (bx, by, w, h) and transform T maps a point q of its
  own bounds space into its superlayer's as p + T(q - (bx + a.x w, by + a.y h)); sublayers live in the
  layer's bounds space; y points down, and a rotation by θ takes +x towards +y;
- a layer draws its shadow, background (rounded by cornerRadius), contents, sublayers, then its border:
  the region between the rounded bounds (radius r) and the bounds inset by borderWidth w (radius
  max(0, r - w)), so the border lies inside the bounds;
- opacity is group opacity: the layer and its sublayers are composited as one picture, then faded;
- a gradient layer fills its bounds with an axial gradient from startPoint to endPoint, in unit
  coordinates of the bounds, colours interpolated premultiplied;
- a shape layer fills its path (fillColor), then strokes it (strokeColor, lineWidth, lineJoin, lineCap).
"""
import math
import os
import sys

import numpy as np
import skia

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "ReelRenderTests", "Goldens")


def hex_colour(h):
    """"#rrggbb" or "#rrggbbaa" as straight RGBA in 0..1."""
    h = h.lstrip("#")
    vals = [int(h[i:i + 2], 16) / 255 for i in range(0, len(h), 2)]
    return vals + [1.0] * (4 - len(vals))


def paint(colour, **kw):
    p = skia.Paint(AntiAlias=True, **kw)
    p.setColor4f(skia.Color4f(*hex_colour(colour)))
    return p


def rounded(x, y, w, h, r):
    path = skia.Path()
    if r > 0:
        path.addRRect(skia.RRect.MakeRectXY(skia.Rect.MakeXYWH(x, y, w, h), r, r))
    else:
        path.addRect(skia.Rect.MakeXYWH(x, y, w, h))
    return path


def svg_path(data):
    """Absolute M, L, C and Z path data (all the cases use) as a Skia path."""
    tokens, path, i = data.split(), skia.Path(), 0
    while i < len(tokens):
        cmd = tokens[i]
        n = {"M": 2, "L": 2, "C": 6, "Z": 0}[cmd]
        v = [float(t) for t in tokens[i + 1:i + 1 + n]]
        if cmd == "M":
            path.moveTo(*v)
        elif cmd == "L":
            path.lineTo(*v)
        elif cmd == "C":
            path.cubicTo(*v)
        else:
            path.close()
        i += 1 + n
    return path


def layer_matrix(layer):
    """The matrix from a layer's bounds space to its superlayer's (Core Animation's rule above)."""
    px, py = layer["position"]
    bx, by, w, h = [0, 0] + layer["bounds"]
    ax, ay = layer.get("anchorPoint", [0.5, 0.5])
    t = layer.get("transform", {})
    s, theta = t.get("scale", 1), t.get("rotation", 0)
    c, n = s * math.cos(theta), s * math.sin(theta)
    m = skia.Matrix()
    # x' = px + c (x - ox) - n (y - oy);  y' = py + n (x - ox) + c (y - oy)
    ox, oy = bx + ax * w, by + ay * h
    m.setAll(c, -n, px - c * ox + n * oy, n, c, py - n * ox - c * oy, 0, 0, 1)
    return m


class Compositor:
    """Draws each call alone with Skia at k times the size, averages it over k x k blocks (so its
    anti-aliasing is accurate to about 1/k of Skia's own: at 1x Skia places edges on a quarter-pixel
    grid), and composites the result source-over at 1x in floating point, premultiplied. That is the
    model of Core Animation (and Core Graphics, and Reel): each shape anti-aliased on its own, then
    composited, so where two shapes share an edge (a background under its border) the first shows
    faintly through the second's edge pixels; one supersampled picture of both would hide that."""

    def __init__(self, w, h, k):
        self.w, self.h, self.k = w, h, k
        self.pictures = [np.ones((h, w, 4))]  # the opaque white background
        self.matrices = [skia.Matrix()]

    def push_matrix(self, m):
        self.matrices.append(skia.Matrix.Concat(self.matrices[-1], m))

    def pop_matrix(self):
        self.matrices.pop()

    def draw(self, path, p):
        k = self.k
        surface = skia.Surface(self.w * k, self.h * k)
        canvas = surface.getCanvas()
        canvas.clear(skia.Color4f(0, 0, 0, 0))
        canvas.scale(k, k)
        canvas.concat(self.matrices[-1])
        canvas.drawPath(path, p)
        a = surface.makeImageSnapshot().toarray(
            colorType=skia.ColorType.kRGBA_8888_ColorType, alphaType=skia.AlphaType.kPremul_AlphaType) / 255
        self.over(a.reshape(self.h, k, self.w, k, 4).mean(axis=(1, 3)))

    def over(self, src):
        dst = self.pictures[-1]
        dst[:] = src + dst * (1 - src[..., 3:4])

    def begin_group(self):
        self.pictures.append(np.zeros((self.h, self.w, 4)))

    def end_group(self, opacity):
        self.over(self.pictures.pop() * opacity)

    def result(self):
        return np.clip(np.floor(self.pictures[0] * 255 + 0.5), 0, 255).astype(np.uint8)


def draw_layer(out, layer):
    out.push_matrix(layer_matrix(layer))
    bx, by, w, h = [0, 0] + layer["bounds"]
    r = layer.get("cornerRadius", 0)
    opacity = layer.get("opacity", 1)
    if opacity < 1:
        out.begin_group()
    if "backgroundColor" in layer:
        out.draw(rounded(bx, by, w, h, r), paint(layer["backgroundColor"]))
    kind = layer.get("type", "layer")
    if kind == "gradient":
        sx, sy = layer["startPoint"]
        ex, ey = layer["endPoint"]
        colours = [skia.Color4f(*hex_colour(c)).toColor() for c in layer["colors"]]
        locations = list(layer["locations"])
        # Outside the first and last locations the end colours hold: stops added at 0 and 1.
        if locations[0] > 0:
            colours, locations = [colours[0]] + colours, [0.0] + locations
        if locations[-1] < 1:
            colours, locations = colours + [colours[-1]], locations + [1.0]
        shader = skia.GradientShader.MakeLinear(
            [skia.Point(bx + sx * w, by + sy * h), skia.Point(bx + ex * w, by + ey * h)], colours, locations,
            skia.TileMode.kClamp, skia.GradientShader.kInterpolateColorsInPremul_Flag)
        p = skia.Paint(AntiAlias=True)
        p.setShader(shader)
        out.draw(rounded(bx, by, w, h, 0), p)
    elif kind == "shape":
        path = svg_path(layer["path"])
        if layer.get("fillColor"):
            out.draw(path, paint(layer["fillColor"]))
        if layer.get("strokeColor"):
            p = paint(layer["strokeColor"], Style=skia.Paint.kStroke_Style, StrokeWidth=layer.get("lineWidth", 1))
            p.setStrokeJoin({"miter": skia.Paint.kMiter_Join, "round": skia.Paint.kRound_Join,
                             "bevel": skia.Paint.kBevel_Join}[layer.get("lineJoin", "miter")])
            p.setStrokeCap({"butt": skia.Paint.kButt_Cap, "round": skia.Paint.kRound_Cap,
                            "square": skia.Paint.kSquare_Cap}[layer.get("lineCap", "butt")])
            p.setStrokeMiter(layer.get("miterLimit", 10))
            out.draw(path, p)
    for sub in layer.get("sublayers", []):
        draw_layer(out, sub)
    bw = min(layer.get("borderWidth", 0), w / 2, h / 2)
    if bw > 0:
        ring = rounded(bx, by, w, h, r)
        ring.addPath(rounded(bx + bw, by + bw, w - 2 * bw, h - 2 * bw, max(0, r - bw)))
        ring.setFillType(skia.PathFillType.kEvenOdd)
        out.draw(ring, paint(layer.get("borderColor", "#000000")))
    if opacity < 1:
        out.end_group(opacity)
    out.pop_matrix()


def cases():
    """Small scenes, each exercising one of Core Animation's layer rules. Numbers are chosen off the
    pixel grid (fractional positions, radii, widths) so that anti-aliased edges are compared too."""
    blue, yellow, orange, teal, ink = "#3478f6", "#eecd34", "#e76b39", "#18deb9", "#202020"
    return [
        # A rounded rectangle with a border: the border inside the bounds, its inner corner radius r - w.
        {"name": "rounded_border", "width": 120, "height": 90, "supersample": 4, "layers": [
            {"name": "card", "position": [60.3, 44.6], "bounds": [90, 62], "cornerRadius": 14.5,
             "backgroundColor": yellow, "borderWidth": 5.5, "borderColor": blue},
        ]},
        # A gradient layer: an axial gradient across the bounds at an angle, uneven locations, a
        # half-transparent stop (interpolated premultiplied), over a coloured background layer.
        {"name": "gradient_layer", "width": 120, "height": 80, "supersample": 1, "layers": [
            {"name": "under", "position": [60, 40], "bounds": [120, 80], "backgroundColor": "#f0f0f0"},
            {"name": "ramp", "type": "gradient", "position": [60, 40], "bounds": [100, 60],
             "colors": [blue, "#e76b3980", teal], "locations": [0.1, 0.55, 0.9],
             "startPoint": [0, 0.2], "endPoint": [1, 0.8]},
        ]},
        # A shape layer: a closed path of lines and a cubic, filled, then stroked with round joins.
        {"name": "shape_stroke", "width": 120, "height": 100, "supersample": 4, "layers": [
            {"name": "blob", "type": "shape", "position": [60, 50], "bounds": [100, 80],
             "path": "M 12.5 70 L 30 12.25 C 55 -4 80 20 88 40 L 70.5 72 Z",
             "fillColor": orange, "strokeColor": ink, "lineWidth": 4.5, "lineJoin": "round"},
        ]},
        # Group opacity: two overlapping opaque squares in a half-transparent parent. As one picture the
        # overlap shows only the front square; faded one by one, the back one would show through.
        {"name": "opacity_group", "width": 120, "height": 90, "supersample": 4, "layers": [
            {"name": "group", "position": [60, 45], "bounds": [120, 90], "opacity": 0.5, "sublayers": [
                {"name": "back", "position": [45.5, 40.25], "bounds": [50, 50], "backgroundColor": blue},
                {"name": "front", "position": [72.75, 52.5], "bounds": [50, 44], "cornerRadius": 9,
                 "backgroundColor": orange},
            ]},
        ]},
        # Transforms: a parent turned and scaled about an anchor point off its centre; a sublayer placed
        # by its top-left corner (anchorPoint [0, 0]) and turned again, with a border of its own.
        {"name": "transformed_sublayer", "width": 140, "height": 110, "supersample": 4, "layers": [
            {"name": "parent", "position": [62.5, 50.5], "bounds": [80, 56], "anchorPoint": [0.25, 0.4],
             "transform": {"scale": 1.15, "rotation": 0.35}, "backgroundColor": teal, "cornerRadius": 6,
             "sublayers": [
                 {"name": "child", "position": [30.5, 10.25], "bounds": [36, 22], "anchorPoint": [0, 0],
                  "transform": {"rotation": -0.6}, "backgroundColor": yellow,
                  "borderWidth": 2.5, "borderColor": ink},
             ]},
        ]},
    ]


def yaml_value(v, indent):
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {yaml_value(x, indent)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        if v and isinstance(v[0], dict):
            pad = " " * indent
            return "\n" + "\n".join(pad + "- " + yaml_layer(x, indent + 2) for x in v)
        return "[" + ", ".join(yaml_value(x, indent) for x in v) + "]"
    if isinstance(v, str):
        return '"' + v + '"'
    return repr(v)


def yaml_layer(layer, indent):
    pad = " " * indent
    keys = [k for k in layer if k != "sublayers"]
    lines = [f"{k}: {yaml_value(layer[k], indent)}" for k in keys]
    if "sublayers" in layer:
        lines.append("sublayers:" + yaml_value(layer["sublayers"], indent + 2))
    return ("\n" + pad).join(lines)


def scene_yaml(case):
    head = (f"# {case['name']}: written by scripts/scene-goldens.py, which draws the same layers with Skia\n"
            f"# into {case['name']}.png. Edit the script, not this file.\n"
            f"width: {case['width']}\nheight: {case['height']}\nfps: 10\nduration: 0.1\nbackground: \"#ffffff\"\nlayers:")
    return head + yaml_value(case["layers"], 2) + "\n"


def main():
    os.makedirs(OUT, exist_ok=True)
    all_cases = cases()
    for case in all_cases:
        # Gradients at 1x, which averaging would smooth (their rectangles' edges lie on whole pixels).
        out = Compositor(case["width"], case["height"], case["supersample"])
        for layer in case["layers"]:
            draw_layer(out, layer)
        out = out.result()
        skia.Image.fromarray(out, colorType=skia.ColorType.kRGBA_8888_ColorType).save(
            os.path.join(OUT, case["name"] + ".png"), skia.kPNG)
        with open(os.path.join(OUT, case["name"] + ".yaml"), "w") as f:
            f.write(scene_yaml(case))
    print(f"scene-goldens: wrote {len(all_cases)} scenes to {os.path.relpath(OUT)} (skia-python {skia.__version__})")


if __name__ == "__main__":
    sys.exit(main())
