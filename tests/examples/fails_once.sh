#!/usr/bin/env bash
# fails_once.sh [--exit N] REGEX -- COMMAND...
# Passes when COMMAND exits non-zero (N when given; not by a signal or an abort) and
# exactly one line of its output matches REGEX: an error that every rank sees, said once,
# and a clean exit.
set -uo pipefail
expected=""
if [[ $1 == --exit ]]; then expected=$2; shift 2; fi
regex=$1; shift
[[ $1 == -- ]] || { echo "usage: fails_once.sh REGEX -- COMMAND..."; exit 2; }
shift
out=$("$@" 2>&1)
status=$?
echo "$out"
if [[ $status -eq 0 ]]; then echo "fails_once.sh: the command succeeded"; exit 1; fi
if [[ $status -gt 128 ]]; then echo "fails_once.sh: killed by a signal ($status)"; exit 1; fi
if [[ -n $expected && $status -ne $expected ]]; then
  echo "fails_once.sh: exit $status, expected $expected"; exit 1
fi
if grep -q "MPI_ABORT\|MPI_Abort" <<<"$out"; then echo "fails_once.sh: aborted"; exit 1; fi
count=$(grep -cE "$regex" <<<"$out")
if [[ $count -ne 1 ]]; then echo "fails_once.sh: '$regex' printed $count times"; exit 1; fi
echo "fails_once.sh: failed as expected (exit $status)"
