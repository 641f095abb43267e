// The exact Euler solutions used to verify the finite-volume Euler solver: the Riemann
// solver against Toro's table 4.3 and the jump conditions, the isentropic vortex against
// its definition and the Euler equations themselves (finite differences).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "../../examples/euler_fv/exact_solutions.hpp"

using euler_exact::primitive;
using euler_exact::riemann_problem;

namespace {

constexpr double gamma_air = 1.4;

struct toro_case {
  const char* name;
  primitive left, right;
  double p_star, u_star, rho_star_left, rho_star_right;
  double tolerance;  // the table's last digit
};

// Toro, table 4.3 (tests 1 to 4).
const toro_case toro_cases[] = {
    {"sod", {1.0, 0.0, 1.0}, {0.125, 0.0, 0.1}, 0.30313, 0.92745, 0.42632, 0.26557, 1e-5},
    {"123", {1.0, -2.0, 0.4}, {1.0, 2.0, 0.4}, 0.00189, 0.0, 0.02185, 0.02185, 1e-5},
    {"strong left blast",
     {1.0, 0.0, 1000.0},
     {1.0, 0.0, 0.01},
     460.894,
     19.5975,
     0.57506,
     5.99924,
     1e-3},
    {"colliding shocks",
     {5.99924, 19.5975, 460.894},
     {5.99242, -6.19633, 46.0950},
     1691.64,
     8.68975,
     14.2823,
     31.0426,
     1e-2},
};

double sound_speed(const primitive& w) { return std::sqrt(gamma_air * w.p / w.rho); }

}  // namespace

TEST(riemann_problem, matches_toros_star_states) {
  for (const toro_case& c : toro_cases) {
    SCOPED_TRACE(c.name);
    const riemann_problem problem(c.left, c.right, gamma_air);
    const euler_exact::star_region& star = problem.star();
    EXPECT_NEAR(star.p, c.p_star, c.tolerance * std::fmax(1.0, c.p_star / 100));
    EXPECT_NEAR(star.u, c.u_star, c.tolerance);
    EXPECT_NEAR(star.rho_left, c.rho_star_left, c.tolerance);
    EXPECT_NEAR(star.rho_right, c.rho_star_right, c.tolerance);
    // The star states are what sample() gives on either side of the contact.
    const primitive just_left = problem.sample(star.u - 1e-9);
    const primitive just_right = problem.sample(star.u + 1e-9);
    EXPECT_EQ(just_left.rho, star.rho_left);
    EXPECT_EQ(just_right.rho, star.rho_right);
    EXPECT_EQ(just_left.p, star.p);
    EXPECT_EQ(just_right.u, star.u);
  }
  // Sod to more digits than the table (p* = 0.30313017805, u* = 0.92745262004).
  const riemann_problem sod(toro_cases[0].left, toro_cases[0].right, gamma_air);
  EXPECT_NEAR(sod.star().p, 0.30313017805, 1e-10);
  EXPECT_NEAR(sod.star().u, 0.92745262004, 1e-10);
  // The 123 problem is symmetric: u* is exactly 0.
  EXPECT_EQ(riemann_problem(toro_cases[1].left, toro_cases[1].right, gamma_air).star().u, 0.0);
}

TEST(riemann_problem, far_from_the_waves_keeps_the_initial_states) {
  for (const toro_case& c : toro_cases) {
    SCOPED_TRACE(c.name);
    for (double s : {-1e3, -1e6, -HUGE_VAL}) {
      const primitive w = euler_exact::sample(c.left, c.right, gamma_air, s);
      EXPECT_EQ(w.rho, c.left.rho);
      EXPECT_EQ(w.u, c.left.u);
      EXPECT_EQ(w.p, c.left.p);
    }
    for (double s : {1e3, 1e6, HUGE_VAL}) {
      const primitive w = euler_exact::sample(c.left, c.right, gamma_air, s);
      EXPECT_EQ(w.rho, c.right.rho);
      EXPECT_EQ(w.u, c.right.u);
      EXPECT_EQ(w.p, c.right.p);
    }
  }
}

