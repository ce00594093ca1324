#!/usr/bin/env python3
"""Peer side of the rasterizer benchmark (run it through scripts/bench-raster.sh).

  bench_raster.py gen SPEC.json                 write the path sets (deterministic, seeded; the text rows'
                                                glyph outlines from Inter through uharfbuzz)
  bench_raster.py run SPEC.json --reel BIN      time Reel and the peers on them, print a Markdown table
        [--iterations N] [--threads T] [--rounds R] [--paired P] [--json OUT.json] [--skip PEER,...]
        [--tests NAME,...]

Every peer draws the same paths, anti-aliased, onto a 1920x1080 RGBA surface cleared to white at the
start of each iteration, and is made to finish its drawing before the clock stops. Native path and
paint objects are built once, outside the timed loop; the Python call per draw (about a microsecond)
is inside it, which is small next to the tens of microseconds a draw takes. The figure is the median
iteration: draws per millisecond = paths / median ms.

Reel runs R rounds (--rounds, default 3), each one thread then T threads back to back: its figures are
the medians over the rounds, and its T ÷ 1 column the median of each round's own ratio — on a shared
machine another tenant's burst takes a core from a T-thread run and not from a one-thread run minutes
apart, so a ratio of runs far apart measured the neighbour.

The same holds between Reel and Blend2D (#48's goal row): the table's Blend2D column is timed once, a
minute or more after Reel's rounds, and on the shared 2-core machine one row's Reel ÷ Blend2D moved
from 0.55 to 1.06 between two runs back to back. So Reel ÷ Blend2D is also taken paired (--paired P,
default 5): per test, P rounds of Reel on one thread (that test alone, from a spec file of its own)
then Blend2D straight after, the column the median of the rounds' own ratios, with their range.
"""
import argparse
import json
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time

W, H = 1920, 1080


# ----------------------------------------------------------------------------------------------------
# The path sets

def rotated_rects(r, n):
    out = []
    for _ in range(n):
        cx, cy = r.uniform(0, W), r.uniform(0, H)
        w, h, a = r.uniform(20, 120), r.uniform(20, 120), r.uniform(0, math.pi)
        ca, sa = math.cos(a), math.sin(a)
        pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
        out.append([["M" if i == 0 else "L", cx + x * ca - y * sa, cy + x * sa + y * ca] for i, (x, y) in enumerate(pts)] + [["Z"]])
    return out


def butterflies(r, n):
    """Temple Fay's butterfly curve sampled at 64 points and joined by Catmull-Rom cubics."""
    out = []
    for _ in range(n):
        s = r.uniform(80, 200) / 4
        cx, cy = r.uniform(4 * s, W - 4 * s), r.uniform(4 * s, H - 4 * s)
        pts = []
        for i in range(64):
            t = 12 * math.pi * i / 64
            rr = math.exp(math.sin(t)) - 2 * math.cos(4 * t) + math.sin((2 * t - math.pi) / 24) ** 5
            pts.append((cx + s * rr * math.sin(t), cy - s * rr * math.cos(t)))
        cmds = [["M", *pts[0]]]
        for i in range(64):
            p0, p1, p2, p3 = pts[i - 1], pts[i], pts[(i + 1) % 64], pts[(i + 2) % 64]
            c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
            c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
            cmds.append(["C", *c1, *c2, *p2])
        out.append(cmds + [["Z"]])
    return out


def world_map(r, n):
    """Irregular blobs of 40..120 vertices, like country outlines."""
    out = []
    for _ in range(n):
        cx, cy, rad, k = r.uniform(0, W), r.uniform(0, H), r.uniform(10, 60), r.randint(40, 120)
        ph = [r.uniform(0, 2 * math.pi) for _ in range(3)]
        cmds = []
        for i in range(k):
            t = 2 * math.pi * i / k
            rr = rad * (1 + 0.25 * math.sin(3 * t + ph[0]) + 0.15 * math.sin(7 * t + ph[1]) + 0.08 * math.sin(13 * t + ph[2]))
            cmds.append(["M" if i == 0 else "L", cx + rr * math.cos(t), cy + rr * math.sin(t)])
        out.append(cmds + [["Z"]])
    return out


# Words for the text row, written for this benchmark; sentences are drawn from them with a seed.
TEXT_WORDS = ("the a frame layer glyph curve render every motion quiet paint shadow bright river under over "
              "small large bounds scene clip timing spring ease colour path stroke fill window across twelve "
              "before after slowly quickly moves lands rests turns fades holds draws each line word cluster "
              "system north morning garden harbour paper signal orbit lantern meadow copper").split()
