#!/usr/bin/env bash
# Regenerates the rasterizer's golden images with Skia (skia-python, pinned), in its own virtual
# environment (.venv-goldens, git-ignored). The PNGs and corpus.json it writes are committed.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv-goldens/bin/python ]; then
  python3 -m venv .venv-goldens
  .venv-goldens/bin/pip install --quiet "skia-python==144.1" "numpy>=1.24"
fi
.venv-goldens/bin/python scripts/goldens.py
