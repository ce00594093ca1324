#!/usr/bin/env bash
# Renders every example scene to MP4 and GIF with one reel binary and prints a SHA-256 of each output,
# so two builds can be compared byte for byte (a restructuring must not change a single output):
#   scripts/example-hashes.sh path/to/reel > before.txt; … ; scripts/example-hashes.sh > after.txt; diff before.txt after.txt
set -euo pipefail
cd "$(dirname "$0")/.."
reel=${1:-.build/debug/reel}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for scene in examples/*.yaml examples/*.json examples/assets/*.yaml; do
  name=$(basename "$scene")
  for ext in mp4 gif; do
    "$reel" render "$scene" -o "$out/$name.$ext" --quiet --progress none
    echo "$(sha256sum < "$out/$name.$ext" | cut -d' ' -f1)  $scene.$ext"
  done
done