TEXT_FONT = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"


def text_runs(r):
    """Four paragraphs of Inter Regular at 16, 18, 20 and 24 px, shaped by HarfBuzz (uharfbuzz, kerning
    and ligatures on), wrapped greedily at 900 px and placed at fractional positions; each glyph's
    outline (CFF: cubic Béziers; a quadratic would be raised to a cubic, exactly) moved to its place.
    Returns (one path per word, one path per glyph): the same outlines, grouped as Reel's text layers
    group them (a fill per word) and as a glyph-at-a-time renderer would draw them."""
    import uharfbuzz as hb
    with open(TEXT_FONT, "rb") as f:
        blob = hb.Blob(f.read())
    face = hb.Face(blob)
    font = hb.Font(face)
    upem = face.upem
    font.scale = (upem, upem)

    class Pen:
        def __init__(self, ox, oy, s):
            self.ox, self.oy, self.s, self.cmds, self.cur = ox, oy, s, [], (0, 0)

        def pt(self, p):
            return round(self.ox + p[0] * self.s, 4), round(self.oy - p[1] * self.s, 4)

        def moveTo(self, p):
            self.cur = p
            self.cmds.append(["M", *self.pt(p)])

        def lineTo(self, p):
            self.cur = p
            self.cmds.append(["L", *self.pt(p)])

        def curveTo(self, c1, c2, p):
            self.cur = p
            self.cmds.append(["C", *self.pt(c1), *self.pt(c2), *self.pt(p)])

        def qCurveTo(self, c, p):
            q0 = self.cur
            c1 = (q0[0] + 2 / 3 * (c[0] - q0[0]), q0[1] + 2 / 3 * (c[1] - q0[1]))
            c2 = (p[0] + 2 / 3 * (c[0] - p[0]), p[1] + 2 / 3 * (c[1] - p[1]))
            self.curveTo(c1, c2, p)

        def closePath(self):
            self.cmds.append(["Z"])

    def shape(text):
        buf = hb.Buffer()
        buf.add_str(text)
        buf.guess_segment_properties()
        hb.shape(font, buf)
        return list(zip(buf.glyph_infos, buf.glyph_positions))

    space = shape(" ")[0][1].x_advance
    words_out, glyphs_out = [], []
    y = 31.37
    for size in [16, 18, 20, 24]:
        s = size / upem
        words = [r.choice(TEXT_WORDS) for _ in range({16: 150, 18: 120, 20: 100, 24: 70}[size])]
        shaped = [(w, shape(w)) for w in words]
        x0, x, first = 23.61, 23.61, True
        for w, glyphs in shaped:
            width = sum(p.x_advance for _, p in glyphs) * s
            if not first and x + width > x0 + 900:
                x, y = x0, y + size * 1.25 + 0.137
            elif not first:
                x += space * s
            first = False
            word = []
            pen_x = x
            for info, pos in glyphs:
                pen = Pen(pen_x + pos.x_offset * s, y - pos.y_offset * s, s)
                font.draw_glyph_with_pen(info.codepoint, pen)
                pen_x += pos.x_advance * s
                if pen.cmds:
                    glyphs_out.append(pen.cmds)
                    word += pen.cmds
            x = pen_x
            if word:
                words_out.append(word)
        y += size * 2.2
    return words_out, glyphs_out


def gen(path):
    r = random.Random(1)
    sets = {"rects": rotated_rects(r, 1000), "butterfly": butterflies(r, 20), "worldmap": world_map(r, 400)}
    tests = []
    for name, paths in sets.items():
        colors = [[round(r.random(), 4), round(r.random(), 4), round(r.random(), 4), 0.8] for _ in paths]
        for suffix, mode, paint in [("", "fill", "solid"), ("_stroke", "stroke", "solid"), ("_linear", "fill", "linear"), ("_image", "fill", "image")]:
            tests.append({"name": name + suffix, "mode": mode, "paint": paint, "strokeWidth": 2 if mode == "stroke" else 0,
                          "paths": paths, "colors": colors})
    words, glyphs = text_runs(random.Random(2))
    ink = [0.08, 0.09, 0.11, 1.0]  # text is opaque: near-black on the white surface
    for name, paths in [("text", words), ("text_glyphs", glyphs)]:
        tests.append({"name": name, "mode": "fill", "paint": "solid", "strokeWidth": 0, "paths": paths,
                      "colors": [ink] * len(paths)})
    image = []
    for y in range(64):
        for x in range(64):
            image += [4 * x, 4 * y, 255 - 2 * (x + y), 255]
    with open(path, "w") as f:
        json.dump({"width": W, "height": H, "image": {"width": 64, "height": 64, "rgba": image}, "tests": tests}, f)


