// Timing each space's transfers and turning bandwidths into channel counts (see
// bandwidth_probe.hpp).
#include <funcmesh/paged/bandwidth_probe.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>

#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/memory_manager.hpp>

namespace funcmesh {

namespace {

constexpr int max_channels = 1024;

// Memory in `space`, freed at scope exit.
struct space_buffer {
  memory_space space;
  void* pointer = nullptr;
  space_buffer(memory_space s, std::size_t bytes) : space(s) {
    pointer = memory_manager_for(s.kind).allocate(s.device, bytes);
  }
  ~space_buffer() { memory_manager_for(space.kind).deallocate(space.device, pointer); }
  space_buffer(const space_buffer&) = delete;
  space_buffer& operator=(const space_buffer&) = delete;
};

template <class Copy>
double best_seconds(int repeats, Copy&& copy) {
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    copy();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, std::max(took.count(), 1e-9));  // a clock tick, never 0
  }
  return best;
}

}  // namespace

std::vector<space_bandwidth> probe_bandwidth(const std::vector<memory_space>& spaces,
                                             const bandwidth_probe_options& options) {
  if (options.bytes == 0 || options.repeats < 1)
    throw paged_error("probe_bandwidth: " + std::to_string(options.bytes) + " bytes x " +
                      std::to_string(options.repeats) + " repeats; both must be at least 1");
  // The page caches' kind of memory: aligned, not pinned.
  const std::size_t rounded = (options.bytes + 4095) / 4096 * 4096;
  std::unique_ptr<void, decltype(&std::free)> host(std::aligned_alloc(4096, rounded), &std::free);
  if (!host) throw allocation_error(options.bytes, host_space, "out of host memory (probe)");
  std::memset(host.get(), 1, options.bytes);  // touched, so page faults are not timed
  std::vector<space_bandwidth> result;
  for (const memory_space space : spaces) {
    require_space(space);
    space_buffer device(space, options.bytes);
    copy_bytes(space, device.pointer, host_space, host.get(), options.bytes);  // warm-up
    const double up = best_seconds(options.repeats, [&] {
      copy_bytes(space, device.pointer, host_space, host.get(), options.bytes);
    });
    const double down = best_seconds(options.repeats, [&] {
      copy_bytes(host_space, host.get(), space, device.pointer, options.bytes);
    });
    const auto bytes = static_cast<double>(options.bytes);
    result.push_back({space, bytes / up, bytes / down, 2 * bytes / (up + down)});
  }
  return result;
}

std::vector<int> propose_channel_ratios(const std::vector<double>& bandwidths,
                                        int slowest_channels) {
  if (slowest_channels < 1)
    throw paged_error("propose_channel_ratios: the slowest space needs at least 1 channel (got " +
                      std::to_string(slowest_channels) + ")");
  double slowest = std::numeric_limits<double>::infinity();
  for (double b : bandwidths)
    if (b > 0) slowest = std::min(slowest, b);
  std::vector<int> channels;
  for (double b : bandwidths) {
    if (!(b > 0)) {
      channels.push_back(0);
      continue;
    }
    const double share = std::round(slowest_channels * (b / slowest));
    channels.push_back(static_cast<int>(std::clamp(share, 1.0, double{max_channels})));
  }
  return channels;
}

std::vector<space_channels> propose_channels(const std::vector<space_bandwidth>& measured,
                                             int slowest_channels) {
  std::vector<double> bandwidths;
  for (const auto& m : measured) bandwidths.push_back(m.combined);
  const std::vector<int> counts = propose_channel_ratios(bandwidths, slowest_channels);
  std::vector<space_channels> result;
  for (std::size_t s = 0; s < measured.size(); ++s)
    result.push_back({measured[s].space, counts[s]});
  return result;
}

}  // namespace funcmesh
