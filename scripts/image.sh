#!/usr/bin/env bash
# Builds the reel container image (Containerfile) with podman from the .deb in dist/, which
# scripts/package.sh writes (run first when it is missing), and tags it localhost/reel:VERSION.
#   scripts/image.sh                  FROM debian:bookworm-slim, pulled from Docker Hub
#   scripts/image.sh --base local     FROM a Debian 12 root made here with mmdebstrap from this machine's
#                                     apt sources (localhost/debian:bookworm-local): no registry needed
#   scripts/image.sh --base IMAGE     FROM any other Debian 12 image
# Then: podman run --rm -v "$PWD:/data" localhost/reel:VERSION render scene.yaml -o clip.mp4
set -euo pipefail
cd "$(dirname "$0")/.."

base=docker.io/library/debian:bookworm-slim
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base="${2:?image: --base needs an image name or local}"; shift 2 ;;
    -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "image: unknown option $1 (the only option is --base IMAGE|local)" >&2; exit 2 ;;
  esac
done

scripts/setup.sh --packaging
version="$(scripts/package.sh --print-version)"  # Sources/Reel/Version.swift, read in one place
deb="dist/reel_${version}_$(dpkg --print-architecture).deb"
[ -f "$deb" ] || scripts/package.sh

if [ "$base" = local ]; then
  base=localhost/debian:bookworm-local
  if ! podman image exists "$base"; then
    # What debian:bookworm-slim is: the Essential packages and apt, without manuals, documentation
    # (copyright files kept) or translations, /usr merged as Debian's images do it (the usrmerge
    # package would bring perl, 47 MB). The sources are this machine's own.
    sources=/etc/apt/sources.list.d/debian.sources
    [ -f "$sources" ] || sources=/etc/apt/sources.list
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    echo "image: making $base with mmdebstrap from $sources"
    mmdebstrap --quiet --variant=apt --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
      --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/info/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
      bookworm "$work/base.tar" "$sources"
    podman import --quiet "$work/base.tar" "$base" >/dev/null
  fi
fi

# chroot isolation: builds where podman cannot make namespaces (containers, CI runners) as well.
podman build --isolation chroot --quiet --build-arg BASE="$base" --build-arg DEB="$deb" --build-arg VERSION="$version" \
  -t "localhost/reel:$version" -f Containerfile . >/dev/null
size="$(podman image inspect "localhost/reel:$version" --format '{{.Size}}')"
echo "image: built localhost/reel:$version on $base ($((size / 1000000)) MB)"