def bbox(cmds):
    xs = [v for c in cmds for v in c[1::2]]
    ys = [v for c in cmds for v in c[2::2]]
    return min(xs), min(ys), max(xs), max(ys)


def median_draws_per_ms(n_paths, one_iteration, iterations):
    one_iteration()  # warm-up
    times = []
    for _ in range(iterations):
        t0 = time.perf_counter()
        one_iteration()
        times.append(time.perf_counter() - t0)
    ms = statistics.median(times) * 1000
    return n_paths / ms


# ----------------------------------------------------------------------------------------------------
# Peers

def bench_skia(spec, test, iterations):
    import numpy as np
    import skia
    surface = skia.Surface(W, H)
    canvas = surface.getCanvas()
    img = skia.Image.fromarray(np.array(spec["image"]["rgba"], dtype=np.uint8).reshape(64, 64, 4),
                               colorType=skia.ColorType.kRGBA_8888_ColorType)
    draws = []
    for cmds, col in zip(test["paths"], test["colors"]):
        p = skia.Path()
        for c in cmds:
            {"M": lambda: p.moveTo(c[1], c[2]), "L": lambda: p.lineTo(c[1], c[2]),
             "C": lambda: p.cubicTo(*c[1:]), "Z": lambda: p.close()}[c[0]]()
        paint = skia.Paint(AntiAlias=True)
        x0, y0, x1, y1 = bbox(cmds)
        if test["paint"] == "solid":
            paint.setColor4f(skia.Color4f(*col))
        elif test["paint"] == "linear":
            paint.setShader(skia.GradientShader.MakeLinear([skia.Point(x0, y0), skia.Point(x1, y1)],
                                                           [skia.Color4f(*col).toColor(), skia.ColorWHITE]))
        else:
            m = skia.Matrix.MakeAll((x1 - x0) / 64, 0, x0, 0, (y1 - y0) / 64, y0, 0, 0, 1)
            paint.setShader(img.makeShader(skia.TileMode.kClamp, skia.TileMode.kClamp, skia.SamplingOptions(skia.FilterMode.kLinear), m))
        if test["mode"] == "stroke":
            paint.setStyle(skia.Paint.kStroke_Style)
            paint.setStrokeWidth(test["strokeWidth"])
        draws.append((p, paint))

    def once():
        canvas.clear(skia.ColorWHITE)
        for p, paint in draws:
            canvas.drawPath(p, paint)
        surface.flushAndSubmit()  # a raster surface draws at once; this is for form
    return median_draws_per_ms(len(draws), once, iterations)


def bench_cairo(spec, test, iterations):
    import cairo
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, W, H)
    ctx = cairo.Context(surface)
    data = bytearray()
    for i in range(0, len(spec["image"]["rgba"]), 4):
        r, g, b, a = spec["image"]["rgba"][i:i + 4]
        data += bytes([b, g, r, a])  # cairo's ARGB32 is native-endian BGRA
    image = cairo.ImageSurface.create_for_data(data, cairo.FORMAT_ARGB32, 64, 64, 256)
    draws = []
    for cmds, col in zip(test["paths"], test["colors"]):
        ctx.new_path()
        for c in cmds:
            {"M": lambda: ctx.move_to(c[1], c[2]), "L": lambda: ctx.line_to(c[1], c[2]),
             "C": lambda: ctx.curve_to(*c[1:]), "Z": lambda: ctx.close_path()}[c[0]]()
        path = ctx.copy_path()
        x0, y0, x1, y1 = bbox(cmds)
        if test["paint"] == "solid":
            source = cairo.SolidPattern(*col)
        elif test["paint"] == "linear":
            source = cairo.LinearGradient(x0, y0, x1, y1)
            source.add_color_stop_rgba(0, *col)
            source.add_color_stop_rgba(1, 1, 1, 1, 1)
        else:
            source = cairo.SurfacePattern(image)
            source.set_filter(cairo.FILTER_BILINEAR)
            source.set_extend(cairo.EXTEND_PAD)
            m = cairo.Matrix(xx=(x1 - x0) / 64, yy=(y1 - y0) / 64, x0=x0, y0=y0)
            m.invert()
            source.set_matrix(m)
        draws.append((path, source))
    stroke = test["mode"] == "stroke"
    ctx.set_line_width(test["strokeWidth"] or 1)

    def once():
        ctx.set_source_rgb(1, 1, 1)
        ctx.paint()
        for path, source in draws:
            ctx.new_path()
            ctx.append_path(path)
            ctx.set_source(source)
            ctx.stroke() if stroke else ctx.fill()
        surface.flush()
    return median_draws_per_ms(len(draws), once, iterations)


