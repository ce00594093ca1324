#!/usr/bin/env bash
# The render step of a sharded render: renders shard I of N of a scene as a segment in a shared folder.
# The same script runs under every engine; the engine says which shard through its own variable:
#
#   SHARD_INDEX             set by hand or by gnu-parallel.sh
#   JOB_COMPLETION_INDEX    Kubernetes Indexed Job (0 … completions-1)
#   SLURM_ARRAY_TASK_ID     Slurm job array (--array=0-(N-1); with another first index, MIN is subtracted)
#
# Environment:
#   SCENE        the scene file (required)
#   OUT_DIR      the shared folder the segments go to (required; created if missing)
#   SHARD_COUNT  N (or SLURM_ARRAY_TASK_COUNT under Slurm)
#   FORMAT       mp4 (default), mov, webm or gif: the segments' format, and so the joined clip's
#   REEL         the reel binary (default: reel on PATH)
#   REEL_ARGS    more render options, e.g. "--preset web-1080p" (split on spaces)
#
# Writes $OUT_DIR/segment-IIIII.FORMAT (written under a temporary name, renamed when complete), which
# join.sh joins with reel concat.
set -euo pipefail

fail() { echo "render-shard: $*" >&2; exit 2; }

index="${SHARD_INDEX:-${JOB_COMPLETION_INDEX:-}}"
if [ -z "$index" ] && [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
  index=$(( SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0} ))
fi
count="${SHARD_COUNT:-${SLURM_ARRAY_TASK_COUNT:-}}"
[ -n "$index" ] || fail "no shard index: set SHARD_INDEX (or run under a Kubernetes Indexed Job or a Slurm array)"
[ -n "$count" ] || fail "no shard count: set SHARD_COUNT to the number of shards"
[[ "$index" =~ ^[0-9]+$ ]] || fail "the shard index '$index' is not a whole number"
[[ "$count" =~ ^[1-9][0-9]*$ ]] || fail "SHARD_COUNT '$count' is not a positive whole number"
[ "$index" -lt "$count" ] || fail "shard index $index is not in 0…$((count - 1)) (SHARD_COUNT=$count)"
[ -n "${SCENE:-}" ] || fail "set SCENE to the scene file"
[ -f "$SCENE" ] || fail "SCENE=$SCENE: no such file (is the shared storage mounted?)"
[ -n "${OUT_DIR:-}" ] || fail "set OUT_DIR to the shared folder for the segments"
format="${FORMAT:-mp4}"
case "$format" in mp4|mov|webm|gif) ;; *) fail "FORMAT=$format: segments are mp4, mov, webm or gif" ;; esac
reel="${REEL:-reel}"

mkdir -p "$OUT_DIR"
segment="$OUT_DIR/segment-$(printf %05d "$index").$format"
# shellcheck disable=SC2086  # REEL_ARGS is a list of options, split on purpose
exec "$reel" render "$SCENE" --shard "$index/$count" -o "$segment" -q ${REEL_ARGS:-}
