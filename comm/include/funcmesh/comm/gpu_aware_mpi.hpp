// Whether MPI can send device memory directly. Decided once per process: the MPI library
// must say so at build time and at run time (Open MPI's MPIX_Query_cuda_support), and
// FUNCMESH_GPU_AWARE_MPI=0 forces host staging anyway. Debian's Open MPI says no.
#pragma once

#include <optional>

namespace funcmesh::mpi {

// The answer for this process (cached after the first call).
bool gpu_aware();

namespace detail {
// The decision from its three inputs: the FUNCMESH_GPU_AWARE_MPI text (nullptr: unset),
// the compile-time and the run-time support. Throws funcmesh::error for a value other
// than 0 or 1, naming the variable.
bool decide_gpu_aware(const char* setting, bool built_with_support, bool runtime_support);
}  // namespace detail

}  // namespace funcmesh::mpi
