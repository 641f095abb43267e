// The locality order pinned to its definition: Cuthill-McKee piece after piece, the pieces
// in the order of their first cell by (degree, vertex average, global index), each searched
// from a pseudo-peripheral cell, new neighbours in that same order. The reference below is
// the plain version (every cell sorted, each level's new cells sorted); the library's
// faster one must give the same order, piece starts and ties included.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <tuple>
#include <vector>

#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/dual_graph.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh.hpp>

namespace funcmesh::testing {
namespace {

std::size_t at(index_t i) { return static_cast<std::size_t>(i); }

// The reference order of all cells of `m` (one part: every cell owned, none on a halo).
std::vector<index_t> reference_order(const mesh& m, const graph& dual) {
  const std::size_t n = at(m.cell_count());
  std::vector<std::array<double, 3>> centre(n);
  std::vector<std::size_t> degree(n);
  for (std::size_t c = 0; c < n; ++c) {
    const auto nodes = m.cells.nodes_of(static_cast<index_t>(c));
    std::array<double, 3> sum{0, 0, 0};
    for (index_t v : nodes) {
      for (std::size_t d = 0; d < 3; ++d) sum[d] += m.coordinates[at(v)][d];
    }
    for (double& x : sum) x /= static_cast<double>(nodes.size());
    centre[c] = sum;
    degree[c] = dual.neighbours(static_cast<index_t>(c)).size();
  }
  const auto before = [&](index_t a, index_t b) {
    return std::tie(degree[at(a)], centre[at(a)], a) < std::tie(degree[at(b)], centre[at(b)], b);
  };
  // Breadth first from `start`: (the cells, where the last level begins, the level count).
  const auto search = [&](index_t start) {
    std::vector<index_t> out{start};
    std::vector<char> seen(n, 0);
    seen[at(start)] = 1;
    std::size_t begin = 0, last = 0;
    int levels = 0;
    while (begin < out.size()) {
      const std::size_t end = out.size();
      last = begin;
      ++levels;
      for (std::size_t k = begin; k < end; ++k) {
        std::vector<index_t> fresh;
        for (index_t q : dual.neighbours(out[k])) {
          if (seen[at(q)] == 0) {
            seen[at(q)] = 1;
            fresh.push_back(q);
          }
        }
        std::sort(fresh.begin(), fresh.end(), before);
        out.insert(out.end(), fresh.begin(), fresh.end());
      }
      begin = end;
    }
    return std::make_tuple(out, last, levels);
  };
  std::vector<index_t> by_key(n);
  std::iota(by_key.begin(), by_key.end(), index_t{0});
  std::sort(by_key.begin(), by_key.end(), before);
  std::vector<char> placed(n, 0);
  std::vector<index_t> result;
  for (index_t first : by_key) {
    if (placed[at(first)] != 0) continue;
    auto [piece, last, levels] = search(first);
    for (int attempt = 0; attempt < 8; ++attempt) {
      const index_t candidate =
          *std::min_element(piece.begin() + static_cast<long>(last), piece.end(), before);
      auto [trial, trial_last, trial_levels] = search(candidate);
      if (trial_levels <= levels) break;
      piece = trial;
      last = trial_last;
      levels = trial_levels;
    }
    for (index_t c : piece) placed[at(c)] = 1;
    result.insert(result.end(), piece.begin(), piece.end());
  }
  return result;
}

// Grids side by side, not touching: a mesh of several pieces of different shapes.
mesh pieces() {
  mesh m = box2d_tri(9, 6);
  std::array<double, 3> shift{1.5, 0, 0};
  for (const mesh& more : {box2d_quad(5, 7), box2d_tri(3, 3), box2d_tri(1, 1)}) {
    const auto first = static_cast<index_t>(m.coordinates.size());
    for (auto x : more.coordinates) m.coordinates.push_back({x[0] + shift[0], x[1], x[2]});
    for (index_t c = 0; c < more.cell_count(); ++c) {
      std::vector<index_t> nodes;
      for (index_t v : more.cells.nodes_of(c)) nodes.push_back(v + first);
      m.cells.add(more.cells.types[at(c)], nodes, m.cell_count(), 0);
    }
    shift[0] += 1.5;
  }
  m.boundary = element_block{};
  return m;
}

TEST(locality_order, is_cuthill_mckee_piece_after_piece) {
  for (const mesh& m : {box3d_tet(5, 4, 3), box2d_quad(7, 5), pieces()}) {
    SCOPED_TRACE(std::to_string(m.cell_count()) + " cells");
    const graph dual = dual_graph(m, adjacency::face);
    const std::vector<int> one_part(at(m.cell_count()), 0);
    const local_mesh lm = build_local_mesh(m, dual, one_part, 1, 0);
    EXPECT_EQ(lm.global_cell, reference_order(m, dual));
  }
}

}  // namespace
}  // namespace funcmesh::testing
