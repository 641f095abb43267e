// fv's reconstruction on meshes, on every host executor and the simulated device: the face
// offsets' canonical bits, limited reconstructions that create no new extremum on a
// discontinuous field (every cell type), MUSCL Euler face fluxes exactly antisymmetric, a
// free stream that stays uniform, the stable step, and boundary tables' errors.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <funcmesh/exec/executor.hpp>
#include <funcmesh/expr/operators.hpp>
#include <funcmesh/faces.hpp>
#include <funcmesh/fv.hpp>

#include "../common/executor_params.hpp"
#include "fv_meshes.hpp"

namespace fm = funcmesh;
namespace fv = funcmesh::fv;
using fv_cases::named_mesh;

namespace {

using point = std::array<double, 3>;

bool same_bits(const fm::vec<double, 3>& a, const fm::vec<double, 3>& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// The gather entry of cell c for face f.
fm::index_t entry_of(const fm::face_set_view& v, fm::index_t c, fm::index_t f) {
  for (fm::index_t k = v.offsets[c]; k < v.offsets[c + 1]; ++k) {
    if (fm::face_set_view::face_of(v.entry_face[k]) == f) return k;
  }
  return -1;
}

// Seen from either cell, a face's two offsets swap with the same bits; on the domain
// boundary the other offset is zero and the cell's is face centroid - cell centroid.
TEST(face_offsets, swap_exactly_between_the_two_sides) {
  for (const named_mesh& m : fv_cases::meshes(0.2)) {
    SCOPED_TRACE(m.name);
    for (int which = 0; which < 2; ++which) {
      const fm::face_set faces(fv_cases::part_of(m.mesh, 2, which));
      fm::token holder;
      const fm::face_set_view v = faces.bind_to(fm::host_space, holder);
      fm::index_t interior = 0, boundary = 0;
      for (fm::index_t c = 0; c < faces.owned_count(); ++c) {
        for (fm::index_t k = v.offsets[c]; k < v.offsets[c + 1]; ++k) {
          const fm::face_view mine = v.entry(k);
          const fm::index_t n = v.other[k];
          if (n < 0) {
            ++boundary;
            EXPECT_TRUE(same_bits(mine.other_offset, {{0, 0, 0}}));
            const point& x = faces.cell_centroids()[static_cast<std::size_t>(c)];
            for (int d = 0; d < 3; ++d) EXPECT_EQ(mine.self_offset[d], mine.centroid[d] - x[d]);
            continue;
          }
          const fm::index_t back = entry_of(v, n, fm::face_set_view::face_of(v.entry_face[k]));
          ASSERT_GE(back, 0);
          ++interior;
          const fm::face_view theirs = v.entry(back);
          EXPECT_TRUE(same_bits(mine.self_offset, theirs.other_offset));
          EXPECT_TRUE(same_bits(mine.other_offset, theirs.self_offset));
        }
      }
      EXPECT_GT(interior, 0);
      EXPECT_GT(boundary, 0);
    }
  }
}

TEST(face_offsets, are_nan_when_not_stored_and_least_squares_then_refuses) {
  const fm::mesh mesh = fm::box2d_quad(4, 3);
  const fm::face_set faces(fv_cases::part_of(mesh, 1, 0), fm::default_face_block_size,
                           fm::face_set::automatic_flux_window, fm::face_geometry::minimal());
  fm::token holder;
  EXPECT_TRUE(std::isnan(faces.bind_to(fm::host_space, holder).entry(0).self_offset[0]));
  fm::grid_function<double> u(faces.owned_count(), "u");
  try {
    (void)fv::least_squares_gradient<2>(faces, u, fm::on_other_groups(fv::cell_value{}));
    FAIL() << "least squares without offsets was accepted";
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find("cell_offsets"), std::string::npos) << e.what();
  }
  const fm::face_set full(fv_cases::part_of(mesh, 1, 0));
  try {
    (void)fv::least_squares_gradient<3>(full, u, fm::on_other_groups(fv::cell_value{}));
    FAIL() << "a 3-D gradient of a 2-D mesh was accepted";
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find("2-D"), std::string::npos) << e.what();
  }
}

struct reconstruction : ::testing::TestWithParam<fm::executor> {};

// A step across a slanted line, with a gentle slope on each side.
double step(const point& x) {
  return (x[0] + 0.3 * x[1] - 0.2 * x[2] > 0.55 ? 1.0 : 0.0) + 0.05 * x[0];
}

