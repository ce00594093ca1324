#!/usr/bin/env bash
# The render step of a sharded render: renders shard I of N of a scene as a segment in a shared folder.
# The same script runs under every engine; the engine says which shard through its own variable,
# looked up in this order:
#
#   SHARD_INDEX             set by hand or by gnu-parallel.sh
#   JOB_COMPLETION_INDEX    Kubernetes Indexed Job (0 … completions-1)
#   SLURM_ARRAY_TASK_ID     Slurm job array. The task ID is the shard index only when the array is
#                           0-(N-1) (#SBATCH --array=0-3 for 4 shards). When SLURM_ARRAY_TASK_MIN is
#                           set, the index is SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN, so 1-4
#                           works too; arrays with a step (0-6:2) or gaps (0,2,5) are refused.
#
# Environment:
#   SCENE        the scene file (required)
#   OUT_DIR      the shared folder the segments go to (required; created if missing)
#   SHARD_COUNT  N (or SLURM_ARRAY_TASK_COUNT under Slurm)
#   FORMAT       mp4 (default), mov, webm or gif: the segments' format, and so the joined clip's
#   REEL         the reel binary (default: reel on PATH)
#   REEL_ARGS    more render options, e.g. "--preset web-mp4 --width 1080" (split on whitespace; no
#                quoting inside, so no value with a space)
#   RUN_ID       optional: this run's name (letters, digits, . _ -). Once the segment is complete,
#                the script writes RUN_ID into the marker $OUT_DIR/.segment-IIIII.FORMAT.done, so a
#                join that waits for the segments (the Kubernetes join's init container) can tell
#                this run's segments from ones an earlier run left in the folder.
#
# Writes $OUT_DIR/segment-IIIII.FORMAT (reel writes it under a hidden temporary name and renames it
# when complete), which join.sh joins with reel concat. Exits 2, with a message on stderr, when the
# environment is incomplete; otherwise with reel's status.
set -euo pipefail

fail() { echo "render-shard: $*" >&2; exit 2; }
whole() { [[ "$1" =~ ^[0-9]+$ ]]; }

if [ -n "${SHARD_INDEX:-}" ]; then
  index="$SHARD_INDEX" from="SHARD_INDEX=$SHARD_INDEX"
elif [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
  index="$JOB_COMPLETION_INDEX" from="JOB_COMPLETION_INDEX=$JOB_COMPLETION_INDEX"
elif [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
  id="$SLURM_ARRAY_TASK_ID" min="${SLURM_ARRAY_TASK_MIN:-0}" step="${SLURM_ARRAY_TASK_STEP:-1}"
  whole "$id" || fail "SLURM_ARRAY_TASK_ID '$id' is not a whole number"
  whole "$min" || fail "SLURM_ARRAY_TASK_MIN '$min' is not a whole number"
  if whole "$step" && [ "$step" -gt 1 ]; then
    fail "the Slurm array has a step of $step: shard indexes are task ID - first ID, so use --array=0-(N-1)"
  fi
  [ "$id" -ge "$min" ] || fail "SLURM_ARRAY_TASK_ID $id is below SLURM_ARRAY_TASK_MIN $min"
  index=$((id - min)) from="SLURM_ARRAY_TASK_ID=$id - SLURM_ARRAY_TASK_MIN=$min"
else
  fail "no shard index: set SHARD_INDEX (or run as a Kubernetes Indexed Job pod or a Slurm array task)"
fi
if [ -n "${SHARD_COUNT:-}" ]; then
  count="$SHARD_COUNT" count_from=SHARD_COUNT
elif [ -n "${SLURM_ARRAY_TASK_COUNT:-}" ]; then
  count="$SLURM_ARRAY_TASK_COUNT" count_from=SLURM_ARRAY_TASK_COUNT
else
  fail "no shard count: set SHARD_COUNT to the number of shards"
fi
whole "$index" || fail "the shard index '$index' ($from) is not a whole number"
[[ "$count" =~ ^[1-9][0-9]*$ ]] || fail "$count_from '$count' is not a positive whole number"
# 10# so that an index such as 08 is read as decimal.
index=$((10#$index)) count=$((10#$count))
[ "$index" -lt "$count" ] || fail "shard index $index is not in 0…$((count - 1)) ($from, $count_from=$count)"

[ -n "${SCENE:-}" ] || fail "set SCENE to the scene file"
[ -f "$SCENE" ] || fail "SCENE=$SCENE: no such file (working folder $PWD; is the shared storage mounted?)"
[ -n "${OUT_DIR:-}" ] || fail "set OUT_DIR to the shared folder for the segments"
format="${FORMAT:-mp4}"
case "$format" in mp4|mov|webm|gif) ;; *) fail "FORMAT=$format: segments are mp4, mov, webm or gif" ;; esac
reel="${REEL:-reel}"
command -v "$reel" >/dev/null 2>&1 || fail "REEL=$reel: no such program (put reel on PATH or set REEL to its path)"
read -r -a extra <<< "${REEL_ARGS:-}"
run_id="${RUN_ID:-}"
[[ "$run_id" =~ ^[A-Za-z0-9._-]*$ ]] || fail "RUN_ID '$run_id': use letters, digits, '.', '_' and '-' only"

mkdir -p "$OUT_DIR"
name="segment-$(printf %05d "$index").$format"
render=("$reel" render "$SCENE" --shard "$index/$count" -o "$OUT_DIR/$name" -q ${extra[@]+"${extra[@]}"})
if [ -z "$run_id" ]; then exec "${render[@]}"; fi

# With a RUN_ID the marker is written after reel, so reel runs as a child: pass on the signals a
# scheduler stops a task with (a shell waiting for a child would otherwise not act on them).
marker="$OUT_DIR/.$name.done"
rm -f "$marker"
"${render[@]}" &
reel_pid=$!
trap 'kill -TERM "$reel_pid" 2>/dev/null || true' TERM INT HUP
status=0
wait "$reel_pid" || status=$?
# A trapped signal ends the first wait early; the second waits for reel itself to stop.
if kill -0 "$reel_pid" 2>/dev/null; then wait "$reel_pid" || status=$?; fi
[ "$status" -eq 0 ] || exit "$status"
# Written under a temporary name and renamed, so a marker is never seen half-written.
printf '%s\n' "$run_id" > "$marker.tmp.$$"
mv -f "$marker.tmp.$$" "$marker"
