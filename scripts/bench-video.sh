#!/usr/bin/env bash
# Demo-video benchmark (issue #20): a long screen recording with its sound, played by a video layer
# whose sound follows it, with a flash layer timed on the scene's clock, rendered whole to MP4 (H.264 +
# AAC). It reports the A/V offset at every minute (the recording beeps where the flash is due; the
# goal is within one AAC frame, 21.3 ms, however long the clip), Reel's peak memory against a one-minute
# render of the same scene (flat memory: ratio near 1), and Reel's time against the ffmpeg tool
# decoding and re-encoding the same recording at the same size and settings (the encoder's floor).
#
#   scripts/bench-video.sh [--minutes N]      (10 by default)
#
# Installs GNU time and ffmpeg, builds Reel (release) in ${REEL_BENCH_SCRATCH:-.build-bench}.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. scripts/bench_lib.sh

minutes=10
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes="${2:?--minutes needs a number}"; shift 2 ;;
    -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-video: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
case "$minutes" in '' | *[!0-9]* | 0) bench_die "--minutes takes a positive number, not '$minutes'" ;; esac

scripts/setup.sh >&2 || bench_die "scripts/setup.sh could not install Reel's build dependencies"
bench_apt time ffmpeg || bench_die "cannot install GNU time and ffmpeg"
reel=$(bench_build reel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seconds=$((minutes * 60))

echo "Machine: $(bench_machine); load average $(cut -d' ' -f1-3 /proc/loadavg); $(ffmpeg -version | head -1 | cut -d' ' -f1-3); $("$reel" --version | sed 's/^/Reel /')"
echo "Commit: $(bench_commit); $(date -u '+%Y-%m-%d %H:%M UTC'); scripts/bench-video.sh ${args[*]}"
echo

# The recording: 640×360 at 30 fps, a 50 ms 1 kHz beep at the start of every minute.
ffmpeg -loglevel error -y -f lavfi -i "testsrc2=size=640x360:rate=30:duration=$seconds" \
  -f lavfi -i "aevalsrc='0.5*sin(2*PI*1000*t)*lt(mod(t\,60)\,0.05)':s=48000:d=$seconds" \
  -c:v libx264 -preset ultrafast -g 300 -c:a aac -b:a 128k "$work/rec.mp4"

scene() {  # duration in seconds
  cat > "$work/scene-$1.yaml" <<YAML
width: 640
height: 360
fps: 30
duration: $1
background: "#000000"
layers:
  - {name: screen, type: video, contents: rec.mp4, anchorPoint: [0, 0], audio: true}
  # On the scene's clock: white for the first 0.1 s of every minute (a layer time of 60 s, repeated).
  - name: flash
    position: [320, 180]
    bounds: [640, 360]
    backgroundColor: "#ffffff"
    opacity: 0
    duration: 60
    repeatCount: $minutes
    animations:
      - {type: basic, keyPath: opacity, fromValue: 1, toValue: 1, duration: 0.1}
YAML
}
scene "$seconds"
scene 60

timed() {  # output file, command...: prints seconds and peak KiB
  local out=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null 2>&1 || bench_die "failed: $*"
  cat "$work/time"
}
read -r reel_s reel_kib < <(timed "$work/out.mp4" "$reel" render "$work/scene-$seconds.yaml" -o "$work/out.mp4" -q)
read -r short_s short_kib < <(timed "$work/short.mp4" "$reel" render "$work/scene-60.yaml" -o "$work/short.mp4" -q)
read -r ff_s ff_kib < <(timed "$work/ff.mp4" ffmpeg -loglevel error -y -i "$work/rec.mp4" -c:v libx264 -crf 18 -preset medium \
  -pix_fmt yuv420p -c:a aac -b:a 192k "$work/ff.mp4")

# Where each beep starts in the decoded sound, and which frame the flash is on.
ffmpeg -loglevel error -y -i "$work/out.mp4" -vn -ac 1 -ar 48000 -f f32le "$work/sound.f32"
ffmpeg -loglevel error -y -i "$work/out.mp4" -an -vf scale=16:9 -f rawvideo -pix_fmt gray "$work/frames.gray"
python3 - "$work" "$minutes" "$reel_s" "$reel_kib" "$short_kib" "$ff_s" <<'PY'
import array, sys
work, minutes = sys.argv[1], int(sys.argv[2])
reel_s, reel_kib, short_kib, ff_s = float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
sound = array.array("f"); sound.frombytes(open(f"{work}/sound.f32", "rb").read())
gray = open(f"{work}/frames.gray", "rb").read()
frames = len(gray) // 144
offsets = []
for m in range(minutes):
    lo = max(0, m * 60 - 1)
    beep = next((i for i in range(lo * 48000, min(len(sound), (m * 60 + 1) * 48000)) if abs(sound[i]) > 0.1), None)
    flash = next((f for f in range(lo * 30, min(frames, (m * 60 + 1) * 30)) if sum(gray[f * 144:(f + 1) * 144]) / 144 > 200), None)
    if beep is None or flash is None:
        print(f"minute {m}: beep {'found' if beep is not None else 'MISSING'}, flash {'found' if flash is not None else 'MISSING'}")
        sys.exit(1)
    offsets.append(beep / 48000 - flash / 30)
worst = max(abs(o) for o in offsets)
print(f"| what | figure |")
print(f"|---|---|")
print(f"| clip | {minutes} min, 640×360 at 30 fps, H.264 + AAC, {frames} frames |")
print(f"| A/V offset, beep − flash, per minute (ms) | {', '.join(f'{o * 1000:+.1f}' for o in offsets)} |")
print(f"| worst A/V offset | {worst * 1000:.1f} ms (goal ≤ 21.3 ms, one AAC frame): {'met' if worst <= 1024 / 48000 else 'NOT met'} |")
print(f"| peak memory, {minutes} min ÷ 1 min | {reel_kib / 1024:.0f} MiB ÷ {short_kib / 1024:.0f} MiB = {reel_kib / short_kib:.2f} |")
print(f"| time, Reel ÷ ffmpeg re-encoding the recording | {reel_s:.1f} s ÷ {ff_s:.1f} s = {reel_s / ff_s:.2f} |")
PY
