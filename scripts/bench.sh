#!/usr/bin/env bash
# The benchmark suite; results and how to read them in BENCHMARKS.md. Runs whole from a fresh clone:
#
#   scripts/bench.sh [--runs N] [--quick] [--json FILE] [--skip-raster] [--skip-gif] [--skip-text] [--skip-lottie]
#                    [--skip-retained]
#                    [--skip-PEER ...]
#
# 1. Pipeline (scripts/bench_pipeline.py): Reel against the encoder's own limit (ffmpeg encoding the
#    same frames), and against Manim Community on the 400-circle scene, with that floor beside it.
# 2. Raster: scripts/bench-raster.sh (Cairo, Skia, Blend2D, ThorVG). 3. GIF: scripts/bench-gif.sh
#    (ffmpeg, pngquant, gifsicle). 4. Text: scripts/bench-text.sh (a text-heavy 1080p60 scene against
#    the encoder alone). 5. Lottie: scripts/bench-lottie.sh (a corpus file from ../shared/lottie to
#    1080p60 against the encoder alone, and Reel's drawing against ThorVG's). 6. Only what changes:
#    scripts/bench-retained.sh (100,000 still layers; 2,000 still shapes and a moving dot to GIF, against
#    the dot alone).
#
# Every peer is installed before anything is timed — Debian packages as root, Python packages into
# the git-ignored .venv-manim and .venv-bench (a broken or half-made one is made again) — and Reel is
# built in ${REEL_BENCH_SCRATCH:-.build-bench}. A peer that cannot be installed stops the run with the
# reason, unless it was left out on purpose:
#   --skip-manim --skip-cairo --skip-skia --skip-blend2d --skip-thorvg --skip-pngquant --skip-gifsicle
#   --skip-raster / --skip-gif / --skip-text / --skip-lottie / --skip-retained   leave out a whole table (and its peers)
#   --runs N        medians of N runs (3 by default) in the pipeline tables
#   --quick         a smoke check: one run, two scenes, three raster tests, two GIFs
#   --json FILE     also write every table, the machine and the commit to FILE
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. scripts/bench_lib.sh

