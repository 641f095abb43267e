#include <funcmesh/exec/cuda/cuda_support.hpp>

#include <string>

#include <funcmesh/memory/memory_error.hpp>

namespace funcmesh::exec::cuda_detail {

void check(cudaError_t status, const char* what, const loop_label& label) {
  if (status == cudaSuccess) return;
  throw device_error("funcmesh: CUDA kernel '" + label.text() + "' failed (" + std::string(what) +
                     "): " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
}

device_guard::device_guard(int device) {
  check(cudaGetDevice(&previous_), "cudaGetDevice", loop_label{"device selection"});
  if (previous_ != device)
    check(cudaSetDevice(device), "cudaSetDevice", loop_label{"device selection"});
}

device_guard::~device_guard() { cudaSetDevice(previous_); }

device_scratch::device_scratch(std::size_t bytes, const loop_label& label) {
  check(cudaMalloc(&pointer_, bytes), "allocation of scratch memory", label);
}

device_scratch::~device_scratch() { cudaFree(pointer_); }

int block_count(index_t items, int threads_per_block) {
  // The grid-stride loop covers the rest; this many blocks keep an H100/H200 busy.
  constexpr index_t max_blocks = 65536;
  const index_t blocks = (items + threads_per_block - 1) / threads_per_block;
  return static_cast<int>(blocks < max_blocks ? blocks : max_blocks);
}

}  // namespace funcmesh::exec::cuda_detail