TEST(riemann_problem, rarefaction_fans_keep_their_riemann_invariant_and_entropy) {
  for (const toro_case& c : toro_cases) {
    SCOPED_TRACE(c.name);
    const riemann_problem problem(c.left, c.right, gamma_air);
    const euler_exact::wave_speeds waves = problem.waves();
    const double g = gamma_air;
    if (waves.left_head < waves.left_tail) {  // a left rarefaction
      const double invariant = c.left.u + 2.0 * sound_speed(c.left) / (g - 1.0);
      const double entropy = c.left.p / std::pow(c.left.rho, g);
      for (int k = 0; k <= 20; ++k) {
        const double s = waves.left_head + (waves.left_tail - waves.left_head) * k / 20.0;
        const primitive w = problem.sample(s);
        EXPECT_NEAR(w.u + 2.0 * sound_speed(w) / (g - 1.0), invariant, 1e-12 * (1 + invariant));
        EXPECT_NEAR(w.p / std::pow(w.rho, g), entropy, 1e-12 * entropy);
        EXPECT_NEAR(w.u - sound_speed(w), s, 1e-12 * (1 + std::abs(s)));  // a C- characteristic
      }
      // Continuous at both edges.
      const primitive head = problem.sample(waves.left_head + 1e-12);
      const primitive tail = problem.sample(waves.left_tail - 1e-12);
      EXPECT_NEAR(head.rho, c.left.rho, 1e-9);
      EXPECT_NEAR(tail.rho, problem.star().rho_left, 1e-9);
      EXPECT_NEAR(tail.p, problem.star().p, 1e-9 * (1 + problem.star().p));
    }
    if (waves.right_tail < waves.right_head) {  // a right rarefaction
      const double invariant = c.right.u - 2.0 * sound_speed(c.right) / (g - 1.0);
      const double entropy = c.right.p / std::pow(c.right.rho, g);
      for (int k = 0; k <= 20; ++k) {
        const double s = waves.right_tail + (waves.right_head - waves.right_tail) * k / 20.0;
        const primitive w = problem.sample(s);
        EXPECT_NEAR(w.u - 2.0 * sound_speed(w) / (g - 1.0), invariant,
                    1e-12 * (1 + std::abs(invariant)));
        EXPECT_NEAR(w.p / std::pow(w.rho, g), entropy, 1e-12 * entropy);
        EXPECT_NEAR(w.u + sound_speed(w), s, 1e-12 * (1 + std::abs(s)));
      }
      const primitive tail = problem.sample(waves.right_tail + 1e-12);
      EXPECT_NEAR(tail.rho, problem.star().rho_right, 1e-9);
    }
  }
}

namespace {

// The Rankine-Hugoniot conditions across a shock of speed s between a and b: mass,
// momentum and energy fluxes in the shock's frame are equal.
void expect_jump_conditions(const primitive& a, const primitive& b, double s) {
  const double g = gamma_air;
  const double va = a.u - s, vb = b.u - s;
  const double mass = a.rho * va;
  EXPECT_NEAR(b.rho * vb, mass, 1e-10 * (1 + std::abs(mass)));
  const double momentum = a.rho * va * va + a.p;
  EXPECT_NEAR(b.rho * vb * vb + b.p, momentum, 1e-10 * momentum);
  const double enthalpy = g / (g - 1.0) * a.p / a.rho + 0.5 * va * va;
  EXPECT_NEAR(g / (g - 1.0) * b.p / b.rho + 0.5 * vb * vb, enthalpy, 1e-10 * enthalpy);
  EXPECT_NE(a.rho, b.rho);
}

}  // namespace