runs=3 raster=1 gif=1 text=1 lottie=1 retained=1 quick=0 json=""
declare -A skip=()
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
    --quick) quick=1; shift ;;
    --json) json="${2:?--json needs a file}"; shift 2 ;;
    --skip-raster) raster=0; shift ;;
    --skip-gif) gif=0; shift ;;
    --skip-text) text=0; shift ;;
    --skip-lottie) lottie=0; shift ;;
    --skip-retained) retained=0; shift ;;
    --skip-manim | --skip-cairo | --skip-skia | --skip-blend2d | --skip-thorvg | --skip-pngquant | --skip-gifsicle)
      skip[${1#--skip-}]=1; shift ;;
    -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
[ "$quick" = 1 ] && runs=1
case "$runs" in '' | *[!0-9]* | 0) bench_die "--runs takes a positive number, not '$runs'" ;; esac
if [ -n "$json" ]; then
  case "$json" in /*) ;; *) json="$PWD/$json" ;; esac
  : >"$json" || bench_die "cannot write $json"
fi

# Everything first, so that a peer that cannot be had stops the run before anything is timed.
scripts/setup.sh >&2 || bench_die "scripts/setup.sh could not install Reel's build dependencies"
bench_apt time ffmpeg || bench_die "cannot install GNU time and ffmpeg, which every table needs"
if [ -z "${skip[manim]:-}" ]; then bench_install_manim || bench_cannot manim "$BENCH_MANIM or a Debian package it builds against failed (messages above)"; fi
raster_flags=() gif_flags=()
for p in manim cairo skia blend2d thorvg pngquant gifsicle; do
  [ -n "${skip[$p]:-}" ] || continue
  case "$p" in
    cairo | skia | blend2d | thorvg) raster_flags+=("--skip-$p") ;;
    pngquant | gifsicle) gif_flags+=("--skip-$p") ;;
  esac
done
if [ "$quick" = 1 ]; then raster_flags+=(--quick) gif_flags+=(--quick); fi
if [ "$raster" = 1 ]; then scripts/bench-raster.sh --install-only "${raster_flags[@]}"; fi
if [ "$gif" = 1 ]; then scripts/bench-gif.sh --install-only "${gif_flags[@]}"; fi
reel=$(bench_build reel)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
machine=$(bench_machine)
commit=$(bench_commit)
echo "Machine: $machine; $(ffmpeg -version | head -1 | cut -d' ' -f1-3); $("$reel" --version | sed 's/^/Reel /')"
echo "Commit: $commit; $(date -u '+%Y-%m-%d %H:%M UTC'); scripts/bench.sh ${args[*]}"
echo
manim_python=.venv-manim/bin/python
[ -n "${skip[manim]:-}" ] && manim_python=none
pipeline_flags=()
[ "$quick" = 1 ] && pipeline_flags+=(--quick)
python3 scripts/bench_pipeline.py --reel "$reel" --manim "$manim_python" --runs "$runs" --json "$work/pipeline.json" \
  "${pipeline_flags[@]}"
if [ "$raster" = 1 ]; then
  echo
  echo "### Raster"
  echo
  scripts/bench-raster.sh --iterations "$([ "$quick" = 1 ] && echo 1 || echo 5)" --json "$work/raster.json" \
    "${raster_flags[@]}"
fi
if [ "$gif" = 1 ]; then
  echo
  echo "### GIF"
  echo
  scripts/bench-gif.sh --json "$work/gif.json" "${gif_flags[@]}"
fi
if [ "$text" = 1 ]; then
  echo
  echo "### Text"
  echo
  scripts/bench-text.sh --runs "$([ "$quick" = 1 ] && echo 1 || echo "$runs")" --json "$work/text.json"
fi

if [ "$lottie" = 1 ]; then
  echo
  echo "### Lottie"
  echo
  if [ -n "${skip[thorvg]:-}" ]; then
    echo "(left out: --skip-thorvg, and this table compares with ThorVG)"
  elif [ -f ../shared/lottie/web-bacon.json ]; then
    scripts/bench-lottie.sh --runs "$([ "$quick" = 1 ] && echo 1 || echo "$runs")" --json "$work/lottie.json"
  else
    echo "(left out: ../shared/lottie/web-bacon.json, the corpus file it renders, is not beside this clone)"
  fi
fi

if [ "$retained" = 1 ]; then
  echo
  echo "### Only what changes"
  echo
  scripts/bench-retained.sh --runs "$([ "$quick" = 1 ] && echo 1 || echo "$runs")"
fi

if [ -n "$json" ]; then
  python3 - "$json" "$work" "$machine" "$commit" "$(ffmpeg -version | head -1 | cut -d' ' -f3)" \
    "$("$reel" --version)" "scripts/bench.sh ${args[*]}" "$(printf '%s\n' "${!skip[@]}" | sort | paste -sd, -)" <<'PY'
import json, os, sys, time
out, work, machine, commit, ffmpeg, reel, command, skipped = sys.argv[1:]
mem = next(int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal:"))
model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown")
doc = {
    "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    "command": command,
    "commit": commit,
    "machine": {"nproc": len(os.sched_getaffinity(0)), "model": model, "ram_bytes": mem * 1024, "summary": machine},
    "versions": {"reel": reel, "ffmpeg": ffmpeg},
    "skipped": [s for s in skipped.split(",") if s],
}
for table in ["pipeline", "raster", "gif", "text", "lottie"]:
    path = os.path.join(work, table + ".json")
    doc[table] = json.load(open(path)) if os.path.exists(path) else None
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
PY
  echo
  echo "(all tables, the machine and the commit written to $json)"
fi
