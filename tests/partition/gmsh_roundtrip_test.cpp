// Gmsh round trips: the installed gmsh meshes .geo files at test time into MSH 2.2 and
// 4.1, ASCII and binary, and the four files must read into the same mesh.
#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>
#include <funcmesh/partition/mesh_read_error.hpp>

#include "../common/mesh_equality.hpp"
#include "../common/test_paths.hpp"

namespace funcmesh::testing {

namespace {

namespace fs = std::filesystem;

const fs::path gmsh_data = funcmesh::testing::beside_executable(FUNCMESH_TEST_DATA_DIR) / "gmsh";

struct variant {
  const char* name;
  const char* options;
};
constexpr variant variants[] = {{"msh22", "-format msh22"},
                                {"msh22_bin", "-format msh22 -bin"},
                                {"msh41", "-format msh41"},
                                {"msh41_bin", "-format msh41 -bin"}};

// read_gmsh_blocks (blocks of `block` elements) gives read_gmsh's oriented mesh.
void expect_streamed_as_whole(const fs::path& file, std::size_t block) {
  mesh whole = read_gmsh(file);
  normalize_orientation(whole);
  element_block cells, boundary;
  std::vector<std::array<double, 3>> coordinates;
  read_gmsh_blocks(
      file, block, [&](const gmsh_header& h) { coordinates = h.coordinates; },
      [&](const element_block& b, int dimension) {
        element_block& to = dimension == whole.dimension ? cells : boundary;
        for (index_t e = 0; e < b.size(); ++e) {
          const auto k = static_cast<std::size_t>(e);
          to.add(b.types[k], b.nodes_of(e), b.ids[k], b.physical[k]);
        }
      });
  SCOPED_TRACE(file.string());
  EXPECT_EQ(coordinates, whole.coordinates);
  expect_same_blocks(cells, whole.cells, "cells");
  expect_same_blocks(boundary, whole.boundary, "boundary");
}

class gmsh_roundtrip : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("gmsh --version > /dev/null 2>&1") != 0) {
      GTEST_FAIL() << "gmsh is not installed (ci/install-deps installs Debian's gmsh)";
    }
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("funcmesh_gmsh_" + std::to_string(::getpid()) + "_" + info->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

  // Meshes geo with gmsh in every variant and reads the four files.
  std::vector<mesh> mesh_all(const std::string& geo, int dimension) {
    std::vector<mesh> meshes;
    for (const variant& v : variants) {
      const fs::path out = dir_ / (geo + "." + v.name + ".msh");
      const fs::path log = dir_ / (geo + "." + v.name + ".log");
      const std::string command = "gmsh -" + std::to_string(dimension) + " \"" +
                                  (gmsh_data / (geo + ".geo")).string() + "\" " + v.options +
                                  " -o \"" + out.string() + "\" > \"" + log.string() + "\" 2>&1";
      if (std::system(command.c_str()) != 0 || !fs::exists(out)) {
        std::ifstream in(log);
        std::stringstream text;
        text << in.rdbuf();
        ADD_FAILURE() << "gmsh failed: " << command << "\n" << text.str();
        return {};
      }
      try {
        meshes.push_back(read_gmsh(out));
        expect_streamed_as_whole(out, 97);
      } catch (const mesh_read_error& e) {
        ADD_FAILURE() << v.name << ": " << e.what();
        return {};
      }
    }
    return meshes;
  }

  fs::path dir_;
};

// Node coordinates by tag, and cell node tags and physical groups by element tag.
std::map<std::int64_t, std::array<double, 3>> nodes_by_tag(const mesh& m) {
  std::map<std::int64_t, std::array<double, 3>> nodes;
  for (index_t i = 0; i < m.node_count(); ++i) {
    nodes[m.node_ids[static_cast<std::size_t>(i)]] = m.coordinates[static_cast<std::size_t>(i)];
  }
  return nodes;
}

std::map<std::int64_t, std::pair<std::vector<std::int64_t>, int>> elements_by_tag(
    const mesh& m, const element_block& block) {
  std::map<std::int64_t, std::pair<std::vector<std::int64_t>, int>> elements;
  for (index_t e = 0; e < block.size(); ++e) {
    std::vector<std::int64_t> tags;
    for (const index_t node : block.nodes_of(e))
      tags.push_back(m.node_ids[static_cast<std::size_t>(node)]);
    elements[block.ids[static_cast<std::size_t>(e)]] = {
        tags, block.physical[static_cast<std::size_t>(e)]};
  }
  return elements;
}

// Coordinates agree to the 16 significant digits gmsh writes in ASCII.
void expect_close(const std::map<std::int64_t, std::array<double, 3>>& a,
                  const std::map<std::int64_t, std::array<double, 3>>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j) {
    ASSERT_EQ(i->first, j->first);
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_NEAR(i->second[k], j->second[k], 1e-14) << "node " << i->first;
    }
  }
}

