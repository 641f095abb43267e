// Numerical fluxes (approximate Riemann solvers) for the Euler equations: Rusanov, HLL,
// HLLC (Toro ch. 10) and Roe with Harten's entropy fix (Toro ch. 11), each evaluated in one
// canonical orientation so that a face computed from its two sides gives opposite bits.
#pragma once

#include <cmath>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/fv/canonical_orientation.hpp>
#include <funcmesh/fv/detail/min_max.hpp>
#include <funcmesh/fv/euler.hpp>

namespace funcmesh::fv {

// Every solver here has its formula as one_sided(left, right, n), in the orientation it is
// given, and its operator() as that formula under canonical_orientation: a gather face
// loop evaluates each face as flux(a, b, n) and as flux(b, a, -n), and the two are then
// exact negatives (a formula conservative on paper is not so in floating point).

namespace detail {

// Calls solver.one_sided: what canonical_orientation wraps.
template <class Solver>
struct one_sided_of {
  Solver solver;
  template <class U>
  FUNCMESH_DEVICE U operator()(const U& left, const U& right, const vec<double, 3>& n) const {
    return solver.one_sided(left, right, n);
  }
};

// What every solver needs of one side of the face, computed once.
template <int D>
struct euler_side {
  euler_state<D> u;  // conserved
  double rho, un, p, c, h;
  euler_state<D> f;  // F(u).n

  FUNCMESH_DEVICE euler_side(const ideal_gas<D>& gas, const euler_state<D>& state,
                             const vec<double, 3>& n)
      : u(state),
        rho(state[0]),
        un(dot_normal<D>(state, n) / state[0]),
        p(gas.pressure(state)),
        c(std::sqrt(gas.gamma * p / state[0])),
        h((state[D + 1] + p) / state[0]),
        f(gas.normal_flux(state, n, p)) {}
  FUNCMESH_DEVICE double velocity(int i) const { return u[1 + i] / rho; }
};

// Roe's averages (weights sqrt(rho)): velocity, enthalpy, sound speed, density.
template <int D>
struct roe_average {
  double velocity[D];
  double un, h, c, rho, q2;  // q2 = |velocity|^2

  FUNCMESH_DEVICE roe_average(const ideal_gas<D>& gas, const euler_side<D>& l,
                              const euler_side<D>& r, const vec<double, 3>& n) {
    const double sl = std::sqrt(l.rho), sr = std::sqrt(r.rho);
    const double w = 1.0 / (sl + sr);
    un = 0.0;
    q2 = 0.0;
    for (int i = 0; i < D; ++i) {
      velocity[i] = (sl * l.velocity(i) + sr * r.velocity(i)) * w;
      un += velocity[i] * n[i];
      q2 += velocity[i] * velocity[i];
    }
    h = (sl * l.h + sr * r.h) * w;
    // For an ideal gas h - q2/2 is the weighted mean of c^2/(gamma-1) plus a variance of
    // the velocity, so it is positive; fmax only keeps rounding from taking sqrt of < 0.
    c = std::sqrt(detail::max_number((gas.gamma - 1.0) * (h - 0.5 * q2), 0.0));
    rho = sl * sr;
  }
};

}  // namespace detail

// How HLL and HLLC bound the fastest left- and right-going signals.
enum class wave_speed_estimate {
  // Davis: S_L = min(un_L - c_L, un_R - c_R), S_R = max(un_L + c_L, un_R + c_R). Needs no
  // average (robust near vacuum), and S_L >= 0 exactly when both sides are supersonic
  // along n, so the flux is then exactly the upwind F(left).n.
  davis,
  // Einfeldt (HLLE): S_L = min(un_L - c_L, Roe's un - c), S_R = max(un_R + c_R, Roe's
  // un + c) (Toro eq. 10.52). Sharper at shocks; with a strong expansion between two
  // supersonic states Roe's un - c may turn negative, and the flux is then not upwind.
  einfeldt,
};

namespace detail {
template <int D>
FUNCMESH_DEVICE void wave_speeds(const ideal_gas<D>& gas, wave_speed_estimate estimate,
                                 const euler_side<D>& l, const euler_side<D>& r,
                                 const vec<double, 3>& n, double& s_l, double& s_r) {
  if (estimate == wave_speed_estimate::einfeldt) {
    const roe_average<D> a(gas, l, r, n);
    s_l = detail::min_number(l.un - l.c, a.un - a.c);
    s_r = detail::max_number(r.un + r.c, a.un + a.c);
  } else {
    s_l = detail::min_number(l.un - l.c, r.un - r.c);
    s_r = detail::max_number(l.un + l.c, r.un + r.c);
  }
}
}  // namespace detail

// Rusanov (local Lax-Friedrichs): the mean of the physical fluxes minus a dissipation at
// the fastest wave speed of either side. The most diffusive and the most robust.
template <int D>
struct euler_rusanov {
  ideal_gas<D> gas{};

