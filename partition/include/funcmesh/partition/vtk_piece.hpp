// Meshes -> io::unstructured_piece: the cells VTK output and PNG pictures draw, with only
// the nodes those cells use, renumbered in first-use order, and funcmesh cell types mapped
// to VTK's (prism node order converted).
#pragma once

#include <cstdint>

#include <funcmesh/core/index.hpp>
#include <funcmesh/io/unstructured_piece.hpp>
#include <funcmesh/partition/cell_type.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh.hpp>

namespace funcmesh {

// VTK's cell type number for a funcmesh cell type.
std::uint8_t vtk_cell_type(cell_type type);

// Cells [0, cells) of m (all of them when cells < 0), in order: piece cell c is mesh cell c.
io::unstructured_piece vtk_piece(const mesh& m, index_t cells = -1);

// A local mesh's OWNED cells (local cells [0, owned_count)), in local order, so that a
// grid function's owned values line up with the piece's cells.
inline io::unstructured_piece owned_vtk_piece(const local_mesh& m) {
  return vtk_piece(m.cells, m.owned_count);
}

}  // namespace funcmesh
