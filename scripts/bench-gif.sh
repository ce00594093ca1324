#!/usr/bin/env bash
# GIF benchmark (issue #21): per reference animation and a 30 s documentation-style clip
# (bench/docs-ui.yaml), Reel's GIF lossless and at the docs-gif preset's settings (lossy), against
# ffmpeg's two-pass GIF (palettegen=stats_mode=diff, then paletteuse=diff_mode=rectangle), that GIF
# optimized by gifsicle -O3 (lossless), and by gifsicle -O3 --lossy=30. All from the same clip: the
# source frames are Reel's PNG sequence of it. Quality: ffmpeg's SSIM of each GIF against the source
# frames, paired by time; size: the file's bytes; time: wall seconds, Reel's from the scene (render
# and encode), ffmpeg's from the PNG frames (both passes). Prints a Markdown table; see BENCHMARKS.md.
#
# Then the rate-distortion comparison (issue #48 part 5): per clip, Reel's --gif-lossy over a sweep of
# levels and gifsicle -O3 --lossy=N (on the palettegen GIF) over a sweep, each GIF's bytes and SSIM; for
# every gifsicle point at SSIM >= 0.97, Reel's bytes at that SSIM (read off Reel's curve, see rd_table)
# divided by gifsicle's. Goal: <= 0.85 at every such point.
#
#   scripts/bench-gif.sh [--quick] [--rd | --no-rd] [--clips "A B"] [--reel BINARY] [--json FILE] [--install-only]
#
# Installs what it needs (scripts/bench_lib.sh): Debian's ffmpeg and gifsicle (as root), and Reel's
# release build. --quick: two reference animations and the docs clip. --rd: the rate-distortion table
# only; --no-rd: without it. --clips: these clips only. --reel: this reel binary instead of building one
# (to compare two builds).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. scripts/bench_lib.sh

json="" quick=0 install_only=0 main=1 rd=1 clips="" reel=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rd) main=0 rd=1; shift ;;
    --no-rd) rd=0; shift ;;
    --clips) clips="${2:?--clips needs a list}"; shift 2 ;;
    --reel) reel="${2:?--reel needs a binary}"; shift 2 ;;
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

[ -n "$reel" ] || reel=$(bench_build reel)
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

# The sweeps of the rate-distortion comparison. Reel's levels span its range (0…200); gifsicle's go
# past the point where its SSIM falls under 0.97 on every clip, so each clip's points >= 0.97 are all
# measured.
rd_reel_levels="0 5 10 15 20 30 40 50 60 80 100 120 150 200"
rd_gifsicle_levels="10 20 30 40 60 80 100 120 150 200"

# rd_clip NAME SCENE SCALE FPS DIR: both sweeps, one line a GIF (clip, coder, level, bytes, SSIM) in rd.tsv.
rd_clip() {
  local name=$1 scene=$2 scale=$3 fps=$4 d=$5 l
  for l in $rd_reel_levels; do
    "$reel" render "$scene" -o "$d/rd.gif" --preset docs-gif --gif-lossy "$l" --scale "$scale" --quiet </dev/null
    printf '%s\treel\t%s\t%s\t%s\n' "$name" "$l" "$(bytes "$d/rd.gif")" "$(ssim "$d/rd.gif" "$d/frames" "$fps")" >>"$work/rd.tsv"
  done
  for l in $rd_gifsicle_levels; do
    gifsicle -O3 --lossy="$l" "$d/ffmpeg.gif" -o "$d/rd.gif"
    printf '%s\tgifsicle\t%s\t%s\t%s\n' "$name" "$l" "$(bytes "$d/rd.gif")" "$(ssim "$d/rd.gif" "$d/frames" "$fps")" >>"$work/rd.tsv"
  done
  rm -f "$d/rd.gif"
}

# rd_table: per gifsicle point at SSIM >= 0.97, Reel's bytes at the same SSIM. Reel's curve is first
# cut to its front (a level both larger and no better than another is dropped); between the two
# front points whose SSIMs bracket the target, bytes are interpolated linearly in SSIM. Below Reel's
# lowest SSIM, Reel's smallest file stands in: it is better than the target, so the ratio is an upper
# bound (marked ≤). Prints the table and the range of the ratios.
rd_table() {
  python3 - "$work/rd.tsv" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
clips = list(dict.fromkeys(r[0] for r in rows))
print("| clip | gifsicle --lossy | its B | its SSIM | Reel levels (B, SSIM) around it | Reel B at that SSIM | Reel ÷ gifsicle |")
print("|---|---|---|---|---|---|---|")
ratios, worst = [], None
for clip in clips:
    reel = sorted((float(r[4]), int(r[3]), int(r[2])) for r in rows if r[0] == clip and r[1] == "reel")
    # The front: walking from the best SSIM down, keep a point only when it is smaller than every better one.
    front, smallest = [], None
    for s, b, l in reversed(reel):
        if smallest is None or b < smallest:
            front.append((s, b, l))
            smallest = b
    front.reverse()  # ascending SSIM, ascending bytes
    for r in rows:
        if r[0] != clip or r[1] != "gifsicle" or float(r[4]) < 0.97:
            continue
        level, gb, gs = int(r[2]), int(r[3]), float(r[4])
        bound = ""
        if gs <= front[0][0]:
            s, b, l = front[0]
            rb, around = b, f"{l}: {b}, {s:.6f}"
            bound = "≤ " if gs < s else ""
        elif gs >= front[-1][0]:
            s, b, l = front[-1]
            rb, around = None, f"{l}: {b}, {s:.6f} (Reel's best is worse)"
        else:
            k = next(i for i in range(1, len(front)) if front[i][0] >= gs)
            (s0, b0, l0), (s1, b1, l1) = front[k - 1], front[k]
            rb = b0 + (gs - s0) / (s1 - s0) * (b1 - b0)
            around = f"{l0}: {b0}, {s0:.6f} / {l1}: {b1}, {s1:.6f}"
        if rb is None:
            print(f"| {clip} | {level} | {gb} | {gs:.6f} | {around} | — | — |")
            continue
        q = rb / gb
        ratios.append(q)
        print(f"| {clip} | {level} | {gb} | {gs:.6f} | {around} | {bound}{rb:.0f} | {bound}{q:.2f}× |")
if ratios:
    met = sum(q <= 0.85 for q in ratios)
    print(f"\nReel ÷ gifsicle at equal SSIM (points >= 0.97): {min(ratios):.2f}–{max(ratios):.2f}×; <= 0.85 at {met} of {len(ratios)} points.")
PY
}