def bench_blend2d(spec, test, iterations):
    import numpy as np
    import blend2d as b
    image = b.BLImage(W, H)
    ctx = b.BLContext(image)
    tex = b.BLImage(64, 64)
    px = np.array(spec["image"]["rgba"], dtype=np.uint8).reshape(64, 64, 4)
    tex_data = tex.getDataAsNumPy()  # premultiplied BGRA (PRGB32); the test image is opaque
    tex_data[:, :, 0], tex_data[:, :, 1], tex_data[:, :, 2], tex_data[:, :, 3] = px[:, :, 2], px[:, :, 1], px[:, :, 0], px[:, :, 3]
    draws = []
    for cmds, col in zip(test["paths"], test["colors"]):
        p = b.BLPath()
        for c in cmds:
            {"M": lambda: p.move_to(c[1], c[2]), "L": lambda: p.line_to(c[1], c[2]),
             "C": lambda: p.cubic_to(*c[1:]), "Z": lambda: p.close()}[c[0]]()
        x0, y0, x1, y1 = bbox(cmds)
        if test["paint"] == "solid":
            style = (col[0], col[1], col[2], col[3])
        elif test["paint"] == "linear":
            style = b.create_linear_gradient(x0, y0, x1, y1)
            style.add_stop(0.0, tuple(col))
            style.add_stop(1.0, (1.0, 1.0, 1.0, 1.0))
        else:
            m = b.make_scaling_matrix((x1 - x0) / 64, (y1 - y0) / 64)
            m.post_translate(x0, y0)
            style = b.BLPattern(tex, b.BLRectI(0, 0, 64, 64), b.BLExtendMode.PAD, m)
        draws.append((p, style))
    stroke = test["mode"] == "stroke"
    if stroke:
        ctx.stroke_width = test["strokeWidth"]

    def once():
        ctx.set_fill_style((1.0, 1.0, 1.0, 1.0))
        ctx.fill_all()
        for p, style in draws:
            if stroke:
                ctx.set_stroke_style(style)
                ctx.stroke_path(p)
            else:
                ctx.set_fill_style(style)
                ctx.fill_path(p)
        ctx.flush()
    return median_draws_per_ms(len(draws), once, iterations)


def bench_thorvg(spec, test, iterations, threads):
    """ThorVG keeps a retained scene and skips shapes that did not change, so each iteration moves
    every shape by a thousandth of a pixel (alternately there and back) to make it rasterize them
    again, then draws with clearing and waits for its workers (sync)."""
    import thorvg_python as tvg
    if test["paint"] == "image":
        return None  # an image fill needs a Picture clipped by each path: not measured
    engine = tvg.Engine(threads=threads)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(W, H)
    background = tvg.Shape(engine)
    background.append_rect(0, 0, W, H, 0, 0, True)
    background.set_fill_color(255, 255, 255, 255)
    canvas.add(background)
    shapes = []
    for cmds, col in zip(test["paths"], test["colors"]):
        s = tvg.Shape(engine)
        for c in cmds:
            {"M": lambda: s.move_to(c[1], c[2]), "L": lambda: s.line_to(c[1], c[2]),
             "C": lambda: s.cubic_to(*c[1:]), "Z": lambda: s.close()}[c[0]]()
        rgba = [round(v * 255) for v in col]
        x0, y0, x1, y1 = bbox(cmds)
        if test["mode"] == "stroke":
            s.set_stroke_width(test["strokeWidth"])
            s.set_stroke_color(*rgba)
        elif test["paint"] == "linear":
            g = tvg.LinearGradient(engine)
            g.set(x0, y0, x1, y1)
            g.set_color_stops([tvg.ColorStop(offset=0, r=rgba[0], g=rgba[1], b=rgba[2], a=rgba[3]),
                               tvg.ColorStop(offset=1, r=255, g=255, b=255, a=255)])
            s.set_gradient(g)
        else:
            s.set_fill_color(*rgba)
        canvas.add(s)
        shapes.append(s)

    flip = [0]

    def once():
        flip[0] ^= 1
        for s in shapes:
            s.translate(0.001 * flip[0], 0)
        canvas.update()
        canvas.draw(True)
        canvas.sync()
    result = median_draws_per_ms(len(shapes), once, iterations)
    engine.term() if hasattr(engine, "term") else None
    return result


