// The MPI environment, communicators, collective error agreement and GPU binding, at
// every rank count: a check that fails on one rank must fail on all of them, alike.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/environment.hpp>
#include <funcmesh/comm/gpu_binding.hpp>
#include <funcmesh/config.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/exec/executor.hpp>

namespace funcmesh::testing {
namespace {

using mpi::communicator;

TEST(mpi_environment, world_rank_and_size_match_mpi) {
  int rank = -1, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const communicator world;
  EXPECT_EQ(world.get(), MPI_COMM_WORLD);
  EXPECT_EQ(world.rank(), rank);
  EXPECT_EQ(world.size(), size);
  EXPECT_EQ(communicator::world().rank(), rank);
  world.barrier();
}

TEST(mpi_environment, an_environment_inside_a_running_mpi_neither_starts_nor_stops_it) {
  int argc = 0;
  char** argv = nullptr;
  int provided = -1;
  MPI_Query_thread(&provided);
  const std::terminate_handler before = std::get_terminate();
  {
    mpi::environment env(argc, argv, MPI_THREAD_SINGLE);
    EXPECT_FALSE(env.owns_mpi());
    EXPECT_EQ(env.provided_thread_level(), provided);
    EXPECT_EQ(env.world().size(), communicator().size());
    EXPECT_EQ(std::get_terminate(), &mpi::terminate_job);
    MPI_Errhandler handler;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &handler);
    EXPECT_EQ(handler, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&handler);
  }
  int finalized = 1;
  MPI_Finalized(&finalized);
  EXPECT_EQ(finalized, 0);
  EXPECT_EQ(std::get_terminate(), before);
}

TEST(mpi_environment, a_thread_level_mpi_does_not_provide_is_refused_naming_both) {
  int provided = -1;
  MPI_Query_thread(&provided);
  if (provided >= MPI_THREAD_MULTIPLE) GTEST_SKIP() << "MPI provides MPI_THREAD_MULTIPLE";
  int argc = 0;
  char** argv = nullptr;
  try {
    mpi::environment env(argc, argv, MPI_THREAD_MULTIPLE);
    FAIL() << "no error";
  } catch (const error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("MPI_THREAD_MULTIPLE"), std::string::npos) << message;
    EXPECT_NE(message.find(mpi::thread_level_name(provided)), std::string::npos) << message;
  }
}

TEST(mpi_environment, thread_levels_have_their_mpi_names) {
  EXPECT_EQ(mpi::thread_level_name(MPI_THREAD_SINGLE), "MPI_THREAD_SINGLE");
  EXPECT_EQ(mpi::thread_level_name(MPI_THREAD_FUNNELED), "MPI_THREAD_FUNNELED");
  EXPECT_EQ(mpi::thread_level_name(MPI_THREAD_SERIALIZED), "MPI_THREAD_SERIALIZED");
  EXPECT_EQ(mpi::thread_level_name(MPI_THREAD_MULTIPLE), "MPI_THREAD_MULTIPLE");
}

