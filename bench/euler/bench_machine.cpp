#include "bench_machine.hpp"

#include <cstdio>

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

}  // namespace euler_bench
