// Numerical fluxes for scalar laws and general systems: upwind for linear advection,
// Rusanov (local Lax-Friedrichs) and HLL for any Physics that gives its normal flux and
// wave speeds. Each is the normal flux per unit area out of left through a face of unit
// normal n (pointing from left to right), bitwise antisymmetric under swapping the sides.
#pragma once

#include <cmath>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/fv/canonical_orientation.hpp>
#include <funcmesh/fv/detail/min_max.hpp>

namespace funcmesh::fv {

// Upwind flux of linear advection u_t + div(a u) = 0, given a_n = a . n on the face.
// Exactly antisymmetric: upwind_flux(right, left, -a_n) == -upwind_flux(left, right, a_n).
FUNCMESH_DEVICE inline double upwind_flux(double left, double right, double a_n) {
  return a_n > 0.0 ? a_n * left : a_n * right;
}

template <int N>
FUNCMESH_DEVICE inline vec<double, N> upwind_flux(const vec<double, N>& left,
                                                  const vec<double, N>& right, double a_n) {
  return a_n > 0.0 ? a_n * left : a_n * right;
}

// The smallest and largest signal speeds of a state along a normal: what a Physics'
// wave_speeds(u, n) returns for HLL (any struct with members lo and hi will do).
struct wave_speed_bounds {
  double lo;
  double hi;
};

namespace detail {

// Rusanov's formula in whatever orientation it is given: the mean of the physical fluxes
// with dissipation scaled by the largest wave speed of either side.
template <class Physics>
struct rusanov_formula {
  Physics physics;

  FUNCMESH_EXEC_CHECK_DISABLE
  template <class U>
  FUNCMESH_DEVICE U operator()(const U& left, const U& right, const vec<double, 3>& n) const {
    const double s =
        detail::max_number(physics.max_wave_speed(left, n), physics.max_wave_speed(right, n));
    const U f_left = physics.normal_flux(left, n);
    const U f_right = physics.normal_flux(right, n);
    return 0.5 * (f_left + f_right) - (0.5 * s) * (right - left);
  }
};

// HLL's formula (Toro, section 10.3) with Davis' bounds: s_lo the smaller of both sides'
// lo, s_hi the larger of both sides' hi. Supersonic cases return a physical flux exactly.
template <class Physics>
struct hll_formula {
  Physics physics;

  FUNCMESH_EXEC_CHECK_DISABLE
  template <class U>
  FUNCMESH_DEVICE U operator()(const U& left, const U& right, const vec<double, 3>& n) const {
    const auto w_left = physics.wave_speeds(left, n);
    const auto w_right = physics.wave_speeds(right, n);
    const double s_lo = detail::min_number(w_left.lo, w_right.lo);
    const double s_hi = detail::max_number(w_left.hi, w_right.hi);
    if (s_lo >= 0.0) return physics.normal_flux(left, n);
    if (s_hi <= 0.0) return physics.normal_flux(right, n);
    // Here s_lo < 0 < s_hi, so the denominator is positive.
    const U f_left = physics.normal_flux(left, n);
    const U f_right = physics.normal_flux(right, n);
    return (s_hi * f_left - s_lo * f_right + (s_lo * s_hi) * (right - left)) / (s_hi - s_lo);
  }
};

}  // namespace detail

// Rusanov's flux for any system. Physics (trivially copyable) provides, as FUNCMESH_DEVICE
// const members:
//   U normal_flux(const U& u, const vec<double, 3>& n)     -- F(u) . n
//   double max_wave_speed(const U& u, const vec<double, 3>& n)  -- a bound >= 0 on |lambda|
// U is double or vec<double, N>. Evaluated in the canonical orientation.
template <class Physics>
struct rusanov {
  Physics physics;

  template <class U>
  FUNCMESH_DEVICE U operator()(const U& left, const U& right, const vec<double, 3>& n) const {
    return canonical_orientation<detail::rusanov_formula<Physics>>{{physics}}(left, right, n);
  }
};

template <class Physics>
rusanov(Physics) -> rusanov<Physics>;

// HLL's flux for any system. Physics provides normal_flux as for rusanov and
//   wave_speed_bounds wave_speeds(const U& u, const vec<double, 3>& n)  -- {lo, hi}
// the smallest and largest signal speeds along n (lo <= hi). When all waves go one way
// the result is the upwind side's physical flux. Evaluated in the canonical orientation.
template <class Physics>
struct hll {
  Physics physics;

  template <class U>
  FUNCMESH_DEVICE U operator()(const U& left, const U& right, const vec<double, 3>& n) const {
    return canonical_orientation<detail::hll_formula<Physics>>{{physics}}(left, right, n);
  }
};

template <class Physics>
hll(Physics) -> hll<Physics>;

}  // namespace funcmesh::fv