// All four variants hold the same mesh.
void expect_same(const std::vector<mesh>& meshes) {
  ASSERT_EQ(meshes.size(), 4u);
  const mesh& first = meshes[0];
  for (std::size_t k = 1; k < meshes.size(); ++k) {
    SCOPED_TRACE(variants[k].name);
    const mesh& m = meshes[k];
    EXPECT_EQ(m.dimension, first.dimension);
    EXPECT_EQ(m.node_count(), first.node_count());
    EXPECT_EQ(m.cell_count(), first.cell_count());
    EXPECT_EQ(m.boundary.size(), first.boundary.size());
    expect_close(nodes_by_tag(m), nodes_by_tag(first));
    EXPECT_EQ(elements_by_tag(m, m.cells), elements_by_tag(first, first.cells));
    EXPECT_EQ(elements_by_tag(m, m.boundary), elements_by_tag(first, first.boundary));
  }
}

}  // namespace

TEST_F(gmsh_roundtrip, unit_square_of_triangles_with_named_sides) {
  const auto meshes = mesh_all("square", 2);
  expect_same(meshes);
  for (const mesh& m : meshes) {
    EXPECT_EQ(m.dimension, 2);
    EXPECT_GT(m.cell_count(), 100);
    EXPECT_LT(m.cell_count(), 1000);
    for (const cell_type type : m.cells.types) EXPECT_EQ(type, cell_type::triangle);
    ASSERT_GT(m.boundary.size(), 0);
    const int left = m.physical_id("left", 1);
    ASSERT_NE(left, 0);
    for (const char* side : {"right", "bottom", "top"}) EXPECT_NE(m.physical_id(side, 1), 0);
    EXPECT_NE(m.physical_id("domain", 2), 0);
    int on_left = 0;
    for (index_t e = 0; e < m.boundary.size(); ++e) {
      EXPECT_NE(m.boundary.physical[static_cast<std::size_t>(e)], 0);
      if (m.boundary.physical[static_cast<std::size_t>(e)] != left) continue;
      ++on_left;
      for (const index_t node : m.boundary.nodes_of(e)) {
        EXPECT_EQ(m.coordinates[static_cast<std::size_t>(node)][0], 0.0);
      }
    }
    EXPECT_GE(on_left, 5);
  }
}

TEST_F(gmsh_roundtrip, l_shape_with_a_hole_of_quads) {
  const auto meshes = mesh_all("lshape_hole", 2);
  expect_same(meshes);
  for (const mesh& m : meshes) {
    EXPECT_EQ(m.dimension, 2);
    int quads = 0;
    for (const cell_type type : m.cells.types) quads += type == cell_type::quad ? 1 : 0;
    EXPECT_GT(quads, m.cell_count() / 2);  // Recombine leaves few triangles, if any
    EXPECT_NE(m.physical_id("hole", 1), 0);
    EXPECT_NE(m.physical_id("outer", 1), 0);
    EXPECT_GT(m.boundary.size(), 0);
  }
}

TEST_F(gmsh_roundtrip, box_of_tetrahedra_with_physical_surfaces) {
  const auto meshes = mesh_all("box", 3);
  expect_same(meshes);
  for (const mesh& m : meshes) {
    EXPECT_EQ(m.dimension, 3);
    EXPECT_GT(m.cell_count(), 50);
    for (const cell_type type : m.cells.types) EXPECT_EQ(type, cell_type::tetrahedron);
    const int bottom = m.physical_id("bottom", 2);
    ASSERT_NE(bottom, 0);
    EXPECT_NE(m.physical_id("top", 2), 0);
    EXPECT_NE(m.physical_id("sides", 2), 0);
    EXPECT_NE(m.physical_id("domain", 3), 0);
    int on_bottom = 0;
    for (index_t e = 0; e < m.boundary.size(); ++e) {
      EXPECT_EQ(m.boundary.types[static_cast<std::size_t>(e)], cell_type::triangle);
      if (m.boundary.physical[static_cast<std::size_t>(e)] != bottom) continue;
      ++on_bottom;
      for (const index_t node : m.boundary.nodes_of(e)) {
        EXPECT_EQ(m.coordinates[static_cast<std::size_t>(node)][2], 0.0);
      }
    }
    EXPECT_GT(on_bottom, 4);
  }
}

}  // namespace funcmesh::testing
