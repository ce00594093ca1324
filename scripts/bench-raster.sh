#!/usr/bin/env bash
# Rasterizer benchmark: the same path sets drawn by Reel and, in the same run, by Cairo (Debian's
# pycairo), Skia (skia-python), Blend2D (blend2d-python) and ThorVG (thorvg-python). Prints a Markdown
# table of draws per millisecond and ratios; see BENCHMARKS.md for the results and how to read them.
#
#   scripts/bench-raster.sh [--iterations N] [--threads T] [--rounds R] [--paired P] [--quick] [--tests A,B] [--json FILE]
#                           [--skip-cairo] [--skip-skia] [--skip-blend2d] [--skip-thorvg] [--install-only]
#
# Installs what it needs (scripts/bench_lib.sh): python3-cairo and python3-venv (Debian, as root), the
# other peers from PyPI into .venv-bench (git-ignored; made again when broken), and Reel's release
# build. A peer that cannot be installed stops it with the reason, unless --skip-PEER was given.
# The text rows' glyph outlines are made once, before anything is timed, by HarfBuzz through uharfbuzz
# (pinned below, in .venv-bench) from Inter (Debian's fonts-inter, installed by scripts/setup.sh).
# --quick: three of the fourteen tests, for a smoke check; --tests text,text_glyphs: only those.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. scripts/bench_lib.sh

pass=() skipped=() install_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-cairo | --skip-skia | --skip-blend2d | --skip-thorvg) skipped+=("${1#--skip-}"); shift ;;
    --install-only) install_only=1; shift ;;
    --quick) pass+=(--tests "rects,butterfly_stroke,worldmap_linear"); shift ;;
    --iterations | --threads | --rounds | --paired | --json | --tests) pass+=("$1" "${2:?$1 needs a value}"); shift 2 ;;
    *) echo "bench-raster: unknown option $1" >&2; exit 64 ;;
  esac
done
skipping() { [[ " ${skipped[*]} " == *" $1 "* ]]; }

scripts/setup.sh >&2 || bench_die "scripts/setup.sh could not install Reel's build dependencies"
# .venv-bench is made from Debian's python3 so that Debian's pycairo is visible inside it.
bench_apt python3-venv || bench_die "cannot install python3-venv"
bench_venv .venv-bench --system-site-packages || bench_die "cannot make the virtual environment .venv-bench"
if ! skipping cairo; then bench_install_cairo || bench_cannot cairo "Debian's python3-cairo is not importable from .venv-bench (messages above)"; fi
for p in skia blend2d thorvg; do
  skipping "$p" || bench_install_raster_peer "$p" || bench_cannot "$p" "pip could not install it into .venv-bench (messages above)"
done
bench_pip .venv-bench "import numpy" "$BENCH_NUMPY" || bench_die "cannot install numpy into .venv-bench"
# The text rows' outlines (not a peer: nothing of it is timed).
BENCH_UHARFBUZZ="uharfbuzz==0.57.0"
bench_pip .venv-bench "$(bench_version_check uharfbuzz 0.57.0); import uharfbuzz" "$BENCH_UHARFBUZZ" ||
  bench_die "cannot install $BENCH_UHARFBUZZ into .venv-bench (it makes the text rows' glyph outlines)"
[ -f /usr/share/fonts/opentype/inter/Inter-Regular.otf ] || bench_die "Inter is not installed (scripts/setup.sh installs fonts-inter)"
[ "$install_only" = 1 ] && exit 0

bin=$(bench_build reel-bench-raster)
spec="$(mktemp -d)/spec.json"
trap 'rm -rf "$(dirname "$spec")"' EXIT
.venv-bench/bin/python scripts/bench_raster.py gen "$spec"
skip_list=$(IFS=,; echo "${skipped[*]}")
.venv-bench/bin/python scripts/bench_raster.py run "$spec" --reel "$bin" --skip "$skip_list" "${pass[@]}"
