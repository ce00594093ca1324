#!/usr/bin/env bash
# Fuzzes Reel's decoders with libFuzzer: builds the targets of fuzz/ (with AddressSanitizer and
# libFuzzer's coverage instrumentation, applied to Reel's modules and its C dependencies too; no flag
# enters Package.swift) and runs one target,
# or each in turn, for SECONDS (default 600).
#
#   scripts/fuzz.sh TARGET [SECONDS]
#
#   json      a JSON scene file (SceneDecoder.decode(_:file:)), then sampled at a few times
#   yaml      a YAML scene file (SceneDecoder.decode(yaml:file:)), then sampled
#   path      SVG path data (Path(svgPathData:)), then flattened, measured, trimmed and stroked
#   preset    an output preset file (Preset.decode(yaml:file:name:))
#   manifest  a batch manifest, as YAML and as JSON (BatchManifest.decode)
#   text      text layout (Typesetter: bidi, fallback, shaping, wrapping, truncation) and glyph outlines
#   svg       an SVG file (SVGImport: XML, styles, shapes, use) imported into layers
#   lottie    a Lottie file (LottieImport: layers, shapes, masks, mattes, keyframes) imported and sampled
#   terminal  a terminal recording (asciicast v2/v3) read, then played through libvterm to two times; and
#             the same bytes parsed as a reel record tape
#   dotlottie a dotLottie archive (zip: entry names, manifest, animation, pictures, within small
#             limits) or a Telegram sticker (gzip), its animation imported and sampled
#   all       each of them, SECONDS each
#
# Seeds come from examples/ and presets/ (and fuzz/seeds/); the corpus grows in fuzz/work/corpus/TARGET
# and is kept between runs. Crashes, timeouts and out-of-memory inputs go to fuzz/work/crashes/TARGET,
# each with a .txt holding its reproduction's report. A run does not stop at the first one (libFuzzer's
# fork mode); FUZZ_FORK=0 makes it stop there. Extra arguments for libFuzzer: FUZZ_ARGS="-jobs=…";
# FUZZ_NO_BUILD=1 runs the binaries already built; FUZZ_REV=REV builds a commit's sources instead of
# the working tree's.
# Reproduce one input: .build-fuzz/release/FuzzSceneYAML fuzz/crashers-found/NAME
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091 # (puts the toolchain on PATH)
. scripts/env.sh

targets=(json yaml path preset manifest text svg lottie subtitles rows gif terminal dotlottie)
target=${1:-}
seconds=${2:-600}
if [[ -z $target || ! " ${targets[*]} all " =~ \ $target\  ]]; then
  echo "usage: scripts/fuzz.sh {${targets[*]// /|}|all} [SECONDS]" >&2
  exit 2
fi

product() {
  case $1 in
    json) echo FuzzSceneJSON ;;
    yaml) echo FuzzSceneYAML ;;
    path) echo FuzzSVGPath ;;
    preset) echo FuzzPreset ;;
    manifest) echo FuzzManifest ;;
    text) echo FuzzText ;;
    svg) echo FuzzSVG ;;
    lottie) echo FuzzLottie ;;
    subtitles) echo FuzzSubtitles ;;
    rows) echo FuzzRows ;;
    gif) echo FuzzGIF ;;
    terminal) echo FuzzTerminal ;;
    dotlottie) echo FuzzDotLottie ;;
  esac
}

# Leaks inside the toolchain (with their reasons in the file) are not Reel's: suppressed by name.
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
scratch=.build-fuzz
work=fuzz/work
# The fuzz package pins what the main package pins (only the main one's pins are reviewed).
[[ -f fuzz/Package.resolved ]] || cp Package.resolved fuzz/Package.resolved 2>/dev/null || true
# --sanitize=fuzzer: SwiftPM then leaves `main` to libFuzzer. The sanitizers again as one -sanitize=
# list, which comes last and wins: given as two flags (what `--sanitize=fuzzer --sanitize=address`
# passes), swiftc keeps only the last one, and the Swift code is left without coverage or without
# ASan. C (libyaml) gets ASan through -Xcc. -enable-testing: the manifest target reaches the internal
# YAML reader (no file is read).
build=(swift build --package-path fuzz --scratch-path "$scratch" -c release
  --sanitize=fuzzer -Xswiftc "-sanitize=fuzzer,address" -Xcc -fsanitize=address -Xswiftc -enable-testing)