TEST(mpi_communicator, split_shared_numbers_the_ranks_of_a_node_from_zero) {
  const communicator world;
  const communicator node = world.split_shared();
  EXPECT_NE(node.get(), MPI_COMM_WORLD);
  // A node's ranks are those with its processor name: one node on loopback, one per host
  // on the rehearsal cluster (ci/cluster gives each its own host name).
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  const auto ranks = static_cast<std::size_t>(world.size());
  std::vector<char> names(ranks * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME,
                MPI_CHAR, MPI_COMM_WORLD);
  std::vector<int> local(ranks, -1);
  const int mine = world.local_rank();
  EXPECT_EQ(mine, node.rank());
  MPI_Allgather(&mine, 1, MPI_INT, local.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::map<std::string, std::vector<int>> by_node;
  for (std::size_t r = 0; r < ranks; ++r) {
    by_node[std::string(names.data() + r * MPI_MAX_PROCESSOR_NAME)].push_back(local[r]);
  }
  EXPECT_EQ(static_cast<std::size_t>(node.size()), by_node[name].size());
  for (auto& [host, locals] : by_node) {
    std::sort(locals.begin(), locals.end());
    std::vector<int> expected(locals.size());
    std::iota(expected.begin(), expected.end(), 0);
    EXPECT_EQ(locals, expected) << "the local ranks on " << host;
  }
  const communicator copy = node;  // shares ownership; freed once, by the last copy
  EXPECT_EQ(copy.get(), node.get());
  copy.barrier();
}

TEST(mpi_agree, no_error_anywhere_throws_nowhere) {
  const communicator world;
  EXPECT_NO_THROW(mpi::agree(world, std::string()));
  EXPECT_NO_THROW(mpi::agree(world, std::exception_ptr()));
}

TEST(mpi_agree, an_error_on_the_last_rank_throws_the_same_message_on_every_rank) {
  const communicator world;
  const int last = world.size() - 1;
  const std::string local = world.rank() == last ? "bad mesh: cell 7 has no faces" : "";
  try {
    mpi::agree(world, local);
    FAIL() << "rank " << world.rank() << " did not throw";
  } catch (const mpi::collective_error& e) {
    EXPECT_EQ(e.failing_rank(), last);
    EXPECT_EQ(std::string(e.what()),
              "rank " + std::to_string(last) + ": bad mesh: cell 7 has no faces");
  }
}

TEST(mpi_agree, the_lowest_failing_rank_speaks_for_all) {
  const communicator world;
  const std::exception_ptr local =
      world.rank() >= world.size() / 2
          ? std::make_exception_ptr(std::runtime_error("failed on " + std::to_string(world.rank())))
          : nullptr;
  const int first = world.size() / 2;
  try {
    mpi::agree(world, local);
    FAIL() << "rank " << world.rank() << " did not throw";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()),
              "rank " + std::to_string(first) + ": failed on " + std::to_string(first));
  }
}

TEST(mpi_agree, on_root_agreed_returns_the_value_on_root_and_fails_everywhere_together) {
  const communicator world;
  const std::optional<int> value = mpi::on_root_agreed(world, [] { return 42; });
  EXPECT_EQ(value.has_value(), world.rank() == 0);
  if (value) {
    EXPECT_EQ(*value, 42);
  }
  EXPECT_THROW(mpi::on_root_agreed(world, [] { throw std::runtime_error("cannot read mesh.msh"); }),
               mpi::collective_error);
  try {
    mpi::on_root_agreed(world, []() -> int { throw std::runtime_error("cannot read mesh.msh"); });
    FAIL() << "rank " << world.rank() << " did not throw";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()), "rank 0: cannot read mesh.msh");
  }
}

TEST(gpu_binding, choose_gpu_cycles_local_ranks_over_the_visible_devices) {
  struct row {
    int local_rank, devices, expected;
  };
  for (const row r : {row{0, 1, 0}, row{1, 1, 0}, row{3, 1, 0}, row{0, 2, 0}, row{1, 2, 1},
                      row{2, 2, 0}, row{3, 2, 1}, row{5, 4, 1}, row{7, 8, 7}, row{8, 8, 0}})
    EXPECT_EQ(mpi::choose_gpu(r.local_rank, r.devices), r.expected)
        << r.local_rank << " % " << r.devices;
  EXPECT_THROW(mpi::choose_gpu(0, 0), error);
  EXPECT_THROW(mpi::choose_gpu(-1, 2), error);
}

TEST(gpu_binding, funcmesh_gpu_is_a_non_negative_device_index) {
  EXPECT_EQ(mpi::parse_gpu_override(nullptr), std::nullopt);
  EXPECT_EQ(mpi::parse_gpu_override(""), std::nullopt);
  EXPECT_EQ(mpi::parse_gpu_override("0"), 0);
  EXPECT_EQ(mpi::parse_gpu_override("3"), 3);
  EXPECT_EQ(mpi::parse_gpu_override("12"), 12);
  for (const char* bad : {"-1", "+1", " 1", "1 ", "1x", "gpu0", "cuda:1", "99999999999"}) {
    try {
      mpi::parse_gpu_override(bad);
      ADD_FAILURE() << "accepted \"" << bad << "\"";
    } catch (const error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("FUNCMESH_GPU"), std::string::npos) << message;
      EXPECT_NE(message.find(bad), std::string::npos) << message;
    }
  }
}

