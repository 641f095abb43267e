#include <funcmesh/exec/cuda/cuda_support.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_error.hpp>

namespace funcmesh::exec::cuda_detail {

void check(cudaError_t status, const char* what, const loop_label& label) {
  if (status == cudaSuccess) return;
  throw device_error("funcmesh::for_each (cuda): CUDA kernel '" + label.text() + "' failed (" +
                     std::string(what) + "): " + cudaGetErrorName(status) + ": " +
                     cudaGetErrorString(status));
}

device_guard::device_guard(int device) {
  check(cudaGetDevice(&previous_), "cudaGetDevice", loop_label{"device selection"});
  if (previous_ != device) {
    check(cudaSetDevice(device), "cudaSetDevice", loop_label{"device selection"});
    changed_ = true;
  }
}

device_guard::~device_guard() {
  if (changed_) cudaSetDevice(previous_);
}

namespace {

// One device's reduction scratch; `mutex` guards the rest and is held while it is in use.
struct device_cache {
  std::mutex mutex;
  void* device_memory = nullptr;
  std::size_t device_bytes = 0;
  void* host_memory = nullptr;
  std::size_t host_bytes = 0;
};

// The caches of every device a reduction ran on. Entries are never removed, so a
// reference stays valid after the registry's lock is released.
class scratch_registry {
 public:
  device_cache& of(int device) {
    std::lock_guard guard(mutex_);
    auto& cache = caches_[device];
    if (!cache) cache = std::make_unique<device_cache>();
    return *cache;
  }

  // Constructed after the CUDA runtime (a reduction ran first), so destroyed before its
  // teardown: the memory can still be freed. Errors at exit cannot be acted on.
  ~scratch_registry() {
    for (auto& [device, cache] : caches_) {
      if (cache->device_memory != nullptr && cudaSetDevice(device) == cudaSuccess)
        cudaFree(cache->device_memory);
      if (cache->host_memory != nullptr) cudaFreeHost(cache->host_memory);
    }
  }

 private:
  std::mutex mutex_;
  std::map<int, std::unique_ptr<device_cache>> caches_;
};

scratch_registry& registry() {
  static scratch_registry instance;
  return instance;
}

// Doubling at least, so a sequence of slightly larger requests reallocates rarely.
std::size_t grown(std::size_t held, std::size_t wanted) { return std::max(wanted, 2 * held); }

void fail(cudaError_t status, const char* what, const loop_label& label) {
  static_cast<void>(cudaGetLastError());  // an allocation failure must not look like a launch's
  check(status, what, label);
}

}  // namespace

reduction_scratch::reduction_scratch(int device, std::size_t device_bytes, std::size_t host_bytes,
                                     const loop_label& label) {
  device_cache& cache = registry().of(device);
  lock_ = std::unique_lock(cache.mutex);
  // The old memory is idle: whoever used it synchronized before releasing the lock.
  if (cache.device_bytes < device_bytes) {
    const std::size_t bytes = grown(cache.device_bytes, device_bytes);
    cudaFree(cache.device_memory);
    cache.device_memory = nullptr;
    cache.device_bytes = 0;
    const cudaError_t status = cudaMalloc(&cache.device_memory, bytes);
    if (status != cudaSuccess) {
      cache.device_memory = nullptr;
      fail(status, "allocation of scratch memory", label);
    }
    cache.device_bytes = bytes;
  }
  if (cache.host_bytes < host_bytes) {
    const std::size_t bytes = grown(cache.host_bytes, host_bytes);
    cudaFreeHost(cache.host_memory);
    cache.host_memory = nullptr;
    cache.host_bytes = 0;
    // Portable: pinned for every context, whichever device the copy comes from.
    const cudaError_t status = cudaHostAlloc(&cache.host_memory, bytes, cudaHostAllocPortable);
    if (status != cudaSuccess) {
      cache.host_memory = nullptr;
      fail(status, "allocation of pinned host memory for the result", label);
    }
    cache.host_bytes = bytes;
  }
  device_ = cache.device_memory;
  host_ = cache.host_memory;
}

int block_count(index_t items, int threads_per_block) {
  // The grid-stride loop covers the rest; this many blocks keep an H100/H200 busy.
  constexpr index_t max_blocks = 65536;
  const index_t blocks = (items + threads_per_block - 1) / threads_per_block;
  return static_cast<int>(blocks < max_blocks ? blocks : max_blocks);
}

int multiprocessor_count(int device, const loop_label& label) {
  int count = 0;
  check(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device),
        "cudaDeviceGetAttribute (multiprocessors)", label);
  return count;
}

}  // namespace funcmesh::exec::cuda_detail