# FUZZ_REV=REV fuzzes that commit's sources (a copy in fuzz/work), not the working tree's, when the
# tree is being edited.
if [[ -n ${FUZZ_REV:-} ]]; then
  snapshot=$work/rev/main
  rm -rf "$snapshot"
  mkdir -p "$snapshot"
  git archive "$FUZZ_REV" Package.swift Sources Tests Plugins examples/swift | tar -x -C "$snapshot"
  cp Package.resolved "$snapshot"/ 2>/dev/null || true
  REEL_FUZZ_PACKAGE=$(cd "$snapshot" && pwd)
  export REEL_FUZZ_PACKAGE
  echo "fuzzing $(git rev-parse --short "$FUZZ_REV")'s sources"
fi
# SwiftPM does not notice files added to a path dependency's targets once it has planned a build;
# without its plan it makes a new one (the objects are kept, so nothing is recompiled needlessly).
rm -f "$scratch/release.yaml"
if [[ ${FUZZ_NO_BUILD:-0} == 1 ]]; then
  : # the binaries of an earlier build (while someone edits the sources, say)
elif [[ $target == all ]]; then
  "${build[@]}"
else
  "${build[@]}" --product "$(product "$target")"
fi

# Seeds: copied (never moved) from the repository, so a corpus can be deleted at any time.
seed() {
  local name=$1 dir=$work/corpus/$1 f
  mkdir -p "$dir"
  case $name in
    json)
      cp examples/*.json "$dir"/
      # The YAML scenes as JSON too, when PyYAML is at hand (`.inf` is written "infinity", as scenes do).
      python3 - "$dir" examples/*.yaml <<'PY' 2>/dev/null || true
import json, math, os, sys, yaml
def fix(v):
    if isinstance(v, float) and math.isinf(v): return "infinity"
    if isinstance(v, dict): return {str(k): fix(x) for k, x in v.items()}
    if isinstance(v, list): return [fix(x) for x in v]
    return v
for p in sys.argv[2:]:
    with open(os.path.join(sys.argv[1], os.path.basename(p) + ".json"), "w") as out:
        json.dump(fix(yaml.safe_load(open(p))), out, indent=1)
PY
      ;;
    yaml) cp examples/*.yaml examples/*.json examples/assets/*.yaml "$dir"/ ;;
    preset) cp presets/*.yaml "$dir"/ ;;
    manifest) cp examples/batch/*.yaml "$dir"/ ;;
    terminal) cp Tests/ReelEndToEndTests/TerminalReferences/session.cast examples/terminal.tape "$dir"/ ;;
    path)
      # Every path string of the examples, one a file, and the hand-written ones of every command.
      grep -ohE "[\"'][MmZz][ ,0-9.-][^\"']*[\"']" examples/*.yaml examples/*.json examples/assets/*.yaml |
        while IFS= read -r f; do
          f=${f:1:${#f}-2}
          printf '%s' "$f" >"$dir/example-$(printf '%s' "$f" | sha1sum | cut -c1-12)"
        done
      ;;
  esac
  if [[ -d fuzz/seeds/$name ]]; then cp fuzz/seeds/"$name"/* "$dir"/; fi
}

# A dictionary of the words the decoder knows (its string literals), so that mutations speak in keys.
dictionary() {
  local name=$1 out=$work/$1.dict sources
  case $name in
    json | yaml) sources=(Sources/ReelScene/*.swift Sources/ReelAnimation/*.swift) ;;
    preset) sources=(Sources/Reel/Preset.swift) ;;
    manifest) sources=(Sources/Reel/Manifest.swift Sources/Reel/Preset.swift) ;;
    path) cp fuzz/dicts/path.dict "$out" && echo "$out" && return ;;
    text) cp fuzz/dicts/text.dict "$out" && echo "$out" && return ;;
    terminal) cp fuzz/dicts/terminal.dict "$out" && echo "$out" && return ;;
    svg) sources=(Sources/ReelSVG/*.swift) ;;
    lottie | dotlottie) sources=(Sources/ReelLottie/*.swift) ;;
  esac
  grep -ohE '"[A-Za-z][A-Za-z0-9.-]*"' "${sources[@]}" | sort -u >"$out"
  if [[ $name != json ]]; then cat fuzz/dicts/yaml.dict >>"$out"; fi
  echo "$out"
}

run() {
  local name=$1 bin crashes dict log max_len
  bin=$scratch/release/$(product "$name")
  crashes=$work/crashes/$name
  log=$work/logs/$name-$(date +%Y%m%d-%H%M%S).log
  mkdir -p "$crashes" "$work/logs"
  seed "$name"
  dict=$(dictionary "$name")
  case $name in
    json | yaml | svg | lottie | terminal | dotlottie) max_len=16384 ;;
    *) max_len=4096 ;;
  esac
  local mode=()
  if [[ ${FUZZ_FORK:-1} != 0 ]]; then
    mode=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  echo "fuzzing $name for ${seconds}s: $bin, corpus $work/corpus/$name, log $log"
  # Artifacts of earlier runs stay in the folder (minimized ones are kept in fuzz/crashers-found/ as
  # tests); only those newer than this mark are this run's.
  local mark=$work/logs/.$name.start
  touch "$mark"
  # SWIFT_BACKTRACE: Swift's own crash reporter would take the trap first and symbolicate for a long
  # time; libFuzzer's handler reports it and saves the input. -rss_limit_mb also bounds single
  # allocations (libFuzzer's -malloc_limit_mb defaults to it). Leak detection stays on.
  local args=(-max_total_time="$seconds" -max_len="$max_len" -rss_limit_mb=2048 -timeout=10
    -dict="$dict" -artifact_prefix="$crashes/" -print_final_stats=1)
  # shellcheck disable=SC2086 # FUZZ_ARGS is a list of options
  SWIFT_BACKTRACE=enable=no "$bin" "${args[@]}" "${mode[@]}" ${FUZZ_ARGS:-} "$work/corpus/$name" >"$log" 2>&1 ||
    true
  grep -E '^#[0-9]+.*(DONE|cov:)' "$log" | tail -1 || true
  grep -E '^(stat::|INFO: exiting)' "$log" || true
  report "$name" "$bin" "$crashes" "$mark"
}

# Reproduces every artifact of this run once, keeping its report beside it, and lists them.
report() {
  local name=$1 bin=$2 crashes=$3 mark=$4 f found=0
  for f in "$crashes"/crash-* "$crashes"/timeout-* "$crashes"/oom-* "$crashes"/leak-* "$crashes"/slow-unit-*; do
    [[ -f $f && $f != *.txt && $f -nt $mark ]] || continue
    found=$((found + 1))
    if [[ ! -f $f.txt ]]; then
      SWIFT_BACKTRACE=enable=no timeout 120 "$bin" -rss_limit_mb=2048 -timeout=10 -runs=1 "$f" >"$f.txt" 2>&1 || true
    fi
  done
  if ((found > 0)); then
    echo "$name: $found new input(s) that crash, hang or exhaust memory in $crashes (each with a .txt report)"
  else
    echo "$name: nothing new found"
  fi
}

if [[ $target == all ]]; then
  for t in "${targets[@]}"; do run "$t"; done
else
  run "$target"
fi
