// Euler's boundary conditions by group, for boundary_face_flux: the outside state of each
// boundary face from its group's euler_condition (a boundary_table chosen at run time), with
// prescribed states optionally given as a function of position and time.
#pragma once

#include <type_traits>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/fv/boundary_table.hpp>
#include <funcmesh/fv/euler.hpp>
#include <funcmesh/fv/euler_boundary.hpp>

namespace funcmesh::fv {

// No function: a prescribed condition's own state.
struct no_prescribed_function {};

// outside(inside, face): the ghost state of face.physical's condition. With a function
// prescribed(x, t) -> conserved state, the groups whose condition is prescribed take its
// value at the face centroid and time t (the exact solution of a verification case); build
// a new one for each stage's time, e.g. inside the right-hand side (rhs(v, t)).
template <int D, class Prescribed = no_prescribed_function>
struct euler_outside {
  ideal_gas<D> gas;
  boundary_table<euler_condition<D>> table;
  Prescribed prescribed{};
  double t = 0;

  FUNCMESH_DEVICE euler_state<D> operator()(const euler_state<D>& inside,
                                            const face_view& f) const {
    euler_condition<D> condition = table.at(f.physical);
    if constexpr (!std::is_same_v<Prescribed, no_prescribed_function>) {
      if (condition.type == euler_boundary_kind::prescribed)
        condition.state = prescribed(f.centroid, t);
    }
    return condition.outside(gas, inside, f.normal);
  }
};

}  // namespace funcmesh::fv
