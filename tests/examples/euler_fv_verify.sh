#!/usr/bin/env bash
# euler_fv against exact solutions (docs/finite-volumes.md prints these tables):
#   order    the isentropic vortex on Gmsh triangles meshed here at 4 sizes (and on the
#            built-in tetrahedra, a slab, at 3): the observed order of the L2 density error
#            between the two finest meshes, >= 1.9 with linear reconstruction (least
#            squares and Green-Gauss, unlimited and with Venkatakrishnan), >= 0.9 first order;
#            3-D tetrahedra >= 1.8 at n 16, 32, 64 (1.91 from n 64 to 128: a minute more
#            than ci/test affords; docs/finite-volumes.md).
#   sod      Sod's tube with each flux and a limiter at 100, 200, 400 cells: L1 density
#            error order >= 0.6 and positive density and pressure everywhere.
#   free     a free stream on every cell type (Gmsh prisms and an L-shape with a hole too)
#            stays uniform to 1e-12.
# Usage: euler_fv_verify.sh MODE GEO_DIR EULER_FV -- MPIEXEC NUMPROC_FLAG [PREFLAGS...]
set -uo pipefail
usage="usage: euler_fv_verify.sh order|sod|free GEO_DIR EULER_FV -- MPIEXEC FLAG [PREFLAGS...]"
[[ $# -ge 6 ]] || { echo "$usage"; exit 2; }
mode=$1 geo_dir=$2 program=$3
shift 3
[[ $1 == -- ]] || { echo "$usage"; exit 2; }
shift
mpiexec=$1 numproc=$2
shift 2
preflags=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# run RANKS ARGS...: euler_fv's output in $out, its exit status in $status.
run() {
  local ranks=$1
  shift
  status=0
  out=$("$mpiexec" "$numproc" "$ranks" ${preflags[@]+"${preflags[@]}"} "$program" "$@" 2>&1) ||
    status=$?
  if [[ $status -ne 0 ]]; then
    echo "\$ mpirun -np $ranks euler_fv $* (exit $status)"
    tail -20 <<<"$out"
  fi
}
# The error and h of the last run: "ERROR H".
error_and_h() { sed -n 's/^euler_fv: .* error \([^ ]*\) (h \([^,]*\),.*/\1 \2/p' <<<"$out"; }

# study NAME MINIMUM ARGS-PER-LEVEL...: one run per level (each argument a quoted list of
# options), a table row per level, and the order between the last two against MINIMUM.
study() {
  local name=$1 minimum=$2
  shift 2
  local rows=()
  for level in "$@"; do
    # shellcheck disable=SC2086
    run 2 $level --quiet
    [[ $status -eq 0 ]] || { fail "$name: euler_fv $level exited $status"; return; }
    rows+=("$(error_and_h)")
  done
  python3 - "$name" "$minimum" "${rows[@]}" <<'PY' || fail "$name: order below $minimum"
import math, sys
name, minimum, rows = sys.argv[1], float(sys.argv[2]), [r.split() for r in sys.argv[3:]]
print(f"{name}:")
last = None
for error, h in rows:
    e, size = float(error), float(h)
    order = math.log(last[0] / e) / math.log(last[1] / size) if last else float("nan")
    print(f"  h {size:.4e}  error {e:.4e}" + ("" if last is None else f"  order {order:.3f}"))
    last = (e, size)
sys.exit(0 if order >= minimum else 1)
PY
}

case "$mode" in
  order)
    meshes=()
    for lc in 0.08 0.04 0.02 0.01; do
      sed "s/^lc = .*/lc = $lc;/" "$geo_dir/square.geo" >"$work/square_$lc.geo"
      gmsh -2 "$work/square_$lc.geo" -o "$work/square_$lc.msh" -format msh41 >/dev/null 2>&1 ||
        { echo "FAIL: gmsh could not mesh square.geo (ci/install-deps installs gmsh)"; exit 1; }
      meshes+=("$work/square_$lc.msh")
    done
    for choice in "least-squares none 1.9" "green-gauss none 1.9" "least-squares venkat 1.9" \
      "green-gauss venkat 1.9" "first none 0.9"; do
      read -r reconstruction limiter minimum <<<"$choice"
      levels=()
      for mesh in "${meshes[@]}"; do
        levels+=("--mesh $mesh --reconstruction $reconstruction --limiter $limiter")
      done
      study "vortex, Gmsh triangles, $reconstruction, limiter $limiter" "$minimum" "${levels[@]}"
    done
    study "vortex, built-in tetrahedra (slab), least-squares, limiter none" 1.8 \
      "--builtin box3d-tet --n 16" "--builtin box3d-tet --n 32" "--builtin box3d-tet --n 64"
    ;;
  sod)
    for flux in rusanov hll hllc roe; do
      levels=()
      for n in 100 200 400; do levels+=("--case sod --n $n --flux $flux --limiter venkat"); done
      study "sod, $flux, venkat" 0.6 "${levels[@]}"
      grep -q "positive$" <<<"$out" || fail "sod, $flux: density or pressure not positive"
    done
    run 2 --case sod --n 200 --flux hllc --limiter minmod --quiet
    grep -q "positive$" <<<"$out" || fail "sod, hllc, minmod: density or pressure not positive"
    ;;
  free)
    for mesh in lshape_hole:2 prisms:3; do
      name=${mesh%%:*} dimension=${mesh##*:}
      gmsh -"$dimension" "$geo_dir/$name.geo" -o "$work/$name.msh" -format msh41 >/dev/null 2>&1 ||
        { echo "FAIL: gmsh could not mesh $name.geo"; exit 1; }
    done
    for mesh in "--builtin box2d-tri --perturbation 0.2 --n 12" \
      "--builtin box2d-quad --perturbation 0.2 --n 12" \
      "--builtin box3d-tet --perturbation 0.2 --n 5" "--builtin box3d-hex --perturbation 0.2 --n 6" \
      "--mesh $work/lshape_hole.msh" "--mesh $work/prisms.msh"; do
      for reconstruction in first least-squares; do
        # shellcheck disable=SC2086
        run 3 --case free-stream $mesh --reconstruction $reconstruction --steps 10 --quiet
        deviation=$(sed -n 's/^euler_fv: largest deviation from the free stream \([^ ]*\) .*/\1/p' <<<"$out")
        echo "free stream, $mesh, $reconstruction: largest deviation ${deviation:-?}"
        python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 1e-12 else 1)" "${deviation:-nan}" ||
          fail "free stream on $mesh ($reconstruction) deviates by ${deviation:-?}"
      done
    done
    ;;
  *)
    echo "$usage"
    exit 2
    ;;
esac
if [[ $failed -gt 0 ]]; then
  echo "euler_fv_verify $mode: $failed check(s) FAILED"
  exit 1
fi
echo "euler_fv_verify $mode: every check passed"
