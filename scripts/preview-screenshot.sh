#!/usr/bin/env bash
# The README's picture of reel preview (docs/media/preview.png): taken by the test that checks the page's
# frame against reel still's (PreviewPageTests.aScreenshotShowsReelsFrame), in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/env.sh
swift build --build-tests
REEL_PREVIEW_SCREENSHOT="$PWD/docs/media/preview.png" swift test --skip-build --filter 'PreviewPageTests/aScreenshotShowsReelsFrame'
ls -l docs/media/preview.png
