// Distributed functions as operands: every expression form (arithmetic, fmap / apply /
// bind, where, math functions, zip_with, pure(pr(u)), face sums), every compound
// assignment, fused runs and global reductions give the same values as the same forms on
// plain grid functions holding the same local values; halos read at neighbours are
// exchanged once when dirty; functions of two layouts never meet.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <funcmesh/comm.hpp>
#include <funcmesh/func/function.hpp>
#include <funcmesh/time.hpp>

#include "../common/executor_params.hpp"

namespace {

namespace fm = funcmesh;

fm::mesh box() {
  fm::box_options options;
  options.perturbation = 0.12;
  return fm::box2d_quad(19, 13, options);
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

// u, w distributed with smooth owned values and a dirty halo; gu, gw plain grid functions
// with the same owned values and the owners' values in their halo.
struct setup {
  fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, box);
  fm::index_t owned = layout.owned_count();
  fm::index_t halo = layout.total_count() - owned;
  fm::dist_function<double> u{layout, "u"}, w{layout, "w"}, v{layout, "v"};
  fm::grid_function<double> gu{owned, halo, "gu"}, gw{owned, halo, "gw"}, gv{owned, halo, "gv"};

  setup() {
    {
      auto a = u.write();
      auto b = w.write();
      for (fm::index_t c = 0; c < owned; ++c) {
        const auto& x = layout.faces().cell_centroids()[static_cast<std::size_t>(c)];
        a[c] = std::sin(4 * x[0]) + 0.1;
        b[c] = 1.5 + x[0] * x[1];
      }
    }
    // The plain twins hold the exchanged values; u and w are dirty again afterwards.
    fm::dist_function<double> cu = u, cw = w;
    cu.exchange();
    cw.exchange();
    gu = cu.local_values();
    gw = cw.local_values();
  }
  // v's and gv's owned values, bit for bit.
  void expect_same(const std::string& what) const {
    const auto a = v.local_values().to_vector(), b = gv.to_vector();
    for (fm::index_t c = 0; c < owned; ++c) {
      const auto k = static_cast<std::size_t>(c);
      ASSERT_EQ(a[k], b[k]) << what << ": cell " << c;
    }
  }
};

struct axpy3 {
  FUNCMESH_DEVICE double operator()(double a, double b, double c) const { return a * b + c; }
};
struct half_of {
  FUNCMESH_DEVICE double operator()(double a) const { return 0.5 * a; }
};
struct twice_pure {
  FUNCMESH_DEVICE auto operator()(double a) const { return fm::pure(2.0 * a); }
};
struct left_neighbour {
  FUNCMESH_DEVICE double operator()(fm::proxy<const double> p, fm::index_t i) const {
    return p[i > 0 ? i - 1 : i] + 0.5 * p[i];
  }
};

TEST(dist_function, every_expression_form_equals_the_grid_function_form) {
  setup s;
  s.v = 2.0 * s.u + s.w * s.u - 1.0;
  s.gv = 2.0 * s.gu + s.gw * s.gu - 1.0;
  s.expect_same("arithmetic");
  s.v = fm::_(axpy3{}) / s.u * s.w * fm::pure(0.5);
  s.gv = fm::_(axpy3{}) / s.gu * s.gw * fm::pure(0.5);
  s.expect_same("fmap and apply");
  s.v = fm::_(half_of{}) / (s.u - s.w);
  s.gv = fm::_(half_of{}) / (s.gu - s.gw);
  s.expect_same("fmap of an expression");
  s.v = s.u >>= twice_pure{};
  s.gv = s.gu >>= twice_pure{};
  s.expect_same("bind");
  s.v = fm::where(s.u > 0.0, s.u, -s.w);
  s.gv = fm::where(s.gu > 0.0, s.gu, -s.gw);
  s.expect_same("where");
  s.v = fm::sqrt(fm::abs(s.u)) + fm::exp(-s.w);
  s.gv = fm::sqrt(fm::abs(s.gu)) + fm::exp(-s.gw);
  s.expect_same("math functions");
  s.v = fm::zip_with(axpy3{}, s.u, s.w, s.u);
  s.gv = fm::zip_with(axpy3{}, s.gu, s.gw, s.gu);
  s.expect_same("zip_with");
  EXPECT_EQ(s.u.exchange_count() + s.w.exchange_count(), 0u) << "nothing read at neighbours";
}

TEST(dist_function, proxy_and_face_reads_exchange_a_dirty_halo_once) {
  setup s;
  s.v = fm::_(left_neighbour{}) / fm::pure(fm::pr(s.u)) * fm::index();
  s.gv = fm::_(left_neighbour{}) / fm::pure(fm::pr(s.gu)) * fm::index();
  s.expect_same("pure(pr(u))");
  EXPECT_EQ(s.u.exchange_count(), 1u);
  s.v = fm::sum_over_faces(s.layout, flux{}, s.u, fm::on_other_groups(closed{}));
  s.gv = fm::sum_over_faces(s.layout, flux{}, s.gu, fm::on_other_groups(closed{}));
  s.expect_same("sum_over_faces");
  EXPECT_EQ(s.u.exchange_count(), 1u) << "clean: not exchanged again";
  // An input expression reading two dirty halos: both in one round.
  const auto rounds = s.layout.exchange_plan().exchange_count();
  s.u += 0.0;  // written: dirty again
  s.v = fm::sum_over_faces(s.layout, flux{}, 2.0 * s.u + s.w, fm::on_other_groups(closed{}));
  s.gv = fm::sum_over_faces(s.layout, flux{}, 2.0 * s.gu + s.gw, fm::on_other_groups(closed{}));
  s.expect_same("a face sum of an expression");
  EXPECT_EQ(s.layout.exchange_plan().exchange_count(), rounds + 1);
  EXPECT_EQ(s.u.exchange_count(), 2u);
  EXPECT_EQ(s.w.exchange_count(), 1u);
  EXPECT_THROW(s.u = fm::sum_over_faces(s.layout, flux{}, s.u, fm::on_other_groups(closed{})),
               fm::aliasing_error);
}

// One assignment checks and binds its expression once, its halo dirty or not: the
// owned-interior cells, run in chunks while the halo round progresses, and the cells next to
// the halo share one bound loop, the round's end unpacking the halo through the loop's own
// token in the loop's memory space (the simulated device's too; and the host's when
// serial-only work runs there while the round's executor is the device). Was one bind per
// chunk, then two per assignment. The same bits as the clean-halo path (no round), and a
// time loop allocates its flux windows once.
TEST(dist_function, an_assignment_binds_once_for_all_the_chunks_of_its_round) {
  const int chunks_before = fm::halo_progress_chunks();
  fm::set_halo_progress_chunks(8);
  const fm::distributed_layout layout =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_quad(256, 256); });
  const fm::index_t chunks = fm::detail::progress_chunk_count(layout.interior_count());
  ASSERT_GE(chunks, 3) << "the interior must be cut into chunks for this test to mean anything";
  fm::dist_function<double> u(layout, "u"), out(layout, "out"), clean(layout, "clean");
  auto face_sum = [&] {
    return fm::sum_over_faces(layout, fm::antisymmetric(flux{}), u, fm::on_other_groups(closed{}));
  };
  for (const fm::executor& on : test_support::host_and_simulated_executors()) {
    SCOPED_TRACE(on.name());
    const fm::scoped_executor chosen(on);
    fm::detail::release_idle_flux_windows();
    const std::uint64_t windows_before = fm::detail::flux_window_allocations();
    for (int step = 0; step < 4; ++step) {
      u = fm::index() * (0.5 + step);  // new values: its halo is dirty
      const std::uint64_t exchanges = u.exchange_count();
      std::uint64_t before = fm::detail::loop_binds();
      const bool host_work = step % 2 == 1;
      if (host_work) {
        out = fm::serial_only(half_of{}) / face_sum();
      } else {
        out = face_sum();
      }
      EXPECT_EQ(fm::detail::loop_binds() - before, 1u) << chunks << " chunks, step " << step;
      EXPECT_EQ(u.exchange_count(), exchanges + 1);
      // Clean halos: one loop over the owned cells, no round, one bind.
      const std::uint64_t rounds = layout.exchange_plan().exchange_count();
      before = fm::detail::loop_binds();
      clean = (host_work ? 0.5 : 1.0) *
              fm::sum_over_faces(layout, flux{}, u, fm::on_other_groups(closed{}));
      EXPECT_EQ(fm::detail::loop_binds() - before, 1u);
      EXPECT_EQ(layout.exchange_plan().exchange_count(), rounds);
      const auto a = out.local_values().to_vector(), b = clean.local_values().to_vector();
      for (fm::index_t c = 0; c < layout.owned_count(); ++c) {
        const auto k = static_cast<std::size_t>(c);
        ASSERT_EQ(a[k], b[k]) << "step " << step << ", cell " << c
                              << (c >= layout.interior_count() ? " (beside the halo)" : "");
      }
    }
    // Windows on the host only (on the device, for the serial-only steps), allocated once
    // for all the steps: the later ones take the pool's idle buffer.
    const bool windows = layout.faces().flux_window() > 0;
    EXPECT_EQ(fm::detail::flux_window_allocations() - windows_before, windows ? 1u : 0u);
  }
  fm::set_halo_progress_chunks(chunks_before);
}

