#!/usr/bin/env bash
# The benchmark suite; results and how to read them in BENCHMARKS.md.
#
#   scripts/bench.sh [--runs N] [--skip-raster] [--skip-gif]
#
# 1. Pipeline: Reel against the encoder's own limit (ffmpeg encoding the same frames), and against
#    Manim Community on the 400-circle scene (scripts/bench_pipeline.py).
# 2. Raster: scripts/bench-raster.sh. 3. GIF: scripts/bench-gif.sh.
# Each figure is the median of several runs (3 by default), peers interleaved with Reel. Installs what
# it needs: GNU time, Manim Community into .venv-manim (with Debian's pango/cairo headers), as root.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3 raster=1 gif=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --skip-raster) raster=0; shift ;;
    --skip-gif) gif=0; shift ;;
    *) echo "bench: unknown option $1" >&2; exit 64 ;;
  esac
done
scripts/setup.sh >/dev/null
. scripts/env.sh
need=()
for p in time libpango1.0-dev libcairo2-dev python3-venv python3-dev build-essential; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then echo "bench: run first: sudo apt-get install -y ${need[*]}" >&2; exit 1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
manim=-
if [ -x .venv-manim/bin/python ] || { python3 -m venv .venv-manim && .venv-manim/bin/pip install --quiet "manim==0.22.0"; }; then
  manim=.venv-manim/bin/python
fi
swift build -c release --product reel >/dev/null
reel="$(swift build -c release --show-bin-path)/reel"

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(ffmpeg -version | head -1 | cut -d' ' -f1-3); $("$reel" --version | sed 's/^/Reel /')"
echo
python3 scripts/bench_pipeline.py "$reel" "$manim" "$runs"
if [ "$raster" = 1 ]; then echo; echo "### Raster"; echo; scripts/bench-raster.sh --iterations 5; fi
if [ "$gif" = 1 ]; then echo; echo "### GIF"; echo; scripts/bench-gif.sh; fi
