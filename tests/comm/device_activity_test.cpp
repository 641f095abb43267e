// What an Airfoil iteration (examples/euler's solver) asks of a device, counted on the
// simulated device at the places where the CUDA backend launches, waits and copies
// (profile/device_activity.hpp). One rank: no host synchronisation in an iteration without an
// rms (the adt, flux and update loops of a stage make no round trip), one for the rms's
// reduction, and no copy of field data after the first iteration. More ranks: the only
// copies are the halo buffers', under the halo exchange's label, their bytes exactly the
// send and receive lists, one host synchronisation each. Before (every launch waited, as
// the CUDA backend did, and a one-rank round ran its interior in chunks) the counts were
// several times these: the test prints both.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include <funcmesh/comm.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/profile/device_activity.hpp>

#include "../../examples/euler/airfoil_solver.hpp"

namespace {

namespace fm = funcmesh;

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

fm::distributed_layout airfoil_layout() {
  return fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::builtin_mesh("airfoil", 6000); });
}

// Cells this rank sends and receives in one round.
struct halo_cells {
  std::uint64_t send = 0, receive = 0;
};
halo_cells halo_of(const fm::distributed_layout& layout) {
  halo_cells cells;
  for (const fm::neighbour_lists& n : layout.mesh().neighbours) {
    cells.send += n.send.size();
    cells.receive += n.receive.size();
  }
  return cells;
}

// One iteration's activity, in total and in the rows that copied.
struct iteration_activity {
  fm::device_activity_counts total;
  fm::device_activity_counts halo_rows;     // rows named "halo exchange of ..."
  fm::device_activity_counts other_copies;  // copies in any other row
};

iteration_activity one_iteration(airfoil::solver& solver, bool want_rms) {
  fm::reset_device_activity();
  solver.iterate(want_rms);

  iteration_activity seen;
  seen.total = fm::device_activity();
  for (const fm::device_activity_entry& row : fm::device_activity_by_label()) {
    if (row.name.starts_with("halo exchange of")) {
      seen.halo_rows += row.counts;
    } else {
      seen.other_copies.copies_to_host += row.counts.copies_to_host;
      seen.other_copies.copies_from_host += row.counts.copies_from_host;
    }
  }
  return seen;
}

void print(const char* what, const fm::device_activity_counts& c) {
  if (world_rank() != 0) return;
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::printf(
      "airfoil 6000, gather form, simulated device, %d rank(s), rank 0, %s: "
      "%llu launches, %llu host synchronisations, %llu copies host->device, "
      "%llu device->host\n",
      ranks, what, static_cast<unsigned long long>(c.launches),
      static_cast<unsigned long long>(c.synchronizations),
      static_cast<unsigned long long>(c.copies_from_host),
      static_cast<unsigned long long>(c.copies_to_host));
}

TEST(device_activity, an_airfoil_iteration_waits_only_where_the_host_reads) {
  const fm::distributed_layout layout = airfoil_layout();
  const fm::scoped_executor device(fm::executor::simulated_device(0));
  airfoil::solver solver(layout, airfoil::face_form::gather);
  const iteration_activity first = one_iteration(solver, false);
  EXPECT_GT(first.total.copies_from_host, 0u) << "the first iteration moves q and the mesh";

  const bool alone = layout.exchange_plan().neighbour_count() == 0;
  const halo_cells halo = halo_of(layout);
  constexpr std::uint64_t stages = 2, state_bytes = sizeof(airfoil::state);
  for (int iteration = 1; iteration <= 4; ++iteration) {
    const bool rms = iteration == 3;
    SCOPED_TRACE("iteration " + std::to_string(iteration) + (rms ? " (rms)" : ""));
    const iteration_activity seen = one_iteration(solver, rms);
    const fm::device_activity_counts& c = seen.total;
    print(rms ? "an iteration with the rms" : "an iteration", c);
    // Per stage: adt over owned and halo cells, then the update that sums the faces; on
    // ranks with neighbours adt in two (the owned cells while q's halo is in flight, then
    // the halo cells), a gather (pack) and a scatter (unpack) of q. The rms's reduction.
    EXPECT_EQ(c.launches, stages * (alone ? 2 : 5) + (rms ? 1 : 0));
    EXPECT_EQ(seen.other_copies.copies_to_host + seen.other_copies.copies_from_host, 0u)
        << "field data crossed between host and device outside the halo exchange";
    if (alone) {
      EXPECT_EQ(c.synchronizations, rms ? 1u : 0u) << "at most one per stage; none without rms";
      EXPECT_EQ(c.copies_to_host + c.copies_from_host, 0u);
    } else {
      // One message to each neighbour a stage carries q: staged through the host.
      EXPECT_EQ(c.bytes_to_host, stages * halo.send * state_bytes);
      EXPECT_EQ(c.bytes_from_host, stages * halo.receive * state_bytes);
      EXPECT_EQ(c.copies_to_host, stages);
      EXPECT_EQ(c.copies_from_host, stages);
      EXPECT_EQ(seen.halo_rows.copies_to_host, stages);
      EXPECT_EQ(c.synchronizations, c.copies_to_host + c.copies_from_host + (rms ? 1 : 0));
    }
  }

  // The old behaviour for comparison: every launch waited for its kernel.
  fm::detail::set_synchronize_every_launch_for_testing(true);
  const iteration_activity before = one_iteration(solver, false);
  fm::detail::set_synchronize_every_launch_for_testing(false);
  print("an iteration if every launch waited (the CUDA backend before)", before.total);
  EXPECT_EQ(before.total.synchronizations,
            before.total.launches + before.total.copies_to_host + before.total.copies_from_host);
}

