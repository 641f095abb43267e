// The dual graph of a mesh: one vertex per cell, an edge between cells that share a face
// (or, with adjacency::node, any node), in CSR form as METIS takes it.
#pragma once

#include <span>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/mesh.hpp>

namespace funcmesh {

enum class adjacency { face, node };

struct graph {
  std::vector<index_t> offsets{0};  // vertex v's neighbours: adjacency[offsets[v], offsets[v+1])
  std::vector<index_t> adjacency;   // sorted per vertex, no self loops, no duplicates

  index_t vertex_count() const { return static_cast<index_t>(offsets.size()) - 1; }
  index_t edge_count() const { return static_cast<index_t>(adjacency.size()) / 2; }
  std::span<const index_t> neighbours(index_t v) const {
    return {adjacency.data() + offsets[static_cast<std::size_t>(v)],
            static_cast<std::size_t>(offsets[static_cast<std::size_t>(v) + 1] -
                                     offsets[static_cast<std::size_t>(v)])};
  }
};

// Throws funcmesh::error when a face is shared by more than two cells (a non-manifold
// mesh) or a cell references a node that does not exist.
graph dual_graph(const mesh& m, adjacency by = adjacency::face);

}  // namespace funcmesh
