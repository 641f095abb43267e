#include <funcmesh/partition/vtk_piece.hpp>

#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

std::uint8_t vtk_cell_type(cell_type type) {
  switch (type) {
    case cell_type::point:
      return io::vtk_cell::vertex;
    case cell_type::line:
      return io::vtk_cell::line;
    case cell_type::triangle:
      return io::vtk_cell::triangle;
    case cell_type::quad:
      return io::vtk_cell::quad;
    case cell_type::tetrahedron:
      return io::vtk_cell::tetra;
    case cell_type::hexahedron:
      return io::vtk_cell::hexahedron;
    case cell_type::prism:
      return io::vtk_cell::wedge;
    case cell_type::pyramid:
      return io::vtk_cell::pyramid;
  }
  throw error("funcmesh::vtk_cell_type: unknown cell type");
}

io::unstructured_piece vtk_piece(const mesh& m, index_t cells) {
  if (cells < 0) cells = m.cell_count();
  if (cells > m.cell_count()) {
    throw error("funcmesh::vtk_piece: " + std::to_string(cells) + " cells asked of a mesh with " +
                std::to_string(m.cell_count()));
  }
  // VTK's wedge wants its first triangle's right-hand normal to point away from the
  // second; Gmsh's prism has it pointing toward it.
  constexpr std::size_t prism_to_vtk[] = {0, 2, 1, 3, 5, 4};
  io::unstructured_piece piece;
  const auto n = static_cast<std::size_t>(cells);
  piece.types.reserve(n);
  piece.offsets.reserve(n);
  piece.connectivity.reserve(static_cast<std::size_t>(m.cells.offsets[n]));
  std::vector<std::int64_t> renumbered(static_cast<std::size_t>(m.node_count()), -1);
  for (index_t c = 0; c < cells; ++c) {
    const cell_type type = m.cells.types[static_cast<std::size_t>(c)];
    const auto nodes = m.cells.nodes_of(c);
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const auto node =
          static_cast<std::size_t>(nodes[type == cell_type::prism ? prism_to_vtk[k] : k]);
      if (renumbered[node] < 0) {
        renumbered[node] = static_cast<std::int64_t>(piece.points.size());
        piece.points.push_back(m.coordinates[node]);
      }
      piece.connectivity.push_back(renumbered[node]);
    }
    piece.offsets.push_back(static_cast<std::int64_t>(piece.connectivity.size()));
    piece.types.push_back(vtk_cell_type(type));
  }
  return piece;
}

}  // namespace funcmesh
