// The built-in classic Airfoil grid: counts, orientation, the merged wake cut, boundary
// tags, symmetry about y = 0 and refused options. The published residuals are checked
// by the airfoil_plain_rms test (tests/airfoil/CMakeLists.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/airfoil_grid.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/dual_graph.hpp>

namespace fm = funcmesh;
using fm::index_t;

namespace {

fm::mesh grid(index_t i, index_t j, bool rounded = true) {
  fm::airfoil_options options;
  options.i = i;
  options.j = j;
  options.round_to_file_precision = rounded;
  return fm::airfoil_grid(options);
}

// Node (a, b) of the structured grid, as airfoil_grid.hpp numbers it.
index_t node(index_t i, index_t a, index_t b) {
  if (b > 0) return a + b * (3 * i + 1) - (i + 1);
  return a < 2 * i ? a : 3 * i - a;
}

const std::array<double, 3>& at(const fm::mesh& m, index_t v) {
  return m.coordinates[static_cast<std::size_t>(v)];
}

double twice_area(const fm::mesh& m, index_t c) {
  const auto q = m.cells.nodes_of(c);
  const auto& o = at(m, q[0]);
  double sum = 0;
  for (std::size_t s = 1; s + 1 < q.size(); ++s) {
    const auto &p = at(m, q[s]), &r = at(m, q[s + 1]);
    sum += (p[0] - o[0]) * (r[1] - o[1]) - (r[0] - o[0]) * (p[1] - o[1]);
  }
  return sum;
}

std::pair<index_t, index_t> key(index_t p, index_t q) { return {std::min(p, q), std::max(p, q)}; }

}  // namespace

TEST(AirfoilGrid, Counts) {
  for (const auto& [i, j] : {std::pair<index_t, index_t>{2, 1}, {3, 4}, {10, 15}, {7, 2}}) {
    const fm::mesh m = grid(i, j);
    EXPECT_EQ(m.dimension, 2);
    EXPECT_EQ(m.cell_count(), 3 * i * j);
    EXPECT_EQ(m.node_count(), (3 * i + 1) * (j + 1) - (i + 1));
    EXPECT_EQ(m.boundary.size(), i + 2 * j + 3 * i);
    EXPECT_TRUE(m.node_ids.empty());  // a generated node is named by its index
    for (index_t c = 0; c < m.cell_count(); ++c) {
      ASSERT_EQ(m.cells.types[static_cast<std::size_t>(c)], fm::cell_type::quad);
      ASSERT_EQ(m.cells.ids[static_cast<std::size_t>(c)], c);
    }
  }
}

TEST(AirfoilGrid, EveryCellHasPositiveArea) {
  for (const bool rounded : {true, false}) {
    for (const auto& [i, j] : {std::pair<index_t, index_t>{2, 1}, {10, 15}, {100, 150}}) {
      const fm::mesh m = grid(i, j, rounded);
      for (index_t c = 0; c < m.cell_count(); ++c) {
        ASSERT_GT(twice_area(m, c), 0) << "cell " << c << " of " << i << " x " << j;
      }
    }
  }
}

TEST(AirfoilGrid, FacesWakeCutAndBoundaryTags) {
  const index_t i = 12, j = 18;
  const fm::mesh m = grid(i, j);
  // Every face of every cell: one or two cells; the one-cell faces are the boundary.
  std::map<std::pair<index_t, index_t>, std::vector<index_t>> faces;
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const auto q = m.cells.nodes_of(c);
    for (std::size_t s = 0; s < q.size(); ++s) faces[key(q[s], q[(s + 1) % q.size()])].push_back(c);
  }
  const int wall = m.physical_id("wall", 1), farfield = m.physical_id("farfield", 1);
  ASSERT_EQ(wall, 1);
  ASSERT_EQ(farfield, 2);
  std::map<std::pair<index_t, index_t>, int> tagged;
  index_t walls = 0, farfields = 0;
  for (index_t e = 0; e < m.boundary.size(); ++e) {
    const auto ends = m.boundary.nodes_of(e);
    ASSERT_EQ(m.boundary.types[static_cast<std::size_t>(e)], fm::cell_type::line);
    ASSERT_EQ(ends.size(), 2u);
    const int group = m.boundary.physical[static_cast<std::size_t>(e)];
    ASSERT_TRUE(group == wall || group == farfield);
    (group == wall ? walls : farfields) += 1;
    ASSERT_TRUE(tagged.emplace(key(ends[0], ends[1]), group).second) << "tagged twice";
    // Outward: the right-hand normal of p -> q points away from its cell's centroid.
    const auto it = faces.find(key(ends[0], ends[1]));
    ASSERT_NE(it, faces.end());
    ASSERT_EQ(it->second.size(), 1u) << "a boundary element on an interior face";
    const index_t c = it->second[0];
    double cx = 0, cy = 0;
    for (const index_t v : m.cells.nodes_of(c)) {
      cx += at(m, v)[0] / 4;
      cy += at(m, v)[1] / 4;
    }
    const auto &p = at(m, ends[0]), &q = at(m, ends[1]);
    const double nx = q[1] - p[1], ny = -(q[0] - p[0]);
    EXPECT_GT(((p[0] + q[0]) / 2 - cx) * nx + ((p[1] + q[1]) / 2 - cy) * ny, 0);
    if (group == wall) {  // on the airfoil: chord [-0.0077, 1], thickness 12 %
      EXPECT_GE(p[0], -0.0077 - 1e-9);
      EXPECT_LE(p[0], 1.0);
      EXPECT_LE(std::abs(p[1]), 0.061);
    } else {  // the far field lies far away
      EXPECT_GT(std::hypot(p[0], p[1]), 8.0);
    }
  }
  EXPECT_EQ(walls, i);
  EXPECT_EQ(farfields, 2 * j + 3 * i);
  index_t interior = 0;
  for (const auto& [face, cells] : faces) {
    ASSERT_LE(cells.size(), 2u);
    if (cells.size() == 2) {
      ++interior;
    } else {
      ASSERT_TRUE(tagged.contains(face)) << "an untagged boundary face";
    }
  }
  // Interior faces: vertical lines, horizontal lines, and the I faces of the cut.
  EXPECT_EQ(interior, (3 * i - 1) * j + 3 * i * (j - 1) + i);

  // Across the cut, cell (a, 0) and cell (3I - 1 - a, 0) are neighbours.
  const fm::graph dual = fm::dual_graph(m);
  for (index_t a = 0; a < i; ++a) {
    const auto next = dual.neighbours(a);
    EXPECT_TRUE(std::binary_search(next.begin(), next.end(), 3 * i - 1 - a)) << "a = " << a;
  }
  EXPECT_EQ(dual.edge_count(), interior);
}

