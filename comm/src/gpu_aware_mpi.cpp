#include <funcmesh/comm/gpu_aware_mpi.hpp>

#include <string>
#include <string_view>

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/core/settings.hpp>

namespace funcmesh::mpi {

namespace {

// Open MPI says so in mpi-ext.h at build time and answers MPIX_Query_cuda_support at run
// time; the MPICH family (MPICH >= 4, Cray MPICH, MVAPICH) declares MPIX_GPU_query_support
// in mpi.h and answers at run time only.
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
#define FUNCMESH_OMPI_CUDA_QUERY 1
#elif defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000 && defined(MPIX_GPU_SUPPORT_CUDA)
#define FUNCMESH_MPICH_GPU_QUERY 1
#endif

bool built_with_cuda_support() {
#if defined(FUNCMESH_OMPI_CUDA_QUERY) || defined(FUNCMESH_MPICH_GPU_QUERY)
  return true;
#else
  return false;
#endif
}

bool runtime_cuda_support() {
#if defined(FUNCMESH_OMPI_CUDA_QUERY)
  return MPIX_Query_cuda_support() == 1;
#elif defined(FUNCMESH_MPICH_GPU_QUERY)
  int supported = 0;
  return MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &supported) == MPI_SUCCESS && supported != 0;
#else
  return false;
#endif
}

}  // namespace

namespace detail {

bool decide_gpu_aware(const char* setting, bool built_with_support, bool runtime_support) {
  // The settings table's parser, on this text alone.
  const settings parsed = settings::read([&](const char* name) {
    return std::string_view(name) == "FUNCMESH_GPU_AWARE_MPI" ? setting : nullptr;
  });
  const funcmesh::setting<bool>& wanted = parsed.gpu_aware_mpi;
  if (!wanted.accepted()) throw error(rank_prefix() + wanted.problem());
  // Asking for it is not enough: an MPI without support would read device pointers as host
  // memory and crash.
  return wanted.value() && built_with_support && runtime_support;
}

}  // namespace detail

bool gpu_aware() {
  // Thread-safe and decided once; a throw (a bad setting) leaves it undecided, to throw
  // again at the next call: the MPI environment and every halo plan's construction ask
  // first, inside their agreed checks, so no exchange ever throws here alone.
  static const bool answer =
      settings::get().gpu_aware_mpi.value() && built_with_cuda_support() && runtime_cuda_support();
  return answer;
}

}  // namespace funcmesh::mpi
