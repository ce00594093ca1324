"""Pipeline benchmark (scripts/bench.sh): Reel against the encoder's own limit and against Manim.

1. Each reference animation and the 400-circle scene at 1920×1080, 60 fps, H.264 (x264 medium, CRF 18):
   Reel end to end, then the same frames — rendered once by Reel to raw RGBA, untimed — encoded by the
   ffmpeg command-line tool with identical settings. Ratio Reel / ffmpeg; goals ≤ 1.10 and ≤ 1.25.
2. The 400-circle scene end to end by Manim Community (x264 medium, CRF 23), by Reel with the same
   encoder settings, and by the ffmpeg command-line tool encoding the same frames with those settings
   (the floor: what any tool that encodes with x264 medium takes here without drawing anything).
   Ratios Manim / Reel, and Reel / floor — the goal, ≤ 1.10, because the floor bounds what Manim / Reel
   can reach on a given machine.

  bench_pipeline.py --reel BIN --manim PYTHON|none [--runs N] [--quick] [--json OUT.json]

--manim none leaves Manim out (scripts/bench.sh --skip-manim), and the table says so; --quick measures
two scenes (star-button and the circles) instead of seven.

Every figure is the median of RUNS whole-process wall times, the tools interleaved run by run, each run
started on warmed memory (warm_memory); peak resident memory and CPU time from /usr/bin/time.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--reel", required=True)
ap.add_argument("--manim", required=True, help="the Python of Manim's virtual environment, or none")
ap.add_argument("--runs", type=int, default=3)
ap.add_argument("--quick", action="store_true")
ap.add_argument("--json")
args = ap.parse_args()
reel, manim_python, runs = args.reel, args.manim, args.runs
scenes = ["star-button"] if args.quick else ["star-button", "swift-star", "spring-button", "search-back", "gradient-switch",
                                             "favorite-star"]
GOAL_FLOOR, GOAL_REFERENCE, GOAL_CIRCLES = 1.10, 1.10, 1.25
report = {"settings": {"size": "1920x1080", "fps": 60, "runs": runs, "statistic": "median wall seconds"}}
work = tempfile.mkdtemp(prefix="reel-bench-")
W, H, FPS = 1920, 1080, 60


def warm_memory():
    """Touches and frees 1.5 GiB so that the next process starts on memory the host has backed.

    These machines are virtual (Firecracker, with free page reporting): memory the guest has left free
    for ~2 s goes back to the host, and the process that next faults it in pays for it again — 0.5 to
    1 s of system time on a 1080p x264 run, measured, for whichever tool happened to run after a pause.
    Doing this before every timed run gives each tool the same start.
    """
    block = b"\x01" * (1536 << 20)
    del block


def timed(cmd, **kw):
    """Wall seconds, peak RSS (KiB) and CPU seconds (user + system) of one run of cmd."""
    warm_memory()
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, **kw)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{p.stderr}")
    rss, user, system = p.stderr.strip().splitlines()[-1].split()
    return wall, int(rss), float(user) + float(system)


def path(name):
    return f"bench/{name}.yaml" if name == "circles" else f"examples/{name}.yaml"


def encode_floor(d, crf, out):
    """ffmpeg encoding the raw frames as Reel writes its file: BT.709 matrix, limited range, tagged
    (ffmpeg's default would convert with BT.601)."""
    return timed(["ffmpeg", "-nostdin", "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", f"{W}x{H}",
                  "-r", str(FPS), "-i", d + "/raw.rgba", "-vf", "scale=out_color_matrix=bt709:out_range=tv",
                  "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                  "-c:v", "libx264", "-preset", "medium", "-crf", str(crf), "-pix_fmt", "yuv420p", "-y", out])


encoder_rows = []
report["encoder_limit"] = encoder_rows
print("### Against the encoder's own limit (1920×1080, 60 fps, x264 medium CRF 18)\n")
print("| scene | frames | Reel wall | Reel CPU | Reel peak RSS | ffmpeg (encoder alone) wall | ffmpeg CPU | Reel / ffmpeg |")
print("|---|---|---|---|---|---|---|---|")
for name in scenes + ["circles"]:
    d = os.path.join(work, name)
    os.makedirs(d)
    # The frames, once: Reel → PNG sequence (opaque) → raw RGBA (untimed).
    subprocess.run([reel, "render", path(name), "-o", d + "/png/", "--size", f"{W}x{H}", "--fps", str(FPS), "--flatten", "-q"], check=True)
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-framerate", str(FPS), "-i", d + "/png/frame_%05d.png",
                    "-f", "rawvideo", "-pix_fmt", "rgba", "-y", d + "/raw.rgba"], check=True)
    frames = len(os.listdir(d + "/png"))
    shutil.rmtree(d + "/png")
    reel_t, ff_t, rss, reel_cpu, ff_cpu = [], [], [], [], []
    for _ in range(runs):
        t, m, c = timed([reel, "render", path(name), "-o", d + "/reel.mp4", "--size", f"{W}x{H}", "--fps", str(FPS),
                         "--crf", "18", "--encoder-preset", "medium", "-q"])
        reel_t.append(t); rss.append(m); reel_cpu.append(c)
        t, _, c = encode_floor(d, 18, d + "/ffmpeg.mp4")
        ff_t.append(t); ff_cpu.append(c)
    r, f = statistics.median(reel_t), statistics.median(ff_t)
    encoder_rows.append({"scene": name, "frames": frames, "reel_wall": r, "reel_cpu": statistics.median(reel_cpu),
                         "reel_peak_rss_mib": statistics.median(rss) // 1024, "ffmpeg_wall": f,
                         "ffmpeg_cpu": statistics.median(ff_cpu), "reel_over_ffmpeg": r / f,
                         "goal": GOAL_CIRCLES if name == "circles" else GOAL_REFERENCE})
    print(f"| {name} | {frames} | {r:.2f} s | {statistics.median(reel_cpu):.2f} s | {statistics.median(rss) // 1024} MiB "
          f"| {f:.2f} s | {statistics.median(ff_cpu):.2f} s | {r / f:.2f} |", flush=True)
    shutil.rmtree(d)

ref = [row["reel_over_ffmpeg"] for row in encoder_rows if row["scene"] != "circles"]
circ = next(row["reel_over_ffmpeg"] for row in encoder_rows if row["scene"] == "circles")
print(f"\nReel / ffmpeg: reference animations {min(ref):.2f}–{max(ref):.2f} (goal ≤ {GOAL_REFERENCE:.2f}: "
      f"{'met' if max(ref) <= GOAL_REFERENCE else 'not met'}), circles {circ:.2f} (goal ≤ {GOAL_CIRCLES:.2f}: "
      f"{'met' if circ <= GOAL_CIRCLES else 'not met'}).")

print("\n### Against what a user would pick instead: Manim Community, 400 circles end to end (x264 medium CRF 23)\n")
if manim_python == "none":
    print("Manim left out (scripts/bench.sh --skip-manim): no figures.")
    report["manim"] = "skipped"
else:
    d = os.path.join(work, "manim")
    os.makedirs(d)
    version = subprocess.run([manim_python, "-c", "import importlib.metadata as m; print(m.version('manim'))"],
                             check=True, capture_output=True, text=True).stdout.strip()
    # The floor: ffmpeg encoding the same frames with the same settings (the frames rendered once, untimed).
    subprocess.run([reel, "render", "bench/circles.yaml", "-o", d + "/png/", "--flatten", "-q"], check=True)
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-framerate", "60", "-i", d + "/png/frame_%05d.png",
                    "-f", "rawvideo", "-pix_fmt", "rgba", "-y", d + "/raw.rgba"], check=True)
    shutil.rmtree(d + "/png")
    reel_t, man_t, ff_t = [], [], []
    for _ in range(runs):
        t, _, _ = timed([reel, "render", "bench/circles.yaml", "-o", d + "/reel.mp4", "--crf", "23", "--encoder-preset", "medium", "-q"])
        reel_t.append(t)
        t, _, _ = timed([manim_python, "-m", "manim", "render", "-qh", "--fps", "60", "--disable_caching",
                         "--media_dir", d + "/media", "-v", "ERROR", "bench/manim_circles.py", "Circles"])
        man_t.append(t)
        t, _, _ = encode_floor(d, 23, d + "/ffmpeg.mp4")
        ff_t.append(t)
    r, m, f = statistics.median(reel_t), statistics.median(man_t), statistics.median(ff_t)
    print(f"Manim Community {version}; medians of {runs} run(s), the three interleaved.\n")
    print("| tool | wall | Manim ÷ tool | tool ÷ floor |")
    print("|---|---|---|---|")
    print(f"| Manim Community | {m:.2f} s | 1 | {m / f:.2f} |")
    print(f"| Reel | {r:.2f} s | **{m / r:.1f}×** | **{r / f:.2f}** (goal ≤ {GOAL_FLOOR:.2f}) |")
    print(f"| floor: ffmpeg encoding the same frames at Manim's settings, no drawing | {f:.2f} s | {m / f:.1f}× | 1 |")
    verdict = "met" if r / f <= GOAL_FLOOR else "not met"
    print(f"\nReel ÷ floor {r / f:.2f} (goal ≤ {GOAL_FLOOR:.2f}: {verdict}); Manim ÷ Reel {m / r:.1f}×, "
          f"out of at most {m / f:.1f}× that the floor leaves on this machine.")
    report["manim"] = {"manim_version": version, "manim_wall": m, "reel_wall": r, "floor_wall": f,
                       "manim_over_reel": m / r, "reel_over_floor": r / f, "manim_over_floor": m / f,
                       "goal_reel_over_floor": GOAL_FLOOR}
shutil.rmtree(work, ignore_errors=True)
if args.json:
    with open(args.json, "w") as fh:
        json.dump(report, fh, indent=1)
