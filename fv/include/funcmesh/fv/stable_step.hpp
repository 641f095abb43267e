// The stable explicit step, per cell, as cells expressions: convective V / sum over faces of
// |lambda| A, diffusive V / (nu sum over faces of A / d). Their global minimum (global_min
// over a layout) times a CFL number is dt; the field itself gives local time steps.
#pragma once

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/expr/zip_expr.hpp>
#include <funcmesh/faces/face_sum.hpp>

namespace funcmesh::fv {

namespace detail {
template <class Physics>
struct wave_rate {
  Physics physics;
  static constexpr index_t work = 16;
  template <class T>
  FUNCMESH_DEVICE double operator()(const T& u, const face_view& f) const {
    return physics.max_wave_speed(u, f.normal) * f.area;
  }
};
struct diffusion_rate {
  double nu;
  FUNCMESH_DEVICE double operator()(double, const face_view& f) const {
    return nu * f.area / f.distance;
  }
};
struct times_ratio {
  double cfl;
  FUNCMESH_DEVICE constexpr double operator()(double volume, double rate) const {
    return cfl * volume / rate;
  }
};
}  // namespace detail

// cfl * V / sum over the cell's faces of lambda_max(u, n) A: the largest stable step of each
// owned or halo cell for a convective flux (Physics: max_wave_speed(u, n), as for rusanov and
// the Euler gas). dt = global_min(layout, convective_step(...)) for a global step; assigned to
// a field, local time steps (steady problems). Reads only the cell's own value.
template <class Physics, class U>
auto convective_step(const face_set& faces, const grid_function<double>& volume,
                     const Physics& physics, const U& u, double cfl) {
  return make_zip(detail::times_ratio{cfl}, volume,
                  sum_over_cell_faces(faces, detail::wave_rate<Physics>{physics}, u));
}

// cfl * V / (nu sum over faces of A / d), d the centroids' distance (to the face centroid on
// the domain boundary): two-point diffusion's limit (forward Euler is stable up to cfl = 1
// on a uniform grid, where V / (nu sum A / d) = h^2 / (2 D nu)).
inline auto diffusive_step(const face_set& faces, const grid_function<double>& volume, double nu,
                           double cfl) {
  return make_zip(detail::times_ratio{cfl}, volume,
                  sum_over_cell_faces(faces, detail::diffusion_rate{nu}, 0.0));
}

}  // namespace funcmesh::fv
