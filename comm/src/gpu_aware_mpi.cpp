#include <funcmesh/comm/gpu_aware_mpi.hpp>

#include <cstdlib>
#include <string>
#include <string_view>

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/error.hpp>

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
  if (setting != nullptr) {
    const std::string_view text(setting);
    if (text == "0") return false;
    if (text != "1") {
      throw error(rank_prefix() + "FUNCMESH_GPU_AWARE_MPI='" + std::string(text) +
                  "': expected 0 (stage device data through the host) or 1 (send device "
                  "memory when MPI supports it)");
    }
  }
  // Asking for it is not enough: an MPI without support would read device pointers as host
  // memory and crash.
  return built_with_support && runtime_support;
}

}  // namespace detail

bool gpu_aware() {
  // Thread-safe and decided once; a throw (a bad setting) leaves it undecided, to throw
  // again at the next call: the MPI environment and every halo plan's construction ask
  // first, inside their agreed checks, so no exchange ever throws here alone.
  static const bool answer = detail::decide_gpu_aware(
      std::getenv("FUNCMESH_GPU_AWARE_MPI"), built_with_cuda_support(), runtime_cuda_support());
  return answer;
}

}  // namespace funcmesh::mpi
