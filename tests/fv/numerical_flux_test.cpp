// funcmesh::fv's numerical fluxes: consistency with the physical flux, bitwise
// antisymmetry under swapping the sides (the canonical orientation), upwinding, for
// scalar advection, Burgers' equation, linear acoustics and shallow water.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include <funcmesh/fv/canonical_orientation.hpp>
#include <funcmesh/fv/numerical_fluxes.hpp>

namespace fv = funcmesh::fv;
using funcmesh::vec;
using vec3 = vec<double, 3>;
using vec2 = vec<double, 2>;

namespace {

double dot(const vec3& a, const vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// ---- Physics of the tests ------------------------------------------------------------

// u_t + div(a u) = 0.
struct advection {
  vec3 a;
  double normal_flux(double u, const vec3& n) const { return dot(a, n) * u; }
  double max_wave_speed(double, const vec3& n) const { return std::abs(dot(a, n)); }
  fv::wave_speed_bounds wave_speeds(double, const vec3& n) const { return {dot(a, n), dot(a, n)}; }
};

// The same law with a_n evaluated as (a . n + w) - w for a constant w: equal to a . n in
// exact arithmetic but not an odd function of n in rounding (x + w and -x + w round
// differently), like physics written in a frame that is not symmetric under n -> -n.
// Without the canonical orientation its fluxes are not bitwise antisymmetric.
struct advection_with_offset {
  vec3 a;
  double w;
  double a_n(const vec3& n) const { return (dot(a, n) + w) - w; }
  double normal_flux(double u, const vec3& n) const { return a_n(n) * u; }
  double max_wave_speed(double, const vec3& n) const { return std::abs(a_n(n)); }
  fv::wave_speed_bounds wave_speeds(double, const vec3& n) const { return {a_n(n), a_n(n)}; }
};

// Burgers: u_t + div(b u^2 / 2) = 0, speed u (b . n).
struct burgers {
  vec3 b;
  double normal_flux(double u, const vec3& n) const { return 0.5 * u * u * dot(b, n); }
  double max_wave_speed(double u, const vec3& n) const { return std::abs(u * dot(b, n)); }
  fv::wave_speed_bounds wave_speeds(double u, const vec3& n) const {
    const double s = u * dot(b, n);
    return {s, s};
  }
};

// Linear acoustics along a direction e, in a background flow u0: U = (p, w),
// F = (e . n) A U with A = [[u0, K], [1/rho0, u0]], speeds (e . n)(u0 -/+ c), c^2 = K/rho0.
struct acoustics {
  vec3 e;
  double u0, bulk, rho0;
  double c() const { return std::sqrt(bulk / rho0); }
  vec2 normal_flux(const vec2& u, const vec3& n) const {
    const double en = dot(e, n);
    return {en * (u0 * u[0] + bulk * u[1]), en * (u[0] / rho0 + u0 * u[1])};
  }
  double max_wave_speed(const vec2&, const vec3& n) const {
    return std::abs(dot(e, n)) * (std::abs(u0) + c());
  }
  fv::wave_speed_bounds wave_speeds(const vec2&, const vec3& n) const {
    const double en = dot(e, n);
    const double s1 = en * (u0 - c());
    const double s2 = en * (u0 + c());
    return {std::fmin(s1, s2), std::fmax(s1, s2)};
  }
};

// Shallow water along a direction e: U = (h, h u), F = (e . n)(h u, h u^2 + g h^2 / 2).
struct shallow_water {
  vec3 e;
  double g;
  vec2 normal_flux(const vec2& u, const vec3& n) const {
    const double en = dot(e, n);
    const double v = u[1] / u[0];
    return {en * u[1], en * (u[1] * v + 0.5 * g * u[0] * u[0])};
  }
  fv::wave_speed_bounds wave_speeds(const vec2& u, const vec3& n) const {
    const double en = dot(e, n);
    const double v = u[1] / u[0];
    const double c = std::sqrt(g * u[0]);
    const double s1 = en * (v - c);
    const double s2 = en * (v + c);
    return {std::fmin(s1, s2), std::fmax(s1, s2)};
  }
  double max_wave_speed(const vec2& u, const vec3& n) const {
    const fv::wave_speed_bounds s = wave_speeds(u, n);
    return std::fmax(std::abs(s.lo), std::abs(s.hi));
  }
};

static_assert(std::is_trivially_copyable_v<fv::rusanov<shallow_water>>);
static_assert(std::is_trivially_copyable_v<fv::hll<acoustics>>);
static_assert(std::is_trivially_copyable_v<fv::canonical_orientation<fv::hll<burgers>>>);

// ---- Random cases --------------------------------------------------------------------

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }
bool same_bits(double a, double b) { return bits(a) == bits(b); }
template <int N>
bool same_bits(const vec<double, N>& a, const vec<double, N>& b) {
  for (int k = 0; k < N; ++k) {
    if (!same_bits(a[k], b[k])) return false;
  }
  return true;
}

// Unit normals: random directions, 2-D ones (a zero z, of either sign), and axis ones.
std::vector<vec3> sample_normals(std::uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> gauss;
  std::vector<vec3> normals = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},       {0, -1, 0},
                               {0, 0, 1}, {0, 0, -1}, {-0.0, 1, -0.0}, {0.0, -0.0, -1}};
  for (int i = 0; i < count; ++i) {
    vec3 n{gauss(rng), gauss(rng), i % 3 == 0 ? (i % 2 == 0 ? 0.0 : -0.0) : gauss(rng)};
    if (i % 5 == 0) n[0] = i % 2 == 0 ? 0.0 : -0.0;
    n = n / std::sqrt(dot(n, n));
    normals.push_back(n);
  }
  return normals;
}

