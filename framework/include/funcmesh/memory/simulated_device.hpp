// A simulated device kind ("sim"): host memory behind the memory_manager interface,
// with a capacity per device and counters of every copy. It lets code that moves data
// between spaces (and its tests) run, and be checked, on machines without a GPU.
#pragma once

#include <cstddef>

#include <funcmesh/memory/memory_space.hpp>

namespace funcmesh {

struct simulated_copy_counts {
  long to_host = 0;
  long from_host = 0;
  long between = 0;  // device to device (same or different device)
  long allocations = 0;
  long deallocations = 0;
};

inline constexpr int simulated_devices = 2;
inline constexpr std::size_t simulated_capacity = std::size_t{1} << 30;  // bytes per device

// The "sim" kind, registered on first call (thread-safe; later calls return the same).
space_kind simulated_kind();
memory_space simulated_space(int device = 0);

// Copy counters of every simulated device together, since the last reset.
simulated_copy_counts simulated_counts();
void reset_simulated_counts();

}  // namespace funcmesh
