// The CUDA memory manager: cudaMalloc/cudaMemcpy through the runtime API. Compiled by
// the host compiler (it launches no kernel), so only kernel code ever needs nvcc.
#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/cuda/rank_stream.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/memory_manager.hpp>

#include <cuda_runtime_api.h>

#include <mutex>
#include <set>
#include <string>
#include <utility>

namespace funcmesh::detail {

namespace {

std::string describe(cudaError_t status) {
  return std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
}

// Makes `device` current for the scope and, only if that changed the device, restores the
// caller's afterwards: restoring unconditionally would make device 0 (every thread's
// default) current, and so create a context there, on every rank.
class device_scope {
 public:
  explicit device_scope(int device) {
    // A caller's device that cannot be read is not restored (there is none to go back to).
    const bool known = cudaGetDevice(&previous_) == cudaSuccess;
    if (!known || previous_ != device) {
      check(cudaSetDevice(device), device, "cudaSetDevice");
      changed_ = known;
    }
  }
  ~device_scope() {
    if (changed_) cudaSetDevice(previous_);
  }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

  static void check(cudaError_t status, int device, const char* call) {
    if (status != cudaSuccess)
      throw device_error(std::string(call) + " on cuda:" + std::to_string(device) +
                         " failed: " + describe(status));
  }

 private:
  int previous_ = 0;
  bool changed_ = false;
};

class cuda_memory_manager final : public memory_manager {
 public:
  std::string_view name() const noexcept override { return "cuda"; }

  int device_count() const override {
    probe();
    return count_;
  }
  std::string absence_reason() const override {
    probe();
    return reason_;
  }

