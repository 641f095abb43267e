// Private to local_mesh.cpp: an order of a part's cells that keeps neighbours close in
// memory whatever order the mesh's file holds them in.
#pragma once

#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/dual_graph.hpp>
#include <funcmesh/partition/mesh.hpp>

namespace funcmesh::local_mesh_detail {

// Reorders `cells` (global cell indices) breadth first (Cuthill-McKee) over the dual graph
// restricted to them, from a pseudo-peripheral cell, each cell's new neighbours by
// (degree, position): level after level, like the rows of a structured grid, so a loop
// over cells reads its neighbours from a few recent levels. Ties are broken by the cells'
// vertex averages (then global index), so the order follows where the cells are, not the
// order they came in. `scratch` is global-sized, holding `unmarked` at every cell of
// `cells`; it holds that again on return.
void order_for_locality(const mesh& global, const graph& dual, std::vector<index_t>& cells,
                        std::vector<index_t>& scratch, index_t unmarked);

}  // namespace funcmesh::local_mesh_detail