TEST(riemann_problem, shocks_satisfy_the_jump_conditions_where_sampled) {
  for (const toro_case& c : toro_cases) {
    SCOPED_TRACE(c.name);
    const riemann_problem problem(c.left, c.right, gamma_air);
    const euler_exact::wave_speeds waves = problem.waves();
    const double eps = 1e-9;
    if (waves.left_head == waves.left_tail) {
      const double s = waves.left_head;
      expect_jump_conditions(problem.sample(s - eps), problem.sample(s + eps), s);
      EXPECT_EQ(problem.sample(s - eps).rho, c.left.rho);
      EXPECT_EQ(problem.sample(s + eps).rho, problem.star().rho_left);
    }
    if (waves.right_head == waves.right_tail) {
      const double s = waves.right_head;
      expect_jump_conditions(problem.sample(s - eps), problem.sample(s + eps), s);
      EXPECT_EQ(problem.sample(s + eps).rho, c.right.rho);
    }
  }
  // Sod: a right shock and a left rarefaction; test 3: the same; test 4: two shocks.
  EXPECT_EQ(riemann_problem(toro_cases[3].left, toro_cases[3].right, gamma_air).waves().left_head,
            riemann_problem(toro_cases[3].left, toro_cases[3].right, gamma_air).waves().left_tail);
  EXPECT_LT(riemann_problem(toro_cases[0].left, toro_cases[0].right, gamma_air).waves().left_head,
            riemann_problem(toro_cases[0].left, toro_cases[0].right, gamma_air).waves().left_tail);
}

TEST(riemann_problem, mirrored_data_give_the_mirrored_solution) {
  std::mt19937_64 rng(2718);
  std::uniform_real_distribution<double> positive(0.1, 10.0), velocity(-1.0, 1.0);
  for (int i = 0; i < 200; ++i) {
    const primitive l{positive(rng), velocity(rng), positive(rng)};
    const primitive r{positive(rng), velocity(rng), positive(rng)};
    const riemann_problem problem(l, r, gamma_air);
    const riemann_problem mirror({r.rho, -r.u, r.p}, {l.rho, -l.u, l.p}, gamma_air);
    EXPECT_NEAR(mirror.star().p, problem.star().p, 1e-12 * problem.star().p);
    for (double s : {-3.0, -1.0, -0.3, 0.0, 0.2, 0.7, 2.5}) {
      const primitive a = problem.sample(s), b = mirror.sample(-s);
      EXPECT_NEAR(b.rho, a.rho, 1e-9 * a.rho) << "s = " << s;
      EXPECT_NEAR(-b.u, a.u, 1e-9 * (1 + std::abs(a.u))) << "s = " << s;
      EXPECT_NEAR(b.p, a.p, 1e-9 * a.p) << "s = " << s;
    }
  }
}

TEST(riemann_problem, refuses_vacuum_and_nonphysical_data) {
  // u_R - u_L = 8 >= 2 (c_L + c_R) / (gamma - 1) ~ 7.48: a vacuum forms.
  EXPECT_THROW(riemann_problem({1.0, -4.0, 0.4}, {1.0, 4.0, 0.4}, gamma_air), std::domain_error);
  try {
    euler_exact::sample({1.0, -4.0, 0.4}, {1.0, 4.0, 0.4}, gamma_air, 0.0);
  } catch (const std::domain_error& error) {
    EXPECT_NE(std::string(error.what()).find("vacuum"), std::string::npos) << error.what();
  }
  EXPECT_THROW(riemann_problem({0.0, 0.0, 1.0}, {1.0, 0.0, 1.0}, gamma_air), std::invalid_argument);
  EXPECT_THROW(riemann_problem({1.0, 0.0, 1.0}, {1.0, 0.0, -1.0}, gamma_air),
               std::invalid_argument);
  EXPECT_THROW(riemann_problem({1.0, 0.0, 1.0}, {1.0, 0.0, NAN}, gamma_air), std::invalid_argument);
  EXPECT_THROW(riemann_problem({1.0, 0.0, 1.0}, {1.0, 0.0, 1.0}, 1.0), std::invalid_argument);
  // Just short of a vacuum is still solved, with a tiny positive p*.
  EXPECT_GT(riemann_problem({1.0, -3.7, 0.4}, {1.0, 3.7, 0.4}, gamma_air).star().p, 0.0);
}

