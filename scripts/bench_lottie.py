#!/usr/bin/env python3
"""Lottie benchmark (scripts/bench-lottie.sh): a corpus Lottie file rendered by Reel to 1080p60 H.264
against the encoder alone on the same frames, and Reel's drawing against ThorVG's own.

  bench_lottie.py run FILE.json --reel BIN --frames BIN [--runs N] [--json OUT.json]

`run`, interleaved run by run, each on warmed memory:
  (1) Reel end to end: reel render FILE --width 1920 --fps 60 -o reel.mp4 (x264 medium, CRF 18);
  (2) the encoder alone: the ffmpeg tool encoding Reel's frames of the same file (rendered once,
      untimed, to raw RGBA) with the same settings and colour conversion, as bench_pipeline.py does;
  (3) Reel drawing every frame with no encoder (reel-bench-frames, in-process timer): one thread; two
      band threads inside each frame; two frame workers, each drawing every other frame (as
      `reel render` runs its workers);
  (4) ThorVG (thorvg-python, software canvas) drawing the same frames at the same size, 1 and 2
      threads: set_frame, update, draw with clear, sync — no read-back — the same 280 instants (the
      file's frames at 60 fps: half frames of a 30 fps file).
Prints best and median of N, and the ratios the issue sets goals for: Reel ÷ encoder alone (≤ 1.10)
and Reel's frames per second against ThorVG's on two threads (faster).
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_text import timed  # noqa: E402  (same measuring: /usr/bin/time, warmed memory)

W, H, FPS = 1920, 1080, 60
GOAL_ENCODER = 1.10

THORVG = r'''
import json, sys, time
import thorvg_python as tvg
path, threads, w, h, fps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
engine = tvg.Engine(threads=threads)
canvas = tvg.SwCanvas(engine); canvas.set_target(w, h)
anim = tvg.LottieAnimation(engine); pic = anim.get_picture()
if int(pic.load(path)) != 0: sys.exit("ThorVG cannot load " + path)
pic.set_size(w, h); canvas.add(pic)
total = anim.get_total_frame()[1]; duration = anim.get_duration()[1]
n = int(round(duration * fps))
anim.set_frame(0); canvas.update(); canvas.draw(True); canvas.sync()
t = time.perf_counter()
for k in range(n):
    anim.set_frame(min(k * total / n, total - 1)); canvas.update(); canvas.draw(True); canvas.sync()
s = time.perf_counter() - t
print(json.dumps({"frames": n, "seconds": s, "fps": n / s}))
'''


def run(args):
    reel, frames_bin, lottie = args.reel, args.frames, os.path.abspath(args.file)
    work = tempfile.mkdtemp(prefix="reel-bench-lottie-")
    try:
        subprocess.run([reel, "render", lottie, "--width", str(W), "--fps", str(FPS), "--flatten", "-o", work + "/png/", "-q"],
                       check=True)
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-framerate", str(FPS), "-i", work + "/png/frame_%05d.png",
                        "-f", "rawvideo", "-pix_fmt", "rgba", "-y", work + "/raw.rgba"], check=True)
        frames = len(os.listdir(work + "/png"))
        shutil.rmtree(work + "/png")
        with open(work + "/thorvg.py", "w") as fh:
            fh.write(THORVG)
        commands = {
            "reel": [reel, "render", lottie, "--width", str(W), "--fps", str(FPS), "-o", work + "/reel.mp4", "--codec", "h264",
                     "--crf", "18", "--encoder-preset", "medium", "-q"],
            "ffmpeg": ["ffmpeg", "-nostdin", "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", f"{W}x{H}",
                       "-r", str(FPS), "-i", work + "/raw.rgba", "-vf", "scale=out_color_matrix=bt709:out_range=tv",
                       "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                       "-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p", "-y", work + "/ffmpeg.mp4"],
        }
        draws = {
            "reel1": [frames_bin, lottie, "--width", str(W), "--fps", str(FPS), "--threads", "1"],
            "reel2": [frames_bin, lottie, "--width", str(W), "--fps", str(FPS), "--threads", "2"],
            "reel2w": [frames_bin, lottie, "--width", str(W), "--fps", str(FPS), "--workers", "2"],
            "thorvg1": [args.python, work + "/thorvg.py", lottie, "1", str(W), str(H), str(FPS)],
            "thorvg2": [args.python, work + "/thorvg.py", lottie, "2", str(W), str(H), str(FPS)],
        }
        results = {k: [] for k in commands}
        fps = {k: [] for k in draws}
        for i in range(args.runs):
            for k, cmd in commands.items():
                results[k].append(timed(cmd))
            for k, cmd in draws.items():
                out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
                fps[k].append(json.loads(out.strip().splitlines()[-1])["fps"])
            print(f"  run {i + 1}: " + ", ".join(f"{k} {results[k][-1][0]:.2f} s" for k in commands) + "; "
                  + ", ".join(f"{k} {fps[k][-1]:.0f} fps" for k in draws), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def best(k, j=0):
        return min(v[j] for v in results[k])

    def med(k, j=0):
        return statistics.median(v[j] for v in results[k])
    name = os.path.basename(args.file)
    print(f"{name}: {frames} frames, {W}×{H}, {FPS} fps; {args.runs} runs, interleaved.\n")
    print("| run | best wall | median wall | median CPU | median peak RSS | ÷ encoder alone (best) | ÷ encoder alone (median) |")
    print("|---|---|---|---|---|---|---|")
    labels = {"reel": "Reel → H.264 (x264 medium CRF 18), end to end", "ffmpeg": "ffmpeg encoding the same frames (encoder alone)"}
    for k in commands:
        print(f"| {labels[k]} | {best(k):.2f} s | {med(k):.2f} s | {med(k, 1):.2f} s | {med(k, 2)} MiB | "
              f"{best(k) / best('ffmpeg'):.2f} | {med(k) / med('ffmpeg'):.2f} |")
    paired = [r[0] / f[0] for r, f in zip(results["reel"], results["ffmpeg"])]
    ratio = best("reel") / best("ffmpeg")
    print(f"\nReel ÷ encoder alone, run by run: {', '.join(f'{x:.2f}' for x in paired)}; best of {args.runs}: {ratio:.2f} "
          f"(goal ≤ {GOAL_ENCODER:.2f}: {'met' if ratio <= GOAL_ENCODER else 'not met'}); CPU {med('reel', 1) / med('ffmpeg', 1):.2f}.\n")
    print("| drawing only (no encoder) | 1 thread: best / median fps | 2 threads: best / median fps |")
    print("|---|---|---|")

    def cell(k):
        return f"{max(fps[k]):.0f} / {statistics.median(fps[k]):.0f}"
    print(f"| Reel (reel-bench-frames), 2 band threads in a frame | {cell('reel1')} | {cell('reel2')} |")
    print(f"| Reel, 2 frame workers (as reel render runs) | {cell('reel1')} | {cell('reel2w')} |")
    print(f"| ThorVG 1.0.4 (thorvg-python 1.1.3, SwCanvas) | {cell('thorvg1')} | {cell('thorvg2')} |")
    best2 = max(statistics.median(fps["reel2"]), statistics.median(fps["reel2w"]))
    over = best2 / statistics.median(fps["thorvg2"])
    print(f"\nReel ÷ ThorVG, frames per second, median: 1 thread {statistics.median(fps['reel1']) / statistics.median(fps['thorvg1']):.2f}, "
          f"2 threads {over:.2f} (Reel's better way to use two; goal: faster than ThorVG on two threads, > 1: "
          f"{'met' if over > 1 else 'not met'}).")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"file": name, "frames": frames,
                       "runs": {k: [{"wall": w, "cpu": c, "rss_mib": m} for w, c, m in v] for k, v in results.items()},
                       "fps": fps, "reel_over_ffmpeg_best": ratio, "reel_over_thorvg2_median": over}, fh, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("file")
    r.add_argument("--reel", required=True)
    r.add_argument("--frames", required=True, help="the reel-bench-frames binary")
    r.add_argument("--python", required=True, help="a Python with thorvg-python")
    r.add_argument("--runs", type=int, default=3)
    r.add_argument("--json")
    args = ap.parse_args()
    run(args)


if __name__ == "__main__":
    main()
