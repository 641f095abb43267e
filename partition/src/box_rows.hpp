// The built-in boxes row by row: any range of rows of a box's node, cell and boundary
// arrays, each row computed from its index alone. The whole-mesh generators (all rows)
// and box_slab (one share of them) both build their meshes from these rows.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/mesh.hpp>

namespace funcmesh::detail {

enum class box_kind { tri, quad, hex, tet };

// "box2d-tri", "box2d-quad", "box3d-hex", "box3d-tet", indexed by box_kind.
inline constexpr std::array<const char*, 4> box_kind_names{"box2d-tri", "box2d-quad", "box3d-hex",
                                                           "box3d-tet"};

class box_rows {
 public:
  // A box of n[0] x n[1] (x n[2] in 3-D; ignored in 2-D) hexahedra or quads. Invalid
  // sizes or options, or counts that overflow the 64-bit index, throw funcmesh::error.
  box_rows(box_kind what, std::array<index_t, 3> n, const box_options& options);

  int dimension() const { return dim_; }
  index_t node_count() const { return nodes_; }
  index_t cell_count() const { return cells_; }
  index_t boundary_count() const { return boundary_; }

  // Node rows [first, last): their coordinates and ids (1-based), appended.
  void add_nodes(index_t first, index_t last, std::vector<std::array<double, 3>>& coordinates,
                 std::vector<std::int64_t>& ids) const;
  // Cell rows [first, last) with global node indices and 1-based ids, appended.
  void add_cells(index_t first, index_t last, element_block& cells) const;
  // Boundary element rows [first, last), ids continuing after the cells', appended.
  void add_boundary(index_t first, index_t last, element_block& boundary) const;

  std::vector<physical_group> physical_groups() const;
  std::string source() const;  // "built-in box3d-tet 4x4x4"

 private:
  index_t node(index_t i, index_t j, index_t k) const {
    return i + (n_[0] + 1) * (j + (n_[1] + 1) * k);
  }
  // The hexahedron (quad in 2-D) of cell (i, j, k) in Gmsh's local order.
  std::array<index_t, 8> corners(index_t i, index_t j, index_t k) const;

  box_kind what_;
  int dim_;
  std::array<index_t, 3> n_;  // cells per direction, n_[2] = 1 in 2-D
  box_options options_;
  index_t per_hex_;     // cells per hexahedron (quad in 2-D)
  index_t nodes_each_;  // nodes per cell
  index_t nodes_ = 0, cells_ = 0, boundary_ = 0;
  std::array<index_t, 6> side_rows_{};  // 3-D: boundary rows per side (tag 1..6)
};

}  // namespace funcmesh::detail
