// Face colouring: every face in exactly one colour, and no two faces of a colour update the
// same cell (halo cells and domain boundaries do not count), on real meshes.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/face_colouring.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

namespace funcmesh::testing {

namespace {

void expect_valid(std::span<const std::array<index_t, 2>> cells, index_t updated,
                  const face_colouring& colouring) {
  std::vector<int> seen(cells.size(), 0);
  for (int k = 0; k < colouring.colour_count(); ++k) {
    std::set<index_t> touched;
    for (index_t at = colouring.offsets[static_cast<std::size_t>(k)];
         at < colouring.offsets[static_cast<std::size_t>(k) + 1]; ++at) {
      const index_t f = colouring.faces[static_cast<std::size_t>(at)];
      ++seen[static_cast<std::size_t>(f)];
      for (index_t c : cells[static_cast<std::size_t>(f)]) {
        if (c < 0 || c >= updated) continue;
        EXPECT_TRUE(touched.insert(c).second)
            << "colour " << k << " updates cell " << c << " twice";
      }
    }
  }
  for (std::size_t f = 0; f < seen.size(); ++f) EXPECT_EQ(seen[f], 1) << "face " << f;
}

TEST(face_colouring, groups_never_update_a_cell_twice) {
  for (const mesh& m :
       {box2d_tri(9, 7), box2d_quad(8, 5), box3d_hex(4, 3, 3), box3d_tet(3, 3, 2)}) {
    const mesh_faces faces = build_faces(m);
    const face_colouring all = colour_faces(faces.cells, m.cell_count());
    expect_valid(faces.cells, m.cell_count(), all);
    EXPECT_LE(all.colour_count(), 2 * 6 - 1) << "greedy bound for cells of at most 6 faces";
    // Only the first half of the cells updated (the rest play halo cells): still valid, and
    // never more colours.
    const face_colouring half = colour_faces(faces.cells, m.cell_count() / 2);
    expect_valid(faces.cells, m.cell_count() / 2, half);
    EXPECT_LE(half.colour_count(), all.colour_count());
  }
}

TEST(face_colouring, empty_and_boundary_only) {
  EXPECT_EQ(colour_faces({}, 0).colour_count(), 0);
  const std::vector<std::array<index_t, 2>> boundary{{0, -1}, {0, -1}, {1, -1}};
  const face_colouring c = colour_faces(boundary, 2);
  expect_valid(boundary, 2, c);
  EXPECT_EQ(c.colour_count(), 2);
}

}  // namespace

}  // namespace funcmesh::testing
