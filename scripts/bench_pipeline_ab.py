#!/usr/bin/env python3
"""Reel builds against each other and the encoder alone on one scene, as bench_pipeline.py times them.

    scripts/bench_pipeline_ab.py RAW SCENE RUNS REEL...

RAW: the scene's frames as raw RGBA at 1920×1080 (bench_pipeline.py makes them: `reel render SCENE -o
png/ --size 1920x1080 --fps 60 --flatten`, then ffmpeg to `-f rawvideo -pix_fmt rgba`). Each round runs
every Reel build on SCENE and then ffmpeg on RAW (x264 medium CRF 18, the BT.709 conversion), each on
warmed memory; prints each one's median wall and CPU time and its wall ÷ the encoder alone's.
"""
import os, statistics, subprocess, sys, tempfile

if len(sys.argv) < 5:
    sys.exit(__doc__)
raw, scene, runs, builds = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
work = tempfile.mkdtemp(prefix="bench-ab-")


def warm():
    # These VMs hand memory left free back to the host: touched first, it is backed for the run.
    block = bytearray(1536 << 20)
    for i in range(0, len(block), 4096):
        block[i] = 1


def timed(cmd):
    warm()
    r = subprocess.run(["/usr/bin/time", "-f", "%e %U %S"] + cmd, capture_output=True, text=True, check=True)
    wall, user, system = r.stderr.strip().splitlines()[-1].split()
    return float(wall), float(user) + float(system)


encoder = ["ffmpeg", "-nostdin", "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "1920x1080", "-r", "60",
           "-i", raw, "-vf", "scale=out_color_matrix=bt709:out_range=tv", "-colorspace", "bt709",
           "-color_primaries", "bt709", "-color_trc", "bt709", "-c:v", "libx264", "-preset", "medium", "-crf", "18",
           "-pix_fmt", "yuv420p", "-y", os.path.join(work, "encoder.mp4")]
times = {b: [] for b in builds}
times["encoder alone"] = []
for _ in range(runs):
    for b in builds:
        times[b].append(timed([b, "render", scene, "-o", os.path.join(work, "reel.mp4"), "--size", "1920x1080", "--fps", "60",
                               "--crf", "18", "--encoder-preset", "medium", "-q"]))
    times["encoder alone"].append(timed(encoder))
floor = statistics.median(w for w, _ in times["encoder alone"])
for name, t in times.items():
    wall = statistics.median(w for w, _ in t)
    cpu = statistics.median(c for _, c in t)
    print(f"{name}: wall {wall:.2f} s, CPU {cpu:.2f} s, ÷ encoder alone {wall / floor:.3f} (walls {[w for w, _ in t]})")
for f in os.listdir(work):
    os.remove(os.path.join(work, f))
os.rmdir(work)
