// STREAM triad, a[i] = b[i] + s * c[i], as a hand-written omp parallel for loop and as the
// expression assignment a = b + s * c on the OpenMP executor with the same threads: the
// fraction of the machine's memory bandwidth an expression reaches.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <funcmesh/framework.hpp>

#include "bench_options.hpp"
#include "hand_loops.hpp"

namespace fm = funcmesh;
using fm::index_t;

namespace {

constexpr const char* help_text =
    "stream: STREAM triad a = b + s*c, omp parallel for against the expression on the openmp\n"
    "executor (same threads, always split). Bandwidth counts 24 bytes per element (STREAM's\n"
    "convention: two reads, one write). The last line is\n"
    "stream_fraction <expression bandwidth / loop bandwidth, medians>.\n"
    "Defaults: --size 2^24, --reps 30, --threads funcmesh::exec::threads_target().";

constexpr double scalar = 3.0;

}  // namespace

int main(int argc, char** argv) {
  fm::bench::options opts;
  if (int status = fm::bench::parse_options(argc, argv, help_text, opts); status >= 0)
    return status;
  const index_t n = opts.size > 0 ? opts.size : index_t{1} << 24;
  const int reps = opts.reps > 0 ? opts.reps : 30;
  const int threads = opts.threads > 0 ? opts.threads : std::max(1, fm::exec::threads_target());
  fm::exec::scoped_thread_policy policy(threads, 0);
  fm::scoped_executor on_openmp(fm::executor::openmp());

  fm::bench::warn_if_busy();
  fm::grid_function<double> a(n, "a"), b(n, "b"), c(n, "c");
  {
    // First touch by the threads that will stream the arrays, as STREAM does (it matters on
    // multi-socket machines; on one socket it only moves the page faults out of the timing).
    auto aw = a.write();
    auto bw = b.write();
    auto cw = c.write();
    double* pa = aw.data();
    double* pb = bw.data();
    double* pc = cw.data();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (index_t i = 0; i < n; ++i) {
      pa[i] = 0.0;
      pb[i] = 1.0 + static_cast<double>(i % 1000) * 1e-3;
      pc[i] = 2.0 - static_cast<double>(i % 777) * 1e-3;
    }
  }

  auto run_expression = [&] { return fm::bench::time_once([&] { a = b + scalar * c; }); };
  auto run_loop = [&] {
    auto br = b.read();
    auto cr = c.read();
    auto aw = a.write();
    return fm::bench::time_once(
        [&] { hand_loops::triad_omp(n, scalar, br.data(), cr.data(), aw.data(), threads); });
  };

  // Warm-up, and a check that both compute the same thing.
  run_expression();
  const std::vector<double> from_expression = a.to_vector();
  run_loop();
  if (a.to_vector() != from_expression) {
    std::fprintf(stderr, "stream: the expression and the loop disagree\n");
    return 1;
  }

  std::vector<double> expression_times, loop_times;
  const fm::bench::neighbour_monitor neighbours;
  for (int rep = 0; rep < reps; ++rep) {
    // Alternate the order, so that neither variant always follows the other.
    for (int turn = 0; turn < 2; ++turn) {
      fm::bench::prepare_sample(threads);
      if ((turn == 0) == (rep % 2 == 0))
        expression_times.push_back(run_expression());
      else
        loop_times.push_back(run_loop());
    }
  }

  const double bytes = 24.0 * static_cast<double>(n);
  const double expression = fm::bench::median(expression_times);
  const double loop = fm::bench::median(loop_times);
  const double expression_best =
      *std::min_element(expression_times.begin(), expression_times.end());
  const double loop_best = *std::min_element(loop_times.begin(), loop_times.end());
  std::printf("stream triad: n = %lld (%.0f MB per array), %d reps, %d OpenMP threads\n\n",
              static_cast<long long>(n), 8.0 * static_cast<double>(n) / 1e6, reps, threads);
  std::printf("%-26s %12s %12s %14s %12s\n", "variant", "median ms", "best ms", "median GB/s",
              "best GB/s");
  std::printf("%-26s %12.3f %12.3f %14.2f %12.2f\n", "omp parallel for loop", loop * 1e3,
              loop_best * 1e3, bytes / loop / 1e9, bytes / loop_best / 1e9);
  std::printf("%-26s %12.3f %12.3f %14.2f %12.2f\n", "expression a = b + s*c", expression * 1e3,
              expression_best * 1e3, bytes / expression / 1e9, bytes / expression_best / 1e9);
  std::printf("\n(medians of %d interleaved runs; goal: fraction >= 0.95)\n", reps);
  neighbours.note_if_busy("during the timed runs");
  std::printf("stream_fraction %.3f\n", loop / expression);
  return 0;
}
