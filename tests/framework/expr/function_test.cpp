// Functions: _(), signature traits, currying, composition, zero-argument functions, and
// the maybe instance of Functor / Applicative / Monad with its laws.
#include <gtest/gtest.h>

#include <random>
#include <type_traits>

#include <funcmesh/expr/expr.hpp>

namespace fm = funcmesh;

namespace {

auto add3 = fm::_([](int a, int b, int c) { return a + b + c; });
auto square = fm::_([](int x) { return x * x; });
auto increment = fm::_([](int x) { return x + 1; });

TEST(function, wraps_without_overhead_and_knows_its_signature) {
  auto lambda = [](double x, int k) { return x * k; };
  auto f = fm::_(lambda);
  static_assert(sizeof(f) == sizeof(lambda));
  static_assert(std::is_trivially_copyable_v<decltype(f)>);
  static_assert(std::is_same_v<fm::result_of_t<decltype(f)>, double>);
  static_assert(std::is_same_v<fm::argument_t<decltype(f), 0>, double>);
  static_assert(std::is_same_v<fm::argument_t<decltype(f), 1>, int>);
  static_assert(fm::arity_v<decltype(f)> == 2);
  static_assert(std::is_same_v<decltype(fm::_(f)), decltype(f)>, "_ of a function is itself");
  EXPECT_EQ(f(1.5, 2), 3.0);
  // A capturing lambda keeps its state by value.
  double scale = 4.0;
  auto g = fm::_([scale](double x) { return scale * x; });
  scale = 0.0;
  EXPECT_EQ(g(2.0), 8.0);
}

TEST(function, currying_binds_first_arguments) {
  EXPECT_EQ((add3 << 1 << 2)(3), 6);
  EXPECT_EQ((add3 << 1)(2, 3), 6);
  static_assert(fm::arity_v<decltype(add3 << 1)> == 2);
  static_assert(fm::arity_v<decltype(add3 << 1 << 2 << 3)> == 0);
  EXPECT_EQ(fm::invoke_f0(add3 << 1 << 2 << 3), 6);
  // Arguments convert to the parameter type when bound, not when called.
  auto halve = fm::_([](int a, double b) { return a / b; });
  EXPECT_EQ((halve << 3.9)(2.0), 1.5);
}

TEST(function, composition_applies_right_to_left) {
  EXPECT_EQ((square & increment)(2), 9);
  EXPECT_EQ((increment & square)(2), 5);
  static_assert(std::is_same_v<fm::result_of_t<decltype(square & increment)>, int>);
  // Associativity and identity, over many values.
  auto id = fm::_([](int x) { return x; });
  for (int x = -50; x <= 50; ++x) {
    EXPECT_EQ(((square & increment) & square)(x), (square & (increment & square))(x));
    EXPECT_EQ((id & square)(x), square(x));
    EXPECT_EQ((square & id)(x), square(x));
  }
  // Composing with a curried function.
  EXPECT_EQ((square & (add3 << 1 << 1))(1), 9);
}

TEST(function, zero_argument_functions) {
  auto three = fm::_([] { return 3; });
  EXPECT_EQ(fm::invoke_f0(three), 3);
  EXPECT_EQ(fm::invoke_f0(7), 7);
  static_assert(std::is_same_v<fm::remove_f0_t<decltype(three)>, int>);
  static_assert(std::is_same_v<fm::remove_f0_t<double>, double>);
  static_assert(std::is_same_v<fm::remove_f0_t<decltype(add3 << 1)>, decltype(add3 << 1)>);
  EXPECT_EQ(fm::apply_partially(add3, 1, 2, 3), 6);
  EXPECT_EQ(fm::apply_partially(add3, 1, 2)(3), 6);
}

// maybe: the second Functor / Applicative / Monad, checked on random values.
class maybe_laws : public ::testing::TestWithParam<unsigned> {
 protected:
  fm::maybe<int> random_maybe() {
    // Small enough that squares of sums stay far from int overflow (UBSan checks).
    std::uniform_int_distribution<int> value(-100, 100);
    const int v = value(engine_);
    return v % 5 == 0 ? fm::nothing<int>() : fm::just(v);
  }
  std::mt19937 engine_{GetParam()};
};

TEST_P(maybe_laws, functor) {
  auto id = fm::_([](int x) { return x; });
  for (int k = 0; k < 200; ++k) {
    const auto x = random_maybe();
    EXPECT_EQ(id / x, x);
    EXPECT_EQ((square & increment) / x, square / (increment / x));
  }
}

TEST_P(maybe_laws, applicative) {
  using impl = fm::applicative_impl<fm::maybe<int>>;
  auto id = fm::_([](int x) { return x; });
  for (int k = 0; k < 200; ++k) {
    const auto v = random_maybe();
    const int y = v ? v.value : 7;  // never read a nothing's value
    // identity, homomorphism
    EXPECT_EQ(fm::just(id) * v, v);
    EXPECT_EQ(fm::just(square) * impl::pure(y), impl::pure(square(y)));
    // interchange: u * pure(y) == pure($ y) * u
    const auto u = v ? fm::just(add3 << 1 << v.value) : fm::nothing<decltype(add3 << 1 << 0)>();
    using function_type = decltype(add3 << 1 << 0);
    auto apply_y = fm::_([y](function_type f) { return f(y); });
    EXPECT_EQ(u * impl::pure(y), fm::just(apply_y) * u);
    // composition: pure(.) * u * w * x == u * (w * x)
    auto compose = fm::_([](function_type g, decltype(square) f) { return g & f; });
    const auto w = random_maybe() ? fm::just(square) : fm::nothing<decltype(square)>();
    const auto x = random_maybe();
    EXPECT_EQ(fm::just(compose) * u * w * x, u * (w * x));
  }
}

TEST_P(maybe_laws, monad) {
  auto half = fm::_([](int x) { return x % 2 == 0 ? fm::just(x / 2) : fm::nothing<int>(); });
  auto positive = fm::_([](int x) { return x > 0 ? fm::just(x) : fm::nothing<int>(); });
  auto unit = fm::_([](int x) { return fm::just(x); });
  for (int k = 0; k < 200; ++k) {
    const auto m = random_maybe();
    const int a = m ? m.value : 7;
    EXPECT_EQ(fm::just(a) >>= half, half(a));  // left identity
    EXPECT_EQ(m >>= unit, m);                  // right identity
    auto chained = fm::_([=](int x) { return half(x) >>= positive; });
    EXPECT_EQ((m >>= half) >>= positive, m >>= chained);  // associativity
  }
}

INSTANTIATE_TEST_SUITE_P(seeds, maybe_laws, ::testing::Range(1u, 21u));

}  // namespace
