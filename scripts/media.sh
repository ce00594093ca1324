#!/usr/bin/env bash
# Regenerates the pictures of the README (docs/media/): each reference animation as a GIF and a contact
# sheet, rendered by the release build from its scene in examples/. Sizes are chosen to keep each GIF
# to a few hundred KB at most; the script fails if one grows past 400 KB.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/env.sh
swift build -c release --product reel
bin="$(swift build -c release --show-bin-path)/reel"
mkdir -p docs/media
# scene, pixels per point, sheet times, and a frame rate for the GIF where the scene's makes it too big
while read -r name scale times fps; do
  "$bin" render "examples/$name.yaml" -o "docs/media/$name.gif" --scale "$scale" ${fps:+--fps "$fps"} --quiet
  "$bin" sheet "examples/$name.yaml" -o "docs/media/$name-sheet.png" --scale "$scale" --at "$times"
  size=$(stat -c %s "docs/media/$name.gif")
  if [ "$size" -gt 400000 ]; then echo "media: docs/media/$name.gif is $size bytes, over 400 KB" >&2; exit 1; fi
  echo "media: docs/media/$name.gif ($size bytes)"
done <<'LIST'
star-button 1 0,0.3,0.45,0.6,0.7,0.75,1,1.7,1.8,2.1
swift-star 1 0,0.3,0.45,0.6,0.7,0.75,1,1.7,1.8,2.1
spring-button 1 0,0.15,0.2,0.3,0.45,0.55,0.7,1.5
search-back 2 0,0.1,0.2,0.3,0.4,0.5,1.1,1.2,1.3,1.4
gradient-switch 3 0.1,0.3,0.5,0.7,0.85,0.95,1.1,1.3,1.5,1.85,2,2.3
favorite-star 1 0,0.15,0.2,0.25,0.3,0.35,0.45,0.6,1.55,1.6,1.65,2
titles 1 0.3,0.45,0.6,1.2,1.7,2.1,2.6,2.9,3.4
svg-logo 1 0.2,0.5,0.8,1.1,1.4,1.7,2,2.3,3.4
lottie-in-scene 1 0.3,0.8,1.4,2.2,3.2,4.2,4.9
lottie-slots 1 0,0.1,0.2,0.3,0.5,0.7,1,2
demo-video 0.75 0.8,1.8,2.6,3.2,4.2,5.2,5.8,6.4 15
effects 0.75 0,0.4,0.8,1.55,1.7,1.85,2.2,2.9 15
terminal 1 1,2.9,4.5,6.3,7,8,9.6,11 15
LIST
