// funcmesh::fv's limiters: the slope limiters stay in the TVD region and keep face values
// between neighbours; the cell limiters keep reconstructions within the neighbour bounds
// (Venkatakrishnan without smoothing) and stay in [0, 1]; the runtime names round-trip.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <funcmesh/fv/detail/min_max.hpp>
#include <funcmesh/fv/limiters.hpp>

namespace fv = funcmesh::fv;

namespace {

static_assert(std::is_trivially_copyable_v<fv::minmod>);
static_assert(std::is_trivially_copyable_v<fv::van_leer>);
static_assert(std::is_trivially_copyable_v<fv::van_albada>);
static_assert(std::is_trivially_copyable_v<fv::superbee>);
static_assert(std::is_trivially_copyable_v<fv::mc>);
static_assert(std::is_trivially_copyable_v<fv::barth_jespersen>);
static_assert(std::is_trivially_copyable_v<fv::venkatakrishnan>);

constexpr double inf = std::numeric_limits<double>::infinity();

// Values of r over many scales and both signs, with the edge cases.
std::vector<double> sample_ratios() {
  std::vector<double> rs = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 1e-300, -1e-300, 1e300, inf, -inf};
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> exponent(-12.0, 12.0);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  for (int i = 0; i < 20000; ++i) rs.push_back(mantissa(rng) * std::pow(10.0, exponent(rng)));
  std::uniform_real_distribution<double> moderate(-4.0, 6.0);
  for (int i = 0; i < 20000; ++i) rs.push_back(moderate(rng));
  return rs;
}

template <class Phi>
void expect_tvd(const Phi& phi, const char* name) {
  SCOPED_TRACE(name);
  EXPECT_EQ(phi(1.0), 1.0) << "linear data must not be limited";
  int failures = 0;
  for (double r : sample_ratios()) {
    const double value = phi(r);
    const bool ok =
        r <= 0.0 ? value == 0.0
                 : (value >= 0.0 && value <= std::fmin(2.0 * r, 2.0) && std::isfinite(value));
    if (!ok && ++failures <= 5) ADD_FAILURE() << "phi(" << r << ") = " << value;
  }
  EXPECT_EQ(failures, 0);
}

// All five limiters are symmetric: phi(r) / r == phi(1 / r), i.e. forward and backward
// differences are treated alike.
template <class Phi>
void expect_symmetric(const Phi& phi, const char* name) {
  SCOPED_TRACE(name);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-3.0, 3.0);
  for (int i = 0; i < 2000; ++i) {
    const double r = std::pow(10.0, exponent(rng));
    EXPECT_NEAR(phi(r) / r, phi(1.0 / r), 1e-14 * phi(1.0 / r) + 1e-300) << "r = " << r;
  }
}

}  // namespace

TEST(slope_limiters, stay_in_the_tvd_region) {
  expect_tvd(fv::minmod{}, "minmod");
  expect_tvd(fv::van_leer{}, "van_leer");
  expect_tvd(fv::van_albada{}, "van_albada");
  expect_tvd(fv::superbee{}, "superbee");
  expect_tvd(fv::mc{}, "mc");
}

TEST(slope_limiters, are_symmetric_in_r_and_one_over_r) {
  expect_symmetric(fv::minmod{}, "minmod");
  expect_symmetric(fv::van_leer{}, "van_leer");
  expect_symmetric(fv::van_albada{}, "van_albada");
  expect_symmetric(fv::superbee{}, "superbee");
  expect_symmetric(fv::mc{}, "mc");
}

