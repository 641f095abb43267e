// What a grid expression costs over the loop a programmer would write by hand: axpy, an
// indirect axpby, a 5-term arithmetic expression and sin*cos, each as a funcmesh
// assignment and as a raw-pointer loop (hand_loops.cpp), on the serial and OpenMP executors.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <funcmesh/framework.hpp>

#include "bench_options.hpp"
#include "hand_loops.hpp"

namespace fm = funcmesh;
using fm::index_t;

namespace {

constexpr const char* help_text =
    "expr_overhead: grid expression assignments against hand-written raw-pointer loops\n"
    "(serial executor against a plain for, openmp executor against omp parallel for with the\n"
    "same threads). Prints medians, GB/s and ratios; the last line is\n"
    "expr_overhead_max_ratio <max over kernels and executors of expression / hand time>.\n"
    "Defaults: --size 2^24, --reps 11, --threads funcmesh::exec::threads_target().";

// Small enough that y += a * x, repeated a few hundred times, stays near its start.
constexpr double alpha = 1e-3;
constexpr double beta = -0.25;
constexpr double gamma_ = 0.125;

struct fields {
  explicit fields(index_t n) : x(n, "x"), y(n, "y"), z(n, "z"), w(n, "w"), ind(n, "ind") {}
  fm::grid_function<double> x, y, z, w;
  fm::grid_function<int> ind;
};

// Fills every array on the host (the first touch happens here, outside any timing). The
// index is a permutation of blocks of 64 consecutive entries in shuffled order: a renumbered
// mesh's locality (each block is one stream, blocks jump around), not a pure cache-miss test.
void fill(fields& f, index_t n) {
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  {
    auto x = f.x.write();
    auto y = f.y.write();
    auto z = f.z.write();
    auto w = f.w.write();
    for (index_t i = 0; i < n; ++i) {
      x[i] = unit(random);
      y[i] = unit(random);
      z[i] = unit(random);
      w[i] = 0;
    }
  }
  constexpr index_t block = 64;
  const index_t blocks = (n + block - 1) / block;
  std::vector<index_t> order(static_cast<std::size_t>(blocks));
  std::iota(order.begin(), order.end(), index_t{0});
  std::shuffle(order.begin(), order.end(), random);
  auto ind = f.ind.write();
  index_t k = 0;
  for (index_t b : order) {
    for (index_t j = b * block; j < std::min(n, (b + 1) * block); ++j)
      ind[k++] = static_cast<int>(j);
  }
}

struct kernel {
  const char* name;
  const char* formula;
  double bytes_per_element;  // reads + writes: 8 per double, 4 per int
  fm::grid_function<double>* target;
  std::function<void()> expression;  // on this thread's executor
  // Seconds of one hand loop with `threads` threads (0: the plain serial loop). Its host
  // accesses are taken outside the timing while the expression takes its tokens inside:
  // the expression's bookkeeping counts against it.
  std::function<double(int)> hand;
};

std::vector<kernel> make_kernels(fields& f, index_t n) {
  std::vector<kernel> kernels;
  kernels.push_back({"axpy", "y += a*x", 24, &f.y, [&f] { f.y += alpha * f.x; },
                     [&f, n](int threads) {
                       auto x = f.x.read();
                       auto y = f.y.write();
                       return fm::bench::time_once([&] {
                         if (threads > 0)
                           hand_loops::axpy_omp(n, alpha, x.data(), y.data(), threads);
                         else
                           hand_loops::axpy(n, alpha, x.data(), y.data());
                       });
                     }});
  kernels.push_back(
      {"axpby_indirect", "z = a*x + b*y[ind]", 28, &f.z,
       [&f] {
         auto g = fm::_([](double a, double xv, double b, fm::proxy<const double> yp, int j) {
           return a * xv + b * yp[j];
         });
         f.z = g / fm::pure(alpha) * f.x * fm::pure(beta) * fm::pure(fm::pr(f.y)) * f.ind;
       },
       [&f, n](int threads) {
         auto x = f.x.read();
         auto y = f.y.read();
         auto ind = f.ind.read();
         auto z = f.z.write();
         return fm::bench::time_once([&] {
           if (threads > 0)
             hand_loops::axpby_indirect_omp(n, alpha, x.data(), beta, y.data(), ind.data(),
                                            z.data(), threads);
           else
             hand_loops::axpby_indirect(n, alpha, x.data(), beta, y.data(), ind.data(), z.data());
         });
       }});
  kernels.push_back({"five_term", "w = a*x + b*y - c*z + x*y + 0.5", 32, &f.w,
                     [&f] { f.w = alpha * f.x + beta * f.y - gamma_ * f.z + f.x * f.y + 0.5; },
                     [&f, n](int threads) {
                       auto x = f.x.read();
                       auto y = f.y.read();
                       auto z = f.z.read();
                       auto w = f.w.write();
                       return fm::bench::time_once([&] {
                         if (threads > 0)
                           hand_loops::five_term_omp(n, alpha, beta, gamma_, x.data(), y.data(),
                                                     z.data(), w.data(), threads);
                         else
                           hand_loops::five_term(n, alpha, beta, gamma_, x.data(), y.data(),
                                                 z.data(), w.data());
                       });
                     }});
  kernels.push_back({"sin_cos", "w = sin(x)*cos(y)", 24, &f.w,
                     [&f] { f.w = fm::sin(f.x) * fm::cos(f.y); },
                     [&f, n](int threads) {
                       auto x = f.x.read();
                       auto y = f.y.read();
                       auto w = f.w.write();
                       return fm::bench::time_once([&] {
                         if (threads > 0)
                           hand_loops::sin_cos_omp(n, x.data(), y.data(), w.data(), threads);
                         else
                           hand_loops::sin_cos(n, x.data(), y.data(), w.data());
                       });
                     }});
  return kernels;
}

struct executor_case {
  const char* name;
  fm::executor on;
  int hand_threads;  // 0: the plain serial loop
};

double time_expression(const kernel& k, const fm::executor& on) {
  fm::scoped_executor guard(on);
  return fm::bench::time_once(k.expression);
}

// Runs the expression and the hand loop from the same target contents and compares: a
// benchmark of a wrong result measures nothing.
bool same_results(const kernel& k, const executor_case& e) {
  const std::vector<double> before = k.target->to_vector();
  auto restore = [&] {
    auto t = k.target->write();
    std::copy(before.begin(), before.end(), t.begin());
  };
  time_expression(k, e.on);
  const std::vector<double> from_expression = k.target->to_vector();
  restore();
  k.hand(e.hand_threads);
  const std::vector<double> from_hand = k.target->to_vector();
  restore();
  double worst = 0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    const double scale = std::max(1.0, std::abs(from_hand[i]));
    worst = std::max(worst, std::abs(from_expression[i] - from_hand[i]) / scale);
  }
  if (worst <= 1e-12) return true;
  std::fprintf(stderr, "expr_overhead: %s on %s: expression and hand loop differ by %.3g\n", k.name,
               e.name, worst);
  return false;
}

