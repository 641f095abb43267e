// The device activity counters (device_activity.hpp): one row per profile region (the
// loop's label interned by funcmesh/profile, so FUNCMESH_PROFILE's table finds them by
// name), under one lock: only device loops and copies come here.
#include <funcmesh/profile/device_activity.hpp>

#include <atomic>
#include <mutex>
#include <vector>

#include <funcmesh/profile/hooks.hpp>

#include "start_up.hpp"

namespace funcmesh {

device_activity_counts& device_activity_counts::operator+=(const device_activity_counts& other) {
  launches += other.launches;
  synchronizations += other.synchronizations;
  copies_to_host += other.copies_to_host;
  copies_from_host += other.copies_from_host;
  bytes_to_host += other.bytes_to_host;
  bytes_from_host += other.bytes_from_host;
  return *this;
}

device_activity_counts operator-(device_activity_counts a, const device_activity_counts& b) {
  a.launches -= b.launches;
  a.synchronizations -= b.synchronizations;
  a.copies_to_host -= b.copies_to_host;
  a.copies_from_host -= b.copies_from_host;
  a.bytes_to_host -= b.bytes_to_host;
  a.bytes_from_host -= b.bytes_from_host;
  return a;
}

namespace {

constexpr std::uint32_t no_activity_region = ~std::uint32_t{0};

// Never destroyed: loops may run during static destruction.
struct activity_state {
  std::mutex mutex;
  std::vector<device_activity_counts> by_region;
  std::vector<std::uint32_t> first_seen;  // region ids, in the order they were first counted
  std::atomic<std::uint32_t> last_launched{no_activity_region};
  std::atomic<bool> every_launch{false};
};

activity_state& the_activity() {
  static activity_state* const instance = new activity_state;
  return *instance;
}

thread_local const exec::loop_label* current_activity_label = nullptr;

profile::region activity_region(const exec::loop_label* given) {
  if (given != nullptr) return profile::of(*given);
  if (current_activity_label != nullptr) return profile::of(*current_activity_label);
  return profile::named(outside_any_loop);
}

template <class Change>
void count_activity(const profile::region& where, const Change& change) {
  activity_state& s = the_activity();
  const std::lock_guard lock(s.mutex);
  if (s.by_region.size() <= where.id) s.by_region.resize(where.id + 1);
  device_activity_counts& row = s.by_region[where.id];
  if (row.empty()) s.first_seen.push_back(where.id);
  change(row);
}

}  // namespace

device_activity_counts device_activity() {
  activity_state& s = the_activity();
  const std::lock_guard lock(s.mutex);
  device_activity_counts total;
  for (const device_activity_counts& row : s.by_region) total += row;
  return total;
}

std::vector<device_activity_entry> device_activity_by_label() {
  std::vector<std::uint32_t> ids;
  std::vector<device_activity_counts> rows;
  {
    activity_state& s = the_activity();
    const std::lock_guard lock(s.mutex);
    ids = s.first_seen;
    for (std::uint32_t id : ids) rows.push_back(s.by_region[id]);
  }
  std::vector<device_activity_entry> entries;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (!rows[k].empty()) entries.push_back({profile::detail::region_name(ids[k]), rows[k]});
  }
  return entries;
}

void reset_device_activity() {
  activity_state& s = the_activity();
  const std::lock_guard lock(s.mutex);
  s.by_region.clear();
  s.first_seen.clear();
}

device_activity_scope::device_activity_scope(const exec::loop_label& label)
    : previous_(current_activity_label) {
  current_activity_label = &label;
}

device_activity_scope::~device_activity_scope() { current_activity_label = previous_; }

namespace detail {

void record_launch(const exec::loop_label& label) {
  const profile::region where = profile::of(label);
  const bool every = synchronize_every_launch();
  count_activity(where, [every](device_activity_counts& row) {
    ++row.launches;
    if (every) ++row.synchronizations;
  });
  the_activity().last_launched.store(where.id, std::memory_order_relaxed);
}

void record_synchronization(const exec::loop_label* label) {
  count_activity(activity_region(label),
                 [](device_activity_counts& row) { ++row.synchronizations; });
}

void record_copy(bool to_host, std::uint64_t bytes, bool waits) {
  count_activity(activity_region(nullptr), [&](device_activity_counts& row) {
    if (to_host) {
      ++row.copies_to_host;
      row.bytes_to_host += bytes;
    } else {
      ++row.copies_from_host;
      row.bytes_from_host += bytes;
    }
    if (waits) ++row.synchronizations;  // a copy between host and device waits for the stream
  });
}

std::string last_launched_loop() {
  const std::uint32_t id = the_activity().last_launched.load(std::memory_order_relaxed);
  return id == no_activity_region ? std::string() : profile::detail::region_name(id);
}

void set_synchronize_every_launch_for_testing(bool every) {
  the_activity().every_launch.store(every);
}

bool synchronize_every_launch() {
  return the_activity().every_launch.load(std::memory_order_relaxed);
}

}  // namespace detail

}  // namespace funcmesh
