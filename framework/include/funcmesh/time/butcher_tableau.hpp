// butcher_tableau: the coefficients (a, b, c) of an explicit Runge-Kutta method, checked
// when made: s x s strictly lower-triangular a, s weights b summing to 1, nodes c equal to
// the row sums of a (c may be left empty: it is computed). Built-in tableaus in `tableaus`.
#pragma once

#include <string>
#include <vector>

namespace funcmesh::time {

class butcher_tableau {
 public:
  // Throws time_error naming what is wrong: sizes, an entry on or above the diagonal
  // (not explicit), a non-finite entry, sum(b) != 1, or c_i != sum_j a_ij.
  butcher_tableau(std::vector<std::vector<double>> a, std::vector<double> b,
                  std::vector<double> c = {}, std::string name = "a user tableau");

  int stages() const { return static_cast<int>(b_.size()); }
  double a(int i, int j) const { return a_[i][j]; }
  double b(int i) const { return b_[i]; }
  double c(int i) const { return c_[i]; }
  const std::string& name() const { return name_; }

 private:
  std::vector<std::vector<double>> a_;
  std::vector<double> b_;
  std::vector<double> c_;
  std::string name_;
};

// The built-in methods as tableaus (the schemes of the same names step with these, or
// with an equivalent cheaper form: see ssp_rk.hpp and low_storage_rk.hpp).
namespace tableaus {
butcher_tableau forward_euler();  // order 1, 1 stage
butcher_tableau ssp_rk2();        // Heun's method: order 2, 2 stages
butcher_tableau ssp_rk3();        // Shu-Osher: order 3, 3 stages
butcher_tableau rk4();            // the classic Runge-Kutta: order 4, 4 stages
}  // namespace tableaus

}  // namespace funcmesh::time
