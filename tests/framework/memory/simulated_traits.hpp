// Traits of the simulated device for the shared coherence suite: device data is host
// memory, so increment and download are plain loops.
#pragma once

#include <cstdlib>
#include <vector>

#include <funcmesh/memory/simulated_device.hpp>

namespace funcmesh::testing {

struct simulated_traits {
  static constexpr bool counts_copies = true;
  static const char* name() { return "simulated"; }
  static int device_count() { return simulated_devices; }
  static memory_space space(int device = 0) { return simulated_space(device); }
  static void increment(memory_space, int* data, index_t size) {
    for (index_t i = 0; i < size; ++i) ++data[i];
  }
  static std::vector<int> download(memory_space, const int* data, index_t size) {
    return std::vector<int>(data, data + size);
  }
  static void* raw_allocate(memory_space, std::size_t bytes) { return std::malloc(bytes); }
  static void raw_free(memory_space, void* pointer) { std::free(pointer); }
};

}  // namespace funcmesh::testing
