// device_activity: what the device did, per labelled loop: kernel launches, host
// synchronisations (the host waiting for the device's stream) and copies between host and
// device. Counted for device executors only (CUDA, and the simulated device at the same
// places), always on; FUNCMESH_PROFILE=1 prints them as columns of its table. The waits
// themselves: exec/synchronize.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/core/loop_label.hpp>

namespace funcmesh {

struct device_activity_counts {
  std::uint64_t launches = 0;          // kernels (a loop, a gather, a reduction's passes: 1)
  std::uint64_t synchronizations = 0;  // the host waited for the device
  std::uint64_t copies_to_host = 0;
  std::uint64_t copies_from_host = 0;
  std::uint64_t bytes_to_host = 0;
  std::uint64_t bytes_from_host = 0;

  bool empty() const { return *this == device_activity_counts{}; }
  device_activity_counts& operator+=(const device_activity_counts& other);
  friend device_activity_counts operator-(device_activity_counts a,
                                          const device_activity_counts& b);
  friend bool operator==(const device_activity_counts&, const device_activity_counts&) = default;
};

struct device_activity_entry {
  std::string name;  // the loop's label, or what the host did ("halo exchange", ...)
  device_activity_counts counts;
};

// This process's totals since start (or the last reset), over every label.
device_activity_counts device_activity();
// The same per label, labels with no activity left out, in first-seen order.
std::vector<device_activity_entry> device_activity_by_label();
void reset_device_activity();

// The label under which copies and synchronisations outside any loop are counted (a host
// read of device data between loops, the checkpoint writer's copy, ...).
inline constexpr std::string_view outside_any_loop = "host access to device data";

// Counts the activity below under `label` on this thread for its lifetime (nestable): the
// copies a loop's binding makes, a halo round's staging. Costs a thread-local store.
class device_activity_scope {
 public:
  explicit device_activity_scope(const exec::loop_label& label);
  ~device_activity_scope();
  device_activity_scope(const device_activity_scope&) = delete;
  device_activity_scope& operator=(const device_activity_scope&) = delete;

 private:
  const exec::loop_label* previous_;
};

namespace detail {
// Called by the portable front (exec/dispatch.hpp, exec::synchronize, the memory layer):
// the simulated device and the CUDA backend count at the same places.
void record_launch(const exec::loop_label& label);
void record_synchronization(const exec::loop_label* label = nullptr);
// `waits`: the host waits for the copy (a synchronisation too); an asynchronous copy on
// the side queue (memory/detail/side_queue.hpp) is waited for at its join instead.
void record_copy(bool to_host, std::uint64_t bytes, bool waits = true);
// The last loop launched on a device by this process ("" before the first): what a device
// fault reported at the next synchronisation most likely came from.
std::string last_launched_loop();
// Test switch: the old behaviour, a synchronisation after every launch (the CUDA backend
// waits for each kernel; the simulated device counts it), for before/after counts.
void set_synchronize_every_launch_for_testing(bool every);
bool synchronize_every_launch();
}  // namespace detail

}  // namespace funcmesh
