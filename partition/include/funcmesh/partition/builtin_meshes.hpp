// Built-in meshes: rectangles of triangles or quads and boxes of hexahedra or tetrahedra,
// with boundary tags left/right/bottom/top(/front/back) and an optional deterministic
// perturbation of interior nodes. The embedded default mesh of every example.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/mesh.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

namespace funcmesh {

struct box_options {
  std::array<double, 3> lengths{1, 1, 1};
  std::array<double, 3> origin{0, 0, 0};
  // Interior nodes move by up to this fraction of the smallest cell size in each
  // coordinate; at most 0.2, so that no cell inverts.
  double perturbation = 0;
  std::uint64_t seed = 1;
};

// Nodes are numbered x fastest, then y, then z; node and cell ids are 1-based like
// Gmsh's tags, boundary element ids continue after the cells'. Boundary elements are
// oriented outward and tagged with physical groups of dimension dimension - 1:
// 2-D left=1 (x min), right=2, bottom=3 (y min), top=4;
// 3-D left=1, right=2 (x), front=3, back=4 (y), bottom=5, top=6 (z).
// Invalid sizes or options throw funcmesh::error.

// Each quad split into two counter-clockwise triangles along its (i,j)-(i+1,j+1) diagonal.
mesh box2d_tri(index_t nx, index_t ny, const box_options& options = {});
mesh box2d_quad(index_t nx, index_t ny, const box_options& options = {});
mesh box3d_hex(index_t nx, index_t ny, index_t nz, const box_options& options = {});
// Six positively oriented tetrahedra per hexahedron (Kuhn/Freudenthal split along the
// main diagonal), conforming across hexahedra.
mesh box3d_tet(index_t nx, index_t ny, index_t nz, const box_options& options = {});

// "box2d-tri", "box2d-quad", "box3d-hex" or "box3d-tet" with equally many cells per
// direction, chosen so that the cell count is close to cells_approx; or "airfoil", the
// classic Airfoil grid (airfoil_grid.hpp) with i even and j = 1.5 i, 3 i j close to
// cells_approx (720000 gives the classic 400 x 600), which ignores the box options.
mesh builtin_mesh(std::string_view name, index_t cells_approx, const box_options& options = {});

// Part `part` of `parts` even shares of the built-in box `name` ("box2d-tri", "box2d-quad",
// "box3d-hex", "box3d-tet") with n cells per direction (box2d_*(n, n, options),
// box3d_*(n, n, n, options)): exactly slab_of(<that whole mesh>, parts, part), bit for
// bit, computed in memory proportional to the slab (every row from its index alone). An
// unknown name, n < 1, parts < 1, part outside [0, parts), invalid options or sizes that
// overflow the 64-bit index throw funcmesh::error.
mesh_slab box_slab(std::string_view name, index_t n, const box_options& options, int parts,
                   int part);

}  // namespace funcmesh