TEST(gpu_binding, a_bad_funcmesh_gpu_on_one_rank_fails_every_rank) {
  const communicator world;
  const int last = world.size() - 1;
  const char* saved = std::getenv("FUNCMESH_GPU");
  const std::string restore = saved ? saved : "";
  if (world.rank() == last) setenv("FUNCMESH_GPU", "first", 1);
  funcmesh::detail::reload_settings();  // read once, at start-up: read again after the setenv
  try {
    mpi::bound_device(world);
    ADD_FAILURE() << "rank " << world.rank() << " did not throw";
  } catch (const mpi::collective_error& e) {
    EXPECT_EQ(e.failing_rank(), last);
    EXPECT_NE(std::string(e.what()).find("FUNCMESH_GPU=\"first\""), std::string::npos);
  }
  if (saved)
    setenv("FUNCMESH_GPU", restore.c_str(), 1);
  else
    unsetenv("FUNCMESH_GPU");
  funcmesh::detail::reload_settings();
}

// The README's `mpirun -np 8 --map-by ppr:4:node` on nodes of 4 GPUs: each node's ranks
// take its GPUs 0..3; 8 ranks on a node of 2 GPUs share them in turn; FUNCMESH_GPU wins.
TEST(gpu_binding, the_rule_spreads_a_nodes_ranks_over_its_gpus) {
  for (int local = 0; local < 4; ++local) EXPECT_EQ(mpi::gpu_for_rank(local, 4, nullptr), local);
  for (int local = 0; local < 8; ++local) EXPECT_EQ(mpi::gpu_for_rank(local, 2, ""), local % 2);
  EXPECT_EQ(mpi::gpu_for_rank(3, 4, "1"), 1);
  EXPECT_EQ(mpi::gpu_for_rank(0, 0, nullptr), std::nullopt);  // no GPU: no binding
  EXPECT_EQ(mpi::gpu_for_rank(5, 0, "2"), std::nullopt);      // an override names nothing
  try {
    (void)mpi::gpu_for_rank(0, 2, "2");
    ADD_FAILURE() << "FUNCMESH_GPU=2 with 2 visible GPUs was accepted";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("FUNCMESH_GPU=2 but only 2"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)mpi::gpu_for_rank(0, 2, "x"), error);
}

TEST(gpu_binding, the_start_up_line_names_host_rank_and_gpu) {
  EXPECT_EQ(mpi::describe_binding(3, "node7", 1, 4, 1, 4, ""),
            "rank 3 on node7 (local rank 1 of 4): cuda:1 of 4 visible GPUs");
  EXPECT_EQ(mpi::describe_binding(0, "n", 0, 1, std::nullopt, 0, "no driver"),
            "rank 0 on n (local rank 0 of 1): no GPU (no driver)");
}

// The environment bound this rank at start-up: "cuda" means that device.
TEST(gpu_binding, the_environment_binds_each_rank_at_start_up) {
  const communicator world;
  const std::optional<int> device = mpi::bound_device(world);
  if (!config::cuda) {
    EXPECT_EQ(device, std::nullopt);
    return;
  }
  if (!device) {
    EXPECT_FALSE(gpu_required()) << "FUNCMESH_REQUIRE_GPU=1 but this rank has no GPU";
    return;
  }
  EXPECT_EQ(rank_device(), *device);
  EXPECT_EQ(executor::cuda().device(), *device);
  EXPECT_EQ(parse_executor<exec::nvcc_compiler>("cuda").device(), *device);
}

}  // namespace
}  // namespace funcmesh::testing
