// Halo exchange and distributed grid functions at any rank count: halo values equal their
// owners' values, exchanges happen only when dirty (decided locally), and a neighbour
// average computed with split-phase overlap equals the one-rank result on the global
// mesh, bitwise.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/halo_plan.hpp>
#include <funcmesh/framework.hpp>
#include <funcmesh/func/function.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/dual_graph.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/partitioning.hpp>

#include "../common/executor_params.hpp"
#include "world.hpp"

namespace fm = funcmesh;

namespace {

constexpr int max_neighbours = 4;  // quads and tetrahedra have four faces
using neighbour_list = fm::vec<fm::index_t, max_neighbours>;

using test_support::world_rank;
using test_support::world_size;

fm::mesh make_mesh(bool tets) { return tets ? fm::box3d_tet(5, 4, 3) : fm::box2d_quad(16, 12); }

// Every rank builds the same mesh and the same (deterministic) partition, then keeps its part.
struct setup_of {
  explicit setup_of(bool tets)
      : global(make_mesh(tets)),
        layout(fm::distribute_generated(MPI_COMM_WORLD, [tets] { return make_mesh(tets); })),
        local(layout.mesh()) {}
  fm::mesh global;
  fm::distributed_layout layout;
  const fm::local_mesh& local;
};

double value_of(fm::index_t global) { return 1000.0 * static_cast<double>(global) + 0.5; }

// Face neighbours of each of the first `count` cells of `m`, ordered by `order` (global
// ids), padded with -1: the same summation order on every rank count.
std::vector<neighbour_list> neighbours(const fm::mesh& m, fm::index_t count,
                                       const std::vector<fm::index_t>& order) {
  const fm::graph g = fm::dual_graph(m);
  std::vector<neighbour_list> out(static_cast<std::size_t>(count));
  for (fm::index_t c = 0; c < count; ++c) {
    const auto c_ = static_cast<std::size_t>(c);
    std::vector<fm::index_t> list(g.adjacency.begin() + g.offsets[c_],
                                  g.adjacency.begin() + g.offsets[c_ + 1]);
    std::ranges::sort(list, [&](fm::index_t a, fm::index_t b) {
      return order[static_cast<std::size_t>(a)] < order[static_cast<std::size_t>(b)];
    });
    EXPECT_LE(list.size(), std::size_t{max_neighbours});
    for (int k = 0; k < max_neighbours; ++k) {
      out[c_][k] = k < static_cast<int>(list.size()) ? list[static_cast<std::size_t>(k)] : -1;
    }
  }
  return out;
}

// u_new[i] = mean of u over i's face neighbours.
const auto average = fm::_([](fm::proxy<const double> u, neighbour_list n) {
  double sum = 0.0;
  int count = 0;
  for (int k = 0; k < max_neighbours; ++k) {
    if (n[k] >= 0) {
      sum += u[n[k]];
      ++count;
    }
  }
  return count > 0 ? sum / count : 0.0;
});

template <class T>
void fill_owned(fm::dist_function<T>& u, const fm::local_mesh& m, auto value) {
  auto w = u.local_values().write();
  for (fm::index_t i = 0; i < m.owned_count; ++i) {
    w[i] = value(m.global_cell[static_cast<std::size_t>(i)]);
  }
}

// Each case on both meshes, on every host executor and on the simulated device (the halo
// packed and unpacked there, staged through pinned host memory).
class halo : public ::testing::TestWithParam<std::tuple<bool, fm::executor>> {
 protected:
  static bool tets() { return std::get<0>(GetParam()); }
  fm::scoped_executor executor_{std::get<1>(GetParam())};
};

// Each owned cell's face neighbours (by global id), as a grid function for proxies.
fm::grid_function<neighbour_list> neighbour_field(const fm::local_mesh& m) {
  fm::grid_function<neighbour_list> nbr(m.owned_count, m.halo_count(), "neighbours");
  {
    const auto lists = neighbours(m.cells, m.owned_count, m.global_cell);
    auto w = nbr.write();
    std::ranges::copy(lists, w.begin());
  }
  return nbr;
}

TEST_P(halo, scalar_and_vector_halos_equal_their_owners_values) {
  const setup_of s(tets());
  const fm::local_mesh& m = s.local;
  fm::dist_function<double> u(s.layout, "u");
  fm::dist_function<fm::vec<double, 3>> v(s.layout, "v");
  EXPECT_EQ(&u.layout().exchange_plan(), &v.layout().exchange_plan())
      << "one plan per layout, shared";
  if (world_size() > 1) {
    EXPECT_GT(m.halo_count(), 0);
  }
  auto vector_of = [](fm::index_t g) {
    const double x = value_of(g);
    return fm::vec<double, 3>{x, 2.0 * x, -x};
  };
  fill_owned(u, m, value_of);
  fill_owned(v, m, vector_of);
  EXPECT_TRUE(u.halo_stale());
  u.exchange();
  v.exchange();
  EXPECT_FALSE(u.halo_stale());
  EXPECT_FALSE(v.halo_stale());
  const auto ur = u.local_values().read();
  const auto vr = v.local_values().read();
  for (fm::index_t i = m.owned_count; i < m.cells.cell_count(); ++i) {
    const fm::index_t g = m.global_cell[static_cast<std::size_t>(i)];
    ASSERT_EQ(ur[i], value_of(g)) << "halo cell " << i << " (global " << g << ")";
    for (int k = 0; k < 3; ++k) ASSERT_EQ(vr[i][k], vector_of(g)[k]);
  }
}

TEST_P(halo, several_fields_in_one_round) {
  const setup_of s(tets());
  const fm::local_mesh& m = s.local;
  fm::halo_plan* plan = &s.layout.exchange_plan();
  fm::dist_function<double> a(s.layout, "a");
  fm::dist_function<fm::vec<double, 2>> b(s.layout, "b");
  fill_owned(a, m, value_of);
  fill_owned(b, m, [](fm::index_t g) { return fm::vec<double, 2>{value_of(g), -value_of(g)}; });
  const auto rounds = plan->exchange_count();
  const fm::halo_field fields[] = {{&a.local_values(), sizeof(double)},
                                   {&b.local_values(), sizeof(fm::vec<double, 2>)}};
  plan->exchange(fields);
  EXPECT_EQ(plan->exchange_count(), rounds + 1);
  const auto ar = a.local_values().read();
  const auto br = b.local_values().read();
  for (fm::index_t i = m.owned_count; i < m.cells.cell_count(); ++i) {
    const double x = value_of(m.global_cell[static_cast<std::size_t>(i)]);
    ASSERT_EQ(ar[i], x);
    ASSERT_EQ(br[i][0], x);
    ASSERT_EQ(br[i][1], -x);
  }
}

TEST_P(halo, exchanges_only_when_stale) {
  const setup_of s(tets());
  const fm::local_mesh& m = s.local;
  fm::dist_function<double> u(s.layout, "u"), v(s.layout, "v");
  const auto nbr = neighbour_field(m);
  fill_owned(u, m, value_of);
  EXPECT_EQ(u.exchange_count(), 0u);
  v = average / fm::pure(fm::pr(u)) * nbr;  // u is stale: exchanged, overlapped
  EXPECT_EQ(u.exchange_count(), 1u);
  v = average / fm::pure(fm::pr(u)) * nbr;  // not stale: no exchange
  u.exchange();
  EXPECT_EQ(u.exchange_count(), 1u);
  v = 2.0 * v.local_values();  // v is not read through a proxy: nothing to exchange
  EXPECT_EQ(v.exchange_count(), 0u);
  u += 1.0;  // a write makes u stale again
  EXPECT_TRUE(u.halo_stale());
  v = average / fm::pure(fm::pr(u)) * nbr;
  EXPECT_EQ(u.exchange_count(), 2u);
  EXPECT_FALSE(u.halo_stale());
}

// A write on one rank only (boundary values set where a rank has them), followed by
// mark_halo_stale() on every rank (the SPMD contract): every rank takes part in the round,
// nobody waits forever, and the neighbours of the changed cells see the new values.
TEST_P(halo, a_write_on_one_rank_then_mark_halo_stale_everywhere_is_exchanged_by_all) {
  const setup_of s(tets());
  const fm::local_mesh& m = s.local;
  fm::dist_function<double> u(s.layout, "u"), v(s.layout, "v");
  const auto nbr = neighbour_field(m);
  fill_owned(u, m, value_of);
  v = average / fm::pure(fm::pr(u)) * nbr;
  const auto rounds = u.exchange_count();
  if (world_rank() == 0) {
    auto w = u.write();
    for (fm::index_t c = 0; c < m.owned_count; ++c) w[c] += 1.0;
  }
  u.mark_halo_stale();                      // on every rank
  v = average / fm::pure(fm::pr(u)) * nbr;  // dirty everywhere: a round for all
  EXPECT_EQ(u.exchange_count(), rounds + 1);
  // Halo copies of rank 0's cells carry the new values.
  const auto values = u.local_values().to_vector();
  for (fm::index_t c = m.owned_count; c < m.cells.cell_count(); ++c) {
    const fm::index_t g = m.global_cell[static_cast<std::size_t>(c)];
    const bool from_rank_0 = c >= m.halo_owner_offsets[0] && c < m.halo_owner_offsets[1];
    EXPECT_EQ(values[static_cast<std::size_t>(c)], value_of(g) + (from_rank_0 ? 1.0 : 0.0));
  }
}

TEST_P(halo, neighbour_average_matches_one_rank_and_plain_run) {
  const setup_of s(tets());
  const fm::local_mesh& m = s.local;
  // One rank, global mesh, plain loops.
  const fm::index_t n = s.global.cell_count();
  std::vector<fm::index_t> identity(static_cast<std::size_t>(n));
  for (fm::index_t c = 0; c < n; ++c) identity[static_cast<std::size_t>(c)] = c;
  const auto global_lists = neighbours(s.global, n, identity);
  std::vector<double> start(static_cast<std::size_t>(n)), expected(start.size());
  for (fm::index_t c = 0; c < n; ++c) start[static_cast<std::size_t>(c)] = value_of(c);
  for (std::size_t c = 0; c < start.size(); ++c) {
    double sum = 0.0;
    int count = 0;
    for (int k = 0; k < max_neighbours; ++k) {
      if (global_lists[c][k] >= 0) {
        sum += start[static_cast<std::size_t>(global_lists[c][k])];
        ++count;
      }
    }
    expected[c] = sum / count;
  }

  fm::dist_function<double> u(s.layout, "u"), split(s.layout, "split");
  const auto nbr = neighbour_field(m);
  fill_owned(u, m, value_of);
  split = average / fm::pure(fm::pr(u)) * nbr;  // split phase: interior, exchange, boundary
  // The same after a plain exchange and one full framework loop over the owned cells.
  fm::grid_function<double> plain(m.owned_count, m.halo_count(), "plain");
  plain = average / fm::pure(fm::pr(u.local_values())) * nbr;
  const auto sr = split.local_values().read();
  const auto pr_ = plain.read();
  for (fm::index_t i = 0; i < m.owned_count; ++i) {
    const fm::index_t g = m.global_cell[static_cast<std::size_t>(i)];
    ASSERT_EQ(sr[i], expected[static_cast<std::size_t>(g)]) << "global cell " << g;
    ASSERT_EQ(pr_[i], sr[i]);
  }
}

TEST_P(halo, aliasing_assignment_is_refused_before_any_message) {
  const setup_of s(tets());
  fm::dist_function<double> u(s.layout, "u");
  fill_owned(u, s.local, value_of);
  auto left = fm::_([](fm::proxy<const double> p, fm::index_t i) { return p[i > 0 ? i - 1 : i]; });
  EXPECT_THROW(u = left / fm::pure(fm::pr(u)) * fm::index(), fm::aliasing_error);
  EXPECT_EQ(u.exchange_count(), 0u);
  EXPECT_FALSE(u.layout().exchange_plan().in_flight());
}

TEST(halo_plan, a_layout_has_one_plan_that_lives_while_a_function_uses_it) {
  fm::dist_function<double> kept = [] {
    const setup_of s(false);
    return fm::dist_function<double>(s.layout, "kept");
  }();  // the layout handle is gone, the function keeps the layout alive
  fill_owned(kept, kept.layout().mesh(), value_of);
  kept.exchange();
  const fm::local_mesh& m = kept.layout().mesh();
  const auto r = kept.local_values().read();
  for (fm::index_t i = m.owned_count; i < m.cells.cell_count(); ++i) {
    ASSERT_EQ(r[i], value_of(m.global_cell[static_cast<std::size_t>(i)]));
  }
}

INSTANTIATE_TEST_SUITE_P(
    meshes, halo,
    ::testing::Combine(::testing::Values(false, true),
                       ::testing::ValuesIn(test_support::host_and_simulated_executors())),
    [](const auto& info) {
      std::string name = test_support::executor_name{}(
          ::testing::TestParamInfo<fm::executor>(std::get<1>(info.param), info.index));
      return (std::get<0>(info.param) ? "tet3d_" : "quad2d_") + name;
    });

}  // namespace
