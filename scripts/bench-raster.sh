#!/usr/bin/env bash
# Rasterizer benchmark: the same path sets drawn by Reel and, in the same run, by Cairo (pycairo),
# Skia (skia-python), Blend2D (blend2d-python) and ThorVG (thorvg-python). Prints a Markdown table of
# draws per millisecond and ratios; see BENCHMARKS.md for the results and how to read them.
#
#   scripts/bench-raster.sh [--iterations N] [--threads T]
#
# Installs what it needs: Debian's python3-cairo and python3-venv (as root), a virtual environment
# .venv-bench (git-ignored) with the peers from PyPI, and Reel's release build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/env.sh

need=()
for p in python3-cairo python3-venv; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "bench-raster: run first: sudo apt-get install -y ${need[*]}" >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# Debian's python3 so that its pycairo is visible inside the environment.
if [ ! -x .venv-bench/bin/python ]; then
  /usr/bin/python3 -m venv --system-site-packages .venv-bench
  .venv-bench/bin/pip install --quiet "skia-python==144.1" "thorvg-python==1.1.3" "blend2d-python==1.0.0" numpy
fi

swift build -c release --product reel-bench-raster
bin="$(swift build -c release --show-bin-path)/reel-bench-raster"
spec="$(mktemp -d)/spec.json"
trap 'rm -rf "$(dirname "$spec")"' EXIT
.venv-bench/bin/python scripts/bench_raster.py gen "$spec"
.venv-bench/bin/python scripts/bench_raster.py run "$spec" --reel "$bin" "$@"
