// Where the auto-threading policy should start splitting: y = x + 1 and y = sin(x)*cos(x)
// from 1e3 to 6.4e7 elements, timed serial, always split on 2 threads, and under the
// default policy (2 threads, default_parallel_min_size), interleaved at every size.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/framework.hpp>

#include "bench_options.hpp"

namespace fm = funcmesh;
using fm::index_t;

namespace {

constexpr const char* help_text =
    "autothread: per-call times of y = x + 1 and y = sin(x)*cos(x) at sizes 1e3 .. 6.4e7:\n"
    "serial executor / openmp always split (min size 0) / openmp under the default policy\n"
    "(min size funcmesh::exec::default_parallel_min_size), and where splitting starts to pay.\n"
    "--size N sets the largest size (default 6.4e7, 3.2e7 when memory is short), --reps N the\n"
    "most samples per size (default 15; large sizes take fewer, at least 5), --threads N the\n"
    "threads (default 2). The last line is\n"
    "autothread_speedup_large <serial / auto time of sin(x)*cos(x) at the largest size>.";

// Each sample repeats the call until it takes about this long, so that the clock and the
// noise of one call do not dominate small sizes.
constexpr double sample_seconds = 2e-3;
// Samples at one size stop at about this much time in all, but never below min_reps: the
// largest size, which the last line reports, gets those few and no more.
constexpr double size_budget_seconds = 1.2;
constexpr int min_reps = 5;

// MemAvailable from /proc/meminfo in bytes, or -1 where it cannot be read.
double available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kilobytes = 0;
  std::string unit;
  while (meminfo >> key >> kilobytes >> unit) {
    if (key == "MemAvailable:") return kilobytes * 1024;
  }
  return -1;
}

enum variant { serial, split, automatic, variant_count };

struct result {
  index_t size;
  double seconds[variant_count];  // median per call
  int auto_threads;               // what the default policy actually used
  double others;                  // CPUs other processes kept busy meanwhile
};

struct expression_case {
  const char* name;
  std::function<void(fm::grid_function<double>&, const fm::grid_function<double>&)> assign;
  // Policy units per element of the assignment (the expression's work + 1 for the write):
  // the policy splits from default_parallel_min_size / work elements.
  index_t work;
};

// The size from which the default policy splits this assignment.
index_t policy_threshold(const expression_case& e) {
  return fm::exec::default_parallel_min_size / std::max<index_t>(1, e.work);
}

// Seconds per call of `inner` back-to-back calls under one variant's executor and policy.
double sample(const expression_case& e, variant v, int threads, int inner,
              fm::grid_function<double>& y, const fm::grid_function<double>& x) {
  const fm::executor on = v == serial ? fm::executor::serial() : fm::executor::openmp();
  fm::scoped_executor guard(on);
  fm::exec::scoped_thread_policy policy(
      threads, v == automatic ? fm::exec::default_parallel_min_size : index_t{0});
  return fm::bench::time_once([&] {
           for (int k = 0; k < inner; ++k) e.assign(y, x);
         }) /
         inner;
}

result measure(const expression_case& e, index_t n, int threads, int max_reps) {
  fm::grid_function<double> x(n, "x"), y(n, "y");
  {
    auto xw = x.write();
    auto yw = y.write();  // first touch of the target too, outside the timing
    for (index_t i = 0; i < n; ++i) {
      xw[i] = static_cast<double>(i % 1000) * 1e-3;
      yw[i] = 0;
    }
  }
  // Warm-up: every variant three times; the fastest of the last two calls estimates each
  // variant's cost, and the slowest variant sizes the samples, so that a variant that is
  // slow here cannot blow the time budget by being repeated as often as the fastest needs.
  double once[variant_count];
  for (int pass = 0; pass < 3; ++pass) {
    for (int v = 0; v < variant_count; ++v) {
      const double t = sample(e, static_cast<variant>(v), threads, 1, y, x);
      once[v] = pass == 1 ? t : std::min(once[v], t);
    }
  }
  const double slowest = *std::max_element(once, once + variant_count);
  const int inner = static_cast<int>(std::clamp(std::ceil(sample_seconds / slowest), 1.0, 1e5));
  const double round = inner * (once[serial] + once[split] + once[automatic]);
  const int reps = std::max(std::min(min_reps, max_reps),
                            std::min(max_reps, static_cast<int>(size_budget_seconds / round)));

  std::vector<double> times[variant_count];
  result r{n, {}, 1, 0};
  const fm::bench::neighbour_monitor neighbours;
  for (int rep = 0; rep < reps; ++rep) {
    for (int k = 0; k < variant_count; ++k) {
      // Rotate the order, so that no variant always runs right after another.
      const auto v = static_cast<variant>((rep + k) % variant_count);
      // The threads this sample will use: none for serial, and for auto what the policy
      // decides at this size.
      const bool threaded = v == split || (v == automatic && n >= policy_threshold(e));
      fm::bench::prepare_sample(threaded ? threads : 1);
      times[v].push_back(sample(e, v, threads, inner, y, x));
      if (v == automatic) r.auto_threads = fm::exec::last_actual_threads();
    }
  }
  for (int v = 0; v < variant_count; ++v) r.seconds[v] = fm::bench::median(times[v]);
  r.others = neighbours.other_cpus();
  return r;
}

std::string format_size(index_t n) {
  char text[32];
  std::snprintf(text, sizeof text, "%lld", static_cast<long long>(n));
  return text;
}

