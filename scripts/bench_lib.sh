# Sourced by scripts/bench*.sh: installs what a benchmark compares with, builds Reel, and stops with
# the reason when a peer cannot be had. A peer is never dropped silently: either it is installed and
# measured, or the caller was told to go without it (--skip-PEER) and the table says so.
#
# Everything installed goes into the system (Debian packages, as root) or into git-ignored folders of
# the repository: .venv-manim (Manim Community), .venv-bench (the raster peers) and the release build
# in ${REEL_BENCH_SCRATCH:-.build-bench} (apart from the .build that `swift build` and the tests use).

# shellcheck shell=bash

# Pinned, so that a run next year measures the same peers.
BENCH_MANIM="manim==0.22.0"
BENCH_SKIA="skia-python==144.1"
BENCH_THORVG="thorvg-python==1.1.3"
BENCH_BLEND2D="blend2d-python==1.0.0"
BENCH_NUMPY="numpy>=1.24"

bench_die() {
  echo "bench: $*" >&2
  exit 1
}

# bench_cannot PEER WHY: stops the run because PEER cannot be installed.
bench_cannot() {
  bench_die "cannot install $1: $2. Fix that, or run again with --skip-$1 to leave $1 out (its table will say so)."
}

# bench_apt PKG...: installs whichever of the Debian packages PKG are missing; fails (status 1, with a
# message) when that cannot be done.
bench_apt() {
  local need=() p sudo=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
  done
  [ ${#need[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo)
    else
      echo "bench: not root; run first: sudo apt-get install -y ${need[*]}" >&2
      return 1
    fi
  fi
  echo "bench: installing ${need[*]} (Debian)" >&2
  # The package lists of a fresh machine may be missing or stale: update once per run.
  if [ -z "${BENCH_APT_UPDATED:-}" ]; then
    "${sudo[@]}" apt-get update -qq >&2 || { echo "bench: apt-get update failed" >&2; return 1; }
    export BENCH_APT_UPDATED=1
  fi
  if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; then
    echo "bench: apt-get install ${need[*]} failed" >&2
    return 1
  fi
}

# bench_venv DIR [--system-site-packages]: makes DIR a working virtual environment of Debian's
# python3, repairing what an earlier run or another machine left: a symbolic link (dangling or not),
# a folder without a working python or pip (an interrupted `python3 -m venv`), or one made from
# another interpreter or with other site-packages settings is removed and made again.
bench_venv() {
  local dir="$1" system="false"
  [ "${2:-}" = "--system-site-packages" ] && system="true"
  if [ -L "$dir" ]; then
    echo "bench: $dir is a symbolic link (to $(readlink "$dir")); making a folder of its own" >&2
    rm -f "$dir"
  fi
  if [ -e "$dir" ]; then
    local ok=1
    "$dir/bin/python" -c 'import sys; assert sys.base_prefix == "/usr", sys.base_prefix' >/dev/null 2>&1 || ok=0
    "$dir/bin/python" -m pip --version >/dev/null 2>&1 || ok=0
    grep -qx "include-system-site-packages = $system" "$dir/pyvenv.cfg" 2>/dev/null || ok=0
    if [ "$ok" = 0 ]; then
      echo "bench: $dir is not a working virtual environment of /usr/bin/python3 (system site packages: $system); making it again" >&2
      rm -rf "$dir"
    fi
  fi
  if [ ! -e "$dir" ]; then
    local flags=()
    [ "$system" = true ] && flags=(--system-site-packages)
    if ! /usr/bin/python3 -m venv "${flags[@]}" "$dir" >&2; then
      rm -rf "$dir"
      echo "bench: /usr/bin/python3 -m venv $dir failed" >&2
      return 1
    fi
  fi
}

# bench_pip DIR CHECK SPEC...: unless the Python code CHECK already runs in DIR, pip-installs SPEC
# there and runs CHECK again; fails (with pip's or CHECK's message) when it still does not run.
bench_pip() {
  local dir="$1" check="$2"
  shift 2
  "$dir/bin/python" -c "$check" >/dev/null 2>&1 && return 0
  echo "bench: installing $* into $dir (PyPI)" >&2
  "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$@" >&2 || return 1
  "$dir/bin/python" -c "$check" >&2
}

# bench_check_version DIST VERSION: Python code that imports nothing but checks DIST's version.
bench_version_check() {
  echo "import importlib.metadata as m; assert m.version('$1') == '$2', m.version('$1')"
}

# The peers, one function each; each returns non-zero with a message when it cannot be installed.

bench_install_manim() {
  # pycairo and ManimPango build against these; Manim encodes through PyAV and probes with ffmpeg.
  bench_apt python3-venv python3-dev build-essential pkg-config libcairo2-dev libpango1.0-dev ffmpeg || return 1
  bench_venv .venv-manim || return 1
  bench_pip .venv-manim "$(bench_version_check manim 0.22.0); import manim" "$BENCH_MANIM"
}

bench_install_cairo() {
  # Debian's pycairo (Cairo 1.16), seen from .venv-bench through its system site packages.
  bench_apt python3-cairo python3-venv || return 1
  bench_venv .venv-bench --system-site-packages || return 1
  .venv-bench/bin/python -c 'import cairo' >&2
}

bench_install_raster_peer() {  # skia | blend2d | thorvg
  local spec check
  case "$1" in
    skia) spec="$BENCH_SKIA" check="$(bench_version_check skia-python 144.1); import skia" ;;
    blend2d) spec="$BENCH_BLEND2D" check="$(bench_version_check blend2d-python 1.0.0); import blend2d" ;;
    thorvg) spec="$BENCH_THORVG" check="$(bench_version_check thorvg-python 1.1.3); import thorvg_python" ;;
    *) return 2 ;;
  esac
  bench_apt python3-venv || return 1
  bench_venv .venv-bench --system-site-packages || return 1
  bench_pip .venv-bench "import numpy" "$BENCH_NUMPY" || return 1
  bench_pip .venv-bench "$check" "$spec"
}

bench_install_tool() {  # a Debian package whose command has the same name: pngquant | gifsicle
  bench_apt "$1" && command -v "$1" >/dev/null
}

# bench_build PRODUCT: builds Reel's PRODUCT (release) and prints the binary's path.
bench_build() {
  local scratch="${REEL_BENCH_SCRATCH:-.build-bench}" log
  log="$(mktemp)"
  if ! swift build -c release --scratch-path "$scratch" --product "$1" >"$log" 2>&1; then
    tail -40 "$log" >&2
    rm -f "$log"
    bench_die "swift build -c release --scratch-path $scratch --product $1 failed"
  fi
  rm -f "$log"
  echo "$(swift build -c release --scratch-path "$scratch" --show-bin-path)/$1"
}

# bench_machine: one line saying where the figures come from.
bench_machine() {
  local ram
  ram=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
  echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $ram RAM"
}

# bench_commit: the commit measured, marked -dirty when tracked files differ from it.
bench_commit() {
  local c
  c=$(git rev-parse HEAD 2>/dev/null) || { echo "unknown (not a git clone)"; return; }
  git diff --quiet HEAD -- 2>/dev/null || c="$c-dirty"
  echo "$c"
}
