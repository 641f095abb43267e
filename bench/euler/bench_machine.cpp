#include "bench_machine.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <funcmesh/faces/detail/freed_memory.hpp>

namespace euler_bench {

const char* instruction_set() {
#if defined(__AVX512F__)
  return "AVX-512";
#elif defined(__AVX2__)
  return "AVX2";
#elif defined(__AVX__)
  return "AVX";
#elif defined(__SSE2__)
  return "SSE2";
#else
  return "the compiler's default";
#endif
}

void forget_earlier_phases() {
  funcmesh::detail::return_freed_memory();  // the set-up's own step (malloc_trim)
  if (std::FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
    std::fputs("5", f);
    std::fclose(f);
  }
}

std::string mib(std::int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return bytes < 0 ? std::string("n/a") : std::string(text);
}

void print_goal(const goal_row& g) {
  char value[32];
  if (g.measured) {
    std::snprintf(value, sizeof value, g.format, g.value);
  } else {
    std::snprintf(value, sizeof value, "n/a");
  }
  char target[32];
  std::snprintf(target, sizeof target, "%g", g.target);
  std::printf("%s %s  (goal <= %s: %s%s%s)\n", g.name, value, target,
              !g.measured ? "SKIP" : (g.value <= g.target ? "PASS" : "MISS"),
              g.note.empty() ? "" : "; ", g.note.c_str());
}

widened_affinity::widened_affinity() {
#if defined(__linux__)
  cpu_set_t all;
  CPU_ZERO(&all);
  for (int c = 0; c < CPU_SETSIZE; ++c) CPU_SET(c, &all);
  std::error_code code;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", code)) {
    const auto tid = static_cast<pid_t>(std::atoi(task.path().filename().c_str()));
    cpu_set_t mask;
    if (tid <= 0 || sched_getaffinity(tid, sizeof mask, &mask) != 0) continue;
    if (sched_setaffinity(tid, sizeof all, &all) == 0) saved_.emplace_back(tid, mask);
  }
  // The main thread (tid == pid) first: its mask is the one new threads get back.
  std::stable_partition(saved_.begin(), saved_.end(),
                        [](const auto& entry) { return entry.first == ::getpid(); });
#endif
}

// Restores the threads that still exist; threads started inside the scope (an OpenMP team
// grown for "2 threads") get the main thread's mask, so later sections run as mpirun
// placed the rank.
widened_affinity::~widened_affinity() {
#if defined(__linux__)
  if (saved_.empty()) return;
  const cpu_set_t main_mask = saved_.front().second;  // the main thread's (sorted first)
  std::error_code code;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", code)) {
    const auto tid = static_cast<pid_t>(std::atoi(task.path().filename().c_str()));
    if (tid <= 0) continue;
    const cpu_set_t* mask = &main_mask;
    for (const auto& [saved_tid, saved_mask] : saved_) {
      if (saved_tid == tid) mask = &saved_mask;
    }
    sched_setaffinity(tid, sizeof *mask, mask);
  }
#endif
}

int widened_affinity::cpus() {
#if defined(__linux__)
  cpu_set_t now;
  if (sched_getaffinity(0, sizeof now, &now) == 0) return CPU_COUNT(&now);
#endif
  return 0;
}

}  // namespace euler_bench
