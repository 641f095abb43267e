// The funcmesh mesh file under mpirun: a mesh written on rank 0 (whole, or block by block)
// reads back on every rank as exactly slab_of(mesh, ranks, rank); every kind of damaged
// file is refused with the same error on every rank, naming the file and the dataset; the
// writer leaves nothing behind when it fails or is abandoned.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mesh_file.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>

#include "../common/mesh_equality.hpp"
#include "../common/test_paths.hpp"
#include "mesh_file_edit.hpp"
#include "world.hpp"

#ifndef FUNCMESH_TEST_DATA_DIR
#error "FUNCMESH_TEST_DATA_DIR must name tests/partition/data (funcmesh_test_path)"
#endif

namespace funcmesh::testing {
namespace {

namespace fs = std::filesystem;
using test_support::world_rank;
using test_support::world_size;

// A directory every rank names alike (the rank count in the name: ctest runs the 1-, 2-
// and 3-rank cases side by side), made fresh by rank 0.
fs::path fresh_directory(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("funcmesh_mesh_file_test_" + name + "_np" + std::to_string(world_size()));
  if (world_rank() == 0) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return dir;
}

// What rank r of P must read from `file` holding `m`: its slab, whose source is the file.
mesh_slab expected_slab(const mesh& m, const fs::path& file) {
  mesh_slab slab = slab_of(m, world_size(), world_rank());
  slab.source = file.string();
  return slab;
}

// `f` on rank 0, agreed: a failure there fails the test on every rank (no rank waits on
// the others' next collective call).
template <class F>
void on_rank_0(F&& f) {
  mpi::on_root_agreed(mpi::communicator(), std::forward<F>(f));
}

// Written by rank 0, read on every rank: each rank's slab, exactly.
void expect_round_trip(const mesh& m, const std::string& name) {
  const fs::path file = fresh_directory(name) / (name + ".h5");
  on_rank_0([&] {
    write_mesh_file(file, m);
    EXPECT_FALSE(fs::exists(file.string() + ".partial"));
    EXPECT_TRUE(is_mesh_file(file));
  });
  expect_same(read_mesh_file(MPI_COMM_WORLD, file), expected_slab(m, file));
}

mesh gmsh_mesh(const std::string& name) {
  mesh m = read_gmsh(beside_executable(FUNCMESH_TEST_DATA_DIR) / "gmsh" / name);
  normalize_orientation(m);
  return m;
}

TEST(mesh_file, tetrahedra_read_back_as_each_ranks_slab) {
  expect_round_trip(box3d_tet(4, 3, 2), "box3d_tet");
}

TEST(mesh_file, triangles_with_node_tags_and_gmsh_tags) {
  mesh m = box2d_tri(5, 4);
  m.node_ids.resize(static_cast<std::size_t>(m.node_count()));
  for (std::size_t n = 0; n < m.node_ids.size(); ++n)
    m.node_ids[n] = 1000 + 3 * static_cast<std::int64_t>(n);
  m.gmsh_tags = true;
  expect_round_trip(m, "box2d_tri_tags");
}

TEST(mesh_file, fewer_cells_than_ranks_no_boundary_no_groups) {
  mesh m = box2d_quad(1, 1);
  m.boundary = element_block{};
  m.physical_groups.clear();
  m.source.clear();
  expect_round_trip(m, "one_quad");
}

TEST(mesh_file, gmsh_test_meshes) {
  for (const char* name : {"tiny_msh41_bin.msh", "tiny_msh22_bin.msh", "clockwise_square.msh"}) {
    SCOPED_TRACE(name);
    const mesh m = gmsh_mesh(name);
    ASSERT_TRUE(m.gmsh_tags);
    expect_round_trip(m, fs::path(name).stem().string());
  }
}

// Elements [first, last) of `from`, as a block of their own.
element_block rows_of(const element_block& from, index_t first, index_t last) {
  element_block block;
  for (index_t e = first; e < last; ++e) {
    const auto at = static_cast<std::size_t>(e);
    block.add(from.types[at], from.nodes_of(e), from.ids[at], from.physical[at]);
  }
  return block;
}

TEST(mesh_file, the_writer_appends_blocks_and_drops_other_dimensions) {
  const mesh m = box3d_tet(3, 3, 2);
  const fs::path file = fresh_directory("blocks") / "blocks.h5";
  on_rank_0([&] {
    mesh_file_writer writer(file, 3, m.coordinates, m.node_ids, m.physical_groups, m.source,
                            m.gmsh_tags);
    const index_t cells = m.cell_count(), faces = m.boundary.size();
    writer.add_elements(rows_of(m.cells, 0, cells / 3), 3);
    writer.add_elements(rows_of(m.boundary, 0, faces / 2), 2);
    writer.add_elements(rows_of(m.cells, cells / 3, cells / 3), 3);  // empty
    writer.add_elements(rows_of(m.cells, cells / 3, cells), 3);
    element_block points;
    points.add(cell_type::point, std::vector<index_t>{0}, 1, 0);
    writer.add_elements(points, 0);
    writer.add_elements(rows_of(m.boundary, faces / 2, faces), 2);
    EXPECT_FALSE(fs::exists(file)) << "visible before finish()";
    writer.finish();
    EXPECT_EQ(writer.cells_written(), cells);
    EXPECT_EQ(writer.boundary_written(), faces);
    EXPECT_EQ(writer.elements_dropped(), 1);
  });
  expect_same(read_mesh_file(MPI_COMM_WORLD, file), expected_slab(m, file));
}

TEST(mesh_file, a_failed_or_abandoned_writer_leaves_no_file) {
  if (world_rank() != 0) return;
  const fs::path dir = fs::temp_directory_path() /
                       ("funcmesh_mesh_file_test_writer_np" + std::to_string(world_size()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const mesh m = box2d_tri(2, 2);
  {
    mesh_file_writer writer(dir / "abandoned.h5", 2, m.coordinates, {}, {}, "", false);
    writer.add_elements(m.cells, 2);
    EXPECT_TRUE(fs::exists(dir / "abandoned.h5.partial"));
  }
  mesh bad = m;
  bad.cells.nodes[4] = m.node_count();
  try {
    write_mesh_file(dir / "bad.h5", bad);
    ADD_FAILURE() << "wrote a cell naming a node that does not exist";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find((dir / "bad.h5").string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("outside [0, 9)"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(dir)) << "something was left in " << dir;
  fs::remove_all(dir);
}

// read_mesh_file refuses `file` on every rank with one message (rank 0's, compared),
// naming the file and holding each of `expected`.
void expect_refused(const fs::path& file, const std::vector<std::string>& expected) {
  std::string message;
  try {
    read_mesh_file(MPI_COMM_WORLD, file);
    ADD_FAILURE() << "accepted " << file;
  } catch (const mpi::collective_error& e) {
    message = e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a collective_error: " << e.what();
  }
  EXPECT_EQ(message, mpi::communicator().broadcast(message)) << "ranks disagree";
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  for (const std::string& part : expected) {
    EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
  }
}

struct damage {
  const char* name;
  std::function<void(mesh_file_edit&)> edit;
  std::vector<std::string> expected;
};

TEST(mesh_file, every_kind_of_damage_is_refused_alike_on_every_rank) {
  // 60 triangles (180 node entries), 42 nodes, 22 boundary lines, 4 groups.
  const mesh m = box2d_tri(6, 5);
  const fs::path dir = fresh_directory("damaged");
  const std::vector<damage> cases = {
      {"format",
       [](auto& f) { f.set_attribute("format", "other mesh"); },
       {"attribute 'format' is 'other mesh'"}},
      {"version",
       [](auto& f) { f.set_attribute("version", std::int64_t{2}); },
       {"format version 2"}},
      {"missing_dataset", [](auto& f) { f.remove("/cells/ids"); }, {"no dataset '/cells/ids'"}},
      {"missing_group", [](auto& f) { f.remove("/boundary"); }, {"no dataset '/boundary/types'"}},
      {"coordinates_shape",
       [](auto& f) {
         f.replace("/nodes/coordinates", {42, 2}, true);
       },
       {"dataset '/nodes/coordinates' is 42 x 2, not N x 3"}},
      {"coordinates_rank",
       [](auto& f) { f.replace("/nodes/coordinates", {126}, true); },
       {"dataset '/nodes/coordinates' has rank 1"}},
      {"coordinates_type",
       [](auto& f) {
         f.replace("/nodes/coordinates", {42, 3});
       },
       {"dataset '/nodes/coordinates' holds integers"}},
      {"offsets_length",
       [](auto& f) { f.replace("/cells/offsets", {60}); },
       {"dataset '/cells/offsets' has 60 rows, not 61"}},
      {"offsets_start",
       [](auto& f) { f.set_value("/cells/offsets", 0, 1); },
       {"dataset '/cells/offsets' starts at 1, not 0"}},
      {"offsets_decrease",
       [](auto& f) { f.set_value("/cells/offsets", 30, f.value("/cells/offsets", 29) - 1); },
       {"dataset '/cells/offsets' decreases: offset 30 is 86 after 87"}},
      {"offsets_end",
       [](auto& f) { f.grow("/cells/nodes", 181); },
       {"dataset '/cells/offsets' ends at 180 but /cells/nodes has 181 entries"}},
      {"node_index",
       [](auto& f) { f.set_value("/cells/nodes", 100, 42); },
       {"dataset '/cells/nodes': entry 100 is node 42, outside [0, 42)"}},
      {"negative_node_index",
       [](auto& f) { f.set_value("/boundary/nodes", 3, -1); },
       {"dataset '/boundary/nodes': entry 3 is node -1"}},
      {"element_type",
       [](auto& f) { f.set_value("/cells/types", 7, 9); },
       {"dataset '/cells/types': row 7 has Gmsh element type 9"}},
      {"node_count",
       [](auto& f) { f.set_value("/cells/types", 7, 3); },
       {"dataset '/cells/offsets': row 7 (a quad) has 3 nodes, not 4"}},
      {"element_dimension",
       [](auto& f) { f.set_value("/boundary/types", 0, 2); },
       {"dataset '/boundary/types': row 0 is a triangle"}},
      {"group_lengths",
       [](auto& f) { f.replace("/physical_groups/id", {5}); },
       {"dataset '/physical_groups/id' has 5 rows, not 4"}},
      {"count_attribute",
       [](auto& f) { f.set_attribute("cell_count", std::int64_t{59}); },
       {"attribute 'cell_count' is 59"}},
  };
  for (const damage& d : cases) {
    SCOPED_TRACE(d.name);
    const fs::path file = dir / (std::string(d.name) + ".h5");
    on_rank_0([&] {
      write_mesh_file(file, m);
      mesh_file_edit edit(file);
      d.edit(edit);
    });
    expect_refused(file, d.expected);
  }
}

std::vector<char> bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put_bytes(const fs::path& file, const std::vector<char>& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST(mesh_file, damaged_bytes_a_truncated_file_and_other_files_are_refused) {
  const mesh m = box2d_tri(6, 5);
  const fs::path dir = fresh_directory("bytes");
  on_rank_0([&] {
    write_mesh_file(dir / "flipped.h5", m);
    std::vector<char> bytes = bytes_of(dir / "flipped.h5");
    // Nodes 1 and 2 side by side: (1/6, 0, 0) and (2/6, 0, 0), unique in the file.
    std::vector<char> pattern(48);
    std::memcpy(pattern.data(), m.coordinates[1].data(), 24);
    std::memcpy(pattern.data() + 24, m.coordinates[2].data(), 24);
    const auto at = std::search(bytes.begin(), bytes.end(), pattern.begin(), pattern.end());
    ASSERT_NE(at, bytes.end());
    at[3] = static_cast<char>(at[3] ^ 0x10);
    put_bytes(dir / "flipped.h5", bytes);

    write_mesh_file(dir / "truncated.h5", m);
    bytes = bytes_of(dir / "truncated.h5");
    bytes.resize(bytes.size() / 2);
    put_bytes(dir / "truncated.h5", bytes);
    std::ofstream(dir / "text.h5") << "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n";
  });
  expect_refused(dir / "flipped.h5",
                 {"dataset '/nodes/coordinates' cannot be read: corrupt (its checksum"});
  expect_refused(dir / "truncated.h5", {"HDF5 cannot open it (truncated"});
  expect_refused(dir / "text.h5", {"not an HDF5 file"});
  expect_refused(dir / "missing.h5", {"does not exist"});
}

// 97,336 nodes: two chunks of coordinates, the second damaged. On 2 ranks only rank 1
// reads it, and rank 0 must not be left waiting in a collective call.
TEST(mesh_file, a_damaged_chunk_that_one_rank_reads_is_refused_on_all) {
  const mesh m = box3d_hex(45, 45, 45);
  const fs::path file = fresh_directory("chunk") / "chunk.h5";
  on_rank_0([&] {
    write_mesh_file(file, m);
    std::vector<char> bytes = bytes_of(file);
    std::vector<char> pattern(48);
    std::memcpy(pattern.data(), m.coordinates[90000].data(), 24);
    std::memcpy(pattern.data() + 24, m.coordinates[90001].data(), 24);
    const auto at = std::search(bytes.begin(), bytes.end(), pattern.begin(), pattern.end());
    ASSERT_NE(at, bytes.end());
    at[5] = static_cast<char>(at[5] ^ 0x01);
    put_bytes(file, bytes);
  });
  expect_refused(file, {"dataset '/nodes/coordinates' cannot be read"});
}

}  // namespace
}  // namespace funcmesh::testing
