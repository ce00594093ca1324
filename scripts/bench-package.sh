#!/usr/bin/env bash
# The packaged reel (scripts/package.sh: release, Swift runtime linked statically, debug info stripped)
# against the development release build (swift build -c release, Swift's runtime as shared libraries),
# rendering the same scenes in the same run, alternated by hyperfine. Prints a Markdown table with
# each scene's median times and their ratio (BENCHMARKS.md, "The packaged binary").
#   scripts/bench-package.sh [--runs N]     (default 10 runs of each, after one warm-up)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. scripts/bench_lib.sh

runs=10
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
    -h | --help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) bench_die "unknown option $1 (the only option is --runs N)" ;;
  esac
done
case "$runs" in '' | *[!0-9]* | 0) bench_die "--runs takes a positive number, not '$runs'" ;; esac

scripts/setup.sh >&2 || bench_die "scripts/setup.sh could not install Reel's build dependencies"
bench_apt hyperfine || bench_die "cannot install hyperfine"
dev=$(bench_build reel)
scripts/package.sh >&2
version="$(scripts/package.sh --print-version)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xzf "dist/reel-$version-linux-$(uname -m).tar.gz" -C "$work" --strip-components=1
packaged="$work/bin/reel"

echo "Machine: $(bench_machine); commit $(bench_commit); $(date -u '+%Y-%m-%d %H:%M UTC'); scripts/bench-package.sh --runs $runs"
echo
echo "| scene → output | development build (s) | packaged (s) | packaged ÷ development |"
echo "|---|---|---|---|"
# Shapes, text, Lottie and video: the parts of the binary that differ most in what they call.
for job in "star-button.yaml mp4" "titles.yaml gif" "lottie-loader.json mp4" "demo-video.yaml mp4" "hello.json gif"; do
  set -- $job
  scene="examples/$1" out="$work/out.$2"
  hyperfine --style none --warmup 1 --runs "$runs" --export-json "$work/h.json" \
    -n dev "$dev render $scene -o $out -q" -n packaged "$packaged render $scene -o $out -q" >/dev/null
  python3 - "$work/h.json" "$1 → $2" <<'EOF'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
print(f"| {sys.argv[2]} | {r['dev']:.3f} | {r['packaged']:.3f} | {r['packaged'] / r['dev']:.2f} |")
EOF
done
