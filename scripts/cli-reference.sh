#!/usr/bin/env bash
# Writes docs/cli-reference.md: the `--help` of reel and of every subcommand, at 80 columns, as the
# built binary prints it. HelpTests compares the file with the binary, so after a deliberate change to
# an option run this script and review the diff.
#   scripts/cli-reference.sh [REEL]     (default: the debug build, built if needed)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
reel="${1:-}"
if [ -z "$reel" ]; then
  swift build --product reel >/dev/null
  reel="$(swift build --show-bin-path)/reel"
fi
out=docs/cli-reference.md
{
  echo "# Command-line reference"
  echo
  echo "Every command's \`--help\`, as \`reel\` prints it at 80 columns. \`scripts/cli-reference.sh\` writes this"
  echo "page from the binary and a test (HelpTests) compares the two, so it says what the binary does. The"
  echo "explanations and examples are in [the command line](command-line.md)."
  # The subcommands, in the order reel --help lists them.
  commands=("" $("$reel" --help | sed -n '/^SUBCOMMANDS:/,$p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' | grep -v '^help$'))
  for command in "${commands[@]}"; do
    echo
    echo "## reel${command:+ $command}"
    echo
    echo '```text'
    # shellcheck disable=SC2086
    COLUMNS=80 "$reel" $command --help | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
    echo '```'
  done
} >"$out"
echo "cli-reference: wrote $out (${#commands[@]} commands)"