vec3 random_direction(std::mt19937_64& rng) {
  std::normal_distribution<double> gauss;
  vec3 v{gauss(rng), gauss(rng), gauss(rng)};
  return v / std::sqrt(dot(v, v));
}

double relative_error(double a, double b) { return std::abs(a - b) / (1.0 + std::abs(b)); }
template <int N>
double relative_error(const vec<double, N>& a, const vec<double, N>& b) {
  double e = 0.0;
  for (int k = 0; k < N; ++k) e = std::fmax(e, relative_error(a[k], b[k]));
  return e;
}

// Checks consistency and bitwise antisymmetry of a flux over random states; draw() makes
// a random state.
template <class Flux, class Physics, class Draw>
void expect_consistent_and_antisymmetric(const Flux& flux, const Physics& physics, Draw draw,
                                         std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  int failures = 0;
  for (const vec3& n : sample_normals(seed, 3000)) {
    const auto left = draw(rng);
    const auto right = draw(rng);
    const auto forward = flux(left, right, n);
    const auto backward = flux(right, left, -n);
    if (!same_bits(backward, -forward) && ++failures <= 5) {
      ADD_FAILURE() << "not antisymmetric for n = (" << n[0] << ", " << n[1] << ", " << n[2] << ")";
    }
    const double error = relative_error(flux(left, left, n), physics.normal_flux(left, n));
    if (!(error <= 1e-14) && ++failures <= 5) {
      ADD_FAILURE() << "not consistent: relative error " << error;
    }
  }
  EXPECT_EQ(failures, 0);
}

