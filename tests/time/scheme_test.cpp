// Schemes: observed order of every built-in scheme on y' = lambda y (autonomous and with a
// time-dependent forcing), user tableaus bitwise equal to the built-ins, low-storage and
// Shu-Osher forms equal to their tableaus to rounding, and tableau checks.
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "time_test_support.hpp"

namespace {

using namespace time_test;

// Each file instantiates its own suite (a shared fixture would run every test twice).
class schemes : public on_executor {};
namespace ft = funcmesh::time;

// The largest error at t = 1 after stepping with dt = 1/steps.
template <class Scheme>
double error_at_1(const Scheme& scheme, int steps, bool forced) {
  decay p;
  const std::vector<double> lambda = p.lambda.to_vector();
  ft::driver run(scheme, {.t_end = 1.0, .dt = 1.0 / steps});
  ft::run_summary done;
  if (forced) {
    // y' = lambda (y - sin t) + cos t: y = sin t + exp(lambda t); exercises the stage times.
    done = run(p.y, [&](const fm::grid_function<double>& v, double t) {
      return p.lambda * (v - std::sin(t)) + std::cos(t);
    });
  } else {
    done = run(p.y, [&](const fm::grid_function<double>& v) { return p.lambda * v; });
  }
  EXPECT_EQ(done.steps, steps);
  EXPECT_EQ(done.t, 1.0);
  const std::vector<double> y = p.y.to_vector();
  double worst = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double exact = std::exp(lambda[i]) + (forced ? std::sin(1.0) : 0.0);
    worst = std::max(worst, std::abs(y[i] - exact));
  }
  return worst;
}

template <class Scheme>
void expect_order(const Scheme& scheme, double nominal, const std::string& name) {
  for (bool forced : {false, true}) {
    const double e1 = error_at_1(scheme, 40, forced);
    const double e2 = error_at_1(scheme, 80, forced);
    const double e3 = error_at_1(scheme, 160, forced);
    const double order12 = std::log2(e1 / e2);
    const double order23 = std::log2(e2 / e3);
    EXPECT_NEAR(order23, nominal, 0.1)
        << name << (forced ? " (forced)" : "") << ": errors " << e1 << " " << e2 << " " << e3;
    EXPECT_NEAR(order12, nominal, 0.15) << name << (forced ? " (forced)" : "");
  }
}

TEST_P(schemes, every_built_in_scheme_has_its_order) {
  expect_order(ft::forward_euler{}, 1.0, "forward_euler");
  expect_order(ft::ssp_rk2{}, 2.0, "ssp_rk2");
  expect_order(ft::ssp_rk3{}, 3.0, "ssp_rk3");
  expect_order(ft::rk4{}, 4.0, "rk4");
  expect_order(ft::williamson_rk3{}, 3.0, "williamson_rk3");
  expect_order(ft::carpenter_kennedy_rk4{}, 4.0, "carpenter_kennedy_rk4");
  expect_order(ft::explicit_rk(ft::tableaus::ssp_rk3()), 3.0, "ssp_rk3 tableau");
}

template <class A, class B>
std::vector<double> solve(const A& scheme_a, int steps, const B& rhs) {
  decay p;
  ft::driver run(scheme_a, {.steps = steps, .dt = 0.05});
  run(p.y, [&](const fm::grid_function<double>& v) { return rhs(p.lambda, v); });
  return p.y.to_vector();
}

auto linear = [](const fm::grid_function<double>& lambda, const fm::grid_function<double>& v) {
  return lambda * v;
};

TEST_P(schemes, a_user_tableau_equals_the_built_in_bitwise) {
  const ft::explicit_rk user_rk4{{{0, 0, 0, 0}, {0.5, 0, 0, 0}, {0, 0.5, 0, 0}, {0, 0, 1, 0}},
                                 {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}};
  const auto builtin = solve(ft::rk4{}, 30, linear);
  const auto user = solve(user_rk4, 30, linear);
  ASSERT_EQ(builtin.size(), user.size());
  for (std::size_t i = 0; i < user.size(); ++i) ASSERT_EQ(builtin[i], user[i]) << "at " << i;

  const ft::explicit_rk user_euler{{{0}}, {1}};
  EXPECT_EQ(solve(ft::forward_euler{}, 30, linear), solve(user_euler, 30, linear));
}

void expect_close(const std::vector<double>& a, const std::vector<double>& b,
                  const std::string& what) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_NEAR(a[i], b[i], 1e-13 * std::abs(b[i])) << what << " at " << i;
  }
}

TEST_P(schemes, cheaper_forms_equal_their_tableaus_to_rounding) {
  const ft::williamson_rk3 w;
  expect_close(solve(w, 30, linear), solve(ft::explicit_rk(w.tableau()), 30, linear),
               "williamson_rk3");
  const ft::carpenter_kennedy_rk4 ck;
  expect_close(solve(ck, 30, linear), solve(ft::explicit_rk(ck.tableau()), 30, linear),
               "carpenter_kennedy_rk4");
  expect_close(solve(ft::ssp_rk3{}, 30, linear),
               solve(ft::explicit_rk(ft::tableaus::ssp_rk3()), 30, linear), "ssp_rk3");
  expect_close(solve(ft::ssp_rk2{}, 30, linear),
               solve(ft::explicit_rk(ft::tableaus::ssp_rk2()), 30, linear), "ssp_rk2");
}

