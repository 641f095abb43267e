// Checkpoints under mpirun: a write on this rank count and a restart on the same layout
// give the same bits, blocking or asynchronous; the file holds each rank's block beside
// its global ids (checked with h5dump and h5py, checksums included), read back on one rank,
// on another partition and from one writer onto every rank; a format-1 file (global order)
// still restarts; corrupt, truncated, mismatched and missing checkpoints are refused alike
// on every rank, and "latest" falls back to the previous valid one; only the newest `keep`
// stay; a write that fails in the background is reported at the next write, on every rank.
#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <funcmesh/checkpoint/checkpoint.hpp>
#include <funcmesh/comm.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

#include "../common/test_paths.hpp"

namespace funcmesh::testing {
namespace {

namespace fm = funcmesh;
namespace fs = std::filesystem;
using state = fm::vec<double, 3>;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

// A directory every rank names alike, made fresh by rank 0.
fs::path fresh_directory(const std::string& name) {
  // The rank count in the name: ctest runs the 1-, 2- and 3-rank cases side by side.
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const fs::path dir = fs::temp_directory_path() /
                       ("funcmesh_checkpoint_test_" + name + "_np" + std::to_string(ranks));
  if (world_rank() == 0) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return dir;
}

const auto mesh_maker = [] { return fm::box2d_tri(13, 9); };

// Values of the global cell id, so any rank count holds the same field.
void fill(const fm::distributed_layout& layout, fm::dist_function<double>& u,
          fm::dist_function<state>& q) {
  auto a = u.write();
  auto b = q.write();
  for (index_t c = 0; c < layout.owned_count(); ++c) {
    const auto g = static_cast<double>(layout.mesh().global_cell[static_cast<std::size_t>(c)]);
    a[c] = std::sin(g) + 0.25 * g;
    b[c] = state{{g, -g, 1.0 / (1.0 + g)}};
  }
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// u and v, q and p hold the same bits in every owned cell.
void expect_same_bits(const fm::distributed_layout& layout, const fm::dist_function<double>& u,
                      const fm::dist_function<double>& v, const fm::dist_function<state>& q,
                      const fm::dist_function<state>& p) {
  const auto a = u.read(), b = v.read();
  const auto c = q.read(), d = p.read();
  for (index_t k = 0; k < layout.owned_count(); ++k) {
    ASSERT_TRUE(same_bits(a[k], b[k])) << "cell " << k;
    for (int m = 0; m < 3; ++m) ASSERT_TRUE(same_bits(c[k][m], d[k][m])) << "cell " << k;
  }
}

// Restarts `whole` (one rank, the whole mesh as one part) from `dir`: every cell holds the
// values of its global id.
void expect_values_of_global_ids(const fm::distributed_layout& whole, const fs::path& dir) {
  fm::dist_function<double> v(whole, "u");
  fm::dist_function<state> p(whole, "q");
  fm::restart(whole, dir, v, p);
  const auto values = v.read();
  const auto states = p.read();
  for (index_t c = 0; c < whole.owned_count(); ++c) {
    const auto g = static_cast<double>(whole.mesh().global_cell[static_cast<std::size_t>(c)]);
    ASSERT_EQ(values[c], std::sin(g) + 0.25 * g) << "global cell " << g;
    ASSERT_EQ(states[c][0], g);
    ASSERT_EQ(states[c][1], -g);
    ASSERT_EQ(states[c][2], 1.0 / (1.0 + g));
  }
}

class checkpoint_modes : public ::testing::TestWithParam<bool> {};
INSTANTIATE_TEST_SUITE_P(checkpoint, checkpoint_modes, ::testing::Values(false, true),
                         [](const auto& mode) { return mode.param ? "asynchronous" : "blocking"; });

TEST_P(checkpoint_modes, a_restart_gives_back_the_same_bits_and_step) {
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, mesh_maker);
  const fs::path dir = fresh_directory(GetParam() ? "same_bits_async" : "same_bits");
  fm::dist_function<double> u(layout, "u");
  fm::dist_function<state> q(layout, "q");
  fill(layout, u, q);
  fm::checkpoint_writer writer(layout, dir,
                               {.keep = 2, .scheme = "ssp-rk3", .asynchronous = GetParam()});
  const fs::path file = writer.write({.step = 40, .t = 0.125, .dt = 1.0 / 320}, u, q);
  EXPECT_EQ(file.filename(), "checkpoint_0000000040.h5");
  EXPECT_EQ(writer.in_flight(), GetParam());
  EXPECT_EQ(writer.wait(), GetParam() ? file : fs::path());
  EXPECT_FALSE(writer.in_flight());
  EXPECT_EQ(writer.staging_bytes(),
            GetParam() ? static_cast<std::size_t>(layout.owned_count()) * 4 * sizeof(double) : 0);
  // The writer reserves the file's blocks ahead (a full disk shows before HDF5 writes);
  // what HDF5 did not use is freed, not left allocated past the end of the file.
  struct stat about {};
  ASSERT_EQ(::stat(file.c_str(), &about), 0);
  EXPECT_LE(about.st_blocks * 512, about.st_size + 65536) << "reserved blocks left past the end";
  fm::dist_function<double> u2(layout, "u");
  fm::dist_function<state> q2(layout, "q");
  const fm::checkpoint_step step = fm::restart(layout, dir, q2, u2);  // any order
  EXPECT_EQ(step.step, 40);
  EXPECT_EQ(step.t, 0.125);
  EXPECT_EQ(step.dt, 1.0 / 320);
  EXPECT_EQ(step.scheme, "ssp-rk3");
  EXPECT_EQ(step.file, file);
  expect_same_bits(layout, u, u2, q, q2);
  EXPECT_TRUE(u2.halo_stale()) << "a restart writes the owned values: the halo is dirty";
}

// Runs `command` and returns its output; a non-zero exit fails the test.
std::string output_of(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  if (pipe == nullptr) return {};
  std::string text;
  char chunk[4096];
  while (const std::size_t n = std::fread(chunk, 1, sizeof chunk, pipe)) text.append(chunk, n);
  EXPECT_EQ(pclose(pipe), 0) << command << " failed:\n" << text;
  return text;
}

// The numbers after "DATA {" of an h5dump.
std::vector<double> dumped(const std::string& text) {
  std::vector<double> values;
  const std::size_t data = text.find("DATA {");
  EXPECT_NE(data, std::string::npos) << text;
  if (data == std::string::npos) return values;
  std::istringstream numbers(text.substr(data + 6));
  double value = 0;
  char comma = 0;
  while (numbers >> value) {
    values.push_back(value);
    numbers >> comma;
  }
  return values;
}

TEST(checkpoint, the_file_holds_each_ranks_block_beside_its_global_ids) {
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, mesh_maker);
  const fs::path dir = fresh_directory("blocks");
  fm::dist_function<double> u(layout, "u");
  fm::dist_function<state> q(layout, "q");
  fill(layout, u, q);
  fm::checkpoint_writer(layout, dir).write({.step = 1}, u, q);
  // Readable outside funcmesh: h5dump prints u and global_id, every digit; row k of u is
  // the value of the global id in row k; the block table's rows are the ranks' counts.
  const fs::path file = dir / "checkpoint_0000000001.h5";
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<long long> counts(static_cast<std::size_t>(ranks));
  const long long mine = layout.owned_count();
  MPI_Gather(&mine, 1, MPI_LONG_LONG, counts.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (world_rank() == 0) {
    const std::vector<double> u_rows =
        dumped(output_of("h5dump -d /u -m %.17g -y -w 0 " + file.string()));
    const std::vector<double> ids =
        dumped(output_of("h5dump -d /global_id -y -w 0 " + file.string()));
    const std::vector<double> rows =
        dumped(output_of("h5dump -d /block_rows -y -w 0 " + file.string()));
    ASSERT_EQ(u_rows.size(), static_cast<std::size_t>(layout.global_cells()));
    ASSERT_EQ(ids.size(), u_rows.size());
    std::vector<bool> seen(ids.size(), false);
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const double g = ids[k];
      ASSERT_TRUE(g >= 0 && g < static_cast<double>(ids.size()) &&
                  !seen[static_cast<std::size_t>(g)])
          << "row " << k << ": global id " << g;
      seen[static_cast<std::size_t>(g)] = true;
      ASSERT_EQ(u_rows[k], std::sin(g) + 0.25 * g) << "row " << k;
    }
    ASSERT_EQ(rows.size(), counts.size() + 1);
    for (std::size_t r = 0; r < counts.size(); ++r) {
      EXPECT_EQ(rows[r + 1] - rows[r], static_cast<double>(counts[r])) << "block " << r;
    }
    // And with h5py and python3-xxhash (ci/install-deps installs both), the way users read
    // it: the global order by argsort, and every block's checksum.
    if (std::system("/usr/bin/python3 -c 'import h5py, numpy, xxhash' 2>/dev/null") == 0) {
      const std::string script =
          "import h5py, math, sys, numpy, xxhash\n"
          "f = h5py.File(sys.argv[1], 'r')\n"
          "g, u, q, n = f['global_id'][:], f['u'][:], f['q'][:], int(sys.argv[2])\n"
          "assert int(f.attrs['format_version']) == 2\n"
          "order = numpy.argsort(g)\n"
          "u, q = u[order], q[order]\n"
          "assert u.shape == (n,) and q.shape == (n, 3), (u.shape, q.shape)\n"
          "bad = [k for k in range(n) if u[k] != math.sin(k) + 0.25 * k or q[k][1] != -k]\n"
          "assert not bad, bad[:5]\n"
          "rows, sums = f['block_rows'][:], f['block_checksums'][:]\n"
          "columns = [f['global_id']] + [f[name] for name in "
          "f.attrs['fields'].decode().split(',')]\n"
          "for b in range(len(rows) - 1):\n"
          "  for c, d in enumerate(columns):\n"
          "    got = xxhash.xxh3_64_intdigest(d[rows[b]:rows[b + 1]].tobytes())\n"
          "    assert got == int(sums[b][c]), (b, c, got, sums[b][c])\n"
          "print('h5py read', n, 'rows of', len(rows) - 1, 'blocks, checksums match')\n";
      const std::string printed =
          output_of("/usr/bin/python3 -c \"" + script + "\" " + file.string() + " " +
                    std::to_string(layout.global_cells()));
      EXPECT_NE(printed.find("checksums match"), std::string::npos) << printed;
    } else {
      std::printf("python3-h5py or python3-xxhash is not installed: checked with h5dump only\n");
    }
  }
  // Read back on one rank, the whole mesh as one part: every cell is where its id says.
  expect_values_of_global_ids(fm::distribute_generated(MPI_COMM_SELF, mesh_maker), dir);
}

// One writer (rank 0, the whole mesh), every rank reading: the rows go to their owners
// through the directory of global ids.
TEST(checkpoint, one_writers_file_is_read_back_on_every_rank) {
  const fs::path dir = fresh_directory("one_writer");
  if (world_rank() == 0) {
    const fm::distributed_layout whole = fm::distribute_generated(MPI_COMM_SELF, mesh_maker);
    fm::dist_function<double> u(whole, "u");
    fm::dist_function<state> q(whole, "q");
    fill(whole, u, q);
    fm::checkpoint_writer(whole, dir).write({.step = 9}, u, q);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, mesh_maker);
  fm::dist_function<double> u(layout, "u"), v(layout, "u");
  fm::dist_function<state> q(layout, "q"), p(layout, "q");
  fill(layout, u, q);
  EXPECT_EQ(fm::restart(layout, dir, p, v).step, 9);
  expect_same_bits(layout, u, v, q, p);
}

// A checkpoint of format 1 (rows in global id order, Fletcher32 chunks), written by an
// earlier funcmesh on 2 ranks (box2d_tri(13, 9), fill's values, step 40), restarts on any
// rank count; a format this funcmesh does not know is refused by its number.
TEST(checkpoint, a_format_1_checkpoint_still_restarts) {
  const fs::path v1 = funcmesh::testing::beside_executable(FUNCMESH_CHECKPOINT_TEST_DATA) /
                      "checkpoint_v1_box2d_tri_13x9.h5";
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, mesh_maker);
  fm::dist_function<double> u(layout, "u"), v(layout, "u");
  fm::dist_function<state> q(layout, "q"), p(layout, "q");
  fill(layout, u, q);
  const fm::checkpoint_step step = fm::restart(layout, v1, v, p);
  EXPECT_EQ(step.step, 40);
  EXPECT_EQ(step.scheme, "ssp-rk3");
  expect_same_bits(layout, u, v, q, p);
  // The same file, its version raised past this funcmesh's.
  const fs::path dir = fresh_directory("future");
  const fs::path future = dir / "checkpoint_0000000040.h5";
  if (world_rank() == 0) {
    fs::copy_file(v1, future);
    output_of("/usr/bin/python3 -c \"import h5py; f = h5py.File('" + future.string() +
              "', 'r+'); f.attrs.modify('format_version', 3)\"");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  try {
    fm::restart(layout, future, v, p);
    ADD_FAILURE() << "a format-3 checkpoint was accepted";
  } catch (const fm::agreed_error& e) {
    EXPECT_NE(std::string(e.what()).find("format version 3, this funcmesh reads versions 1 to 2"),
              std::string::npos)
        << e.what();
  }
}

// Rank r owns the cells c with c % ranks == r: every rank's block holds global ids spread
// over the whole mesh. Read back on one rank (placed by global id), by the round robin
// itself (its own blocks, in its own order), and from the file of METIS's partition of the
// same mesh (every row placed by global id into the scattered cells).
TEST(checkpoint, round_robin_rows_are_written_and_read_back_in_global_order) {
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const fm::mesh global = fm::box2d_tri(120, 110);  // 26,400 cells: 70 KB of u per rank
  std::vector<int> part(static_cast<std::size_t>(global.cell_count()));
  for (std::size_t c = 0; c < part.size(); ++c) part[c] = static_cast<int>(c) % ranks;
  const fm::distributed_layout layout(MPI_COMM_WORLD,
                                      fm::build_local_mesh(global, part, ranks, world_rank()),
                                      global.cell_count(), global.node_count(), {});
  const fs::path dir = fresh_directory("round_robin");
  fm::dist_function<double> u(layout, "u");
  fm::dist_function<state> q(layout, "q");
  fill(layout, u, q);
  fm::checkpoint_writer(layout, dir).write({.step = 3}, u, q);
  // Read back on one rank with its own numbering: every cell is where its id says.
  expect_values_of_global_ids(fm::distribute(MPI_COMM_SELF, global), dir);
  // And the round-robin ranks read it back into their own scattered rows.
  fm::dist_function<double> u2(layout, "u");
  fm::dist_function<state> q2(layout, "q");
  fm::restart(layout, dir, u2, q2);
  expect_same_bits(layout, u, u2, q, q2);
  // A file of another partition of the same mesh (METIS's), read into the round robin's
  // scattered cells: every row placed by its global id.
  const fs::path other = fresh_directory("round_robin_other");
  {
    const fm::distributed_layout metis =
        fm::distribute(MPI_COMM_WORLD, world_rank() == 0 ? global : fm::mesh{});
    fm::dist_function<double> mu(metis, "u");
    fm::dist_function<state> mq(metis, "q");
    fill(metis, mu, mq);
    fm::checkpoint_writer(metis, other).write({.step = 4}, mu, mq);
  }
  fm::dist_function<double> u3(layout, "u");
  fm::dist_function<state> q3(layout, "q");
  EXPECT_EQ(fm::restart(layout, other, u3, q3).step, 4);
  expect_same_bits(layout, u, u3, q, q3);
}

TEST(checkpoint, keeps_the_newest_and_falls_back_past_a_corrupt_or_truncated_one) {
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, mesh_maker);
  const fs::path dir = fresh_directory("fallback");
  fm::dist_function<double> u(layout, "u");
  fm::dist_function<state> q(layout, "q");
  fill(layout, u, q);
  fm::checkpoint_writer writer(layout, dir, {.keep = 2});
  for (std::int64_t step : {10, 20, 30}) writer.write({.step = step}, u, q);
  writer.wait();
  if (world_rank() == 0) {
    EXPECT_FALSE(fs::exists(dir / "checkpoint_0000000010.h5")) << "keep 2 deletes the oldest";
    EXPECT_TRUE(fs::exists(dir / "checkpoint_0000000020.h5"));
    // Truncate the newest.
    fs::resize_file(dir / "checkpoint_0000000030.h5", 2000);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  fm::dist_function<double> u2(layout, "u");
  fm::dist_function<state> q2(layout, "q");
  EXPECT_EQ(fm::restart(layout, dir, u2, q2).step, 20) << "the previous valid one";
  // A named file that is truncated is refused, on every rank alike, naming it.
  try {
    fm::restart(layout, dir / "checkpoint_0000000030.h5", u2, q2);
    ADD_FAILURE() << "a truncated checkpoint was accepted";
  } catch (const fm::agreed_error& e) {
    EXPECT_NE(std::string(e.what()).find("checkpoint_0000000030.h5"), std::string::npos)
        << e.what();
  }
  // Flip a byte inside a dataset of the one left (found by a value it holds: u of cell 7):
  // its checksum catches it.
  if (world_rank() == 0) {
    const fs::path file = dir / "checkpoint_0000000020.h5";
    std::string bytes(fs::file_size(file), '\0');
    std::ifstream(file, std::ios::binary)
        .read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    const double value = std::sin(7.0) + 0.25 * 7.0;
    const std::size_t at =
        bytes.find(std::string(reinterpret_cast<const char*>(&value), sizeof value));
    ASSERT_NE(at, std::string::npos) << "u's values are not stored as plain doubles";
    bytes[at + 3] = static_cast<char>(bytes[at + 3] ^ 0x10);
    std::ofstream(file, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_THROW(fm::restart(layout, dir / "checkpoint_0000000020.h5", u2, q2), fm::agreed_error);
}

// Beside each checkpoint its XDMF description (the fields on the mesh, for ParaView and
// VisIt), and once per layout the mesh it names; a second writer on the same layout uses
// that mesh file again; {.xdmf = false} writes neither; a deleted checkpoint takes its
// description along. (tests/examples/checkpoint_xdmf.sh reads them with meshio.)
TEST(checkpoint, each_checkpoint_is_described_in_xdmf_on_the_mesh_of_its_layout) {
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, mesh_maker);
  const fs::path dir = fresh_directory("xdmf");
  fm::dist_function<double> u(layout, "u");
  fm::dist_function<state> q(layout, "q");
  fill(layout, u, q);
  auto meshes_in = [](const fs::path& folder) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder)) {
      const std::string name = entry.path().filename().string();
      if (name.starts_with("mesh_")) names.push_back(name);
    }
    return names;
  };
  fs::file_time_type written{};
  {
    fm::checkpoint_writer writer(layout, dir, {.keep = 1});
    writer.write({.step = 10, .t = 0.5}, u, q);
    writer.wait();
    if (world_rank() == 0) {
      ASSERT_EQ(meshes_in(dir).size(), 1u);
      written = fs::last_write_time(dir / meshes_in(dir)[0]);
    }
  }
  {
    fm::checkpoint_writer again(layout, dir, {.keep = 1});
    again.write({.step = 20, .t = 0.75}, u, q);
    again.wait();
  }
  const fs::path plain = fresh_directory("xdmf_off");
  {
    fm::checkpoint_writer writer(layout, plain, {.xdmf = false});
    writer.write({.step = 10}, u, q);
  }
  if (world_rank() == 0) {
    const std::vector<std::string> meshes = meshes_in(dir);
    ASSERT_EQ(meshes.size(), 1u) << "one mesh file per layout";
    EXPECT_TRUE(meshes[0].ends_with(".h5")) << meshes[0];
    EXPECT_EQ(fs::last_write_time(dir / meshes[0]), written) << "written once, then used again";
    EXPECT_FALSE(fs::exists(dir / "checkpoint_0000000010.xdmf")) << "deleted with its checkpoint";
    std::ifstream in(dir / "checkpoint_0000000020.xdmf");
    ASSERT_TRUE(in) << "no checkpoint_0000000020.xdmf";
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string cells = std::to_string(layout.global_cells());
    for (const std::string& expected :
         std::vector<std::string>{"<Time Value=\"0.75\"/>", "NumberOfElements=\"" + cells + "\"",
                                  meshes[0] + ":/topology", meshes[0] + ":/points",
                                  "<DataItem Dimensions=\"" + cells +
                                      "\" NumberType=\"Float\" Precision=\"8\" "
                                      "Format=\"HDF\">checkpoint_0000000020.h5:/u<",
                                  "AttributeType=\"Vector\"",
                                  "<DataItem Dimensions=\"" + cells +
                                      " 3\" NumberType=\"Float\" Precision=\"8\" "
                                      "Format=\"HDF\">checkpoint_0000000020.h5:/q<",
                                  "checkpoint_0000000020.h5:/global_id"}) {
      EXPECT_NE(text.find(expected), std::string::npos) << "no '" << expected << "' in\n" << text;
    }
    EXPECT_TRUE(meshes_in(plain).empty()) << "{.xdmf = false} wrote a mesh file";
    EXPECT_FALSE(fs::exists(plain / "checkpoint_0000000010.xdmf"));
    EXPECT_TRUE(fs::exists(plain / "checkpoint_0000000010.h5"));
  }
}