// The smallest size from which always-split beats serial at every larger size (a single
// lucky size below a loss does not count), or -1 when it never does.
index_t crossover(const std::vector<result>& results) {
  index_t found = -1;
  for (auto it = results.rbegin(); it != results.rend(); ++it) {
    if (it->seconds[split] >= it->seconds[serial]) break;
    found = it->size;
  }
  return found;
}

void print_table(const char* name, const std::vector<result>& results) {
  std::printf(
      "\n%s  (median us per call; speedup = serial time / variant time; others = CPUs\n"
      "other processes kept busy meanwhile, '*' when that can distort the row)\n",
      name);
  std::printf("%12s %12s %12s %12s %8s %10s %10s %8s\n", "size", "serial", "split", "auto",
              "auto thr", "sp(split)", "sp(auto)", "others");
  for (const result& r : results) {
    std::printf("%12s %12.2f %12.2f %12.2f %8d %10.2f %10.2f %7.2f%s\n",
                format_size(r.size).c_str(), r.seconds[serial] * 1e6, r.seconds[split] * 1e6,
                r.seconds[automatic] * 1e6, r.auto_threads, r.seconds[serial] / r.seconds[split],
                r.seconds[serial] / r.seconds[automatic], r.others, r.others > 0.15 ? "*" : "");
  }
}

void print_crossover(const expression_case& e, const std::vector<result>& results) {
  const char* name = e.name;
  const index_t at = crossover(results);
  const index_t min_size = policy_threshold(e);
  if (at < 0) {
    std::printf(
        "crossover %-18s none: always-split never beats serial up to %s; the policy's "
        "threshold %lld elements splits too early here\n",
        name, format_size(results.back().size).c_str(), static_cast<long long>(min_size));
    return;
  }
  // The grid is 4x apart, so the true crossover lies within a factor 4 below `at`.
  const std::string where = (at == results.front().size ? "<= " : "") + format_size(at);
  const double factor = static_cast<double>(min_size) / static_cast<double>(at);
  const char* verdict = factor >= 0.25 && factor <= 4 ? "near it (within one 4x step)"
                        : factor > 4                  ? "far above it: small loops stay serial "
                                                        "although splitting would pay"
                                                      : "far below it: loops split although "
                                                        "serial is faster";
  std::printf(
      "crossover %-18s %s elements (split first beats serial there for good); the policy "
      "splits from %lld elements = %.2fx that: %s\n",
      name, where.c_str(), static_cast<long long>(min_size), factor, verdict);
}

}  // namespace

int main(int argc, char** argv) {
  fm::bench::options opts;
  if (int status = fm::bench::parse_options(argc, argv, help_text, opts); status >= 0)
    return status;
  const int threads = opts.threads > 0 ? opts.threads : 2;
  const int max_reps = opts.reps > 0 ? opts.reps : 15;
  index_t largest = opts.size > 0 ? opts.size : 64000000;

  // Two arrays of the largest size, with room to spare for the rest of the machine.
  const double available = available_memory();
  if (opts.size == 0 && available > 0 &&
      2.0 * 8.0 * static_cast<double>(largest) > 0.5 * available) {
    std::printf("note: %.1f GB available; largest size scaled down from 6.4e7 to 3.2e7\n",
                available / 1e9);
    largest = 32000000;
  }
  std::vector<index_t> sizes;
  for (index_t n : {1000, 4000, 16000, 64000, 256000, 1024000, 4096000, 16384000, 64000000})
    if (n < largest) sizes.push_back(n);
  sizes.push_back(largest);

  const expression_case cases[] = {
      {"y = x + 1", [](auto& y, const auto& x) { y = x + 1.0; },
       decltype(std::declval<const fm::grid_function<double>&>() + 1.0)::work + 1},
      {"y = sin(x)*cos(x)", [](auto& y, const auto& x) { y = fm::sin(x) * fm::cos(x); },
       decltype(fm::sin(std::declval<const fm::grid_function<double>&>()) *
                fm::cos(std::declval<const fm::grid_function<double>&>()))::work +
           1},
  };
  std::printf(
      "autothread: %d threads, default_parallel_min_size = %lld, up to %d samples per "
      "size\n",
      threads, static_cast<long long>(fm::exec::default_parallel_min_size), max_reps);

  fm::bench::warn_if_busy();
  {
    // Start libgomp's thread pool before anything is timed: its first loops create and
    // schedule the workers, which takes milliseconds.
    fm::grid_function<double> x(1000, "x"), y(1000, "y");
    x = 1.0;
    fm::scoped_executor guard(fm::executor::openmp());
    fm::exec::scoped_thread_policy policy(threads, 0);
    const auto until = fm::bench::bench_clock::now() + std::chrono::milliseconds(50);
    while (fm::bench::bench_clock::now() < until) y = x + 1.0;
  }
  std::vector<result> results[2];
  for (int c = 0; c < 2; ++c) {
    for (index_t n : sizes) results[c].push_back(measure(cases[c], n, threads, max_reps));
    print_table(cases[c].name, results[c]);
  }
  std::printf("\n");
  for (int c = 0; c < 2; ++c) print_crossover(cases[c], results[c]);

  const result& large = results[1].back();
  std::printf("\n(goal: auto speedup of sin(x)*cos(x) at %s elements >= 1.5)\n",
              format_size(large.size).c_str());
  if (large.others > 0.15)
    std::printf(
        "note: other processes kept %.2f CPUs busy while the largest size ran: the "
        "speedup below is pessimistic; rerun on a quiet machine\n",
        large.others);
  std::printf("autothread_speedup_large %.3f\n", large.seconds[serial] / large.seconds[automatic]);
  return 0;
}
