// The paper's two examples in funcmesh: axpy (y += a*x) and the indirect axpby
// (z[i] = a*x[i] + b*y[ind[i]], y read through a proxy), each written in the functional
// style and as arithmetic, run on the chosen executor and checked against a plain loop.
// In the cuda preset this file is compiled by nvcc: the same source runs on a GPU.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/app.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/framework.hpp>

namespace fm = funcmesh;

namespace {

struct options {
  fm::index_t size = 1 << 20;
  std::string executor = "auto";
  double a = 2.5;
  double b = -0.5;
};

// Strict parsing: a typo must not silently become a default. Exit 2 on a bad command line.
bool parse(int argc, char** argv, options& chosen, int& status) {
  if (const auto& env = fm::settings::get().executor; env.from_environment()) {
    chosen.executor = env.text();  // checked by parse_or_exit_code (settings::load)
  }
  fm::app::program args("axpy",
                        "Runs y += a*x and z = a*x + b*y[ind] (ind a random permutation) as "
                        "funcmesh expressions, in the functional style (fmap/apply) and as "
                        "arithmetic, and compares each with a plain loop. Exit status 0 when all "
                        "agree.");
  args.option("size", chosen.size, "grid size")
      ->check(CLI::Range(fm::index_t{0}, std::numeric_limits<fm::index_t>::max()));
  args.add_executor(chosen.executor);
  args.option("a", chosen.a, "the scalar a");
  args.option("b", chosen.b, "the scalar b");
  const std::optional<int> code = args.parse_or_exit_code(argc, argv);
  status = code.value_or(0);
  return !code;
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

bool report(const char* what, const std::vector<double>& got, const std::vector<double>& expected,
            double seconds) {
  const double difference = max_difference(got, expected);
  // Devices may fuse a*x + y into one FMA: agreement within a few units in the last place.
  const bool agrees = difference <= 1e-14 * 8.0;
  std::printf("%-34s max |difference| %.3g  %s  (%.3f ms)\n", what, difference,
              agrees ? "agrees" : "DISAGREES", seconds * 1e3);
  return agrees;
}

template <class Work>
double timed(Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  // A GPU's loop returns once launched: the time includes its kernel.
  funcmesh::exec::synchronize(funcmesh::default_executor(), funcmesh::exec::loop_label{"timing"});
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  options chosen;
  int status = 0;
  if (!parse(argc, argv, chosen, status)) return status;
  try {
    fm::set_default_executor(chosen.executor);  // "auto" stays per translation unit
    const fm::index_t n = chosen.size;
    const double a = chosen.a, b = chosen.b;
    std::printf("axpy: n = %lld on the %s executor\n", static_cast<long long>(n),
                fm::default_executor().name().c_str());

    // Inputs, and the plain-loop answers.
    fm::grid_function<double> x(n, "x"), y(n, "y"), z(n, "z");
    fm::grid_function<int> ind(n, "ind");
    std::vector<double> xv(static_cast<std::size_t>(n)), yv(xv.size());
    std::vector<int> iv(xv.size());
    std::mt19937_64 engine(42);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    for (auto& v : xv) v = value(engine);
    for (auto& v : yv) v = value(engine);
    std::iota(iv.begin(), iv.end(), 0);
    std::shuffle(iv.begin(), iv.end(), engine);
    std::ranges::copy(xv, x.write().begin());
    std::ranges::copy(yv, y.write().begin());
    std::ranges::copy(iv, ind.write().begin());
    std::vector<double> axpy_expected(xv.size()), axpby_expected(xv.size());
    for (std::size_t i = 0; i < xv.size(); ++i) {
      axpy_expected[i] = yv[i] + a * xv[i];
      axpby_expected[i] = a * xv[i] + b * yv[static_cast<std::size_t>(iv[i])];
    }

    bool all_agree = true;
    // axpy, functional: fmap a function of three arguments, then apply it to x and y.
    fm::grid_function<double> y1 = y;
    auto axpy = fm::_([] FUNCMESH_DEVICE(double s, double xi, double yi) { return yi + s * xi; });
    double seconds = timed([&] { y1 = axpy / fm::pure(a) * x * y1; });
    all_agree &=
        report("axpy, functional (f / pure(a) * x * y)", y1.to_vector(), axpy_expected, seconds);
    // axpy, arithmetic: the same loop through expression templates.
    fm::grid_function<double> y2 = y;
    seconds = timed([&] { y2 += a * x; });
    all_agree &= report("axpy, arithmetic (y += a * x)", y2.to_vector(), axpy_expected, seconds);

    // Indirect axpby: y is read at ind[i] through a proxy.
    auto axpby = fm::_([] FUNCMESH_DEVICE(double s, double xi, double t, fm::proxy<const double> yp,
                                          int j) { return s * xi + t * yp[j]; });
    seconds = timed([&] { z = axpby / fm::pure(a) * x * fm::pure(b) * fm::pure(fm::pr(y)) * ind; });
    all_agree &=
        report("indirect axpby (z = a*x + b*y[ind])", z.to_vector(), axpby_expected, seconds);

    std::printf("%s\n", all_agree ? "all results agree with the plain loops"
                                  : "some results DISAGREE with the plain loops");
    return all_agree ? 0 : 1;
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "axpy: %s\n", failure.what());
    return 1;
  }
}