  FUNCMESH_DEVICE euler_state<D> one_sided(const euler_state<D>& left, const euler_state<D>& right,
                                           const vec<double, 3>& n) const {
    const detail::euler_side<D> l(gas, left, n), r(gas, right, n);
    const double s = detail::max_number(std::abs(l.un) + l.c, std::abs(r.un) + r.c);
    return 0.5 * (l.f + r.f) - (0.5 * s) * (r.u - l.u);
  }
  FUNCMESH_DEVICE euler_state<D> operator()(const euler_state<D>& left, const euler_state<D>& right,
                                            const vec<double, 3>& n) const {
    return canonical_orientation<detail::one_sided_of<euler_rusanov>>{{*this}}(left, right, n);
  }
};

// HLL (Harten, Lax, van Leer; Toro sec. 10.3): one average state between the two fastest
// waves. Resolves no contact; positive with Einfeldt's speeds.
template <int D>
struct euler_hll {
  ideal_gas<D> gas{};
  wave_speed_estimate speeds = wave_speed_estimate::davis;

  FUNCMESH_DEVICE euler_state<D> one_sided(const euler_state<D>& left, const euler_state<D>& right,
                                           const vec<double, 3>& n) const {
    const detail::euler_side<D> l(gas, left, n), r(gas, right, n);
    double s_l = 0.0, s_r = 0.0;
    detail::wave_speeds(gas, speeds, l, r, n, s_l, s_r);
    if (s_l >= 0.0) return l.f;
    if (s_r <= 0.0) return r.f;
    return (s_r * l.f - s_l * r.f + (s_l * s_r) * (r.u - l.u)) / (s_r - s_l);
  }
  FUNCMESH_DEVICE euler_state<D> operator()(const euler_state<D>& left, const euler_state<D>& right,
                                            const vec<double, 3>& n) const {
    return canonical_orientation<detail::one_sided_of<euler_hll>>{{*this}}(left, right, n);
  }
};

// HLLC (Toro sec. 10.4): HLL with the contact restored, two star states separated by the
// contact speed S* (Toro eq. 10.37). The star flux is written as Toro's variant
// (S*(S_K U_K - F_K) + S_K p*_K D*) / (S_K - S*), D* = (0, n, S*): at a contact at rest
// (S* = 0) its mass and energy parts are exactly zero.
template <int D>
struct euler_hllc {
  ideal_gas<D> gas{};
  wave_speed_estimate speeds = wave_speed_estimate::davis;

