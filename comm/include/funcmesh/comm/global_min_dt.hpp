// A time driver's dt callback from a per-cell stable step: at each step dt is the global
// minimum, over the layout's owned cells, of the cells expression step(u)
// (fv::convective_step, fv::diffusive_step or a user's), the same number on every rank.
#pragma once

#include <utility>

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/global_reduce.hpp>
#include <funcmesh/time/callbacks.hpp>

namespace funcmesh {

// run(u, rhs, global_min_dt(layout, [&](const auto& v) {
//   return fv::convective_step(faces, layout.volume(), gas, v, cfl); }))
// step(v) gets the state the driver is about to step from and returns a cells expression
// of the largest stable step of each cell (CFL number included); one allreduce per step.
template <class Step>
auto global_min_dt(const distributed_layout& layout, Step step) {
  return time::dt_callback([layout, step = std::move(step)](double, const auto& u) -> double {
    return global_min(layout, step(u));
  });
}

}  // namespace funcmesh
