#!/usr/bin/env bash
# The join step: checks that OUT_DIR holds exactly the SHARD_COUNT segments render-shard.sh writes
# (segment-00000.FORMAT … segment-(N-1).FORMAT, no more), then joins them without re-encoding:
#   reel concat OUT_DIR/segment-*.FORMAT -o OUTPUT
#
# Environment:
#   OUT_DIR      the segments' folder (required)
#   SHARD_COUNT  the number of shards (required)
#   OUTPUT       the joined clip, with the segments' extension (required)
#   FORMAT       mp4 (default), mov, webm or gif: the segments' extension
#   REEL         the reel binary (default: reel on PATH)
# Exits 2, with a message on stderr, when a segment is missing or left from another split; otherwise
# with reel concat's status (which refuses gaps, overlaps and segments encoded differently).
set -euo pipefail

fail() { echo "join: $*" >&2; exit 2; }
[ -n "${OUT_DIR:-}" ] || fail "set OUT_DIR to the segments' folder"
[ -n "${OUTPUT:-}" ] || fail "set OUTPUT to the joined clip's path"
count="${SHARD_COUNT:-}"
[ -n "$count" ] || fail "set SHARD_COUNT to the number of shards"
[[ "$count" =~ ^[1-9][0-9]*$ ]] || fail "SHARD_COUNT '$count' is not a positive whole number"
count=$((10#$count))
format="${FORMAT:-mp4}"
case "$format" in mp4|mov|webm|gif) ;; *) fail "FORMAT=$format: segments are mp4, mov, webm or gif" ;; esac
reel="${REEL:-reel}"
command -v "$reel" >/dev/null 2>&1 || fail "REEL=$reel: no such program (put reel on PATH or set REEL to its path)"
[ -d "$OUT_DIR" ] || fail "OUT_DIR=$OUT_DIR: no such folder (no shard has finished, or the shared storage is not mounted)"

segments=()
missing=()
for ((i = 0; i < count; i++)); do
  s="$OUT_DIR/segment-$(printf %05d "$i").$format"
  if [ -f "$s" ]; then segments+=("$s"); else missing+=("$i"); fi
done
[ ${#missing[@]} -eq 0 ] ||
  fail "segments missing for shards ${missing[*]} of $count in $OUT_DIR: render them again (or wait for them)"

# Segments beyond N-1 come from a split into more shards: reel concat would refuse the overlap.
extra=()
shopt -s nullglob
for s in "$OUT_DIR"/segment-*."$format"; do
  n="${s##*/segment-}" n="${n%."$format"}"
  if ! [[ "$n" =~ ^[0-9]{5}$ ]] || [ $((10#$n)) -ge "$count" ]; then extra+=("${s##*/}"); fi
done
[ ${#extra[@]} -eq 0 ] ||
  fail "$OUT_DIR holds ${#extra[@]} segment(s) beyond the $count shards: ${extra[*]} (left from another split? remove them)"

mkdir -p "$(dirname "$OUTPUT")"
# reel concat checks the rest: the frames each segment holds, their order, their encoding.
exec "$reel" concat "${segments[@]}" -o "$OUTPUT"