// Eight distributed inputs of one face sum, seven of them dirty: one round for the dirty
// ones (more than the few kept inline), with and without the SPMD check.
TEST(dist_function, many_halo_reads_in_one_assignment) {
  setup s;
  for (const bool check : {false, true}) {
    fm::set_spmd_check(check);
    std::vector<fm::dist_function<double>> in;
    std::vector<fm::grid_function<double>> plain;
    for (int k = 0; k < 8; ++k) {
      in.emplace_back(s.layout, "in" + std::to_string(k));
      in.back() = (1.0 + k) * s.u + s.w;
      if (k == 0) in.back().exchange();  // clean; the others stay dirty
      fm::dist_function<double> filled = in.back();
      filled.exchange();
      plain.push_back(filled.local_values());
    }
    const auto rounds = s.layout.exchange_plan().exchange_count();
    s.v = fm::sum_over_faces(s.layout, flux{},
                             in[0] + in[1] + in[2] + in[3] + in[4] + in[5] + in[6] + in[7],
                             fm::on_other_groups(closed{}));
    s.gv = fm::sum_over_faces(
        s.layout, flux{},
        plain[0] + plain[1] + plain[2] + plain[3] + plain[4] + plain[5] + plain[6] + plain[7],
        fm::on_other_groups(closed{}));
    s.expect_same(check ? "eight inputs, checked" : "eight inputs");
    EXPECT_EQ(s.layout.exchange_plan().exchange_count(), rounds + 1) << "one round for all";
    for (int k = 0; k < 8; ++k) {
      // in0 by its exchange(), the others in the assignment's round: once each.
      EXPECT_EQ(in[static_cast<std::size_t>(k)].exchange_count(), 1u);
      EXPECT_FALSE(in[static_cast<std::size_t>(k)].halo_stale());
    }
  }
  fm::set_spmd_check(false);
}

