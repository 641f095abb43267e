// Layouts, their halo plans and their communicators: each layout (and its plan) holds its
// own duplicate, so layouts of different communicators are distinct, functions of two
// layouts never meet in one expression, and a layout outlives the communicator it was
// distributed over. Plus the error paths: local errors name the rank, and a failed start
// or wait (injected) abandons the plan cleanly.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/halo_plan.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/framework.hpp>
#include <funcmesh/func/function.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/partitioning.hpp>

#include "world.hpp"

namespace fm = funcmesh;

namespace {

using test_support::world_rank;
using test_support::world_size;
std::string my_prefix() { return "rank " + std::to_string(world_rank()) + ": "; }

fm::mesh small_box() { return fm::box2d_quad(12, 10); }

// The same deterministic partition on every rank; this rank keeps its part.
fm::local_mesh make_local() {
  const fm::mesh global = small_box();
  const int size = world_size();
  std::vector<int> part(static_cast<std::size_t>(global.cell_count()), 0);
  if (size > 1) part = fm::partition_mesh(global, size);
  return fm::build_local_mesh(global, part, size, world_rank());
}

fm::distributed_layout layout_on(MPI_Comm comm) {
  return fm::distribute_generated(comm, small_box);
}

double value_of(fm::index_t global) { return 10.0 * static_cast<double>(global) + 0.25; }

void fill_owned(fm::dist_function<double>& u, const fm::local_mesh& m) {
  auto w = u.local_values().write();
  for (fm::index_t i = 0; i < m.owned_count; ++i) {
    w[i] = value_of(m.global_cell[static_cast<std::size_t>(i)]);
  }
}

// Every halo value equals its owner's.
void expect_halo_filled(const fm::dist_function<double>& u, const fm::local_mesh& m) {
  const auto r = u.local_values().read();
  for (fm::index_t i = m.owned_count; i < m.cells.cell_count(); ++i) {
    const fm::index_t g = m.global_cell[static_cast<std::size_t>(i)];
    ASSERT_EQ(r[i], value_of(g)) << "halo cell " << i << " (global " << g << ")";
  }
}

MPI_Comm dup_world() {
  MPI_Comm c = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  return c;
}

TEST(layout_lifetime, each_layout_has_its_own_plan_and_context) {
  MPI_Comm dup = dup_world();
  MPI_Comm split = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, 0, world_rank(), &split);
  {
    const fm::distributed_layout lw = layout_on(MPI_COMM_WORLD), ld = layout_on(dup),
                                 ls = layout_on(split);
    fm::dist_function<double> w(lw, "w"), d(ld, "d"), s(ls, "s");
    EXPECT_NE(&lw.exchange_plan(), &ld.exchange_plan());
    EXPECT_NE(&lw.exchange_plan(), &ls.exchange_plan());
    EXPECT_NE(&ld.exchange_plan(), &ls.exchange_plan());
    for (const fm::distributed_layout* l : {&lw, &ld, &ls}) {
      // Its own communicators: the same ranks in the same order, different contexts.
      for (MPI_Comm c : {l->comm(), l->exchange_plan().comm()}) {
        int relation = MPI_UNEQUAL;
        MPI_Comm_compare(c, MPI_COMM_WORLD, &relation);
        EXPECT_EQ(relation, MPI_CONGRUENT);
      }
    }
    for (auto* u : {&w, &d, &s}) {
      fill_owned(*u, u->layout().mesh());
      u->exchange();
      expect_halo_filled(*u, u->layout().mesh());
    }
    // Functions of two layouts (even of the same mesh) do not meet in one expression: the
    // refusal names both, before any message.
    fm::dist_function<double> sum(lw, "sum");
    const auto add = fm::_([](fm::proxy<const double> a, fm::proxy<const double> b, fm::index_t i) {
      return a[i] + b[i];
    });
    w += 1.0;
    try {
      sum = add / fm::pure(fm::pr(w)) * fm::pure(fm::pr(d)) * fm::index();
      ADD_FAILURE() << "no error";
    } catch (const fm::error& e) {
      const std::string message = e.what();
      for (const std::string& part :
           {std::string("'sum'"), std::string("'d'"), lw.describe(), ld.describe()}) {
        EXPECT_NE(message.find(part), std::string::npos) << part << " in: " << message;
      }
    }
    EXPECT_TRUE(w.halo_stale()) << "refused before the exchange";
    EXPECT_FALSE(lw.exchange_plan().in_flight());
    EXPECT_THROW(sum = w + d, fm::error) << "own-index reads of another layout too";
  }
  MPI_Comm_free(&split);
  MPI_Comm_free(&dup);
}

