// The simulated device's memory manager (see simulated_device.hpp).
#include <funcmesh/memory/simulated_device.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/memory_manager.hpp>

namespace funcmesh {

namespace {

// A copy issued on the side queue, made when the queue is joined: the latest moment a
// real stream may make it. Code that hands the bytes on before joining reads the poison
// copy_to_host_on leaves there, and the tests on the simulated device see it.
struct pending_copy {
  void* destination;
  const void* source;
  std::size_t bytes;
};

struct device_state {
  std::size_t capacity = simulated_default_capacity;
  std::size_t allocated = 0;
  simulated_copy_counts counts;
  std::vector<pending_copy> side_queue;
};

// One lock for counters and accounting: the simulated device exists for tests, where
// simplicity beats contention.
struct simulated_state {
  std::mutex mutex;
  std::array<device_state, simulated_devices> devices;
  std::unordered_map<const void*, std::size_t> sizes;  // live allocations
};

simulated_state& state() {
  static simulated_state* instance = new simulated_state;  // outlives static buffers
  return *instance;
}

device_state& device_at(int device) {
  if (device < 0 || device >= simulated_devices)
    throw device_error("simulated device " + std::to_string(device) + " does not exist (" +
                       std::to_string(simulated_devices) + " devices, numbered from 0)");
  return state().devices[static_cast<std::size_t>(device)];
}

// Makes the copies pending on `d`'s side queue whose source lies in [first, first +
// bytes) (all of them by default). Call with the state locked.
void flush_side_queue(device_state& d, const void* first = nullptr,
                      std::size_t bytes = static_cast<std::size_t>(-1)) {
  const auto begin = reinterpret_cast<std::uintptr_t>(first);
  std::erase_if(d.side_queue, [&](const pending_copy& c) {
    const auto at = reinterpret_cast<std::uintptr_t>(c.source);
    if (at < begin || at - begin >= bytes) return false;
    std::memcpy(c.destination, c.source, c.bytes);
    return true;
  });
}

void count(int device, long simulated_copy_counts::*field,
           std::size_t simulated_copy_counts::*bytes_field, std::size_t bytes) {
  std::lock_guard guard(state().mutex);
  auto& counts = device_at(device).counts;
  ++(counts.*field);
  counts.*bytes_field += bytes;
}

class simulated_manager final : public memory_manager {
 public:
  std::string_view name() const noexcept override { return "sim"; }
  int device_count() const override { return simulated_devices; }
  void* allocate(int device, std::size_t bytes) override {
    if (bytes == 0) return nullptr;
    {
      std::lock_guard guard(state().mutex);
      device_state& d = device_at(device);
      if (bytes > d.capacity || d.allocated > d.capacity - bytes)
        throw allocation_error(bytes, simulated_space(device),
                               "more than the simulated device's capacity of " +
                                   std::to_string(d.capacity) + " bytes allows (" +
                                   std::to_string(d.allocated) + " bytes in use)");
      d.allocated += bytes;  // reserved before malloc, returned if it fails
    }
    void* pointer = std::malloc(bytes);
    std::lock_guard guard(state().mutex);
    device_state& d = device_at(device);
    if (pointer == nullptr) {
      d.allocated -= bytes;
      throw allocation_error(bytes, simulated_space(device), "out of host memory");
    }
    state().sizes.emplace(pointer, bytes);
    ++d.counts.allocations;
    return pointer;
  }
  void deallocate(int device, void* pointer) noexcept override {
    if (pointer == nullptr) return;
    {
      std::lock_guard guard(state().mutex);
      auto& devices = state().devices;
      if (device >= 0 && device < simulated_devices) {
        device_state& d = devices[static_cast<std::size_t>(device)];
        if (auto it = state().sizes.find(pointer); it != state().sizes.end()) {
          // The copies still to read this memory are made first, as the CUDA manager waits
          // for its streams; the others stay pending (and poisoned) until their join.
          flush_side_queue(d, pointer, it->second);
          d.allocated -= it->second;
          state().sizes.erase(it);
        }
        ++d.counts.deallocations;
      }
    }
    std::free(pointer);
  }
  void copy_to_host(int device, void* destination, const void* source, std::size_t bytes) override {
    count(device, &simulated_copy_counts::to_host, &simulated_copy_counts::bytes_to_host, bytes);
    std::memcpy(destination, source, bytes);
  }
  void copy_from_host(int device, void* destination, const void* source,
                      std::size_t bytes) override {
    count(device, &simulated_copy_counts::from_host, &simulated_copy_counts::bytes_from_host,
          bytes);
    std::memcpy(destination, source, bytes);
  }
  void copy_between(int destination_device, void* destination, int, const void* source,
                    std::size_t bytes) override {
    count(destination_device, &simulated_copy_counts::between,
          &simulated_copy_counts::bytes_between, bytes);
    std::memcpy(destination, source, bytes);
  }
  // The side queue's handle is the device's state; its copies wait for the join.
  void* fork_side_queue(int device, void*) override {
    std::lock_guard guard(state().mutex);
    return &device_at(device);
  }
  void copy_to_host_on(void* queue, int device, void* destination, const void* source,
                       std::size_t bytes) override {
    if (queue == nullptr) {
      copy_to_host(device, destination, source, bytes);
      return;
    }
    count(device, &simulated_copy_counts::to_host, &simulated_copy_counts::bytes_to_host, bytes);
    std::memset(destination, 0xff, bytes);  // NaN for floating point until the join
    std::lock_guard guard(state().mutex);
    static_cast<device_state*>(queue)->side_queue.push_back({destination, source, bytes});
  }
  void join_side_queue(int device, void* queue, const char*) override {
    if (queue == nullptr) return;
    std::lock_guard guard(state().mutex);
    device_at(device);  // throws for a device that does not exist
    flush_side_queue(*static_cast<device_state*>(queue));
  }
  std::size_t free_bytes(int device) const override {
    std::lock_guard guard(state().mutex);
    const device_state& d = device_at(device);
    return d.allocated >= d.capacity ? 0 : d.capacity - d.allocated;
  }
};

void add(simulated_copy_counts& total, const simulated_copy_counts& part) {
  total.to_host += part.to_host;
  total.from_host += part.from_host;
  total.between += part.between;
  total.allocations += part.allocations;
  total.deallocations += part.deallocations;
  total.bytes_to_host += part.bytes_to_host;
  total.bytes_from_host += part.bytes_from_host;
  total.bytes_between += part.bytes_between;
}

}  // namespace

space_kind simulated_kind() {
  static const space_kind kind = register_memory_manager(std::make_unique<simulated_manager>());
  return kind;
}

memory_space simulated_space(int device) {
  return memory_space{simulated_kind(), static_cast<std::int16_t>(device)};
}

void set_simulated_capacity(int device, std::size_t bytes) {
  std::lock_guard guard(state().mutex);
  device_at(device).capacity = bytes;
}

std::size_t simulated_capacity(int device) {
  std::lock_guard guard(state().mutex);
  return device_at(device).capacity;
}

std::size_t simulated_allocated_bytes(int device) {
  std::lock_guard guard(state().mutex);
  return device_at(device).allocated;
}

simulated_copy_counts simulated_counts() {
  std::lock_guard guard(state().mutex);
  simulated_copy_counts total;
  for (const auto& d : state().devices) add(total, d.counts);
  return total;
}

simulated_copy_counts simulated_counts(int device) {
  std::lock_guard guard(state().mutex);
  return device_at(device).counts;
}

void reset_simulated_counts() {
  std::lock_guard guard(state().mutex);
  for (auto& d : state().devices) d.counts = {};
}

}  // namespace funcmesh
