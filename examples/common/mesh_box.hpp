// The bounding box of a distributed mesh's nodes, the same on every rank. The examples
// place their initial values and flows relative to it (fractions of the box, not absolute
// coordinates), so that they do something meaningful on any mesh a user gives them.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include <mpi.h>

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/core/error.hpp>

namespace example {

struct mesh_box {
  std::array<double, 3> lo{}, hi{};
  double size(std::size_t i) const { return hi[i] - lo[i]; }
};

// Every rank's local nodes (owned and halo cells' nodes), reduced over the layout's
// communicator: the box of the whole mesh. Collective.
inline mesh_box bounding_box(const funcmesh::distributed_layout& layout) {
  std::array<double, 6> local{HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL};
  for (const auto& p : layout.mesh().cells.coordinates) {
    for (std::size_t i = 0; i < 3; ++i) {
      local[i] = std::min(local[i], p[i]);
      local[3 + i] = std::min(local[3 + i], -p[i]);  // max as a min of negatives: one reduction
    }
  }
  std::array<double, 6> global{};
  MPI_Allreduce(local.data(), global.data(), 6, MPI_DOUBLE, MPI_MIN, layout.comm());
  mesh_box box;
  for (std::size_t i = 0; i < 3; ++i) {
    box.lo[i] = global[i];
    box.hi[i] = -global[3 + i];
  }
  if (!(box.size(0) > 0) || !(box.size(1) > 0)) {
    throw funcmesh::app::usage_error("the mesh's bounding box is empty in x or y");
  }
  return box;
}

}  // namespace example