TEST(layout_lifetime, a_layout_outlives_the_communicator_it_was_distributed_over) {
  MPI_Comm first = dup_world();
  const MPI_Comm first_handle = first;
  fm::dist_function<double> u(layout_on(first), "u");
  const fm::local_mesh& m = u.layout().mesh();
  fill_owned(u, m);
  MPI_Comm_free(&first);  // u's layout keeps its own duplicate
  u.exchange();
  expect_halo_filled(u, m);

  // A new communicator (perhaps at the freed handle's value) gets a new layout and plan.
  MPI_Comm second = dup_world();
  if (world_rank() == 0 && second == first_handle) {
    std::printf("(the new communicator reuses the freed handle)\n");
  }
  {
    fm::dist_function<double> v(layout_on(second), "v");
    EXPECT_NE(&v.layout().exchange_plan(), &u.layout().exchange_plan());
    fill_owned(v, m);
    v.exchange();
    expect_halo_filled(v, m);
    // u still exchanges after v's layout came and went.
    u += 1.0;
    u -= 1.0;
    u.exchange();
    expect_halo_filled(u, m);
  }
  MPI_Comm_free(&second);
}

TEST(layout_lifetime, functions_share_the_layout_they_were_made_from) {
  const fm::distributed_layout layout = layout_on(MPI_COMM_WORLD);
  fm::dist_function<double> a(layout, "a"), b(layout, "b");
  EXPECT_TRUE(a.layout() == layout);
  EXPECT_TRUE(b.layout() == a.layout());
  fm::dist_function<double> moved = std::move(a);
  EXPECT_TRUE(moved.layout() == layout);
  fill_owned(moved, layout.mesh());
  const fm::dist_function<double> copy = moved;  // a deep copy, same layout
  EXPECT_TRUE(copy.layout() == layout);
  EXPECT_TRUE(copy.halo_stale()) << "moved's halo was dirty: so is the copy's";
  moved.exchange();
  const fm::dist_function<double> clean = moved;
  EXPECT_FALSE(clean.halo_stale()) << "a clean halo is copied clean";
  expect_halo_filled(clean, layout.mesh());
  EXPECT_EQ(clean.exchange_count(), 0u);
}

TEST(halo_plan_errors, local_errors_name_the_rank) {
  EXPECT_EQ(fm::mpi::rank_prefix(), my_prefix());
  const fm::distributed_layout layout = layout_on(MPI_COMM_WORLD);
  const fm::local_mesh& m = layout.mesh();
  fm::halo_plan* plan = &layout.exchange_plan();
  fm::grid_function<double> wrong(m.owned_count + 1, 0, "wrong");
  try {
    plan->exchange(wrong, sizeof(double));
    ADD_FAILURE() << "no error";
  } catch (const fm::error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(my_prefix() + "funcmesh::halo_plan: ", 0), 0u)
        << e.what();
  }
  EXPECT_FALSE(plan->in_flight());
  // agree() names the failing rank once, even for a message that names it already.
  const fm::mpi::communicator world;
  try {
    fm::mpi::agree(world, world_rank() == 0 ? fm::mpi::rank_prefix() + "bad" : "");
    ADD_FAILURE() << "no error";
  } catch (const fm::mpi::collective_error& e) {
    EXPECT_EQ(std::string(e.what()), "rank 0: bad");
  }
}

TEST(halo_plan_errors, asymmetric_lists_on_one_rank_fail_every_rank) {
  fm::local_mesh m = make_local();
  const int last = world_size() - 1;
  if (world_rank() == last) m.neighbours.push_back({.part = 0, .send = {0}, .receive = {}});
  try {
    fm::halo_plan plan(MPI_COMM_WORLD, m);
    ADD_FAILURE() << "rank " << world_rank() << " did not throw";
  } catch (const fm::mpi::collective_error& e) {
    EXPECT_EQ(e.failing_rank(), last);
    EXPECT_NE(std::string(e.what()).find("halo lists must be symmetric"), std::string::npos)
        << e.what();
  }
}

