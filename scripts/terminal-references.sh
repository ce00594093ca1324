#!/usr/bin/env bash
# Regenerates the independent references for Reel's terminal layers: a recording, the screens pyte (a
# terminal emulator that is not libvterm) shows at chosen times, and those screens drawn by Pillow, in
# their own virtual environment (.venv-terminal, git-ignored). The files it writes are committed.
# The fonts are the Debian packages fonts-dejavu-core and fonts-wqy-microhei (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv-terminal/bin/python ]; then
  python3 -m venv .venv-terminal
  .venv-terminal/bin/pip install --quiet "pyte==0.8.2" "Pillow==13.0.0" "fonttools==4.68.0" "numpy==2.4.6"
fi
.venv-terminal/bin/python scripts/terminal-references.py "$@"