TEST(dist_function, a_moved_from_function_refuses_use_until_given_one) {
  setup s;
  fm::dist_function<double> moved = std::move(s.v);
  EXPECT_THROW((void)s.v.layout(), fm::error);
  EXPECT_THROW(s.v = s.u + 1.0, fm::error);
  s.v = moved;  // given a function again
  EXPECT_TRUE(s.v.layout() == s.layout);
  s.v = s.u + 1.0;
}

TEST(dist_function, compound_assignments_and_copies) {
  setup s;
  s.v = s.u;
  s.gv = s.gu;  // (a value copy, halo included: only owned values are compared)
  s.v += s.w;
  s.gv += s.gw;
  s.v -= 0.5 * s.u;
  s.gv -= 0.5 * s.gu;
  s.v *= s.w;
  s.gv *= s.gw;
  s.v /= 3.0;
  s.gv /= 3.0;
  s.expect_same("+= -= *= /=");
  EXPECT_TRUE(s.v.halo_stale()) << "every assignment writes: the halo is dirty";
  const fm::dist_function<double> copy = s.v;
  EXPECT_EQ(copy.name(), "v");
  const auto a = copy.local_values().to_vector(), b = s.v.local_values().to_vector();
  for (fm::index_t c = 0; c < s.owned; ++c) {
    ASSERT_EQ(a[static_cast<std::size_t>(c)], b[static_cast<std::size_t>(c)]) << "cell " << c;
  }
}

