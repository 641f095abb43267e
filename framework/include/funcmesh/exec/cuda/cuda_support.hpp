// Host-side helpers of the CUDA backend (error checks, device selection, scratch memory,
// launch shape): CUDA runtime calls only, compiled once into the library by the host
// compiler and shared by every CUDA translation unit.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

#include <funcmesh/core/index.hpp>
#include <funcmesh/exec/loop_label.hpp>

namespace funcmesh::exec::cuda_detail {

// Throws device_error naming the kernel (label) and the step that failed.
void check(cudaError_t status, const char* what, const loop_label& label);

// The device the executor names, current for the lifetime of this object.
class device_guard {
 public:
  explicit device_guard(int device);
  ~device_guard();
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int previous_ = 0;
};

// Device memory for one call's partial results, freed on every path.
class device_scratch {
 public:
  device_scratch(std::size_t bytes, const loop_label& label);
  ~device_scratch();
  device_scratch(const device_scratch&) = delete;
  device_scratch& operator=(const device_scratch&) = delete;
  void* get() const { return pointer_; }

 private:
  void* pointer_ = nullptr;
};

// Blocks for a grid-stride loop over `items`.
int block_count(index_t items, int threads_per_block);

}  // namespace funcmesh::exec::cuda_detail
