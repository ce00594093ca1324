#!/usr/bin/env python3
"""Text benchmark (scripts/bench-text.sh): a text-heavy 1080p60 scene against the encoder alone.

  bench_text.py gen SCENE.yaml [--no-units] [--entries N]   write the scene (deterministic: seeded, no copied text)
  bench_text.py run SCENE.yaml --reel BIN [--runs N] [--json OUT.json]
  bench_text.py profile PERF-SCRIPT.txt [--hz 500]   where the CPU went, by what is on each sample's stack

The scene is a scrolling changelog: 9 releases, each a heading (Inter Bold 26 pt) and 5 lines of
56–70 characters (Inter 20 pt), one text layer each (18 layers, 2,552 glyphs, 89 % of which come on
screen); 39–41 lines and 1,840–1,960 glyphs (not counting spaces) on the 1920×1080 canvas at every
frame, the container scrolling up 240 px over the 3 s clip (every frame differs, every glyph lands at
a fractional position), and each word fading up as it enters (unitAnimations on words: opacity 0 → 1,
transform.translation.y 8 → 0, 0.4 s easeOut, stagger 0.02 s, release i starting at 0.1·i s; the last
word is in at ~2.2 s). --no-units writes the same scene without the entrances; --entries N another
length (13: 1,137 more glyphs, none of them ever on screen).

`run` follows scripts/bench_pipeline.py: the frames are rendered once by Reel to a PNG sequence and
converted to raw RGBA (untimed); then, interleaved run by run, (1) Reel end to end to H.264 (x264
medium, CRF 18), (2) the ffmpeg command-line tool encoding the raw frames with the same settings and
colour conversion (the encoder alone), (3) Reel to a PNG sequence (drawing + PNG compression, no x264).
Every run starts on warmed memory; wall time, CPU (user + system) and peak RSS from /usr/bin/time.
Prints best and median of N, and Reel ÷ encoder alone from each.
"""
import argparse, json, os, random, shutil, statistics, subprocess, sys, tempfile, time

W, H, FPS, DURATION = 1920, 1080, 60, 3
ENTRIES, SCROLL = 9, 240
GOAL = 1.25

# A vocabulary written for this benchmark; lines are drawn from it with a fixed seed.
VERBS = ["Fixed", "Added", "Improved", "Removed", "Reworked", "Sped up", "Documented", "Simplified", "Renamed",
         "Clarified", "Cached", "Validated", "Deferred", "Split", "Merged", "Restored"]
SUBJECTS = ["the frame pool", "batch resume", "the shadow pass", "gradient stops", "spring timing", "the PNG writer",
            "mask clipping", "replicator offsets", "keyframe paths", "the YAML reader", "font fallback",
            "the colour converter", "segment joins", "progress output", "stroke joins", "image sampling",
            "the band scheduler", "palette search", "layer bounds", "the timeline clock", "emoji strikes",
            "line breaking", "word boxes", "cluster offsets", "the still command", "preset lookup"]
TAILS = ["when a clip starts at a fractional time", "for scenes with many nested groups", "on very small canvases",
         "after the encoder reports a late frame", "so that errors name the right line", "by about a third",
         "without changing a single output byte", "in right-to-left paragraphs", "for 10-bit output",
         "when two workers share one cache", "at scales above 4", "in the sandboxed mode",
         "with fewer allocations per frame", "so repeated frames are skipped", "for fonts with large line gaps",
         "when the duration is not a whole frame"]


def changelog_line(r):
    """One line of 56–70 characters."""
    while True:
        s = f"- {r.choice(VERBS)} {r.choice(SUBJECTS)} {r.choice(TAILS)}."
        if 56 <= len(s) <= 70:
            return s


