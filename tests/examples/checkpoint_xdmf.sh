#!/usr/bin/env bash
# Checkpoints and mesh files open in a real XDMF client: heat's checkpoints (2-D triangles
# on 3 ranks, the restart's on 2 ranks with a mesh file of its own, 3-D tetrahedra,
# hexahedra and prisms) and funcmesh mesh files (--save-mesh) are read back through their
# .xdmf by CLIENT (meshio, or ParaView through pvpython), which must find the run's own
# cells, each positively oriented in VTK's node order, and its printed sum of V u (a mesh
# file: its volume) (tests/checkpoint/read_xdmf.py). Pruned checkpoints lose their .xdmf.
# Usage: checkpoint_xdmf.sh CLIENT READ_XDMF HEAT PRISMS_GEO SCRATCH -- MPIEXEC NUMPROC_FLAG
#          [PREFLAGS...]
#   CLIENT: meshio (runs READ_XDMF with /usr/bin/python3) or paraview (with pvpython)
set -uo pipefail
usage="usage: checkpoint_xdmf.sh CLIENT READ_XDMF HEAT PRISMS_GEO SCRATCH -- MPIEXEC FLAG ..."
[[ $# -ge 8 ]] || { echo "$usage"; exit 2; }
client=$1 reader=$2 heat=$3 prisms_geo=$4 scratch=$5
shift 5
[[ $1 == -- ]] || { echo "$usage"; exit 2; }
shift
mpiexec=$1 numproc=$2
shift 2
preflags=("$@")
case $client in
  meshio) python=(/usr/bin/python3) ;;
  paraview) python=(pvpython) ;;
  *) echo "checkpoint_xdmf.sh: client '$client' is not meshio or paraview"; exit 2 ;;
esac
rm -rf "$scratch"
mkdir -p "$scratch"
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# heat RANKS ARGS...: runs heat, prints and keeps (in $sum) its sum of V u.
heat() {
  local ranks=$1
  shift
  local out status=0
  out=$("$mpiexec" "$numproc" "$ranks" ${preflags[@]+"${preflags[@]}"} "$heat" --quiet "$@" 2>&1) ||
    status=$?
  echo "\$ mpirun -np $ranks heat $*"
  printf '%s\n' "$out" | sed 's/^/  /'
  [[ $status -eq 0 ]] || fail "heat exited $status"
  sum=$(sed -n 's/^heat: sum of V u at t_end = //p' <<<"$out")
}
# read XDMF ARGS...: the client reads it and checks it.
read_back() {
  echo "\$ $client: read_xdmf.py $*"
  "${python[@]}" "$reader" "$client" "$@" 2>&1 | grep -v "^\s*$" | sed 's/^/  /'
  [[ ${PIPESTATUS[0]} -eq 0 ]] || fail "$client could not read $1 as the run wrote it"
}

# 2-D: perturbed triangles (cells of unequal areas), 3 ranks, checkpoints at 10 and 20.
ck=$scratch/ck2d
heat 3 --builtin box2d-tri --n 16 --perturbation 0.2 --steps 20 --checkpoint-every 10 \
  --checkpoint-dir "$ck"
read_back "$ck/checkpoint_0000000020.xdmf" --sum-vu "$sum" --cells 512
# Restarted on 2 ranks: another layout, so another mesh file beside the first.
heat 2 --builtin box2d-tri --n 16 --perturbation 0.2 --steps 30 --checkpoint-every 10 \
  --checkpoint-dir "$ck" --restart latest
read_back "$ck/checkpoint_0000000030.xdmf" --sum-vu "$sum" --cells 512
meshes=$(find "$ck" -name 'mesh_*.h5' | wc -l)
[[ $meshes -eq 2 ]] || fail "$meshes mesh files in $ck after runs on 3 and 2 ranks, not 2"
# keep 2: checkpoint 10 deleted, with its description.
[[ ! -e $ck/checkpoint_0000000010.h5 && ! -e $ck/checkpoint_0000000010.xdmf ]] ||
  fail "checkpoint 10 or its .xdmf is still there after two newer ones (keep 2)"
[[ -e $ck/checkpoint_0000000020.xdmf ]] || fail "checkpoint 20's .xdmf is gone"

# 3-D: perturbed tetrahedra on 2 ranks.
heat 2 --builtin box3d-tet --n 5 --perturbation 0.2 --steps 4 --checkpoint-every 4 \
  --checkpoint-dir "$scratch/ck3d"
read_back "$scratch/ck3d/checkpoint_0000000004.xdmf" --sum-vu "$sum" --cells 750

# 3-D hexahedra (read_xdmf.py's volumes are exact for the unperturbed box's): a node
# order other than VTK's gives twisted cells and another sum.
heat 2 --builtin box3d-hex --n 4 --steps 2 --checkpoint-every 2 --checkpoint-dir "$scratch/ckhex"
read_back "$scratch/ckhex/checkpoint_0000000002.xdmf" --sum-vu "$sum" --cells 64

# A mesh file (--save-mesh) and its description (the unit cube: volume 1), then a run on
# it (the parallel set-up).
heat 1 --builtin box3d-tet --n 4 --perturbation 0.2 --steps 1 --save-mesh "$scratch/box.h5"
read_back "$scratch/box.xdmf" --cells 384 --volume 1
heat 2 --mesh "$scratch/box.h5" --steps 4 --checkpoint-every 4 --checkpoint-dir "$scratch/ckh5"
read_back "$scratch/ckh5/checkpoint_0000000004.xdmf" --sum-vu "$sum" --cells 384

# Prisms (wedges: Gmsh's node order is not VTK's; read_xdmf.py refuses cells of negative
# volume in VTK's order), from gmsh, saved as a mesh file and checkpointed.
if gmsh -3 "$prisms_geo" -o "$scratch/prisms.msh" -format msh41 >"$scratch/gmsh.log" 2>&1; then
  heat 2 --mesh "$scratch/prisms.msh" --dirichlet bottom=1 --steps 2 --checkpoint-every 2 \
    --checkpoint-dir "$scratch/ckprisms" --save-mesh "$scratch/prisms.h5"
  read_back "$scratch/prisms.xdmf" --cells 52 --volume 1
  read_back "$scratch/ckprisms/checkpoint_0000000002.xdmf" --sum-vu "$sum" --cells 52
else
  cat "$scratch/gmsh.log"
  fail "gmsh could not mesh $prisms_geo (ci/install-deps installs Debian's gmsh)"
fi

[[ $failed -eq 0 ]] && echo "all checks passed" || echo "$failed check(s) failed"
[[ $failed -eq 0 ]]