// ---- The isentropic vortex -----------------------------------------------------------

namespace {

constexpr double beta = 5.0;

euler_exact::flow_2d vortex(double x, double y, double t) {
  return euler_exact::isentropic_vortex(x, y, t, 5.0, 5.0, beta, gamma_air);
}

}  // namespace

TEST(isentropic_vortex, has_its_centre_density_and_the_free_stream_far_away) {
  const double pi = std::numbers::pi;
  const double centre_rho =
      std::pow(1.0 - (gamma_air - 1.0) * beta * beta / (8.0 * gamma_air * pi * pi) * std::exp(1.0),
               1.0 / (gamma_air - 1.0));
  const euler_exact::flow_2d centre = vortex(5.0, 5.0, 0.0);
  EXPECT_NEAR(centre.rho, centre_rho, 1e-14);
  EXPECT_DOUBLE_EQ(centre.u, 1.0);
  EXPECT_DOUBLE_EQ(centre.v, 1.0);
  for (double d : {-40.0, 40.0}) {
    for (const euler_exact::flow_2d& far :
         {vortex(5.0 + d, 5.0, 0.0), vortex(5.0, 5.0 + d, 0.0), vortex(5.0 + d, 5.0 + d, 0.0)}) {
      EXPECT_NEAR(far.rho, 1.0, 1e-12);
      EXPECT_NEAR(far.u, 1.0, 1e-12);
      EXPECT_NEAR(far.v, 1.0, 1e-12);
      EXPECT_NEAR(far.p, 1.0, 1e-12);
    }
  }
}

TEST(isentropic_vortex, is_isentropic_and_moves_with_the_free_stream) {
  std::mt19937_64 rng(314);
  std::uniform_real_distribution<double> coordinate(0.0, 10.0), time(0.0, 20.0);
  for (int i = 0; i < 1000; ++i) {
    const double x = coordinate(rng), y = coordinate(rng), t = time(rng);
    const euler_exact::flow_2d w = vortex(x, y, 0.0);
    EXPECT_NEAR(w.p, std::pow(w.rho, gamma_air), 1e-14);
    const euler_exact::flow_2d moved = vortex(x + t, y + t, t);
    EXPECT_NEAR(moved.rho, w.rho, 1e-12);
    EXPECT_NEAR(moved.u, w.u, 1e-12);
    EXPECT_NEAR(moved.v, w.v, 1e-12);
  }
}

TEST(isentropic_vortex, has_a_divergence_free_velocity) {
  std::mt19937_64 rng(1618);
  std::uniform_real_distribution<double> coordinate(2.0, 8.0);
  const double h = 1e-4;
  for (int i = 0; i < 500; ++i) {
    const double x = coordinate(rng), y = coordinate(rng);
    const double div = (vortex(x + h, y, 0).u - vortex(x - h, y, 0).u) / (2 * h) +
                       (vortex(x, y + h, 0).v - vortex(x, y - h, 0).v) / (2 * h);
    EXPECT_NEAR(div, 0.0, 1e-7) << "at (" << x << ", " << y << ")";
    // ... and it is not trivially so: the vortex does rotate.
    if (i == 0) {
      const double curl = (vortex(5.0 + h, 5.0, 0).v - vortex(5.0 - h, 5.0, 0).v) / (2 * h) -
                          (vortex(5.0, 5.0 + h, 0).u - vortex(5.0, 5.0 - h, 0).u) / (2 * h);
      EXPECT_NEAR(curl, beta / std::numbers::pi * std::exp(0.5), 1e-6);
    }
  }
}

