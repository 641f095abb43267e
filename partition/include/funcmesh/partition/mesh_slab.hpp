// mesh_slab: one rank's contiguous share of a global mesh before any partitioning, as a
// parallel mesh file (or a parallel generator) hands it out: rows of the node, cell and
// boundary arrays, with cells and boundary elements naming nodes by global index.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/mesh.hpp>

namespace funcmesh {

struct mesh_slab {
  int dimension = 0;  // 2 or 3
  index_t global_nodes = 0;
  index_t global_cells = 0;
  index_t global_boundary = 0;  // boundary elements in the whole mesh
  // Node rows [first_node, first_node + coordinates.size()) of the global node array.
  index_t first_node = 0;
  std::vector<std::array<double, 3>> coordinates;
  std::vector<std::int64_t> node_ids;  // those rows' tags (mesh::node_ids), or empty
  // Cell rows [first_cell, first_cell + cells.size()); their node entries are global
  // node indices (0-based), their ids the global mesh's (tags, or generated ids).
  index_t first_cell = 0;
  element_block cells;
  // Boundary element rows [first_boundary, first_boundary + boundary.size()), likewise.
  index_t first_boundary = 0;
  element_block boundary;
  std::vector<physical_group> physical_groups;  // all of them, on every rank
  std::string source;                           // as mesh::source
  bool gmsh_tags = false;                       // as mesh::gmsh_tags
};

// The first row of part `part` when `total` rows are split into `parts` contiguous shares
// as evenly as possible: total * part / parts (rounded down, without overflow).
// share_begin(total, parts, parts) == total.
index_t share_begin(index_t total, int parts, int part);
// The part whose share holds row `row` (0 <= row < total).
int share_of(index_t total, int parts, index_t row);

// Part `part` of `parts` even shares of a whole mesh: what a parallel reader of that mesh
// written as a file gives rank `part`. For tests and for writers.
mesh_slab slab_of(const mesh& global, int parts, int part);

}  // namespace funcmesh
