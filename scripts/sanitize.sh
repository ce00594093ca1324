#!/usr/bin/env bash
# Runs the whole test suite under sanitizers, each configuration in its own build folder:
#
#   scripts/sanitize.sh address [ARGS…]   AddressSanitizer (+ UndefinedBehaviorSanitizer for C) (.build-asan)
#   scripts/sanitize.sh thread [ARGS…]    ThreadSanitizer (.build-tsan)
#   scripts/sanitize.sh [all] [ARGS…]     both, one after the other
#
# ARGS go to `swift test` (e.g. --filter ReelSceneTests, or --skip for a test whose wall-clock bound
# a sanitizer's slowdown breaks). Every report, from the test runner and from each `reel` it spawns
# (they are built with the same sanitizer), is written to test-artifacts/sanitizers/MODE/; the script
# lists them at the end and fails when there is one or when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091 # (puts the toolchain on PATH)
. scripts/env.sh

mode=${1:-all}
if [[ $# -gt 0 ]]; then shift; fi
case $mode in
  address | thread | all) ;;
  *)
    echo "usage: scripts/sanitize.sh [address|thread|all] [swift test arguments…]" >&2
    exit 2
    ;;
esac

# One run: build the tests, run them with the reports sent to files, list the reports.
run() {
  local name=$1 scratch=$2
  shift 2
  local flags=()
  case $name in
    # UndefinedBehaviorSanitizer is for C only (swiftc refuses `-sanitize=undefined` on Linux, so
    # `--sanitize=undefined` fails the build): libyaml, BoringSSL, the FFmpeg shim. Swift traps on
    # overflow by itself. ASan's runtime carries UBSan's handlers.
    address) flags=(--sanitize=address -Xcc -fsanitize=undefined) ;;
    thread) flags=(--sanitize=thread) ;;
  esac
  local logs=test-artifacts/sanitizers/$name
  rm -rf "$logs"
  mkdir -p "$logs"
  logs=$(cd "$logs" && pwd)
  echo "== $name: building in $scratch"
  swift build --build-tests --scratch-path "$scratch" "${flags[@]}"

  # Suppressions, each with the reason it is not ours to fix.
  local lsan=$logs/lsan.supp tsan=$logs/tsan.supp
  cat >"$lsan" <<'SUPP'
# libx265 (Debian's 3.5) leaks one 1168-byte block per encoder it opens (x265_malloc, never freed by
# x265_encoder_close); LeakSanitizer then fails every HEVC render's exit status.
leak:libx265.so
# XCTest's runner keeps its suite objects until exit; `swift test` starts it even with no XCTest case.
leak:libXCTest.so
# swift-foundation 6.3 leaks the 4 KiB buffer it reads an empty file into (FileManager.contents(atPath:),
# String(contentsOfFile:)): a `reel` given an empty scene, the tests reading empty logs.
leak:readBytesFromFile
# swift-corelibs-foundation 6.3's Process.run forms a weak reference (32 bytes) it never releases: the
# test runner's own child processes, once per test that runs `reel`. (No `$`: it anchors a pattern.)
leak:Foundation7ProcessC3run
SUPP
  : >"$tsan"
  # log_path: reports go to files, one per process (NAME.PID), whoever prints what on stderr.
  # detect_leaks stays on. UBSan prints a stack and stops the process at the first report.
  local status=0
  echo "== $name: testing (reports in $logs)"
  # (ASan and UBSan share one runtime, hence one log_path.)
  ASAN_OPTIONS="log_path=$logs/report:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1" \
    UBSAN_OPTIONS="log_path=$logs/report:print_stacktrace=1:halt_on_error=1" \
    LSAN_OPTIONS="suppressions=$lsan" \
    TSAN_OPTIONS="log_path=$logs/report:suppressions=$tsan:second_deadlock_stack=1:history_size=4" \
    SWIFT_BACKTRACE=enable=no \
    swift test --skip-build --scratch-path "$scratch" "${flags[@]}" "$@" 2>&1 | tee "$logs/swift-test.log" ||
    status=$?

  # A process that only used suppressions writes a file too (the table of them): not a report.
  local reports=()
  for f in "$logs"/report.*; do
    if [[ -f $f ]] && grep -qE '^==[0-9]+==ERROR|^WARNING: ThreadSanitizer|runtime error' "$f"; then reports+=("$f"); fi
  done
  if ((${#reports[@]} > 0)); then
    echo "== $name: ${#reports[@]} report file(s):"
    for f in "${reports[@]}"; do
      echo "-- $f"
      grep -E '^(SUMMARY|WARNING: ThreadSanitizer|==[0-9]+==ERROR)|runtime error' "$f" | sort | uniq -c | head -20 || true
    done
    status=1
  else
    echo "== $name: no sanitizer report"
  fi
  return "$status"
}

overall=0
if [[ $mode == address || $mode == all ]]; then run address .build-asan "$@" || overall=1; fi
if [[ $mode == thread || $mode == all ]]; then run thread .build-tsan "$@" || overall=1; fi
exit "$overall"
