// Private to the parallel set-up: cells to the ranks that own them, then each rank's halo
// fetched level by level from the cells' owners. Nothing global is gathered anywhere.
#pragma once

#include <mpi.h>

#include <span>
#include <vector>

#include <funcmesh/partition/mesh_slab.hpp>

#include "cell_records.hpp"
#include "slab_links.hpp"

namespace funcmesh::setup_detail {

struct region {
  cell_store owned;  // part == this rank
  cell_store halo;   // within `depth` graph steps of an owned cell, owned elsewhere
  std::vector<std::pair<index_t, int>> halo_part;  // (gid, owner), ascending gid
};

// Collective. part[c] is the owner (a rank) of slab cell c. Consumes `links`.
region migrate(MPI_Comm comm, const mesh_slab& slab, slab_links& links, std::span<const int> part,
               int depth);

}  // namespace funcmesh::setup_detail
