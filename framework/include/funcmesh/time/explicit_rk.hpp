// explicit_rk: the generic explicit Runge-Kutta scheme of any butcher_tableau, and the
// built-ins that are exactly their tableau (forward_euler, rk4). Storage: one register per
// stage (k_i) plus one for the stage value Y when some stage reads earlier ones.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/time/butcher_tableau.hpp>
#include <funcmesh/time/linear_combination.hpp>
#include <funcmesh/time/rhs.hpp>
#include <funcmesh/time/state.hpp>

namespace funcmesh::time {

class explicit_rk {
 public:
  explicit explicit_rk(butcher_tableau tableau) : tableau_(std::move(tableau)) {}
  // explicit_rk heun{{{0, 0}, {1, 0}}, {0.5, 0.5}}: the tableau's arguments directly.
  explicit_rk(std::vector<std::vector<double>> a, std::vector<double> b, std::vector<double> c = {},
              std::string name = "a user tableau")
      : tableau_(std::move(a), std::move(b), std::move(c), std::move(name)) {}

  const butcher_tableau& tableau() const { return tableau_; }
  const std::string& name() const { return tableau_.name(); }
  // k_0 .. k_{s-1}, then Y unless every stage evaluates the rhs at u itself.
  int storage() const { return tableau_.stages() + (needs_stage_value() ? 1 : 0); }

  // Stage i: Y = u + dt sum_{j<i} a_ij k_j (one loop; skipped when the row is zero: the
  // rhs then reads u), k_i = rhs(Y, t + c_i dt). Then u += dt sum_i b_i k_i. The rhs's
  // expression is assigned into k_i, never into Y or u, so an rhs reading its argument's
  // neighbours (through proxies) never aliases its target.
  template <class S, class F>
  void step(S& u, const rhs_function<F>& rhs, double t, double dt, stage_storage<S>& work) const {
    const int s = tableau_.stages();
    std::vector<term<S>> terms;
    for (int i = 0; i < s; ++i) {
      terms.clear();
      for (int j = 0; j < i; ++j) {
        if (tableau_.a(i, j) != 0.0) terms.push_back({dt * tableau_.a(i, j), &work[j]});
      }
      const double stage_time = t + tableau_.c(i) * dt;
      if (terms.empty()) {
        work[i] = rhs(u, stage_time);
      } else {
        S& y = work[static_cast<std::size_t>(s)];
        set_combination(y, u, terms);
        work[i] = rhs(y, stage_time);
      }
    }
    terms.clear();
    for (int i = 0; i < s; ++i) {
      if (tableau_.b(i) != 0.0) terms.push_back({dt * tableau_.b(i), &work[i]});
    }
    add_combination(u, terms);
  }

 private:
  bool needs_stage_value() const {
    for (int i = 0; i < tableau_.stages(); ++i) {
      for (int j = 0; j < i; ++j) {
        if (tableau_.a(i, j) != 0.0) return true;
      }
    }
    return false;
  }

  butcher_tableau tableau_;
};

// u += dt rhs(u). Order 1, storage 1.
struct forward_euler : explicit_rk {
  forward_euler() : explicit_rk(tableaus::forward_euler()) {}
};

// The classic fourth-order Runge-Kutta method. Order 4, storage 5 (k_1..k_4 and Y); for
// less memory use carpenter_kennedy_rk4 (low_storage_rk.hpp: 1 register, 5 stages).
struct rk4 : explicit_rk {
  rk4() : explicit_rk(tableaus::rk4()) {}
};

}  // namespace funcmesh::time
