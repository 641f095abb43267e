// Tableau checks (each error names the tableau and the offending entry) and the built-in
// tableaus.
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/time/butcher_tableau.hpp>

#include "number_text.hpp"

namespace funcmesh::time {

namespace {

// Coefficients are often given as decimal or rational approximations: consistency holds
// to this (absolute) tolerance, far above rounding and far below any real mistake.
constexpr double consistency_tolerance = 1e-10;

[[noreturn]] void refuse(const std::string& name, const std::string& why) {
  throw time_error("funcmesh::time: tableau '" + name + "': " + why);
}

using detail::number;

}  // namespace

butcher_tableau::butcher_tableau(std::vector<std::vector<double>> a, std::vector<double> b,
                                 std::vector<double> c, std::string name)
    : a_(std::move(a)), b_(std::move(b)), c_(std::move(c)), name_(std::move(name)) {
  const std::size_t s = b_.size();
  if (s == 0) refuse(name_, "no stages (b is empty)");
  if (a_.size() != s) {
    refuse(name_, "a has " + std::to_string(a_.size()) + " rows but b has " + std::to_string(s) +
                      " weights: a must be s x s for s stages");
  }
  for (std::size_t i = 0; i < s; ++i) {
    if (a_[i].size() != s) {
      refuse(name_, "row " + std::to_string(i) + " of a has " + std::to_string(a_[i].size()) +
                        " entries, not " + std::to_string(s) + " (a must be s x s)");
    }
  }
  if (!c_.empty() && c_.size() != s) {
    refuse(name_, "c has " + std::to_string(c_.size()) + " nodes, not " + std::to_string(s) +
                      " (or leave it empty: c_i = sum_j a_ij)");
  }
  for (std::size_t i = 0; i < s; ++i) {
    for (std::size_t j = 0; j < s; ++j) {
      const std::string at = "a[" + std::to_string(i) + "][" + std::to_string(j) + "]";
      if (!std::isfinite(a_[i][j])) refuse(name_, at + " = " + number(a_[i][j]) + " is not finite");
      if (j >= i && a_[i][j] != 0.0) {
        refuse(name_, "not explicit: " + at + " = " + number(a_[i][j]) +
                          " is on or above the diagonal (explicit schemes need a strictly "
                          "lower-triangular a)");
      }
    }
    if (!std::isfinite(b_[i])) refuse(name_, "b[" + std::to_string(i) + "] is not finite");
  }
  double sum_b = 0.0;
  for (double w : b_) sum_b += w;
  if (std::abs(sum_b - 1.0) > consistency_tolerance) {
    refuse(name_, "inconsistent: the weights b sum to " + number(sum_b) + ", not 1");
  }
  const bool given = !c_.empty();
  if (!given) c_.assign(s, 0.0);
  for (std::size_t i = 0; i < s; ++i) {
    double row = 0.0;
    for (std::size_t j = 0; j < i; ++j) row += a_[i][j];
    if (!given) {
      c_[i] = row;
    } else if (!std::isfinite(c_[i]) || std::abs(c_[i] - row) > consistency_tolerance) {
      refuse(name_, "inconsistent: c[" + std::to_string(i) + "] = " + number(c_[i]) + " but row " +
                        std::to_string(i) + " of a sums to " + number(row));
    }
  }
}

namespace tableaus {

butcher_tableau forward_euler() { return {{{0.0}}, {1.0}, {0.0}, "forward_euler"}; }

butcher_tableau ssp_rk2() { return {{{0.0, 0.0}, {1.0, 0.0}}, {0.5, 0.5}, {0.0, 1.0}, "ssp_rk2"}; }

butcher_tableau ssp_rk3() {
  return {{{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0}, {0.25, 0.25, 0.0}},
          {1.0 / 6.0, 1.0 / 6.0, 2.0 / 3.0},
          {0.0, 1.0, 0.5},
          "ssp_rk3"};
}

butcher_tableau rk4() {
  return {{{0.0, 0.0, 0.0, 0.0}, {0.5, 0.0, 0.0, 0.0}, {0.0, 0.5, 0.0, 0.0}, {0.0, 0.0, 1.0, 0.0}},
          {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0},
          {0.0, 0.5, 0.5, 1.0},
          "rk4"};
}

}  // namespace tableaus

}  // namespace funcmesh::time
