// The SPMD contract has a price of zero: SSP-RK3 steps of a heat-like program, after the
// first, make no collective beyond the two the program asks for (its CFL min and its
// residual norm), while every step still refreshes three halos. Every collective is
// counted through MPI's profiling interface (collective_counter.cpp). With the check mode
// on, each distributed assignment adds exactly one allreduce, which the counter sees.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>

#include "collective_counter.hpp"
#include "heat_like.hpp"

namespace {

namespace fm = funcmesh;
namespace time = funcmesh::time;

struct step_counts {
  std::vector<std::uint64_t> collectives;  // counter total after each step
  std::vector<std::uint64_t> rounds;       // halo rounds of the layout after each step
};

step_counts run_steps(heat_like::problem& p, int steps) {
  step_counts counts;
  auto rhs = [&p](const fm::dist_function<double>& v) { return p.rhs(v); };
  time::driver run(time::ssp_rk3{}, {.steps = steps, .progress_every = 1});
  run(p.u, rhs, time::dt_callback([&p](double, const auto&) { return p.dt(); }),
      time::residual_norm(
          [](const auto& now, const auto& before) { return fm::global_norm2(now - before); }),
      time::on_progress([&](const time::step_info&) {
        counts.collectives.push_back(collective_counter::total());
        counts.rounds.push_back(p.layout.exchange_plan().exchange_count());
      }));
  return counts;
}

std::string named_counts() {
  std::string text;
  for (const auto& [name, n] : collective_counter::by_name()) {
    text += " " + name + "=" + std::to_string(n);
  }
  return text;
}

TEST(spmd_collective_count, the_counter_sees_collectives) {
  const std::uint64_t before = collective_counter::total();
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(collective_counter::total(), before + 2);
}

TEST(spmd_collective_count, ssp_rk3_steps_make_only_the_collectives_asked_for) {
  ASSERT_FALSE(fm::spmd_check_enabled()) << "run with FUNCMESH_CHECK_SPMD=0";
  heat_like::problem p;
  const step_counts counts = run_steps(p, 6);
  ASSERT_EQ(counts.collectives.size(), 6u);
  for (std::size_t k = 1; k < counts.collectives.size(); ++k) {
    SCOPED_TRACE("step " + std::to_string(k + 1) + ";" + named_counts());
    // The dt callback's global_min and the residual's global_norm2: one allreduce each.
    EXPECT_EQ(counts.collectives[k] - counts.collectives[k - 1], 2u);
    // Three rhs evaluations, each reading a freshly written state at neighbours.
    EXPECT_EQ(counts.rounds[k] - counts.rounds[k - 1], 3u);
  }
}

TEST(spmd_collective_count, the_check_mode_adds_one_allreduce_per_distributed_assignment) {
  heat_like::problem p;
  fm::set_spmd_check(true);
  const step_counts counts = run_steps(p, 4);
  fm::set_spmd_check(false);
  for (std::size_t k = 1; k < counts.collectives.size(); ++k) {
    SCOPED_TRACE("step " + std::to_string(k + 1) + ";" + named_counts());
    // SSP-RK3's six assignments (three rhs, three stage updates) and the driver's copy of
    // u for the residual: seven checked assignments, plus the two the program asks for.
    EXPECT_EQ(counts.collectives[k] - counts.collectives[k - 1], 2u + 7u);
    EXPECT_EQ(counts.rounds[k] - counts.rounds[k - 1], 3u);
  }
}

// prepare_faces is the layout's one collective after construction: it builds the faces and
// the cell geometry (cell_size() exchanges its halo), and afterwards faces(), volume(),
// centroid() and cell_size() send nothing, in any order, on any rank.
TEST(spmd_collective_count, after_prepare_faces_the_layouts_geometry_sends_nothing) {
  const fm::distributed_layout layout =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_quad(12, 9); });
  const std::uint64_t before = collective_counter::total();
  const std::uint64_t rounds_before = layout.exchange_plan().exchange_count();
  (void)layout.prepare_faces();
  EXPECT_GT(collective_counter::total(), before) << "prepare_faces agrees over the ranks";
  EXPECT_EQ(layout.exchange_plan().exchange_count(), rounds_before + 1) << "cell_size's halo";
  const std::uint64_t prepared = collective_counter::total();
  const std::uint64_t rounds_prepared = layout.exchange_plan().exchange_count();
  double sum = 0;
  if (layout.rank() % 2 == 0) {
    sum += layout.cell_size().read()[0] + layout.volume().read()[0];
  } else {
    sum += layout.centroid().read()[0][0] + layout.faces().owned_count();
  }
  EXPECT_GT(sum, 0.0);
  EXPECT_EQ(collective_counter::total(), prepared) << named_counts();
  EXPECT_EQ(layout.exchange_plan().exchange_count(), rounds_prepared);
}

}  // namespace
