#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/env.sh
swift format lint --strict --recursive Sources Tests examples/swift Plugins Package.swift
# The build stays warning-free: a warning from any file compiled here fails the run (a fresh clone,
# as CI has, compiles every file).
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
swift build --build-tests 2>&1 | tee "$log"
if grep -q "warning:" "$log"; then
  echo "test: the build printed warnings; it must build without any:" >&2
  grep "warning:" "$log" >&2
  exit 1
fi
swift test --skip-build "$@"
