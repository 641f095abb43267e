// The ideal gas of the compressible Euler equations in D = 2 or 3 dimensions: pressure,
// sound speed, primitive <-> conserved variables, the physical normal flux and the fastest
// wave speed. Conserved state (rho, rho u_1..u_D, E); primitive state (rho, u_1..u_D, p).
#pragma once

#include <cmath>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/vec.hpp>

namespace funcmesh::fv {

// A cell's conserved variables (rho, rho u_1..u_D, E), or primitive ones (rho, u_1..u_D, p)
// where a function says so.
template <int D>
using euler_state = vec<double, D + 2>;

// The normal velocity u.n of a primitive or a momentum part: only n[0..D-1] are read, so a
// 2-D face's normal may carry anything in n[2].
template <int D>
FUNCMESH_DEVICE constexpr double dot_normal(const euler_state<D>& w, const vec<double, 3>& n) {
  double s = 0.0;
  for (int i = 0; i < D; ++i) s += w[1 + i] * n[i];
  return s;
}

template <int D>
struct ideal_gas {
  static_assert(D == 2 || D == 3, "ideal_gas<D> is for D = 2 or 3");
  static constexpr int dimensions = D;
  static constexpr int components = D + 2;

  double gamma = 1.4;  // ratio of specific heats

  // Kinetic energy per unit volume, |m|^2 / (2 rho).
  FUNCMESH_DEVICE constexpr double kinetic_energy(const euler_state<D>& u) const {
    double m2 = 0.0;
    for (int i = 0; i < D; ++i) m2 += u[1 + i] * u[1 + i];
    return 0.5 * m2 / u[0];
  }

  FUNCMESH_DEVICE constexpr double pressure(const euler_state<D>& u) const {
    return (gamma - 1.0) * (u[D + 1] - kinetic_energy(u));
  }

  // No clamp of a negative pressure: a NaN says that the state is not physical, where a
  // clamped sound speed would carry the scheme on with garbage.
  FUNCMESH_DEVICE double sound_speed(const euler_state<D>& u) const {
    return std::sqrt(gamma * pressure(u) / u[0]);
  }

  // Total specific enthalpy H = (E + p) / rho.
  FUNCMESH_DEVICE constexpr double enthalpy(const euler_state<D>& u) const {
    return (u[D + 1] + pressure(u)) / u[0];
  }

  // (rho, u_1..u_D, p) from (rho, rho u_1..u_D, E).
  FUNCMESH_DEVICE constexpr euler_state<D> to_primitive(const euler_state<D>& u) const {
    euler_state<D> w{};
    w[0] = u[0];
    for (int i = 0; i < D; ++i) w[1 + i] = u[1 + i] / u[0];
    w[D + 1] = pressure(u);
    return w;
  }

  // (rho, rho u_1..u_D, E) from (rho, u_1..u_D, p).
  FUNCMESH_DEVICE constexpr euler_state<D> to_conserved(const euler_state<D>& w) const {
    euler_state<D> u{};
    u[0] = w[0];
    double v2 = 0.0;
    for (int i = 0; i < D; ++i) {
      u[1 + i] = w[0] * w[1 + i];
      v2 += w[1 + i] * w[1 + i];
    }
    u[D + 1] = w[D + 1] / (gamma - 1.0) + 0.5 * w[0] * v2;
    return u;
  }

  // The physical flux F(u).n given the pressure (the numerical fluxes have it already):
  // (rho un, rho u un + p n, (E + p) un), un = u.n.
  FUNCMESH_DEVICE constexpr euler_state<D> normal_flux(const euler_state<D>& u,
                                                       const vec<double, 3>& n, double p) const {
    const double un = dot_normal<D>(u, n) / u[0];
    euler_state<D> f{};
    f[0] = u[0] * un;
    for (int i = 0; i < D; ++i) f[1 + i] = u[1 + i] * un + p * n[i];
    f[D + 1] = (u[D + 1] + p) * un;
    return f;
  }

  // F(u).n for a unit normal n; in 2-D only n[0], n[1] are read.
  FUNCMESH_DEVICE constexpr euler_state<D> normal_flux(const euler_state<D>& u,
                                                       const vec<double, 3>& n) const {
    return normal_flux(u, n, pressure(u));
  }

  // The slowest and fastest signal speeds along n, u.n - c and u.n + c (members lo and hi,
  // as the generic hll<Physics> of numerical_fluxes.hpp reads them).
  struct signal_speeds {
    double lo, hi;
  };
  FUNCMESH_DEVICE signal_speeds wave_speeds(const euler_state<D>& u,
                                            const vec<double, 3>& n) const {
    const double un = dot_normal<D>(u, n) / u[0], c = sound_speed(u);
    return {un - c, un + c};
  }

  // |u.n| + c: the fastest signal across a face of unit normal n.
  FUNCMESH_DEVICE double max_wave_speed(const euler_state<D>& u, const vec<double, 3>& n) const {
    return std::abs(dot_normal<D>(u, n) / u[0]) + sound_speed(u);
  }
};

}  // namespace funcmesh::fv