// u_c + g . r_f at every face of every owned cell within [lo_c, hi_c]: how far outside at
// worst (0 when inside).
template <int D>
double worst_overshoot(const fm::face_set& faces, const std::vector<double>& u,
                       const std::vector<fm::vec<double, D>>& g,
                       const std::vector<fv::bounds<double>>& range) {
  fm::token holder;
  const fm::face_set_view v = faces.bind_to(fm::host_space, holder);
  double worst = 0;
  for (fm::index_t c = 0; c < faces.owned_count(); ++c) {
    const auto i = static_cast<std::size_t>(c);
    for (fm::index_t k = v.offsets[c]; k < v.offsets[c + 1]; ++k) {
      const double face = u[i] + fv::detail::increment<D>(g[i], v.entry(k).self_offset);
      worst = std::max({worst, range[i].lo - face, face - range[i].hi});
    }
  }
  return worst;
}

template <int D>
void no_new_extremum(const named_mesh& m) {
  SCOPED_TRACE(m.name);
  const fm::face_set faces(fv_cases::part_of(m.mesh, 1, 0));
  const auto u = fv_cases::sampled<double>(faces, step, "u");
  const fm::index_t n = faces.owned_count();
  fm::grid_function<fm::vec<double, D>> g(n, "g"), limited(n, "limited");
  fm::grid_function<fv::bounds<double>> range(n, "range");
  const auto walls = fm::on_other_groups(fv::cell_value{});
  g = fv::least_squares_gradient<D>(faces, u, walls);
  range = fv::neighbour_bounds(faces, u, walls);
  std::vector<double> values = u.to_vector();
  values.resize(static_cast<std::size_t>(n));
  EXPECT_GT(worst_overshoot<D>(faces, values, g.to_vector(), range.to_vector()), 0.05)
      << "the unlimited reconstruction overshoots at the step";
  limited = fv::limited_gradient<D>(faces, fv::barth_jespersen{}, u, g, range, 0.0);
  EXPECT_LE(worst_overshoot<D>(faces, values, limited.to_vector(), range.to_vector()), 1e-14);
  limited = fv::limited_gradient<D>(faces, fv::venkatakrishnan{}, u, g, range, 0.0);
  EXPECT_LE(worst_overshoot<D>(faces, values, limited.to_vector(), range.to_vector()), 1e-14);
  // Venkatakrishnan with eps^2 > 0 leaves small increments alone: a smooth field's gradient
  // is kept almost whole where its increments are below eps.
  limited = fv::limited_gradient<D>(faces, fv::venkatakrishnan{}, u, g, range,
                                    fv::venkatakrishnan_eps2(5.0, faces.volume_function()));
  for (const auto& row : limited.to_vector()) {
    for (int d = 0; d < D; ++d) ASSERT_TRUE(std::isfinite(row[d]));
  }

  // The slope limiters on the reconstructed differences: every face value between the two
  // cells' values.
  fm::token holder;
  const fm::face_set_view v = faces.bind_to(fm::host_space, holder);
  const auto all = u.to_vector();
  const auto grad = g.to_vector();
  auto check = [&](auto limiter, const char* name) {
    SCOPED_TRACE(name);
    const fv::slope_limited<D, decltype(limiter)> rule{limiter};
    for (fm::index_t c = 0; c < n; ++c) {
      const auto i = static_cast<std::size_t>(c);
      for (fm::index_t k = v.offsets[c]; k < v.offsets[c + 1]; ++k) {
        const fm::index_t other = v.other[k];
        if (other < 0) continue;
        const fm::face_view f = v.entry(k);
        const double neighbour = all[static_cast<std::size_t>(other)];
        const double face =
            rule.face_value(fv::reconstructed<double, fm::vec<double, D>>{all[i], grad[i]},
                            neighbour, f.self_offset, f.self_offset - f.other_offset);
        ASSERT_GE(face, std::min(all[i], neighbour));
        ASSERT_LE(face, std::max(all[i], neighbour));
      }
    }
  };
  check(fv::minmod{}, "minmod");
  check(fv::van_leer{}, "van Leer");
  check(fv::van_albada{}, "van Albada");
  check(fv::superbee{}, "superbee");
  check(fv::mc{}, "MC");
}

TEST_P(reconstruction, limited_reconstructions_create_no_new_extremum) {
  fm::scoped_executor chosen(GetParam());
  for (const named_mesh& m : fv_cases::meshes(0.2)) {
    if (m.mesh.dimension == 2) {
      no_new_extremum<2>(m);
    } else {
      no_new_extremum<3>(m);
    }
  }
}

// A smooth Euler state: density, velocity and pressure varying over the mesh.
template <int D>
fv::euler_state<D> smooth_state(const point& x) {
  const fv::ideal_gas<D> gas;
  fv::euler_state<D> w{};
  w[0] = 1 + 0.2 * std::sin(3 * x[0] + x[1]);
  for (int d = 0; d < D; ++d) w[1 + d] = 0.3 * std::cos(2 * x[d] + d) + 0.1 * d;
  w[D + 1] = 1 + 0.3 * x[0] * x[1] + 0.1 * x[2];
  return gas.to_conserved(w);
}