  FUNCMESH_DEVICE euler_state<D> one_sided(const euler_state<D>& left, const euler_state<D>& right,
                                           const vec<double, 3>& n) const {
    const detail::euler_side<D> l(gas, left, n), r(gas, right, n);
    double s_l = 0.0, s_r = 0.0;
    detail::wave_speeds(gas, speeds, l, r, n, s_l, s_r);
    if (s_l >= 0.0) return l.f;
    if (s_r <= 0.0) return r.f;
    const double a_l = l.rho * (s_l - l.un), a_r = r.rho * (s_r - r.un);
    double s_star = (r.p - l.p + a_l * l.un - a_r * r.un) / (a_l - a_r);
    // With speed estimates that are too slow S* could leave [S_L, S_R] (and a star density
    // turn negative); clamped, the branch below never divides by zero.
    s_star = detail::min_number(detail::max_number(s_star, s_l), s_r);
    const bool from_left = s_star >= 0.0;
    const detail::euler_side<D>& k = from_left ? l : r;
    const double s_k = from_left ? s_l : s_r;
    const double a_k = from_left ? a_l : a_r;
    const double p_star = k.p + a_k * (s_star - k.un);
    euler_state<D> d{};
    for (int i = 0; i < D; ++i) d[1 + i] = n[i];
    d[D + 1] = s_star;
    return (s_star * (s_k * k.u - k.f) + (s_k * p_star) * d) / (s_k - s_star);
  }
  FUNCMESH_DEVICE euler_state<D> operator()(const euler_state<D>& left, const euler_state<D>& right,
                                            const vec<double, 3>& n) const {
    return canonical_orientation<detail::one_sided_of<euler_hllc>>{{*this}}(left, right, n);
  }
};

// Roe (Toro ch. 11): the mean of the physical fluxes minus sum |lambda_k| alpha_k r_k over
// the waves of Roe's averaged Jacobian. Harten's entropy fix replaces |lambda| by
// (lambda^2 + delta^2) / (2 delta) where |lambda| < delta, delta = entropy_fix * (|un~| +
// c~), on the two acoustic waves only: on the contact and shear waves it would smear a
// contact at rest. entropy_fix = 0 turns it off. Where both sides are supersonic along +n
// (or -n) the exact Riemann solution at the face is that side's state, and the flux is its
// F.n exactly, without the fix's dissipation (the same condition as Davis' HLL).
template <int D>
struct euler_roe {
  ideal_gas<D> gas{};
  double entropy_fix = 0.1;

  FUNCMESH_DEVICE euler_state<D> one_sided(const euler_state<D>& left, const euler_state<D>& right,
                                           const vec<double, 3>& n) const {
    const detail::euler_side<D> l(gas, left, n), r(gas, right, n);
    if (l.un - l.c >= 0.0 && r.un - r.c >= 0.0) return l.f;
    if (l.un + l.c <= 0.0 && r.un + r.c <= 0.0) return r.f;
    const detail::roe_average<D> a(gas, l, r, n);
    const double delta = entropy_fix * (std::abs(a.un) + a.c);
    const double abs_1 = harten(a.un - a.c, delta), abs_2 = std::abs(a.un);
    const double abs_5 = harten(a.un + a.c, delta);

    // Wave strengths from the jumps of the primitive variables.
    const double dp = r.p - l.p, drho = r.rho - l.rho;
    double du[D];
    double dun = 0.0;
    for (int i = 0; i < D; ++i) {
      du[i] = r.velocity(i) - l.velocity(i);
      dun += du[i] * n[i];
    }
    const double c2 = a.c * a.c;
    const double alpha_1 = (dp - a.rho * a.c * dun) / (2.0 * c2);
    const double alpha_5 = (dp + a.rho * a.c * dun) / (2.0 * c2);
    const double alpha_2 = drho - dp / c2;  // entropy wave
    const double w1 = abs_1 * alpha_1, w5 = abs_5 * alpha_5, w2 = abs_2 * alpha_2;

    // The shear waves (speed un~, strength rho~ times the tangential velocity jump).
    euler_state<D> diss{};
    double u_dut = 0.0;
    diss[0] = w1 + w2 + w5;
    for (int i = 0; i < D; ++i) {
      const double dut = a.rho * (du[i] - dun * n[i]);
      u_dut += a.velocity[i] * dut;
      diss[1 + i] = w1 * (a.velocity[i] - a.c * n[i]) + w2 * a.velocity[i] + abs_2 * dut +
                    w5 * (a.velocity[i] + a.c * n[i]);
    }
    diss[D + 1] =
        w1 * (a.h - a.un * a.c) + w2 * (0.5 * a.q2) + abs_2 * u_dut + w5 * (a.h + a.un * a.c);
    return 0.5 * (l.f + r.f) - 0.5 * diss;
  }
  FUNCMESH_DEVICE euler_state<D> operator()(const euler_state<D>& left, const euler_state<D>& right,
                                            const vec<double, 3>& n) const {
    return canonical_orientation<detail::one_sided_of<euler_roe>>{{*this}}(left, right, n);
  }

 private:
  FUNCMESH_DEVICE static double harten(double lambda, double delta) {
    const double a = std::abs(lambda);
    return a < delta ? (lambda * lambda + delta * delta) / (2.0 * delta) : a;
  }
};

}  // namespace funcmesh::fv
