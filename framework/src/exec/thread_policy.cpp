// The auto-threading settings (process-wide atomics, resolved from funcmesh::settings at first
// use), the per-thread record of the last loop, and PDL's choice of the dimension to split.
#include <funcmesh/core/error.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/exec/thread_policy.hpp>

#include <atomic>
#include <charconv>
#include <limits>
#include <string>
#include <system_error>
#include <thread>

namespace funcmesh::exec {

namespace {

// -1: not resolved yet. A setter that runs first wins, and the environment is never read.
constexpr int unresolved = -1;
std::atomic<int> target_setting{unresolved};
std::atomic<index_t> min_size_setting{unresolved};

thread_local int last_threads = 1;
thread_local int last_dimension = -1;

// Resolves an unresolved setting once: several threads may compute the value at the same
// time, but only the first store lands, and a concurrent setter is never overwritten.
template <class T, class Compute>
T resolve(std::atomic<T>& setting, const Compute& compute) {
  T value = setting.load(std::memory_order_acquire);
  if (value != unresolved) return value;
  T computed = compute();  // may throw: the setting stays unresolved
  if (setting.compare_exchange_strong(value, computed, std::memory_order_acq_rel)) return computed;
  return value;  // someone else resolved or set it first
}

}  // namespace

namespace detail {

int default_threads_target(const char* omp_num_threads) {
  if (omp_num_threads != nullptr) {
    // OpenMP allows spaces around the entries; the first entry is the outermost level.
    std::string_view s(omp_num_threads);
    s = s.substr(0, s.find(','));
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    int value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (!s.empty() && ec == std::errc{} && end == s.data() + s.size() && value > 0) return value;
  }
  const unsigned cpus = std::thread::hardware_concurrency();  // online CPUs; 0 if unknown
  if (cpus == 0) return 1;
  return cpus > static_cast<unsigned>(std::numeric_limits<int>::max())
             ? std::numeric_limits<int>::max()
             : static_cast<int>(cpus);
}

void record_actual_threads(int threads, int split_dimension) noexcept {
  last_threads = threads > 1 ? threads : 1;
  last_dimension = threads > 1 ? split_dimension : -1;
}

}  // namespace detail

int threads_target() {
  return resolve(target_setting, [] {
    const settings& chosen = settings::get();
    if (const std::optional<int> target = chosen.threads_target.value()) return *target;
    const std::optional<std::string>& omp = chosen.omp_num_threads.value();
    return detail::default_threads_target(omp ? omp->c_str() : nullptr);
  });
}

void set_threads_target(int n) {
  if (n < 0) throw error("set_threads_target(" + std::to_string(n) + "): must be >= 0");
  target_setting.store(n, std::memory_order_release);
}

index_t parallel_min_size() {
  return resolve(min_size_setting, [] { return settings::get().parallel_min_size.value(); });
}

void set_parallel_min_size(index_t n) {
  if (n < 0) throw error("set_parallel_min_size(" + std::to_string(n) + "): must be >= 0");
  min_size_setting.store(n, std::memory_order_release);
}

int last_actual_threads() { return last_threads; }

int last_split_dimension() { return last_dimension; }

split_choice choose_split(std::span<const index_t> extents, int target) {
  if (target <= 1 || extents.empty()) return {0, 1};
  const int n = static_cast<int>(extents.size());
  // An empty dimension is "divisible" by anything but gives no work to split.
  for (int d = 0; d < n; ++d) {
    if (extents[static_cast<std::size_t>(d)] > 0 &&
        extents[static_cast<std::size_t>(d)] % target == 0) {
      return {d, target};
    }
  }
  int best = -1;
  index_t best_remainder = -1;
  for (int d = 0; d < n; ++d) {
    const index_t e = extents[static_cast<std::size_t>(d)];
    if (e >= target && e % target > best_remainder) {
      best = d;
      best_remainder = e % target;
    }
  }
  if (best >= 0) return {best, target};
  int longest = 0;
  for (int d = 1; d < n; ++d) {
    if (extents[static_cast<std::size_t>(d)] > extents[static_cast<std::size_t>(longest)])
      longest = d;
  }
  // Shorter than target, so the extent fits an int.
  const index_t e = extents[static_cast<std::size_t>(longest)];
  return {longest, e > 1 ? static_cast<int>(e) : 1};
}

int threads_for(index_t size, bool serial_only) {
  if (serial_only) return 1;
  const int target = threads_target();
  if (target <= 1) return 1;
  const index_t min_size = parallel_min_size();
  if (min_size > 0 && size < min_size) return 1;
  if (size <= 1) return 1;
  return size < target ? static_cast<int>(size) : target;
}

int threads_for(index_t size, bool serial_only, index_t work_per_element) {
  if (size <= 1) return 1;
  const index_t work = work_per_element > 1 ? work_per_element : 1;
  const index_t weighted = size > std::numeric_limits<index_t>::max() / work
                               ? std::numeric_limits<index_t>::max()
                               : size * work;
  const int threads = threads_for(weighted, serial_only);
  return size < threads ? static_cast<int>(size) : threads;
}

scoped_thread_policy::scoped_thread_policy(int target, index_t min_size)
    : saved_target_(threads_target()), saved_min_size_(parallel_min_size()) {
  set_threads_target(target);
  try {
    set_parallel_min_size(min_size);
  } catch (...) {
    set_threads_target(saved_target_);
    throw;
  }
}

scoped_thread_policy::~scoped_thread_policy() {
  target_setting.store(saved_target_, std::memory_order_release);
  min_size_setting.store(saved_min_size_, std::memory_order_release);
}

}  // namespace funcmesh::exec