def gen(path, units=True, entries=ENTRIES):
    r = random.Random(17)
    x, y = 120, 24
    layers = []
    placed = []  # (top, bottom, glyphs) of each text line, in the container's points
    for i in range(entries):
        heading = f"Version 3.{40 - i}.{r.randint(0, 9)} ({2026 - i // 6}-{12 - i % 12:02d}-{r.randint(10, 28)})"
        lines = [changelog_line(r) for _ in range(5)]
        begin = round(0.1 * i, 2)
        for name, text_lines, font, size in [(f"heading-{i}", [heading], "Inter Bold", 26), (f"body-{i}", lines, "Inter", 20)]:
            pitch = size * 1.2102  # Inter's ascender − descender (0.96875 + 0.2421875 em), lineHeight 1
            height = round(pitch * len(text_lines) + 4)
            layer = {"name": name, "type": "text", "position": [x + 820, y + height / 2], "bounds": [1640, height],
                     "string": "\n".join(text_lines), "font": font, "fontSize": size,
                     "foregroundColor": "#f2f4f7" if font == "Inter Bold" else "#c9d1d9"}
            if units:
                layer["unitAnimations"] = [{"unit": "word", "stagger": 0.02, "order": "forward", "animations": [
                    {"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "beginTime": begin,
                     "duration": 0.4, "fillMode": "backwards", "timingFunction": "easeOut"},
                    {"type": "basic", "keyPath": "transform.translation.y", "fromValue": 8, "toValue": 0,
                     "beginTime": begin, "duration": 0.4, "fillMode": "backwards", "timingFunction": "easeOut"}]}]
            layers.append(layer)
            for k, t in enumerate(text_lines):
                placed.append((y + k * pitch, y + (k + 1) * pitch, sum(1 for c in t if not c.isspace())))
            y += height
        y += 6
    content = round(y + 24)

    def on_screen(scroll):
        lines = [g for top, bottom, g in placed if bottom > scroll and top < scroll + H]
        return len(lines), sum(lines)
    (l0, g0), (l1, g1) = on_screen(0), on_screen(SCROLL)
    scene = {"width": W, "height": H, "fps": FPS, "duration": DURATION, "background": "#0d1117",
             "layers": [{"name": "changelog", "anchorPoint": [0.5, 0], "position": [W / 2, 0], "bounds": [W, content],
                         "sublayers": layers,
                         "animations": [{"keyPath": "position.y", "fromValue": 0, "toValue": -SCROLL,
                                         "duration": DURATION, "fillMode": "forwards", "removedOnCompletion": False}]}]}
    with open(path, "w") as f:
        f.write(f"# Generated by scripts/bench_text.py gen (scripts/bench-text.sh): a scrolling changelog of\n"
                f"# {sum(g for _, _, g in placed)} glyphs in all; on screen {l0} lines and {g0} glyphs at the start,"
                f" {l1} lines and {g1} glyphs at the end\n# (the content scrolls {SCROLL} px in {DURATION} s)"
                f"{'; per-word entrances' if units else '; no per-unit animation'}. JSON is YAML.\n")
        json.dump(scene, f, indent=1)
        f.write("\n")
    return g0, g1


def warm_memory():
    """As bench_pipeline.py: touch and free 1.5 GiB so that each run starts on memory the host has backed."""
    block = b"\x01" * (1536 << 20)
    del block


def timed(cmd):
    warm_memory()
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"bench-text: {' '.join(cmd)} failed:\n{p.stderr}")
    rss, user, system = p.stderr.strip().splitlines()[-1].split()
    return wall, float(user) + float(system), int(rss) // 1024


def run(args):
    reel, scene = args.reel, args.scene
    work = tempfile.mkdtemp(prefix="reel-bench-text-")
    try:
        # The frames, once: Reel → PNG sequence → raw RGBA (untimed), as bench_pipeline.py does.
        subprocess.run([reel, "render", scene, "-o", work + "/png/", "-q"], check=True)
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-framerate", str(FPS), "-i", work + "/png/frame_%05d.png",
                        "-f", "rawvideo", "-pix_fmt", "rgba", "-y", work + "/raw.rgba"], check=True)
        frames = len(os.listdir(work + "/png"))
        shutil.rmtree(work + "/png")
        commands = {
            "reel": [reel, "render", scene, "-o", work + "/reel.mp4", "--codec", "h264", "--crf", "18",
                     "--encoder-preset", "medium", "-q"],
            "ffmpeg": ["ffmpeg", "-nostdin", "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", f"{W}x{H}",
                       "-r", str(FPS), "-i", work + "/raw.rgba", "-vf", "scale=out_color_matrix=bt709:out_range=tv",
                       "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                       "-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p", "-y", work + "/ffmpeg.mp4"],
            "png": [reel, "render", scene, "-o", work + "/frames/", "-q"],
        }
        results = {k: [] for k in commands}
        for i in range(args.runs):
            for k, cmd in commands.items():
                if k == "png":
                    shutil.rmtree(work + "/frames", ignore_errors=True)
                results[k].append(timed(cmd))
            print(f"  run {i + 1}: " + ", ".join(f"{k} {results[k][-1][0]:.2f} s" for k in commands), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def best(k, j=0):
        return min(v[j] for v in results[k])

    def med(k, j=0):
        return statistics.median(v[j] for v in results[k])
    print(f"{frames} frames, {W}×{H}, {FPS} fps; {args.runs} runs, interleaved (Reel → H.264, ffmpeg → H.264, Reel → PNG).\n")
    print("| run | best wall | median wall | median CPU | median peak RSS | ÷ encoder alone (best) | ÷ encoder alone (median) |")
    print("|---|---|---|---|---|---|---|")
    labels = {"reel": "Reel → H.264 (x264 medium CRF 18), end to end", "ffmpeg": "ffmpeg encoding the same frames (encoder alone)",
              "png": "Reel → PNG sequence (drawing + PNG, no x264)"}
    for k in commands:
        print(f"| {labels[k]} | {best(k):.2f} s | {med(k):.2f} s | {med(k, 1):.2f} s | {med(k, 2)} MiB | "
              f"{best(k) / best('ffmpeg'):.2f} | {med(k) / med('ffmpeg'):.2f} |")
    paired = [r[0] / f[0] for r, f in zip(results["reel"], results["ffmpeg"])]
    print(f"\nReel ÷ encoder alone, run by run (each pair back to back): {', '.join(f'{x:.2f}' for x in paired)}.")
    ratio = best("reel") / best("ffmpeg")
    print(f"Reel ÷ encoder alone, best of {args.runs}: {ratio:.2f} (goal ≤ {GOAL:.2f}: {'met' if ratio <= GOAL else 'not met'}); "
          f"median {med('reel') / med('ffmpeg'):.2f}; CPU {med('reel', 1) / med('ffmpeg', 1):.2f}.")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"frames": frames, "runs": {k: [{"wall": w, "cpu": c, "rss_mib": m} for w, c, m in v] for k, v in results.items()},
                       "reel_over_ffmpeg_best": ratio, "reel_over_ffmpeg_paired": paired, "reel_over_ffmpeg_median": med("reel") / med("ffmpeg"), "goal": GOAL}, fh, indent=1)


