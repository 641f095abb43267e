// Block colouring: the faces cut into contiguous blocks in their given order, every face in
// exactly one block and every block in exactly one colour, no two blocks of a colour
// updating the same cell (halo cells and domain boundaries do not count), on every
// built-in mesh kind and on degenerate inputs.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/face_colouring.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

namespace funcmesh::testing {

namespace {

void expect_valid(std::span<const std::array<index_t, 2>> cells, index_t updated,
                  index_t block_size, const face_block_colouring& colouring) {
  const auto faces = static_cast<index_t>(cells.size());
  // Blocks: contiguous, in order, covering [0, faces), none empty or over block_size.
  ASSERT_FALSE(colouring.block_offsets.empty());
  EXPECT_EQ(colouring.block_offsets.front(), 0);
  EXPECT_EQ(colouring.block_offsets.back(), faces);
  EXPECT_EQ(colouring.block_count(), (faces + block_size - 1) / block_size);
  for (index_t b = 0; b < colouring.block_count(); ++b) {
    const index_t size = colouring.block_offsets[static_cast<std::size_t>(b) + 1] -
                         colouring.block_offsets[static_cast<std::size_t>(b)];
    EXPECT_GE(size, 1) << "block " << b;
    EXPECT_LE(size, block_size) << "block " << b;
  }
  // Colours: every block once, ascending within a colour, no cell updated twice.
  ASSERT_FALSE(colouring.colour_offsets.empty());
  EXPECT_EQ(colouring.colour_offsets.front(), 0);
  EXPECT_EQ(colouring.colour_offsets.back(), colouring.block_count());
  std::vector<int> seen(static_cast<std::size_t>(colouring.block_count()), 0);
  for (int k = 0; k < colouring.colour_count(); ++k) {
    const index_t first = colouring.colour_offsets[static_cast<std::size_t>(k)];
    const index_t last = colouring.colour_offsets[static_cast<std::size_t>(k) + 1];
    EXPECT_LT(first, last) << "colour " << k << " is empty";
    std::set<index_t> touched;
    for (index_t at = first; at < last; ++at) {
      const index_t b = colouring.blocks[static_cast<std::size_t>(at)];
      ASSERT_GE(b, 0);
      ASSERT_LT(b, colouring.block_count());
      ++seen[static_cast<std::size_t>(b)];
      if (at > first) {
        EXPECT_LT(colouring.blocks[static_cast<std::size_t>(at) - 1], b);
      }
      std::set<index_t> mine;  // a block may update its own cells many times
      for (index_t f = colouring.block_offsets[static_cast<std::size_t>(b)];
           f < colouring.block_offsets[static_cast<std::size_t>(b) + 1]; ++f) {
        for (const index_t c : cells[static_cast<std::size_t>(f)]) {
          if (c >= 0 && c < updated) mine.insert(c);
        }
      }
      for (const index_t c : mine) {
        EXPECT_TRUE(touched.insert(c).second)
            << "colour " << k << ": block " << b << " updates cell " << c << " of another block";
      }
    }
  }
  for (std::size_t b = 0; b < seen.size(); ++b) EXPECT_EQ(seen[b], 1) << "block " << b;
}

TEST(face_block_colouring, every_builtin_mesh_kind_and_block_size) {
  for (const char* kind : {"box2d-tri", "box2d-quad", "box3d-hex", "box3d-tet", "airfoil"}) {
    const mesh m = builtin_mesh(kind, 600);
    const mesh_faces faces = build_faces(m);
    for (const index_t block_size : {1, 7, 64, 255, 1024, 100000}) {
      SCOPED_TRACE(std::string(kind) + ", block size " + std::to_string(block_size));
      const face_block_colouring all = colour_face_blocks(faces.cells, m.cell_count(), block_size);
      expect_valid(faces.cells, m.cell_count(), block_size, all);
      // Only the first half of the cells updated (the rest play halo cells).
      const face_block_colouring half =
          colour_face_blocks(faces.cells, m.cell_count() / 2, block_size);
      expect_valid(faces.cells, m.cell_count() / 2, block_size, half);
      EXPECT_LE(half.colour_count(), all.colour_count());
    }
    // One block a face is a face colouring: greedy in the same order gives the same count.
    EXPECT_EQ(colour_face_blocks(faces.cells, m.cell_count(), 1).colour_count(),
              colour_faces(faces.cells, m.cell_count()).colour_count())
        << kind;
  }
}

TEST(face_block_colouring, equal_shares_not_a_remnant) {
  std::vector<std::array<index_t, 2>> chain;
  for (index_t f = 0; f < 10; ++f) chain.push_back({f, f + 1});
  const face_block_colouring c = colour_face_blocks(chain, 11, 4);
  EXPECT_EQ(c.block_offsets, (std::vector<index_t>{0, 4, 7, 10}));
  expect_valid(chain, 11, 4, c);
  // Neighbouring blocks share a cell, every other one does not.
  EXPECT_EQ(c.colour_count(), 2);
  EXPECT_EQ(c.blocks, (std::vector<index_t>{0, 2, 1}));
}

TEST(face_block_colouring, empty_single_and_odd_sizes) {
  const face_block_colouring none = colour_face_blocks({}, 0, 1024);
  EXPECT_EQ(none.block_count(), 0);
  EXPECT_EQ(none.colour_count(), 0);
  expect_valid({}, 0, 1024, none);

  const std::vector<std::array<index_t, 2>> one{{0, -1}};
  for (const index_t block_size : {1, 3, 1024}) {
    const face_block_colouring c = colour_face_blocks(one, 1, block_size);
    expect_valid(one, 1, block_size, c);
    EXPECT_EQ(c.block_count(), 1);
    EXPECT_EQ(c.colour_count(), 1);
  }
  const std::vector<std::array<index_t, 2>> odd{{0, 1}, {1, 2}, {2, -1}, {3, 4}, {4, 0}};
  for (const index_t block_size : {1, 2, 3, 5, 7}) {
    expect_valid(odd, 5, block_size, colour_face_blocks(odd, 5, block_size));
  }
  // Halo cells (>= updated) and the domain boundary never conflict: one colour.
  const std::vector<std::array<index_t, 2>> halo{{0, 5}, {1, 5}, {2, -1}, {3, 5}};
  EXPECT_EQ(colour_face_blocks(halo, 4, 1).colour_count(), 1);
}

TEST(face_block_colouring, more_than_64_colours) {
  // 200 one-face blocks all updating cell 0: 200 colours, past one window of 64.
  const std::vector<std::array<index_t, 2>> star(200, {0, -1});
  const face_block_colouring c = colour_face_blocks(star, 1, 1);
  expect_valid(star, 1, 1, c);
  EXPECT_EQ(c.colour_count(), 200);
}

TEST(face_block_colouring, rejects_empty_blocks) {
  const std::vector<std::array<index_t, 2>> one{{0, -1}};
  EXPECT_THROW(colour_face_blocks(one, 1, 0), error);
  EXPECT_THROW(colour_face_blocks(one, 1, -3), error);
}

}  // namespace

}  // namespace funcmesh::testing
