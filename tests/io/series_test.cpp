// vtk_series and the gathered PNG pictures under mpirun: two steps of a series on a 2-D
// and a 3-D built-in box (read back by read_vtk.py, a ctest that depends on this one),
// and errors agreed across ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/parallel_output.hpp>
#include <funcmesh/comm/png_output.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>

#include "../comm/world.hpp"
#include "../common/test_paths.hpp"
#include "png_decode.hpp"

namespace fm = funcmesh;
namespace fs = std::filesystem;

namespace {

using test_support::world_rank;
using test_support::world_size;

// Per rank count, so the 1- and 3-rank runs can go in parallel. Emptied by rank 0 at the
// first call, so that read_vtk.py never reads a previous run's files.
fs::path output_dir() {
  static bool emptied = false;
  const fs::path dir = funcmesh::testing::beside_executable(FUNCMESH_IO_TEST_DIR) /
                       ("np" + std::to_string(world_size()));
  if (!emptied) {
    if (world_rank() == 0) fs::remove_all(dir);
    MPI_Barrier(MPI_COMM_WORLD);
    emptied = true;
  }
  return dir;
}

// The values read_vtk.py expects, as functions of the global cell index and the time.
double u_of(fm::index_t g, double time) {
  return 0.25 * static_cast<double>(g) + 1.0 / (static_cast<double>(g) + 3.0) + time;
}
fm::vec<double, 3> velocity_of(fm::index_t g) {
  const auto x = static_cast<double>(g);
  return {{x, 2 * x + 1, -0.5 * x}};
}

void write_series(const fs::path& dir, const std::string& base, const fm::distributed_layout& dm) {
  fm::dist_function<double> u(dm, "u");
  fm::dist_function<fm::vec<double, 3>> velocity(dm, "velocity_field");
  fm::vtk_series series(dir, base);
  for (double time : {0.0, 0.5}) {
    {
      auto uw = u.local_values().write();
      auto vw = velocity.local_values().write();
      for (fm::index_t c = 0; c < dm.mesh().owned_count; ++c) {
        const fm::index_t g = dm.mesh().global_cell[static_cast<std::size_t>(c)];
        uw[c] = u_of(g, time);
        vw[c] = velocity_of(g);
      }
    }
    const fs::path pvtu = series.write(time, dm, u, fm::named("velocity", velocity));
    EXPECT_EQ(pvtu, dir / series.pvtu_name(series.steps_written() - 1));
  }
  EXPECT_EQ(series.steps_written(), 2);
  EXPECT_TRUE(fs::exists(dir / series.piece_name(1, dm.rank())));
  if (dm.rank() == 0) {
    EXPECT_TRUE(fs::exists(dir / (base + ".pvd")));
    EXPECT_TRUE(fs::exists(dir / (base + "_1.pvtu")));
  }
}

}  // namespace

TEST(vtk_series, writes_pieces_index_and_time_series) {
  const fs::path dir = output_dir();
  const auto tri = fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_tri(12, 10); });
  write_series(dir, "tri2d", tri);
  const auto hex = fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box3d_hex(5, 4, 3); });
  write_series(dir / "sub", "hex3d", hex);
}

