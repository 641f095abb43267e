// Strong-stability-preserving Runge-Kutta schemes in Shu-Osher form (each stage a convex
// combination of forward Euler steps): ssp_rk2 (Heun) and ssp_rk3 (Shu and Osher 1988).
// Storage 2 each (the stage value and one rhs register), against 3 and 4 as tableaus.
#pragma once

#include <string>

#include <funcmesh/time/rhs.hpp>
#include <funcmesh/time/state.hpp>

namespace funcmesh::time {

// u1 = u + dt L(u); u <- u/2 + (u1 + dt L(u1))/2.
struct ssp_rk2 {
  static constexpr int storage = 2;
  static constexpr int order = 2;
  std::string name() const { return "ssp_rk2"; }

  template <class S, class F>
  void step(S& u, const rhs_function<F>& rhs, double t, double dt, stage_storage<S>& work) const {
    S& k = work[0];
    S& y = work[1];
    k = rhs(u, t);
    y = values(u) + dt * values(k);
    k = rhs(y, t + dt);
    u = 0.5 * values(u) + 0.5 * values(y) + (0.5 * dt) * values(k);
  }
};

// u1 = u + dt L(u); u2 = 3/4 u + 1/4 (u1 + dt L(u1)); u <- 1/3 u + 2/3 (u2 + dt L(u2)).
// u2 overwrites u1 in place (read at its own index only), so two registers suffice. The
// last stage is written u + 2/3 (u2 + dt L(u2) - u): as 1/3 u + 2/3 (...) it would scale
// the state by fl(1/3) + fl(2/3) = 1 - 2^-54 each step, a drift of a conserved sum
// (-2.2e-13 relative after 4000 steps); as an increment the weight's rounding multiplies
// only the step's change. (3/4 and 1/4 are exact: the second stage keeps its form.)
struct ssp_rk3 {
  static constexpr int storage = 2;
  static constexpr int order = 3;
  std::string name() const { return "ssp_rk3"; }

  template <class S, class F>
  void step(S& u, const rhs_function<F>& rhs, double t, double dt, stage_storage<S>& work) const {
    S& k = work[0];
    S& y = work[1];
    k = rhs(u, t);
    y = values(u) + dt * values(k);
    k = rhs(y, t + dt);
    y = 0.75 * values(u) + 0.25 * values(y) + (0.25 * dt) * values(k);
    k = rhs(y, t + 0.5 * dt);
    u = values(u) + (2.0 / 3.0) * (values(y) + dt * values(k) - values(u));
  }
};

}  // namespace funcmesh::time
