// Paged distributed functions against the in-memory dist_function (the oracle): the same
// local values, on a file store whose data are 4x its cache, give the same bits after a
// face-sum assignment (halo exchanged through the cache, overlapped), the same halo
// values, reductions and time steps; the dirty bit and the refusals work as for
// dist_function.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <funcmesh/comm.hpp>
#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/time.hpp>

#include "../framework/paged/paged_test_support.hpp"

namespace {

namespace fm = funcmesh;

fm::mesh box() {
  fm::box_options options;
  options.perturbation = 0.12;
  return fm::box2d_quad(23, 17, options);
}

struct flux {
  FUNCMESH_DEVICE double operator()(double l, double r, const fm::face_view& f) const {
    return (r - l) * f.area / f.distance + 0.25 * f.normal[1] * (l + r) * f.area;
  }
};
struct closed {
  FUNCMESH_DEVICE double operator()(double u, const fm::face_view& f) const {
    return -0.5 * u * f.area;
  }
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// u in memory and pu paged, with the same owned values; both halos dirty.
struct setup {
  fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, box);
  fm::index_t owned = layout.owned_count();
  fm::index_t total = layout.total_count();
  fm::testing::temporary_directory dir;
  fm::file_store disk{dir.path()};
  // At least 8 pages, 2 cached: the data are 4x the cache or more.
  fm::paged_options pages{.page = std::max<fm::index_t>(1, (total + 7) / 8), .cached = 2};
  fm::dist_function<double> u{layout, "u"}, v{layout, "v"};
  fm::paged_dist_function<double> pu{layout, disk, pages, "pu"}, pv{layout, disk, pages, "pv"};

