#!/usr/bin/env bash
# docs/finite-volumes.md's MUSCL advection program: its L1 error on the built-in triangles at
# n 32 and 64 (2 ranks) falls at least as second order minus a half (limited: 1.5), and n 32
# on 1 and 3 ranks prints the same error, bit for bit.
# Usage: muscl_order.sh PROGRAM -- MPIEXEC NUMPROC_FLAG [PREFLAGS...]
set -uo pipefail
program=$1
shift
[[ ${1:-} == -- ]] || { echo "usage: muscl_order.sh PROGRAM -- MPIEXEC FLAG [PREFLAGS...]"; exit 2; }
shift
mpiexec=$1 numproc=$2
shift 2
preflags=("$@")
error() {  # RANKS N: the printed error
  "$mpiexec" "$numproc" "$1" ${preflags[@]+"${preflags[@]}"} "$program" --builtin box2d-tri \
    --n "$2" 2>&1 |
    sed -n 's/^muscl_advection: L1 error \([^ ]*\) .*/\1/p'
}
coarse=$(error 2 32) fine=$(error 2 64) one=$(error 1 32) three=$(error 3 32)
echo "L1 error: n 32 ${coarse:-?}, n 64 ${fine:-?}; n 32 on 1 rank ${one:-?}, on 3 ranks ${three:-?}"
python3 - "${coarse:-nan}" "${fine:-nan}" <<'PY' || { echo "FAIL: order below 1.5"; exit 1; }
import math, sys
coarse, fine = float(sys.argv[1]), float(sys.argv[2])
order = math.log(coarse / fine) / math.log(2)
print(f"observed order {order:.3f}")
sys.exit(0 if order >= 1.5 else 1)
PY
[[ -n $one && $one == "$three" ]] || { echo "FAIL: 1 and 3 ranks differ"; exit 1; }
echo "second order, the same bits on 1 and 3 ranks"
