// euler_fv's verification cases as kernel-callable functions of position (and time): the
// isentropic vortex carried by the free stream (smooth, exact), Sod's shock tube (its exact
// solution is sampled on the host: exact_solutions.hpp) and a uniform free stream.
#pragma once

#include <cmath>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/fv/euler.hpp>

namespace euler_case {

namespace fm = funcmesh;
namespace fv = funcmesh::fv;

// Shu's isentropic vortex (free stream rho = u = v = p = 1, strength beta), scaled so that
// `scale` is one unit of the classic 10 x 10 case and centred at (x0, y0) at t = 0: the exact
// solution at (x, t) is the classic one at ((x - x0) / scale - t / scale, ...) (the Euler
// equations are invariant under x, t -> x / s, t / s). In 3-D it is uniform in z (w = 0).
template <int D>
struct vortex {
  fv::ideal_gas<D> gas;
  double x0 = 0, y0 = 0, scale = 1, beta = 5;

  FUNCMESH_DEVICE fv::euler_state<D> operator()(const fm::vec<double, 3>& x, double t) const {
    const double pi = 3.14159265358979323846;
    const double dx = (x[0] - x0 - t) / scale, dy = (x[1] - y0 - t) / scale;
    const double bump = std::exp(0.5 * (1 - dx * dx - dy * dy));
    const double g = gas.gamma;
    const double temperature = 1 - (g - 1) * beta * beta / (8 * g * pi * pi) * bump * bump;
    const double rho = std::pow(temperature, 1 / (g - 1));
    fv::euler_state<D> w{};
    w[0] = rho;
    w[1] = 1 - beta / (2 * pi) * dy * bump;
    w[2] = 1 + beta / (2 * pi) * dx * bump;
    w[D + 1] = rho * temperature;  // p = rho^gamma = rho T
    return gas.to_conserved(w);
  }
  // At a cell centroid at t = 0 (the initial state).
  FUNCMESH_DEVICE fv::euler_state<D> operator()(const fm::vec<double, 3>& x) const {
    return (*this)(x, 0.0);
  }
};

// Sod's tube along x: (1, 0, 1) left of x_mid, (0.125, 0, 0.1) right of it.
template <int D>
struct sod {
  fv::ideal_gas<D> gas;
  double x_mid = 0.5;
  FUNCMESH_DEVICE fv::euler_state<D> operator()(const fm::vec<double, 3>& x) const {
    fv::euler_state<D> w{};
    const bool left = x[0] < x_mid;
    w[0] = left ? 1.0 : 0.125;
    w[D + 1] = left ? 1.0 : 0.1;
    return gas.to_conserved(w);
  }
};

// The same state everywhere.
template <int D>
struct uniform {
  fv::euler_state<D> state;
  FUNCMESH_DEVICE fv::euler_state<D> operator()(const fm::vec<double, 3>&) const { return state; }
  FUNCMESH_DEVICE fv::euler_state<D> operator()(const fm::vec<double, 3>&, double) const {
    return state;
  }
};

// Conserved <-> primitive, as face-loop conversions (reconstruction on primitive variables).
template <int D>
struct to_primitive {
  fv::ideal_gas<D> gas;
  FUNCMESH_DEVICE fv::euler_state<D> operator()(const fv::euler_state<D>& u) const {
    return gas.to_primitive(u);
  }
};
template <int D>
struct to_conserved {
  fv::ideal_gas<D> gas;
  FUNCMESH_DEVICE fv::euler_state<D> operator()(const fv::euler_state<D>& w) const {
    return gas.to_conserved(w);
  }
};

// A boundary value (the outside state: least squares' ghost or face value) in primitive
// variables, from a boundary condition on conserved ones.
template <int D, class Outside>
struct primitive_face_state {
  fv::ideal_gas<D> gas;
  Outside outside;
  FUNCMESH_DEVICE fv::euler_state<D> operator()(const fv::euler_state<D>& w,
                                                const fm::face_view& f) const {
    return gas.to_primitive(outside(gas.to_conserved(w), f));
  }
};

// Density and pressure of a conserved state (for the positivity check and the picture).
template <int D>
struct density {
  FUNCMESH_DEVICE double operator()(const fv::euler_state<D>& u) const { return u[0]; }
};
template <int D>
struct pressure {
  fv::ideal_gas<D> gas;
  FUNCMESH_DEVICE double operator()(const fv::euler_state<D>& u) const { return gas.pressure(u); }
};

}  // namespace euler_case
