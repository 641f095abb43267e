// Private to the parallel set-up: a slab's cells' dual-graph neighbours and the boundary
// elements that are their faces, found across ranks without any global array.
#pragma once

#include <mpi.h>

#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/dual_graph.hpp>
#include <funcmesh/partition/mesh.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

namespace funcmesh::setup_detail {

struct slab_links {
  // Slab cell c's neighbours: neighbours[offsets[c], offsets[c + 1]), global cell ids,
  // ascending (as dual_graph gives them).
  std::vector<index_t> offsets{0};
  std::vector<index_t> neighbours;
  // Slab cell c's boundary elements: entries [boundary_offsets[c], boundary_offsets[c + 1])
  // of boundary_rows (global boundary rows, ascending) and of `boundary` (their data, node
  // entries as global node ids). An element on an internal surface is under both cells.
  std::vector<index_t> boundary_offsets{0};
  std::vector<index_t> boundary_rows;
  element_block boundary;
};

// Collective. Faces (sorted global node ids) meet at a rank chosen by their hash, so cells
// that share one are matched with one all-to-all, and boundary elements with the faces
// they lie on; adjacency::node matches cells through shared nodes the same way. A face of
// more than two cells is a collective_error naming them (no dual graph exists then).
slab_links link_slab(MPI_Comm comm, const mesh_slab& slab, adjacency by);

}  // namespace funcmesh::setup_detail
