#!/usr/bin/env bash
# Renders a scene in N shards with GNU parallel, on this machine or over SSH, then joins them.
#
#   scripts/distributed/gnu-parallel.sh SCENE OUTPUT [SHARDS]
#
# Environment:
#   HOSTS    where to run: ":" (default) is this machine; a file of SSH logins (one per line, e.g.
#            "8/user@render1" for 8 jobs there) or a comma-separated list "render1,render2,:".
#            Remote hosts need this repository and reel at the same paths, and SCENE and OUT_DIR on
#            storage they share with this machine.
#   OUT_DIR  the segments' folder (default: OUTPUT's folder/.NAME-segments)
#   REEL     the reel binary (default: reel on PATH); REEL_ARGS more render options
# SHARDS defaults to the number of CPUs here. The format comes from OUTPUT's extension.
set -euo pipefail

fail() { echo "gnu-parallel: $*" >&2; exit 2; }
[ $# -ge 2 ] || fail "usage: $0 SCENE OUTPUT [SHARDS]"
command -v parallel >/dev/null || fail "GNU parallel is not installed (Debian: apt-get install parallel)"
scene="$(realpath "$1")"
output="$(realpath -m "$2")"
count="${3:-$(nproc)}"
[[ "$count" =~ ^[1-9][0-9]*$ ]] || fail "SHARDS '$count' is not a positive whole number"
format="${output##*.}"
out_dir="$(realpath -m "${OUT_DIR:-$(dirname "$output")/.$(basename "$output")-segments}")"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
reel="${REEL:-reel}"
hosts="${HOSTS:-:}"
if [ -f "$hosts" ]; then where=(--sshloginfile "$hosts"); else where=(--sshlogin "$hosts"); fi

mkdir -p "$out_dir"
# One task per shard; --halt stops everything at the first failure; each task gets its environment
# on its command line (-q quotes every word), so it reaches remote hosts too.
seq 0 $((count - 1)) | parallel --will-cite -q --halt now,fail=1 "${where[@]}" \
  env SHARD_INDEX={} SHARD_COUNT="$count" SCENE="$scene" OUT_DIR="$out_dir" FORMAT="$format" \
  REEL="$reel" REEL_ARGS="${REEL_ARGS:-}" bash "$repo/scripts/distributed/render-shard.sh"
OUT_DIR="$out_dir" SHARD_COUNT="$count" OUTPUT="$output" FORMAT="$format" REEL="$reel" \
  bash "$repo/scripts/distributed/join.sh"