TEST(slope_limiters, take_their_textbook_values) {
  EXPECT_DOUBLE_EQ(fv::minmod{}(0.5), 0.5);
  EXPECT_DOUBLE_EQ(fv::minmod{}(3.0), 1.0);
  EXPECT_DOUBLE_EQ(fv::van_leer{}(3.0), 1.5);  // (3 + 3) / (1 + 3)
  EXPECT_DOUBLE_EQ(fv::van_leer{}(inf), 2.0);
  EXPECT_DOUBLE_EQ(fv::van_albada{}(3.0), 1.2);  // (9 + 3) / (9 + 1)
  EXPECT_DOUBLE_EQ(fv::van_albada{}(0.5), 0.6);  // (0.25 + 0.5) / 1.25
  EXPECT_DOUBLE_EQ(fv::van_albada{}(inf), 1.0);
  EXPECT_DOUBLE_EQ(fv::van_albada{}(-0.5), 0.0);
  EXPECT_DOUBLE_EQ(fv::superbee{}(0.25), 0.5);
  EXPECT_DOUBLE_EQ(fv::superbee{}(0.75), 1.0);
  EXPECT_DOUBLE_EQ(fv::superbee{}(1.5), 1.5);
  EXPECT_DOUBLE_EQ(fv::superbee{}(3.0), 2.0);
  EXPECT_DOUBLE_EQ(fv::mc{}(0.2), 0.4);
  EXPECT_DOUBLE_EQ(fv::mc{}(2.0), 1.5);
  EXPECT_DOUBLE_EQ(fv::mc{}(5.0), 2.0);
}

namespace {

template <class Phi>
void expect_face_values_between_neighbours(const Phi& phi, const char* name) {
  SCOPED_TRACE(name);
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_real_distribution<double> exponent(-8.0, 8.0);
  int failures = 0;
  for (int i = 0; i < 50000; ++i) {
    const double scale = std::pow(10.0, exponent(rng));
    const double u_c = scale * unit(rng);
    // Neighbours at similar and at very different scales, sometimes equal to u_c.
    const double u_n =
        i % 10 == 0 ? u_c : u_c + scale * std::pow(10.0, exponent(rng) / 4) * unit(rng);
    const double delta = scale * std::pow(10.0, exponent(rng) / 4) * unit(rng);
    const double u_f = fv::slope_limited_face_value(phi, u_c, u_n, delta);
    const bool ok =
        u_f >= std::fmin(u_c, u_n) && u_f <= std::fmax(u_c, u_n) && (u_n != u_c || u_f == u_c);
    if (!ok && ++failures <= 5) {
      ADD_FAILURE() << "u_c " << u_c << " u_n " << u_n << " delta " << delta << " -> " << u_f;
    }
    // Away from rounding trouble the value is the formula itself (the clamp is idle).
    const double du = u_n - u_c;
    if (du != 0.0) {
      const double expected = u_c + 0.5 * phi(2.0 * delta / du - 1.0) * du;
      if (!(std::abs(u_f - expected) <= 1e-12 * (std::abs(u_c) + std::abs(u_n))) &&
          ++failures <= 5) {
        ADD_FAILURE() << "u_c " << u_c << " u_n " << u_n << ": " << u_f << " != " << expected;
      }
    }
  }
  EXPECT_EQ(failures, 0);
  // Linear data: delta is the whole difference, r = 1, the face value is the midpoint.
  EXPECT_DOUBLE_EQ(fv::slope_limited_face_value(phi, 1.0, 3.0, 2.0), 2.0);
  EXPECT_DOUBLE_EQ(fv::slope_limited_face_value(phi, 3.0, 1.0, -2.0), 2.0);
  // A local extremum (the gradient points away from the neighbour): first order.
  EXPECT_EQ(fv::slope_limited_face_value(phi, 1.0, 3.0, -0.5), 1.0);
  // Equal neighbours: no division, the cell value.
  EXPECT_EQ(fv::slope_limited_face_value(phi, 2.5, 2.5, 1.0), 2.5);
  EXPECT_EQ(fv::slope_limited_face_value(phi, 0.0, 0.0, 0.0), 0.0);
}

}  // namespace

TEST(slope_limited_face_value, lies_between_the_cell_and_its_neighbour) {
  expect_face_values_between_neighbours(fv::minmod{}, "minmod");
  expect_face_values_between_neighbours(fv::van_leer{}, "van_leer");
  expect_face_values_between_neighbours(fv::van_albada{}, "van_albada");
  expect_face_values_between_neighbours(fv::superbee{}, "superbee");
  expect_face_values_between_neighbours(fv::mc{}, "mc");
}