// A conservative rhs: each value's loss is its left neighbour's gain (periodic), so the
// rhs sums to zero up to the rounding of each difference.
struct periodic_transport {
  fm::index_t n;
  template <class P>
  double operator()(const P& u, fm::index_t i) const {
    return 0.3 * (u[i == 0 ? n - 1 : i - 1] - u[i]);
  }
};

// Every built-in scheme keeps the sum of a conservative problem to round-off over 4000
// steps, without drift. A Shu-Osher stage written u/3 + 2u'/3 scales the sum by
// fl(1/3) + fl(2/3) = 1 - 2^-54 each step: -2.0e-13 here after 4000 steps (ssp_rk3 before
// its last stage became an increment). The rounding of the others stays within 1.6e-14
// (ssp_rk2; the rest within 3e-16): the bound lies between.
template <class Scheme>
void expect_no_drift(const Scheme& scheme, const std::string& name) {
  constexpr fm::index_t n = 1000;
  fm::grid_function<double> u(n, "u");
  u = 1.0 + 0.5 * fm::sin((4 * std::numbers::pi / n) * fm::index());
  const double before = fm::sum(u, {.reproducible = true});
  ft::driver run(scheme, {.steps = 4000, .dt = 0.05});
  run(u, [&](const fm::grid_function<double>& v) {
    return fm::make_zip(periodic_transport{n}, fm::pure(fm::pr(v)), fm::index());
  });
  const double after = fm::sum(u, {.reproducible = true});
  EXPECT_LT(std::abs(after - before) / before, 5e-14)
      << name << ": the sum went from " << before << " to " << after;
}

TEST_P(schemes, a_conservative_rhs_keeps_its_sum_without_drift) {
  expect_no_drift(ft::forward_euler{}, "forward_euler");
  expect_no_drift(ft::ssp_rk2{}, "ssp_rk2");
  expect_no_drift(ft::ssp_rk3{}, "ssp_rk3");
  expect_no_drift(ft::rk4{}, "rk4");
  expect_no_drift(ft::williamson_rk3{}, "williamson_rk3");
  expect_no_drift(ft::carpenter_kennedy_rk4{}, "carpenter_kennedy_rk4");
  expect_no_drift(ft::explicit_rk(ft::tableaus::ssp_rk3()), "ssp_rk3 tableau");
}

TEST_P(schemes, storage_counts_are_as_documented) {
  EXPECT_EQ(ft::storage_of(ft::forward_euler{}), 1u);
  EXPECT_EQ(ft::storage_of(ft::rk4{}), 5u);
  EXPECT_EQ(ft::storage_of(ft::ssp_rk2{}), 2u);
  EXPECT_EQ(ft::storage_of(ft::ssp_rk3{}), 2u);
  EXPECT_EQ(ft::storage_of(ft::williamson_rk3{}), 1u);
  EXPECT_EQ(ft::storage_of(ft::carpenter_kennedy_rk4{}), 1u);
  // The 2N scheme's derived tableau is consistent (b sums to 1, c = row sums).
  const auto t = ft::williamson_rk3{}.tableau();
  EXPECT_NEAR(t.b(0) + t.b(1) + t.b(2), 1.0, 1e-15);
  EXPECT_NEAR(t.a(2, 0) + t.a(2, 1), 0.75, 1e-15);
}

template <class Make>
void expect_refused(Make make, const std::string& needle) {
  try {
    make();
    ADD_FAILURE() << "accepted; expected an error containing '" << needle << "'";
  } catch (const ft::time_error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST_P(schemes, bad_tableaus_are_refused_with_what_is_wrong) {
  expect_refused([] { ft::butcher_tableau({{0, 0}, {1, 0.5}}, {0.5, 0.5}); }, "not explicit");
  expect_refused([] { ft::butcher_tableau({{0, 0}, {1, 0}}, {0.5, 0.5, 0}); }, "a has 2 rows");
  expect_refused([] { ft::butcher_tableau({{0, 0}, {1}}, {0.5, 0.5}); }, "row 1 of a");
  expect_refused([] { ft::butcher_tableau({{0, 0}, {1, 0}}, {0.5, 0.4}); }, "sum to");
  expect_refused([] { ft::butcher_tableau({{0, 0}, {1, 0}}, {0.5, 0.5}, {0, 0.5}); }, "c[1] = 0.5");
  expect_refused([] { ft::butcher_tableau({}, {}); }, "no stages");
  expect_refused([] { ft::butcher_tableau({{0, 0}, {NAN, 0}}, {0.5, 0.5}); }, "not finite");
  expect_refused([] { ft::low_storage_rk({0.5}, {1}, {0}); }, "A[0] must be 0");
  expect_refused([] { ft::low_storage_rk({0, 0}, {1}, {0}); }, "one entry per stage");
  expect_refused([] { ft::low_storage_rk({0, -0.5}, {0.5, 0.6}, {0, 0.5}); }, "sum to");
  // The name travels into the message.
  expect_refused([] { ft::explicit_rk({{1}}, {1}, {}, "mine"); }, "tableau 'mine'");
}

INSTANTIATE_TEST_SUITE_P(host, schemes, ::testing::ValuesIn(host_executors()),
                         test_support::executor_name{});

}  // namespace
