#!/usr/bin/env bash
# Tests the three ways to install Reel (issue #46), as a user would get them, on this machine:
#   1. the tarball's reel runs with an empty environment and no Swift toolchain on the library path;
#   2. the .deb is lintian-clean and installs with apt-get into a fresh Debian 12 root (mmdebstrap, from
#      this machine's apt sources), where reel, man reel and the bash completion work;
#   3. the image builds (podman, on a base made the same way) and renders as user reel in /data; the
#      Kubernetes recipe's pod commands and the docs-GIF workflow's batch run in it.
# Every clip rendered by an installed reel must be byte-identical to the development build's
# (.build/debug/reel). It takes 11 minutes in a fresh clone (a debug and a release build), 3 once built:
# more than CI's budget leaves, so CI skips it (PackagingTests says so) and it is run before a release;
# REEL_TEST_PACKAGES=1 makes the suite run it.
# Prints the sizes and times the release notes quote. Exits non-zero at the first failed check.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

scripts/setup.sh --packaging
. scripts/env.sh
fail() { echo "test-packages: FAIL: $*" >&2; exit 1; }
pass() { echo "test-packages: ok: $*"; }
seconds() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(seconds)" 'BEGIN { printf "%.1f", b - a }'; }

version="$(scripts/package.sh --print-version)"  # Sources/Reel/Version.swift, read in one place
arch="$(dpkg --print-architecture)"
tarball="dist/reel-$version-linux-$(uname -m).tar.gz"
deb="dist/reel_${version}_$arch.deb"
image="localhost/reel:$version"