# Buckets for `profile`: the first rule whose pattern is on a sample's stack (leaf first) names it.
BUCKETS = [
    ("x264", ["x264_", "libx264"]),
    ("RGBA → Y′CbCr (Reel's BT.709 converter, or swscale)", ["BT709Converter", "sws_", "libswscale"]),
    ("PNG encoding", ["libz.so", "deflate", "png", "PNG"]),
    ("text: per-unit presentation", ["presentation2of"]),
    ("text: glyph paths (place, append, to device)", ["textCommands&ReelGeometry4PathV03add", "textCommands&ReelGeometry4PathV8applying"]),
    ("text: layout (Typesetter cache)", ["textCommands&typeset"]),
    ("text: outline cache", ["textCommands&outline2of"]),
    ("text: the rest of textCommands", ["textCommands"]),
    ("rasterizer: coverage and span filling", ["BandPainterV4fill", "CoverageScratch"]),
    ("rasterizer: preparing shapes (flattening, bounds)", ["PreparedShapeC4path", "flattenedEdges"]),
    ("rasterizer: bands, draw tree, other", ["DrawTreeV_9tolerance", "BandPainter", "Rasterizer"]),
    ("scene: snapshot, other layers", ["emit_14parentToDevice", "displayList3for", "Snapshot"]),
]


def profile(args):
    """Where the CPU went, from `perf script -F comm,tid,ip,sym,dso --no-inline` of a run recorded with
    `perf record -F HZ --call-graph dwarf`."""
    samples, cur = [], None
    with open(args.perf_script, errors="replace") as f:
        for line in f:
            if not line.strip():
                if cur is not None:
                    samples.append(cur)
                cur = None
            elif not line.startswith((" ", "\t")):
                cur = []
            elif cur is not None:
                cur.append(line.strip())
    if cur:
        samples.append(cur)
    counts = {name: 0 for name, _ in BUCKETS}
    counts["other (allocator, page faults, start-up)"] = 0
    for stack in samples:
        def on(p):
            return all(any(q in frame for frame in stack) for q in p.split("&"))
        name = next((n for n, pats in BUCKETS if any(on(p) for p in pats)), "other (allocator, page faults, start-up)")
        counts[name] += 1
    n = len(samples)
    print(f"{n} samples = {n / args.hz:.2f} s of CPU at {args.hz:g} Hz\n")
    print("| where | CPU | share |\n|---|---|---|")
    for name, c in sorted(counts.items(), key=lambda kv: -kv[1]):
        if c:
            print(f"| {name} | {c / args.hz:.2f} s | {100 * c / n:.1f} % |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("scene")
    g.add_argument("--no-units", action="store_true")
    g.add_argument("--entries", type=int, default=ENTRIES, help=f"releases in the changelog (default {ENTRIES})")
    r = sub.add_parser("run")
    r.add_argument("scene")
    r.add_argument("--reel", required=True)
    r.add_argument("--runs", type=int, default=3)
    r.add_argument("--json")
    pr = sub.add_parser("profile")
    pr.add_argument("perf_script", help="the output of perf script -F comm,tid,ip,sym,dso --no-inline")
    pr.add_argument("--hz", type=float, default=500, help="perf record's -F")
    args = ap.parse_args()
    if args.cmd == "profile":
        profile(args)
    elif args.cmd == "gen":
        g0, g1 = gen(args.scene, units=not args.no_units, entries=args.entries)
        print(f"{args.scene}: {g0} glyphs on screen at the start, {g1} at the end", file=sys.stderr)
    else:
        run(args)


if __name__ == "__main__":
    main()
