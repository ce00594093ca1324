#!/usr/bin/env bash
# Renders a scene in N shards with GNU parallel, on this machine or over SSH, then joins them here.
#
#   scripts/distributed/gnu-parallel.sh SCENE OUTPUT [SHARDS]
#
# OUTPUT's extension (.mp4, .mov, .webm, .gif) is the segments' format. SHARDS defaults to the
# number of CPUs here.
#
# Environment:
#   HOSTS     where to run: ":" (default) is this machine only; a file of SSH logins, one per line
#             (--sshloginfile, e.g. "user@render1", "ssh -p 2222 render2", ":" for this machine);
#             or a comma-separated list of logins (--sshlogin, e.g. "render1,render2,:").
#   JOBS      shards rendered at once on each host (parallel --jobs; default 1, since one render
#             already uses every core of its host; 100% means one per CPU)
#   OUT_DIR   the segments' folder (default: OUTPUT's folder/.NAME-segments). Its old
#             segment-NNNNN.FORMAT files are deleted first.
#   REEL      the reel binary (default: reel on PATH, on each host); REEL_ARGS more render options
#
# Remote hosts need: SSH logins without a password prompt, bash and perl (parallel wraps each remote
# command in a small perl program), this repository at the same path as here, reel at REEL (or on
# the PATH of a non-interactive SSH shell), and SCENE and OUT_DIR on storage shared with this machine
# at the same paths. Each task gets its variables on its own command line, so nothing has to be set
# up in the remote environment. A HOSTS value that looks like a file name (it has a '/' or ends in
# .txt, .list, .conf…) but is no file is an error, not a host name.
set -euo pipefail

fail() { echo "gnu-parallel: $*" >&2; exit 2; }
if [ $# -lt 2 ] || [ $# -gt 3 ]; then fail "usage: $0 SCENE OUTPUT [SHARDS]"; fi
command -v parallel >/dev/null 2>&1 || fail "GNU parallel is not installed (Debian: apt-get install parallel)"
[ -f "$1" ] || fail "$1: no such scene file"
scene="$(realpath "$1")"
output="$(realpath -m "$2")"
count="${3:-$(nproc)}"
[[ "$count" =~ ^[1-9][0-9]*$ ]] || fail "SHARDS '$count' is not a positive whole number"
format="${output##*/}" format="${format##*.}"
case "$format" in
  mp4|mov|webm|gif) ;;
  *) fail "$2: the joined clip must end in .mp4, .mov, .webm or .gif (the segments' format)" ;;
esac
out_dir="$(realpath -m "${OUT_DIR:-$(dirname "$output")/.$(basename "$output")-segments}")"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
reel="${REEL:-reel}"
# A relative path to reel would not mean the same on another host or in another folder.
if [[ "$reel" == */* ]]; then reel="$(realpath -m "$reel")"; fi
command -v "$reel" >/dev/null 2>&1 || fail "REEL=$reel: no such program here (put reel on PATH or set REEL)"
hosts="${HOSTS:-:}"
# parallel would take a misspelt file name for a host name (and fail later, in ssh), so a login that
# looks like a path is refused here. A login is [@group/][ncpus/]host or an ssh command line
# ("ssh -p 2222 host", "/usr/local/bin/myssh host"), whose first word is a program.
looks_like_path() {
  local login="$1"
  if [[ "$login" == *[[:space:]]* ]]; then
    if command -v "${login%%[[:space:]]*}" >/dev/null 2>&1; then return 1; else return 0; fi
  fi
  [[ "$login" =~ ^(@[^/]*/)?([0-9]*/)?(.*)$ ]] && login="${BASH_REMATCH[3]}"
  [[ "$login" == */* || "$login" == "~"* ]] && return 0
  local suffix='\.(txt|text|list|lst|conf|cfg|config|ini|hosts|nodes|slf|csv|tsv|dat|yaml|yml|json|log)$'
  [[ "${login,,}" =~ $suffix ]]
}
if [ -f "$hosts" ]; then
  where=(--sshloginfile "$hosts")
elif [ -e "$hosts" ]; then
  fail "HOSTS=$hosts: not a file (HOSTS is a file of SSH logins or a comma-separated list of logins)"
else
  IFS=, read -r -a logins <<< "$hosts"
  for login in "${logins[@]}"; do
    if [ "$login" = "$hosts" ] && looks_like_path "$login"; then
      fail "HOSTS=$hosts: no such file of SSH logins (working folder $PWD)"
    elif looks_like_path "$login"; then
      fail "HOSTS=$hosts: '$login' looks like a file name, but there is no such file (HOSTS is a file of SSH logins or a comma-separated list of logins)"
    fi
  done
  where=(--sshlogin "$hosts")
fi

mkdir -p "$out_dir" "$(dirname "$output")"
# Segments of an earlier run (perhaps split differently) would mix with this run's.
find "$out_dir" -maxdepth 1 -type f -name "segment-[0-9][0-9][0-9][0-9][0-9].$format" -delete

# One task per shard. --halt now,fail=1 kills the other tasks at the first failure. -q quotes every
# word of the command, so paths with spaces survive the shell here and the one on a remote host.
if ! seq 0 $((count - 1)) | parallel --will-cite -q --halt now,fail=1 --jobs "${JOBS:-1}" "${where[@]}" \
  env SHARD_INDEX={} SHARD_COUNT="$count" SCENE="$scene" OUT_DIR="$out_dir" FORMAT="$format" \
  REEL="$reel" REEL_ARGS="${REEL_ARGS:-}" bash "$repo/scripts/distributed/render-shard.sh"; then
  echo "gnu-parallel: a shard failed (its error is above); nothing was joined" >&2
  exit 1
fi

OUT_DIR="$out_dir" SHARD_COUNT="$count" OUTPUT="$output" FORMAT="$format" REEL="$reel" \
  bash "$repo/scripts/distributed/join.sh"
