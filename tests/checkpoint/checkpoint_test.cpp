// Checkpoints under mpirun: a write on this rank count and a restart on the same layout
// give the same bits; the file holds each field in global cell order (checked against a
// value computed from the global id, read back on one rank); corrupt, truncated,
// mismatched and missing checkpoints are refused alike on every rank, and "latest" falls
// back to the previous valid one; only the newest `keep` stay.
#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <funcmesh/checkpoint/checkpoint.hpp>
#include <funcmesh/comm.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

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

TEST(checkpoint, a_restart_gives_back_the_same_bits_and_step) {
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, mesh_maker);
  const fs::path dir = fresh_directory("same_bits");
  fm::dist_function<double> u(layout, "u");
  fm::dist_function<state> q(layout, "q");
  fill(layout, u, q);
  fm::checkpoint_writer writer(layout, dir, {.keep = 2, .scheme = "ssp-rk3"});
  const fs::path file = writer.write({.step = 40, .t = 0.125, .dt = 1.0 / 320}, u, q);
  EXPECT_EQ(file.filename(), "checkpoint_0000000040.h5");
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
  const auto a = u.read(), b = u2.read();
  const auto c = q.read(), d = q2.read();
  for (index_t k = 0; k < layout.owned_count(); ++k) {
    ASSERT_TRUE(same_bits(a[k], b[k])) << "cell " << k;
    for (int m = 0; m < 3; ++m) ASSERT_TRUE(same_bits(c[k][m], d[k][m]));
  }
  EXPECT_TRUE(u2.halo_stale()) << "a restart writes the owned values: the halo is dirty";
}

TEST(checkpoint, the_file_is_in_global_cell_order_whatever_the_rank_count) {
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, mesh_maker);
  const fs::path dir = fresh_directory("global_order");
  fm::dist_function<double> u(layout, "u");
  fm::dist_function<state> q(layout, "q");
  fill(layout, u, q);
  fm::checkpoint_writer(layout, dir).write({.step = 1}, u, q);
  // Readable outside funcmesh: h5dump prints u in global cell order, every digit.
  if (world_rank() == 0) {
    const std::string command =
        "h5dump -d /u -m %.17g -y -w 0 " + (dir / "checkpoint_0000000001.h5").string() + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string text;
    char chunk[4096];
    while (const std::size_t n = std::fread(chunk, 1, sizeof chunk, pipe)) text.append(chunk, n);
    ASSERT_EQ(pclose(pipe), 0) << "h5dump (Debian's hdf5-tools) failed:\n" << text;
    const std::size_t data = text.find("DATA {");
    ASSERT_NE(data, std::string::npos) << text;
    std::istringstream numbers(text.substr(data + 6));
    for (index_t g = 0; g < layout.global_cells(); ++g) {
      double value = 0;
      char comma = 0;
      ASSERT_TRUE(numbers >> value) << "h5dump printed fewer than " << layout.global_cells();
      if (g + 1 < layout.global_cells()) numbers >> comma;
      ASSERT_EQ(value, std::sin(static_cast<double>(g)) + 0.25 * static_cast<double>(g))
          << "row " << g;
    }
    // And with h5py (python3-h5py, which ci/install-deps installs), the way users read it.
    if (std::system("/usr/bin/python3 -c 'import h5py' 2>/dev/null") == 0) {
      const std::string script =
          "import h5py, math, sys\n"
          "f = h5py.File(sys.argv[1], 'r')\n"
          "u, q, n = f['u'][:], f['q'][:], int(sys.argv[2])\n"
          "assert u.shape == (n,) and q.shape == (n, 3), (u.shape, q.shape)\n"
          "bad = [g for g in range(n) if u[g] != math.sin(g) + 0.25 * g or q[g][1] != -g]\n"
          "assert not bad, bad[:5]\n"
          "print('h5py read', n, 'rows, step', int(f.attrs['step']))\n";
      const std::string h5py = "/usr/bin/python3 -c \"" + script + "\" " +
                               (dir / "checkpoint_0000000001.h5").string() + " " +
                               std::to_string(layout.global_cells()) + " 2>&1";
      FILE* py = popen(h5py.c_str(), "r");
      ASSERT_NE(py, nullptr);
      std::string printed;
      while (const std::size_t n = std::fread(chunk, 1, sizeof chunk, py)) printed.append(chunk, n);
      ASSERT_EQ(pclose(py), 0) << "h5py could not read the checkpoint:\n" << printed;
      EXPECT_NE(printed.find("h5py read"), std::string::npos) << printed;
    } else {
      std::printf("python3-h5py is not installed: the file was checked with h5dump only\n");
    }
  }
  // Read back on one rank, the whole mesh as one part: every cell is where its id says.
  expect_values_of_global_ids(fm::distribute_generated(MPI_COMM_SELF, mesh_maker), dir);
}

// Rank r owns the cells c with c % ranks == r: every rank's rows are spread over the whole
// file, one row per run. On 3 ranks they are too scattered for the spanned row buffer (it
// would touch 3 times the packed size), so the packed one is written and read; on 1 and 2,
// the spanned one with many runs.
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
  const auto a = u.read(), b = u2.read();
  const auto e = q.read(), d = q2.read();
  for (index_t k = 0; k < layout.owned_count(); ++k) {
    ASSERT_TRUE(same_bits(a[k], b[k])) << "cell " << k;
    for (int m = 0; m < 3; ++m) ASSERT_TRUE(same_bits(e[k][m], d[k][m]));
  }
}

TEST(checkpoint, keeps_the_newest_and_falls_back_past_a_corrupt_or_truncated_one) {
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, mesh_maker);
  const fs::path dir = fresh_directory("fallback");
  fm::dist_function<double> u(layout, "u");
  fm::dist_function<state> q(layout, "q");
  fill(layout, u, q);
  fm::checkpoint_writer writer(layout, dir, {.keep = 2});
  for (std::int64_t step : {10, 20, 30}) writer.write({.step = step}, u, q);
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
}

}  // namespace
}  // namespace funcmesh::testing
