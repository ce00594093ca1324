#!/usr/bin/env bash
# GIF benchmark (issue #21): per reference animation and a 30 s documentation-style clip
# (bench/docs-ui.yaml), Reel's GIF lossless and at the docs-gif preset's settings (lossy), against
# ffmpeg's two-pass GIF (palettegen=stats_mode=diff, then paletteuse=diff_mode=rectangle), that GIF
# optimized by gifsicle -O3 (lossless), and by gifsicle -O3 --lossy=30. All from the same clip: the
# source frames are Reel's PNG sequence of it. Quality: ffmpeg's SSIM of each GIF against the source
# frames, paired by time; size: the file's bytes; time: wall seconds, Reel's from the scene (render
# and encode), ffmpeg's from the PNG frames (both passes). Prints a Markdown table; see BENCHMARKS.md.
#
#   scripts/bench-gif.sh [--quick] [--json FILE] [--install-only]
#
# Installs what it needs (scripts/bench_lib.sh): Debian's ffmpeg and gifsicle (as root), and Reel's
# release build. --quick: two reference animations and the docs clip.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. scripts/bench_lib.sh

json="" quick=0 install_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json="${2:?--json needs a file}"; shift 2 ;;
    --quick) quick=1; shift ;;
    --install-only) install_only=1; shift ;;
    --skip-pngquant) shift ;;  # pngquant is no longer measured (scripts/bench.sh may still pass it)
    --skip-gifsicle) bench_die "gifsicle is what Reel's GIFs are measured against; it cannot be skipped" ;;
    *) echo "bench-gif: unknown option $1" >&2; exit 64 ;;
  esac
done
scripts/setup.sh >&2 || bench_die "scripts/setup.sh could not install Reel's build dependencies"
bench_apt ffmpeg || bench_die "cannot install ffmpeg, which makes the reference GIFs and measures SSIM"
bench_install_tool gifsicle || bench_cannot gifsicle "the Debian package gifsicle (messages above)"
[ "$install_only" = 1 ] && exit 0

reel=$(bench_build reel)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# ssim GIF FRAMES_DIR FPS → the "All" SSIM. The GIF is decoded at the clip's frame rate (fps filter)
# and then paired with the source frames by index: merged frames (Reel, gifsicle) last longer.
ssim() {
  ffmpeg -nostdin -hide_banner -nostats -i "$1" -framerate "$3" -i "$2/frame_%05d.png" \
    -lavfi "[0:v]fps=$3,settb=1/30,setpts=N,format=rgb24[a];[1:v]settb=1/30,setpts=N,format=rgb24[b];[a][b]ssim" -f null - 2>&1 \
    | sed -n 's/.*All:\([0-9.]*\).*/\1/p' | tail -1
}
bytes() { stat -c %s "$1"; }
now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now) - $1:.2f}')"; }
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }

echo "Machine: $(bench_machine); $(ffmpeg -version | head -1 | cut -d' ' -f1-3); $(gifsicle --version | head -1 | sed 's/^LCDF //')"
echo "Reel $(bench_commit); docs-gif: $("$reel" presets 2>/dev/null | grep -m1 '^docs-gif' | sed 's/  */ /g')"
echo
echo "| clip | frames | Reel lossless B | SSIM | s | Reel docs-gif B | SSIM | s | ffmpeg B | SSIM | s | + gifsicle -O3 B | + gifsicle -O3 --lossy=30 B | SSIM | lossless ÷ O3 | docs-gif ÷ O3 | Reel ÷ ffmpeg s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
scenes="star-button swift-star spring-button search-back gradient-switch favorite-star docs-ui"
[ "$quick" = 1 ] && scenes="star-button gradient-switch docs-ui"
for name in $scenes; do
  # The README GIFs' sizes.
  case "$name" in search-back) scale=2 ;; gradient-switch) scale=3 ;; *) scale=1 ;; esac
  scene="examples/$name.yaml"
  [ "$name" = docs-ui ] && scene="bench/docs-ui.yaml"
  [ -f "$scene" ] || bench_die "$scene is missing"
  d="$work/$name"
  mkdir -p "$d"
  fps=$("$reel" info "$scene" </dev/null | sed -n 's/^timing: \([0-9./]*\) fps.*/\1/p')
  "$reel" render "$scene" -o "$d/frames/" --scale "$scale" --flatten --quiet </dev/null
  n=$(find "$d/frames" -name '*.png' | wc -l)
  t=$(now); "$reel" render "$scene" -o "$d/lossless.gif" --preset docs-gif --gif-lossy 0 --scale "$scale" --quiet </dev/null; ls_=$(since "$t")
  t=$(now); "$reel" render "$scene" -o "$d/docs.gif" --preset docs-gif --scale "$scale" --quiet </dev/null; ds=$(since "$t")
  t=$(now)
  ffmpeg -nostdin -v error -framerate "$fps" -i "$d/frames/frame_%05d.png" -vf "palettegen=stats_mode=diff" -y "$d/pal.png"
  ffmpeg -nostdin -v error -framerate "$fps" -i "$d/frames/frame_%05d.png" -i "$d/pal.png" \
    -lavfi "paletteuse=diff_mode=rectangle" -y "$d/ffmpeg.gif"
  fs=$(since "$t")
  gifsicle -O3 "$d/ffmpeg.gif" -o "$d/o3.gif"
  gifsicle -O3 --lossy=30 "$d/ffmpeg.gif" -o "$d/lossy30.gif"
  lb=$(bytes "$d/lossless.gif") db=$(bytes "$d/docs.gif") fb=$(bytes "$d/ffmpeg.gif") ob=$(bytes "$d/o3.gif") yb=$(bytes "$d/lossy30.gif")
  lq=$(ssim "$d/lossless.gif" "$d/frames" "$fps") dq=$(ssim "$d/docs.gif" "$d/frames" "$fps")
  fq=$(ssim "$d/ffmpeg.gif" "$d/frames" "$fps") yq=$(ssim "$d/lossy30.gif" "$d/frames" "$fps")
  echo "| $name | $n | $lb | $lq | $ls_ | $db | $dq | $ds | $fb | $fq | $fs | $ob | $yb | $yq | $(ratio "$lb" "$ob")× | $(ratio "$db" "$ob")× | $(ratio "$ds" "$fs")× |"
  printf '%s\t' "$name" "$n" "$lb" "$lq" "$ls_" "$db" "$dq" "$ds" "$fb" "$fq" "$fs" "$ob" "$yb" >>"$work/rows.tsv"
  printf '%s\n' "$yq" >>"$work/rows.tsv"
  rm -rf "$d"
done

if [ -n "$json" ]; then
  python3 - "$work/rows.tsv" "$json" <<'PY'
import json, sys
rows, out = sys.argv[1:]
keys = ["frames", "reel_lossless_bytes", "reel_lossless_ssim", "reel_lossless_seconds", "reel_docs_bytes",
        "reel_docs_ssim", "reel_docs_seconds", "ffmpeg_bytes", "ffmpeg_ssim", "ffmpeg_seconds", "gifsicle_o3_bytes",
        "gifsicle_lossy30_bytes", "gifsicle_lossy30_ssim"]
clips = {}
for line in open(rows):
    name, *vals = line.rstrip("\n").split("\t")
    clips[name] = {k: float(v) if "." in v else int(v) for k, v in zip(keys, vals)}
json.dump({"clips": clips}, open(out, "w"), indent=1)
PY
fi
