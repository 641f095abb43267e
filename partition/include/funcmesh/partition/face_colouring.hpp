// Face colouring for race-free scatter loops: faces are grouped so that no two faces of one
// group update the same cell; groups then run one after another, each in parallel.
// Computed once per local mesh.
#pragma once

#include <array>
#include <span>
#include <vector>

#include <funcmesh/core/index.hpp>

namespace funcmesh {

struct face_colouring {
  // Faces of colour k: faces[offsets[k] .. offsets[k + 1]), ascending.
  std::vector<index_t> offsets{0};
  std::vector<index_t> faces;

  int colour_count() const { return static_cast<int>(offsets.size()) - 1; }
};

// Greedy colouring (each face takes the lowest colour none of its updated cells has yet).
// A face updates the cells of face_cells[f] that lie in [0, updated_cells): halo cells and
// -1 (a domain boundary) are never written, so they do not constrain the colours. Throws
// funcmesh::error if a cell has more than 64 faces.
face_colouring colour_faces(std::span<const std::array<index_t, 2>> face_cells,
                            index_t updated_cells);

}  // namespace funcmesh
