#!/usr/bin/env bash
# Drawing only what changes (issue #48): two scenes made to be mostly still, rendered by Reel end to end.
#  1. 100,000 plain 3×3 layers that never move, 160×90, 15 fps, 1 s (15 frames) to GIF: wall time and
#     peak memory (goal ≤ 2 s and ≤ 400 MB).
#  2. A 1920×1080 30 fps 4 s GIF of 2,000 still rounded rectangles with one 40 px dot crossing the frame,
#     against the same dot alone on the white frame: CPU time (user + system), the ratio (goal ≤ 1.3).
# The scenes are generated (seeded) into a temporary folder. Medians of --runs runs, the scenes
# interleaved; every run's output is the same file (SHA-256 checked).
#
#   scripts/bench-retained.sh [--runs N]      (3 by default)
#
# Builds Reel (release) in ${REEL_BENCH_SCRATCH:-.build-bench}.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. scripts/bench_lib.sh

runs=3
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
    -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-retained: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
case "$runs" in '' | *[!0-9]* | 0) bench_die "--runs takes a positive number, not '$runs'" ;; esac

scripts/setup.sh >&2 || bench_die "scripts/setup.sh could not install Reel's build dependencies"
reel=$(bench_build reel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "Machine: $(bench_machine); load average $(cut -d' ' -f1-3 /proc/loadavg); $("$reel" --version | sed 's/^/Reel /')"
echo "Commit: $(bench_commit); $(date -u '+%Y-%m-%d %H:%M UTC'); scripts/bench-retained.sh ${args[*]}"
echo

python3 - "$work" <<'PY'
import json, random, sys
work = sys.argv[1]
layers = [{"name": f"l{i}", "position": [(i % 400) * 0.4, (i // 400) % 225 * 0.4], "bounds": [0, 0, 3, 3],
           "backgroundColor": "#%02x%02x%02x" % (i % 256, i * 7 % 256, i * 13 % 256)} for i in range(100000)]
json.dump({"width": 160, "height": 90, "fps": 15, "duration": 1, "background": "#ffffff", "layers": layers},
          open(f"{work}/still-100k.json", "w"))
random.seed(48)
shapes = []
for i in range(2000):
    w, h = random.uniform(8, 60), random.uniform(8, 40)
    shapes.append({"name": f"s{i}", "position": [random.uniform(0, 1920), random.uniform(0, 1080)],
                   "bounds": [0, 0, round(w, 2), round(h, 2)], "backgroundColor": "#%06x" % random.randrange(1 << 24),
                   "cornerRadius": round(random.uniform(0, 6), 2)})
dot = {"name": "dot", "position": [100, 540], "bounds": [0, 0, 40, 40], "cornerRadius": 20, "backgroundColor": "#ff3366",
       "animations": [{"keyPath": "position.x", "fromValue": 100, "toValue": 1820, "duration": 4}]}
clip = {"width": 1920, "height": 1080, "fps": 30, "duration": 4, "background": "#ffffff"}
json.dump({**clip, "layers": shapes + [dot]}, open(f"{work}/shapes-dot.json", "w"))
json.dump({**clip, "layers": [dot]}, open(f"{work}/dot.json", "w"))
PY

# run NAME → appends "wall cpu peakKiB sha" to $work/NAME.times. The child's CPU time from wait4's
# rusage, in microseconds: GNU time's %U and %S are hundredths, and the dot alone takes about 0.2 s, so
# they moved its ratio by up to 4 %.
run() {
  python3 - "$reel" "$work/$1.json" "$work/$1.gif" >> "$work/$1.times" <<'PY'
import hashlib, os, sys, time
reel, scene, out = sys.argv[1:4]
start = time.monotonic()
pid = os.spawnv(os.P_NOWAIT, reel, [reel, "render", scene, "-o", out, "-q"])
_, status, usage = os.wait4(pid, 0)
wall = time.monotonic() - start
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit(f"bench-retained: reel render {scene} failed")
print(f"{wall:.4f} {usage.ru_utime + usage.ru_stime:.4f} {usage.ru_maxrss} {hashlib.sha256(open(out, 'rb').read()).hexdigest()[:16]}")
PY
}
for _ in $(seq "$runs"); do
  for name in still-100k shapes-dot dot; do run "$name"; done
done

python3 - "$work" "$runs" <<'PY'
import statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
rows = {}
for name in ["still-100k", "shapes-dot", "dot"]:
    t = [l.split() for l in open(f"{work}/{name}.times")]
    shas = {x[3] for x in t}
    if len(shas) != 1:
        sys.exit(f"bench-retained: {name} gave different files in different runs: {sorted(shas)}")
    rows[name] = (statistics.median(float(x[0]) for x in t), statistics.median(float(x[1]) for x in t),
                  statistics.median(int(x[2]) for x in t) / 1024)
print(f"Medians of {runs} runs.")
print()
print("| scene | wall | CPU | peak RSS | goal |")
print("|---|---|---|---|---|")
w, c, m = rows["still-100k"]
print(f"| 100,000 still 3×3 layers, 160×90, 15 frames → GIF | {w:.2f} s | {c:.2f} s | {m:.0f} MiB | ≤ 2 s, ≤ 400 MB |")
for name, label in [("shapes-dot", "2,000 still shapes + a moving 40 px dot, 1080p30 4 s → GIF"), ("dot", "the dot alone")]:
    w, c, m = rows[name]
    print(f"| {label} | {w:.3f} s | {c:.3f} s | {m:.0f} MiB | |")
print()
print(f"Shapes and dot ÷ the dot alone, CPU: **{rows['shapes-dot'][1] / rows['dot'][1]:.3f}** (goal ≤ 1.3); "
      f"wall: {rows['shapes-dot'][0] / rows['dot'][0]:.3f}.")
PY