  void* allocate(int device, std::size_t bytes) override {
    if (bytes == 0) return nullptr;
    device_scope scope(device);
    void* pointer = nullptr;
    const cudaError_t status = cudaMalloc(&pointer, bytes);
    if (status != cudaSuccess) {
      cudaGetLastError();  // clear the sticky-free error so later calls work
      std::size_t free_bytes = 0, total_bytes = 0;
      std::string usage;
      if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
        usage = " (" + std::to_string(free_bytes) + " of " + std::to_string(total_bytes) +
                " bytes free)";
      throw allocation_error(bytes, cuda_space(device), describe(status) + usage);
    }
    return pointer;
  }
  void deallocate(int device, void* pointer) noexcept override {
    if (pointer == nullptr) return;
    int previous = 0;
    const bool known = cudaGetDevice(&previous) == cudaSuccess;
    if (!known || previous != device) cudaSetDevice(device);
    // Loops on the rank's stream, and halo staging copies on its second stream, may still
    // read the memory (launches do not wait): they finish first. Errors at exit (driver
    // unloading) cannot be acted on.
    try {
      cudaStreamSynchronize(rank_stream(device));
      if (const cudaStream_t side = existing_side_stream(device)) cudaStreamSynchronize(side);
    } catch (...) {
    }
    cudaFree(pointer);
    if (known && previous != device) cudaSetDevice(previous);
  }
  static void copy_on_stream(int device, void* destination, const void* source, std::size_t bytes,
                             cudaMemcpyKind kind, const char* what) {
    device_scope scope(device);
    const cudaStream_t stream = rank_stream(device);
    device_scope::check(cudaMemcpyAsync(destination, source, bytes, kind, stream), device,
                        "cudaMemcpyAsync");
    synchronize_stream(stream, exec::loop_label{what});
  }
  // The manager promises synchronous copies. Each goes on the rank's stream, after the
  // loops issued there (which may still be running: launches do not wait), and the host
  // waits for it: the bytes are where they were asked to be, and a kernel's fault surfaces
  // here, naming the last loop launched.
  void copy_to_host(int device, void* destination, const void* source, std::size_t bytes) override {
    copy_on_stream(device, destination, source, bytes, cudaMemcpyDeviceToHost,
                   "copy of device data to the host");
  }
  void copy_from_host(int device, void* destination, const void* source,
                      std::size_t bytes) override {
    copy_on_stream(device, destination, source, bytes, cudaMemcpyHostToDevice,
                   "copy of host data to the device");
  }
  void copy_between(int destination_device, void* destination, int source_device,
                    const void* source, std::size_t bytes) override {
    if (destination_device == source_device) {
      copy_on_stream(destination_device, destination, source, bytes, cudaMemcpyDeviceToDevice,
                     "copy between device buffers");
      return;
    }
    device_scope scope(destination_device);
    // Direct over NVLink/PCIe where the devices can reach each other; the driver stages
    // through its own memory only where they cannot. The source device's stream first: its
    // loops may still be writing the source.
    const exec::loop_label label{"copy between devices"};
    synchronize_stream(rank_stream(source_device), label);
    enable_peer_access(destination_device, source_device);
    const cudaStream_t stream = rank_stream(destination_device);
    device_scope::check(
        cudaMemcpyPeerAsync(destination, destination_device, source, source_device, bytes, stream),
        destination_device, "cudaMemcpyPeerAsync");
    synchronize_stream(stream, label);
  }
  void* fork_side_queue(int device, void* after) override {
    device_scope scope(device);
    return fork_side_stream(device, static_cast<cudaStream_t>(after));
  }
  void copy_to_host_on(void* queue, int device, void* destination, const void* source,
                       std::size_t bytes) override {
    if (queue == nullptr) {
      copy_to_host(device, destination, source, bytes);
      return;
    }
    device_scope scope(device);
    device_scope::check(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToHost,
                                        static_cast<cudaStream_t>(queue)),
                        device, "cudaMemcpyAsync (side stream)");
  }
  void join_side_queue(int device, void* queue, const char* why) override {
    if (queue == nullptr) return;
    device_scope scope(device);
    synchronize_stream(static_cast<cudaStream_t>(queue), exec::loop_label{why});
  }
  std::size_t free_bytes(int device) const override {
    device_scope scope(device);
    std::size_t available = 0, total = 0;
    device_scope::check(cudaMemGetInfo(&available, &total), device, "cudaMemGetInfo");
    return available;
  }
  void select_device(int device) override {
    const cudaError_t status = cudaSetDevice(device);
    if (status != cudaSuccess) {
      cudaGetLastError();  // a failed selection must not look like a later launch's failure
      throw device_error("funcmesh::select_device: cannot make cuda:" + std::to_string(device) +
                         " current (cudaSetDevice): " + describe(status));
    }
  }
  void* allocate_pinned_host(std::size_t bytes) override {
    void* pointer = nullptr;
    if (cudaHostAlloc(&pointer, bytes, cudaHostAllocPortable) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;  // the registry falls back to mlock'ed pages
    }
    return pointer;
  }
  void deallocate_pinned_host(void* pointer) noexcept override { cudaFreeHost(pointer); }

 private:
  // Once per pair: lets `destination` read `source`'s memory directly.
  void enable_peer_access(int destination, int source) {
    std::lock_guard guard(peer_mutex_);
    if (!peers_enabled_.insert({destination, source}).second) return;
    int possible = 0;
    if (cudaDeviceCanAccessPeer(&possible, destination, source) != cudaSuccess || !possible) {
      cudaGetLastError();
      return;
    }
    const cudaError_t status = cudaDeviceEnablePeerAccess(source, 0);  // current: destination
    if (status != cudaSuccess && status != cudaErrorPeerAccessAlreadyEnabled)
      device_scope::check(status, destination, "cudaDeviceEnablePeerAccess");
    cudaGetLastError();
  }

  void probe() const {
    std::call_once(probed_, [this] {
      int count = 0;
      const cudaError_t status = cudaGetDeviceCount(&count);
      if (status != cudaSuccess) {
        cudaGetLastError();
        count_ = 0;
        reason_ = "cudaGetDeviceCount: " + describe(status);
      } else {
        count_ = count;
        if (count == 0) reason_ = "cudaGetDeviceCount reports 0 devices";
      }
    });
  }
  std::mutex peer_mutex_;
  std::set<std::pair<int, int>> peers_enabled_;
  mutable std::once_flag probed_;
  mutable int count_ = 0;
  mutable std::string reason_;
};

}  // namespace

std::unique_ptr<memory_manager> make_cuda_memory_manager() {
  return std::make_unique<cuda_memory_manager>();
}

}  // namespace funcmesh::detail
