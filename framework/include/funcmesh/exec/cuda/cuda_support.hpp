// Host-side helpers of the CUDA backend (error checks, device selection, reusable scratch
// memory, launch shape): CUDA runtime calls only, compiled once into the library by the
// host compiler and shared by every CUDA translation unit.
#pragma once

#include <cstddef>
#include <mutex>

#include <cuda_runtime.h>

#include <funcmesh/core/index.hpp>
#include <funcmesh/core/loop_label.hpp>
#include <funcmesh/memory/cuda/rank_stream.hpp>

namespace funcmesh {
class executor;
}  // namespace funcmesh

namespace funcmesh::exec::cuda_detail {

// Throws device_error naming the kernel (label) and the step that failed.
void check(cudaError_t status, const char* what, const loop_label& label);

// A launch reports its failure through cudaGetLastError, which also returns an error an
// earlier, unrelated call left behind; reading (and so clearing) it right before the
// launch makes the check after it name only the launch.
inline void discard_stale_error() { static_cast<void>(cudaGetLastError()); }

// The device the executor names, current for the lifetime of this object. Only a guard
// that changed the device sets the previous one back: restoring unconditionally would make
// device 0 (every thread's default) current, and so create a context there, on every rank.
class device_guard {
 public:
  explicit device_guard(int device);
  ~device_guard();
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int previous_ = 0;
  bool changed_ = false;
};

// The scratch memory of one reduction on the current device: device_bytes of device memory
// and host_bytes of pinned host memory, both kept per device and grown (never shrunk) on
// demand, so a reduction allocates nothing once the sizes have been seen. The device's
// cache stays locked for the lifetime of this object, so a host thread keeps it until its
// kernels and its copy back are done (it must synchronize before the object goes away);
// reductions from several host threads on one device take turns. The caller has made
// `device` current (device_guard). Throws device_error naming the label on failure.
class reduction_scratch {
 public:
  reduction_scratch(int device, std::size_t device_bytes, std::size_t host_bytes,
                    const loop_label& label);
  ~reduction_scratch() = default;
  reduction_scratch(const reduction_scratch&) = delete;
  reduction_scratch& operator=(const reduction_scratch&) = delete;

  void* device_memory() const { return device_; }
  void* pinned_host_memory() const { return host_; }

 private:
  std::unique_lock<std::mutex> lock_;
  void* device_ = nullptr;
  void* host_ = nullptr;
};

// The rank's stream of a device (memory/cuda/rank_stream.hpp): every launch goes on it,
// after the copies and loops issued before, and returns without waiting.
using funcmesh::detail::rank_stream;
// The executor's stream: the one it was made with, else the rank's stream of its device.
cudaStream_t stream_of(const executor& on);
// The host waits for `stream`; a failure names `why` and the last loop launched.
inline void synchronize(cudaStream_t stream, const loop_label& why) {
  funcmesh::detail::synchronize_stream(stream, why);
}

// Blocks for a grid-stride loop over `items`.
int block_count(index_t items, int threads_per_block);

// Multiprocessors of `device`, for launches sized to the blocks it can hold at once.
int multiprocessor_count(int device, const loop_label& label);

}  // namespace funcmesh::exec::cuda_detail
