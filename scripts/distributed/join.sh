#!/usr/bin/env bash
# The join step: checks that every shard's segment is in OUT_DIR, then joins them without re-encoding.
#
# Environment: OUT_DIR (the segments' folder), SHARD_COUNT, OUTPUT (the joined clip), FORMAT (mp4
# default), REEL (default: reel on PATH).
set -euo pipefail

fail() { echo "join: $*" >&2; exit 2; }
[ -n "${OUT_DIR:-}" ] || fail "set OUT_DIR to the segments' folder"
[ -n "${OUTPUT:-}" ] || fail "set OUTPUT to the joined clip's path"
count="${SHARD_COUNT:-}"
[[ "$count" =~ ^[1-9][0-9]*$ ]] || fail "set SHARD_COUNT to the number of shards"
format="${FORMAT:-mp4}"
reel="${REEL:-reel}"

segments=()
missing=()
for ((i = 0; i < count; i++)); do
  s="$OUT_DIR/segment-$(printf %05d "$i").$format"
  if [ -f "$s" ]; then segments+=("$s"); else missing+=("$i"); fi
done
[ ${#missing[@]} -eq 0 ] || fail "segments missing for shards ${missing[*]} of $count in $OUT_DIR: render them again"
# reel concat checks the rest: the frames each segment holds, their order, their encoding.
exec "$reel" concat "${segments[@]}" -o "$OUTPUT"
