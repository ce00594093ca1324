#!/usr/bin/env bash
# Builds reel for release with Swift's runtime linked in, so that it runs without a Swift toolchain, and
# writes into dist/ (or --out DIR):
#   reel-VERSION-linux-ARCH.tar.gz  bin/reel, its crash reporter, man pages, completions, licences, README
#   reel_VERSION_ARCH.deb           the same files in their Debian places; Depends computed by dpkg-shlibdeps
# VERSION is ReelVersion.string in Sources/Reel/Version.swift, the one place it is written. The archives'
# bytes depend only on the commit (file times are the commit's time), not on when they were made.
set -euo pipefail
cd "$(dirname "$0")/.."

version="$(sed -n 's/^public enum ReelVersion { public static let string = "\([^"]*\)" }$/\1/p' Sources/Reel/Version.swift)"
[ -n "$version" ] || { echo "package: no version found in Sources/Reel/Version.swift" >&2; exit 1; }

out=dist
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?package: --out needs a folder}"; shift 2 ;;
    --print-version) echo "$version"; exit 0 ;;  # what the names will say (a test compares it with reel's)
    -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package: unknown option $1 (options: --out DIR, --print-version)" >&2; exit 2 ;;
  esac
done

scripts/setup.sh --packaging
. scripts/env.sh
machine="$(uname -m)"                     # the tarball's name: x86_64, aarch64
arch="$(dpkg --print-architecture)"       # the .deb's: amd64, arm64
if git rev-parse --git-dir >/dev/null 2>&1; then
  export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}"
  git diff --quiet HEAD -- || echo "package: warning: the tree has uncommitted changes; reel --version will say so" >&2
else
  export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(stat -c %Y Sources/Reel/Version.swift)}"
fi

# Release build. FoundationNetworking, which the preview server's package imports, needs libcurl when
# Foundation is linked statically (libcurl4-openssl-dev, from setup.sh).
scratch=.build-package
echo "package: building reel $version (release, Swift runtime linked statically)"
# -z now: every symbol bound at start, so the relocations can be made read-only (Debian's hardening).
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product reel -Xlinker -z -Xlinker now
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product generate-manual -Xlinker -z -Xlinker now
bin="$(swift build -c release --scratch-path "$scratch" --show-bin-path)"
backtracer=""
candidate="$(dirname "$(realpath "$(command -v swift)")")/../libexec/swift/linux/swift-backtrace-static"
[ -x "$candidate" ] && backtracer="$candidate"
[ -n "$backtracer" ] || { echo "package: $candidate not found (the Swift toolchain's static crash reporter)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# What both archives hold, laid out as a prefix (bin/, libexec/, share/).
stage="$work/reel-$version-linux-$machine"
mkdir -p "$stage/bin" "$stage/libexec/swift/linux" "$stage/share/man/man1" \
  "$stage/share/bash-completion/completions" "$stage/share/zsh/site-functions" "$stage/share/fish/vendor_completions.d"
# Debug info out (it is three quarters of the file); the symbol table stays, so that a crash report
# names functions.
strip --strip-debug -o "$stage/bin/reel" "$bin/reel"
# Swift's crash reporter, linked statically too. The runtime looks for it at
# <the executable's folder>/../libexec/swift/linux/swift-backtrace and otherwise prints a warning
# at every start.
strip --strip-debug -o "$stage/libexec/swift/linux/swift-backtrace" "$backtracer"
# SwiftPM links with RUNPATH $ORIGIN, for Swift's libraries beside a dynamic build; this one has none.
patchelf --remove-rpath "$stage/bin/reel" "$stage/libexec/swift/linux/swift-backtrace"
chmod 755 "$stage/bin/reel" "$stage/libexec/swift/linux/swift-backtrace"

# One man page for reel and one for each subcommand (reel-render(1)…), from the same help text as --help.
# An empty line is not valid mdoc (groff warns at each); a paragraph break is `.Pp`.
"$bin/generate-manual" "$stage/bin/reel" --multi-page --section 1 \
  --date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)" --output-directory "$stage/share/man/man1"
