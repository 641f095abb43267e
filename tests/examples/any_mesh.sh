#!/usr/bin/env bash
# heat and advection on the user's own Gmsh meshes, not only the unit boxes: the 2-D
# L-shape with a hole (its own groups, "outer" and "hole"), the 3-D unit box of tetrahedra
# (its own bounding box) and a cylinder of radius 0.5 around the origin, meshed here by
# the installed gmsh.
# Usage: any_mesh.sh GEO_DIR HEAT ADVECTION -- MPIEXEC NUMPROC_FLAG [PREFLAGS...]
# (each run is MPIEXEC NUMPROC_FLAG RANKS PREFLAGS... PROGRAM ARGS...).
set -uo pipefail
usage="usage: any_mesh.sh GEO_DIR HEAT ADVECTION -- MPIEXEC FLAG [PREFLAGS...]"
[[ $# -ge 6 ]] || { echo "$usage"; exit 2; }
geo_dir=$1 heat=$2 advection=$3
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

for mesh in lshape_hole:2 box:3 cylinder:3; do
  name=${mesh%%:*} dimension=${mesh##*:}
  if ! gmsh -"$dimension" "$geo_dir/$name.geo" -o "$work/$name.msh" -format msh41 \
    >"$work/gmsh.log" 2>&1; then
    cat "$work/gmsh.log"
    echo "FAIL: gmsh could not mesh $name.geo (ci/install-deps installs Debian's gmsh)"
    exit 1
  fi
done

# run RANKS PROGRAM ARGS...: the output in $out, the exit status in $status.
run() {
  local ranks=$1
  shift
  status=0
  out=$("$mpiexec" "$numproc" "$ranks" ${preflags[@]+"${preflags[@]}"} "$@" 2>&1) || status=$?
  echo "\$ mpirun -np $ranks $(basename "$1") ${*:2}"
  if [[ $status -eq 0 || $status -eq 2 ]]; then
    grep -E "^(heat|advection):" <<<"$out" | grep -v "^advection: .*steps to" | sed 's/^/  /'
  else
    sed 's/^/  /' <<<"$out" | tail -30  # all of it: why did it fail?
  fi
}
# expect WHAT REGEX: the last run's output has a line matching REGEX.
expect() { grep -qE "$2" <<<"$out" || fail "$1: no line matches '$2'"; }

# --- heat ---------------------------------------------------------------------------
# The defaults name the built-in boxes' groups: a clear error listing the mesh's groups and
# the options that choose conditions, exit 2 (a usage error), on every rank together.
run 2 "$heat" --mesh "$work/lshape_hole.msh" --quiet
[[ $status -eq 2 ]] || fail "heat on the L-shape without --dirichlet exited $status, not 2"
expect "heat's missing group" "no boundary group 'left' \(its boundary groups: outer, hole\).*--dirichlet GROUP=VALUE"

# outer held at 1, the hole at 0: u between them, so 0 < sum V u < the area (2 - pi/16).
sums=()
for ranks in 1 3; do
  run "$ranks" "$heat" --mesh "$work/lshape_hole.msh" --dirichlet outer=1,hole=0 --t-end 0.05 \
    --quiet
  [[ $status -eq 0 ]] || fail "heat on the L-shape on $ranks rank(s) exited $status"
  sums+=("$(sed -n 's/^heat: sum of V u at t_end = //p' <<<"$out")")
done
python3 - "${sums[0]}" <<'EOF' || fail "heat on the L-shape: sum of V u '${sums[0]}' not in (0, 2 - pi/16)"
import math, sys
total = float(sys.argv[1])
sys.exit(0 if 0.1 < total < 2 - math.pi / 16 else 1)
EOF
[[ -n ${sums[0]} && ${sums[0]} == "${sums[1]}" ]] ||
  fail "heat on the L-shape: sum of V u differs on 1 and 3 ranks ('${sums[0]}', '${sums[1]}')"

# A 3-D mesh with a flux condition: heat in at the bottom (held at 1), out through the top.
run 2 "$heat" --mesh "$work/cylinder.msh" --dirichlet bottom=1 --neumann top=-0.5 --t-end 0.05 \
  --quiet
[[ $status -eq 0 ]] || fail "heat on the cylinder exited $status"
# Heat flows in at the bottom: 0 < sum V u < the cylinder's volume (pi / 4).
cylinder_sum=$(sed -n 's/^heat: sum of V u at t_end = //p' <<<"$out")
python3 -c "import math, sys; sys.exit(0 if 0.01 < float(sys.argv[1]) < math.pi / 4 else 1)" \
  "${cylinder_sum:-nan}" || fail "heat on the cylinder: sum of V u '$cylinder_sum' not in (0.01, pi/4)"

# --- advection ----------------------------------------------------------------------
# Where the mesh is not its bounding box the flow crosses the boundary: mass leaves, u
# stays non-negative, and the blob starts inside the mesh (max u well above 0).
for name in lshape_hole cylinder; do
  run 2 "$advection" --mesh "$work/$name.msh" --t-end 0.25
  [[ $status -eq 0 ]] || fail "advection on $name exited $status"
  expect "advection on $name" "crosses the mesh's boundary"
  expect "advection on $name" "% left through the boundary; min u .*: falling and non-negative"
  expect "advection on $name" "max u 0\.([1-9]|0[5-9])"
done
# The unit box of tetrahedra is its own bounding box: closed walls, mass conserved, the
# same bits on 1 and 3 ranks.
masses=()
for ranks in 1 3; do
  run "$ranks" "$advection" --mesh "$work/box.msh" --t-end 0.25
  [[ $status -eq 0 ]] || fail "advection on the box on $ranks rank(s) exited $status"
  expect "advection on the box" "tangent to every boundary face"
  expect "advection on the box" "conserved to round-off"
  masses+=("$(grep -E "^advection: mass" <<<"$out")")
done
[[ ${masses[0]} == "${masses[1]}" ]] || fail "advection on the box: mass lines differ on 1 and 3 ranks"

[[ $failed -eq 0 ]] && echo "all checks passed" || echo "$failed check(s) failed"
[[ $failed -eq 0 ]]
