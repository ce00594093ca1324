#!/usr/bin/env bash
# GIF benchmark: Reel's GIF encoder against ffmpeg's two-pass palettegen/paletteuse
# (stats_mode=diff, dither sierra2_4a) and pngquant (libimagequant, per frame, assembled by ffmpeg's
# GIF encoder without requantizing), all on the same frames: each reference animation rendered once as a
# PNG sequence by Reel. Quality is ffmpeg's SSIM of each GIF against those frames (frames paired by
# index); size is the file's bytes. Prints a Markdown table; see BENCHMARKS.md.
#
#   scripts/bench-gif.sh
#
# Installs what it needs: Debian's pngquant (as root), and Reel's release build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
. scripts/env.sh
if ! command -v pngquant >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then echo "bench-gif: run first: sudo apt-get install -y pngquant" >&2; exit 1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends pngquant >/dev/null
fi
swift build -c release --product reel >/dev/null
reel="$(swift build -c release --show-bin-path)/reel"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

ssim() {  # ssim GIF FRAMES_DIR FPS → the "All" SSIM
  ffmpeg -nostdin -hide_banner -nostats -i "$1" -framerate "$3" -i "$2/frame_%05d.png" \
    -lavfi "[0:v]settb=1/30,setpts=N,format=rgb24[a];[1:v]settb=1/30,setpts=N,format=rgb24[b];[a][b]ssim" -f null - 2>&1 \
    | sed -n 's/.*All:\([0-9.]*\).*/\1/p' | tail -1
}
bytes() { stat -c %s "$1"; }

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(ffmpeg -version | head -1 | cut -d' ' -f1-3); $(pngquant --version | head -1 | sed 's/^/pngquant /')"
echo
echo "| scene | frames | Reel bytes | Reel SSIM | ffmpeg bytes | ffmpeg SSIM | pngquant bytes | pngquant SSIM | Reel/ffmpeg bytes |"
echo "|---|---|---|---|---|---|---|---|---|"
# scene, scale (the README GIFs' sizes)
while read -r name scale; do
  scene="examples/$name.yaml"
  [ -f "$scene" ] || continue
  d="$work/$name"
  mkdir -p "$d"
  fps=$("$reel" info "$scene" </dev/null | sed -n 's/^timing: \([0-9./]*\) fps.*/\1/p')
  # The source frames, and Reel's GIF of the same clip.
  "$reel" render "$scene" -o "$d/frames/" --scale "$scale" --flatten --quiet </dev/null
  "$reel" render "$scene" -o "$d/reel.gif" --scale "$scale" --quiet </dev/null
  # ffmpeg, two passes.
  ffmpeg -nostdin -v error -framerate "$fps" -i "$d/frames/frame_%05d.png" -vf "palettegen=stats_mode=diff" -y "$d/pal.png"
  ffmpeg -nostdin -v error -framerate "$fps" -i "$d/frames/frame_%05d.png" -i "$d/pal.png" \
    -lavfi "paletteuse=dither=sierra2_4a" -y "$d/ffmpeg.gif"
  # pngquant per frame (its default: Floyd–Steinberg, 256 colours), then packed as GIF as is.
  mkdir -p "$d/pq"
  for f in "$d"/frames/*.png; do pngquant --force --output "$d/pq/$(basename "$f")" 256 "$f" </dev/null; done
  ffmpeg -nostdin -v error -framerate "$fps" -i "$d/pq/frame_%05d.png" -c:v gif -y "$d/pngquant.gif"
  n=$(ls "$d/frames" | wc -l)
  rb=$(bytes "$d/reel.gif"); fb=$(bytes "$d/ffmpeg.gif"); pb=$(bytes "$d/pngquant.gif")
  rs=$(ssim "$d/reel.gif" "$d/frames" "$fps"); fs=$(ssim "$d/ffmpeg.gif" "$d/frames" "$fps"); ps=$(ssim "$d/pngquant.gif" "$d/frames" "$fps")
  ratio=$(python3 -c "print(f'{$rb/$fb:.2f}×')")
  echo "| $name | $n | $rb | $rs | $fb | $fs | $pb | $ps | $ratio |"
done <<'LIST'
star-button 1
swift-star 1
spring-button 1
search-back 2
gradient-switch 3
favorite-star 1
LIST