// A round of device data: begin() packs and issues the copy of the packed bytes to the
// host on the device's side queue and returns with no wait and no message; a loop launched
// then (a distributed assignment's interior) is issued before the host joins the queue;
// end() joins it, starts the messages, and the halo holds the owners' values. On the
// simulated device the side queue's copies are made only at the join (its bytes are all
// ones until then), so a message started before the join would carry NaN.
TEST(device_activity, a_device_round_starts_its_messages_after_the_loops_launched_meanwhile) {
  const fm::distributed_layout layout = airfoil_layout();
  const fm::executor device = fm::executor::simulated_device(0);
  const fm::local_mesh& m = layout.mesh();
  fm::dist_function<double> u(layout, "u");
  fm::grid_function<double> w(layout.owned_count(), "w");
  {
    auto values = u.local_values().write();
    for (fm::index_t i = 0; i < m.owned_count; ++i) {
      values[i] = 0.5 + static_cast<double>(m.global_cell[static_cast<std::size_t>(i)]);
    }
  }
  w.assign(0.0 * w, {.on = device});  // w's only copy is on the device now
  fm::halo_plan& plan = layout.exchange_plan();
  const fm::halo_field field{&u.local_values(), sizeof(double)};
  const std::span<const fm::halo_field> fields(&field, 1);
  plan.exchange(fields, device);  // u and the lists on the device: the round's own copies only
  const bool alone = plan.neighbour_count() == 0;
  const std::uint64_t sent = plan.messages_sent();

  fm::reset_device_activity();
  plan.begin(fields, device);
  const fm::device_activity_counts begun = fm::device_activity();
  EXPECT_EQ(begun.launches, alone ? 0u : 1u) << "the packing";
  EXPECT_EQ(begun.copies_to_host, alone ? 0u : 1u) << "the staging copy, issued";
  EXPECT_EQ(begun.synchronizations, 0u) << "begin waits for nothing";
  EXPECT_EQ(plan.messages_sent(), sent) << "no message before the host joins the staging";

  w.assign(w + 1.0, {.on = device});  // the interior, launched while the staging is pending
  EXPECT_EQ(fm::device_activity().launches, begun.launches + 1);
  EXPECT_EQ(fm::device_activity().synchronizations, 0u);

  plan.end(device);
  const fm::device_activity_counts ended = fm::device_activity();
  EXPECT_EQ(plan.messages_sent() - sent, plan.neighbour_count());
  if (!alone) {
    // The join, then the received bytes' copy to the device (a wait of its own).
    EXPECT_EQ(ended.synchronizations, 2u);
    EXPECT_EQ(ended.copies_from_host, 1u);
  }
  const auto values = u.local_values().read();
  for (fm::index_t i = m.owned_count; i < m.cells.cell_count(); ++i) {
    ASSERT_EQ(values[i], 0.5 + static_cast<double>(m.global_cell[static_cast<std::size_t>(i)]))
        << "halo cell " << i;
  }
}

// The host executors count nothing: the counters cost them no lock.
TEST(device_activity, host_loops_are_not_counted) {
  const fm::distributed_layout layout = airfoil_layout();
  const fm::scoped_executor host(fm::executor::serial());
  airfoil::solver solver(layout, airfoil::face_form::gather);
  const iteration_activity seen = one_iteration(solver, true);
  EXPECT_TRUE(seen.total.empty());
}

}  // namespace
