// Gmsh reader: one test per rejection rule (small bad files in data/gmsh/bad), the
// layouts it must accept (any section order, unknown sections, CRLF, sparse tags,
// unused nodes), and a fuzz-style test (truncations and byte flips never crash).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>
#include <funcmesh/partition/mesh_read_error.hpp>

#include "../common/mesh_equality.hpp"
#include "../common/test_paths.hpp"

namespace funcmesh::testing {

namespace {

const std::filesystem::path gmsh_data =
    funcmesh::testing::beside_executable(FUNCMESH_TEST_DATA_DIR) / "gmsh";

mesh read_text(const std::string& text) {
  return read_gmsh_bytes(std::as_bytes(std::span(text.data(), text.size())), "text.msh");
}

// Reading data/gmsh/bad/<name> fails with this section, reason and position.
void expect_rejected(const std::string& name, const std::string& section, const std::string& reason,
                     const std::string& position) {
  const auto file = gmsh_data / "bad" / name;
  try {
    read_gmsh(file);
    ADD_FAILURE() << name << " was accepted";
  } catch (const mesh_read_error& e) {
    EXPECT_EQ(e.file(), file.string());
    EXPECT_EQ(e.section(), section) << e.what();
    EXPECT_NE(e.reason().find(reason), std::string::npos) << e.what();
    EXPECT_EQ(e.position(), position) << e.what();
    EXPECT_EQ(std::string(e.what()),
              file.string() + ":" + position + ": in " + section + ": " + e.reason());
  }
  // The streaming reader refuses it alike, before any element block is handed over.
  int blocks = 0;
  try {
    read_gmsh_blocks(
        file, 2, [](const gmsh_header&) {}, [&](const element_block&, int) { ++blocks; });
    ADD_FAILURE() << name << " was accepted by read_gmsh_blocks";
  } catch (const mesh_read_error& e) {
    EXPECT_EQ(e.section(), section) << e.what();
    EXPECT_NE(e.reason().find(reason), std::string::npos) << e.what();
    EXPECT_EQ(e.position(), position) << e.what();
  }
  EXPECT_EQ(blocks, 0) << name;
}

// read_gmsh_blocks of `file`, its blocks put together, is read_gmsh + normalize_orientation.
void expect_streamed_as_whole(const std::filesystem::path& file, std::size_t block) {
  SCOPED_TRACE(file.string() + ", blocks of " + std::to_string(block));
  mesh whole = read_gmsh(file);
  normalize_orientation(whole);
  mesh streamed;
  std::size_t calls = 0;
  read_gmsh_blocks(
      file, block,
      [&](const gmsh_header& h) {
        streamed.dimension = h.dimension;
        streamed.coordinates = h.coordinates;
        streamed.node_ids = h.node_ids;
        streamed.physical_groups = h.physical_groups;
        EXPECT_EQ(h.source, file.string());
      },
      [&](const element_block& b, int dimension) {
        ++calls;
        EXPECT_LE(static_cast<std::size_t>(b.size()), block);
        element_block& to = dimension == streamed.dimension ? streamed.cells : streamed.boundary;
        for (index_t e = 0; e < b.size(); ++e) {
          const auto k = static_cast<std::size_t>(e);
          to.add(b.types[k], b.nodes_of(e), b.ids[k], b.physical[k]);
        }
      });
  EXPECT_GE(calls, (static_cast<std::size_t>(whole.cell_count()) + block - 1) / block);
  EXPECT_EQ(streamed.dimension, whole.dimension);
  EXPECT_EQ(streamed.coordinates, whole.coordinates);
  EXPECT_EQ(streamed.node_ids, whole.node_ids);
  expect_same_groups(streamed.physical_groups, whole.physical_groups);
  expect_same_blocks(streamed.cells, whole.cells, "cells");
  expect_same_blocks(streamed.boundary, whole.boundary, "boundary");
}

std::string text_error(const std::string& text) {
  try {
    read_text(text);
  } catch (const mesh_read_error& e) {
    return e.what();
  }
  return "accepted";
}

std::vector<std::byte> file_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  if (!chars.empty()) std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

// Two triangles over a square with tags out of order and sparse, an unused node, a
// boundary line with a named physical group, and a $Comments section.
const std::string msh2_text = R"($MeshFormat
2.2 0 8
$EndMeshFormat
$Comments
anything at all, $Nodes included
$EndComments
$Elements
3
7 1 2 3 1 10 30
9 2 2 4 1 10 30 100
8 2 2 4 1 10 100 3
$EndElements
$Nodes
5
30 1 0 0
10 0 0 0
55 9 9 9
100 1 1 0
3 0 1 0
$EndNodes
$PhysicalNames
2
1 3 "bottom"
2 4 "my domain"
$EndPhysicalNames
)";

const std::string msh41_text = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$Entities
0 1 1 0
5 0 0 0 1 0 0 1 3 0
6 0 0 0 1 1 0 1 4 0
$EndEntities
$Nodes
2 4 1 40
1 5 0 2
10
20
0 0 0
1 0 0
2 6 0 2
40
30
1 1 0
0 1 0
$EndNodes
$Elements
2 3 1 3
1 5 1 1
1 10 20
2 6 2 2
2 10 20 40
3 10 40 30
$EndElements
)";

}  // namespace

