// The hand-written baselines: what a programmer would write without funcmesh, a plain
// `for` and `#pragma omp parallel for` over raw pointers, no restrict, no intrinsics.
// Compiled with the same flags as the benchmarks (the build type's), never inlined into
// them: the expression side pays one call per loop too.
#include "hand_loops.hpp"

#include <cmath>

namespace hand_loops {

void axpy(std::int64_t n, double a, const double* x, double* y) {
  for (std::int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}

void axpy_omp(std::int64_t n, double a, const double* x, double* y, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}

void axpby_indirect(std::int64_t n, double a, const double* x, double b, const double* y,
                    const int* ind, double* z) {
  for (std::int64_t i = 0; i < n; ++i) z[i] = a * x[i] + b * y[ind[i]];
}

void axpby_indirect_omp(std::int64_t n, double a, const double* x, double b, const double* y,
                        const int* ind, double* z, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) z[i] = a * x[i] + b * y[ind[i]];
}

void five_term(std::int64_t n, double a, double b, double c, const double* x, const double* y,
               const double* z, double* w) {
  for (std::int64_t i = 0; i < n; ++i) w[i] = a * x[i] + b * y[i] - c * z[i] + x[i] * y[i] + 0.5;
}

void five_term_omp(std::int64_t n, double a, double b, double c, const double* x, const double* y,
                   const double* z, double* w, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) w[i] = a * x[i] + b * y[i] - c * z[i] + x[i] * y[i] + 0.5;
}

void sin_cos(std::int64_t n, const double* x, const double* y, double* w) {
  for (std::int64_t i = 0; i < n; ++i) w[i] = std::sin(x[i]) * std::cos(y[i]);
}

void sin_cos_omp(std::int64_t n, const double* x, const double* y, double* w, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) w[i] = std::sin(x[i]) * std::cos(y[i]);
}

void triad_omp(std::int64_t n, double s, const double* b, const double* c, double* a, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

}  // namespace hand_loops
