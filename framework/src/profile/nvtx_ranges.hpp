// NVTX push and pop: the CUDA toolkit's nvtx3 in CUDA builds (cuda/nvtx_ranges.cpp), calls
// that do nothing elsewhere (no_cuda/nvtx_ranges.cpp); CMake compiles one of the two.
#pragma once

namespace funcmesh::profile::detail {

void nvtx_push(const char* name) noexcept;
void nvtx_pop() noexcept;

}  // namespace funcmesh::profile::detail
