// Ranks that share a node's cores: unless the user chose a thread count, each rank's
// OpenMP thread target becomes its share of the CPUs its affinity mask allows, so that
// `mpirun -np 2 ./euler` on 2 cores runs 2 x 1 threads, not 2 x 2. Applied when the MPI
// environment starts; rank 0 says when ranks x threads exceed the cores they share.
#pragma once

#include <string>

#include <mpi.h>

namespace funcmesh::mpi {

struct thread_share {
  // CPUs in this rank's affinity mask.
  int cores = 1;
  // Ranks on this node whose masks share a CPU with this rank's (itself included).
  int sharing_ranks = 1;
  // CPUs in the union of those ranks' masks, and the threads they run together.
  int shared_cores = 1;
  int shared_threads = 1;
  // This rank's thread target: max(1, cores / sharing_ranks), or the user's choice.
  int threads = 1;
  // OMP_NUM_THREADS or FUNCMESH_THREADS_TARGET was set: the user's choice, kept.
  bool user_set = false;
  // Some rank of `comm` (on any node) runs more threads with its sharers than they have
  // CPUs; the same on every rank.
  bool oversubscribed = false;
};

// Collective over `comm`: finds the ranks sharing this node's CPUs
// (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and one allgather of the masks there) and,
// unless the user set a thread count, sets this rank's exec::set_threads_target to its
// share. `threads_variables_set` tells whether OMP_NUM_THREADS or FUNCMESH_THREADS_TARGET
// is set (a parameter, so tests can ask for either case).
thread_share share_node_cores(MPI_Comm comm, bool threads_variables_set);
// Whether OMP_NUM_THREADS or FUNCMESH_THREADS_TARGET is set in this process.
bool threads_variables_set();
// The line rank 0 prints when `share` is oversubscribed ("" when it is not).
std::string oversubscription_note(const thread_share& share);

// What the environment decided when it started (thread_share{} before).
const thread_share& node_thread_share();

}  // namespace funcmesh::mpi
