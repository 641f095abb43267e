// The spline in Hermite form: its slopes at the knots solve a tridiagonal system whose
// first and last rows are the not-a-knot conditions with the neighbouring interior row
// folded in, so plain forward elimination (no pivoting) suffices.
#include "not_a_knot_spline.hpp"

#include <algorithm>
#include <utility>

#include <funcmesh/core/error.hpp>

namespace funcmesh::airfoil_detail {

not_a_knot_spline::not_a_knot_spline(std::vector<double> x, std::vector<double> y)
    : x_(std::move(x)), y_(std::move(y)) {
  const std::size_t n = x_.size();
  if (n < 4 || y_.size() != n) {
    throw error("funcmesh::airfoil_grid: a not-a-knot spline needs at least 4 knots");
  }
  std::vector<double> h(n - 1), d(n - 1);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    h[k] = x_[k + 1] - x_[k];
    if (!(h[k] > 0)) throw error("funcmesh::airfoil_grid: spline knots must increase");
    d[k] = (y_[k + 1] - y_[k]) / h[k];
  }
  // Row k: lower[k] s[k-1] + diag[k] s[k] + upper[k] s[k+1] = rhs[k].
  std::vector<double> lower(n, 0.0), diag(n), upper(n, 0.0), rhs(n);
  const double left = h[0] + h[1];
  diag[0] = h[1];
  upper[0] = left;
  rhs[0] = ((h[0] + 2 * left) * h[1] * d[0] + h[0] * h[0] * d[1]) / left;
  for (std::size_t k = 1; k + 1 < n; ++k) {
    lower[k] = h[k];
    diag[k] = 2 * (h[k - 1] + h[k]);
    upper[k] = h[k - 1];
    rhs[k] = 3 * (h[k] * d[k - 1] + h[k - 1] * d[k]);
  }
  const double right = h[n - 3] + h[n - 2];
  lower[n - 1] = right;
  diag[n - 1] = h[n - 3];
  rhs[n - 1] =
      (h[n - 2] * h[n - 2] * d[n - 3] + (2 * right + h[n - 2]) * h[n - 3] * d[n - 2]) / right;

  for (std::size_t k = 1; k < n; ++k) {
    const double factor = lower[k] / diag[k - 1];
    diag[k] -= factor * upper[k - 1];
    rhs[k] -= factor * rhs[k - 1];
  }
  slope_.assign(n, 0.0);
  slope_[n - 1] = rhs[n - 1] / diag[n - 1];
  for (std::size_t k = n - 1; k-- > 0;) {
    slope_[k] = (rhs[k] - upper[k] * slope_[k + 1]) / diag[k];
  }
}

double not_a_knot_spline::operator()(double t) const {
  // The piece whose left knot is the last one <= t, clamped to the first and last piece.
  const auto after = std::upper_bound(x_.begin(), x_.end(), t);
  std::size_t k = after == x_.begin() ? 0 : static_cast<std::size_t>(after - x_.begin()) - 1;
  k = std::min(k, x_.size() - 2);
  const double h = x_[k + 1] - x_[k];
  const double divided = (y_[k + 1] - y_[k]) / h;
  const double into = (divided - slope_[k]) / h;
  const double out = (slope_[k + 1] - divided) / h;
  const double cubic = (out - into) / h, quadratic = 2 * into - out;
  const double s = t - x_[k];
  return ((cubic * s + quadratic) * s + slope_[k]) * s + y_[k];
}

}  // namespace funcmesh::airfoil_detail
