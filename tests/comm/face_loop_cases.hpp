// Face loops on one executor, written once: face_loops_executor_test.cpp runs them on the
// host executors, face_loops_cuda_test.cu on every visible GPU. The serial executor is the
// oracle: the gather form must match it bit for bit, the scatter form to rounding.
// Fluxes are functors (usable in device code); a fixture provides `executor_`.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/face_flux_field.hpp>
#include <funcmesh/comm/face_loops.hpp>
#include <funcmesh/comm/global_reduce.hpp>
#include <funcmesh/comm/gpu_aware_mpi.hpp>
#include <funcmesh/memory/memory_manager.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/mesh_faces.hpp>
#include <funcmesh/profile/device_activity.hpp>
#include <funcmesh/reduce/reduce.hpp>

#include "../common/face_fluxes.hpp"

namespace face_cases {

namespace fm = funcmesh;
using vec2 = fm::vec<double, 2>;

// Two components: the scalar flux, and one of another field.
struct flux2 {
  FUNCMESH_DEVICE vec2 operator()(const vec2& l, const vec2& r, const fm::face_view& f) const {
    return vec2{{flux{}(l[0], r[0], f), (r[1] - l[1]) * f.normal[1] * f.area}};
  }
};
struct hot2 {
  FUNCMESH_DEVICE vec2 operator()(const vec2& u, const fm::face_view& f) const {
    return vec2{{hot{}(u[0], f), -u[1] * f.area}};
  }
};
struct wall2 {
  FUNCMESH_DEVICE vec2 operator()(const vec2&, const fm::face_view&) const { return vec2{{0, 0}}; }
};
// A boundary flux chosen at run time by group: hot on one group, insulated elsewhere.
struct hot_on_group {
  int group;
  FUNCMESH_DEVICE double operator()(double u, const fm::face_view& f) const {
    return f.physical == group ? hot{}(u, f) : 0.0;
  }
};
struct of_id {
  FUNCMESH_DEVICE double operator()(fm::index_t id) const { return 0.5 + 0.25 * id; }
};
struct pair_up {
  FUNCMESH_DEVICE vec2 operator()(double a, double b) const { return vec2{{a, b}}; }
};

inline fm::mesh box() {
  fm::box_options options;
  options.perturbation = 0.15;
  return fm::box2d_quad(24, 17, options);
}

// A distributed quad box, u = a smooth field on the owned cells (halo stale), on `world`.
struct setup {
  fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, box);
  const fm::local_mesh& local = layout.mesh();
  const fm::face_set& faces = layout.faces();
  fm::dist_function<double> u{layout, "u"};
  fm::dist_function<double> w{layout, "w"};
  fm::dist_function<double> out{layout, "out"};

  setup() {
    const fm::mesh_geometry g = fm::compute_geometry(local.cells, fm::build_faces(local.cells));
    auto a = u.write();
    auto b = w.write();
    for (fm::index_t c = 0; c < local.owned_count; ++c) {
      const auto& x = g.cell_centroid[static_cast<std::size_t>(c)];
      a[c] = std::sin(3 * x[0]) + std::cos(2 * x[1]);
      b[c] = x[0] * x[1];
    }
  }
  template <class F>
  auto sum(const F& f) {
    return fm::sum_over_faces(faces, f, u, fm::on("left", hot{}), fm::on("right", hot{}),
                              fm::on("bottom", wall{}), fm::on("top", wall{}));
  }
  std::vector<double> owned(const fm::dist_function<double>& f) const {
    const std::vector<double> all = f.local_values().to_vector();
    return {all.begin(), all.begin() + local.owned_count};
  }
};

inline std::vector<std::uint64_t> bits(const std::vector<double>& values) {
  std::vector<std::uint64_t> result(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) std::memcpy(&result[i], &values[i], 8);
  return result;
}

}  // namespace face_cases

