// Distribution of local meshes: what rank 0 sends equals what each rank would build from
// the global mesh itself; generating on every rank gives the same; failures on rank 0
// reach every rank as the same error; the byte format round-trips and refuses corruption.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include <funcmesh/comm/distributed_mesh.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>

namespace funcmesh::testing {

namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

void expect_same(const local_mesh& a, const local_mesh& b) {
  EXPECT_EQ(a.part, b.part);
  EXPECT_EQ(a.interior_count, b.interior_count);
  EXPECT_EQ(a.owned_count, b.owned_count);
  EXPECT_EQ(a.global_cell, b.global_cell);
  EXPECT_EQ(a.global_node, b.global_node);
  EXPECT_EQ(a.halo_owner_offsets, b.halo_owner_offsets);
  ASSERT_EQ(a.neighbours.size(), b.neighbours.size());
  for (std::size_t k = 0; k < a.neighbours.size(); ++k) {
    EXPECT_EQ(a.neighbours[k].part, b.neighbours[k].part);
    EXPECT_EQ(a.neighbours[k].send, b.neighbours[k].send);
    EXPECT_EQ(a.neighbours[k].receive, b.neighbours[k].receive);
  }
  EXPECT_EQ(a.cells.coordinates, b.cells.coordinates);
  EXPECT_EQ(a.cells.cells.nodes, b.cells.cells.nodes);
  EXPECT_EQ(a.cells.boundary.physical, b.cells.boundary.physical);
  ASSERT_EQ(a.cells.physical_groups.size(), b.cells.physical_groups.size());
  for (std::size_t k = 0; k < a.cells.physical_groups.size(); ++k) {
    EXPECT_EQ(a.cells.physical_groups[k].name, b.cells.physical_groups[k].name);
  }
}

TEST(distribute, each_rank_gets_the_local_mesh_it_would_build_itself) {
  const mesh global = box3d_tet(6, 5, 4);
  // Only rank 0's copy is read; the others pass an empty mesh.
  const distributed_mesh d =
      distribute(MPI_COMM_WORLD, world_rank() == 0 ? global : mesh{}, partition_options{});
  EXPECT_EQ(d.rank, world_rank());
  EXPECT_EQ(d.size, world_size());
  EXPECT_EQ(d.global_cells, global.cell_count());
  EXPECT_EQ(d.global_nodes, global.node_count());
  const std::vector<int> part = partition_mesh(global, world_size());
  expect_same(d.local, build_local_mesh(global, part, world_size(), world_rank()));
  // Owned cells over all ranks add up to the mesh.
  long long owned = d.local.owned_count;
  long long total = 0;
  MPI_Allreduce(&owned, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, global.cell_count());
}

TEST(distribute, generating_everywhere_gives_the_same_local_meshes) {
  auto generate = [] { return box2d_quad(17, 9); };
  const distributed_mesh scattered =
      distribute(MPI_COMM_WORLD, world_rank() == 0 ? generate() : mesh{});
  const distributed_mesh generated = distribute_generated(MPI_COMM_WORLD, generate);
  expect_same(scattered.local, generated.local);
  EXPECT_EQ(generated.global_cells, 17 * 9);
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
