#!/usr/bin/env bash
# Regenerates the independent references for Reel's text tests: rendered text drawn by Pillow with its
# raqm layout engine, and shaping / bidi data from uharfbuzz and python-bidi (pinned), in its own
# virtual environment (.venv-text, git-ignored). The PNGs and JSON files it writes are committed.
# Pillow's raqm needs the system's FriBidi (libfribidi0, installed by scripts/setup.sh with
# libfribidi-dev); the fonts are the Debian packages fonts-dejavu-core, fonts-inter and fonts-noto-core.
# Extra arguments go to the Python script (--psnr measures how close 8x supersampling is to 16x/32x).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv-text/bin/python ]; then
  python3 -m venv .venv-text
  .venv-text/bin/pip install --quiet "Pillow==13.0.0" "uharfbuzz==0.57.0" "python-bidi==0.6.12" "numpy==2.4.6"
fi
.venv-text/bin/python scripts/text-references.py "$@"
