// The parallel partitioners (distributed_graph.hpp) on the dual graph of a tetrahedral box
// split in contiguous shares over the ranks: valid, non-empty, balanced parts with an edge
// cut near serial METIS's, the same parts again for the same seed, and bad input (on one
// rank or all) as the same error on every rank. A build that should have PT-Scotch fails.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/distributed_graph.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/dual_graph.hpp>
#include <funcmesh/partition/mesh_slab.hpp>
#include <funcmesh/partition/partition_metrics.hpp>
#include <funcmesh/partition/partitioning.hpp>

#include "world.hpp"

// 1 unless -DFUNCMESH_ENABLE_PTSCOTCH=OFF: ci/install-deps installs libptscotch-dev.
#ifndef FUNCMESH_TEST_EXPECT_PTSCOTCH
#define FUNCMESH_TEST_EXPECT_PTSCOTCH 1
#endif

namespace funcmesh::testing {

namespace {

using test_support::world_rank;
using test_support::world_size;

using partitioner_function = std::vector<int> (*)(MPI_Comm, const distributed_graph&, int,
                                                  const partition_options&);

struct partitioner {
  const char* name;
  partitioner_function partition;
  bool (*available)();
  bool expected;  // this build must have it
};

const partitioner ptscotch{"ptscotch", partition_ptscotch, have_ptscotch,
                           FUNCMESH_TEST_EXPECT_PTSCOTCH != 0};
const partitioner parmetis{"parmetis", partition_parmetis, have_parmetis, false};

const graph& whole_graph() {
  static const graph g = dual_graph(box3d_tet(6, 6, 6));
  return g;
}

// Rank `rank`'s contiguous share of the whole graph.
distributed_graph share_of_graph(const graph& g, int rank, int size) {
  distributed_graph d;
  const index_t n = g.vertex_count();
  const index_t first = share_begin(n, size, rank), end = share_begin(n, size, rank + 1);
  d.first_vertex = first;
  d.global_vertices = n;
  const auto o = [&](index_t v) { return g.offsets[static_cast<std::size_t>(v)]; };
  for (index_t v = first; v < end; ++v) d.offsets.push_back(o(v + 1) - o(first));
  d.adjacency.assign(g.adjacency.begin() + o(first), g.adjacency.begin() + o(end));
  return d;
}

distributed_graph my_share() { return share_of_graph(whole_graph(), world_rank(), world_size()); }

// Every rank's parts, in global vertex order, on every rank.
std::vector<int> gathered(const std::vector<int>& mine) {
  const int size = world_size();
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size)), at(static_cast<std::size_t>(size), 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 1; r < size; ++r) at[r] = at[r - 1] + counts[r - 1];
  std::vector<int> all(static_cast<std::size_t>(at.back() + counts.back()));
  MPI_Allgatherv(mine.data(), count, MPI_INT, all.data(), counts.data(), at.data(), MPI_INT,
                 MPI_COMM_WORLD);
  return all;
}

// The message of the collective_error `call` throws, checked to be the same on every rank
// and to name `failing_rank`; "" (and a failure) when it does not throw one.
template <class Call>
std::string agreed_failure(Call call, int failing_rank) {
  std::string message;
  try {
    call();
    ADD_FAILURE() << "no error";
  } catch (const mpi::collective_error& e) {
    message = e.what();
    EXPECT_EQ(e.failing_rank(), failing_rank) << message;
  }
  EXPECT_EQ(mpi::communicator().broadcast(message), message) << "another message on rank 0";
  return message;
}

class parallel_partitioner : public ::testing::TestWithParam<partitioner> {
 protected:
  void SetUp() override {
    const partitioner& p = GetParam();
    if (p.available()) return;
    if (p.expected) {
      FAIL() << "funcmesh was built without " << p.name
             << ", which this build should have (ci/install-deps installs libptscotch-dev; "
                "-DFUNCMESH_ENABLE_PTSCOTCH=OFF turns it off)";
    }
    GTEST_SKIP() << "built without " << p.name;
  }
};

TEST_P(parallel_partitioner, matches_metis_quality_and_repeats_for_a_seed) {
  const graph& g = whole_graph();
  const distributed_graph mine = my_share();
  partition_options options;
  options.seed = 7;
  for (const int parts : {2, 3, 4, 7}) {
    const std::vector<int> local = GetParam().partition(MPI_COMM_WORLD, mine, parts, options);
    ASSERT_EQ(static_cast<index_t>(local.size()), mine.vertex_count());
    const std::vector<int> all = gathered(local);
    const partition_metrics ours = measure_partition(g, all, parts);  // throws if out of range
    const partition_metrics metis = measure_partition(g, partition_graph(g, parts), parts);
    if (world_rank() == 0) {
      std::printf(
          "%s, %d ranks, %d parts: edge cut %lld (METIS %lld), imbalance %.3f (METIS %.3f)\n",
          GetParam().name, world_size(), parts, static_cast<long long>(ours.edge_cut),
          static_cast<long long>(metis.edge_cut), ours.imbalance, metis.imbalance);
    }
    for (const index_t size : ours.part_sizes) EXPECT_GT(size, 0) << parts << " parts";
    EXPECT_LE(ours.imbalance, options.imbalance + 0.02) << parts << " parts";
    EXPECT_LE(static_cast<double>(ours.edge_cut), 1.3 * static_cast<double>(metis.edge_cut))
        << parts << " parts";
    EXPECT_EQ(GetParam().partition(MPI_COMM_WORLD, mine, parts, options), local)
        << "another answer for the same seed, " << parts << " parts";
  }
}