TEST(vtk_series, unwritable_directory_fails_on_every_rank_naming_it) {
  const fs::path dir = output_dir() / "blocked";
  if (world_rank() == 0) {
    fs::create_directories(dir);
    std::ofstream(dir / "file") << "not a directory";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const auto dm = fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_quad(4, 4); });
  fm::dist_function<double> u(dm, "u");
  fm::vtk_series series(dir / "file" / "out", "s");
  try {
    series.write(0.0, dm, u);
    FAIL() << "expected a collective error";
  } catch (const fm::mpi::collective_error& e) {
    EXPECT_EQ(e.failing_rank(), 0);
    EXPECT_NE(std::string(e.what()).find((dir / "file" / "out").string()), std::string::npos)
        << e.what();
  }
  fm::dist_function<double> unnamed(dm);
  EXPECT_THROW(fm::vtk_series(dir, "t").write(0.0, dm, unnamed), fm::mpi::collective_error);
  // The series' own arrays cannot be shadowed by a user field.
  fm::dist_function<double> clash(dm, "partition");
  EXPECT_THROW(fm::vtk_series(dir, "t").write(0.0, dm, clash), fm::mpi::collective_error);
  // A field of another layout (here of the same mesh) is refused, naming it.
  const auto other = fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_quad(4, 4); });
  fm::dist_function<double> elsewhere(other, "elsewhere");
  try {
    fm::vtk_series(dir, "t").write(0.0, dm, elsewhere);
    ADD_FAILURE() << "no error";
  } catch (const fm::mpi::collective_error& e) {
    EXPECT_NE(std::string(e.what()).find("'elsewhere' is on layout #"), std::string::npos)
        << e.what();
  }
}

TEST(png_output, field_and_partition_pictures_from_every_rank) {
  const fs::path dir = output_dir() / "png";
  if (world_rank() == 0) fs::create_directories(dir);
  MPI_Barrier(MPI_COMM_WORLD);
  const auto dm = fm::distribute_generated(MPI_COMM_WORLD, [] {
    return fm::box2d_quad(20, 10, {.lengths = {2, 1, 1}});
  });
  fm::dist_function<double> u(dm, "u");
  {
    auto w = u.local_values().write();
    for (fm::index_t c = 0; c < dm.mesh().owned_count; ++c) {
      w[c] = static_cast<double>(dm.mesh().global_cell[static_cast<std::size_t>(c)]);
    }
  }
  fm::write_png(dir / "u.png", dm, u, {.picture = {.width = 500}});
  fm::write_partition_png(dir / "partition.png", dm);
  fm::write_png(dir / "u_800.png", dm, u);  // the partition picture's options
  fm::dist_function<fm::vec<double, 2>> pair(dm, "pair");
  pair.local_values().write();
  fm::write_png(dir / "component.png", dm, pair, 1);
  EXPECT_THROW(fm::write_png(dir / "component.png", dm, pair, 2), fm::mpi::collective_error);
  const auto hex = fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box3d_hex(6, 6, 4); });
  fm::write_partition_png(dir / "slice.png", hex, {.picture = {.width = 300}});
  if (world_rank() == 0) {
    const auto picture = fm::test::decode_png(dir / "u.png");
    EXPECT_EQ(picture.width, 500);
    const auto partition = fm::test::decode_png(dir / "partition.png");
    EXPECT_EQ(partition.width, 800);
    // Framed as the field's picture with the same options, to be laid over it.
    const auto field = fm::test::decode_png(dir / "u_800.png");
    EXPECT_EQ(partition.width, field.width);
    EXPECT_EQ(partition.height, field.height);
    EXPECT_LT(partition.height - 32, (800 - 32) / 2) << "a 2:1 domain, narrower for the legend";
    // As many palette colours as ranks.
    int seen = 0;
    for (int r = 0; r < world_size(); ++r) {
      const auto colour = fm::io::category_colour(r);
      bool found = false;
      for (int y = 0; y < partition.height && !found; ++y) {
        for (int x = 0; x < partition.width && !found; ++x) found = partition.at(x, y) == colour;
      }
      seen += found;
    }
    EXPECT_EQ(seen, world_size());
    const auto slice = fm::test::decode_png(dir / "slice.png");
    EXPECT_EQ(slice.width, 300);
    EXPECT_NE(slice.at(150, 150), (fm::io::rgb{255, 255, 255}));
  }
  // A bad path: every rank throws rank 0's error, which names the file.
  const fs::path bad = dir / "missing" / "u.png";
  try {
    fm::write_png(bad, dm, u);
    FAIL() << "expected a collective error";
  } catch (const fm::mpi::collective_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
  }
  // Wrong value count: agreed too.
  const std::vector<double> too_few(1);
  EXPECT_THROW(fm::write_png(dir / "x.png", dm, too_few), fm::mpi::collective_error);
}