TEST(AirfoilGrid, SymmetricAboutTheChord) {
  const index_t i = 20, j = 30;
  for (const bool rounded : {true, false}) {
    const fm::mesh m = grid(i, j, rounded);
    const double tolerance = rounded ? 1.5e-6 : 1e-12;
    for (index_t b = 0; b <= j; ++b) {
      for (index_t a = 0; a <= 3 * i; ++a) {
        const auto &p = at(m, node(i, a, b)), &q = at(m, node(i, 3 * i - a, b));
        ASSERT_NEAR(p[0], q[0], tolerance) << a << ", " << b;
        ASSERT_NEAR(p[1], -q[1], tolerance) << a << ", " << b;
        ASSERT_EQ(p[2], 0.0);
      }
    }
  }
}

TEST(AirfoilGrid, LandmarkNodes) {
  const index_t i = 20, j = 30;
  const fm::mesh m = grid(i, j);
  EXPECT_EQ(at(m, node(i, 0, 0))[0], 9.0);      // the wake's far end
  EXPECT_EQ(at(m, node(i, i, 0))[0], 1.0);      // the trailing edge
  EXPECT_EQ(at(m, node(i, 2 * i, 0))[0], 1.0);  // ... merged with its twin
  EXPECT_EQ(node(i, i, 0), node(i, 2 * i, 0));
  EXPECT_NEAR(at(m, node(i, 3 * i / 2, 0))[0], -0.0077, 1e-12);  // the leading edge
  EXPECT_NEAR(at(m, node(i, 3 * i / 2, 0))[1], 0.0, 1e-12);
  EXPECT_EQ(at(m, node(i, 0, j))[1], -18.0);  // far-field corners at xi = -3, 3
  EXPECT_EQ(at(m, node(i, 3 * i, j))[1], 18.0);
  // Rounded coordinates are whole millionths.
  for (const auto& x : m.coordinates) {
    ASSERT_EQ(x[0], std::round(x[0] * 1e6) / 1e6);
    ASSERT_EQ(x[1], std::round(x[1] * 1e6) / 1e6);
  }
}

// The rounded grid is the full-precision one written with "%.6f" and read back.
TEST(AirfoilGrid, RoundedAsPrintfWritesIt) {
  const fm::mesh exact = grid(40, 60, false), rounded = grid(40, 60, true);
  ASSERT_EQ(exact.node_count(), rounded.node_count());
  for (index_t v = 0; v < exact.node_count(); ++v) {
    for (std::size_t d = 0; d < 2; ++d) {
      char text[64];
      std::snprintf(text, sizeof text, "%.6f", at(exact, v)[d]);
      ASSERT_EQ(std::strtod(text, nullptr), at(rounded, v)[d]) << "node " << v << ": " << text;
    }
  }
}

TEST(AirfoilGrid, BuiltinMeshName) {
  const fm::mesh m = fm::builtin_mesh("airfoil", 45000);
  EXPECT_EQ(m.cell_count(), 45000);  // i = 100, j = 150
  EXPECT_EQ(m.boundary.size(), 100 + 300 + 300);
  EXPECT_EQ(fm::builtin_mesh("airfoil", 10).cell_count(), 3 * 2 * 3);  // the smallest
}

TEST(AirfoilGrid, RefusesBadOptions) {
  EXPECT_THROW(grid(1, 10), fm::error);
  EXPECT_THROW(grid(0, 10), fm::error);
  EXPECT_THROW(grid(-4, 10), fm::error);
  EXPECT_THROW(grid(10, 0), fm::error);
  EXPECT_THROW(grid(index_t{1} << 62, 10), fm::error);  // overflows
  try {
    grid(1, 10);
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find("i >= 2"), std::string::npos) << e.what();
  }
}
