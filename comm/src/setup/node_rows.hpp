// Private to the parallel set-up: node coordinates fetched by global id from the ranks
// whose slab rows hold them (one all-to-all there and back).
#pragma once

#include <mpi.h>

#include <array>
#include <span>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

namespace funcmesh::setup_detail {

// Collective. The coordinates of `nodes` (global ids, ascending, unique), in that order.
std::vector<std::array<double, 3>> fetch_coordinates(MPI_Comm comm, const mesh_slab& slab,
                                                     std::span<const index_t> nodes);

}  // namespace funcmesh::setup_detail