// Asynchronous: write() returns with the state copied; the file is named only once the
// next write (or wait) completed it; the fields may change meanwhile; a failure of one
// rank's background write is reported at the next write on every rank, its .tmp deleted,
// and the checkpoint before stays the latest.
TEST(checkpoint, an_asynchronous_checkpoint_holds_the_state_of_its_write) {
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, mesh_maker);
  const fs::path dir = fresh_directory("asynchronous");
  fm::dist_function<double> u(layout, "u");
  fm::dist_function<state> q(layout, "q");
  fill(layout, u, q);
  fm::checkpoint_writer writer(layout, dir, {.keep = 3});
  const fs::path first = writer.write({.step = 1}, u, q);
  EXPECT_TRUE(writer.in_flight());
  EXPECT_FALSE(fs::exists(first)) << "named before it was complete";
  {
    auto w = u.write();  // the run goes on: the checkpoint keeps step 1's values
    for (index_t c = 0; c < layout.owned_count(); ++c) w[c] = -1.0;
  }
  EXPECT_TRUE(writer.completed().empty());
  const fs::path second = writer.write({.step = 2}, u, q);
  EXPECT_TRUE(fs::exists(first)) << "the second write completes the first";
  EXPECT_EQ(writer.completed(), first);
  EXPECT_FALSE(fs::exists(second));
  EXPECT_EQ(writer.wait(), second);
  // This rank's next write fails (rank 1's where there is one: not the rank that names).
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (world_rank() == (ranks > 1 ? 1 : 0))
    fm::detail::fail_next_checkpoint_write_for_testing("injected");
  const fs::path third = writer.write({.step = 3}, u, q);
  EXPECT_TRUE(fs::exists(second));
  try {
    writer.wait();
    ADD_FAILURE() << "a failed background write was not reported";
  } catch (const fm::agreed_error& e) {
    EXPECT_NE(std::string(e.what()).find("injected"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(third.filename().string()), std::string::npos) << e.what();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_FALSE(fs::exists(third));
  EXPECT_FALSE(fs::exists(fs::path(third.string() + ".tmp"))) << "a failed write left its .tmp";
  fm::dist_function<double> u2(layout, "u");
  fm::dist_function<state> q2(layout, "q");
  EXPECT_EQ(fm::restart(layout, dir, u2, q2).step, 2) << "the newest complete one";
  expect_values_of_global_ids(fm::distribute_generated(MPI_COMM_SELF, mesh_maker), first);
  const auto b = u2.read();
  for (index_t c = 0; c < layout.owned_count(); ++c) ASSERT_EQ(b[c], -1.0);
}

// An old checkpoint that cannot be deleted (here a folder of its name, not empty): the
// failure is reported at the next completion, on every rank, with the new one named.
TEST(checkpoint, a_failed_deletion_leaves_the_new_checkpoint_named) {
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, mesh_maker);
  const fs::path dir = fresh_directory("undeletable");
  if (world_rank() == 0) {
    fs::create_directories(dir / "checkpoint_0000000001.h5");
    std::ofstream(dir / "checkpoint_0000000001.h5" / "keep") << "not empty\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  fm::dist_function<double> u(layout, "u");
  fm::dist_function<state> q(layout, "q");
  fill(layout, u, q);
  fm::checkpoint_writer writer(layout, dir, {.keep = 1, .asynchronous = false});
  writer.write({.step = 2}, u, q);  // asks for the deletion of step 1's, which fails
  try {
    writer.write({.step = 3}, u, q);
    ADD_FAILURE() << "the failed deletion was not reported";
  } catch (const fm::agreed_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot delete the old checkpoint"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(fs::exists(dir / "checkpoint_0000000003.h5")) << "the new one was not named";
  EXPECT_EQ(writer.completed(), dir / "checkpoint_0000000003.h5");
  if (world_rank() == 0) fs::remove_all(dir / "checkpoint_0000000001.h5");
  MPI_Barrier(MPI_COMM_WORLD);
}

// The fingerprint of slabs (as a mesh file is read, before any set-up) is the layout's,
// whatever the path that built it; another mesh's differs.
TEST(checkpoint, the_fingerprint_of_slabs_is_the_layouts) {
  int ranks = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const fm::mesh whole = fm::box3d_tet(5, 4, 3);
  const fm::mesh_slab slab = fm::slab_of(whole, ranks, rank);
  const std::uint64_t from_slabs = fm::mesh_fingerprint(MPI_COMM_WORLD, slab);
  EXPECT_EQ(from_slabs,
            fm::mesh_fingerprint(fm::distribute(MPI_COMM_WORLD, rank == 0 ? whole : fm::mesh{})));
  EXPECT_EQ(from_slabs, fm::mesh_fingerprint(fm::distribute_slab(MPI_COMM_WORLD, slab)));
  EXPECT_EQ(fm::mesh_fingerprint(MPI_COMM_WORLD, fm::box_slab("box3d-tet", 5, {}, ranks, rank)),
            fm::mesh_fingerprint(MPI_COMM_WORLD, fm::slab_of(fm::box3d_tet(5, 5, 5), ranks, rank)));
  EXPECT_NE(from_slabs,
            fm::mesh_fingerprint(MPI_COMM_WORLD, fm::slab_of(fm::box3d_tet(5, 4, 4), ranks, rank)));
}

TEST(checkpoint, refuses_another_mesh_another_field_list_and_a_missing_file) {
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, mesh_maker);
  const fs::path dir = fresh_directory("mismatch");
  fm::dist_function<double> u(layout, "u");
  fm::dist_function<state> q(layout, "q");
  fill(layout, u, q);
  fm::checkpoint_writer(layout, dir).write({.step = 5}, u, q);
  auto message = [](auto&& call) {
    try {
      call();
    } catch (const fm::agreed_error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const fm::distributed_layout other =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_tri(13, 10); });
  fm::dist_function<double> ou(other, "u");
  fm::dist_function<state> oq(other, "q");
  EXPECT_NE(message([&] { fm::restart(other, dir, ou, oq); }).find("written for another mesh"),
            std::string::npos);
  // As many cells (9 x 13 instead of 13 x 9), another mesh: the fingerprint tells.
  const fm::distributed_layout turned =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_tri(9, 13); });
  ASSERT_EQ(turned.global_cells(), layout.global_cells());
  fm::dist_function<double> tu(turned, "u");
  fm::dist_function<state> tq(turned, "q");
  EXPECT_NE(message([&] { fm::restart(turned, dir, tu, tq); }).find("written for another mesh"),
            std::string::npos);
  EXPECT_NE(message([&] { fm::restart(layout, dir, u); }).find("holds the fields u f64, q f64x3"),
            std::string::npos);
  fm::dist_function<double> w(layout, "w");
  EXPECT_NE(message([&] { fm::restart(layout, dir, u, w); }).find("this run restarts u f64, w f64"),
            std::string::npos);
  EXPECT_NE(message([&] { fm::restart(layout, dir / "nothing.h5", u, q); }).find("does not exist"),
            std::string::npos);
  const fs::path empty = fresh_directory("empty");
  EXPECT_NE(message([&] { fm::restart(layout, empty, u, q); }).find("no checkpoint in"),
            std::string::npos);
  EXPECT_NE(message([&] {
              fm::checkpoint_writer(layout, dir).write({.step = 6});
            }).find("no fields to write"),
            std::string::npos);
  fm::dist_function<double> u_again(layout, "u");
  EXPECT_NE(message([&] { fm::restart(layout, dir, u, u_again); }).find("two fields named 'u'"),
            std::string::npos);
  EXPECT_NE(message([&] {
              fm::checkpoint_writer(layout, dir).write({.step = 7}, u, u_again);
            }).find("two fields named 'u'"),
            std::string::npos);
  fm::dist_function<double> taken(layout, "global_id");
  EXPECT_NE(message([&] {
              fm::checkpoint_writer(layout, dir).write({.step = 8}, u, taken);
            }).find("taken by the checkpoint's own datasets"),
            std::string::npos);
}

}  // namespace
}  // namespace funcmesh::testing