// As a gather loop sees a face: all faces from their left cells in one loop, from their
// right cells in another (each loop is one compiled body, possibly vectorized).
template <class Flux, class State>
void expect_antisymmetric_in_separate_loops(const Flux& flux, const std::vector<State>& left,
                                            const std::vector<State>& right,
                                            const std::vector<vec3>& normals) {
  std::vector<State> forward(normals.size()), backward(normals.size());
  for (std::size_t f = 0; f < normals.size(); ++f) forward[f] = flux(left[f], right[f], normals[f]);
  for (std::size_t f = 0; f < normals.size(); ++f) {
    backward[f] = flux(right[f], left[f], -normals[f]);
  }
  int failures = 0;
  for (std::size_t f = 0; f < normals.size(); ++f) {
    if (!same_bits(backward[f], -forward[f])) ++failures;
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace

// ---- canonical_orientation -----------------------------------------------------------

TEST(canonical_orientation, picks_exactly_one_of_n_and_minus_n) {
  const double nan = std::nan("");
  std::vector<vec3> normals = sample_normals(5, 2000);
  for (vec3 n :
       std::vector<vec3>{{0, 0, 0}, {-0.0, 0, 0}, {0, -0.0, 0}, {nan, 1, 0}, {0, nan, 0}}) {
    normals.push_back(n);
  }
  for (const vec3& n : normals) {
    EXPECT_NE(fv::is_canonical(n), fv::is_canonical(-n))
        << "n = (" << n[0] << ", " << n[1] << ", " << n[2] << ")";
  }
  EXPECT_TRUE(fv::is_canonical({1, -1, -1}));
  EXPECT_TRUE(fv::is_canonical({-0.0, 1, -1}));
  EXPECT_FALSE(fv::is_canonical({0, 0, -1}));
  EXPECT_TRUE(fv::is_canonical({0, 0, 0}));
}

namespace {
// A solver with no symmetry at all.
struct lopsided_solver {
  double operator()(double left, double right, const vec3& n) const {
    return (left + 3.0 * right) * (n[0] + 0.1) + left * left * n[1] - 0.7 * right * n[2] + 1.0;
  }
};
}  // namespace

TEST(canonical_orientation, makes_any_solver_bitwise_antisymmetric) {
  const fv::canonical_orientation flux{lopsided_solver{}};
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> state(-10.0, 10.0);
  int failures = 0;
  for (const vec3& n : sample_normals(3, 5000)) {
    const double left = state(rng);
    const double right = state(rng);
    const double forward = flux(left, right, n);
    if (!same_bits(flux(right, left, -n), -forward) && ++failures <= 5) {
      ADD_FAILURE() << "left " << left << " right " << right;
    }
    // The canonical side is the solver itself, the other its negated mirror.
    const double expected = fv::is_canonical(n) ? lopsided_solver{}(left, right, n)
                                                : -lopsided_solver{}(right, left, -n);
    if (!same_bits(forward, expected) && ++failures <= 5) ADD_FAILURE() << "changed the solver";
  }
  EXPECT_EQ(failures, 0);
}

// ---- upwind --------------------------------------------------------------------------

TEST(upwind_flux, takes_the_upstream_state_and_is_antisymmetric) {
  EXPECT_EQ(fv::upwind_flux(2.0, 5.0, 3.0), 6.0);
  EXPECT_EQ(fv::upwind_flux(2.0, 5.0, -3.0), -15.0);
  EXPECT_EQ(fv::upwind_flux(2.0, 5.0, 0.0), 0.0);
  const vec2 l{1.0, 2.0}, r{3.0, 4.0};
  EXPECT_EQ(fv::upwind_flux(l, r, 2.0), (vec2{2.0, 4.0}));
  EXPECT_EQ(fv::upwind_flux(l, r, -2.0), (vec2{-6.0, -8.0}));

  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> value(-5.0, 5.0);
  for (int i = 0; i < 10000; ++i) {
    const double left = value(rng), right = value(rng), a_n = i % 100 == 0 ? 0.0 : value(rng);
    const double f = fv::upwind_flux(left, right, a_n);
    EXPECT_EQ(f, a_n * (a_n > 0 ? left : right));
    EXPECT_EQ(fv::upwind_flux(right, left, -a_n), -f);
  }
}

// ---- Rusanov and HLL: scalar laws ----------------------------------------------------

TEST(rusanov_and_hll, are_consistent_and_bitwise_antisymmetric_for_scalar_laws) {
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  auto draw = [&](std::mt19937_64& g) { return value(g); };
  const advection adv{random_direction(rng)};
  const advection_with_offset offset{random_direction(rng), 3.7};
  const burgers bur{random_direction(rng)};
  expect_consistent_and_antisymmetric(fv::rusanov{adv}, adv, draw, 1);
  expect_consistent_and_antisymmetric(fv::hll{adv}, adv, draw, 2);
  expect_consistent_and_antisymmetric(fv::rusanov{bur}, bur, draw, 3);
  expect_consistent_and_antisymmetric(fv::hll{bur}, bur, draw, 4);
  expect_consistent_and_antisymmetric(fv::rusanov{offset}, offset, draw, 5);
  expect_consistent_and_antisymmetric(fv::hll{offset}, offset, draw, 6);
}

// The offset physics does break antisymmetry when evaluated naively, so the test
// above would catch a flux that skips the canonical orientation.
TEST(rusanov_and_hll, the_offset_physics_needs_the_canonical_orientation) {
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  const advection_with_offset offset{random_direction(rng), 3.7};
  const fv::detail::hll_formula<advection_with_offset> naive{offset};
  const fv::detail::rusanov_formula<advection_with_offset> naive_rusanov{offset};
  int broken = 0, broken_rusanov = 0;
  for (const vec3& n : sample_normals(8, 2000)) {
    const double l = value(rng), r = value(rng);
    if (!same_bits(naive(r, l, -n), -naive(l, r, n))) ++broken;
    if (!same_bits(naive_rusanov(r, l, -n), -naive_rusanov(l, r, n))) ++broken_rusanov;
  }
  EXPECT_GT(broken, 100);
  EXPECT_GT(broken_rusanov, 100);
}

TEST(rusanov_and_hll, equal_upwind_for_linear_advection) {
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  const advection adv{random_direction(rng)};
  for (const vec3& n : sample_normals(9, 3000)) {
    const double l = value(rng), r = value(rng);
    const double upwind = fv::upwind_flux(l, r, dot(adv.a, n));
    EXPECT_NEAR(fv::hll{adv}(l, r, n), upwind, 1e-14 * (1 + std::abs(upwind)));
    EXPECT_NEAR(fv::rusanov{adv}(l, r, n), upwind, 1e-14 * (1 + std::abs(upwind)));
  }
}

TEST(rusanov_and_hll, take_textbook_values_for_burgers) {
  const burgers bur{{1, 0, 0}};
  const vec3 n{1, 0, 0};
  // Rusanov: (f(l) + f(r)) / 2 - max|u| (r - l) / 2.
  EXPECT_DOUBLE_EQ(fv::rusanov{bur}(1.0, -1.0, n), 0.5 + 1.0);
  EXPECT_DOUBLE_EQ(fv::rusanov{bur}(2.0, 1.0, n), 0.5 * (2.0 + 0.5) + 0.5 * 2.0 * 1.0);
  // HLL, transonic rarefaction l = -1, r = 1: (s_hi f_l - s_lo f_r + s_lo s_hi (r - l)) /
  // (s_hi - s_lo) = (0.5 + 0.5 - 2) / 2.
  EXPECT_DOUBLE_EQ(fv::hll{bur}(-1.0, 1.0, n), -0.5);
  // Supersonic: the upwind state's flux, from either orientation.
  EXPECT_EQ(fv::hll{bur}(2.0, 1.0, n), 2.0);
  EXPECT_EQ(fv::hll{bur}(-1.0, -2.0, n), 2.0);
  EXPECT_EQ(fv::hll{bur}(1.0, 2.0, -n), -2.0);
  EXPECT_EQ(fv::hll{bur}(-2.0, -1.0, -n), -2.0);
}

// ---- Rusanov and HLL: 2-component systems --------------------------------------------

TEST(rusanov_and_hll, are_consistent_and_bitwise_antisymmetric_for_systems) {
  std::mt19937_64 rng(37);
  std::uniform_real_distribution<double> value(-2.0, 2.0);
  std::uniform_real_distribution<double> depth(0.1, 3.0);
  auto draw_acoustic = [&](std::mt19937_64& g) { return vec2{value(g), value(g)}; };
  auto draw_water = [&](std::mt19937_64& g) {
    const double h = depth(g);
    return vec2{h, h * value(g)};
  };
  const acoustics ac{random_direction(rng), 0.3, 2.0, 1.5};
  const shallow_water sw{random_direction(rng), 9.81};
  expect_consistent_and_antisymmetric(fv::rusanov{ac}, ac, draw_acoustic, 41);
  expect_consistent_and_antisymmetric(fv::hll{ac}, ac, draw_acoustic, 42);
  expect_consistent_and_antisymmetric(fv::rusanov{sw}, sw, draw_water, 43);
  expect_consistent_and_antisymmetric(fv::hll{sw}, sw, draw_water, 44);
}

TEST(rusanov_and_hll, are_bitwise_antisymmetric_across_separate_loops) {
  std::mt19937_64 rng(53);
  std::uniform_real_distribution<double> value(-2.0, 2.0), depth(0.1, 3.0);
  const std::vector<vec3> normals = sample_normals(54, 4001);
  std::vector<vec2> left(normals.size()), right(normals.size());
  for (std::size_t f = 0; f < normals.size(); ++f) {
    const double hl = depth(rng), hr = depth(rng);
    left[f] = {hl, hl * value(rng)};
    right[f] = {hr, hr * value(rng)};
  }
  const shallow_water sw{random_direction(rng), 9.81};
  expect_antisymmetric_in_separate_loops(fv::hll{sw}, left, right, normals);
  expect_antisymmetric_in_separate_loops(fv::rusanov{sw}, left, right, normals);
  const acoustics ac{random_direction(rng), 0.3, 2.0, 1.5};
  expect_antisymmetric_in_separate_loops(fv::hll{ac}, left, right, normals);
  expect_antisymmetric_in_separate_loops(fv::rusanov{ac}, left, right, normals);
}

TEST(hll, is_the_upwind_physical_flux_when_all_waves_go_one_way) {
  std::mt19937_64 rng(47);
  std::uniform_real_distribution<double> value(-2.0, 2.0);
  // Background flow faster than sound: both acoustic waves move along +e.
  const acoustics ac{random_direction(rng), 3.0, 2.0, 1.5};
  ASSERT_GT(ac.u0, ac.c());
  int failures = 0;
  for (const vec3& n : sample_normals(12, 3000)) {
    const vec2 l{value(rng), value(rng)}, r{value(rng), value(rng)};
    const double en = dot(ac.e, n);
    const vec2 expected = en > 0 ? ac.normal_flux(l, n) : ac.normal_flux(r, n);
    if (!(relative_error(fv::hll{ac}(l, r, n), expected) <= 1e-15) && ++failures <= 5) {
      ADD_FAILURE() << "e . n = " << en;
    }
  }
  EXPECT_EQ(failures, 0);

  // Supercritical shallow water (Froude number > 1) flowing along +e.
  const shallow_water sw{{0, 1, 0}, 9.81};
  const vec2 l{1.0, 5.0}, r{0.8, 4.5};  // speeds 5 and 5.6, c ~ 3.1 and 2.8
  for (const vec3& n : sample_normals(13, 1000)) {
    const double en = dot(sw.e, n);
    const vec2 expected = en > 0 ? sw.normal_flux(l, n) : sw.normal_flux(r, n);
    EXPECT_LE(relative_error(fv::hll{sw}(l, r, n), expected), 1e-15) << "e . n = " << en;
  }
}

TEST(rusanov_and_hll, dissipate_across_a_subsonic_jump) {
  // Acoustics at rest with e = n: a pressure jump gives the exact Godunov flux for HLL's
  // intermediate state, and Rusanov (s = c) coincides with HLL (s_lo = -c, s_hi = c).
  const acoustics ac{{1, 0, 0}, 0.0, 4.0, 1.0};  // c = 2
  const vec3 n{1, 0, 0};
  const vec2 l{1.0, 0.0}, r{0.0, 0.0};
  const vec2 h = fv::hll{ac}(l, r, n);
  const vec2 ru = fv::rusanov{ac}(l, r, n);
  // Star state: p* = (p_l + p_r)/2 = 0.5, w* = (p_l - p_r) / (2 rho0 c) = 0.25;
  // flux (K w*, p* / rho0) = (1, 0.5).
  EXPECT_DOUBLE_EQ(h[0], 1.0);
  EXPECT_DOUBLE_EQ(h[1], 0.5);
  EXPECT_DOUBLE_EQ(ru[0], 1.0);
  EXPECT_DOUBLE_EQ(ru[1], 0.5);
}