// An injected MPI failure is seen by every rank at once: a start failure on one rank alone
// would leave its peers waiting forever for its messages. At one rank a plan has no
// neighbours and makes no MPI calls, so there is nothing to fail.
class halo_plan_failure : public ::testing::TestWithParam<fm::detail::halo_failure> {};

TEST_P(halo_plan_failure, abandons_the_plan_and_names_rank_and_call) {
  if (world_size() == 1) GTEST_SKIP() << "no messages at one rank";
  // A layout of its own: its plan is abandoned for good.
  const fm::distributed_layout layout = layout_on(MPI_COMM_WORLD);
  const fm::local_mesh& m = layout.mesh();
  fm::halo_plan* plan = &layout.exchange_plan();
  ASSERT_GT(plan->neighbour_count(), 0u) << "every rank must use the injected failure";
  fm::dist_function<double> u(layout, "u");
  fill_owned(u, m);
  const bool start = GetParam() == fm::detail::halo_failure::start;
  fm::detail::inject_halo_failure_for_testing(GetParam());
  try {
    u.exchange();
    ADD_FAILURE() << "no error";
  } catch (const fm::mpi_error& e) {
    EXPECT_EQ(e.code(), MPI_ERR_OTHER);
    const std::string call = start ? "MPI_Startall" : "MPI_Testsome";
    EXPECT_EQ(std::string(e.what()).rfind(my_prefix() + call + " failed", 0), 0u) << e.what();
  }
  EXPECT_FALSE(plan->in_flight());
  EXPECT_TRUE(u.halo_stale());
  // Refused from now on, on every rank alike, with no message started.
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      u.exchange();
      ADD_FAILURE() << "no error";
    } catch (const fm::error& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(my_prefix(), 0), 0u) << message;
      EXPECT_NE(message.find("cannot exchange again"), std::string::npos) << message;
    }
  }
  // Other layouts of the same mesh still work; the injection was used up.
  fm::dist_function<double> v(layout_on(MPI_COMM_WORLD), "v");
  fill_owned(v, m);
  v.exchange();
  expect_halo_filled(v, m);
}

struct left_or_own {
  double operator()(fm::proxy<const double> p, fm::index_t i) const { return p[i > 0 ? i - 1 : i]; }
};

// A round that fails at its end inside an assignment, after the interior's chunks ran on the
// loop's token (which the end unpacks through): the wait's error is the one thrown, the halo
// read stays dirty, the target counts as written (its halo dirty too), and no token still
// holds either (host writes of both would throw token_error).
TEST(halo_plan_failure_in_assignment, names_the_wait_and_leaves_both_halos_dirty_and_free) {
  if (world_size() == 1) GTEST_SKIP() << "no messages at one rank";
  const fm::distributed_layout layout = layout_on(MPI_COMM_WORLD);
  ASSERT_GT(layout.exchange_plan().neighbour_count(), 0u)
      << "every rank must use the injected failure";
  fm::dist_function<double> u(layout, "u"), v(layout, "v");
  fill_owned(u, layout.mesh());
  v = 1.0;
  v.exchange();
  ASSERT_FALSE(v.halo_stale());
  fm::detail::inject_halo_failure_for_testing(fm::detail::halo_failure::wait);
  try {
    v = fm::_(left_or_own{}) / fm::pure(fm::pr(u)) * fm::index();
    ADD_FAILURE() << "no error";
  } catch (const fm::mpi_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(my_prefix() + "MPI_Testsome failed", 0), 0u) << e.what();
  }
  EXPECT_FALSE(layout.exchange_plan().in_flight());
  EXPECT_TRUE(u.halo_stale());
  EXPECT_TRUE(v.halo_stale()) << "its interior cells were written";
  EXPECT_NO_THROW({
    auto held_u = u.write();
    auto held_v = v.write();
  });
}

INSTANTIATE_TEST_SUITE_P(calls, halo_plan_failure,
                         ::testing::Values(fm::detail::halo_failure::start,
                                           fm::detail::halo_failure::wait),
                         [](const auto& info) {
                           return info.param == fm::detail::halo_failure::start ? "start" : "wait";
                         });

}  // namespace