std::string format_time(double seconds) {
  char text[32];
  if (seconds < 1e-3)
    std::snprintf(text, sizeof text, "%.2f us", seconds * 1e6);
  else
    std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  fm::bench::options opts;
  if (int status = fm::bench::parse_options(argc, argv, help_text, opts); status >= 0)
    return status;
  const index_t n = opts.size > 0 ? opts.size : index_t{1} << 24;
  const int reps = opts.reps > 0 ? opts.reps : 11;
  const int threads = opts.threads > 0 ? opts.threads : std::max(1, fm::exec::threads_target());
  if (n > 2147483647) {
    std::fprintf(stderr, "expr_overhead: --size must fit the int index array (< 2^31)\n");
    return 2;
  }
  // Minimum size 0: the expression splits whatever the size, as omp parallel for does.
  fm::exec::scoped_thread_policy policy(threads, 0);

  fields f(n);
  fill(f, n);
  std::vector<kernel> kernels = make_kernels(f, n);
  const executor_case executors[] = {{"serial", fm::executor::serial(), 0},
                                     {"openmp", fm::executor::openmp(), threads}};

  fm::bench::warn_if_busy();
  std::printf("expr_overhead: n = %lld, %d reps, %d OpenMP threads\n", static_cast<long long>(n),
              reps, threads);
  // Warm-up: every variant once (pages, thread pool, branch predictors), then a check.
  for (const kernel& k : kernels) {
    for (const executor_case& e : executors) {
      time_expression(k, e.on);
      k.hand(e.hand_threads);
      if (!same_results(k, e)) return 1;
    }
  }

  const fm::bench::neighbour_monitor neighbours;
  // samples[kernel][executor][0: expression, 1: hand]
  std::vector<std::vector<std::vector<double>>> samples(kernels.size(),
                                                        std::vector<std::vector<double>>(2 * 2));
  for (int rep = 0; rep < reps; ++rep) {
    for (std::size_t ki = 0; ki < kernels.size(); ++ki) {
      for (std::size_t ei = 0; ei < 2; ++ei) {
        // Alternate which variant goes first, so neither always runs on a warmer cache.
        const bool hand_first = (rep + static_cast<int>(ki + ei)) % 2 == 1;
        for (int turn = 0; turn < 2; ++turn) {
          const bool hand = (turn == 0) == hand_first;
          fm::bench::prepare_sample(executors[ei].hand_threads);
          const double t = hand ? kernels[ki].hand(executors[ei].hand_threads)
                                : time_expression(kernels[ki], executors[ei].on);
          samples[ki][2 * ei + (hand ? 1 : 0)].push_back(t);
        }
      }
    }
  }

  std::printf("\n%-15s %-32s %-7s %12s %12s %8s %10s %10s\n", "kernel", "formula", "exec",
              "expression", "hand", "ratio", "expr GB/s", "hand GB/s");
  double max_ratio = 0;
  for (std::size_t ki = 0; ki < kernels.size(); ++ki) {
    for (std::size_t ei = 0; ei < 2; ++ei) {
      const double expression = fm::bench::median(samples[ki][2 * ei]);
      const double hand = fm::bench::median(samples[ki][2 * ei + 1]);
      const double bytes = kernels[ki].bytes_per_element * static_cast<double>(n);
      const double ratio = expression / hand;
      max_ratio = std::max(max_ratio, ratio);
      std::printf("%-15s %-32s %-7s %12s %12s %8.3f %10.2f %10.2f\n", kernels[ki].name,
                  kernels[ki].formula, executors[ei].name, format_time(expression).c_str(),
                  format_time(hand).c_str(), ratio, bytes / expression / 1e9, bytes / hand / 1e9);
    }
  }
  std::printf("\n(medians of %d interleaved runs; ratio = expression / hand, goal <= 1.05)\n",
              reps);
  neighbours.note_if_busy("during the timed runs");
  std::printf("expr_overhead_max_ratio %.3f\n", max_ratio);
  return 0;
}
