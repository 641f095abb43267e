// The faces of a mesh (edges in 2-D, polygons in 3-D), derived from its cells: face ->
// cells, cell -> faces, boundary faces and the physical group each one is tagged with.
#pragma once

#include <array>
#include <span>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/cell_type.hpp>
#include <funcmesh/partition/mesh.hpp>

namespace funcmesh {

struct mesh_faces {
  std::vector<cell_type> types;
  // Face f has nodes nodes[offsets[f] .. offsets[f + 1]), oriented as seen from its first
  // cell: for a positively oriented cell the right-hand normal points out of cells[f][0].
  std::vector<index_t> offsets{0}, nodes;
  // [0] the first cell, [1] the second one or -1 on the domain boundary.
  std::vector<std::array<index_t, 2>> cells;
  // Cell c has faces cell_faces[cell_offsets[c] .. cell_offsets[c + 1]), in the order of
  // face_nodes(type, ...).
  std::vector<index_t> cell_offsets{0}, cell_faces;
  // Per face: the physical id of the mesh.boundary element with the same nodes, 0 if
  // none (always 0 for interior faces).
  std::vector<int> physical;

  index_t size() const { return static_cast<index_t>(types.size()); }
  bool on_boundary(index_t f) const { return cells[static_cast<std::size_t>(f)][1] < 0; }
  std::span<const index_t> nodes_of(index_t f) const {
    return {nodes.data() + offsets[static_cast<std::size_t>(f)],
            static_cast<std::size_t>(offsets[static_cast<std::size_t>(f) + 1] -
                                     offsets[static_cast<std::size_t>(f)])};
  }
  std::span<const index_t> faces_of(index_t c) const {
    return {cell_faces.data() + cell_offsets[static_cast<std::size_t>(c)],
            static_cast<std::size_t>(cell_offsets[static_cast<std::size_t>(c) + 1] -
                                     cell_offsets[static_cast<std::size_t>(c)])};
  }
};

// Faces are numbered in the order cells first meet them. Throws funcmesh::error for
// cells of the wrong dimension or node count, node indices out of range, and faces shared
// by more than two cells (naming the cells by id).
mesh_faces build_faces(const mesh& m);

}  // namespace funcmesh
