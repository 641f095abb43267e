// Halo plans and their communicators: each plan holds its own duplicate, so plans of
// different communicators are distinct, a freed communicator's cache entries go with it,
// and a plan outlives the communicator it was built on. Plus the error paths: local
// errors name the rank, and a failed start or wait (injected) abandons the plan cleanly.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/halo_plan.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/framework.hpp>
#include <funcmesh/func/function.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/partitioning.hpp>

namespace fm = funcmesh;

namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}
int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}
std::string my_prefix() { return "rank " + std::to_string(world_rank()) + ": "; }

// The same deterministic partition on every rank; this rank keeps its part.
fm::local_mesh make_local() {
  const fm::mesh global = fm::box2d_quad(12, 10);
  const int size = world_size();
  std::vector<int> part(static_cast<std::size_t>(global.cell_count()), 0);
  if (size > 1) part = fm::partition_mesh(global, size);
  return fm::build_local_mesh(global, part, size, world_rank());
}

double value_of(fm::index_t global) { return 10.0 * static_cast<double>(global) + 0.25; }

void fill_owned(fm::dist_function<double>& u, const fm::local_mesh& m) {
  auto w = u.local().write();
  for (fm::index_t i = 0; i < m.owned_count; ++i) {
    w[i] = value_of(m.global_cell[static_cast<std::size_t>(i)]);
  }
}

// Every halo value equals its owner's.
void expect_halo_filled(const fm::dist_function<double>& u, const fm::local_mesh& m) {
  const auto r = u.local().read();
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

TEST(halo_plan_lifetime, each_communicator_has_its_own_plan_and_context) {
  const fm::local_mesh m = make_local();
  MPI_Comm dup = dup_world();
  MPI_Comm split = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, 0, world_rank(), &split);
  {
    fm::dist_function<double> w(MPI_COMM_WORLD, m, "w"), d(dup, m, "d"), s(split, m, "s");
    EXPECT_NE(&w.plan(), &d.plan());
    EXPECT_NE(&w.plan(), &s.plan());
    EXPECT_NE(&d.plan(), &s.plan());
    EXPECT_EQ(fm::halo_plan_for(dup, m).get(), &d.plan()) << "cached per communicator";
    for (const fm::halo_plan* p : {&w.plan(), &d.plan(), &s.plan()}) {
      // Its own communicator: the same ranks in the same order, a different context.
      int relation = MPI_UNEQUAL;
      MPI_Comm_compare(p->comm(), MPI_COMM_WORLD, &relation);
      EXPECT_EQ(relation, MPI_CONGRUENT);
    }
    for (auto* u : {&w, &d, &s}) {
      fill_owned(*u, m);
      u->exchange();
      expect_halo_filled(*u, m);
    }
    // Proxies of functions on congruent plans may meet in one assignment.
    fm::dist_function<double> sum(MPI_COMM_WORLD, m, "sum");
    fill_owned(w, m);
    fill_owned(d, m);
    const auto add = fm::_([](fm::proxy<const double> a, fm::proxy<const double> b, fm::index_t i) {
      return a[i] + b[i];
    });
    sum = add / fm::pure(fm::pr(w)) * fm::pure(fm::pr(d)) * fm::index();
    EXPECT_FALSE(w.halo_stale());
    EXPECT_FALSE(d.halo_stale());
    expect_halo_filled(d, m);
    const auto r = sum.local().read();
    for (fm::index_t i = 0; i < m.owned_count; ++i) {
      ASSERT_EQ(r[i], 2.0 * value_of(m.global_cell[static_cast<std::size_t>(i)]));
    }
  }
  MPI_Comm_free(&split);
  MPI_Comm_free(&dup);
}

TEST(halo_plan_lifetime, a_plan_outlives_the_communicator_it_was_built_on) {
  const fm::local_mesh m = make_local();
  MPI_Comm first = dup_world();
  const MPI_Comm first_handle = first;
  fm::dist_function<double> u(first, m, "u");
  fill_owned(u, m);
  MPI_Comm_free(&first);  // u's plan keeps its own duplicate
  u.exchange();
  expect_halo_filled(u, m);

  // A new communicator (perhaps at the freed handle's value) gets a new plan: the freed
  // communicator's cache entries went with it.
  MPI_Comm second = dup_world();
  if (world_rank() == 0 && second == first_handle) {
    std::printf("(the new communicator reuses the freed handle)\n");
  }
  {
    fm::dist_function<double> v(second, m, "v");
    EXPECT_NE(&v.plan(), &u.plan());
    fill_owned(v, m);
    v.exchange();
    expect_halo_filled(v, m);
    // u still exchanges after v's plan came and went.
    u += 1.0;
    u -= 1.0;
    u.exchange();
    expect_halo_filled(u, m);
  }
  MPI_Comm_free(&second);
}

TEST(halo_plan_lifetime, freed_communicator_then_new_one_gives_a_fresh_working_plan) {
  const fm::local_mesh m = make_local();
  std::weak_ptr<fm::halo_plan> old;
  MPI_Comm c = dup_world();
  {
    auto plan = fm::halo_plan_for(c, m);
    fm::dist_function<double> u(c, m, "u");
    EXPECT_EQ(&u.plan(), plan.get());
    old = plan;
  }
  EXPECT_TRUE(old.expired());
  MPI_Comm_free(&c);
  c = dup_world();
  fm::dist_function<double> u(c, m, "u");
  fill_owned(u, m);
  u.exchange();
  expect_halo_filled(u, m);
  EXPECT_EQ(u.exchange_count(), 1u);
  MPI_Comm_free(&c);  // u's plan keeps working on its own duplicate until u goes
}

TEST(halo_plan_errors, local_errors_name_the_rank) {
  EXPECT_EQ(fm::mpi::rank_prefix(), my_prefix());
  const fm::local_mesh m = make_local();
  auto plan = fm::halo_plan_for(MPI_COMM_WORLD, m);
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
  const fm::local_mesh m = make_local();
  // Not from the cache: the plan is abandoned for good.
  auto plan = std::make_shared<fm::halo_plan>(MPI_COMM_WORLD, m);
  ASSERT_GT(plan->neighbour_count(), 0u) << "every rank must use the injected failure";
  fm::dist_function<double> u(plan, "u");
  fill_owned(u, m);
  const bool start = GetParam() == fm::detail::halo_failure::start;
  fm::detail::inject_halo_failure_for_testing(GetParam());
  try {
    u.exchange();
    ADD_FAILURE() << "no error";
  } catch (const fm::mpi_error& e) {
    EXPECT_EQ(e.code(), MPI_ERR_OTHER);
    const std::string call = start ? "MPI_Startall" : "MPI_Waitall";
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
  // Other plans of the same mesh still work; the injection was used up.
  fm::dist_function<double> v(MPI_COMM_WORLD, m, "v");
  fill_owned(v, m);
  v.exchange();
  expect_halo_filled(v, m);
}

INSTANTIATE_TEST_SUITE_P(calls, halo_plan_failure,
                         ::testing::Values(fm::detail::halo_failure::start,
                                           fm::detail::halo_failure::wait),
                         [](const auto& info) {
                           return info.param == fm::detail::halo_failure::start ? "start" : "wait";
                         });

}  // namespace