TEST_P(parallel_partitioner, balances_vertex_weights) {
  const graph& g = whole_graph();
  const distributed_graph mine = my_share();
  partition_options options;
  for (index_t v = 0; v < mine.vertex_count(); ++v) {
    options.cell_weights.push_back((mine.first_vertex + v) % 3 == 0 ? 3 : 1);
  }
  const int parts = 4;
  const std::vector<int> all = gathered(GetParam().partition(MPI_COMM_WORLD, mine, parts, options));
  std::vector<index_t> load(parts, 0);
  index_t total = 0;
  for (index_t v = 0; v < g.vertex_count(); ++v) {
    const index_t w = v % 3 == 0 ? 3 : 1;
    load[static_cast<std::size_t>(all[static_cast<std::size_t>(v)])] += w;
    total += w;
  }
  const double heaviest = static_cast<double>(*std::max_element(load.begin(), load.end()));
  EXPECT_LE(heaviest / (static_cast<double>(total) / parts), options.imbalance + 0.02);
}

TEST_P(parallel_partitioner, one_part_is_all_zeros) {
  const distributed_graph mine = my_share();
  EXPECT_EQ(GetParam().partition(MPI_COMM_WORLD, mine, 1, {}),
            std::vector<int>(static_cast<std::size_t>(mine.vertex_count()), 0));
}

TEST_P(parallel_partitioner, a_bad_neighbour_on_one_rank_fails_every_rank_alike) {
  distributed_graph mine = my_share();
  const int last = world_size() - 1;
  if (world_rank() == last) mine.adjacency.front() = mine.global_vertices + 5;
  const std::string message =
      agreed_failure([&] { GetParam().partition(MPI_COMM_WORLD, mine, 3, {}); }, last);
  EXPECT_NE(message.find("outside [0, " + std::to_string(mine.global_vertices) + ")"),
            std::string::npos)
      << message;
}

TEST_P(parallel_partitioner, an_edge_without_its_reverse_fails_every_rank_alike) {
  distributed_graph mine = my_share();
  // Vertex 0 (rank 0) names the last vertex (the last rank's), which does not name it back.
  const index_t far = mine.global_vertices - 1;
  if (world_rank() == 0) {
    ASSERT_LT(mine.offsets[1], static_cast<index_t>(mine.adjacency.size()));
    mine.adjacency.insert(mine.adjacency.begin() + mine.offsets[1], far);
    for (std::size_t v = 1; v < mine.offsets.size(); ++v) ++mine.offsets[v];
  }
  const std::string message =
      agreed_failure([&] { GetParam().partition(MPI_COMM_WORLD, mine, 2, {}); }, world_size() - 1);
  EXPECT_NE(message.find("not symmetric: vertex 0 names " + std::to_string(far)), std::string::npos)
      << message;
}

TEST_P(parallel_partitioner, more_parts_than_vertices_fail_every_rank_alike) {
  const distributed_graph mine = my_share();
  const int parts = static_cast<int>(mine.global_vertices) + 1;
  const std::string message =
      agreed_failure([&] { GetParam().partition(MPI_COMM_WORLD, mine, parts, {}); }, 0);
  EXPECT_NE(message.find("more parts"), std::string::npos) << message;
  agreed_failure([&] { GetParam().partition(MPI_COMM_WORLD, mine, 0, {}); }, 0);
}

TEST_P(parallel_partitioner, arguments_that_differ_between_ranks_fail_every_rank_alike) {
  if (world_size() == 1) GTEST_SKIP() << "needs two ranks";
  const distributed_graph mine = my_share();
  const std::string message = agreed_failure(
      [&] { GetParam().partition(MPI_COMM_WORLD, mine, world_rank() == 1 ? 3 : 2, {}); }, 0);
  EXPECT_NE(message.find("parts differs between rank 0 and rank 1"), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(all, parallel_partitioner, ::testing::Values(ptscotch, parmetis),
                         [](const ::testing::TestParamInfo<partitioner>& info) {
                           return std::string(info.param.name);
                         });

// PT-Scotch copes with ranks that hold no vertex (ParMETIS does not: it refuses them).
TEST(ptscotch, takes_ranks_without_vertices) {
  if (!have_ptscotch()) GTEST_SKIP() << "built without PT-Scotch";
  // Everything on the lowest ranks: the last rank of two or more holds nothing.
  const graph& g = whole_graph();
  const int holders = std::max(1, world_size() - 1);
  distributed_graph mine;  // no vertex: [N, N)
  mine.first_vertex = mine.global_vertices = g.vertex_count();
  if (world_rank() < holders) mine = share_of_graph(g, world_rank(), holders);
  const std::vector<int> all = gathered(partition_ptscotch(MPI_COMM_WORLD, mine, 4, {}));
  const partition_metrics metrics = measure_partition(g, all, 4);
  for (const index_t size : metrics.part_sizes) EXPECT_GT(size, 0);
}

TEST(ptscotch, says_what_to_do_where_it_was_not_built) {
  if (have_ptscotch()) GTEST_SKIP() << "built with PT-Scotch";
  const std::string message =
      agreed_failure([] { partition_ptscotch(MPI_COMM_WORLD, distributed_graph{}, 2, {}); }, 0);
  EXPECT_NE(message.find("built without PT-Scotch: install libptscotch-dev"), std::string::npos)
      << message;
}

TEST(parmetis, says_what_to_do_where_it_was_not_built) {
  if (have_parmetis()) GTEST_SKIP() << "built with ParMETIS";
  const std::string message =
      agreed_failure([] { partition_parmetis(MPI_COMM_WORLD, distributed_graph{}, 2, {}); }, 0);
  EXPECT_NE(message.find("built without ParMETIS"), std::string::npos) << message;
}

}  // namespace

}  // namespace funcmesh::testing