TEST(gmsh_reader_rejects, other_versions) {
  expect_rejected("version_40.msh", "$MeshFormat", "unsupported MSH version '4.0'", "line 2");
}
TEST(gmsh_reader_rejects, a_missing_end_line) {
  expect_rejected("missing_end.msh", "$Nodes", "expected $EndNodes", "line 10");
}
TEST(gmsh_reader_rejects, a_truncated_file) {
  expect_rejected("truncated.msh", "$Nodes", "truncated", "line 9");
}
TEST(gmsh_reader_rejects, block_counts_that_disagree_with_the_total) {
  expect_rejected("block_count_mismatch.msh", "$Nodes",
                  "the blocks hold 3 nodes, but the header announces 4", "line 13");
}
TEST(gmsh_reader_rejects, counts_implausible_for_the_file_size) {
  expect_rejected("implausible_count.msh", "$Nodes", "node count 1000000000 is implausible",
                  "line 5");
}
TEST(gmsh_reader_rejects, counts_beyond_the_index_width) {
  expect_rejected("index_width.msh", "$Nodes", "beyond the index width", "line 5");
}
TEST(gmsh_reader_rejects, node_tags_that_are_not_positive) {
  expect_rejected("node_tag_zero.msh", "$Nodes", "node tag 0 is not positive", "line 6");
}
TEST(gmsh_reader_rejects, duplicate_node_tags) {
  expect_rejected("duplicate_node_tag.msh", "$Nodes", "duplicate node tag 2", "line 8");
}
TEST(gmsh_reader_rejects, element_tags_that_are_not_positive) {
  expect_rejected("element_tag_zero.msh", "$Elements", "element tag 0 is not positive", "line 14");
}
TEST(gmsh_reader_rejects, duplicate_element_tags) {
  expect_rejected("duplicate_element_tag.msh", "$Elements", "duplicate element tag 2", "line 15");
}
TEST(gmsh_reader_rejects, references_to_undefined_nodes) {
  expect_rejected("undefined_node.msh", "$Elements", "references undefined node 9", "line 15");
}
TEST(gmsh_reader_rejects, unknown_element_types) {
  expect_rejected("unknown_element_type.msh", "$Elements", "unknown element type 9", "line 14");
}
TEST(gmsh_reader_rejects, wrong_node_counts) {
  expect_rejected("wrong_node_count.msh", "$Elements", "wrong node count", "line 14");
}
TEST(gmsh_reader_rejects, non_finite_coordinates) {
  expect_rejected("nan_coordinate.msh", "$Nodes", "'nan' is not a finite number", "line 8");
  EXPECT_NE(text_error(msh2_text.substr(0, msh2_text.find("55 9 9 9")) + "55 inf 9 9" +
                       msh2_text.substr(msh2_text.find("55 9 9 9") + 8))
                .find("'inf' is not a finite number"),
            std::string::npos);
}
TEST(gmsh_reader_rejects, meshes_without_cells_of_the_top_dimension) {
  expect_rejected("no_top_dimension.msh", "$Elements", "no cells of the top dimension", "line 11");
}

TEST(gmsh_reader_rejects, missing_files_and_non_gmsh_input_by_name) {
  try {
    read_gmsh(gmsh_data / "no_such_file.msh");
    ADD_FAILURE();
  } catch (const mesh_read_error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_file.msh: cannot open"), std::string::npos);
  }
  EXPECT_NE(text_error("").find("no $MeshFormat"), std::string::npos);
  EXPECT_NE(text_error("hello\n").find("expected a section header"), std::string::npos);
  EXPECT_NE(text_error("$Nodes\n1\n1 0 0 0\n$EndNodes\n").find("must come before"),
            std::string::npos);
  EXPECT_NE(text_error("$MeshFormat\n2.2 0 4\n$EndMeshFormat\n").find("data size 4"),
            std::string::npos);
  EXPECT_NE(text_error("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Foo\n").find("missing $EndFoo"),
            std::string::npos);
}

TEST(gmsh_reader_rejects, binary_files_of_the_other_endianness) {
  std::string text = "$MeshFormat\n4.1 1 8\n";
  const char marker[4] = {0, 0, 0, 1};
  text.append(marker, 4);
  text += "\n$EndMeshFormat\n";
  const std::string message = text_error(text);
  EXPECT_NE(message.find("text.msh:byte 20: in $MeshFormat: binary data of the other endianness"),
            std::string::npos)
      << message;
}

TEST(gmsh_reader_rejects, msh41_blocks_beyond_the_announced_total) {
  std::string text = msh41_text;
  text.replace(text.find("2 4 1 40"), 8, "2 3 1 40");
  EXPECT_NE(text_error(text).find("block of 2 nodes disagrees with the total of 3"),
            std::string::npos)
      << text_error(text);
}

