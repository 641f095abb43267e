// The SPMD check: every rank runs the same assignments on the same distributed functions,
// so every rank decides alike, with no message, whether a halo is dirty. The check mode
// verifies that contract (one MPI_Allreduce per halo decision) and turns a broken one into
// the same clear error on every rank, where trusting it would hang.
#pragma once

namespace funcmesh {

// Whether halo decisions are compared across ranks. FUNCMESH_CHECK_SPMD=1 turns the check
// on, =0 off; unset, it is on in Debug builds of funcmesh (NDEBUG undefined) and off
// otherwise. Read at first use; another value throws funcmesh::error naming it. The
// setting must be the same on every rank (the check is a collective): set the variable
// for the whole job (mpirun -x FUNCMESH_CHECK_SPMD=1), not for some ranks.
bool spmd_check_enabled();
// Overrides the environment for this process; call it on every rank alike.
void set_spmd_check(bool on);

}  // namespace funcmesh