TEST(dist_function, fused_runs_take_distributed_and_plain_targets) {
  setup s;
  fm::dist_function<double> a(s.layout, "a");
  fm::grid_function<double> plain(s.owned, s.halo, "plain");
  // The second statement reads u at neighbours: one exchange for the fused loop.
  fm::run({}, fm::set(a, s.u + 1.0),
          fm::set(s.v, fm::sum_over_faces(s.layout, flux{}, s.u, fm::on_other_groups(closed{}))),
          fm::set(plain, 2.0 * s.u));
  EXPECT_EQ(s.u.exchange_count(), 1u);
  s.gv = fm::sum_over_faces(s.layout, flux{}, s.gu, fm::on_other_groups(closed{}));
  s.expect_same("fused face sum");
  const auto av = a.local_values().to_vector(), pv = plain.to_vector(),
             uv = s.u.local_values().to_vector();
  for (fm::index_t c = 0; c < s.owned; ++c) {
    const auto k = static_cast<std::size_t>(c);
    ASSERT_EQ(av[k], uv[k] + 1.0);
    ASSERT_EQ(pv[k], 2.0 * uv[k]);
  }
  fm::run({}, fm::add_to(a, s.w), fm::multiply_by(s.v, 2.0));
  // A distributed loop computes the owned cells, or owned and halo cells (with_halo_test):
  // another iteration space is refused.
  EXPECT_THROW(fm::run({.over = fm::iteration_space::range(0, 1)}, fm::set(a, 1.0)), fm::error);
  // Targets of two layouts in one loop are refused, naming both.
  const fm::distributed_layout other = fm::distribute_generated(MPI_COMM_WORLD, box);
  fm::dist_function<double> elsewhere(other, "elsewhere");
  try {
    fm::run({}, fm::set(a, 1.0), fm::set(elsewhere, 2.0));
    ADD_FAILURE() << "no error";
  } catch (const fm::error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'elsewhere'"), std::string::npos) << message;
    EXPECT_NE(message.find(other.describe()), std::string::npos) << message;
    EXPECT_NE(message.find(s.layout.describe()), std::string::npos) << message;
  }
}

TEST(dist_function, global_reductions_find_the_layout_and_refresh_dirty_halos) {
  setup s;
  const double by_layout = fm::global_sum(s.layout, s.layout.volume() * s.u);
  EXPECT_EQ(fm::global_sum(s.layout.volume() * s.u), by_layout);
  EXPECT_EQ(fm::global_sum(s.u, {.reproducible = true}),
            fm::global_sum(s.layout, s.gu, {.reproducible = true}));
  EXPECT_EQ(fm::global_max(s.u), fm::global_max(s.layout, s.gu));
  EXPECT_EQ(fm::global_minmax(s.w).min, fm::global_min(s.layout, s.gw));
  EXPECT_EQ(fm::global_dot(s.u, s.w, {.reproducible = true}),
            fm::global_dot(s.layout, s.gu, s.gw, {.reproducible = true}));
  EXPECT_EQ(fm::global_norm2(s.u - s.w), fm::global_norm2(s.layout, s.gu - s.gw));
  // A face sum reads u at neighbours: its dirty halo is exchanged before reducing.
  EXPECT_TRUE(s.u.halo_stale());
  const double faces =
      fm::global_sum(fm::sum_over_faces(s.layout, flux{}, s.u, fm::on_other_groups(closed{})),
                     {.reproducible = true});
  EXPECT_FALSE(s.u.halo_stale());
  EXPECT_EQ(faces,
            fm::global_sum(
                s.layout, fm::sum_over_faces(s.layout, flux{}, s.gu, fm::on_other_groups(closed{})),
                {.reproducible = true}));
  // No distributed function, no layout: refused alike on every rank, saying what to pass.
  try {
    (void)fm::global_sum(s.gu);
    ADD_FAILURE() << "no error";
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find("global_sum(layout, e)"), std::string::npos) << e.what();
  }
  const fm::distributed_layout other = fm::distribute_generated(MPI_COMM_WORLD, box);
  fm::dist_function<double> elsewhere(other, "elsewhere");
  elsewhere = 1.0;
  try {
    (void)fm::global_sum(s.u + elsewhere);
    ADD_FAILURE() << "no error";
  } catch (const fm::error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'u'"), std::string::npos) << message;
    EXPECT_NE(message.find("'elsewhere'"), std::string::npos) << message;
  }
  EXPECT_THROW((void)fm::global_sum(s.layout, s.u + elsewhere), fm::error);
}

TEST(dist_function, the_time_driver_steps_a_dist_function) {
  setup s;
  auto rhs = [&](const fm::dist_function<double>& x) {
    return fm::sum_over_faces(s.layout, flux{}, x, fm::on_other_groups(closed{})) /
           s.layout.volume();
  };
  auto grid_rhs = [&](const fm::grid_function<double>& x) {
    return fm::sum_over_faces(s.layout, flux{}, x, fm::on_other_groups(closed{})) /
           s.layout.volume();
  };
  fm::time::driver run(fm::time::ssp_rk3{}, {.steps = 3, .dt = 1e-3});
  run(s.u, rhs);
  EXPECT_GT(s.u.exchange_count(), 0u);
  if (s.layout.size() == 1) {
    // One rank: no halo, so the grid function run is the same computation.
    run(s.gu, grid_rhs);
    s.v = s.u;
    s.gv = s.gu;
    s.expect_same("three SSP-RK3 steps");
  }
}

}  // namespace
