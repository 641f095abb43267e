// Local meshes with halos, checked against brute-force breadth-first searches on the global
// dual graph: ownership, numbering order, halo extent, geometry, mirrored send/receive lists.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/dual_graph.hpp>
#include <funcmesh/partition/local_cell_lookup.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

namespace funcmesh::testing {
namespace {

std::size_t at(index_t i) { return static_cast<std::size_t>(i); }

std::vector<int> block_partition(index_t cells, int parts) {
  std::vector<int> part(at(cells));
  for (index_t c = 0; c < cells; ++c) part[at(c)] = static_cast<int>(c * parts / cells);
  return part;
}

// Stripes by centroid x, so parts are contiguous and every part meets its neighbours.
std::vector<int> stripe_partition(const mesh& m, int parts) {
  double lo = 1e300, hi = -1e300;
  for (const auto& x : m.coordinates) lo = std::min(lo, x[0]), hi = std::max(hi, x[0]);
  std::vector<int> part(at(m.cell_count()));
  for (index_t c = 0; c < m.cell_count(); ++c) {
    double x = 0;
    for (index_t n : m.cells.nodes_of(c)) x += m.coordinates[at(n)][0];
    x /= double(m.cells.nodes_of(c).size());
    part[at(c)] = std::min(parts - 1, static_cast<int>((x - lo) / (hi - lo) * parts));
  }
  return part;
}

// Steps from the cells of part `from` to every cell (-1 beyond `depth`).
std::vector<int> distance_from(const graph& g, const std::vector<int>& part, int from, int depth) {
  std::vector<int> d(part.size(), -1);
  std::vector<index_t> queue;
  for (std::size_t c = 0; c < part.size(); ++c) {
    if (part[c] == from) d[c] = 0, queue.push_back(static_cast<index_t>(c));
  }
  for (std::size_t k = 0; k < queue.size(); ++k) {
    const index_t c = queue[k];
    if (d[at(c)] == depth) continue;
    for (index_t n : g.neighbours(c)) {
      if (d[at(n)] < 0) d[at(n)] = d[at(c)] + 1, queue.push_back(n);
    }
  }
  return d;
}

std::vector<index_t> to_global(const local_mesh& lm, const std::vector<index_t>& local) {
  std::vector<index_t> out;
  for (index_t l : local) out.push_back(lm.global_cell[at(l)]);
  return out;
}

const neighbour_lists* find_neighbour(const local_mesh& lm, int q) {
  for (const auto& n : lm.neighbours) {
    if (n.part == q) return &n;
  }
  return nullptr;
}

void check_geometry(const mesh& global, const local_mesh& lm) {
  const mesh& m = lm.cells;
  ASSERT_EQ(m.dimension, global.dimension);
  ASSERT_EQ(m.node_count(), static_cast<index_t>(lm.global_node.size()));
  ASSERT_TRUE(std::is_sorted(lm.global_node.begin(), lm.global_node.end()));
  std::set<index_t> used;
  for (index_t c : lm.global_cell) {
    for (index_t n : global.cells.nodes_of(c)) used.insert(n);
  }
  ASSERT_EQ(std::vector<index_t>(used.begin(), used.end()), lm.global_node);
  for (index_t l = 0; l < m.node_count(); ++l) {
    ASSERT_EQ(m.coordinates[at(l)], global.coordinates[at(lm.global_node[at(l)])]);
  }
  ASSERT_TRUE(m.node_ids.empty());  // global_node names the nodes; the tags stay global
  ASSERT_EQ(m.cell_count(), static_cast<index_t>(lm.global_cell.size()));
  for (index_t l = 0; l < m.cell_count(); ++l) {
    const index_t g = lm.global_cell[at(l)];
    ASSERT_EQ(m.cells.types[at(l)], global.cells.types[at(g)]);
    ASSERT_EQ(m.cells.ids[at(l)], global.cells.ids[at(g)]);
    const auto local_nodes = m.cells.nodes_of(l);
    const auto global_nodes = global.cells.nodes_of(g);
    ASSERT_EQ(local_nodes.size(), global_nodes.size());
    for (std::size_t k = 0; k < local_nodes.size(); ++k) {
      ASSERT_EQ(lm.global_node[at(local_nodes[k])], global_nodes[k]);
    }
  }
  // Boundary elements: exactly the global ones whose nodes form a face of a local cell.
  std::set<std::vector<index_t>> local_faces;
  for (index_t c : lm.global_cell) {
    const cell_type type = global.cells.types[at(c)];
    for (int f = 0; f < face_count(type); ++f) {
      std::vector<index_t> nodes;
      for (auto k : face_nodes(type, f)) nodes.push_back(global.cells.nodes_of(c)[k]);
      std::sort(nodes.begin(), nodes.end());
      local_faces.insert(nodes);
    }
  }
  std::map<std::int64_t, index_t> expected;  // id -> global boundary element
  for (index_t e = 0; e < global.boundary.size(); ++e) {
    auto nodes = std::vector<index_t>(global.boundary.nodes_of(e).begin(),
                                      global.boundary.nodes_of(e).end());
    std::sort(nodes.begin(), nodes.end());
    if (local_faces.count(nodes)) expected[global.boundary.ids[at(e)]] = e;
  }
  ASSERT_EQ(m.boundary.size(), static_cast<index_t>(expected.size()));
  for (index_t b = 0; b < m.boundary.size(); ++b) {
    const auto it = expected.find(m.boundary.ids[at(b)]);
    ASSERT_NE(it, expected.end());
    const auto local_nodes = m.boundary.nodes_of(b);
    const auto global_nodes = global.boundary.nodes_of(it->second);
    ASSERT_EQ(local_nodes.size(), global_nodes.size());
    for (std::size_t k = 0; k < local_nodes.size(); ++k) {
      ASSERT_EQ(lm.global_node[at(local_nodes[k])], global_nodes[k]);
    }
    ASSERT_EQ(m.boundary.physical[at(b)], global.boundary.physical[at(it->second)]);
  }
  ASSERT_EQ(m.physical_groups.size(), global.physical_groups.size());
}

void check_local_meshes(const mesh& global, const std::vector<int>& part, int parts,
                        const halo_options& options) {
  SCOPED_TRACE("parts " + std::to_string(parts) + ", depth " + std::to_string(options.depth) +
               (options.by == adjacency::face ? ", face" : ", node") +
               (options.order == cell_order::global ? ", global order" : ", locality order"));
  const graph g = dual_graph(global, options.by);
  const auto meshes = build_local_meshes(global, g, part, parts, options);
  ASSERT_EQ(meshes.size(), at(parts));
  std::vector<std::vector<int>> distance;
  for (int p = 0; p < parts; ++p) distance.push_back(distance_from(g, part, p, options.depth));

  std::vector<int> owners(part.size(), 0);
  for (int p = 0; p < parts; ++p) {
    const local_mesh& lm = meshes[at(p)];
    SCOPED_TRACE("part " + std::to_string(p));
    ASSERT_EQ(lm.part, p);
    ASSERT_EQ(lm.parts, parts);
    const index_t total = static_cast<index_t>(lm.global_cell.size());
    ASSERT_LE(lm.interior_count, lm.owned_count);
    std::vector<index_t> owned, halo;
    const local_cell_lookup local_cell(lm);
    for (index_t l = 0; l < total; ++l) {
      const index_t c = lm.global_cell[at(l)];
      (l < lm.owned_count ? owned : halo).push_back(c);
      if (l < lm.owned_count) ++owners[at(c)];
      ASSERT_EQ(local_cell(c), l);
    }
    // Owned cells are part p's; the halo is exactly the cells within depth steps.
    std::vector<index_t> expect_owned, expect_halo;
    for (std::size_t c = 0; c < part.size(); ++c) {
      if (part[c] == p) expect_owned.push_back(static_cast<index_t>(c));
      if (distance[at(p)][c] > 0) expect_halo.push_back(static_cast<index_t>(c));
    }
    std::sort(owned.begin(), owned.end());
    ASSERT_EQ(owned, expect_owned);
    auto halo_sorted = halo;
    std::sort(halo_sorted.begin(), halo_sorted.end());
    ASSERT_EQ(halo_sorted, expect_halo);
    // Order: interior and boundary each by global index (cell_order::global; else in the
    // locality order, a permutation checked above), interior cells see only owned cells,
    // boundary cells see a halo cell, halo by (owner, global index).
    auto by_global = [&](index_t first, index_t last) {
      return std::is_sorted(lm.global_cell.begin() + first, lm.global_cell.begin() + last);
    };
    if (options.order == cell_order::global) {
      ASSERT_TRUE(by_global(0, lm.interior_count));
      ASSERT_TRUE(by_global(lm.interior_count, lm.owned_count));
    }
    for (index_t l = 0; l < lm.owned_count; ++l) {
      const auto around = g.neighbours(lm.global_cell[at(l)]);
      const bool inner =
          std::all_of(around.begin(), around.end(), [&](index_t n) { return part[at(n)] == p; });
      ASSERT_EQ(inner, l < lm.interior_count) << "local cell " << l;
    }
    ASSERT_TRUE(std::is_sorted(halo.begin(), halo.end(), [&](index_t a, index_t b) {
      return std::pair(part[at(a)], a) < std::pair(part[at(b)], b);
    }));
    ASSERT_EQ(lm.halo_owner_offsets.size(), at(parts) + 1);
    ASSERT_EQ(lm.halo_owner_offsets.front(), lm.owned_count);
    ASSERT_EQ(lm.halo_owner_offsets.back(), total);
    for (int q = 0; q < parts; ++q) {
      for (index_t l = lm.halo_owner_offsets[at(q)]; l < lm.halo_owner_offsets[at(q) + 1]; ++l) {
        ASSERT_EQ(part[at(lm.global_cell[at(l)])], q);
      }
    }
    // Neighbours: sorted, each halo cell received once, send = our cells within depth of
    // q, mirrored by q's receive list from us in the same order.
    std::vector<int> received(at(total), 0);
    for (std::size_t k = 0; k < lm.neighbours.size(); ++k) {
      const neighbour_lists& n = lm.neighbours[k];
      if (k > 0) {
        ASSERT_LT(lm.neighbours[k - 1].part, n.part);
      }
      ASSERT_NE(n.part, p);
      for (index_t l : n.receive) {
        ASSERT_GE(l, lm.owned_count);
        ASSERT_EQ(part[at(lm.global_cell[at(l)])], n.part);
        ++received[at(l)];
      }
      std::vector<index_t> expect_send;
      for (index_t c : expect_owned) {
        if (distance[at(n.part)][at(c)] >= 0) expect_send.push_back(c);
      }
      ASSERT_EQ(to_global(lm, n.send), expect_send);
      const neighbour_lists* mirror = find_neighbour(meshes[at(n.part)], p);
      ASSERT_NE(mirror, nullptr);
      ASSERT_EQ(to_global(lm, n.send), to_global(meshes[at(n.part)], mirror->receive));
      ASSERT_EQ(to_global(lm, n.receive), to_global(meshes[at(n.part)], mirror->send));
    }
    for (index_t l = lm.owned_count; l < total; ++l) ASSERT_EQ(received[at(l)], 1);
    index_t outside = 0;
    for (std::size_t c = 0; c < part.size(); ++c) {
      if (local_cell(static_cast<index_t>(c)) < 0) ++outside;
    }
    ASSERT_EQ(outside, static_cast<index_t>(part.size()) - total);
    if (parts == 1) {
      ASSERT_EQ(lm.halo_count(), 0);
      ASSERT_TRUE(lm.neighbours.empty());
      ASSERT_EQ(lm.interior_count, global.cell_count());
    }
    check_geometry(global, lm);
  }
  for (int n : owners) ASSERT_EQ(n, 1);

  // The single-part entry point builds the same local mesh.
  const local_mesh one = build_local_mesh(global, part, parts, parts - 1, options);
  ASSERT_EQ(one.global_cell, meshes.back().global_cell);
  ASSERT_EQ(one.neighbours.size(), meshes.back().neighbours.size());
  for (std::size_t k = 0; k < one.neighbours.size(); ++k) {
    ASSERT_EQ(one.neighbours[k].send, meshes.back().neighbours[k].send);
  }
}

void check_all(const mesh& global) {
  for (int parts : {1, 2, 3, 5}) {
    for (int depth : {1, 2}) {
      for (adjacency by : {adjacency::face, adjacency::node}) {
        for (cell_order order : {cell_order::locality, cell_order::global}) {
          const halo_options options{depth, by, order};
          check_local_meshes(global, block_partition(global.cell_count(), parts), parts, options);
          check_local_meshes(global, stripe_partition(global, parts), parts, options);
        }
      }
    }
  }
}

TEST(local_mesh, invariants_on_triangles) { check_all(box2d_tri(9, 7)); }
TEST(local_mesh, invariants_on_quads) { check_all(box2d_quad(10, 6)); }
TEST(local_mesh, invariants_on_hexahedra) { check_all(box3d_hex(6, 4, 3)); }
TEST(local_mesh, invariants_on_tetrahedra) { check_all(box3d_tet(4, 3, 3)); }

TEST(local_mesh, a_deep_halo_reaches_cells_of_parts_that_are_not_adjacent) {
  const mesh global = box2d_quad(12, 2);
  std::vector<int> part(at(global.cell_count()));
  for (index_t c = 0; c < global.cell_count(); ++c) part[at(c)] = static_cast<int>((c % 12) / 2);
  // Stripes two cells wide: depth 3 reaches two parts away.
  check_local_meshes(global, part, 6, {3, adjacency::face});
  const auto meshes = build_local_meshes(global, part, 6, {3, adjacency::face});
  ASSERT_EQ(meshes[0].neighbours.size(), 2u);
  EXPECT_EQ(meshes[0].neighbours[1].part, 2);
}

// The grid with its cells in a random order, as a file may hold them (nodes unchanged).
mesh shuffled_cells(const mesh& grid, unsigned seed) {
  std::vector<index_t> order(at(grid.cell_count()));
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<index_t>(k);
  std::mt19937 random(seed);
  std::shuffle(order.begin(), order.end(), random);
  mesh out = grid;
  out.cells = element_block{};
  for (const index_t c : order) {
    out.cells.add(grid.cells.types[at(c)], grid.cells.nodes_of(c), grid.cells.ids[at(c)],
                  grid.cells.physical[at(c)]);
  }
  return out;
}

// The largest distance in local numbering between two face neighbours among the owned
// interior cells (the boundary group comes after them all).
index_t bandwidth(const local_mesh& lm, const graph& dual) {
  index_t widest = 0;
  const local_cell_lookup local_cell(lm);
  for (index_t l = 0; l < lm.interior_count; ++l) {
    for (const index_t n : dual.neighbours(lm.global_cell[at(l)])) {
      const index_t ln = local_cell(n);
      if (ln >= 0 && ln < lm.interior_count) widest = std::max(widest, std::abs(ln - l));
    }
  }
  return widest;
}

// Each owned cell's vertex average, in local order (the halo is by global index).
std::vector<std::array<double, 3>> centres(const local_mesh& lm) {
  std::vector<std::array<double, 3>> result;
  for (index_t c = 0; c < lm.owned_count; ++c) {
    std::array<double, 3> sum{0, 0, 0};
    const auto nodes = lm.cells.cells.nodes_of(c);
    for (const index_t n : nodes) {
      for (std::size_t d = 0; d < 3; ++d) sum[d] += lm.cells.coordinates[at(n)][d];
    }
    for (double& x : sum) x /= static_cast<double>(nodes.size());
    result.push_back(sum);
  }
  return result;
}

TEST(local_mesh, the_locality_order_does_not_depend_on_the_input_order) {
  for (const mesh& grid : {box2d_quad(30, 12), box2d_tri(14, 9), box3d_hex(8, 5, 4)}) {
    const mesh mixed = shuffled_cells(grid, 7);
    const graph grid_dual = dual_graph(grid, adjacency::face);
    const graph mixed_dual = dual_graph(mixed, adjacency::face);
    for (int parts : {1, 2}) {
      SCOPED_TRACE(std::to_string(grid.cell_count()) + " cells, " + std::to_string(parts) +
                   " part(s)");
      const auto part = stripe_partition(grid, parts);
      // The same cells go to the same parts in both inputs.
      std::vector<int> mixed_part(part.size());
      for (index_t c = 0; c < mixed.cell_count(); ++c) {
        const auto it =
            std::find(grid.cells.ids.begin(), grid.cells.ids.end(), mixed.cells.ids[at(c)]);
        mixed_part[at(c)] = part[at(it - grid.cells.ids.begin())];
      }
      for (int p = 0; p < parts; ++p) {
        const local_mesh ordered = build_local_mesh(grid, grid_dual, part, parts, p);
        const local_mesh from_mixed = build_local_mesh(mixed, mixed_dual, mixed_part, parts, p);
        const local_mesh as_given =
            build_local_mesh(mixed, mixed_dual, mixed_part, parts, p,
                             {.depth = 1, .by = adjacency::face, .order = cell_order::global});
        // The same cells in the same local order, wherever the input listed them.
        EXPECT_EQ(centres(ordered), centres(from_mixed));
        // And neighbours stay close: within a few rows of the grid, where the input's own
        // order scatters them over the whole part.
        const index_t row = grid.dimension == 2 ? 30 : 8 * 5;
        EXPECT_LE(bandwidth(from_mixed, mixed_dual), 3 * row);
        EXPECT_GT(bandwidth(as_given, mixed_dual), bandwidth(from_mixed, mixed_dual));
      }
    }
  }
}

TEST(local_mesh, empty_parts_get_empty_local_meshes) {
  const mesh global = box2d_tri(4, 4);
  std::vector<int> part(at(global.cell_count()), 0);
  for (index_t c = 0; c < global.cell_count() / 2; ++c) part[at(c)] = 2;
  check_local_meshes(global, part, 3, {});
  const auto meshes = build_local_meshes(global, part, 3);
  EXPECT_EQ(meshes[1].cells.cell_count(), 0);
  EXPECT_TRUE(meshes[1].neighbours.empty());
}

TEST(local_mesh, faces_are_classified_and_add_up_to_the_global_faces) {
  for (const mesh& global : {box2d_tri(9, 7), box3d_hex(5, 4, 3)}) {
    const mesh_faces all = build_faces(global);
    index_t global_interior = 0, global_boundary = 0;
    for (index_t f = 0; f < all.size(); ++f)
      (all.on_boundary(f) ? global_boundary : global_interior)++;
    for (adjacency by : {adjacency::face, adjacency::node}) {
      const int parts = 3;
      const auto meshes =
          build_local_meshes(global, stripe_partition(global, parts), parts, {2, by});
      index_t interior = 0, cut = 0, boundary = 0;
      for (const local_mesh& lm : meshes) {
        const mesh_faces faces = build_faces(lm.cells);
        const auto kinds = classify_faces(lm, faces);
        ASSERT_EQ(kinds.size(), at(faces.size()));
        for (index_t f = 0; f < faces.size(); ++f) {
          const auto [a, b] = faces.cells[at(f)];
          switch (kinds[at(f)]) {
            case face_kind::interior:
              ++interior;
              break;
            case face_kind::partition_boundary:
              ++cut;
              break;
            case face_kind::domain_boundary:
              ++boundary;
              ASSERT_LT(a, lm.owned_count);
              ASSERT_LT(b, 0);
              break;
            case face_kind::halo:
              ASSERT_GE(std::min(a, b < 0 ? a : b), lm.owned_count);
              break;
          }
        }
      }
      EXPECT_EQ(boundary, global_boundary);
      EXPECT_EQ(cut % 2, 0);
      EXPECT_EQ(interior + cut / 2, global_interior);
    }
  }
}

template <typename F>
void expect_error(F&& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no error, expected one mentioning '" << fragment << "'";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(local_mesh, invalid_input_is_a_clear_error) {
  const mesh global = box2d_quad(3, 3);
  const std::vector<int> part = block_partition(global.cell_count(), 2);
  std::vector<int> shorter(part.begin(), part.end() - 1);
  expect_error([&] { build_local_meshes(global, shorter, 2); }, "the partition has 8 entries");
  expect_error([&] { build_local_mesh(global, shorter, 2, 0); }, "the partition has 8 entries");
  std::vector<int> bad = part;
  bad[4] = 7;
  expect_error([&] { build_local_meshes(global, bad, 2); }, "cell 4 is assigned to part 7");
  bad[4] = -1;
  expect_error([&] { build_local_mesh(global, bad, 2, 0); }, "cell 4 is assigned to part -1");
  expect_error([&] { build_local_mesh(global, part, 2, 2); }, "part 2 is outside [0, 2)");
  expect_error([&] { build_local_mesh(global, part, 2, -1); }, "part -1 is outside");
  expect_error([&] { build_local_meshes(global, part, 0); }, "parts is 0");
  expect_error(
      [&] {
        build_local_meshes(global, part, 2, {0, adjacency::face});
      },
      "halo depth is 0");
  const graph other = dual_graph(box2d_quad(2, 2));
  expect_error([&] { build_local_meshes(global, other, part, 2); },
               "the dual graph has 4 vertices");
}

TEST(local_mesh, local_cell_is_minus_one_for_cells_elsewhere) {
  const mesh global = box2d_quad(8, 1);
  const auto meshes = build_local_meshes(global, block_partition(8, 2), 2);
  const local_cell_lookup local_cell(meshes[0]);
  EXPECT_EQ(local_cell(7), -1);
  EXPECT_EQ(local_cell(4), meshes[0].owned_count);  // its one halo cell
  EXPECT_EQ(local_cell(100), -1);
  EXPECT_EQ(local_cell(-1), -1);
}

TEST(local_mesh, a_hundred_thousand_cells_split_eight_ways_is_fast) {
  const mesh global = box3d_hex(47, 47, 47);  // 103823 hexahedra
  const auto part = stripe_partition(global, 8);
  const auto start = std::chrono::steady_clock::now();
  const auto meshes = build_local_meshes(global, part, 8, {});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("build_local_meshes: %lld cells, 8 parts, %.3f s\n",
              static_cast<long long>(global.cell_count()), seconds);
  index_t owned = 0;
  for (const auto& lm : meshes) owned += lm.owned_count;
  EXPECT_EQ(owned, global.cell_count());
  EXPECT_LT(seconds, 5.0);  // generous for debug and sanitizer builds; ~0.1 s optimised
}

}  // namespace
}  // namespace funcmesh::testing
