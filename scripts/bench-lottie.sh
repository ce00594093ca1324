#!/usr/bin/env bash
# Lottie benchmark (issue #19): a complex corpus file (web-bacon.json from ../shared/lottie: 1920×1080,
# 140 frames, precomps, merges, masks; never copied into this repository) rendered by Reel to 1080p60
# H.264 against the encoder alone on the same frames (goal ≤ 1.10), and Reel's drawing against
# ThorVG's own on one and two threads (goal: faster than ThorVG on two). Results in BENCHMARKS.md.
#
#   scripts/bench-lottie.sh [--runs N] [--json FILE] [FILE.json]
#
# Installs what it needs first (GNU time and ffmpeg from Debian; thorvg-python into .venv-bench) and
# builds Reel (release) in ${REEL_BENCH_SCRATCH:-.build-bench}.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. scripts/bench_lib.sh

runs=3 json="" file="../shared/lottie/web-bacon.json"
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
    --json) json="${2:?--json needs a file}"; shift 2 ;;
    -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench-lottie: unknown option $1 (see --help)" >&2; exit 64 ;;
    *) file="$1"; shift ;;
  esac
done
case "$runs" in '' | *[!0-9]* | 0) bench_die "--runs takes a positive number, not '$runs'" ;; esac
[ -f "$file" ] || bench_die "$file is not here (the corpus lives in ../shared/lottie beside the clone); give a Lottie file"

scripts/setup.sh >&2 || bench_die "scripts/setup.sh could not install Reel's build dependencies"
bench_apt time ffmpeg || bench_die "cannot install GNU time and ffmpeg"
bench_install_raster_peer thorvg || bench_cannot thorvg "thorvg-python could not be installed into .venv-bench (messages above)"
reel=$(bench_build reel)
frames=$(bench_build reel-bench-frames)

echo "Machine: $(bench_machine); load average $(cut -d' ' -f1-3 /proc/loadavg); $(ffmpeg -version | head -1 | cut -d' ' -f1-3); $("$reel" --version | sed 's/^/Reel /')"
echo "Commit: $(bench_commit); $(date -u '+%Y-%m-%d %H:%M UTC'); scripts/bench-lottie.sh ${args[*]}"
echo
json_flags=()
[ -n "$json" ] && json_flags=(--json "$json")
python3 scripts/bench_lottie.py run "$file" --reel "$reel" --frames "$frames" --python .venv-bench/bin/python --runs "$runs" "${json_flags[@]}"
echo "(load average after: $(cut -d' ' -f1-3 /proc/loadavg))"
