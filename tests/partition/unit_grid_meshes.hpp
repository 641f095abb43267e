// Built-in meshes with unit cells, for partitioning tests: centroids lie on the integer
// grid, so geometric cuts and expected neighbours are easy to state.
#pragma once

#include <algorithm>

#include <funcmesh/partition/builtin_meshes.hpp>

namespace funcmesh::testing {

// nx * ny (* nz) quads or hexahedra, 2 triangles per quad or 6 tetrahedra per hex, shifted
// by x0 along x.
inline mesh structured(cell_type type, index_t nx, index_t ny, index_t nz = 0, double x0 = 0) {
  box_options options;
  options.lengths = {static_cast<double>(nx), static_cast<double>(ny),
                     static_cast<double>(std::max<index_t>(nz, 1))};
  options.origin = {x0, 0, 0};
  switch (type) {
    case cell_type::triangle:
      return box2d_tri(nx, ny, options);
    case cell_type::quad:
      return box2d_quad(nx, ny, options);
    case cell_type::hexahedron:
      return box3d_hex(nx, ny, nz, options);
    default:
      return box3d_tet(nx, ny, nz, options);
  }
}

}  // namespace funcmesh::testing
