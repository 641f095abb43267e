// Distribution of local meshes: what rank 0 sends equals what each rank would build from
// the global mesh itself; generating on every rank gives the same; failures on rank 0
// reach every rank as the same error; the byte format round-trips and refuses corruption.
// The layout distribute() returns: its own communicator, shared by copies, global facts
// alike on every rank, faces built once.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <string>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/face_sum.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>

#include "../common/mesh_equality.hpp"
#include "world.hpp"

namespace funcmesh::testing {

namespace {

using test_support::world_rank;
using test_support::world_size;

TEST(distribute, each_rank_gets_the_local_mesh_it_would_build_itself) {
  const mesh global = box3d_tet(6, 5, 4);
  // Only rank 0's copy is read; the others pass an empty mesh.
  const distributed_layout d =
      distribute(MPI_COMM_WORLD, world_rank() == 0 ? global : mesh{}, partition_options{});
  EXPECT_EQ(d.rank(), world_rank());
  EXPECT_EQ(d.size(), world_size());
  EXPECT_EQ(d.global_cells(), global.cell_count());
  EXPECT_EQ(d.global_nodes(), global.node_count());
  const std::vector<int> part = partition_mesh(global, world_size());
  expect_same(d.mesh(), build_local_mesh(global, part, world_size(), world_rank()));
  EXPECT_EQ(d.owned_count(), d.mesh().owned_count);
  EXPECT_EQ(d.interior_count(), d.mesh().interior_count);
  EXPECT_EQ(d.total_count(), d.mesh().cells.cell_count());
  // Owned cells over all ranks add up to the mesh.
  long long owned = d.mesh().owned_count;
  long long total = 0;
  MPI_Allreduce(&owned, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, global.cell_count());
}

TEST(distribute, generating_everywhere_gives_the_same_local_meshes) {
  auto generate = [] { return box2d_quad(17, 9); };
  const distributed_layout scattered =
      distribute(MPI_COMM_WORLD, world_rank() == 0 ? generate() : mesh{});
  const distributed_layout generated = distribute_generated(MPI_COMM_WORLD, generate);
  expect_same(scattered.mesh(), generated.mesh());
  EXPECT_EQ(generated.global_cells(), 17 * 9);
  EXPECT_FALSE(scattered == generated) << "two distributions, two layouts";
}

TEST(distributed_layout, owns_a_duplicate_communicator_shared_by_its_copies) {
  MPI_Comm mine = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &mine);
  const distributed_layout layout = distribute_generated(mine, [] { return box2d_quad(9, 7); });
  int relation = MPI_UNEQUAL;
  MPI_Comm_compare(mine, layout.comm(), &relation);
  EXPECT_EQ(relation, MPI_CONGRUENT) << "the same ranks, a communicator of its own";
  const distributed_layout copy = layout;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_TRUE(copy == layout);
  EXPECT_EQ(copy.comm(), layout.comm());
  EXPECT_EQ(&copy.exchange_plan(), &layout.exchange_plan());
  EXPECT_EQ(&copy.faces(), &layout.faces()) << "faces are built once per layout";
  EXPECT_EQ(&copy.volume(), &layout.volume());
  EXPECT_EQ(layout.faces().owned_count(), layout.owned_count());
  EXPECT_EQ(layout.volume().total_size(), layout.total_count());
  // The caller may free its communicator: the layout keeps working.
  MPI_Comm_free(&mine);
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, layout.comm());
  EXPECT_EQ(sum, world_size());
}