TEST(gmsh_reader, msh2_in_any_section_order_with_sparse_tags_and_unused_nodes) {
  const mesh m = read_text(msh2_text);
  EXPECT_EQ(m.dimension, 2);
  ASSERT_EQ(m.node_count(), 5);
  EXPECT_EQ(m.node_ids, (std::vector<std::int64_t>{30, 10, 55, 100, 3}));
  EXPECT_EQ(m.coordinates[2], (std::array<double, 3>{9, 9, 9}));  // unused, kept
  ASSERT_EQ(m.cell_count(), 2);
  EXPECT_EQ(m.cells.ids, (std::vector<std::int64_t>{9, 8}));
  EXPECT_EQ(m.cells.nodes, (std::vector<index_t>{1, 0, 3, 1, 3, 4}));  // file order kept
  EXPECT_EQ(m.cells.physical, (std::vector<int>{4, 4}));
  ASSERT_EQ(m.boundary.size(), 1);
  EXPECT_EQ(m.boundary.types[0], cell_type::line);
  EXPECT_EQ(m.boundary.physical[0], 3);
  EXPECT_EQ(m.physical_id("bottom", 1), 3);
  EXPECT_EQ(m.physical_name(4, 2), "my domain");
}

// Streaming (read_gmsh_blocks, for funcmesh-partition --convert) gives read_gmsh's mesh in
// blocks: elements before nodes, sparse tags, an unused node, both versions, binary files,
// clockwise cells turned; blocks of one element, a few, and more than the file has.
TEST(gmsh_reader, streamed_blocks_put_together_are_the_whole_read) {
  const auto dir = std::filesystem::temp_directory_path() / "funcmesh_gmsh_stream_test";
  std::filesystem::create_directories(dir);
  for (const auto& [name, text] : {std::pair{"msh2.msh", &msh2_text}, {"msh41.msh", &msh41_text}}) {
    const auto file = dir / name;
    std::ofstream(file, std::ios::binary) << *text;
    for (std::size_t block : {1, 2, 1000}) expect_streamed_as_whole(file, block);
  }
  std::filesystem::remove_all(dir);
  for (const char* name : {"tiny_msh22_bin.msh", "tiny_msh41_bin.msh", "clockwise_square.msh"}) {
    for (std::size_t block : {1, 3, 100000}) expect_streamed_as_whole(gmsh_data / name, block);
  }
}

TEST(gmsh_reader, crlf_line_ends) {
  std::string crlf;
  for (const char c : msh2_text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const mesh m = read_text(crlf);
  EXPECT_EQ(m.cell_count(), 2);
  EXPECT_EQ(m.physical_name(4, 2), "my domain");
}

TEST(gmsh_reader, msh41_physical_groups_come_from_entities) {
  const mesh m = read_text(msh41_text);
  EXPECT_EQ(m.dimension, 2);
  EXPECT_EQ(m.node_ids, (std::vector<std::int64_t>{10, 20, 40, 30}));
  ASSERT_EQ(m.cell_count(), 2);
  EXPECT_EQ(m.cells.nodes, (std::vector<index_t>{0, 1, 2, 0, 2, 3}));
  EXPECT_EQ(m.cells.physical, (std::vector<int>{4, 4}));
  ASSERT_EQ(m.boundary.size(), 1);
  EXPECT_EQ(m.boundary.physical[0], 3);
  // No $PhysicalNames: the groups in use are listed without names.
  EXPECT_EQ(m.physical_groups.size(), 2u);
}

// Truncations and random byte flips of valid files: the reader either succeeds or throws
// mesh_read_error, never anything else (run under ASan/UBSan, never a memory error).
TEST(gmsh_reader, survives_truncation_and_corruption) {
  std::vector<std::vector<std::byte>> inputs;
  for (const std::string* text : {&msh2_text, &msh41_text}) {
    const auto bytes = std::as_bytes(std::span(text->data(), text->size()));
    inputs.emplace_back(bytes.begin(), bytes.end());
  }
  inputs.push_back(file_bytes(gmsh_data / "tiny_msh22_bin.msh"));
  inputs.push_back(file_bytes(gmsh_data / "tiny_msh41_bin.msh"));
  ASSERT_GT(inputs[2].size(), 100u);
  ASSERT_GT(inputs[3].size(), 100u);
  for (const auto& valid : inputs) EXPECT_NO_THROW(read_gmsh_bytes(valid));

  int cases = 0;
  const auto check = [&](std::span<const std::byte> bytes) {
    ++cases;
    try {
      read_gmsh_bytes(bytes);
    } catch (const mesh_read_error&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a mesh_read_error: " << e.what();
    }
  };
  for (const auto& valid : inputs) {
    for (std::size_t size = 0; size < valid.size(); ++size) {
      check(std::span(valid).first(size));
    }
  }
  std::mt19937 random(2024);
  for (const auto& valid : inputs) {
    for (int trial = 0; trial < 400; ++trial) {
      std::vector<std::byte> bytes = valid;
      const int flips = 1 + trial % 3;
      for (int k = 0; k < flips; ++k) {
        const auto at = std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(random);
        bytes[at] = static_cast<std::byte>(std::uniform_int_distribution<int>(0, 255)(random));
      }
      check(bytes);
    }
  }
  EXPECT_GT(cases, 3000);
}

}  // namespace funcmesh::testing
