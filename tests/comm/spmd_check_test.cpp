// The SPMD check mode: a host write on rank 0 only (which without the check would leave
// rank 0 alone in a halo round, waiting forever) fails on every rank at once with the
// same error naming the function and the lowest rank that disagrees; with the check off,
// the documented form (mark_halo_stale() on every rank) exchanges as it should.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <string>

#include "heat_like.hpp"

#include <funcmesh/comm/collective_error.hpp>
#include "world.hpp"

namespace {

namespace fm = funcmesh;

using test_support::world_rank;
using test_support::world_size;

// u's halo holds u's owners' values: global cell id + 0.5 (+ 1 on rank 0's cells when
// `rank_0_bumped`).
void expect_halo_of_ids(const fm::dist_function<double>& u, bool rank_0_bumped) {
  const fm::local_mesh& m = u.layout().mesh();
  const auto values = u.local_values().to_vector();
  for (fm::index_t c = m.owned_count; c < m.cells.cell_count(); ++c) {
    const auto k = static_cast<std::size_t>(c);
    const bool from_0 = c >= m.halo_owner_offsets[0] && c < m.halo_owner_offsets[1];
    const double expected =
        static_cast<double>(m.global_cell[k]) + 0.5 + (rank_0_bumped && from_0 ? 1.0 : 0.0);
    ASSERT_EQ(values[k], expected) << "halo cell " << c;
  }
}

void fill_ids(fm::dist_function<double>& u) {
  const fm::local_mesh& m = u.layout().mesh();
  auto w = u.write();
  for (fm::index_t c = 0; c < m.owned_count; ++c) {
    w[c] = static_cast<double>(m.global_cell[static_cast<std::size_t>(c)]) + 0.5;
  }
}

TEST(spmd_check, the_environment_variable_turns_it_on) {
  const char* text = std::getenv("FUNCMESH_CHECK_SPMD");
  ASSERT_NE(text, nullptr) << "ctest sets FUNCMESH_CHECK_SPMD";
  EXPECT_EQ(fm::spmd_check_enabled(), std::string(text) == "1");
}

TEST(spmd_check, a_write_on_rank_0_only_fails_every_rank_naming_function_and_rank) {
  if (world_size() == 1) GTEST_SKIP() << "one rank always agrees with itself";
  fm::set_spmd_check(true);
  heat_like::problem p;
  fill_ids(p.u);
  p.u.exchange();
  fm::dist_function<double> v(p.layout, "v");
  v = p.rhs(p.u);  // clean everywhere: agreed, no round
  const auto rounds = p.layout.exchange_plan().exchange_count();
  if (world_rank() == 0) {
    auto w = p.u.write();  // a host write on rank 0 alone, and no mark_halo_stale()
    w[0] += 1.0;
  }
  const double started = MPI_Wtime();
  try {
    v = p.rhs(p.u);
    ADD_FAILURE() << "rank " << world_rank() << ": no error";
  } catch (const fm::mpi::collective_error& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.failing_rank(), 1) << message;
    EXPECT_NE(message.find("grid function 'u'"), std::string::npos) << message;
    EXPECT_NE(message.find("rank 1, the lowest that disagrees"), std::string::npos) << message;
    EXPECT_NE(message.find("mark_halo_stale()"), std::string::npos) << message;
  }
  EXPECT_LT(MPI_Wtime() - started, 5.0) << "fails at once, not after a timeout";
  EXPECT_EQ(p.layout.exchange_plan().exchange_count(), rounds) << "no round was started";
  EXPECT_FALSE(p.layout.exchange_plan().in_flight());
  // The documented repair: every rank marks the halo stale; the next read exchanges.
  p.u.mark_halo_stale();
  v = p.rhs(p.u);
  EXPECT_EQ(p.layout.exchange_plan().exchange_count(), rounds + 1);
  fm::set_spmd_check(false);
}

TEST(spmd_check, an_error_on_one_rank_before_sending_fails_every_rank) {
  if (world_size() == 1) GTEST_SKIP() << "one rank always agrees with itself";
  fm::set_spmd_check(true);
  heat_like::problem p;
  const fm::index_t owned = p.layout.owned_count(), halo = p.layout.total_count() - owned;
  // Too few values on rank 0 only: a size of that rank's part.
  fm::grid_function<double> weights(world_rank() == 0 ? owned - 1 : owned,
                                    world_rank() == 0 ? 0 : halo, "weights");
  weights = 1.0;
  fm::dist_function<double> v(p.layout, "v");
  const auto rounds = p.layout.exchange_plan().exchange_count();
  try {
    v = p.rhs(p.u) * weights;  // u is dirty: without the check, rank 0 would fail alone
    ADD_FAILURE() << "rank " << world_rank() << ": no error";
  } catch (const fm::mpi::collective_error& e) {
    EXPECT_EQ(e.failing_rank(), 0) << e.what();
    EXPECT_NE(std::string(e.what()).find("'weights'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(p.layout.exchange_plan().exchange_count(), rounds) << "refused before any message";
  EXPECT_TRUE(p.u.halo_stale());
  fm::set_spmd_check(false);
}

TEST(spmd_check, with_the_check_off_mark_halo_stale_on_every_rank_works) {
  fm::set_spmd_check(false);
  heat_like::problem p;
  fill_ids(p.u);
  p.u.exchange();
  expect_halo_of_ids(p.u, false);
  if (world_rank() == 0) {
    auto w = p.u.write();
    for (fm::index_t c = 0; c < p.layout.owned_count(); ++c) w[c] += 1.0;
  }
  p.u.mark_halo_stale();  // on every rank: collective by contract, no message
  EXPECT_TRUE(p.u.halo_stale());
  fm::dist_function<double> v(p.layout, "v");
  v = p.rhs(p.u);
  EXPECT_FALSE(p.u.halo_stale());
  expect_halo_of_ids(p.u, true);
  // Clean now: the next read sends nothing.
  const auto rounds = p.u.exchange_count();
  v = p.rhs(p.u);
  EXPECT_EQ(p.u.exchange_count(), rounds);
}

TEST(spmd_check, agreeing_ranks_pass_the_check_with_the_same_results) {
  heat_like::problem checked, trusted;
  fm::dist_function<double> a(checked.layout, "a"), b(trusted.layout, "b");
  fm::set_spmd_check(true);
  a = checked.rhs(checked.u);
  fm::set_spmd_check(false);
  b = trusted.rhs(trusted.u);
  const auto x = a.local_values().to_vector(), y = b.local_values().to_vector();
  for (fm::index_t c = 0; c < checked.layout.owned_count(); ++c) {
    ASSERT_EQ(x[static_cast<std::size_t>(c)], y[static_cast<std::size_t>(c)]) << "cell " << c;
  }
}

}  // namespace
