// A simulated device kind ("sim"): host memory behind the memory_manager interface, with
// a capacity per device (over all live allocations) and counters of every copy, so code
// that moves data between spaces (and its tests) runs and is checked without a GPU.
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
  std::size_t bytes_to_host = 0;
  std::size_t bytes_from_host = 0;
  std::size_t bytes_between = 0;
};

inline constexpr int simulated_devices = 2;
// Each device's capacity until set_simulated_capacity changes it.
inline constexpr std::size_t simulated_default_capacity = std::size_t{1} << 30;

// The "sim" kind, registered on first call (thread-safe; later calls return the same).
space_kind simulated_kind();
memory_space simulated_space(int device = 0);

// A device's capacity in bytes: an allocation fails (allocation_error) when the bytes
// allocated there would exceed it, so "no room" and "a small device" can be tested.
// Lowering it below what is allocated keeps the memory and refuses new allocations until
// enough is freed. Throws device_error for a device outside [0, simulated_devices).
void set_simulated_capacity(int device, std::size_t bytes);
std::size_t simulated_capacity(int device);
// Bytes allocated on the device now.
std::size_t simulated_allocated_bytes(int device);

// Copy counters since the last reset: of every simulated device together, or of one
// (a copy between devices counts on its destination device).
simulated_copy_counts simulated_counts();
simulated_copy_counts simulated_counts(int device);
void reset_simulated_counts();

}  // namespace funcmesh
