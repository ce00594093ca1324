#!/usr/bin/env bash
# GIF benchmark: Reel's GIF encoder against ffmpeg's two-pass palettegen/paletteuse
# (stats_mode=diff, dither sierra2_4a), that GIF optimized by gifsicle (-O3, lossless), and pngquant
# (libimagequant, per frame, assembled by ffmpeg's GIF encoder without requantizing), all on the same
# frames: each reference animation rendered once as a PNG sequence by Reel. Quality is ffmpeg's SSIM of
# each GIF against those frames (paired by time); size is the file's bytes. Prints a Markdown
# table; see BENCHMARKS.md.
#
#   scripts/bench-gif.sh [--quick] [--json FILE] [--skip-pngquant] [--skip-gifsicle] [--install-only]
#
# Installs what it needs (scripts/bench_lib.sh): Debian's ffmpeg, pngquant and gifsicle (as root), and
# Reel's release build. A peer that cannot be installed stops it with the reason, unless --skip-PEER
# was given. --quick: two of the six scenes.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. scripts/bench_lib.sh

json="" quick=0 install_only=0 pngquant=1 gifsicle=1
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json="${2:?--json needs a file}"; shift 2 ;;
    --quick) quick=1; shift ;;
    --install-only) install_only=1; shift ;;
    --skip-pngquant) pngquant=0; shift ;;
    --skip-gifsicle) gifsicle=0; shift ;;
    *) echo "bench-gif: unknown option $1" >&2; exit 64 ;;
  esac
done
scripts/setup.sh >&2 || bench_die "scripts/setup.sh could not install Reel's build dependencies"
bench_apt ffmpeg || bench_die "cannot install ffmpeg, which makes the reference GIFs and measures SSIM"
if [ "$pngquant" = 1 ]; then bench_install_tool pngquant || bench_cannot pngquant "the Debian package pngquant (messages above)"; fi
if [ "$gifsicle" = 1 ]; then bench_install_tool gifsicle || bench_cannot gifsicle "the Debian package gifsicle (messages above)"; fi
[ "$install_only" = 1 ] && exit 0

reel=$(bench_build reel)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# ssim GIF FRAMES_DIR FPS → the "All" SSIM. The GIF is decoded at the clip's frame rate (fps filter)
# and then paired with the source frames by index: gifsicle merges a run of equal frames into one
# longer frame, so its GIF has fewer frames than the clip (for the others this changes nothing).
ssim() {
  ffmpeg -nostdin -hide_banner -nostats -i "$1" -framerate "$3" -i "$2/frame_%05d.png" \
    -lavfi "[0:v]fps=$3,settb=1/30,setpts=N,format=rgb24[a];[1:v]settb=1/30,setpts=N,format=rgb24[b];[a][b]ssim" -f null - 2>&1 \
    | sed -n 's/.*All:\([0-9.]*\).*/\1/p' | tail -1
}
bytes() { stat -c %s "$1"; }
skipped() { echo "skipped"; }

versions="$(ffmpeg -version | head -1 | cut -d' ' -f1-3)"
[ "$pngquant" = 1 ] && versions="$versions; $(pngquant --version | head -1 | sed 's/^/pngquant /')"
[ "$gifsicle" = 1 ] && versions="$versions; $(gifsicle --version | head -1 | sed 's/^LCDF //')"
echo "Machine: $(bench_machine); $versions"
[ "$pngquant" = 1 ] || echo "pngquant left out (--skip-pngquant)."
[ "$gifsicle" = 1 ] || echo "gifsicle left out (--skip-gifsicle)."
echo
echo "| scene | frames | Reel bytes | Reel SSIM | ffmpeg bytes | ffmpeg SSIM | ffmpeg + gifsicle -O3 bytes | its SSIM | pngquant bytes | pngquant SSIM | Reel ÷ ffmpeg bytes | Reel ÷ ffmpeg + gifsicle bytes |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
scenes="star-button swift-star spring-button search-back gradient-switch favorite-star"
[ "$quick" = 1 ] && scenes="star-button gradient-switch"
for name in $scenes; do
  # The README GIFs' sizes.
  case "$name" in search-back) scale=2 ;; gradient-switch) scale=3 ;; *) scale=1 ;; esac
  scene="examples/$name.yaml"
  [ -f "$scene" ] || bench_die "$scene is missing"
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
  n=$(find "$d/frames" -name '*.png' | wc -l)
  rb=$(bytes "$d/reel.gif") fb=$(bytes "$d/ffmpeg.gif")
  rs=$(ssim "$d/reel.gif" "$d/frames" "$fps") fs=$(ssim "$d/ffmpeg.gif" "$d/frames" "$fps")
  gb=$(skipped) gs=$(skipped) pb=$(skipped) ps=$(skipped) rg="—"
  if [ "$gifsicle" = 1 ]; then
    # The same GIF through gifsicle's lossless optimizer, the usual last step of such a pipeline.
    gifsicle -O3 "$d/ffmpeg.gif" -o "$d/gifsicle.gif"
    gb=$(bytes "$d/gifsicle.gif") gs=$(ssim "$d/gifsicle.gif" "$d/frames" "$fps")
    rg=$(python3 -c "print(f'{$rb/$gb:.2f}×')")
  fi
  if [ "$pngquant" = 1 ]; then
    # pngquant per frame (its default: Floyd–Steinberg, 256 colours), then packed as GIF as is.
    mkdir -p "$d/pq"
    for f in "$d"/frames/*.png; do pngquant --force --output "$d/pq/$(basename "$f")" 256 "$f" </dev/null; done
    ffmpeg -nostdin -v error -framerate "$fps" -i "$d/pq/frame_%05d.png" -c:v gif -y "$d/pngquant.gif"
    pb=$(bytes "$d/pngquant.gif") ps=$(ssim "$d/pngquant.gif" "$d/frames" "$fps")
  fi
  ratio=$(python3 -c "print(f'{$rb/$fb:.2f}×')")
  echo "| $name | $n | $rb | $rs | $fb | $fs | $gb | $gs | $pb | $ps | $ratio | $rg |"
  printf '%s\t' "$name" "$n" "$rb" "$rs" "$fb" "$fs" "$gb" "$gs" "$pb" >>"$work/rows.tsv"
  printf '%s\n' "$ps" >>"$work/rows.tsv"
  rm -rf "$d"
done

if [ -n "$json" ]; then
  python3 - "$work/rows.tsv" "$json" "$versions" <<'PY'
import json, sys
rows, out, versions = sys.argv[1:]
def num(v):
    return v if v == "skipped" else float(v) if "." in v else int(v)
keys = ["frames", "reel_bytes", "reel_ssim", "ffmpeg_bytes", "ffmpeg_ssim", "gifsicle_bytes", "gifsicle_ssim",
        "pngquant_bytes", "pngquant_ssim"]
scenes = {}
for line in open(rows):
    name, *vals = line.rstrip("\n").split("\t")
    scenes[name] = dict(zip(keys, map(num, vals)))
json.dump({"versions": versions, "scenes": scenes}, open(out, "w"), indent=1)
PY
fi
