// Built-in meshes: counts, boundary tags, exact volumes with and without perturbation,
// conformity of the tetrahedral box, and the time to generate a million cells.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

namespace funcmesh::testing {

namespace {

std::map<std::string, index_t> boundary_counts(const mesh& m) {
  std::map<std::string, index_t> counts;
  for (index_t e = 0; e < m.boundary.size(); ++e) {
    ++counts[m.physical_name(m.boundary.physical[static_cast<std::size_t>(e)], m.dimension - 1)];
  }
  return counts;
}

double total_volume(const mesh& m) {
  const mesh_geometry g = compute_geometry(m, build_faces(m));
  double sum = 0;
  for (double v : g.cell_volume) {
    EXPECT_GT(v, 0);
    sum += v;
  }
  return sum;
}

}  // namespace

TEST(builtin_meshes, counts_of_the_rectangles) {
  const mesh tri = box2d_tri(3, 2);
  EXPECT_EQ(tri.dimension, 2);
  EXPECT_EQ(tri.cell_count(), 12);
  EXPECT_EQ(tri.node_count(), 12);
  EXPECT_EQ(tri.boundary.size(), 10);
  const std::map<std::string, index_t> expected{
      {"left", 2}, {"right", 2}, {"bottom", 3}, {"top", 3}};
  EXPECT_EQ(boundary_counts(tri), expected);
  const mesh quad = box2d_quad(1, 1);
  EXPECT_EQ(quad.cell_count(), 1);
  EXPECT_EQ(quad.node_count(), 4);
  EXPECT_EQ(quad.boundary.size(), 4);
  EXPECT_EQ(quad.physical_id("top", 1), 4);
  EXPECT_EQ(box2d_tri(1, 1).cell_count(), 2);
  // Ids are 1-based, boundary element ids follow the cells'.
  EXPECT_EQ(tri.node_ids.front(), 1);
  EXPECT_EQ(tri.cells.ids.front(), 1);
  EXPECT_EQ(tri.boundary.ids.front(), 13);
}

TEST(builtin_meshes, counts_of_the_boxes) {
  const mesh hex = box3d_hex(2, 3, 4);
  EXPECT_EQ(hex.dimension, 3);
  EXPECT_EQ(hex.cell_count(), 24);
  EXPECT_EQ(hex.node_count(), 3 * 4 * 5);
  const std::map<std::string, index_t> hex_expected{{"left", 12}, {"right", 12}, {"front", 8},
                                                    {"back", 8},  {"bottom", 6}, {"top", 6}};
  EXPECT_EQ(boundary_counts(hex), hex_expected);
  const mesh tet = box3d_tet(2, 3, 4);
  EXPECT_EQ(tet.cell_count(), 144);
  EXPECT_EQ(tet.node_count(), 60);
  const std::map<std::string, index_t> tet_expected{{"left", 24}, {"right", 24},  {"front", 16},
                                                    {"back", 16}, {"bottom", 12}, {"top", 12}};
  EXPECT_EQ(boundary_counts(tet), tet_expected);
  EXPECT_EQ(box3d_hex(1, 1, 1).cell_count(), 1);
  EXPECT_EQ(box3d_hex(1, 1, 1).boundary.size(), 6);
  EXPECT_EQ(box3d_tet(1, 1, 1).cell_count(), 6);
  EXPECT_EQ(box3d_tet(1, 1, 1).boundary.size(), 12);
  for (const char* name : {"left", "right", "front", "back", "bottom", "top"}) {
    EXPECT_GT(tet.physical_id(name, 2), 0) << name;
  }
}

TEST(builtin_meshes, volumes_add_up_to_the_box_with_and_without_perturbation) {
  box_options options;
  options.lengths = {2.0, 0.5, 3.0};
  options.origin = {-1.0, 4.0, 0.25};
  for (double perturbation : {0.0, 0.2}) {
    options.perturbation = perturbation;
    EXPECT_NEAR(total_volume(box2d_tri(7, 5, options)), 1.0, 1e-12);
    EXPECT_NEAR(total_volume(box2d_quad(7, 5, options)), 1.0, 1e-12);
    EXPECT_NEAR(total_volume(box3d_hex(5, 4, 3, options)), 3.0, 3e-12);
    EXPECT_NEAR(total_volume(box3d_tet(5, 4, 3, options)), 3.0, 3e-12);
  }
}

TEST(builtin_meshes, perturbation_is_deterministic_and_moves_interior_nodes_only) {
  box_options options;
  options.perturbation = 0.2;
  const mesh a = box3d_tet(4, 4, 4, options), b = box3d_tet(4, 4, 4, options);
  EXPECT_EQ(a.coordinates, b.coordinates);
  const mesh flat = box3d_tet(4, 4, 4);
  index_t moved = 0;
  for (std::size_t v = 0; v < a.coordinates.size(); ++v) {
    if (a.coordinates[v] != flat.coordinates[v]) ++moved;
  }
  EXPECT_EQ(moved, 27);  // the 3x3x3 interior nodes
  options.seed = 2;
  EXPECT_NE(box3d_tet(4, 4, 4, options).coordinates, a.coordinates);
  // Orientation survives the perturbation: normalisation changes nothing.
  mesh copy = a;
  normalize_orientation(copy);
  EXPECT_EQ(copy.cells.nodes, a.cells.nodes);
}

TEST(builtin_meshes, tetrahedral_box_is_conforming) {
  const index_t nx = 3, ny = 4, nz = 5;
  const mesh m = box3d_tet(nx, ny, nz);
  const mesh_faces faces = build_faces(m);
  index_t boundary = 0;
  for (index_t f = 0; f < faces.size(); ++f) {
    if (faces.on_boundary(f)) {
      ++boundary;
      EXPECT_GT(faces.physical[static_cast<std::size_t>(f)], 0);
    }
  }
  EXPECT_EQ(boundary, 2 * (nx * ny + ny * nz + nx * nz) * 2);
  EXPECT_EQ(faces.size(), (4 * m.cell_count() + boundary) / 2);
}

TEST(builtin_meshes, builtin_mesh_picks_sizes_and_rejects_bad_input) {
  EXPECT_EQ(builtin_mesh("box3d-tet", 6000).cell_count(), 6000);
  EXPECT_EQ(builtin_mesh("box3d-hex", 1000).cell_count(), 1000);
  EXPECT_EQ(builtin_mesh("box2d-quad", 100).cell_count(), 100);
  EXPECT_EQ(builtin_mesh("box2d-tri", 200).cell_count(), 200);
  EXPECT_EQ(builtin_mesh("box3d-tet", 1).cell_count(), 6);
  const double cells = static_cast<double>(builtin_mesh("box3d-tet", 100000).cell_count());
  EXPECT_NEAR(cells / 100000, 1.0, 0.1);
  try {
    builtin_mesh("box4d", 10);
    FAIL();
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("box3d-tet"), std::string::npos) << e.what();
  }
  EXPECT_THROW(builtin_mesh("box2d-tri", 0), error);
  EXPECT_THROW(box2d_quad(0, 3), error);
  EXPECT_THROW(box3d_hex(2, -1, 2), error);
  EXPECT_THROW(box3d_tet(index_t{1} << 40, index_t{1} << 40, 2), error);
  box_options bad;
  bad.lengths = {1, 0, 1};
  EXPECT_THROW(box2d_tri(2, 2, bad), error);
  bad = {};
  bad.perturbation = 0.5;
  EXPECT_THROW(box3d_hex(2, 2, 2, bad), error);
}

TEST(builtin_meshes, a_million_tetrahedra_in_seconds) {
  const auto start = std::chrono::steady_clock::now();
  const mesh m = builtin_mesh("box3d-tet", 1000000);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("box3d_tet: %lld cells generated in %.3f s\n", static_cast<long long>(m.cell_count()),
              seconds);
  EXPECT_GT(m.cell_count(), 900000);
}

}  // namespace funcmesh::testing
