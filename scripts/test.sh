#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/env.sh
swift format lint --strict --recursive Sources Tests examples/swift Plugins Package.swift
swift build --build-tests
swift test --skip-build "$@"