// A boundary group the mesh lacks is an agreed_error on every rank, with no message sent:
// up front (require_groups) and when a face sum naming it is built, before any loop runs.
TEST(distributed_layout, a_missing_boundary_group_is_an_agreed_error_where_it_is_named) {
  const distributed_layout layout =
      distribute_generated(MPI_COMM_WORLD, [] { return box2d_quad(6, 5); });
  layout.require_groups({"left", "top"});
  try {
    layout.require_groups({"left", "pier", "island"});
    ADD_FAILURE() << "require_groups accepted groups the mesh lacks";
  } catch (const agreed_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("funcmesh::distributed_layout::require_groups"), std::string::npos);
    EXPECT_NE(what.find("\"pier\" \"island\""), std::string::npos) << what;
    EXPECT_NE(what.find("(it has \"left\" \"right\" \"bottom\" \"top\""), std::string::npos)
        << what;
  }
  dist_function<double> u(layout, "u");
  auto flux = [](double a, double b, const face_view& f) { return (b - a) * f.area; };
  auto wall = [](double, const face_view&) { return 0.0; };
  (void)layout.prepare_faces();  // collective: builds the faces and the cell geometry
  const std::uint64_t exchanges = layout.exchange_plan().exchange_count();
  EXPECT_THROW((void)sum_over_faces(layout, flux, u, on("pier", wall), on_other_groups(wall)),
               agreed_error);
  EXPECT_EQ(layout.exchange_plan().exchange_count(), exchanges) << "refused before any exchange";
}

TEST(distributed_layout, global_facts_are_alike_on_every_rank) {
  const distributed_layout a =
      distribute_generated(MPI_COMM_WORLD, [] { return box2d_quad(6, 5); });
  const distributed_layout b =
      distribute_generated(MPI_COMM_WORLD, [] { return box3d_hex(3, 3, 2); });
  EXPECT_EQ(b.id(), a.id() + 1) << "numbered in the order they are made";
  const std::vector<std::string> expected{"left", "right", "bottom", "top"};
  EXPECT_EQ(a.boundary_groups(), expected) << "every rank knows every group, without messages";
  EXPECT_TRUE(a.has_boundary_group("left"));
  EXPECT_FALSE(a.has_boundary_group("pier"));
  EXPECT_EQ(b.boundary_groups().size(), 6u);
  EXPECT_EQ(a.halo_depth(), 1);
  // Every rank numbers the layouts alike: rank 0's ids are everyone's.
  unsigned long long ids[2] = {a.id(), b.id()}, root[2] = {a.id(), b.id()};
  MPI_Bcast(root, 2, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  EXPECT_EQ(ids[0], root[0]);
  EXPECT_EQ(ids[1], root[1]);
  const std::string text = a.describe();
  EXPECT_NE(text.find("layout #" + std::to_string(a.id())), std::string::npos) << text;
  EXPECT_NE(text.find("30 cells"), std::string::npos) << text;
}

TEST(distribute, a_failure_on_rank_0_reaches_every_rank) {
  if (world_size() == 1) GTEST_SKIP() << "one part always fits";
  // One cell cannot be split into several parts: rank 0 fails, every rank throws.
  try {
    (void)distribute(MPI_COMM_WORLD, world_rank() == 0 ? box2d_quad(1, 1) : mesh{});
    ADD_FAILURE() << "no error";
  } catch (const error& failure) {
    const std::string message = failure.what();
    EXPECT_NE(message.find("rank 0"), std::string::npos) << message;
    EXPECT_NE(message.find("parts"), std::string::npos) << message;
  }
  // The communicator still works afterwards (nobody is left waiting).
  int one = 1;
  int sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(sum, world_size());
}

TEST(distribute, bytes_round_trip_and_corruption_is_refused) {
  const mesh global = box2d_tri(5, 4);
  const std::vector<int> part(static_cast<std::size_t>(global.cell_count()), 0);
  const local_mesh local = build_local_mesh(global, part, 1, 0);
  const std::vector<std::byte> bytes = detail::serialize(local);
  expect_same(detail::deserialize(bytes), local);
  for (std::size_t cut : {std::size_t{0}, std::size_t{3}, bytes.size() / 2, bytes.size() - 1}) {
    EXPECT_THROW((void)detail::deserialize(std::span(bytes).first(cut)), error) << cut;
  }
  std::vector<std::byte> longer = bytes;
  longer.push_back(std::byte{0});
  EXPECT_THROW((void)detail::deserialize(longer), error);
}

}  // namespace

}  // namespace funcmesh::testing
