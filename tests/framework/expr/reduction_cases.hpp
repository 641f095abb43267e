// Local reduction test cases, run on every executor like expression_cases.hpp: ordinary
// sums within a stated tolerance of a long-double loop, reproducible sums bitwise equal to
// the serial oracle whatever the thread count, min/max/minmax exact.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "expression_cases.hpp"

namespace reduction_cases {

namespace fm = funcmesh;
using expression_cases::bitwise_equal;
using expression_cases::field;
using expression_cases::random_field;

struct max_abs {
  FUNCMESH_DEVICE double operator()(double a, double b) const {
    const double x = a < 0 ? -a : a;
    const double y = b < 0 ? -b : b;
    return x < y ? y : x;
  }
};

inline long double long_sum(const std::vector<double>& v) {
  long double s = 0;
  for (double x : v) s += x;
  return s;
}

inline void ordinary_reductions() {
  for (fm::index_t n : {fm::index_t{1}, fm::index_t{999}, fm::index_t{100003}}) {
    field x = random_field(n, 71, -1e3, 1e3), y = random_field(n, 72);
    const auto xv = x.to_vector(), yv = y.to_vector();
    // Stated tolerance: n * eps * sum|x| bounds any summation order's error.
    long double abs_sum = 0, dot = 0;
    for (std::size_t i = 0; i < xv.size(); ++i) {
      abs_sum += std::abs(xv[i]);
      dot += static_cast<long double>(xv[i]) * yv[i];
    }
    const double tolerance = static_cast<double>(n) * 2.3e-16 * static_cast<double>(abs_sum);
    EXPECT_NEAR(fm::sum(x), static_cast<double>(long_sum(xv)), tolerance);
    EXPECT_NEAR(fm::dot(x, y), static_cast<double>(dot), tolerance * 2);
    double norm = 0;
    for (double v : xv) norm += v * v;
    EXPECT_NEAR(fm::norm2(x), std::sqrt(norm), 1e-12 * std::sqrt(norm));
    const auto [lowest, highest] = std::minmax_element(xv.begin(), xv.end());
    EXPECT_EQ(fm::min(x), *lowest);
    EXPECT_EQ(fm::max(x), *highest);
    const auto both = fm::minmax(x);
    EXPECT_EQ(both.min, *lowest);
    EXPECT_EQ(both.max, *highest);
    double largest_magnitude = 0;
    for (double v : xv) largest_magnitude = std::max(largest_magnitude, std::abs(v));
    EXPECT_EQ(fm::reduce(x, 0.0, max_abs{}), largest_magnitude);
    // Over an explicit range and over a list.
    EXPECT_NEAR(fm::sum(x, {.over = fm::iteration_space::range(0, n / 2)}),
                static_cast<double>(long_sum({xv.begin(), xv.begin() + n / 2})), tolerance);
    fm::array<fm::index_t> list{0, n - 1, n / 2};
    EXPECT_EQ(fm::sum(x, {.over = fm::iteration_space::list(list)}),
              (xv[0] + xv[static_cast<std::size_t>(n - 1)]) + xv[static_cast<std::size_t>(n / 2)])
        << "three values summed in list order";
  }
  // An expression of no grid function needs an explicit range.
  EXPECT_THROW((void)fm::sum(fm::index() * 1.0), fm::error);
  EXPECT_EQ(fm::sum(fm::index() * 1.0, {.over = fm::iteration_space::range(0, 101)}), 5050.0);
  // Integers sum exactly.
  fm::grid_function<long long> ones(12345, "ones");
  ones = fm::pure(3LL);
  EXPECT_EQ(fm::sum(ones), 3LL * 12345);
}

// Values whose naive sums depend on the order: wide exponents and cancellation.
inline field nasty_field(fm::index_t n, unsigned seed) {
  field f(n, "nasty");
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-40, 40);
  auto w = f.write();
  for (double& v : w) v = std::ldexp(mantissa(engine), exponent(engine));
  return f;
}

// The reproducible sum on this executor equals the serial oracle bit for bit, for every
// thread count; so do min and max.
inline void reproducible_sums(const fm::executor& here) {
  for (fm::index_t n : {fm::index_t{0}, fm::index_t{5}, fm::index_t{4097}, fm::index_t{200001}}) {
    field x = nasty_field(n, 81 + static_cast<unsigned>(n));
    const double oracle = fm::sum(x, {.on = fm::executor::serial(), .reproducible = true});
    const fm::exact_sum oracle_exact =
        fm::exact_sum_of(x, {.on = fm::executor::serial(), .reproducible = true});
    for (int threads : {1, 2, 3, 7}) {
      fm::exec::scoped_thread_policy policy(threads, 0);
      const double here_sum = fm::sum(x, {.on = here, .reproducible = true});
      EXPECT_TRUE(bitwise_equal(here_sum, oracle))
          << here.name() << " threads " << threads << ": " << here_sum << " vs " << oracle;
      EXPECT_TRUE(fm::exact_sum_of(x, {.on = here}) == oracle_exact);
      EXPECT_TRUE(
          bitwise_equal(fm::dot(x, x, {.on = here, .reproducible = true}),
                        fm::dot(x, x, {.on = fm::executor::serial(), .reproducible = true})));
      EXPECT_TRUE(bitwise_equal(fm::min(x, {.on = here, .reproducible = true}),
                                fm::min(x, {.on = fm::executor::serial(), .reproducible = true})));
    }
    // And it is the correctly rounded exact sum: compare with a host exact_sum.
    fm::exact_sum host;
    for (double v : x.to_vector()) host.add(v);
    EXPECT_TRUE(bitwise_equal(oracle, host.value()));
  }
  // NaN and infinities follow exact_sum's documented rules.
  field special(3, "special");
  {
    auto w = special.write();
    w[0] = 1.0;
    w[1] = std::numeric_limits<double>::infinity();
    w[2] = -std::numeric_limits<double>::infinity();
  }
  EXPECT_TRUE(std::isnan(fm::sum(special, {.on = here, .reproducible = true})));
  // -0 and +0: min is -0 whatever the order.
  field zeros(4, "zeros");
  {
    auto w = zeros.write();
    w[0] = 0.0;
    w[1] = -0.0;
    w[2] = 0.0;
    w[3] = -0.0;
  }
  EXPECT_TRUE(std::signbit(fm::min(zeros, {.on = here})));
  EXPECT_FALSE(std::signbit(fm::max(zeros, {.on = here})));
}

}  // namespace reduction_cases
