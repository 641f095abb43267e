// The dual graph against METIS's own METIS_MeshToDual on each cell kind, node adjacency,
// and the errors for meshes that have no dual graph.
#include <gtest/gtest.h>

#include <metis.h>

#include <algorithm>
#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/dual_graph.hpp>
#include <funcmesh/partition/metis_error.hpp>

#include "unit_grid_meshes.hpp"

namespace funcmesh::testing {

namespace {

using lists = std::vector<std::vector<index_t>>;

lists sorted_lists(const graph& g) {
  lists out(static_cast<std::size_t>(g.vertex_count()));
  for (index_t v = 0; v < g.vertex_count(); ++v) {
    const auto n = g.neighbours(v);
    out[static_cast<std::size_t>(v)].assign(n.begin(), n.end());
    std::sort(out[static_cast<std::size_t>(v)].begin(), out[static_cast<std::size_t>(v)].end());
  }
  return out;
}

// METIS's dual graph: cells are adjacent when they share at least `ncommon` nodes.
lists metis_dual(const mesh& m, idx_t ncommon) {
  std::vector<idx_t> eptr(m.cells.offsets.begin(), m.cells.offsets.end());
  std::vector<idx_t> eind(m.cells.nodes.begin(), m.cells.nodes.end());
  idx_t ne = static_cast<idx_t>(m.cell_count()), nn = static_cast<idx_t>(m.node_count());
  idx_t numflag = 0;
  idx_t* xadj = nullptr;
  idx_t* adjncy = nullptr;
  check_metis(
      METIS_MeshToDual(&ne, &nn, eptr.data(), eind.data(), &ncommon, &numflag, &xadj, &adjncy),
      "METIS_MeshToDual");
  lists out(static_cast<std::size_t>(ne));
  for (idx_t v = 0; v < ne; ++v) {
    auto& list = out[static_cast<std::size_t>(v)];
    list.assign(adjncy + xadj[v], adjncy + xadj[v + 1]);
    std::sort(list.begin(), list.end());
  }
  METIS_Free(xadj);
  METIS_Free(adjncy);
  return out;
}

void expect_valid(const graph& g) {
  ASSERT_EQ(g.offsets.front(), 0);
  ASSERT_EQ(g.offsets.back(), static_cast<index_t>(g.adjacency.size()));
  for (index_t v = 0; v < g.vertex_count(); ++v) {
    const auto n = g.neighbours(v);
    EXPECT_TRUE(std::is_sorted(n.begin(), n.end()));
    EXPECT_EQ(std::adjacent_find(n.begin(), n.end()), n.end()) << "duplicate at " << v;
    for (index_t u : n) {
      EXPECT_NE(u, v);
      const auto back = g.neighbours(u);
      EXPECT_TRUE(std::binary_search(back.begin(), back.end(), v)) << v << " -> " << u;
    }
  }
}

struct mesh_case {
  const char* name;
  mesh m;
  idx_t ncommon;
  index_t faces_per_interior_cell;
};

std::vector<mesh_case> cases() {
  return {{"triangles", structured(cell_type::triangle, 5, 4), 2, 3},
          {"quads", structured(cell_type::quad, 5, 4), 2, 4},
          {"tetrahedra", structured(cell_type::tetrahedron, 3, 3, 2), 3, 4},
          {"hexahedra", structured(cell_type::hexahedron, 4, 3, 3), 4, 6}};
}

}  // namespace

TEST(dual_graph, face_adjacency_equals_metis_mesh_to_dual) {
  for (const mesh_case& c : cases()) {
    SCOPED_TRACE(c.name);
    const graph g = dual_graph(c.m, adjacency::face);
    ASSERT_EQ(g.vertex_count(), c.m.cell_count());
    expect_valid(g);
    EXPECT_EQ(sorted_lists(g), metis_dual(c.m, c.ncommon));
    // No cell has more neighbours than faces, and some interior cell has them all.
    index_t most = 0;
    for (index_t v = 0; v < g.vertex_count(); ++v) {
      most = std::max(most, static_cast<index_t>(g.neighbours(v).size()));
    }
    EXPECT_EQ(most, c.faces_per_interior_cell);
  }
}

TEST(dual_graph, node_adjacency_equals_metis_mesh_to_dual_with_one_common_node) {
  for (const mesh_case& c : cases()) {
    SCOPED_TRACE(c.name);
    const graph g = dual_graph(c.m, adjacency::node);
    expect_valid(g);
    EXPECT_EQ(sorted_lists(g), metis_dual(c.m, 1));
    EXPECT_GT(g.edge_count(), dual_graph(c.m, adjacency::face).edge_count());
  }
}

TEST(dual_graph, quad_grid_by_hand) {
  // 0 1 / 2 3 (cell 1 right of 0, 2 above 0): faces link 0-1, 0-2, 1-3, 2-3; all four
  // share the middle node.
  const graph faces = dual_graph(structured(cell_type::quad, 2, 2));
  EXPECT_EQ(faces.offsets, (std::vector<index_t>{0, 2, 4, 6, 8}));
  EXPECT_EQ(faces.adjacency, (std::vector<index_t>{1, 2, 0, 3, 0, 3, 1, 2}));
  const graph nodes = dual_graph(structured(cell_type::quad, 2, 2), adjacency::node);
  EXPECT_EQ(nodes.adjacency, (std::vector<index_t>{1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2}));
}

TEST(dual_graph, separate_pieces_have_no_edges_between_them) {
  mesh m = structured(cell_type::quad, 2, 2);
  const mesh right = structured(cell_type::quad, 2, 2, 0, 10);
  const index_t shift = m.node_count();
  m.coordinates.insert(m.coordinates.end(), right.coordinates.begin(), right.coordinates.end());
  for (index_t c = 0; c < right.cell_count(); ++c) {
    std::vector<index_t> nodes;
    for (index_t n : right.cells.nodes_of(c)) nodes.push_back(n + shift);
    m.cells.add(cell_type::quad, nodes, m.cell_count(), 0);
  }
  const graph g = dual_graph(m);
  for (index_t v = 0; v < g.vertex_count(); ++v) {
    for (index_t u : g.neighbours(v)) EXPECT_EQ(v < 4, u < 4) << v << " -> " << u;
  }
  EXPECT_EQ(g.edge_count(), 8);
}

TEST(dual_graph, a_face_of_three_cells_is_an_error) {
  mesh m;
  m.dimension = 2;
  m.coordinates = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {1, 1, 0}};
  m.cells.add(cell_type::triangle, std::vector<index_t>{0, 1, 2}, 0, 0);
  m.cells.add(cell_type::triangle, std::vector<index_t>{1, 0, 3}, 1, 0);
  m.cells.add(cell_type::triangle, std::vector<index_t>{0, 1, 4}, 2, 0);
  try {
    dual_graph(m);
    FAIL() << "expected an error";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("not a manifold"), std::string::npos) << e.what();
  }
}

TEST(dual_graph, a_node_index_out_of_range_is_an_error) {
  mesh m = structured(cell_type::triangle, 1, 1);
  m.cells.nodes.back() = 99;
  EXPECT_THROW(dual_graph(m), error);
  EXPECT_THROW(dual_graph(m, adjacency::node), error);
}

}  // namespace funcmesh::testing
