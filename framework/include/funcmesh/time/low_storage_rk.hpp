// low_storage_rk: 2N-storage explicit Runge-Kutta in Williamson's form (u and one register
// du whatever the stage count): du = A_i du + dt L(u), u += B_i du. Built in:
// williamson_rk3 (3 stages, order 3) and carpenter_kennedy_rk4 (RK4(3)5: 5 stages, order 4).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <funcmesh/time/butcher_tableau.hpp>
#include <funcmesh/time/rhs.hpp>
#include <funcmesh/time/state.hpp>

namespace funcmesh::time {

class low_storage_rk {
 public:
  // A_0 must be 0 (the first stage starts du afresh); c are the stage times (checked
  // against the equivalent tableau's row sums, as are sum(b) = 1 and the sizes).
  low_storage_rk(std::vector<double> A, std::vector<double> B, std::vector<double> c,
                 std::string name = "a user low-storage scheme");

  static constexpr int storage = 1;
  int stages() const { return static_cast<int>(B_.size()); }
  const std::string& name() const { return name_; }
  // The same method as a Butcher tableau (what explicit_rk would step): equal results up
  // to rounding, with stages + 1 registers instead of 1.
  butcher_tableau tableau() const;

  // Stage i: du = A_i du + dt rhs(u, t + c_i dt) in one loop (the rhs's expression is
  // fused into the register update: no k register), then u += B_i du. The two cannot
  // share a loop: the rhs may read u's neighbours, which the second statement writes.
  template <class S, class F>
  void step(S& u, const rhs_function<F>& rhs, double t, double dt, stage_storage<S>& work) const {
    S& du = work[0];
    for (int i = 0; i < stages(); ++i) {
      const double stage_time = t + c_[i] * dt;
      if (i == 0) {
        du = dt * rhs(u, stage_time);
      } else {
        du = A_[i] * values(du) + dt * rhs(u, stage_time);
      }
      u += B_[i] * values(du);
    }
  }

 private:
  std::vector<double> A_;
  std::vector<double> B_;
  std::vector<double> c_;
  std::string name_;
};

// Williamson (1980), the 2N third-order scheme: A = (0, -5/9, -153/128),
// B = (1/3, 15/16, 8/15). Order 3, storage 1.
struct williamson_rk3 : low_storage_rk {
  williamson_rk3();
};

// Carpenter and Kennedy (1994), RK4(3)5 2N-storage, solution 3: 5 stages, order 4,
// storage 1 (rk4 needs 5 registers).
struct carpenter_kennedy_rk4 : low_storage_rk {
  carpenter_kennedy_rk4();
};

}  // namespace funcmesh::time
