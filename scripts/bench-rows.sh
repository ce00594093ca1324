#!/usr/bin/env bash
# Batches from data (issue #25): how long expanding a table's rows into jobs takes, at 1,000, 10,000
# and 100,000 rows (`reel batch --dry-run`: every row read, typed and checked, every output path
# filled; nothing rendered). The goal is expansion linear in rows: the time per row stays the same
# as the table grows. Results in BENCHMARKS.md.
#
#   scripts/bench-rows.sh [--runs N]
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
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-rows: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
case "$runs" in '' | *[!0-9]* | 0) bench_die "--runs takes a positive number, not '$runs'" ;; esac

scripts/setup.sh >&2 || bench_die "scripts/setup.sh could not install Reel's build dependencies"
bench_apt bc || bench_die "cannot install bc"
reel=$(bench_build reel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp examples/batch/badge.yaml "$work/"

echo "Machine: $(bench_machine); load average $(cut -d' ' -f1-3 /proc/loadavg); $("$reel" --version | sed 's/^/Reel /')"
echo "Commit: $(bench_commit); $(date -u '+%Y-%m-%d %H:%M UTC'); scripts/bench-rows.sh ${args[*]}"
echo
echo "| rows | best of $runs (s) | per row (µs) | per row ÷ at 1,000 rows |"
echo "|---|---|---|---|"
base=""
for n in 1000 10000 100000; do
  python3 - "$work/rows-$n.csv" "$n" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    f.write("name,label,color,count\n")
    for i in range(1, n + 1):
        f.write(f'r{i},"Contributor, #{i}",#{(i * 97) % 0xFFFFFF:06x},{i}\n')
PY
  printf 'jobs:\n  - scene: badge.yaml\n    rows: rows-%s.csv\n    outputs: ["out/{name}.gif"]\n' "$n" > "$work/batch-$n.yaml"
  best=""
  for _ in $(seq "$runs"); do
    start=$(date +%s.%N)
    "$reel" batch "$work/batch-$n.yaml" --dry-run > /dev/null
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  per=$(echo "$best * 1000000 / $n" | bc -l)
  [ -z "$base" ] && base=$per
  printf '| %s | %.3f | %.1f | %.2f |\n' "$n" "$best" "$per" "$(echo "$per / $base" | bc -l)"
done