// Every interior face's flux, evaluated from each side through the face loop's own entries:
// exact negatives for every solver, reconstruction and mesh.
template <int D, class Solver, class Reconstruction>
void exact_negatives(const fm::face_set& faces, const Solver& solver,
                     const Reconstruction& reconstruction, const std::vector<fv::euler_state<D>>& u,
                     const std::vector<fv::gradient_t<fv::euler_state<D>, D>>& g) {
  fm::token holder;
  const fm::face_set_view v = faces.bind_to(fm::host_space, holder);
  const fv::face_flux<Solver, Reconstruction> flux{solver, reconstruction};
  using cell = fv::reconstructed<fv::euler_state<D>, fv::gradient_t<fv::euler_state<D>, D>>;
  fm::index_t checked = 0;
  for (fm::index_t c = 0; c < faces.owned_count(); ++c) {
    for (fm::index_t k = v.offsets[c]; k < v.offsets[c + 1]; ++k) {
      const fm::index_t n = v.other[k];
      if (n < 0 || n >= faces.owned_count()) continue;
      const fm::index_t back = entry_of(v, n, fm::face_set_view::face_of(v.entry_face[k]));
      const auto i = static_cast<std::size_t>(c), j = static_cast<std::size_t>(n);
      const auto mine = flux(cell{u[i], g[i]}, cell{u[j], g[j]}, v.entry(k));
      const auto theirs = flux(cell{u[j], g[j]}, cell{u[i], g[i]}, v.entry(back));
      const auto negated = -theirs;
      ASSERT_EQ(std::memcmp(&mine, &negated, sizeof mine), 0) << "cells " << c << ", " << n;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

template <int D>
void euler_fluxes_on(const named_mesh& m) {
  SCOPED_TRACE(m.name);
  const fm::face_set faces(fv_cases::part_of(m.mesh, 1, 0));
  const auto u = fv_cases::sampled<fv::euler_state<D>>(faces, smooth_state<D>, "u");
  fm::grid_function<fv::gradient_t<fv::euler_state<D>, D>> g(faces.owned_count(), "g");
  g = fv::least_squares_gradient<D>(faces, u, fm::on_other_groups(fv::cell_value{}));
  const auto values = u.to_vector();
  const auto gradients = g.to_vector();
  const fv::linear<D> linear;
  exact_negatives<D>(faces, fv::euler_rusanov<D>{}, linear, values, gradients);
  exact_negatives<D>(faces, fv::euler_hll<D>{}, linear, values, gradients);
  exact_negatives<D>(faces, fv::euler_hllc<D>{}, linear, values, gradients);
  exact_negatives<D>(faces, fv::euler_roe<D>{}, linear, values, gradients);
  exact_negatives<D>(faces, fv::euler_hllc<D>{}, fv::slope_limited<D, fv::van_leer>{}, values,
                     gradients);
}

TEST(euler_on_meshes, muscl_face_fluxes_are_exact_negatives_from_the_two_sides) {
  for (const named_mesh& m : fv_cases::meshes(0.2)) {
    if (m.mesh.dimension == 2) {
      euler_fluxes_on<2>(m);
    } else {
      euler_fluxes_on<3>(m);
    }
  }
}

// A uniform state with far-field conditions everywhere: every cell's faces close (sum of
// A n = 0), so du/dt is round-off on every mesh, every executor, first and second order.
template <int D>
double free_stream_rate(const fm::face_set& faces, bool second_order) {
  const fv::ideal_gas<D> gas;
  fv::euler_state<D> w{};
  w[0] = 1.2;
  for (int d = 0; d < D; ++d) w[1 + d] = 0.4 + 0.2 * d;
  w[D + 1] = 0.9;
  const fv::euler_state<D> free = gas.to_conserved(w);
  const auto u = fv_cases::sampled<fv::euler_state<D>>(
      faces, [&](const point&) { return free; }, "u");
  std::vector<std::pair<std::string, fv::euler_condition<D>>> conditions;
  for (const auto& group : faces.boundary_groups()) {
    conditions.emplace_back(group.second, fv::euler_condition<D>::far_field(free));
  }
  const fv::euler_outside<D> outside{gas, fv::make_boundary_table(faces, conditions)};
  const fm::grid_function<double> volume = faces.volume_function();
  fm::grid_function<fv::euler_state<D>> rate(faces.owned_count(), "rate");
  if (second_order) {
    fm::grid_function<fv::gradient_t<fv::euler_state<D>, D>> g(
        faces.owned_count(), faces.cell_count() - faces.owned_count(), "g");
    g = fv::least_squares_gradient<D>(faces, u, fm::on_other_groups(outside));
    rate = fm::sum_over_faces(
               faces, fm::antisymmetric(fv::face_flux<fv::euler_hllc<D>, fv::linear<D>>{{gas}}),
               fv::with_gradient(u, g),
               fm::on_other_groups(
                   fv::boundary_face_flux<fv::euler_hllc<D>, fv::euler_outside<D>, fv::linear<D>>{
                       {gas}, outside})) /
           volume;
  } else {
    rate = fm::sum_over_faces(
               faces, fv::face_flux<fv::euler_roe<D>>{{gas}}, u,
               fm::on_other_groups(fv::boundary_face_flux<fv::euler_roe<D>, fv::euler_outside<D>>{
                   {gas}, outside})) /
           volume;
  }
  double worst = 0;
  for (const auto& r : rate.to_vector()) {
    for (int k = 0; k < D + 2; ++k) worst = std::max(worst, std::abs(r[k]));
  }
  return worst;
}

TEST_P(reconstruction, a_free_stream_stays_uniform_on_every_mesh) {
  fm::scoped_executor chosen(GetParam());
  for (const named_mesh& m : fv_cases::meshes(0.2)) {
    SCOPED_TRACE(m.name);
    const fm::face_set faces(fv_cases::part_of(m.mesh, 1, 0));
    for (const bool second : {false, true}) {
      const double worst = m.mesh.dimension == 2 ? free_stream_rate<2>(faces, second)
                                                 : free_stream_rate<3>(faces, second);
      // Rates of order |F| / h ~ 10-100: round-off is ~1e-13 of that.
      EXPECT_LT(worst, 1e-11) << (second ? "second order" : "first order");
    }
  }
}

TEST(boundary_tables, name_the_mesh_groups_for_an_unknown_or_a_missing_group) {
  const fm::face_set faces(fv_cases::part_of(fm::box2d_quad(4, 3), 1, 0));
  using condition = fv::euler_condition<2>;
  auto message = [&](const std::vector<std::pair<std::string, condition>>& given) {
    try {
      (void)fv::make_boundary_table(faces, given);
    } catch (const fm::error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const condition wall = condition::slip_wall();
  const std::string unknown = message({{"left", wall}, {"inlet", wall}});
  EXPECT_NE(unknown.find("\"inlet\", which the mesh does not have"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("\"left\" \"right\" \"bottom\" \"top\""), std::string::npos) << unknown;
  const std::string missing = message({{"left", wall}, {"right", wall}});
  EXPECT_NE(missing.find("no boundary condition for the group(s) \"bottom\" \"top\""),
            std::string::npos)
      << missing;
  const std::string twice = message({{"left", wall}, {"left", wall}});
  EXPECT_NE(twice.find("two conditions"), std::string::npos) << twice;
  const auto table = fv::make_boundary_table(
      faces,
      std::vector<std::pair<std::string, condition>>{{"top", wall},
                                                     {"left", condition::supersonic_outflow()},
                                                     {"right", wall},
                                                     {"bottom", condition::pressure_outlet(0.5)}});
  EXPECT_EQ(table.at(faces.physical_id("left")).type, fv::euler_boundary_kind::supersonic_outflow);
  EXPECT_EQ(table.at(faces.physical_id("bottom")).pressure, 0.5);
}

// The stable step on regular quads for a constant wave speed: V / (4 lambda h) per cell.
struct constant_speed {
  double speed = 2;
  FUNCMESH_DEVICE double max_wave_speed(double, const fm::vec<double, 3>&) const { return speed; }
};

TEST_P(reconstruction, stable_steps_match_their_formulas_on_regular_quads) {
  fm::scoped_executor chosen(GetParam());
  const fm::face_set faces(fv_cases::part_of(fm::box2d_quad(8, 8), 1, 0));
  const fm::grid_function<double> volume = faces.volume_function();
  fm::grid_function<double> u(faces.owned_count(), "u"), dt(faces.owned_count(), "dt");
  u = 0.0;
  const double h = 1.0 / 8;
  dt = fv::convective_step(faces, volume, constant_speed{}, u, 0.5);
  for (const double value : dt.to_vector()) EXPECT_NEAR(value, 0.5 * h * h / (4 * 2 * h), 1e-15);
  dt = fv::diffusive_step(faces, volume, 0.1, 1.0);
  // Interior cells: h^2 / (4 nu); a boundary face (d = h / 2) counts twice.
  double largest = 0;
  for (const double value : dt.to_vector()) largest = std::max(largest, value);
  EXPECT_NEAR(largest, h * h / (4 * 0.1), 1e-15);
}

INSTANTIATE_TEST_SUITE_P(executors, reconstruction,
                         ::testing::ValuesIn(test_support::host_and_simulated_executors()),
                         test_support::executor_name{});

}  // namespace