work="$(mktemp -d)"
containers=()
cleanup() {
  for c in "${containers[@]}"; do buildah rm "$c" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# The reference: the development build's clips.
swift build --product reel >/dev/null
dev="$(swift build --show-bin-path)/reel"
mkdir -p "$work/dev"
for ext in mp4 gif; do "$dev" render examples/hello.json -o "$work/dev/hello.$ext" -q; done

start="$(seconds)"
scripts/package.sh
echo "test-packages: package.sh took $(since "$start") s"
[ -f "$tarball" ] && [ -f "$deb" ] || fail "package.sh did not write $tarball and $deb"

# 1. The tarball.
mkdir -p "$work/tar" "$work/tar-out"
tar -xzf "$tarball" -C "$work/tar" --strip-components=1
bin="$work/tar/bin/reel"
for f in bin/reel libexec/swift/linux/swift-backtrace share/man/man1/reel.1 share/man/man1/reel-render.1 \
  share/bash-completion/completions/reel share/zsh/site-functions/_reel share/fish/vendor_completions.d/reel.fish \
  share/reel/scripts/distributed/render-shard.sh share/reel/examples/hello.json LICENSE THIRD-PARTY-LICENSES README; do
  [ -e "$work/tar/$f" ] || fail "the tarball has no $f"
done
if ldd "$bin" | grep -E "swift|/opt/"; then fail "the tarball's reel loads a library from the Swift toolchain (above)"; fi
for ext in mp4 gif; do
  (cd "$work/tar-out" && env -i PATH=/usr/bin:/bin "$bin" render "$repo/examples/hello.json" -o "hello.$ext" 2>"$work/tar-err") ||
    fail "the tarball's reel failed: $(cat "$work/tar-err")"
  # Nothing but the result line on stderr: no warning from the runtime about its crash reporter.
  [ "$(grep -vc '^wrote hello' "$work/tar-err")" = 0 ] || fail "the tarball's reel said more than its result: $(cat "$work/tar-err")"
  cmp "$work/tar-out/hello.$ext" "$work/dev/hello.$ext" || fail "hello.$ext from the tarball differs from the development build's"
done
env -i PATH=/usr/bin:/bin "$bin" --version | grep -q "^reel $version$" || fail "reel --version does not say $version"
# Every example (shapes, text, SVG, Lottie, video), drawn by both: the static build must not draw a
# pixel differently.
count=0
for scene in examples/*.yaml examples/*.json; do
  name="$(basename "${scene%.*}")"
  "$dev" render "$scene" -o "$work/dev/$name.gif" -q
  "$bin" render "$scene" -o "$work/tar-out/$name.gif" -q
  cmp "$work/tar-out/$name.gif" "$work/dev/$name.gif" || fail "$name.gif from the tarball differs from the development build's"
  count=$((count + 1))
done
pass "tarball: renders with env -i, no Swift library, hello.mp4 and hello.gif byte-identical, and the $count examples as GIFs"

# 2. The .deb: lintian, then apt-get install into a fresh Debian 12 root.
lintian --fail-on error,warning "$deb" || fail "lintian (above)"
pass "lintian: no error or warning (overrides: $(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/share/lintian/overrides/reel | grep -c '^reel:'))"
sources=/etc/apt/sources.list.d/debian.sources
[ -f "$sources" ] || sources=/etc/apt/sources.list
cp examples/hello.json "$work/hello.json"
# Everything inside the root happens in /srv/reel-test.
cat >"$work/in-root.sh" <<'EOF'
set -eu
cd /srv/reel-test
start=$(date +%s.%N)
apt-get install -y -q ./reel.deb >apt.log 2>&1 || { cat apt.log; exit 1; }
reel render hello.json -o hello.mp4 -q
first=$(date +%s.%N)
reel render hello.json -o hello.gif -q
awk -v a="$start" -v b="$first" 'BEGIN { printf "%.1f\n", b - a }' >install-seconds
reel --help | grep -q "USAGE: reel" || { echo "reel --help"; exit 1; }
MANWIDTH=80 man reel 2>/dev/null | grep -q "reel-render(1)" || { echo "man reel"; exit 1; }
MANWIDTH=80 man reel-render 2>/dev/null | grep -q -- "--output" || { echo "man reel-render"; exit 1; }
# The completion bash-completion loads for reel, called as bash calls it (command, word, previous word)
# to complete "reel ren".
words=$(bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader reel;
  COMP_WORDS=(reel ren); COMP_CWORD=1; COMP_LINE="reel ren"; COMP_POINT=8; _reel reel ren reel; echo "${COMPREPLY[*]}"')
[ "$words" = render ] || { echo "bash completion of 'reel ren' gave '$words'"; exit 1; }
dpkg-query -W -f='${Installed-Size}\n' reel >installed-size
EOF
start="$(seconds)"
mmdebstrap --quiet --variant=apt --include=man-db,bash-completion \
  --customize-hook='mkdir -p "$1/srv/reel-test"' \
  --customize-hook="copy-in $repo/$deb $work/hello.json $work/in-root.sh /srv/reel-test" \
  --customize-hook='chroot "$1" sh -c "mv /srv/reel-test/reel_*.deb /srv/reel-test/reel.deb"' \
  --customize-hook='chroot "$1" sh /srv/reel-test/in-root.sh' \
  --customize-hook="copy-out /srv/reel-test/hello.mp4 /srv/reel-test/hello.gif /srv/reel-test/install-seconds /srv/reel-test/installed-size $work" \
  bookworm "$work/root.tar" "$sources" || fail "the .deb in a fresh Debian 12 root (above)"
rm -f "$work/root.tar"
for ext in mp4 gif; do
  cmp "$work/hello.$ext" "$work/dev/hello.$ext" || fail "hello.$ext from the .deb differs from the development build's"
done
pass "deb: apt-get install ./reel.deb in a fresh root, then a first clip in $(cat "$work/install-seconds") s (root made and torn down in $(since "$start") s); reel --help, man reel, man reel-render and bash completion work; hello.mp4 and hello.gif byte-identical"

# 3. The image, on a Debian 12 base made here.
start="$(seconds)"
scripts/image.sh --base local
echo "test-packages: image.sh took $(since "$start") s"
ctr="$(buildah from --quiet "$image")"
containers+=("$ctr")
[ "$(buildah inspect --format '{{.OCIv1.Config.User}}' "$ctr")" = reel ] || fail "the image does not run as user reel"
[ "$(buildah inspect --format '{{.OCIv1.Config.WorkingDir}}' "$ctr")" = /data ] || fail "the image's WORKDIR is not /data"
[ "$(buildah inspect --format '{{.OCIv1.Config.Entrypoint}}' "$ctr")" = '[reel]' ] || fail "the image's ENTRYPOINT is not reel"
found="$(buildah run --isolation chroot "$ctr" sh -c 'for c in cc gcc clang swift swiftc; do command -v $c; done;
  dpkg-query -W -f="\${Package}\n" | grep -e "-dev\$" -e "^swift"; ls -d /usr/include/libavcodec 2>/dev/null; true')"
[ -z "$found" ] || fail "the image holds a compiler, Swift or -dev packages: $found"
data="$work/data"
mkdir -p "$data"
cp examples/hello.json "$data/"
chown -R 1000:1000 "$data"
run() { buildah run --isolation chroot --user reel --workingdir /data -v "$data:/data" "$@"; }
for ext in mp4 gif; do
  run "$ctr" reel render hello.json -o "hello.$ext" -q || fail "reel render in the image"
  cmp "$data/hello.$ext" "$work/dev/hello.$ext" || fail "hello.$ext from the image differs from the development build's"
done
pass "image: $image, $(($(podman image inspect "$image" --format '{{.Size}}') / 1000000)) MB, user reel in /data, no compiler; hello.mp4 and hello.gif byte-identical"

# The Kubernetes recipe's pod commands, run in the image as its manifests run them: the render
# container once per completion index, then the join (the volume is $data/shared).
manifest=scripts/distributed/k8s-indexed-job.yaml
grep -q "image: $image$" "$manifest" || fail "$manifest does not name $image"
mkdir -p "$data/shared/scenes"
cp examples/star-button.yaml "$data/shared/scenes/"
cp -r examples/assets "$data/shared/scenes/" 2>/dev/null || true
chown -R 1000:1000 "$data"
# Each container's command line, as the manifest writes it (a JSON list on one line).
command_of() {
  python3 -c 'import json, shlex, sys; print(shlex.join(json.loads(sys.argv[1])))' \
    "$(grep -m1 "command: \[.*$1" "$manifest" | sed 's/^ *command: //')"
}
render_cmd="$(command_of render-shard.sh)"
join_cmd="$(command_of join.sh)"
[ "$render_cmd" = "/bin/bash /usr/share/reel/scripts/distributed/render-shard.sh" ] || fail "the render pod's command: $render_cmd"
for i in 0 1 2 3; do
  run --env JOB_COMPLETION_INDEX=$i --env SHARD_COUNT=4 --env SCENE=/data/shared/scenes/star-button.yaml \
    --env OUT_DIR=/data/shared/segments --env FORMAT=mp4 --env RUN_ID=test --env REEL_ARGS="--scale 1" \
    "$ctr" sh -c "$render_cmd" || fail "the render pod's command, index $i"
done
run --env SHARD_COUNT=4 --env OUT_DIR=/data/shared/segments --env FORMAT=mp4 --env OUTPUT=/data/shared/star-button.mp4 \
  "$ctr" sh -c "$join_cmd" || fail "the join pod's command"
frames="$(ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames -of csv=p=0 "$data/shared/star-button.mp4")"
[ "$frames" = 66 ] || fail "the joined clip has $frames frames, not 66"
pass "kubernetes: the pod commands of $manifest rendered 4 shards and joined them in the image (66 frames)"

# Documentation GIFs in CI (docs/ci.md): the same batch twice writes nothing the second time, and a
# fresh checkout (no batch records) renders the same bytes, so git sees no change.
mkdir -p "$data/docs/scenes"
cp examples/hello.json examples/star-button.yaml "$data/docs/scenes/"
cat >"$data/docs/gifs.yaml" <<'EOF'
jobs:
  - scene: "scenes/*.json"
    outputs: ["gifs/{scene}.gif"]
  - scene: "scenes/*.yaml"
    outputs: ["gifs/{scene}.gif"]
EOF
# As the workflow runs it: as the runner's user (not in the image's passwd), HOME=/var/tmp.
chown -R 1001:1001 "$data/docs"
runci() {
  buildah run --isolation chroot --user 1001:1001 --env HOME=/var/tmp --workingdir /data -v "$data:/data" \
    "$ctr" reel batch docs/gifs.yaml -q 2>"$work/ci-err"
}
runci || fail "reel batch in the image: $(cat "$work/ci-err")"
grep -v -e '^job ' -e '^hello ' -e '^star-button ' -e '^2 outputs' "$work/ci-err" | grep . &&
  fail "reel batch said more than its summary (above)"
ls "$data/docs/gifs/"*.gif >/dev/null || fail "the batch wrote no GIF"
sha256sum "$data/docs/gifs/"*.gif >"$work/first.sums"
find "$data/docs" -exec touch -h -d '1 hour ago' {} +
marker="$work/marker"
touch -d '30 minutes ago' "$marker"
runci || fail "the second reel batch in the image: $(cat "$work/ci-err")"
if [ -n "$(find "$data/docs" -newer "$marker" -print -quit)" ]; then
  fail "the second batch wrote: $(find "$data/docs" -newer "$marker")"
fi
rm -f "$data/docs/gifs/".*.reel-batch
runci || fail "the batch without records: $(cat "$work/ci-err")"
sha256sum -c --quiet "$work/first.sums" || fail "a fresh checkout's batch rendered different bytes"
pass "docs GIFs: the second batch wrote nothing; without its records it rendered the same bytes"

echo "test-packages: sizes: $(du -h "$tarball" | cut -f1) tarball, $(du -h "$deb" | cut -f1) .deb ($(cat "$work/installed-size") KiB installed), image $(($(podman image inspect "$image" --format '{{.Size}}') / 1000000)) MB"
echo "test-packages: all passed"
