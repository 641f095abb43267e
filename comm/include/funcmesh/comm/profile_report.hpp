// The FUNCMESH_PROFILE table of an MPI job: every rank's entries gathered to rank 0, which
// prints one table for the job; called by the environment just before MPI_Finalize.
#pragma once

#include <funcmesh/comm/communicator.hpp>

namespace funcmesh::mpi {

// Collective over `comm` when FUNCMESH_PROFILE=1 (which mpirun passes to every rank alike);
// nothing at all otherwise. The ranks' entries travel as bytes (MPI_Gatherv), so their
// label sets may differ: a label missing on a rank counts zero there. Rank 0 prints the
// table to stdout; no process prints its own at exit. Never throws: a failed MPI call is
// named on stderr and the table is skipped.
void report_profile(const communicator& comm) noexcept;

}  // namespace funcmesh::mpi