def bench_reel(binary, spec_path, iterations, threads):
    out = subprocess.run([binary, spec_path, "--threads", str(threads), "--iterations", str(iterations)],
                         check=True, capture_output=True, text=True).stdout
    return {d["test"]: d["draws_per_ms"] for d in map(json.loads, out.splitlines())}


PEERS = {"cairo": "Cairo", "skia": "Skia (skia-python)", "blend2d": "Blend2D (blend2d-python)", "thorvg": "ThorVG (thorvg-python)"}


def versions(skipped):
    v = {}
    for key, get in [("cairo", lambda: __import__("cairo").cairo_version_string()),
                     ("skia", lambda: __import__("skia").__version__),
                     ("blend2d", lambda: __import__("importlib.metadata").metadata.version("blend2d-python")),
                     ("thorvg", lambda: __import__("importlib.metadata").metadata.version("thorvg-python"))]:
        v[key] = "skipped" if key in skipped else get()  # a peer that is not skipped must be there
    return v


def cpu():
    """The CPU's model and the widest of AVX-512F, AVX2 and SSE4.1 it has, from /proc/cpuinfo: Blend2D
    compiles its pipelines for the processor at run time while Reel's build targets baseline x86-64
    (SSE2), so Reel ÷ Blend2D depends on the kind of machine, not only on Reel (docs/benchmarks-history.md,
    #24's eighth round)."""
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
    except OSError:
        return platform.processor() or "CPU unknown"
    model = next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("model name")),
                 platform.processor() or "CPU unknown")
    flags = next((set(line.split(":", 1)[1].split()) for line in text.splitlines() if line.startswith("flags")), set())
    widest = next((name for flag, name in [("avx512f", "AVX-512"), ("avx2", "AVX2"), ("sse4_1", "SSE4.1")] if flag in flags), None)
    return f"{model}, {widest}" if widest else model