// The vortex solves the 2-D Euler equations: the residuals of mass, momentum and energy
// conservation, by central differences in x, y and t, vanish to O(h^2).
TEST(isentropic_vortex, solves_the_euler_equations) {
  const double g = gamma_air;
  struct conserved {
    double rho, mx, my, e;
  };
  auto fluxes = [&](double x, double y, double t, conserved& q, conserved& fx, conserved& fy) {
    const euler_exact::flow_2d w = vortex(x, y, t);
    const double energy = w.p / (g - 1.0) + 0.5 * w.rho * (w.u * w.u + w.v * w.v);
    q = {w.rho, w.rho * w.u, w.rho * w.v, energy};
    fx = {w.rho * w.u, w.rho * w.u * w.u + w.p, w.rho * w.u * w.v, (energy + w.p) * w.u};
    fy = {w.rho * w.v, w.rho * w.u * w.v, w.rho * w.v * w.v + w.p, (energy + w.p) * w.v};
  };
  std::mt19937_64 rng(4669);
  std::uniform_real_distribution<double> coordinate(3.0, 8.0), time(0.0, 1.0);
  const double h = 1e-4;
  for (int i = 0; i < 300; ++i) {
    const double x = coordinate(rng), y = coordinate(rng), t = time(rng);
    conserved q_tp, q_tm, q_xp, q_xm, q_yp, q_ym, fx_xp, fx_xm, fy_yp, fy_ym, unused_a, unused_b;
    fluxes(x, y, t + h, q_tp, unused_a, unused_b);
    fluxes(x, y, t - h, q_tm, unused_a, unused_b);
    fluxes(x + h, y, t, q_xp, fx_xp, unused_b);
    fluxes(x - h, y, t, q_xm, fx_xm, unused_b);
    fluxes(x, y + h, t, q_yp, unused_a, fy_yp);
    fluxes(x, y - h, t, q_ym, unused_a, fy_ym);
    auto residual = [&](double conserved::*member) {
      return (q_tp.*member - q_tm.*member + fx_xp.*member - fx_xm.*member + fy_yp.*member -
              fy_ym.*member) /
             (2 * h);
    };
    EXPECT_NEAR(residual(&conserved::rho), 0.0, 1e-6);
    EXPECT_NEAR(residual(&conserved::mx), 0.0, 1e-6);
    EXPECT_NEAR(residual(&conserved::my), 0.0, 1e-6);
    EXPECT_NEAR(residual(&conserved::e), 0.0, 1e-6);
  }
}

TEST(isentropic_vortex, wraps_on_a_periodic_box) {
  const double l = 10.0;
  std::mt19937_64 rng(577);
  std::uniform_real_distribution<double> coordinate(0.0, l);
  for (int i = 0; i < 500; ++i) {
    const double x = coordinate(rng), y = coordinate(rng);
    const auto at = [&](double xx, double yy, double t) {
      return euler_exact::isentropic_vortex_periodic(xx, yy, t, 5.0, 5.0, l, l, beta, gamma_air);
    };
    // Back to its start after one period, and periodic in space.
    EXPECT_NEAR(at(x, y, 10.0).rho, at(x, y, 0.0).rho, 1e-13);
    EXPECT_NEAR(at(x, y, 10.0).u, at(x, y, 0.0).u, 1e-13);
    EXPECT_NEAR(at(x + l, y - l, 3.3).v, at(x, y, 3.3).v, 1e-13);
    // Within half a box of the centre it is the unbounded vortex.
    EXPECT_NEAR(at(x, y, 0.0).rho, vortex(x, y, 0.0).rho, 1e-15);
    // At t = 2.5 the centre is at (7.5, 7.5): the point (0.5, 0.5) sees it 3 away, through
    // the boundary.
    EXPECT_NEAR(at(0.5, 0.5, 2.5).rho, vortex(10.5, 10.5, 2.5).rho, 1e-15);
  }
}
