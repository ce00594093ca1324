#!/usr/bin/env bash
# Installs what is missing, builds in release mode, and renders every scene in examples/ to
# out/NAME.mp4 and out/NAME.gif (with reel batch), then checks each file with ffprobe.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/env.sh
swift build -c release --product reel
bin="$(swift build -c release --show-bin-path)/reel"
mkdir -p out
shopt -s nullglob
scenes=(examples/*.json examples/*.yaml)
[ ${#scenes[@]} -gt 0 ] || { echo "demo: no scenes in examples/" >&2; exit 1; }
# The terminal example's session, recorded again from its tape: its times come from the tape, so it is
# the committed recording byte for byte (examples/terminal.tape says what it types).
"$bin" record examples/terminal.tape -o out/terminal-session.cast --quiet
if ! cmp -s out/terminal-session.cast examples/assets/terminal-session.cast; then
  echo "demo: recording examples/terminal.tape again gave a different out/terminal-session.cast" >&2
  exit 1
fi
# Every scene to MP4 and GIF, rendered concurrently by a batch (examples/batch/demo.yaml); a second
# run renders only what changed.
"$bin" batch examples/batch/demo.yaml
for scene in "${scenes[@]}"; do
  name="$(basename "${scene%.*}")"
  for ext in mp4 gif; do
    # A playable file: ffprobe reads it and prints no warning.
    warnings="$(ffprobe -v warning -show_entries stream=codec_name,width,height,nb_frames -of compact "out/$name.$ext" 2>&1 >/dev/null)"
    if [ -n "$warnings" ]; then
      echo "demo: ffprobe warns about out/$name.$ext:" >&2
      echo "$warnings" >&2
      exit 1
    fi
  done
done
echo "demo: rendered ${#scenes[@]} scene(s) into out/, and recorded examples/terminal.tape again, byte for byte"