def run(args):
    with open(args.spec) as f:
        spec = json.load(f)
    skipped = {s for s in args.skip.split(",") if s}
    unknown = skipped - PEERS.keys()
    if unknown:
        sys.exit(f"bench_raster: unknown peer(s) to skip: {', '.join(sorted(unknown))}")
    tests = spec["tests"]
    if args.tests:
        wanted = args.tests.split(",")
        tests = [t for t in tests if t["name"] in wanted]
        if len(tests) != len(wanted):
            sys.exit(f"bench_raster: no such test among {[t['name'] for t in spec['tests']]}")
    peer_versions = versions(skipped)
    t = args.threads
    results = {}
    rounds = [(bench_reel(args.reel, args.spec, args.iterations, 1), bench_reel(args.reel, args.spec, args.iterations, t))
              for _ in range(max(1, args.rounds))]

    def reel(name):
        ones = [r1.get(name) for r1, _ in rounds]
        many = [rT.get(name) for _, rT in rounds]
        if None in ones or None in many:
            return None, None, None
        return (statistics.median(ones), statistics.median(many),
                statistics.median(b / a for a, b in zip(ones, many)))
    for test in tests:
        reel1, reelT, scaling = reel(test["name"])
        row = {"paths": len(test["paths"]), "reel1": reel1, "reelT": reelT, "reelScaling": scaling}
        for key, peer, fn in [("cairo", "cairo", lambda: bench_cairo(spec, test, args.iterations)),
                              ("skia", "skia", lambda: bench_skia(spec, test, args.iterations)),
                              ("blend2d", "blend2d", lambda: bench_blend2d(spec, test, args.iterations)),
                              ("thorvg1", "thorvg", lambda: bench_thorvg(spec, test, args.iterations, 1)),
                              ("thorvgT", "thorvg", lambda: bench_thorvg(spec, test, args.iterations, t))]:
            if peer in skipped:
                row[key] = "skipped"
                continue
            try:
                row[key] = fn()
            except Exception as e:  # noqa: BLE001 - a peer that fails is a failed benchmark, said so
                sys.exit(f"bench_raster: {PEERS[peer]} failed on {test['name']}: {type(e).__name__}: {e} "
                         f"(scripts/bench-raster.sh --skip-{peer} leaves it out)")
        results[test["name"]] = row
        print(f"  {test['name']}: done", file=sys.stderr)

    if "blend2d" not in skipped and args.paired > 0:
        with tempfile.TemporaryDirectory() as scratch:
            for test in tests:
                one = os.path.join(scratch, test["name"] + ".json")
                with open(one, "w") as fh:
                    json.dump({**spec, "tests": [test]}, fh)
                ratios = []
                for _ in range(args.paired):
                    reel1 = bench_reel(args.reel, one, args.iterations, 1).get(test["name"])
                    peer = bench_blend2d(spec, test, args.iterations)
                    if reel1 is not None and peer:
                        ratios.append(reel1 / peer)
                results[test["name"]]["blend2dPaired"] = ratios
                print(f"  {test['name']}: paired with Blend2D", file=sys.stderr)

    def f(v):
        return v if isinstance(v, str) else "n/a" if v is None else f"{v:.3g}"

    def paired(r):
        v = r.get("blend2dPaired")
        if not v:
            return "—"
        return f"{statistics.median(v):.2f} ({min(v):.2f}–{max(v):.2f})"

    def ratio(a, b):
        return "—" if isinstance(b, str) else "n/a" if a is None or b is None or b == 0 else f"{a / b:.2f}"

    def scaling(v):
        return "n/a" if v is None else f"{v:.2f}"
    print(f"Peers: {', '.join(f'{PEERS[k]} {v}' for k, v in peer_versions.items())}. "
          f"Machine: {os.cpu_count()} cores, {cpu()}, {platform.machine()}, {platform.platform()}.")
    print(f"Iterations: median of {args.iterations}; T = {t} threads; Reel: median of {max(1, args.rounds)} rounds, each 1 then {t} "
          f"threads back to back, and its {t}T ÷ 1T the median of the rounds' own ratios. Figures are draws per millisecond (higher is faster)."
          + (f" Reel ÷ Blend2D paired: the median (and range) of {args.paired} rounds' own ratios, each Reel on one thread then "
             f"Blend2D straight after, one test at a time." if args.paired > 0 and "blend2d" not in skipped else "")
          + (f" Left out (--skip): {', '.join(PEERS[s] for s in sorted(skipped))}." if skipped else ""))
    print()
    print(f"| test | paths | Reel 1T | Reel {t}T | Cairo | Skia | Blend2D 1T | ThorVG 1T | ThorVG {t}T | Reel ÷ Cairo | Reel ÷ Skia | Reel ÷ Blend2D | Reel ÷ Blend2D paired | Reel {t}T ÷ 1T |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['paths']} | {f(r['reel1'])} | {f(r['reelT'])} | {f(r['cairo'])} | {f(r['skia'])} | {f(r['blend2d'])} | "
              f"{f(r['thorvg1'])} | {f(r['thorvgT'])} | {ratio(r['reel1'], r['cairo'])} | {ratio(r['reel1'], r['skia'])} | "
              f"{ratio(r['reel1'], r['blend2d'])} | {paired(r)} | {scaling(r['reelScaling'])} |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"unit": "draws per millisecond (median iteration)", "iterations": args.iterations, "threads": t,
                       "reel_rounds": max(1, args.rounds), "blend2d_paired_rounds": args.paired,
                       "peers": peer_versions, "tests": results}, fh, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("spec")
    r = sub.add_parser("run")
    r.add_argument("spec")
    r.add_argument("--reel", required=True)
    r.add_argument("--iterations", type=int, default=5)
    r.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    r.add_argument("--rounds", type=int, default=3, help="Reel's rounds of one thread then T (default 3)")
    r.add_argument("--paired", type=int, default=5,
                   help="rounds of Reel (one thread) then Blend2D, per test, for the paired ratio (default 5; 0 leaves it out)")
    r.add_argument("--json")
    r.add_argument("--skip", default="", help="peers left out, comma-separated: cairo,skia,blend2d,thorvg")
    r.add_argument("--tests", default="", help="only these tests, comma-separated (default: all fourteen)")
    args = ap.parse_args()
    if args.cmd == "gen":
        gen(args.spec)
    else:
        run(args)


if __name__ == "__main__":
    main()
