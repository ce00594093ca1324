#!/usr/bin/env bash
# Installs the Debian packages Reel needs to build, test and run its demo; with --packaging, also
# what scripts/package.sh, scripts/image.sh and scripts/test-packages.sh need.
# Idempotent: when every package is already installed, apt is not touched at all.
set -euo pipefail

packages=(
  pkg-config
  libavcodec-dev
  libavformat-dev
  libavutil-dev
  libswscale-dev
  libswresample-dev # sound: audio inputs resampled to the output rate and layout
  libharfbuzz-dev   # text: shaping and glyph outlines (ReelText)
  libfreetype-dev   # text: colour emoji strikes
  libfontconfig-dev # text: finding installed fonts by name, and fallback fonts
  libfribidi-dev    # text: the direction of each run in a paragraph mixing scripts
  libicu-dev        # text: Unicode line-break opportunities for wrapping
  zlib1g-dev        # gzip'd documents (.svgz): inflated by zlib (CGzip)
  fonts-dejavu-core # fonts the text tests and examples use
  fonts-inter
  fonts-noto-core
  fonts-noto-color-emoji
  fonts-wqy-microhei # CJK: the terminal tests' wide characters fall back to it
  libvterm-dev       # terminal layers: libvterm plays recordings (ReelTerminal)
  ffmpeg            # ffprobe, used by demo.sh to check the files it wrote
  webp              # webpmux and dwebp: the tests read animated WebP back (FFmpeg 5.1 cannot decode it)
  time              # /usr/bin/time: the hostile-input tests read each run's peak memory from it
  parallel          # GNU parallel: the test of scripts/distributed/gnu-parallel.sh runs it on this machine
  perl              # GNU parallel runs each task on an SSH host inside a small Perl program
  openssh-server    # sshd: the tests start one on 127.0.0.1 to run gnu-parallel.sh over a real SSH login
  openssh-client    # ssh and ssh-keygen, for that login
  slurm-wlm         # slurmctld, slurmd, sbatch: the tests start a one-node cluster for slurm-array.sbatch
  munge             # Slurm's authentication daemon, started by the same test
  python3-pil       # Pillow, python3-numpy and libgif7 (giflib-tools) decode Reel's GIFs in the tests
  python3-numpy
  python3-scipy     # the blur tests' reference: scipy.ndimage.gaussian_filter on the same unblurred frame
  giflib-tools
  chromium          # headless: the tests open Reel's GIFs in a browser page
)
if [ "${1:-}" = "--packaging" ]; then
  packages+=(
    libcurl4-openssl-dev # Foundation linked statically (package.sh) brings FoundationNetworking, which needs libcurl
    dpkg-dev             # dpkg-shlibdeps: the .deb's Depends, read off the binary
    lintian              # checks the .deb
    man-db               # man -l: the man pages are read back
    mmdebstrap           # a fresh Debian root to install the .deb into (test-packages.sh), and the image's base
    podman               # builds the image (image.sh)
    buildah              # runs commands in it where this machine refuses podman run
    uidmap
    patchelf             # drops the RUNPATH SwiftPM gives the binary (it has no libraries beside it)
  )
elif [ -n "${1:-}" ]; then
  echo "setup: unknown option $1 (the only option is --packaging)" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all system packages present"
else
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      SUDO=sudo
    else
      echo "setup: not root; run this first:" >&2
      echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
      exit 1
    fi
  else
    SUDO=
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: installed ${missing[*]}"
fi

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "setup: swift is at /opt/swift/usr/bin; add it to PATH (scripts do this themselves)"
  else
    echo "setup: no Swift toolchain found; install Swift 6.x and put it on PATH" >&2
    exit 1
  fi
fi
