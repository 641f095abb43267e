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

bool built_with_cuda_support() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return true;
#else
  return false;
#endif
}

bool runtime_cuda_support() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
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
  static const bool answer = detail::decide_gpu_aware(
      std::getenv("FUNCMESH_GPU_AWARE_MPI"), built_with_cuda_support(), runtime_cuda_support());
  return answer;
}

}  // namespace funcmesh::mpi
