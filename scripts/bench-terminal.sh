#!/usr/bin/env bash
# Terminal benchmark (issue #50, "Performance"): a 60-second, 120 × 36 session whose output scrolls
# without a pause (a coloured build log, 20 lines a second, generated here from a fixed seed) rendered
# alone by Reel to a 1080p60 GIF (`--size 1920x1080 --fps 60`) and to a 1080p60 H.264 MP4. Goal: the GIF
# at least 5× faster than real time (60 s ÷ render time ≥ 5) on 2 cores.
# No peer renders asciicast to GIF on this machine: agg (Rust) and VHS (Go, headless Chromium) come only
# from GitHub; Debian's termtosvg writes animated SVG, not video. The figure is against real time.
#
#   scripts/bench-terminal.sh [--runs N] [--keep-cast FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. scripts/bench_lib.sh

runs=3 keep=""
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
    --keep-cast) keep="${2:?--keep-cast needs a file}"; shift 2 ;;
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-terminal: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
case "$runs" in '' | *[!0-9]* | 0) bench_die "--runs takes a positive number, not '$runs'" ;; esac

scripts/setup.sh >&2 || bench_die "scripts/setup.sh could not install Reel's build dependencies (and fonts)"
bench_apt time || bench_die "cannot install GNU time"
reel=$(bench_build reel)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$work/session.cast" <<'PY'
import json, sys
seed = 12345
def rand(n):
    global seed
    seed = (seed * 1103515245 + 12345) % 2**31
    return seed % n
words = ["compiling", "linking", "checking", "warning:", "note:", "module", "Render", "Raster", "Scene", "Media",
         "Text", "Terminal", "GIF", "frame", "path", "glyph", "layer", "done", "cached", "0.42s", "1.7 MB"]
colours = ["\u001b[32m", "\u001b[33m", "\u001b[36m", "\u001b[1;34m", "\u001b[0m", "\u001b[38;5;208m", "\u001b[2m"]
with open(sys.argv[1], "w") as f:
    f.write(json.dumps({"version": 2, "width": 120, "height": 36}) + "\n")
    for i in range(1200):
        line = f"[{i:5d}] " + " ".join(colours[rand(len(colours))] + words[rand(len(words))] for _ in range(8 + rand(10)))
        f.write(json.dumps([round(i * 0.05, 3), "o", line + "\u001b[0m\r\n"]) + "\n")
    f.write(json.dumps([60.0, "o", ""]) + "\n")
PY
[ -n "$keep" ] && cp "$work/session.cast" "$keep"
echo "Machine: $(bench_machine); load average $(cut -d' ' -f1-3 /proc/loadavg); $("$reel" --version | sed 's/^/Reel /')"
echo "Commit: $(bench_commit); $(date -u '+%Y-%m-%d %H:%M UTC'); scripts/bench-terminal.sh ${args[*]}"
echo
for what in gif mp4; do
  times=()
  for ((k = 1; k <= runs; k++)); do
    start=$(date +%s.%N)
    "$reel" render "$work/session.cast" -o "$work/out.$what" --size 1920x1080 --fps 60 --quiet
    end=$(date +%s.%N)
    times+=("$(python3 -c "print($end - $start)")")
  done
  best=$(printf '%s\n' "${times[@]}" | sort -g | head -1)
  median=$(printf '%s\n' "${times[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p")
  python3 -c "print('%-4s 1080p60, a 62 s clip: best %6.2f s (%5.2f× real time), median %6.2f s (%5.2f×); %d runs'
      % ('$what', $best, 62 / $best, $median, 62 / $median, $runs))"
done
echo "(load average after: $(cut -d' ' -f1-3 /proc/loadavg))"
