// Boundary conditions of the Euler equations as ghost states: from the state inside a
// boundary face, its unit outward normal and the condition's data, the state outside it,
// which a numerical flux then uses as flux(inside, outside, n). Chosen at run time.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/fv/euler.hpp>

namespace funcmesh::fv {

// ---- The ghost states, one function each (n: unit normal out of the domain) ------------

// Slip wall: the normal velocity mirrored, density and pressure kept (the energy too, as
// |u| is unchanged), so a Riemann solver sees a symmetric problem with no mass crossing.
template <int D>
FUNCMESH_DEVICE constexpr euler_state<D> slip_wall_state(const euler_state<D>& inside,
                                                         const vec<double, 3>& n) {
  const double mn = dot_normal<D>(inside, n);
  euler_state<D> out = inside;
  for (int i = 0; i < D; ++i) out[1 + i] = inside[1 + i] - 2.0 * mn * n[i];
  return out;
}

// Far field by characteristics (1-D Riemann invariants along n). Where the inside state's
// normal Mach number is <= -1 (supersonic inflow) every characteristic comes from outside:
// the free stream; where it is >= 1 (supersonic outflow), the inside state. Otherwise
// R+ = un + 2c/(gamma-1) leaves the domain (taken from inside), R- = un - 2c/(gamma-1)
// enters it (from the free stream); they give un and c on the face, and the entropy
// p/rho^gamma and the tangential velocity come from the upwind side (inside where un >= 0).
template <int D>
FUNCMESH_DEVICE euler_state<D> far_field_state(const ideal_gas<D>& gas,
                                               const euler_state<D>& inside,
                                               const vec<double, 3>& n,
                                               const euler_state<D>& free_stream) {
  const euler_state<D> w_in = gas.to_primitive(inside);
  const euler_state<D> w_inf = gas.to_primitive(free_stream);
  const double un_in = dot_normal<D>(w_in, n), c_in = std::sqrt(gas.gamma * w_in[D + 1] / w_in[0]);
  if (un_in <= -c_in) return free_stream;
  if (un_in >= c_in) return inside;
  const double un_inf = dot_normal<D>(w_inf, n);
  const double c_inf = std::sqrt(gas.gamma * w_inf[D + 1] / w_inf[0]);
  const double g1 = gas.gamma - 1.0;
  const double r_plus = un_in + 2.0 * c_in / g1;
  const double r_minus = un_inf - 2.0 * c_inf / g1;
  const double un = 0.5 * (r_plus + r_minus);
  const double c = 0.25 * g1 * (r_plus - r_minus);

  const bool outflow = un >= 0.0;
  const euler_state<D>& up = outflow ? w_in : w_inf;
  const double c_up = outflow ? c_in : c_inf;
  const double un_up = outflow ? un_in : un_inf;
  // Same entropy as the upwind side: c^2 = gamma s rho^(gamma-1), so rho scales as
  // c^(2/(gamma-1)).
  euler_state<D> w{};
  w[0] = up[0] * std::pow(c / c_up, 2.0 / g1);
  for (int i = 0; i < D; ++i) w[1 + i] = up[1 + i] + (un - un_up) * n[i];
  w[D + 1] = w[0] * c * c / gas.gamma;
  return gas.to_conserved(w);
}

// Subsonic pressure outlet: the pressure p_out imposed, density and velocity extrapolated
// from inside (the simplest rule; the Riemann solver at the face sorts the waves), also
// where the flow turns back in. Where the outflow is supersonic (u.n >= c) nothing may be
// imposed: the inside state.
template <int D>
FUNCMESH_DEVICE euler_state<D> pressure_outlet_state(const ideal_gas<D>& gas,
                                                     const euler_state<D>& inside,
                                                     const vec<double, 3>& n, double p_out) {
  euler_state<D> w = gas.to_primitive(inside);
  if (dot_normal<D>(w, n) >= std::sqrt(gas.gamma * w[D + 1] / w[0])) return inside;
  w[D + 1] = p_out;
  return gas.to_conserved(w);
}

// ---- Run-time choice --------------------------------------------------------------------

enum class euler_boundary_kind : int {
  slip_wall,
  far_field,
  supersonic_inflow,
  supersonic_outflow,
  pressure_outlet,
  prescribed,
};

inline constexpr int euler_boundary_kind_count = 6;

// The names a configuration uses, in the enumeration's order.
inline constexpr const char* euler_boundary_kind_names[euler_boundary_kind_count] = {
    "slip-wall",          "far-field",       "supersonic-inflow",
    "supersonic-outflow", "pressure-outlet", "prescribed"};

inline constexpr const char* to_string(euler_boundary_kind k) {
  return euler_boundary_kind_names[static_cast<int>(k)];
}

// The kind named `name` (e.g. "far-field"); throws std::invalid_argument naming the valid
// ones for any other.
inline euler_boundary_kind parse_euler_boundary_kind(std::string_view name) {
  for (int k = 0; k < euler_boundary_kind_count; ++k) {
    if (name == euler_boundary_kind_names[k]) return static_cast<euler_boundary_kind>(k);
  }
  std::string message = "unknown Euler boundary condition '" + std::string(name) + "'; valid: ";
  for (int k = 0; k < euler_boundary_kind_count; ++k) {
    if (k > 0) message += ", ";
    message += euler_boundary_kind_names[k];
  }
  throw std::invalid_argument(message);
}

// One boundary condition, trivially copyable so that a kernel may take a table of them.
// `state` is conserved: the free stream (far field, supersonic inflow) or the prescribed
// state; a per-face prescribed state (a function of position and time) is this condition
// with `state` set for the face before outside() is called.
template <int D>
struct euler_condition {
  using kind = euler_boundary_kind;

  kind type = kind::slip_wall;
  euler_state<D> state{};  // conserved; far field, supersonic inflow, prescribed
  double pressure = 0.0;   // pressure outlet

  static constexpr euler_condition slip_wall() { return {kind::slip_wall, {}, 0.0}; }
  static constexpr euler_condition far_field(const euler_state<D>& free_stream) {
    return {kind::far_field, free_stream, 0.0};
  }
  static constexpr euler_condition supersonic_inflow(const euler_state<D>& inflow) {
    return {kind::supersonic_inflow, inflow, 0.0};
  }
  static constexpr euler_condition supersonic_outflow() {
    return {kind::supersonic_outflow, {}, 0.0};
  }
  static constexpr euler_condition pressure_outlet(double p_out) {
    return {kind::pressure_outlet, {}, p_out};
  }
  static constexpr euler_condition prescribed(const euler_state<D>& given) {
    return {kind::prescribed, given, 0.0};
  }

  // The ghost state outside a face of unit outward normal n.
  FUNCMESH_DEVICE euler_state<D> outside(const ideal_gas<D>& gas, const euler_state<D>& inside,
                                         const vec<double, 3>& n) const {
    switch (type) {
      case kind::slip_wall:
        return slip_wall_state<D>(inside, n);
      case kind::far_field:
        return far_field_state<D>(gas, inside, n, state);
      case kind::supersonic_outflow:
        return inside;
      case kind::pressure_outlet:
        return pressure_outlet_state<D>(gas, inside, n, pressure);
      case kind::supersonic_inflow:
      case kind::prescribed:
        break;
    }
    return state;
  }
};

}  // namespace funcmesh::fv
