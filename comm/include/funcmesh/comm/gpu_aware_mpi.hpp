// Whether MPI can send device memory directly. Decided once per process, at the MPI
// environment's start: the MPI library must say so (Open MPI: MPIX_CUDA_AWARE_SUPPORT and
// MPIX_Query_cuda_support; MPICH family: MPIX_GPU_query_support), and
// FUNCMESH_GPU_AWARE_MPI=0 forces host staging anyway. Debian's Open MPI says no.
#pragma once

#include <optional>

namespace funcmesh::mpi {

// The answer for this process (cached after the first call). Throws funcmesh::error for a
// bad FUNCMESH_GPU_AWARE_MPI; the environment's start and halo plans' construction ask
// first, inside agreed checks, so that this never throws on one rank alone later.
bool gpu_aware();

namespace detail {
// The decision from its three inputs: the FUNCMESH_GPU_AWARE_MPI text (nullptr: unset),
// the compile-time and the run-time support. Throws funcmesh::error for a value other
// than 0 or 1, naming the variable.
bool decide_gpu_aware(const char* setting, bool built_with_support, bool runtime_support);
}  // namespace detail

}  // namespace funcmesh::mpi
