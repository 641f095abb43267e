#!/usr/bin/env bash
# same_result.sh REGEX -- COMMAND A... -- COMMAND B...
# Runs both commands and passes when both succeed and the lines matching REGEX are
# identical and not empty (results that must not depend on the rank count).
set -uo pipefail
regex=$1; shift
[[ $1 == -- ]] || { echo "usage: same_result.sh REGEX -- A... -- B..."; exit 2; }
shift
a=(); while [[ $# -gt 0 && $1 != -- ]]; do a+=("$1"); shift; done
shift
b=("$@")
out_a=$("${a[@]}") || { echo "first command failed: ${a[*]}"; echo "$out_a"; exit 1; }
out_b=$("${b[@]}") || { echo "second command failed: ${b[*]}"; echo "$out_b"; exit 1; }
lines_a=$(grep -E "$regex" <<<"$out_a")
lines_b=$(grep -E "$regex" <<<"$out_b")
if [[ -z $lines_a ]]; then echo "no line matches '$regex' in:"; echo "$out_a"; exit 1; fi
if [[ $lines_a != "$lines_b" ]]; then
  echo "results differ:"; echo "--- ${a[*]}"; echo "$lines_a"; echo "--- ${b[*]}"; echo "$lines_b"
  exit 1
fi
echo "same result:"; echo "$lines_a"