# Pages named as git's are (reel-render(1)), with a NAME that names the page, which whatis and apropos
# need; the synopsis still reads "reel render".
man1="$stage/share/man/man1"
sed -i 's/^$/.Pp/; s/^\.Xr reel\.\([a-z-]*\) 1/.Xr reel-\1 1/' "$man1/"*.1
for page in "$man1"/reel.*.1; do
  sub="${page##*/reel.}"
  sub="${sub%.1}"
  sed -e "s/^\.Dt REEL\.[A-Z-]* 1\$/.Dt REEL-${sub^^} 1/" -e "s/^\.Nm \"reel $sub\"\$/.Nm reel-$sub/" \
    -e "s/^\.Nm\$/.Nm reel\\n.Cm $sub/" "$page" >"$man1/reel-$sub.1"
  rm "$page"
done
# bash sources its completions: a #! line there means nothing (lintian warns).
"$stage/bin/reel" --generate-completion-script bash | sed '1{/^#!/d}' >"$stage/share/bash-completion/completions/reel"
"$stage/bin/reel" --generate-completion-script zsh >"$stage/share/zsh/site-functions/_reel"
"$stage/bin/reel" --generate-completion-script fish >"$stage/share/fish/vendor_completions.d/reel.fish"

# The cluster recipes (docs/distributed.md), at share/reel/scripts/distributed/ as in the repository, so
# that they find each other and the examples the same way; the examples without the Swift one (source).
mkdir -p "$stage/share/reel/scripts"
cp -a scripts/distributed "$stage/share/reel/scripts/"
cp -a examples "$stage/share/reel/"
rm -rf "$stage/share/reel/examples/swift"

