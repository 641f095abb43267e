// The messages of an Airfoil iteration (examples/euler's solver), counted through MPI's
// profiling interface (message_counter.cpp): one message to each neighbour per stage, 2
// per iteration, in both face forms, with and without the rms. Was 4: each stage's round
// sent q and adt as two messages. adt is now computed on the halo cells (with_halo()) and
// each stage's round carries q alone, one message per neighbour. The same bits as the
// serial executor's gather form on every rank count is checked by the examples' tests.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <map>

#include <funcmesh/comm.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>

#include "../../examples/euler/airfoil_solver.hpp"
#include "message_counter.hpp"

namespace {

namespace fm = funcmesh;

std::map<int, std::uint64_t> sends_since(const std::map<int, std::uint64_t>& before) {
  std::map<int, std::uint64_t> after = message_counter::by_destination();
  for (auto& [rank, count] : after) {
    const auto it = before.find(rank);
    if (it != before.end()) count -= it->second;
  }
  std::erase_if(after, [](const auto& entry) { return entry.second == 0; });
  return after;
}

void expect_two_messages_per_neighbour(airfoil::face_form form, const char* name) {
  const fm::distributed_layout layout =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::builtin_mesh("airfoil", 6000); });
  airfoil::solver solver(layout, form);
  const auto neighbours = layout.exchange_plan().neighbour_count();
  for (int iteration = 0; iteration < 4; ++iteration) {
    const auto before = message_counter::by_destination();
    const auto rounds = layout.exchange_plan().exchange_count();
    solver.iterate(/*want_rms=*/iteration == 2);
    const auto sent = sends_since(before);
    EXPECT_EQ(layout.exchange_plan().exchange_count() - rounds, 2u)
        << name << ", iteration " << iteration << ": one round a stage";
    EXPECT_EQ(sent.size(), neighbours) << name << ": a message to every neighbour, no other";
    for (const auto& [rank, count] : sent) {
      EXPECT_EQ(count, 2u) << name << ", iteration " << iteration << ": messages to rank " << rank
                           << " (one a stage)";
    }
  }
}

TEST(airfoil_messages, two_per_neighbour_per_iteration_in_the_gather_form) {
  expect_two_messages_per_neighbour(airfoil::face_form::gather, "gather");
}

TEST(airfoil_messages, two_per_neighbour_per_iteration_in_the_scatter_form) {
  expect_two_messages_per_neighbour(airfoil::face_form::scatter, "scatter");
}

// Device data (the simulated device: packed there, staged through the host): the same.
TEST(airfoil_messages, two_per_neighbour_per_iteration_with_the_fields_on_a_device) {
  const fm::scoped_executor device(fm::executor::simulated_device(0));
  expect_two_messages_per_neighbour(airfoil::face_form::gather, "gather on the device");
}

}  // namespace
