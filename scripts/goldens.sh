#!/usr/bin/env bash
# Regenerates the golden images with Skia (skia-python, pinned), in its own virtual environment
# (.venv-goldens, git-ignored): the rasterizer's corpus (goldens.py: PNGs and corpus.json in
# Tests/ReelRasterTests/Goldens) and the scene-level goldens (scene-goldens.py: scene files and PNGs in
# Tests/ReelRenderTests/Goldens). What they write is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv-goldens/bin/python ]; then
  python3 -m venv .venv-goldens
  .venv-goldens/bin/pip install --quiet "skia-python==144.1" "numpy>=1.24"
fi
.venv-goldens/bin/python scripts/goldens.py
.venv-goldens/bin/python scripts/scene-goldens.py