#define FUNCMESH_FACE_LOOP_CASES(fixture)                                                         \
  TEST_P(fixture, gather_is_bitwise_the_serial_oracle_and_scatter_agrees) {                       \
    face_cases::setup s;                                                                          \
    namespace fm = funcmesh;                                                                      \
    std::vector<double> oracle;                                                                   \
    {                                                                                             \
      fm::scoped_executor serial(fm::executor::serial());                                         \
      fm::gather_faces(s.out, s.u, face_cases::flux{}, fm::on("left", face_cases::hot{}),         \
                       fm::on("right", face_cases::hot{}), fm::on("bottom", face_cases::wall{}),  \
                       fm::on("top", face_cases::wall{}));                                        \
      oracle = s.owned(s.out);                                                                    \
    }                                                                                             \
    s.out = s.sum(face_cases::flux{});                                                            \
    EXPECT_EQ(face_cases::bits(s.owned(s.out)), face_cases::bits(oracle));                        \
    fm::scatter_faces(s.out, s.u, face_cases::flux{}, fm::on("left", face_cases::hot{}),          \
                      fm::on("right", face_cases::hot{}), fm::on("bottom", face_cases::wall{}),   \
                      fm::on("top", face_cases::wall{}));                                         \
    const std::vector<double> scattered = s.owned(s.out);                                         \
    double scale = 0;                                                                             \
    for (const double x : oracle) scale = std::max(scale, std::abs(x));                           \
    ASSERT_GT(scale, 0.0);                                                                        \
    for (std::size_t c = 0; c < oracle.size(); ++c) {                                             \
      EXPECT_NEAR(scattered[c], oracle[c], 1e-12 * scale) << "cell " << c;                        \
    }                                                                                             \
  }                                                                                               \
                                                                                                  \
  TEST_P(fixture, halo_values_equal_their_owners_after_an_exchange_on_the_executor) {             \
    face_cases::setup s;                                                                          \
    namespace fm = funcmesh;                                                                      \
    fm::dist_function<fm::index_t> id(s.layout, "id");                                            \
    {                                                                                             \
      auto g = id.write();                                                                        \
      for (fm::index_t c = 0; c < s.local.owned_count; ++c) {                                     \
        g[c] = s.local.global_cell[static_cast<std::size_t>(c)];                                  \
      }                                                                                           \
    }                                                                                             \
    /* Written where the executor runs (on the device for cuda), then exchanged. */               \
    s.w = fm::zip_with(face_cases::of_id{}, id);                                                  \
    fm::dist_function<face_cases::vec2> q(s.layout, "q");                                         \
    q = fm::zip_with(face_cases::pair_up{}, s.w, s.w * -3.0);                                     \
    const std::uint64_t pinned = fm::detail::pinned_host_allocations();                           \
    s.w.exchange();                                                                               \
    q.exchange();                                                                                 \
    /* Device data is staged through page-locked host memory (mlock'ed on the simulated */        \
    /* device), unless MPI takes device memory itself. */                                         \
    if (fm::default_executor().on_device() && !fm::mpi::gpu_aware() &&                            \
        s.layout.exchange_plan().neighbour_count() > 0) {                                         \
      EXPECT_GT(fm::detail::pinned_host_allocations(), pinned) << "no pinned staging";            \
    }                                                                                             \
    const auto values = s.w.local_values().to_vector();                                           \
    const auto pairs = q.local_values().to_vector();                                              \
    for (fm::index_t c = s.local.owned_count; c < s.w.local_values().total_size(); ++c) {         \
      const auto k = static_cast<std::size_t>(c);                                                 \
      const double expected = face_cases::of_id{}(s.local.global_cell[k]);                        \
      EXPECT_EQ(values[k], expected) << "halo cell " << c;                                        \
      EXPECT_EQ(pairs[k][0], expected) << "halo cell " << c;                                      \
      EXPECT_EQ(pairs[k][1], -3.0 * expected) << "halo cell " << c;                               \
    }                                                                                             \
  }                                                                                               \
                                                                                                  \
  /* Global reductions of the executor's data: one launch and one wait (for the result) on */     \
  /* a device, where CUDA reaches Thrust and the exact-sum kernels; the oracle's bits. */         \
  TEST_P(fixture, global_reductions_of_the_executors_data_match_the_oracle) {                     \
    face_cases::setup s;                                                                          \
    namespace fm = funcmesh;                                                                      \
    s.w = s.u * 0.5 + 1.0; /* written where the executor runs */                                  \
    const fm::executor on = fm::default_executor();                                               \
    const fm::executor serial = fm::executor::serial();                                           \
    const auto check = [&](const char* what, const auto& reduce) {                                \
      SCOPED_TRACE(what);                                                                         \
      fm::reset_device_activity();                                                                \
      const double got = reduce(on);                                                              \
      const fm::device_activity_counts seen = fm::device_activity();                              \
      EXPECT_EQ(seen.launches, on.on_device() ? 1u : 0u);                                         \
      EXPECT_EQ(seen.synchronizations, on.on_device() ? 1u : 0u);                                 \
      /* (not bits({got}): nvcc 13 drops the braces of a one-element list in a template) */       \
      EXPECT_EQ(face_cases::bits(std::vector<double>(1, got)),                                    \
                face_cases::bits(std::vector<double>(1, reduce(serial))));                        \
    };                                                                                            \
    check("reproducible sum", [&](const fm::executor& e) {                                        \
      return fm::global_sum(s.w, {.on = e, .reproducible = true});                                \
    });                                                                                           \
    check("min", [&](const fm::executor& e) { return fm::global_min(s.w, {.on = e}); });          \
    check("max", [&](const fm::executor& e) { return fm::global_max(s.w, {.on = e}); });          \
    const double sum = fm::global_sum(s.w, {.on = on});                                           \
    const double oracle = fm::global_sum(s.w, {.on = serial});                                    \
    EXPECT_NEAR(sum, oracle, 1e-12 * std::abs(oracle));                                           \
  }                                                                                               \
                                                                                                  \
  TEST_P(fixture, vector_values_component_zero_is_the_scalar_loop) {                              \
    face_cases::setup s;                                                                          \
    namespace fm = funcmesh;                                                                      \
    fm::dist_function<face_cases::vec2> q(s.layout, "q");                                         \
    fm::dist_function<face_cases::vec2> r(s.layout, "r");                                         \
    q = fm::zip_with(face_cases::pair_up{}, s.u, s.w);                                            \
    fm::gather_faces(r, q, face_cases::flux2{}, fm::on("left", face_cases::hot2{}),               \
                     fm::on("right", face_cases::hot2{}), fm::on("bottom", face_cases::wall2{}),  \
                     fm::on("top", face_cases::wall2{}));                                         \
    s.out = s.sum(face_cases::flux{});                                                            \
    const auto scalar = s.owned(s.out);                                                           \
    const auto both = r.local_values().to_vector();                                               \
    for (std::size_t c = 0; c < scalar.size(); ++c) {                                             \
      EXPECT_EQ(both[c][0], scalar[c]) << "cell " << c;                                           \
    }                                                                                             \
    fm::dist_function<face_cases::vec2> t(s.layout, "t");                                         \
    fm::scatter_faces(t, q, face_cases::flux2{}, fm::on("left", face_cases::hot2{}),              \
                      fm::on("right", face_cases::hot2{}), fm::on("bottom", face_cases::wall2{}), \
                      fm::on("top", face_cases::wall2{}));                                        \
    const auto scattered = t.local_values().to_vector();                                          \
    for (std::size_t c = 0; c < scalar.size(); ++c) {                                             \
      EXPECT_NEAR(scattered[c][1], both[c][1], 1e-12) << "cell " << c;                            \
    }                                                                                             \
  }                                                                                               \
                                                                                                  \
  TEST_P(fixture, face_sums_compose_exchange_only_when_stale_and_refuse_aliasing) {               \
    face_cases::setup s;                                                                          \
    namespace fm = funcmesh;                                                                      \
    const auto before = s.u.exchange_count();                                                     \
    s.out = s.sum(face_cases::flux{});                                                            \
    EXPECT_EQ(s.u.exchange_count(), before + 1) << "the stale halo of u is exchanged once";       \
    const auto plain = s.owned(s.out);                                                            \
    s.w = 2.0 * s.sum(face_cases::flux{}) + s.u;                                                  \
    EXPECT_EQ(s.u.exchange_count(), before + 1) << "a fresh halo is not exchanged again";         \
    const auto composed = s.owned(s.w);                                                           \
    const auto u = s.owned(s.u);                                                                  \
    for (std::size_t c = 0; c < plain.size(); ++c) {                                              \
      EXPECT_EQ(composed[c], 2.0 * plain[c] + u[c]) << "cell " << c;                              \
    }                                                                                             \
    const double local_total = fm::sum(s.sum(face_cases::flux{}));                                \
    double expected = 0;                                                                          \
    for (const double x : plain) expected += x;                                                   \
    EXPECT_NEAR(local_total, expected, 1e-10 * (1 + std::abs(expected)));                         \
    EXPECT_THROW(s.u = s.sum(face_cases::flux{}), fm::aliasing_error);                            \
  }                                                                                               \
                                                                                                  \
  TEST_P(fixture, on_other_groups_serves_every_group_not_named) {                                 \
    face_cases::setup s;                                                                          \
    namespace fm = funcmesh;                                                                      \
    s.out = s.sum(face_cases::flux{});                                                            \
    const auto named = s.owned(s.out);                                                            \
    s.w = fm::sum_over_faces(                                                                     \
        s.faces, face_cases::flux{}, s.u, fm::on("left", face_cases::hot{}),                      \
        fm::on_other_groups(face_cases::hot_on_group{s.faces.physical_id("right")}));             \
    EXPECT_EQ(face_cases::bits(s.owned(s.w)), face_cases::bits(named));                           \
    EXPECT_THROW((void)fm::sum_over_faces(s.faces, face_cases::flux{}, s.u,                       \
                                          fm::on_other_groups(face_cases::wall{}),                \
                                          fm::on_other_groups(face_cases::wall{})),               \
                 fm::error);                                                                      \
  }                                                                                               \
                                                                                                  \
  TEST_P(fixture, antisymmetric_scatter_and_cell_face_sums) {                                     \
    face_cases::setup s;                                                                          \
    namespace fm = funcmesh;                                                                      \
    s.out = s.sum(face_cases::flux{});                                                            \
    const auto gathered = s.owned(s.out);                                                         \
    /* flux{} is conservative: flux(r, l, -n) == -flux(l, r, n). */                               \
    fm::scatter_faces(s.w, s.u, fm::antisymmetric(face_cases::flux{}),                            \
                      fm::on("left", face_cases::hot{}), fm::on("right", face_cases::hot{}),      \
                      fm::on("bottom", face_cases::wall{}), fm::on("top", face_cases::wall{}));   \
    const auto once = s.owned(s.w);                                                               \
    for (std::size_t c = 0; c < gathered.size(); ++c) {                                           \
      EXPECT_NEAR(once[c], gathered[c], 1e-12) << "cell " << c;                                   \
    }                                                                                             \
    const auto before = s.u.exchange_count();                                                     \
    s.u = 1.5;                                                                                    \
    s.w = fm::sum_over_cell_faces(s.faces, face_cases::times_area{}, s.u);                        \
    EXPECT_EQ(s.u.exchange_count(), before) << "own values only: no halo exchange";               \
    const auto perimeter = s.owned(s.w);                                                          \
    for (fm::index_t c = 0; c < s.faces.owned_count(); ++c) {                                     \
      double expected = 0;                                                                        \
      for (const fm::index_t f : s.faces.faces_of(c)) expected += 1.5 * s.faces.view(f).area;     \
      EXPECT_EQ(perimeter[static_cast<std::size_t>(c)], expected) << "cell " << c;                \
    }                                                                                             \
  }                                                                                               \
                                                                                                  \
  TEST_P(fixture, face_flux_fields_are_the_gather_form_bit_for_bit) {                             \
    face_cases::setup s;                                                                          \
    namespace fm = funcmesh;                                                                      \
    s.out = s.sum(face_cases::flux{});                                                            \
    const auto gathered = face_cases::bits(s.owned(s.out));                                       \
    /* flux{} is exactly antisymmetric in floating point: once per face, the same bits. */        \
    fm::face_flux_field<double> field(s.layout, "fluxes");                                        \
    [&] { EXPECT_THROW(s.w = fm::sum_over_faces(field), fm::error); }(); /* unread */             \
    const auto before = s.w.exchange_count();                                                     \
    field.evaluate(s.u + 0.0 * s.w, fm::antisymmetric(face_cases::flux{}),                        \
                   fm::on("left", face_cases::hot{}), fm::on("right", face_cases::hot{}),         \
                   fm::on("bottom", face_cases::wall{}), fm::on("top", face_cases::wall{}));      \
    EXPECT_EQ(s.w.exchange_count(), before + 1) << "every halo the expression reads";             \
    fm::dist_function<double> sums(s.layout, "sums");                                             \
    sums = fm::sum_over_faces(field);                                                             \
    EXPECT_EQ(face_cases::bits(s.owned(sums)), gathered);                                         \
    /* The sums compose with the rest of a stage (an update), in one loop. */                     \
    s.w = s.u - 0.25 * fm::sum_over_faces(field);                                                 \
    const auto updated = s.owned(s.w);                                                            \
    const auto u = s.owned(s.u);                                                                  \
    const auto plain = s.owned(s.out);                                                            \
    for (std::size_t c = 0; c < u.size(); ++c) {                                                  \
      EXPECT_EQ(updated[c], u[c] - 0.25 * plain[c]) << "cell " << c;                              \
    }                                                                                             \
    fm::gather_faces(sums, s.u, fm::antisymmetric(face_cases::flux{}),                            \
                     fm::on("left", face_cases::hot{}), fm::on("right", face_cases::hot{}),       \
                     fm::on("bottom", face_cases::wall{}), fm::on("top", face_cases::wall{}));    \
    EXPECT_EQ(face_cases::bits(s.owned(sums)), gathered);                                         \
    /* Each EXPECT_THROW in a lambda of its own: one label per source line in a macro. */         \
    [&] {                                                                                         \
      EXPECT_THROW(fm::gather_faces(s.u, s.u, fm::antisymmetric(face_cases::flux{}),              \
                                    fm::on_other_groups(face_cases::wall{})),                     \
                   fm::error);                                                                    \
    }();                                                                                          \
  }                                                                                               \
                                                                                                  \
  TEST_P(fixture, antisymmetric_face_sums_are_the_both_sides_bits_for_any_window) {               \
    face_cases::setup s;                                                                          \
    namespace fm = funcmesh;                                                                      \
    s.out = s.sum(face_cases::flux{});                                                            \
    const auto gathered = face_cases::bits(s.owned(s.out));                                       \
    const auto once = [&](const fm::face_set& faces) {                                            \
      /* The input reads w's stale halo: exchanged first, the interior cells overlapped. */       \
      s.w.mark_halo_stale();                                                                      \
      const auto before = s.w.exchange_count();                                                   \
      fm::dist_function<double> sums(s.layout, "sums");                                           \
      sums = fm::sum_over_faces(                                                                  \
          faces, fm::antisymmetric(face_cases::flux{}), s.u + 0.0 * s.w,                          \
          fm::on("left", face_cases::hot{}), fm::on("right", face_cases::hot{}),                  \
          fm::on("bottom", face_cases::wall{}), fm::on("top", face_cases::wall{}));               \
      EXPECT_EQ(s.w.exchange_count(), before + 1);                                                \
      return face_cases::bits(s.owned(sums));                                                     \
    };                                                                                            \
    EXPECT_GE(s.faces.flux_window(), fm::face_set::min_flux_window);                              \
    EXPECT_EQ(once(s.faces), gathered) << "the measured window";                                  \
    /* Windows of 1 and 4 faces: most second sides recomputed, restarts at every cell. */         \
    for (const fm::index_t window : {0, 1, 4, 64}) {                                              \
      const fm::face_set faces(s.local, fm::default_face_block_size, window);                     \
      EXPECT_EQ(faces.flux_window(), window);                                                     \
      EXPECT_EQ(once(faces), gathered) << "a window of " << window << " faces";                   \
    }                                                                                             \
  }                                                                                               \
                                                                                                  \
  TEST_P(fixture, scatter_in_small_coloured_blocks_agrees_with_gather) {                          \
    face_cases::setup s;                                                                          \
    namespace fm = funcmesh;                                                                      \
    s.out = s.sum(face_cases::flux{});                                                            \
    const auto gathered = s.owned(s.out);                                                         \
    /* Blocks of 7 faces: many blocks and colours, so threads share every colour. */              \
    const fm::face_set small_blocks(s.local, 7);                                                  \
    ASSERT_GE(small_blocks.blocks().colour_count(), 2);                                           \
    fm::scatter_faces(s.w, s.u, small_blocks, face_cases::flux{},                                 \
                      fm::on("left", face_cases::hot{}), fm::on("right", face_cases::hot{}),      \
                      fm::on("bottom", face_cases::wall{}), fm::on("top", face_cases::wall{}));   \
    const auto scattered = s.owned(s.w);                                                          \
    for (std::size_t c = 0; c < gathered.size(); ++c) {                                           \
      EXPECT_NEAR(scattered[c], gathered[c], 1e-12) << "cell " << c;                              \
    }                                                                                             \
  }
