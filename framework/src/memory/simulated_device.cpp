// The simulated device's memory manager (see simulated_device.hpp).
#include <funcmesh/memory/simulated_device.hpp>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/memory_manager.hpp>

namespace funcmesh {

namespace {

std::mutex counts_mutex;
simulated_copy_counts counts;

void count(long simulated_copy_counts::*field) {
  std::lock_guard guard(counts_mutex);
  ++(counts.*field);
}

class simulated_manager final : public memory_manager {
 public:
  std::string_view name() const noexcept override { return "sim"; }
  int device_count() const override { return simulated_devices; }
  void* allocate(int device, std::size_t bytes) override {
    if (bytes == 0) return nullptr;
    if (bytes > simulated_capacity)
      throw allocation_error(bytes, simulated_space(device),
                             "larger than the simulated device's capacity of " +
                                 std::to_string(simulated_capacity) + " bytes");
    void* pointer = std::malloc(bytes);
    if (pointer == nullptr)
      throw allocation_error(bytes, simulated_space(device), "out of host memory");
    count(&simulated_copy_counts::allocations);
    return pointer;
  }
  void deallocate(int, void* pointer) noexcept override {
    if (pointer == nullptr) return;
    count(&simulated_copy_counts::deallocations);
    std::free(pointer);
  }
  void copy_to_host(int, void* destination, const void* source, std::size_t bytes) override {
    count(&simulated_copy_counts::to_host);
    std::memcpy(destination, source, bytes);
  }
  void copy_from_host(int, void* destination, const void* source, std::size_t bytes) override {
    count(&simulated_copy_counts::from_host);
    std::memcpy(destination, source, bytes);
  }
  void copy_between(int, void* destination, int, const void* source, std::size_t bytes) override {
    count(&simulated_copy_counts::between);
    std::memcpy(destination, source, bytes);
  }
};

}  // namespace

space_kind simulated_kind() {
  static const space_kind kind = register_memory_manager(std::make_unique<simulated_manager>());
  return kind;
}

memory_space simulated_space(int device) {
  return memory_space{simulated_kind(), static_cast<std::int16_t>(device)};
}

simulated_copy_counts simulated_counts() {
  std::lock_guard guard(counts_mutex);
  return counts;
}

void reset_simulated_counts() {
  std::lock_guard guard(counts_mutex);
  counts = {};
}

}  // namespace funcmesh