# Licences: Reel's, and those of the Swift packages linked into the binary (their licences ask that a
# copy travel with it), read from the checkouts this build used.
cp LICENSE "$stage/LICENSE"
{
  echo "Reel links these packages into its binary; each one's licence follows its name."
  for dir in "$scratch"/checkouts/*/; do
    name="$(basename "$dir")"
    for f in "$dir"LICENSE* "$dir"COPYING* "$dir"NOTICE*; do
      [ -f "$f" ] || continue
      printf '\n==> %s: %s <==\n\n' "$name" "$(basename "$f")"
      cat "$f"
    done
  done
  printf '\n==> Yams: libyaml, compiled into it <==\n\n'
  echo "libyaml is under the MIT licence (the text above, as Yams's): Copyright (c) 2006-2016 Kirill Simonov,"
  echo "Copyright (c) 2017-2020 Ingy dot Net. https://github.com/yaml/libyaml"
  printf '\n==> Swift standard library, Foundation and the crash reporter (swift-backtrace) <==\n\n'
  echo "Apache License v2.0 with Runtime Library Exception: https://swift.org/LICENSE.txt"
  echo "The Runtime Library Exception waives the attribution requirements for these, as linked here."
} >"$stage/THIRD-PARTY-LICENSES"

# The .deb: /usr/bin/reel starts /usr/lib/reel/bin/reel, which keeps the crash reporter beside it at
# /usr/lib/reel/libexec/swift/linux/ (the runtime does not follow a symbolic link to find it, and
# /usr/libexec/swift/ belongs to Swift toolchains).
root="$work/deb"
mkdir -p "$work/debian"  # dpkg-shlibdeps reads the source package's control file
printf 'Source: reel\n\nPackage: reel\nArchitecture: any\n' >"$work/debian/control"
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/lib/reel/bin" "$root/usr/lib/reel/libexec/swift/linux" \
  "$root/usr/share/man/man1" "$root/usr/share/doc/reel" "$root/usr/share/lintian/overrides"
cp -a "$stage/bin/reel" "$root/usr/lib/reel/bin/reel"
cp -a "$stage/libexec/swift/linux/swift-backtrace" "$root/usr/lib/reel/libexec/swift/linux/"
printf '#!/bin/sh\nexec /usr/lib/reel/bin/reel "$@"\n' >"$root/usr/bin/reel"
chmod 755 "$root/usr/bin/reel"
# The run-time dependencies, read off the binaries where the .deb puts them (not typed by hand), for
# the .deb and the tarball's README.
shlibs="$(cd "$work" && dpkg-shlibdeps -O "$root/usr/lib/reel/bin/reel" \
  "$root/usr/lib/reel/libexec/swift/linux/swift-backtrace" | sed -n 's/^shlibs:Depends=//p')"
[ -n "$shlibs" ] || { echo "package: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# Inter is the font of text layers and captions that name none: without it such a scene is refused.
# The others are fallbacks (scripts Inter lacks, emoji, DejaVu for Lottie text): recommended.
fonts_depends="fonts-inter"
fonts_recommends="fonts-noto-core, fonts-noto-color-emoji, fonts-dejavu-core"
runtime_packages="$(echo "$shlibs, $fonts_depends" | sed 's/ ([^)]*)//g; s/ | [^,]*//g; s/,/ /g' | tr -s ' ')"

commit="$("$stage/bin/reel" --version | sed -n 's/^commit //p')"
sonames="$(readelf -d "$stage/bin/reel" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v -e '^libc\.' -e '^libm\.' -e '^ld-' -e '^libgcc_s' | paste -sd, - | sed 's/,/, /g')"
cat >"$stage/README" <<EOF
Reel $version for Linux ($machine), built from commit $commit.
Reel renders Core Animation-style scenes, SVG and Lottie files to MP4, GIF, WebM, ProRes, APNG, WebP
and PNG frames, on the CPU.

Install, into /usr/local (or any prefix: ~/.local, /opt/reel):
  sudo tar -xzf reel-$version-linux-$machine.tar.gz --strip-components=1 -C /usr/local
It needs these Debian 12 packages:
  sudo apt-get install $runtime_packages
Elsewhere it needs the same library versions (the sonames it was linked with): $sonames.
and, for text in other scripts and emoji: $fonts_recommends.

Then: reel --help, man reel, reel render scene.yaml -o clip.mp4. Completions for bash, zsh and fish
are in share/; the crash reporter in libexec/ must stay at that place beside bin/.
Documentation: docs/ in Reel's source repository. Licences: LICENSE and THIRD-PARTY-LICENSES.
EOF

mkdir -p "$out"
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
tarball="$out/reel-$version-linux-$machine.tar.gz"
# Both archives are written in $work and moved into $out when whole: an interrupted run leaves the
# previous files or none, never a truncated one.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
  -C "$work" -cf - "$(basename "$stage")" | gzip -9n >"$work/tarball"

for page in "$stage/share/man/man1/"*.1; do gzip -9n <"$page" >"$root/usr/share/man/man1/$(basename "$page").gz"; done
cp -a "$stage/share/bash-completion" "$stage/share/zsh" "$stage/share/fish" "$stage/share/reel" "$root/usr/share/"
mv "$root/usr/share/zsh/site-functions" "$root/usr/share/zsh/vendor-completions"
# Debian's copyright file (machine-readable): Reel's MIT licence in full, and for the binary each linked
# package with the licence it is under; Apache's text is referred to in common-licenses, as policy asks.
{
  printf 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: reel\n\n'
  printf 'Files: *\nCopyright: 2026 the Reel authors\nLicense: MIT\n\n'
  printf 'Files: usr/lib/reel/bin/reel\nCopyright: 2026 the Reel authors\n'
  for dir in "$scratch"/checkouts/*/; do
    for f in "$dir"LICENSE*; do
      holder="$({ grep -m1 -i '^ *copyright (c)\|^ *copyright [0-9]' "$f" || true; } | sed 's/^ *[Cc]opyright *([Cc]) *//; s/^ *[Cc]opyright *//')"
      printf ' %s\n' "${holder:-the authors of $(basename "$dir")}"
    done
  done
  printf ' 2006-2016 Kirill Simonov, 2017-2020 Ingy döt Net (libyaml, in Yams)\n'
  printf 'License: MIT and Apache-2.0\nComment: The binary links these Swift packages:\n'
  for dir in "$scratch"/checkouts/*/; do
    for f in "$dir"LICENSE*; do
      if grep -q 'Apache License' "$f"; then kind=Apache-2.0; else kind=MIT; fi
      printf ' %s: %s.\n' "$(basename "$dir")" "$kind"
    done
  done
  printf ' libyaml (compiled into Yams): MIT.\n Swift runtime and Foundation: Apache-2.0 with the Runtime Library Exception.\n'
  for dir in "$scratch"/checkouts/*/; do
    for f in "$dir"NOTICE*; do
      [ -f "$f" ] || continue
      printf ' .\n %s (its NOTICE, which the Apache licence asks to be passed on):\n' "$(basename "$dir")"
      sed 's/^[[:space:]]*$/./; s/^/ /' "$f"
    done
  done
  printf '\nLicense: MIT\n'
  sed -n '3,$p' LICENSE | sed 's/^[[:space:]]*$/./; s/^/ /'
  printf '\nLicense: Apache-2.0\n On Debian systems the full text of the Apache License, Version 2.0, is in\n'
  printf ' /usr/share/common-licenses/Apache-2.0.\n'
} >"$root/usr/share/doc/reel/copyright"
printf 'reel (%s) unstable; urgency=medium\n\n  * Release %s, from commit %s.\n\n -- %s  %s\n' \
  "$version" "$version" "$commit" "${REEL_MAINTAINER:-Reel developers <reel@packages.invalid>}" \
  "$(date -u -R -d "@$SOURCE_DATE_EPOCH")" | gzip -9n >"$root/usr/share/doc/reel/changelog.gz"
# Why each lintian tag that remains is expected (lintian reads this file from the installed package).
cat >"$root/usr/share/lintian/overrides/reel" <<'EOF'
# The symbol table is kept on purpose: Swift's crash reporter names functions from it.
reel: unstripped-binary-or-object [usr/lib/reel/bin/reel]
reel: unstripped-binary-or-object [usr/lib/reel/libexec/swift/linux/swift-backtrace]
# Yams, the YAML package the scene reader uses, compiles its own copy of libyaml into the binary.
reel: embedded-library libyaml [usr/lib/reel/bin/reel]
EOF
size_kib="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
cat >"$root/DEBIAN/control" <<EOF
Package: reel
Version: $version
Architecture: $arch
Maintainer: ${REEL_MAINTAINER:-Reel developers <reel@packages.invalid>}
Installed-Size: $size_kib
Depends: $shlibs, $fonts_depends
Recommends: $fonts_recommends
Section: video
Priority: optional
Description: render animated scenes to MP4 and GIF on the CPU
 Reel renders Core Animation-style layer trees (shapes, gradients, text, images,
 SVG, Lottie, video with sound and captions) with Core Animation's timing, from
 YAML or JSON scenes, to MP4, GIF, WebM, ProRes, APNG, WebP and PNG frames.
 Output is byte-identical across runs, threads and machines of one version;
 batches render many clips from a manifest or a CSV table, and one clip can be
 split over a cluster and joined without re-encoding.
EOF
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
deb="$out/reel_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$work/deb.deb" >/dev/null
mv "$work/tarball" "$tarball"
mv "$work/deb.deb" "$deb"

echo "package: wrote $tarball ($(du -h "$tarball" | cut -f1)) and $deb ($(du -h "$deb" | cut -f1))"
