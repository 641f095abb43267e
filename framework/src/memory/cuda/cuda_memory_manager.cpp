// The CUDA memory manager: cudaMalloc/cudaMemcpy through the runtime API. Compiled by
// the host compiler (it launches no kernel), so only kernel code ever needs nvcc.
#include <funcmesh/core/error.hpp>
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
    cudaFree(pointer);  // errors at exit (driver unloading) cannot be acted on
    if (known && previous != device) cudaSetDevice(previous);
  }
  // The manager promises synchronous copies. Device to host, cudaMemcpy already is; it
  // returns before a device-to-device copy, or the DMA of a pageable host-to-device
  // copy, has finished, so those wait for the legacy default stream they ran on.
  void copy_to_host(int device, void* destination, const void* source, std::size_t bytes) override {
    device_scope scope(device);
    device_scope::check(cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToHost), device,
                        "cudaMemcpy (device to host)");
  }
  void copy_from_host(int device, void* destination, const void* source,
                      std::size_t bytes) override {
    device_scope scope(device);
    device_scope::check(cudaMemcpy(destination, source, bytes, cudaMemcpyHostToDevice), device,
                        "cudaMemcpy (host to device)");
    device_scope::check(cudaStreamSynchronize(cudaStreamLegacy), device, "cudaStreamSynchronize");
  }
  void copy_between(int destination_device, void* destination, int source_device,
                    const void* source, std::size_t bytes) override {
    device_scope scope(destination_device);
    if (destination_device == source_device) {
      device_scope::check(cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToDevice),
                          destination_device, "cudaMemcpy (device to device)");
    } else {
      // Direct over NVLink/PCIe where the devices can reach each other; the driver
      // stages through its own memory only where they cannot.
      enable_peer_access(destination_device, source_device);
      device_scope::check(
          cudaMemcpyPeer(destination, destination_device, source, source_device, bytes),
          destination_device, "cudaMemcpyPeer");
    }
    device_scope::check(cudaStreamSynchronize(cudaStreamLegacy), destination_device,
                        "cudaStreamSynchronize");
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
