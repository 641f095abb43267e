// Test support: two local meshes are the same, field by field (exact, doubles included),
// as the set-up paths and the byte format must give them.
#pragma once

#include <gtest/gtest.h>

#include <funcmesh/partition/local_mesh.hpp>

namespace funcmesh::testing {

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
  ASSERT_EQ(a.cells.physical_groups.size(), b.cells.physical_groups.size());
  for (std::size_t k = 0; k < a.cells.physical_groups.size(); ++k) {
    EXPECT_EQ(a.cells.physical_groups[k].name, b.cells.physical_groups[k].name);
    EXPECT_EQ(a.cells.physical_groups[k].id, b.cells.physical_groups[k].id);
  }
}

}  // namespace funcmesh::testing
