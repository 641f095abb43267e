// Shared plumbing of the expression benchmarks: flags (--reps, --size, --threads, --help,
// through funcmesh::app::program), a timer, medians, and the care a shared noisy machine
// needs: every sample starts from the same OpenMP state, and a note says when other
// processes competed for the CPUs.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <time.h>
#include <unistd.h>

#include <funcmesh/app/program.hpp>

namespace funcmesh::bench {

struct options {
  int reps = 0;           // timed repetitions of every variant (0: the benchmark's default)
  std::int64_t size = 0;  // elements per array (0: the benchmark's default)
  int threads = 0;        // OpenMP threads (0: the benchmark's default)
};

// Accepts integers written as 16777216, 1.6e7 or 2^24. Returns false on anything else.
inline bool parse_count(const char* text, std::int64_t& value) {
  char* end = nullptr;
  if (const char* caret = std::strchr(text, '^')) {
    const long base = std::strtol(text, &end, 10);
    if (end != caret) return false;
    const long exponent = std::strtol(caret + 1, &end, 10);
    if (*end != '\0' || base < 2 || exponent < 0 || exponent > 62) return false;
    const double v = std::pow(static_cast<double>(base), static_cast<double>(exponent));
    if (v > 9e18) return false;
    value = static_cast<std::int64_t>(v);
    return true;
  }
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= 0) || v > 9e18 || v != std::floor(v)) return false;
  value = static_cast<std::int64_t>(v);
  return true;
}

// A CLI11 transform for counts in parse_count's forms, from `low` to `high`.
inline CLI::Validator count_from(std::int64_t low, std::int64_t high) {
  return CLI::Validator(
      [low, high](std::string& text) -> std::string {
        std::int64_t n = 0;
        if (!parse_count(text.c_str(), n) || n < low || n > high) {
          return "'" + text + "' is not a count from " + std::to_string(low) + " to " +
                 std::to_string(high) + " (16777216, 1.6e7 and 2^24 all work)";
        }
        text = std::to_string(n);
        return {};
      },
      "COUNT");
}

// Parses the flags every expression benchmark takes (funcmesh::app::program: --x v and
// --x=v). Returns -1 to go on, otherwise the exit status (0 after --help, 2 after a bad
// flag, said in one line). `what` is the --help text.
inline int parse_options(int argc, char** argv, const char* what, options& out) {
  const std::string path = argv[0];
  funcmesh::app::program args(path.substr(path.find_last_of('/') + 1), what);
  constexpr std::int64_t largest = 9'000'000'000'000'000'000;
  args.option("reps", out.reps, "timed repetitions of every variant")
      ->transform(count_from(1, 100000));
  args.option("size", out.size, "elements per array (16777216, 1.6e7 and 2^24 all work)")
      ->transform(count_from(1, largest));
  args.option("threads", out.threads, "OpenMP threads")->transform(count_from(1, 100000));
  return args.parse_or_exit_code(argc, argv).value_or(-1);
}

// Watches the other processes on the machine (the machines are shared): CPU time spent by
// everyone (/proc/stat) minus this process's own, per second of wall time. Threads that
// wait for a time slice make threaded timings say more about the neighbours than about
// the code, so the benchmarks print a note when neighbours were busy.
class neighbour_monitor {
 public:
  neighbour_monitor() { read(start_); }

  // Average CPUs the other processes kept busy since construction (or the last restart);
  // -1 where /proc/stat cannot be read.
  double other_cpus() const {
    sample now;
    if (!start_.valid || !read(now) || now.wall <= start_.wall) return -1;
    const double everyone = (now.busy_ticks - start_.busy_ticks) / ticks_per_second();
    const double own = now.own_seconds - start_.own_seconds;
    return std::max(0.0, (everyone - own) / (now.wall - start_.wall));
  }
  void restart() { read(start_); }

  // Prints a note (and returns true) when others used more than `threshold` CPUs.
  bool note_if_busy(const char* when, double threshold = 0.15) const {
    const double others = other_cpus();
    if (others <= threshold) return false;
    std::printf(
        "note: other processes kept %.2f of %u CPUs busy %s: threaded timings are "
        "pessimistic; rerun on a quiet machine\n",
        others, std::thread::hardware_concurrency(), when);
    return true;
  }

 private:
  struct sample {
    bool valid = false;
    double busy_ticks = 0;   // all CPUs: not idle, not waiting for I/O
    double own_seconds = 0;  // this process, all threads
    double wall = 0;
  };
  static double ticks_per_second() { return static_cast<double>(sysconf(_SC_CLK_TCK)); }
  static bool read(sample& out) {
    std::ifstream stat("/proc/stat");
    std::string cpu;
    double field[8] = {};  // user nice system idle iowait irq softirq steal
    if (!(stat >> cpu) || cpu != "cpu") return false;
    for (double& f : field)
      if (!(stat >> f)) return false;
    double total = 0;
    for (double f : field) total += f;
    timespec own{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &own);
    out.busy_ticks = total - field[3] - field[4];
    out.own_seconds = static_cast<double>(own.tv_sec) + 1e-9 * static_cast<double>(own.tv_nsec);
    out.wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    out.valid = true;
    return true;
  }
  sample start_;
};

// Samples the neighbours for a quarter of a second before any timing starts.
inline void warn_if_busy() {
  neighbour_monitor monitor;
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  monitor.note_if_busy("just before the start");
}

using bench_clock = std::chrono::steady_clock;

// Called before every sample, so that each variant starts in the state it has in real use.
// After a parallel region libgomp's idle workers spin for about a millisecond before they
// sleep, and on these (virtual) machines that spinning slows the thread that runs next (a
// serial sample right after a threaded one measured up to 2x slow at 1e3 elements); a
// sleeping worker, on the other hand, can take half a millisecond to wake. So: wait 2 ms
// (spinning, since a sleeping main thread lets the hypervisor idle its CPU too) until the
// workers sleep; then, when the sample will run threads (`threads` > 1), wake them with an
// empty parallel region, as the previous loop of a run of parallel loops would have.
inline void prepare_sample(int threads) {
  const auto until = bench_clock::now() + std::chrono::milliseconds(2);
  while (bench_clock::now() < until) {
  }
  if (threads > 1) {
#pragma omp parallel num_threads(threads)
    {}
  }
}

// Seconds that f() takes, once.
template <class F>
double time_once(F&& f) {
  const auto start = bench_clock::now();
  f();
  return std::chrono::duration<double>(bench_clock::now() - start).count();
}

inline double median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  const auto middle = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
  std::nth_element(samples.begin(), middle, samples.end());
  if (samples.size() % 2 == 1) return *middle;
  return (*middle + *std::max_element(samples.begin(), middle)) / 2;
}

}  // namespace funcmesh::bench