TEST(slope_limited_face_value,
     stays_between_neighbours_at_vanishing_differences_and_under_rounding) {
  // r -> +inf: superbee and MC (phi -> 2) give u_n, minmod (phi -> 1) the midpoint.
  EXPECT_EQ(fv::slope_limited_face_value(fv::superbee{}, 0.0, 1e-300, 1.0), 1e-300);
  EXPECT_EQ(fv::slope_limited_face_value(fv::mc{}, 0.0, -1e-300, -1.0), -1e-300);
  EXPECT_DOUBLE_EQ(fv::slope_limited_face_value(fv::minmod{}, 0.0, 1e-300, 1.0), 0.5e-300);
  EXPECT_TRUE(std::isfinite(fv::slope_limited_face_value(fv::van_leer{}, 0.0, 1e-310, 1e300)));
  // Rounding alone would overshoot here: u_n - u_c rounds to -1, so u_c + (u_n - u_c) = 0,
  // below u_n; the result is kept at u_n.
  EXPECT_EQ(fv::slope_limited_face_value(fv::superbee{}, 1.0, 1e-17, -2.0), 1e-17);
  EXPECT_EQ(fv::slope_limited_face_value(fv::mc{}, -1.0, -1e-17, 2.0), -1e-17);
}

namespace {

// Random (delta, d_min, d_max) over many scales, with the degenerate cases.
struct cell_case {
  double u_c, u_min, u_max, delta;
};

std::vector<cell_case> sample_cells() {
  std::vector<cell_case> cases = {{1.0, 1.0, 1.0, 0.5},     {1.0, 0.0, 2.0, 0.0},
                                  {1.0, 1.0, 2.0, -0.5},    {1.0, 0.0, 1.0, 0.5},
                                  {0.0, -1.0, 1.0, 1e-300}, {0.0, -1e-300, 1e-300, 1e300}};
  std::mt19937_64 rng(1234);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_real_distribution<double> exponent(-6.0, 6.0);
  for (int i = 0; i < 100000; ++i) {
    const double scale = std::pow(10.0, exponent(rng));
    const double u_c = scale * (2.0 * unit(rng) - 1.0);
    const double u_min = i % 7 == 0 ? u_c : u_c - scale * unit(rng);
    const double u_max = i % 11 == 0 ? u_c : u_c + scale * unit(rng);
    const double delta = scale * std::pow(10.0, exponent(rng) / 3) * (2.0 * unit(rng) - 1.0);
    cases.push_back({u_c, u_min, u_max, delta});
  }
  return cases;
}

// u_c + phi delta within [u_min, u_max], up to a few roundings of the values involved.
bool within_bounds(const cell_case& c, double phi) {
  const double u = c.u_c + phi * c.delta;
  const double slack = 4e-16 * (std::abs(c.u_c) + std::abs(c.u_min) + std::abs(c.u_max));
  return u >= c.u_min - slack && u <= c.u_max + slack;
}

}  // namespace

