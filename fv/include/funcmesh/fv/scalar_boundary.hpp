// Scalar boundary conditions by group, chosen at run time (a boundary_table of them):
// Dirichlet (a value), Neumann (a flux density in) and inflow/outflow by the sign of the
// flow; with the two-point diffusion flux and its boundary flux, which read them.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/fv/boundary_table.hpp>

namespace funcmesh::fv {

enum class scalar_boundary_kind : int { dirichlet, neumann, inflow_outflow };
inline constexpr const char* scalar_boundary_kind_names[] = {"dirichlet", "neumann",
                                                             "inflow-outflow"};

// "dirichlet", "neumann" or "inflow-outflow"; any other name throws std::invalid_argument
// that lists them.
inline scalar_boundary_kind parse_scalar_boundary_kind(std::string_view name) {
  std::string valid;
  for (int k = 0; k < 3; ++k) {
    if (name == scalar_boundary_kind_names[k]) return static_cast<scalar_boundary_kind>(k);
    valid += (k > 0 ? ", " : "") + std::string(scalar_boundary_kind_names[k]);
  }
  throw std::invalid_argument("unknown scalar boundary condition '" + std::string(name) +
                              "'; valid: " + valid);
}

// One group's condition. Dirichlet: u = value on the face. Neumann: value is the flux
// density into the domain (kappa du/dn with n outward). Inflow/outflow: where the flow
// enters (a . n < 0, n outward) u = value comes in; where it leaves, the cell's own value
// goes out (and no diffusion crosses).
struct scalar_condition {
  scalar_boundary_kind type = scalar_boundary_kind::neumann;
  double value = 0;

  static constexpr scalar_condition dirichlet(double u) {
    return {scalar_boundary_kind::dirichlet, u};
  }
  static constexpr scalar_condition neumann(double flux_in) {
    return {scalar_boundary_kind::neumann, flux_in};
  }
  static constexpr scalar_condition inflow_outflow(double u_in) {
    return {scalar_boundary_kind::inflow_outflow, u_in};
  }

  // The value outside the face for an advective flux of normal velocity a_n (out of the
  // domain): what upwinding takes where the flow enters.
  FUNCMESH_DEVICE constexpr double outside(double inside, double a_n) const {
    if (type == scalar_boundary_kind::dirichlet) return value;
    if (type == scalar_boundary_kind::inflow_outflow && a_n < 0) return value;
    return inside;
  }
};

// Two-point diffusion into the cell holding `self`: kappa (u_other - u_self) A / d, d the
// distance between the centroids (a face-loop flux; exactly antisymmetric).
struct two_point_diffusion {
  double kappa = 1;
  FUNCMESH_DEVICE double operator()(double self, double other, const face_view& f) const {
    return kappa * (other - self) * f.area / f.distance;
  }
};

// Its boundary flux by group: Dirichlet kappa (value - u) A / d (d to the face centroid),
// Neumann value A, inflow/outflow none.
struct diffusion_boundary {
  double kappa = 1;
  boundary_table<scalar_condition> table;
  FUNCMESH_DEVICE double operator()(double u, const face_view& f) const {
    const scalar_condition& c = table.at(f.physical);
    if (c.type == scalar_boundary_kind::dirichlet) {
      return kappa * (c.value - u) * f.area / f.distance;
    }
    return c.type == scalar_boundary_kind::neumann ? c.value * f.area : 0.0;
  }
};

}  // namespace funcmesh::fv
