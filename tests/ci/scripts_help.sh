#!/usr/bin/env bash
# Every ci/ script answers --help as the first command in a fresh copy of the source tree
# (no build/, no .git): exit 0, a description printed, and nothing written into the tree.
# Usage: scripts_help.sh SOURCE_DIR
set -euo pipefail
source_dir=${1:?usage: scripts_help.sh SOURCE_DIR}
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
# The tree as a fresh clone has it: no build outputs, no version control (a Spack stage
# has none either).
tar -C "$source_dir" --exclude=./build --exclude=./.git --exclude=./demo-output -cf - . |
  tar -C "$copy" -xf -
listing() { (cd "$copy" && find . -print | LC_ALL=C sort); }
before=$(listing)

checked=0
failed=0
for script in "$copy"/ci/*; do
  name=ci/$(basename "$script")
  # Scripts only: ci/env.sh is sourced, not run; folders hold a script's modules.
  [[ -f $script && -x $script ]] || continue
  checked=$((checked + 1))
  status=0
  output=$(cd "$copy" && timeout 60 "$name" --help 2>&1) || status=$?
  if [[ $status -ne 0 ]]; then
    echo "FAIL: $name --help exited $status:"
    printf '%s\n' "$output" | head -20
    failed=$((failed + 1))
  elif [[ $(printf '%s' "$output" | wc -w) -lt 5 ]]; then
    echo "FAIL: $name --help printed no description: '$output'"
    failed=$((failed + 1))
  else
    echo "ok: $name --help ($(printf '%s\n' "$output" | head -1 | cut -c1-70))"
  fi
  after=$(listing)
  if [[ $after != "$before" ]]; then
    echo "FAIL: $name --help created (>) or removed (<) files in the tree:"
    diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") | grep '^[<>]' | head -20 || true
    failed=$((failed + 1))
    before=$after
  fi
done
if [[ $checked -lt 10 ]]; then
  echo "FAIL: only $checked scripts found under ci/ (expected the dozen the README lists)"
  exit 1
fi
echo "$checked scripts checked, $failed failures"
[[ $failed -eq 0 ]]
