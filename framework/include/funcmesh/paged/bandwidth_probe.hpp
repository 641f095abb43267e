// bandwidth_probe: times copies between the host and each memory space and proposes
// integer channel counts in proportion to the measured bandwidth (the seed's PCIe
// bandwidth benchmarker), ready for a space_store.
#pragma once

#include <cstddef>
#include <vector>

#include <funcmesh/memory/memory_space.hpp>
#include <funcmesh/paged/space_store.hpp>

namespace funcmesh {

struct space_bandwidth {
  memory_space space;
  double to_space = 0;  // bytes per second, host -> space (best of the repeats)
  double to_host = 0;   // space -> host
  double combined = 0;  // both ways: 2 x bytes over the two best times
};

struct bandwidth_probe_options {
  std::size_t bytes = std::size_t{16} << 20;  // per copy; taken from each space for the probe
  int repeats = 3;
};

// One host buffer and one buffer in each space, each direction timed `repeats` times
// through the space's memory_manager. Throws allocation_error when a space has no room
// for the probe's buffer, paged_error for bytes or repeats of 0.
std::vector<space_bandwidth> probe_bandwidth(const std::vector<memory_space>& spaces,
                                             const bandwidth_probe_options& options = {});

// The slowest space (positive bandwidth) gets `slowest_channels`, each other
// round(slowest_channels x its bandwidth / the slowest's), at least 1 and at most 1024;
// a bandwidth that is 0, negative or NaN gets 0 (disabled). Monotone: a faster space
// never gets fewer channels. Throws paged_error when slowest_channels < 1.
std::vector<int> propose_channel_ratios(const std::vector<double>& bandwidths,
                                        int slowest_channels = 2);

// The same from a probe's combined bandwidths, as a space_store's channel list.
std::vector<space_channels> propose_channels(const std::vector<space_bandwidth>& measured,
                                             int slowest_channels = 2);

}  // namespace funcmesh
