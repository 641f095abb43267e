// bench/fv's flow problem, shared by the funcmesh step and the plain step so that both run
// the same physics: the ideal gas, a free stream with far field on every boundary group, an
// initial state with a density jump and a pressure pulse (the limiter acts), the fixed dt.
#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/fv/boundary_table.hpp>
#include <funcmesh/fv/euler.hpp>
#include <funcmesh/fv/euler_boundary.hpp>
#include <funcmesh/fv/euler_outside.hpp>

namespace fv_bench {

namespace fm = funcmesh;
namespace fv = funcmesh::fv;

// Venkatakrishnan's K (eps^2 = (K h)^3, the length scale 1: the unit box).
inline constexpr double venkat_k = 5.0;
// dt = cfl * min over cells of V / sum of (|u.n| + c) A, computed once from the initial
// state and then fixed: both versions take exactly the same steps.
inline constexpr double cfl = 0.4;

// The free stream's primitive velocity: no component near zero, so that every component
// of u is far from zero and a relative difference of u means something.
template <int D>
fv::euler_state<D> free_stream(const fv::ideal_gas<D>& gas) {
  fv::euler_state<D> w{};
  w[0] = 1.0;
  const double velocity[3] = {0.5, 0.3, 0.2};
  for (int d = 0; d < D; ++d) w[1 + d] = velocity[d];
  w[D + 1] = 1.0;
  return gas.to_conserved(w);
}

// The free stream, with a disc (ball) of twice its density about (0.5, 0.5, 0.5) and a
// smooth pressure pulse about (0.3, 0.6, 0.4): a jump for the limiter to clip and a smooth
// extremum for Venkatakrishnan's eps to leave alone.
template <int D>
struct initial_state {
  fv::ideal_gas<D> gas;
  FUNCMESH_DEVICE fv::euler_state<D> operator()(const fm::vec<double, 3>& x) const {
    const double velocity[3] = {0.5, 0.3, 0.2};
    const double jump_centre[3] = {0.5, 0.5, 0.5}, pulse_centre[3] = {0.3, 0.6, 0.4};
    double r_jump = 0, r_pulse = 0;
    for (int d = 0; d < D; ++d) {
      r_jump += (x[d] - jump_centre[d]) * (x[d] - jump_centre[d]);
      r_pulse += (x[d] - pulse_centre[d]) * (x[d] - pulse_centre[d]);
    }
    fv::euler_state<D> w{};
    w[0] = r_jump < 0.04 ? 2.0 : 1.0;
    for (int d = 0; d < D; ++d) w[1 + d] = velocity[d];
    w[D + 1] = 1.0 + 0.5 * std::exp(-r_pulse / 0.01);
    return gas.to_conserved(w);
  }
};

// Far field at the free stream on every boundary group of the mesh.
template <int D>
fv::euler_outside<D> far_field_everywhere(const fm::face_set& faces, const fv::ideal_gas<D>& gas) {
  std::vector<std::pair<std::string, fv::euler_condition<D>>> by_group;
  for (const auto& group : faces.boundary_groups()) {
    by_group.emplace_back(group.second, fv::euler_condition<D>::far_field(free_stream<D>(gas)));
  }
  return {gas, fv::make_boundary_table(faces, by_group, "bench/fv"), {}, 0.0};
}

}  // namespace fv_bench
