// The baselines of the expression benchmarks: hand-written loops over raw pointers, built
// in their own library that cannot see funcmesh's headers. Plain declarations only.
#pragma once

#include <cstdint>

namespace hand_loops {

// y[i] += a * x[i]
void axpy(std::int64_t n, double a, const double* x, double* y);
void axpy_omp(std::int64_t n, double a, const double* x, double* y, int threads);

// z[i] = a * x[i] + b * y[ind[i]]
void axpby_indirect(std::int64_t n, double a, const double* x, double b, const double* y,
                    const int* ind, double* z);
void axpby_indirect_omp(std::int64_t n, double a, const double* x, double b, const double* y,
                        const int* ind, double* z, int threads);

// w[i] = a * x[i] + b * y[i] - c * z[i] + x[i] * y[i] + 0.5
void five_term(std::int64_t n, double a, double b, double c, const double* x, const double* y,
               const double* z, double* w);
void five_term_omp(std::int64_t n, double a, double b, double c, const double* x, const double* y,
                   const double* z, double* w, int threads);

// w[i] = sin(x[i]) * cos(y[i])
void sin_cos(std::int64_t n, const double* x, const double* y, double* w);
void sin_cos_omp(std::int64_t n, const double* x, const double* y, double* w, int threads);

// STREAM triad: a[i] = b[i] + s * c[i]
void triad_omp(std::int64_t n, double s, const double* b, const double* c, double* a, int threads);

}  // namespace hand_loops
