// box_slab: every share of every built-in box equals slab_of of the whole box, bit for bit,
// and is generated in memory proportional to the share.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

namespace funcmesh::testing {

namespace {

const std::vector<std::string> names{"box2d-tri", "box2d-quad", "box3d-hex", "box3d-tet"};

mesh whole(const std::string& name, index_t n, const box_options& options) {
  if (name == "box2d-tri") return box2d_tri(n, n, options);
  if (name == "box2d-quad") return box2d_quad(n, n, options);
  if (name == "box3d-hex") return box3d_hex(n, n, n, options);
  return box3d_tet(n, n, n, options);
}

template <class T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

std::string block_difference(const element_block& a, const element_block& b) {
  if (a.types != b.types) return "types";
  if (a.offsets != b.offsets) return "offsets";
  if (a.nodes != b.nodes) return "nodes";
  if (a.ids != b.ids) return "ids";
  if (a.physical != b.physical) return "physical";
  return {};
}

// The first field in which two slabs differ, or "".
std::string difference(const mesh_slab& a, const mesh_slab& b) {
  if (a.dimension != b.dimension) return "dimension";
  if (a.global_nodes != b.global_nodes) return "global_nodes";
  if (a.global_cells != b.global_cells) return "global_cells";
  if (a.global_boundary != b.global_boundary) return "global_boundary";
  if (a.first_node != b.first_node) return "first_node";
  if (a.coordinates != b.coordinates || !bitwise_equal(a.coordinates, b.coordinates)) {
    return "coordinates";
  }
  if (a.node_ids != b.node_ids) return "node_ids";
  if (a.first_cell != b.first_cell) return "first_cell";
  if (const std::string d = block_difference(a.cells, b.cells); !d.empty()) return "cells." + d;
  if (a.first_boundary != b.first_boundary) return "first_boundary";
  if (const std::string d = block_difference(a.boundary, b.boundary); !d.empty()) {
    return "boundary." + d;
  }
  if (a.physical_groups.size() != b.physical_groups.size()) return "physical_groups";
  for (std::size_t g = 0; g < a.physical_groups.size(); ++g) {
    const physical_group &x = a.physical_groups[g], &y = b.physical_groups[g];
    if (x.dimension != y.dimension || x.id != y.id || x.name != y.name) {
      return "physical_groups";
    }
  }
  if (a.source != b.source) return "source";
  if (a.gmsh_tags != b.gmsh_tags) return "gmsh_tags";
  return {};
}

index_t share(index_t total, int parts, int part) {
  return share_begin(total, parts, part + 1) - share_begin(total, parts, part);
}

}  // namespace

TEST(box_slab, every_share_of_every_box_matches_slab_of_the_whole) {
  for (const std::string& name : names) {
    const bool flat = name.starts_with("box2d");
    for (const index_t n : flat ? std::vector<index_t>{1, 3, 7} : std::vector<index_t>{1, 2, 5}) {
      for (const double perturbation : {0.0, 0.15}) {
        box_options options;
        options.perturbation = perturbation;
        if (perturbation > 0) {
          options.lengths = {2.0, 0.5, 3.0};
          options.origin = {-1.0, 4.0, 0.25};
          options.seed = 7;
        }
        const mesh global = whole(name, n, options);
        for (const int parts : {1, 2, 3, 5, 8}) {
          for (int part = 0; part < parts; ++part) {
            EXPECT_EQ(
                difference(box_slab(name, n, options, parts, part), slab_of(global, parts, part)),
                "")
                << name << " n=" << n << " perturbation=" << perturbation << " part " << part
                << " of " << parts;
          }
        }
      }
    }
  }
}

TEST(box_slab, a_share_of_a_large_tetrahedral_box_matches_slab_of_the_whole) {
  box_options options;
  options.perturbation = 0.15;
  const mesh global = box3d_tet(40, 40, 40, options);
  const mesh_slab slab = box_slab("box3d-tet", 40, options, 64, 37);
  EXPECT_EQ(difference(slab, slab_of(global, 64, 37)), "");
  EXPECT_GT(slab.cells.size(), 0);
  EXPECT_GT(slab.boundary.size(), 0);
}

TEST(box_slab, holds_only_its_share) {
  box_options options;
  options.perturbation = 0.1;
  const index_t n = 60;
  for (const int part : {0, 37, 63}) {
    const mesh_slab slab = box_slab("box3d-tet", n, options, 64, part);
    EXPECT_EQ(slab.global_cells, 6 * n * n * n);
    EXPECT_EQ(slab.global_nodes, (n + 1) * (n + 1) * (n + 1));
    EXPECT_EQ(slab.global_boundary, 2 * 6 * n * n);
    EXPECT_EQ(slab.cells.size(), share(slab.global_cells, 64, part));
    EXPECT_EQ(static_cast<index_t>(slab.coordinates.size()), share(slab.global_nodes, 64, part));
    EXPECT_EQ(static_cast<index_t>(slab.node_ids.size()), share(slab.global_nodes, 64, part));
    EXPECT_EQ(slab.boundary.size(), share(slab.global_boundary, 64, part));
    // Reserved exactly: no whole-mesh array, no growth slack.
    EXPECT_EQ(slab.coordinates.capacity(), slab.coordinates.size());
    EXPECT_EQ(slab.cells.nodes.capacity(), slab.cells.nodes.size());
    EXPECT_EQ(slab.cells.nodes.size(), 4 * static_cast<std::size_t>(slab.cells.size()));
    EXPECT_EQ(slab.cells.ids.front(), slab.first_cell + 1);
    EXPECT_EQ(slab.boundary.ids.front(), slab.global_cells + slab.first_boundary + 1);
  }
}

TEST(box_slab, rejects_bad_input) {
  auto message = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const error& e) {
      return e.what();
    }
    return "(no error)";
  };
  const box_options options;
  EXPECT_NE(message([&] { box_slab("box4d", 2, options, 1, 0); }).find("box3d-tet"),
            std::string::npos);
  EXPECT_NE(message([&] { box_slab("airfoil", 2, options, 1, 0); }).find("unknown mesh"),
            std::string::npos);
  EXPECT_NE(message([&] { box_slab("box2d-tri", 0, options, 1, 0); }).find("positive"),
            std::string::npos);
  EXPECT_NE(message([&] { box_slab("box3d-hex", -3, options, 1, 0); }).find("positive"),
            std::string::npos);
  EXPECT_NE(message([&] { box_slab("box3d-hex", 2, options, 0, 0); }).find("parts"),
            std::string::npos);
  EXPECT_NE(message([&] { box_slab("box3d-hex", 2, options, 4, 4); }).find("outside"),
            std::string::npos);
  EXPECT_NE(message([&] { box_slab("box3d-hex", 2, options, 4, -1); }).find("outside"),
            std::string::npos);
  EXPECT_NE(
      message([&] { box_slab("box3d-tet", index_t{1} << 22, options, 1024, 3); }).find("overflows"),
      std::string::npos);
  EXPECT_NE(
      message([&] { box_slab("box2d-tri", index_t{1} << 32, options, 1024, 3); }).find("overflows"),
      std::string::npos);
  EXPECT_NE(message([&] {
              box_slab("box2d-quad", index_t{0x7fffffffffffffff}, options, 2, 0);
            }).find("overflows"),
            std::string::npos);
  box_options bad;
  bad.perturbation = 0.5;
  EXPECT_NE(message([&] { box_slab("box3d-tet", 2, bad, 2, 1); }).find("perturbation"),
            std::string::npos);
}

}  // namespace funcmesh::testing
