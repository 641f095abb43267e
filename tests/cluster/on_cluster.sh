#!/usr/bin/env bash
# One MPI test across the rehearsal cluster's 2 hosts (ctest label `cluster`):
#   on_cluster.sh RANKS PROGRAM [ARGS...]
# Brings the cluster up if the fixture has not (idempotent); where network namespaces
# cannot be made, prints why and exits 77, which ctest reports as skipped.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
ranks="$1"
shift
status=0
"$root/ci/cluster" up 2 >/dev/null || status=$?
if ((status == 77)); then
  echo "on_cluster.sh: skipped: no rehearsal cluster can be made here (see the reason above)"
  exit 77
fi
((status == 0)) || { echo "on_cluster.sh: ci/cluster up 2 failed ($status)" >&2; exit 1; }
# Two hosts of one slot each: 4 ranks are 2 per host.
exec "$root/ci/cluster" mpirun -np "$ranks" --oversubscribe --bind-to none "$@"
