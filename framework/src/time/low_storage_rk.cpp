// 2N low-storage schemes: their checks, their Butcher tableaus, the built-in coefficients.
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/time/low_storage_rk.hpp>

namespace funcmesh::time {

low_storage_rk::low_storage_rk(std::vector<double> A, std::vector<double> B, std::vector<double> c,
                               std::string name)
    : A_(std::move(A)), B_(std::move(B)), c_(std::move(c)), name_(std::move(name)) {
  const std::string what = "funcmesh::time: low-storage scheme '" + name_ + "': ";
  if (B_.empty()) throw time_error(what + "no stages (B is empty)");
  if (A_.size() != B_.size() || c_.size() != B_.size()) {
    throw time_error(what + "A, B and c must have one entry per stage (they have " +
                     std::to_string(A_.size()) + ", " + std::to_string(B_.size()) + " and " +
                     std::to_string(c_.size()) + ")");
  }
  for (std::size_t i = 0; i < B_.size(); ++i) {
    if (!std::isfinite(A_[i]) || !std::isfinite(B_[i]) || !std::isfinite(c_[i])) {
      throw time_error(what + "stage " + std::to_string(i) + " has a non-finite coefficient");
    }
  }
  if (A_[0] != 0.0) throw time_error(what + "A[0] must be 0 (the first stage starts du afresh)");
  (void)tableau();  // sum(b) = 1 and c = row sums, with the tableau's messages
}

// du_l = sum_{j<=l} P(j,l) dt k_j with P(j,l) = A_{j+1} ... A_l, and U_i = u + sum_{l<i}
// B_l du_l, so a_ij = sum_{l=j}^{i-1} B_l P(j,l) and b_j = sum_{l>=j} B_l P(j,l).
butcher_tableau low_storage_rk::tableau() const {
  const std::size_t s = B_.size();
  std::vector<std::vector<double>> a(s, std::vector<double>(s, 0.0));
  std::vector<double> b(s, 0.0);
  for (std::size_t j = 0; j < s; ++j) {
    double product = 1.0;  // P(j, l)
    double accumulated = 0.0;
    for (std::size_t l = j; l < s; ++l) {
      if (l > j) product *= A_[l];
      accumulated += B_[l] * product;
      if (l + 1 < s) a[l + 1][j] = accumulated;
    }
    b[j] = accumulated;
  }
  return {std::move(a), std::move(b), c_, name_};
}

williamson_rk3::williamson_rk3()
    : low_storage_rk({0.0, -5.0 / 9.0, -153.0 / 128.0}, {1.0 / 3.0, 15.0 / 16.0, 8.0 / 15.0},
                     {0.0, 1.0 / 3.0, 3.0 / 4.0}, "williamson_rk3") {}

carpenter_kennedy_rk4::carpenter_kennedy_rk4()
    : low_storage_rk({0.0, -567301805773.0 / 1357537059087.0, -2404267990393.0 / 2016746695238.0,
                      -3550918686646.0 / 2091501179385.0, -1275806237668.0 / 842570457699.0},
                     {1432997174477.0 / 9575080441755.0, 5161836677717.0 / 13612068292357.0,
                      1720146321549.0 / 2090206949498.0, 3134564353537.0 / 4481467310338.0,
                      2277821191437.0 / 14882151754819.0},
                     {0.0, 1432997174477.0 / 9575080441755.0, 2526269341429.0 / 6820363962896.0,
                      2006345519317.0 / 3224310063776.0, 2802321613138.0 / 2924317926251.0},
                     "carpenter_kennedy_rk4") {}

}  // namespace funcmesh::time
