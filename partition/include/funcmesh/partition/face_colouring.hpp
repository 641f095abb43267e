// Face colouring for race-free scatter loops: faces (or contiguous blocks of faces) are
// grouped so that no two members of one group update the same cell; groups then run one
// after another, each in parallel. Computed once per local mesh.
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

// Block colouring (OP2's): the faces, in their given order, cut into contiguous blocks,
// and the blocks coloured so that no two blocks of one colour update the same cell. A
// thread then runs a whole block in face order, so consecutive faces touch nearby cells
// (cache reuse), and a serial loop over all blocks in order is simply the face loop.
struct face_block_colouring {
  // Block b holds faces [block_offsets[b], block_offsets[b + 1]).
  std::vector<index_t> block_offsets{0};
  // Blocks of colour k: blocks[colour_offsets[k] .. colour_offsets[k + 1]), ascending.
  std::vector<index_t> colour_offsets{0};
  std::vector<index_t> blocks;

  index_t block_count() const { return static_cast<index_t>(block_offsets.size()) - 1; }
  int colour_count() const { return static_cast<int>(colour_offsets.size()) - 1; }
};

// Measured on the Airfoil grid (docs/face-loops.md): large enough that a block's cells
// stay in cache while its faces run, small enough to leave many blocks per colour.
inline constexpr index_t default_face_block_size = 1024;

// Cuts the faces into ceil(n / block_size) blocks of nearly equal size (at most
// block_size faces each) and colours the blocks greedily, in order: a block takes the
// lowest colour that no block sharing an updated cell (as in colour_faces) has. Any number
// of colours is possible. Throws funcmesh::error when block_size < 1.
face_block_colouring colour_face_blocks(std::span<const std::array<index_t, 2>> face_cells,
                                        index_t updated_cells,
                                        index_t block_size = default_face_block_size);

}  // namespace funcmesh