  setup() {
    std::vector<double> start(static_cast<std::size_t>(owned));
    auto w = u.write();
    for (fm::index_t c = 0; c < owned; ++c) {
      const auto& x = layout.faces().cell_centroids()[static_cast<std::size_t>(c)];
      w[c] = start[static_cast<std::size_t>(c)] = std::sin(4 * x[0]) + 0.1 + x[1] * x[1];
    }
    pu.write(0, start);
  }
  auto rhs_of(const auto& f) const {
    return fm::sum_over_faces(layout, flux{}, f, fm::on_other_groups(closed{})) / layout.volume();
  }
  void expect_same_owned(const fm::dist_function<double>& a,
                         const fm::paged_dist_function<double>& b, const std::string& what) const {
    const auto want = a.local_values().to_vector(), got = b.to_vector();
    ASSERT_EQ(got.size(), static_cast<std::size_t>(owned));
    for (fm::index_t c = 0; c < owned; ++c) {
      const auto k = static_cast<std::size_t>(c);
      ASSERT_TRUE(same_bits(got[k], want[k]))
          << what << ": cell " << c << ": " << got[k] << " vs " << want[k];
    }
  }
};

TEST(paged_dist_function, is_cut_into_more_pages_than_it_caches) {
  setup s;
  EXPECT_EQ(s.pu.owned_size(), s.owned);
  EXPECT_EQ(s.pu.local_values().size(), s.total);
  EXPECT_GE(s.pu.pages(), 4 * s.pages.cached);
  EXPECT_TRUE(s.pu.halo_stale());
}

TEST(paged_dist_function, a_face_sum_gives_the_in_memory_bits_and_halo) {
  setup s;
  const auto rounds = s.layout.exchange_plan().exchange_count();
  s.v = s.u + 0.01 * s.rhs_of(s.u);
  s.pv = s.pu + 0.01 * s.rhs_of(s.pu);
  s.expect_same_owned(s.v, s.pv, "v = u + 0.01 rhs(u)");
  EXPECT_EQ(s.pu.exchange_count(), 1u);
  EXPECT_FALSE(s.pu.halo_stale());
  EXPECT_EQ(s.layout.exchange_plan().exchange_count(), rounds + 2);  // one round each
  // The halo came through the cache: the owners' values, as in memory.
  const auto halo = s.u.read();
  for (fm::index_t c = s.owned; c < s.total; ++c) {
    ASSERT_TRUE(same_bits(s.pu.get(c), halo[c])) << "halo cell " << c;
  }
  // A clean halo is not exchanged again.
  s.pv = 2.0 * s.rhs_of(s.pu);
  EXPECT_EQ(s.pu.exchange_count(), 1u);
  // A write makes it dirty again.
  s.pu.set(0, 1.5);
  EXPECT_TRUE(s.pu.halo_stale());
  s.pu.mark_halo_stale();
  s.pu.exchange();
  EXPECT_FALSE(s.pu.halo_stale());
  EXPECT_EQ(s.pu.exchange_count(), 2u);
}

// A paged assignment that reads an in-memory function at neighbours: both halos in one
// round, whose end writes u's halo with a token of the round's own, which the page loops
// after it (binding u with theirs) must find holding nothing.
TEST(paged_dist_function, reads_an_in_memory_function_at_neighbours) {
  setup s;
  const auto rounds = s.layout.exchange_plan().exchange_count();
  s.pv = s.pu + 0.01 * s.rhs_of(s.u);
  EXPECT_EQ(s.layout.exchange_plan().exchange_count(), rounds + 1);
  EXPECT_FALSE(s.u.halo_stale());
  s.v = s.u + 0.01 * s.rhs_of(s.u);
  s.expect_same_owned(s.v, s.pv, "pv = pu + 0.01 rhs(u)");
}

TEST(paged_dist_function, compound_assignments_and_copies_match) {
  setup s;
  s.v = s.u;
  s.pv = s.pu;
  s.v += s.rhs_of(s.u);
  s.pv += s.rhs_of(s.pu);
  s.v *= 0.5 + 0.0 * s.u;
  s.pv *= 0.5 + 0.0 * s.pu;
  s.v -= s.u * s.u;
  s.pv -= s.pu * s.pu;
  s.v /= 1.0 + s.u * s.u;
  s.pv /= 1.0 + s.pu * s.pu;
  s.expect_same_owned(s.v, s.pv, "compound assignments");
}

TEST(paged_dist_function, global_reductions_equal_the_in_memory_ones) {
  setup s;
  const fm::reduce_options exact{.reproducible = true};
  EXPECT_TRUE(same_bits(fm::global_sum(s.layout.volume() * s.pu, exact),
                        fm::global_sum(s.layout.volume() * s.u, exact)));
  // Reading a dirty halo at neighbours: exchanged first, in the reduction.
  EXPECT_TRUE(
      same_bits(fm::global_sum(s.rhs_of(s.pu), exact), fm::global_sum(s.rhs_of(s.u), exact)));
  EXPECT_EQ(s.pu.exchange_count(), 1u);
  EXPECT_EQ(fm::global_max(s.pu), fm::global_max(s.u));
  EXPECT_EQ(fm::global_min(s.pu), fm::global_min(s.u));
}

TEST(paged_dist_function, time_steps_give_the_in_memory_bits) {
  setup s;
  namespace time = fm::time;
  time::options o;
  o.t_end = 0.02;
  o.dt = 0.002;
  auto rhs_memory = [&](const fm::dist_function<double>& f) { return s.rhs_of(f); };
  auto rhs_paged = [&](const fm::paged_dist_function<double>& f) { return s.rhs_of(f); };
  const auto in_memory = time::driver(time::ssp_rk3{}, o)(s.u, rhs_memory);
  const auto paged = time::driver(time::ssp_rk3{}, o)(s.pu, rhs_paged);
  EXPECT_EQ(paged.steps, in_memory.steps);
  EXPECT_GE(paged.steps, 10);
  s.expect_same_owned(s.u, s.pu, "ssp-rk3 steps");
}

// With the SPMD check on (Debug builds, FUNCMESH_CHECK_SPMD=1), a paged assignment's
// refusals come agreed (paged_distributed_assign.hpp): mpi::collective_error on every rank.
template <class Refusal, class F>
void expect_refused(F&& assignment) {
  if (fm::spmd_check_enabled()) {
    EXPECT_THROW(assignment(), fm::mpi::collective_error);
  } else {
    EXPECT_THROW(assignment(), Refusal);
  }
}

TEST(paged_dist_function, refuses_what_dist_function_refuses) {
  setup s;
  // The target read at neighbours: iterations would read what the loop overwrites.
  expect_refused<fm::aliasing_error>([&] { s.pu = s.rhs_of(s.pu); });
  // Another iteration space: the halo is the owners' to compute.
  EXPECT_THROW(s.pu.assign(s.pv + 1.0, {.over = fm::iteration_space::range(0, 1)}), fm::error);
  // Over owned and halo cells (a dist_function's with_halo()): refused, saying so.
  try {
    s.pu.assign(s.pv + 1.0, fm::with_halo());
    ADD_FAILURE() << "a paged assignment over owned and halo cells was accepted";
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find("with_halo() is for dist_function"), std::string::npos)
        << e.what();
  }
  // A device executor: the pages are mapped in host memory.
  expect_refused<fm::paged_error>(
      [&] { s.pu.assign(s.pv + 1.0, {.on = fm::executor::simulated_device(0)}); });
  // Nothing was sent: a later exchange still works on every rank.
  s.pv = s.pu + 1.0;
  EXPECT_EQ(s.pu.exchange_count(), 0u);
  fm::paged_dist_function<double> moved = std::move(s.pv);
  EXPECT_THROW((void)s.pv.owned_size(), fm::error);
  EXPECT_EQ(moved.owned_size(), s.owned);
}

// A rank whose halo packing fails (its file truncated behind its back: a read error)
// throws; the round still completes, so the other ranks neither hang nor fail, and they
// receive NaN, not stale values, from that rank.
TEST(paged_dist_function, a_failed_pack_throws_on_its_rank_and_hangs_no_other) {
  setup s;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 1) GTEST_SKIP() << "needs a neighbour to send to";
  const auto& store = static_cast<const fm::file_store&>(s.pu.local_values().array().store());
  if (rank == 0) {
    ASSERT_EQ(::ftruncate(store.native_handle(), 0), 0);
    EXPECT_THROW(s.pu.exchange(), fm::store_error);
    EXPECT_TRUE(s.pu.halo_stale());
  } else {
    EXPECT_NO_THROW(s.pu.exchange());
    EXPECT_FALSE(s.pu.halo_stale());
    if (size == 2) {  // every halo cell of rank 1 is rank 0's
      for (fm::index_t c = s.owned; c < s.total; ++c) {
        ASSERT_TRUE(std::isnan(s.pu.get(c))) << "halo cell " << c;
      }
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  // The layout's plan still works: an in-memory exchange afterwards.
  s.u.exchange();
  EXPECT_FALSE(s.u.halo_stale());
}

}  // namespace
