// Test support: meshes, slabs and local meshes are the same, field by field (exact,
// doubles included), as the readers, generators and both set-up paths must give them.
#pragma once

#include <gtest/gtest.h>

#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

namespace funcmesh::testing {

inline void expect_same_groups(const std::vector<physical_group>& a,
                               const std::vector<physical_group>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].dimension, b[k].dimension);
    EXPECT_EQ(a[k].id, b[k].id);
    EXPECT_EQ(a[k].name, b[k].name);
  }
}

inline void expect_same_blocks(const element_block& a, const element_block& b, const char* what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(a.types, b.types);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.ids, b.ids);
  EXPECT_EQ(a.physical, b.physical);
}

inline void expect_same(const local_mesh& a, const local_mesh& b) {
  EXPECT_EQ(a.part, b.part);
  EXPECT_EQ(a.parts, b.parts);
  EXPECT_EQ(a.interior_count, b.interior_count);
  EXPECT_EQ(a.owned_count, b.owned_count);
  EXPECT_EQ(a.global_cell, b.global_cell);
  EXPECT_EQ(a.global_node, b.global_node);
  EXPECT_EQ(a.halo_owner_offsets, b.halo_owner_offsets);
  ASSERT_EQ(a.neighbours.size(), b.neighbours.size());
  for (std::size_t k = 0; k < a.neighbours.size(); ++k) {
    EXPECT_EQ(a.neighbours[k].part, b.neighbours[k].part);
    EXPECT_EQ(a.neighbours[k].send, b.neighbours[k].send);
    EXPECT_EQ(a.neighbours[k].receive, b.neighbours[k].receive);
  }
  EXPECT_EQ(a.cells.dimension, b.cells.dimension);
  EXPECT_EQ(a.cells.coordinates, b.cells.coordinates);
  expect_same_blocks(a.cells.cells, b.cells.cells, "cells");
  expect_same_blocks(a.cells.boundary, b.cells.boundary, "boundary");
  expect_same_groups(a.cells.physical_groups, b.cells.physical_groups);
}

inline void expect_same(const mesh_slab& a, const mesh_slab& b) {
  EXPECT_EQ(a.dimension, b.dimension);
  EXPECT_EQ(a.global_nodes, b.global_nodes);
  EXPECT_EQ(a.global_cells, b.global_cells);
  EXPECT_EQ(a.global_boundary, b.global_boundary);
  EXPECT_EQ(a.first_node, b.first_node);
  EXPECT_EQ(a.coordinates, b.coordinates);
  EXPECT_EQ(a.node_ids, b.node_ids);
  EXPECT_EQ(a.first_cell, b.first_cell);
  expect_same_blocks(a.cells, b.cells, "cells");
  EXPECT_EQ(a.first_boundary, b.first_boundary);
  expect_same_blocks(a.boundary, b.boundary, "boundary");
  expect_same_groups(a.physical_groups, b.physical_groups);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.gmsh_tags, b.gmsh_tags);
}

}  // namespace funcmesh::testing