TEST(barth_jespersen, keeps_the_reconstruction_within_the_bounds_and_is_the_largest_such) {
  int failures = 0;
  for (const cell_case& c : sample_cells()) {
    const double phi = fv::barth_jespersen{}(c.delta, c.u_min - c.u_c, c.u_max - c.u_c, 0.0);
    bool ok = phi >= 0.0 && phi <= 1.0 && within_bounds(c, phi);
    // Below 1 only when a bound is active: the reconstruction then reaches it.
    if (phi < 1.0) {
      const double bound = c.delta > 0.0 ? c.u_max : c.u_min;
      ok = ok && std::abs(c.u_c + phi * c.delta - bound) <=
                     1e-15 * (std::abs(c.u_c) + std::abs(bound)) + 1e-300;
    }
    if (!ok && ++failures <= 5) {
      ADD_FAILURE() << "u_c " << c.u_c << " [" << c.u_min << ", " << c.u_max << "] delta "
                    << c.delta << " -> " << phi;
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(fv::barth_jespersen{}(0.0, -1.0, 1.0, 0.0), 1.0);
  EXPECT_EQ(fv::barth_jespersen{}(2.0, -1.0, 1.0, 0.0), 0.5);
  EXPECT_EQ(fv::barth_jespersen{}(-4.0, -1.0, 1.0, 0.0), 0.25);
  EXPECT_EQ(fv::barth_jespersen{}(0.5, -1.0, 1.0, 0.0), 1.0);
  EXPECT_EQ(fv::barth_jespersen{}(0.5, -1.0, 0.0, 0.0), 0.0);    // a local maximum
  EXPECT_EQ(fv::barth_jespersen{}(0.5, -1.0, 0.0, 123.0), 0.0);  // eps2 is ignored
}

TEST(venkatakrishnan, without_smoothing_keeps_the_reconstruction_within_the_bounds) {
  int failures = 0;
  for (const cell_case& c : sample_cells()) {
    const double d_min = c.u_min - c.u_c;
    const double d_max = c.u_max - c.u_c;
    const double phi = fv::venkatakrishnan{}(c.delta, d_min, d_max, 0.0);
    const double bj = fv::barth_jespersen{}(c.delta, d_min, d_max, 0.0);
    // It never allows more than Barth-Jespersen: (y^2 + 2y) / (y^2 + y + 2) <= min(1, y).
    const bool ok = phi >= 0.0 && phi <= 1.0 && within_bounds(c, phi) && phi <= bj * (1 + 1e-15);
    if (!ok && ++failures <= 5) {
      ADD_FAILURE() << "u_c " << c.u_c << " [" << c.u_min << ", " << c.u_max << "] delta "
                    << c.delta << " -> " << phi << " (Barth-Jespersen " << bj << ")";
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(venkatakrishnan, follows_its_formula_clamped_to_one) {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 0; i < 20000; ++i) {
    const double delta = 4.0 * unit(rng) - 2.0;
    const double d = delta > 0.0 ? 3.0 * unit(rng) : -3.0 * unit(rng);
    const double eps2 = i % 2 == 0 ? 0.0 : unit(rng);
    const double raw =
        (d * d + 2.0 * d * delta + eps2) / (d * d + d * delta + 2.0 * delta * delta + eps2);
    const double phi =
        fv::venkatakrishnan{}(delta, delta > 0 ? -1.0 : d, delta > 0 ? d : 1.0, eps2);
    EXPECT_NEAR(phi, std::fmin(1.0, raw), 1e-14) << "delta " << delta << " d " << d;
  }
  // The unclamped form peaks near d / delta = 2 + 2 sqrt 2 at ~1.099: clamped to 1.
  EXPECT_EQ(fv::venkatakrishnan{}(1.0, -1.0, 2.0 + 2.0 * std::sqrt(2.0), 0.0), 1.0);
  EXPECT_DOUBLE_EQ(fv::venkatakrishnan{}(1.0, -1.0, 1.0, 0.0), 0.75);  // y = 1: 3 / 4
  EXPECT_EQ(fv::venkatakrishnan{}(0.0, -1.0, 1.0, 0.0), 1.0);
  EXPECT_EQ(fv::venkatakrishnan{}(1.0, -1.0, 0.0, 0.0), 0.0);  // a local maximum
}

TEST(venkatakrishnan, tends_to_one_for_small_increments_when_smoothing) {
  for (double eps2 : {1e-9, 1e-6, 1e-3}) {
    for (double d_max : {0.0, 1e-4, 1.0}) {
      double previous = 0.0;
      for (int k = 0; k <= 12; ++k) {
        const double delta = std::pow(10.0, -k);
        const double phi = fv::venkatakrishnan{}(delta, -d_max, d_max, eps2);
        EXPECT_GE(phi, 0.0);
        EXPECT_LE(phi, 1.0);
        EXPECT_GE(phi, previous - 1e-15)
            << "eps2 " << eps2 << " d_max " << d_max << " delta " << delta;
        previous = phi;
        // Also for the opposite sign of the increment.
        EXPECT_EQ(phi, fv::venkatakrishnan{}(-delta, -d_max, d_max, eps2));
      }
      EXPECT_GT(previous, 1.0 - 1e-6) << "eps2 " << eps2 << " d_max " << d_max;
    }
  }
  // Even at an extremum (d = 0) a tiny increment against eps2 is left alone.
  EXPECT_EQ(fv::venkatakrishnan{}(1e-300, 0.0, 0.0, 1e-6), 1.0);
  EXPECT_EQ(fv::venkatakrishnan{}(1e-300, 0.0, 0.0, 0.0), 0.0);
  EXPECT_TRUE(std::isfinite(fv::venkatakrishnan{}(1e300, -1e300, 1e300, 1e-6)));
}

TEST(limiter_kind, parses_every_name_and_round_trips) {
  struct spelling {
    const char* name;
    fv::limiter_kind kind;
  };
  const spelling spellings[] = {{"none", fv::limiter_kind::none},
                                {"barth", fv::limiter_kind::barth_jespersen},
                                {"barth-jespersen", fv::limiter_kind::barth_jespersen},
                                {"venkat", fv::limiter_kind::venkatakrishnan},
                                {"venkatakrishnan", fv::limiter_kind::venkatakrishnan},
                                {"minmod", fv::limiter_kind::minmod},
                                {"van-leer", fv::limiter_kind::van_leer},
                                {"van-albada", fv::limiter_kind::van_albada},
                                {"superbee", fv::limiter_kind::superbee},
                                {"mc", fv::limiter_kind::mc}};
  for (const spelling& s : spellings) {
    EXPECT_EQ(fv::parse_limiter(s.name), s.kind) << s.name;
    EXPECT_EQ(fv::parse_limiter(fv::name_of(s.kind)), s.kind) << s.name;
  }
  EXPECT_STREQ(fv::name_of(fv::limiter_kind::barth_jespersen), "barth-jespersen");
  EXPECT_STREQ(fv::name_of(fv::limiter_kind::van_leer), "van-leer");

  try {
    fv::parse_limiter("vanleer");
    ADD_FAILURE() << "an unknown name was accepted";
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("vanleer"), std::string::npos) << message;
    for (const spelling& s : spellings) {
      EXPECT_NE(message.find(std::string(" ") + s.name), std::string::npos) << message;
    }
  }
  EXPECT_THROW(fv::parse_limiter(""), std::invalid_argument);
  EXPECT_THROW(fv::parse_limiter("MC"), std::invalid_argument);
}

TEST(limiter_kind, tells_slope_limiters_from_cell_limiters) {
  using k = fv::limiter_kind;
  for (k kind : {k::minmod, k::van_leer, k::van_albada, k::superbee, k::mc}) {
    EXPECT_TRUE(fv::is_slope_limiter(kind)) << fv::name_of(kind);
  }
  for (k kind : {k::none, k::barth_jespersen, k::venkatakrishnan}) {
    EXPECT_FALSE(fv::is_slope_limiter(kind)) << fv::name_of(kind);
  }
  static_assert(fv::is_slope_limiter(k::mc));
}

// The inline min/max the limiters and fluxes use in place of libm's calls: std::fmin's and
// std::fmax's values for every pair, a NaN operand ignored (both NaN: NaN).
TEST(min_max, agree_with_fmin_and_fmax) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> values{-inf,   -1e300, -2.5, -1e-310, -0.0, 0.0,
                                   1e-310, 1.0,    3.0,  1e300,   inf,  nan};
  for (double a : values) {
    for (double b : values) {
      const double lo = fv::detail::min_number(a, b), hi = fv::detail::max_number(a, b);
      if (std::isnan(a) && std::isnan(b)) {
        EXPECT_TRUE(std::isnan(lo) && std::isnan(hi));
        continue;
      }
      EXPECT_EQ(lo, std::fmin(a, b)) << a << " " << b;  // == : -0 and +0 compare equal
      EXPECT_EQ(hi, std::fmax(a, b)) << a << " " << b;
    }
  }
}

// Branch-free Venkatakrishnan: delta == 0 gives exactly 1 whatever the bounds (its formula's
// 0 / 0 there is discarded), and tiny or huge increments stay finite and in [0, 1].
TEST(venkatakrishnan, is_one_for_a_zero_increment_and_finite_at_the_extremes) {
  const fv::venkatakrishnan limiter;
  for (double eps2 : {0.0, 1e-6, 1.0}) {
    EXPECT_EQ(limiter(0.0, 0.0, 0.0, eps2), 1.0);
    EXPECT_EQ(limiter(-0.0, -1.0, 2.0, eps2), 1.0);
    for (double delta : {1e-300, -1e-300, 1e300, -1e300, 5e-324}) {
      for (double d : {0.0, 1e-300, 1.0, 1e300}) {
        const double phi = limiter(delta, -d, d, eps2);
        EXPECT_TRUE(std::isfinite(phi) && phi >= 0.0 && phi <= 1.0)
            << "delta " << delta << " d " << d << " eps2 " << eps2 << ": " << phi;
      }
    }
  }
}