echo "Machine: $(bench_machine); $(ffmpeg -version | head -1 | cut -d' ' -f1-3); $(gifsicle --version | head -1 | sed 's/^LCDF //')"
echo "Reel $(bench_commit); docs-gif: $("$reel" presets 2>/dev/null | grep -m1 '^docs-gif' | sed 's/  */ /g')"
echo
if [ "$main" = 1 ]; then
  echo "| clip | frames | Reel lossless B | SSIM | s | Reel docs-gif B | SSIM | s | ffmpeg B | SSIM | s | + gifsicle -O3 B | + gifsicle -O3 --lossy=30 B | SSIM | lossless ÷ O3 | docs-gif ÷ O3 | Reel ÷ ffmpeg s |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
fi
scenes="star-button swift-star spring-button search-back gradient-switch favorite-star docs-ui"
[ "$quick" = 1 ] && scenes="star-button gradient-switch docs-ui"
[ -n "$clips" ] && scenes="$clips"
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
  t=$(now)
  ffmpeg -nostdin -v error -framerate "$fps" -i "$d/frames/frame_%05d.png" -vf "palettegen=stats_mode=diff" -y "$d/pal.png"
  ffmpeg -nostdin -v error -framerate "$fps" -i "$d/frames/frame_%05d.png" -i "$d/pal.png" \
    -lavfi "paletteuse=diff_mode=rectangle" -y "$d/ffmpeg.gif"
  fs=$(since "$t")
  if [ "$main" = 1 ]; then
    t=$(now); "$reel" render "$scene" -o "$d/lossless.gif" --preset docs-gif --gif-lossy 0 --scale "$scale" --quiet </dev/null; ls_=$(since "$t")
    t=$(now); "$reel" render "$scene" -o "$d/docs.gif" --preset docs-gif --scale "$scale" --quiet </dev/null; ds=$(since "$t")
    gifsicle -O3 "$d/ffmpeg.gif" -o "$d/o3.gif"
    gifsicle -O3 --lossy=30 "$d/ffmpeg.gif" -o "$d/lossy30.gif"
    lb=$(bytes "$d/lossless.gif") db=$(bytes "$d/docs.gif") fb=$(bytes "$d/ffmpeg.gif") ob=$(bytes "$d/o3.gif") yb=$(bytes "$d/lossy30.gif")
    lq=$(ssim "$d/lossless.gif" "$d/frames" "$fps") dq=$(ssim "$d/docs.gif" "$d/frames" "$fps")
    fq=$(ssim "$d/ffmpeg.gif" "$d/frames" "$fps") yq=$(ssim "$d/lossy30.gif" "$d/frames" "$fps")
    echo "| $name | $n | $lb | $lq | $ls_ | $db | $dq | $ds | $fb | $fq | $fs | $ob | $yb | $yq | $(ratio "$lb" "$ob")× | $(ratio "$db" "$ob")× | $(ratio "$ds" "$fs")× |"
    printf '%s\t' "$name" "$n" "$lb" "$lq" "$ls_" "$db" "$dq" "$ds" "$fb" "$fq" "$fs" "$ob" "$yb" >>"$work/rows.tsv"
    printf '%s\n' "$yq" >>"$work/rows.tsv"
  fi
  [ "$rd" = 1 ] && rd_clip "$name" "$scene" "$scale" "$fps" "$d"
  rm -rf "$d"
done

if [ "$rd" = 1 ]; then
  echo
  echo "Rate-distortion: Reel --preset docs-gif --gif-lossy L (L = ${rd_reel_levels// /, }) against gifsicle -O3 --lossy=N"
  echo "(N = ${rd_gifsicle_levels// /, }) on the palettegen GIF; gifsicle's points at SSIM >= 0.97."
  echo
  rd_table
fi

if [ -n "$json" ]; then
  python3 - "$work/rows.tsv" "$work/rd.tsv" "$json" <<'PY'
import json, os, sys
rows, rd, out = sys.argv[1:]
keys = ["frames", "reel_lossless_bytes", "reel_lossless_ssim", "reel_lossless_seconds", "reel_docs_bytes",
        "reel_docs_ssim", "reel_docs_seconds", "ffmpeg_bytes", "ffmpeg_ssim", "ffmpeg_seconds", "gifsicle_o3_bytes",
        "gifsicle_lossy30_bytes", "gifsicle_lossy30_ssim"]
clips = {}
if os.path.exists(rows):
    for line in open(rows):
        name, *vals = line.rstrip("\n").split("\t")
        clips[name] = {k: float(v) if "." in v else int(v) for k, v in zip(keys, vals)}
if os.path.exists(rd):
    for line in open(rd):
        name, coder, level, b, s = line.rstrip("\n").split("\t")
        clips.setdefault(name, {}).setdefault("rd", []).append(
            {"coder": coder, "level": int(level), "bytes": int(b), "ssim": float(s)})
json.dump({"clips": clips}, open(out, "w"), indent=1)
PY
fi
