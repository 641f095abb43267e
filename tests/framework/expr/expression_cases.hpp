// The grid-expression test cases, written once and run on every executor: the host
// executors from expression_test.cpp, CUDA from expression_cuda_test.cu (nvcc). Each case
// is a free function (nvcc refuses device lambdas inside gtest's private TestBody) that
// runs on default_executor() and compares with plain loops or with the serial executor.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <funcmesh/framework.hpp>
#include <funcmesh/memory/memory_error.hpp>

namespace expression_cases {

namespace fm = funcmesh;
using field = fm::grid_function<double>;

inline field random_field(fm::index_t n, unsigned seed, double low = -2.0, double high = 2.0,
                          fm::index_t halo = 0) {
  field f(n, halo, "random");
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> value(low, high);
  auto w = f.write();
  for (double& v : w) v = value(engine);
  return f;
}

inline std::vector<double> values(const field& f) { return f.to_vector(); }

// Within a few units in the last place: devices may contract a * b + c into one FMA.
inline void expect_close(const std::vector<double>& actual, const std::vector<double>& expected,
                         double relative = 1e-14) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double scale = std::max(1.0, std::abs(expected[i]));
    ASSERT_NEAR(actual[i], expected[i], relative * scale) << "at index " << i;
  }
}

inline bool bitwise_equal(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

constexpr fm::index_t sizes[] = {0, 1, 7, 255, 1000, 4099};

inline void functor_laws() {
  auto id = fm::_([] FUNCMESH_DEVICE(double v) { return v; });
  auto f = fm::_([] FUNCMESH_DEVICE(double v) { return 3.0 * v - 1.0; });
  auto g = fm::_([] FUNCMESH_DEVICE(double v) { return v * v; });
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const fm::index_t n = sizes[seed % 6];
    field x = random_field(n, seed), left(n), right(n);
    left = id / x;
    EXPECT_EQ(values(left), values(x));
    left = (g & f) / x;
    right = g / (f / x);
    EXPECT_EQ(values(left), values(right));
    right = fm::fmap(g, fm::fmap(f, x));  // named form
    EXPECT_EQ(values(left), values(right));
  }
}

inline void applicative_laws() {
  auto id = fm::_([] FUNCMESH_DEVICE(double v) { return v; });
  auto add = fm::_([] FUNCMESH_DEVICE(double a, double b) { return a + b; });
  auto times = fm::_([] FUNCMESH_DEVICE(double a, double b) { return a * b; });
  auto sq = fm::_([] FUNCMESH_DEVICE(double v) { return v * v; });
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const fm::index_t n = sizes[seed % 6];
    field v = random_field(n, seed), w = random_field(n, seed + 100);
    field x = random_field(n, seed + 200), left(n), right(n);
    const double y = 0.25 * seed;
    // identity: pure(id) * v == v
    left = fm::pure(id) * v;
    EXPECT_EQ(values(left), values(v));
    // homomorphism: pure(f) * pure(y) == pure(f(y))
    left = fm::pure(sq) * fm::pure(y);
    right = fm::pure(sq(y));
    EXPECT_EQ(values(left), values(right));
    // interchange: u * pure(y) == pure(apply_to_y) * u, u an expression of functions
    auto u = add / v;
    using function_type = fm::expr_value_t<decltype(u)>;
    auto apply_to_y = fm::_([y] FUNCMESH_DEVICE(function_type h) { return h(y); });
    left = u * fm::pure(y);
    right = fm::pure(apply_to_y) * u;
    EXPECT_EQ(values(left), values(right));
    // composition: pure(compose) * u * r * x == u * (r * x)
    auto r = times / w;
    using r_type = fm::expr_value_t<decltype(r)>;
    auto compose = fm::_([] FUNCMESH_DEVICE(function_type a, r_type b) { return a & b; });
    left = fm::pure(compose) * u * r * x;
    right = u * (r * x);
    EXPECT_EQ(values(left), values(right));
    // The n-ary form equals the named zip_with.
    left = add / v * w;
    right = fm::zip_with(add, v, w);
    EXPECT_EQ(values(left), values(right));
  }
}

inline void monad_laws() {
  auto k = fm::_([] FUNCMESH_DEVICE(double a) { return fm::pure(2.0 * a) + fm::index(); });
  auto h = fm::_([] FUNCMESH_DEVICE(double a) { return fm::pure(a) * fm::pure(a) - fm::index(); });
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const fm::index_t n = sizes[seed % 6];
    field m = random_field(n, seed), left(n), right(n);
    const double a = 0.5 * seed;
    left = fm::pure(a) >>= k;  // left identity
    right = k(a);
    EXPECT_EQ(values(left), values(right));
    left = m >>= fm::pure_function{};  // right identity
    EXPECT_EQ(values(left), values(m));
    left = (m >>= k) >>= h;  // associativity
    auto k_then_h = fm::_([k, h] FUNCMESH_DEVICE(double v) { return k(v) >>= h; });
    right = m >>= k_then_h;
    EXPECT_EQ(values(left), values(right));
    right = fm::bind(fm::bind(m, k), h);  // named form
    EXPECT_EQ(values(left), values(right));
  }
}

inline void arithmetic_matches_plain_loops() {
  for (fm::index_t n : sizes) {
    field x = random_field(n, 1), y = random_field(n, 2), z = random_field(n, 3, 0.1, 2.0);
    field w(n);
    const auto xv = values(x), yv = values(y), zv = values(z);
    std::vector<double> expected(static_cast<std::size_t>(n));
    const double a = 1.5, b = -0.5, c = 2.0;

    w = a * x + b * y - c * z + x * y + 0.5;
    for (std::size_t i = 0; i < expected.size(); ++i)
      expected[i] = a * xv[i] + b * yv[i] - c * zv[i] + xv[i] * yv[i] + 0.5;
    expect_close(values(w), expected);

    w = fm::sin(x) * fm::cos(y) + fm::sqrt(z) / fm::exp(-fm::abs(x)) - fm::log(z);
    for (std::size_t i = 0; i < expected.size(); ++i)
      expected[i] = std::sin(xv[i]) * std::cos(yv[i]) +
                    std::sqrt(zv[i]) / std::exp(-std::abs(xv[i])) - std::log(zv[i]);
    expect_close(values(w), expected, 1e-13);

    w = fm::where(x < y, fm::min(x, z), fm::max(y, 1.0)) + fm::pow(z, 2.0) + fm::index() * 0.5;
    for (std::size_t i = 0; i < expected.size(); ++i)
      expected[i] = (xv[i] < yv[i] ? std::min(xv[i], zv[i]) : std::max(yv[i], 1.0)) +
                    std::pow(zv[i], 2.0) + static_cast<double>(i) * 0.5;
    expect_close(values(w), expected, 1e-13);

    // Compound assignments.
    w = x;
    w += 2.0 * y;
    w -= z;
    w *= z;
    w /= 4.0;
    for (std::size_t i = 0; i < expected.size(); ++i)
      expected[i] = ((xv[i] + 2.0 * yv[i]) - zv[i]) * zv[i] / 4.0;
    expect_close(values(w), expected);
  }
}

inline void paper_examples() {
  const fm::index_t n = 5003;
  field x = random_field(n, 11), y = random_field(n, 12), z(n, "z");
  fm::grid_function<int> ind(n, "ind");
  {
    std::vector<int> permutation(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < permutation.size(); ++i) permutation[i] = static_cast<int>(i);
    std::shuffle(permutation.begin(), permutation.end(), std::mt19937(5));
    auto w = ind.write();
    std::copy(permutation.begin(), permutation.end(), w.begin());
  }
  const auto xv = values(x), yv = values(y);
  const auto iv = ind.to_vector();
  const double a = 0.75, b = -1.25;
  // axpy, functional and arithmetic forms.
  field y1 = y, y2 = y;
  y1 = fm::_([] FUNCMESH_DEVICE(double s, double xi, double yi) { return yi + s * xi; }) /
       fm::pure(a) * x * y1;
  y2 += a * x;
  std::vector<double> expected(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = yv[i] + a * xv[i];
  expect_close(values(y1), expected);
  expect_close(values(y2), expected);
  // indirect axpby: z[i] = a*x[i] + b*y[ind[i]]
  z = fm::_([] FUNCMESH_DEVICE(double s, double xi, double t, fm::proxy<const double> yp, int j) {
        return s * xi + t * yp[j];
      }) /
      fm::pure(a) * x * fm::pure(b) * fm::pure(fm::pr(y)) * ind;
  for (std::size_t i = 0; i < expected.size(); ++i)
    expected[i] = a * xv[i] + b * yv[static_cast<std::size_t>(iv[i])];
  expect_close(values(z), expected);
}

inline void proxies_and_aliasing() {
  const fm::index_t n = 300;
  field u = random_field(n, 21), v(n, "v");
  u.set_name("u");
  auto left_neighbour = fm::_([] FUNCMESH_DEVICE(fm::proxy<const double> p, fm::index_t i) {
    return i > 0 ? p[i - 1] : p[i];
  });
  // What reaches a kernel is trivially copyable.
  static_assert(std::is_trivially_copyable_v<fm::proxy<const double>>);
  {
    fm::token holder;
    fm::binder b(fm::host_space, holder);
    auto bound = (left_neighbour / fm::pure(fm::pr(u)) * fm::index()).bind_to(b);
    static_assert(FUNCMESH_KERNEL_COPYABLE(decltype(bound)));
    (void)bound;
  }
  v = left_neighbour / fm::pure(fm::pr(u)) * fm::index();
  const auto uv = values(u);
  const auto vv = values(v);
  for (std::size_t i = 1; i < vv.size(); ++i) ASSERT_EQ(vv[i], uv[i - 1]);
  // Reading the target through a proxy is refused, and nothing is written.
  const auto before = u.write_count();
  try {
    u = left_neighbour / fm::pure(fm::pr(u)) * fm::index();
    ADD_FAILURE() << "aliasing was not detected";
  } catch (const fm::aliasing_error& failure) {
    EXPECT_NE(std::string(failure.what()).find("grid function 'u'"), std::string::npos);
  }
  EXPECT_EQ(u.write_count(), before);
  EXPECT_EQ(values(u), uv);
  // ... also when another statement of a fused loop reads it.
  EXPECT_THROW(fm::run({}, fm::set(v, u + 1.0),
                       fm::set(u, left_neighbour / fm::pure(fm::pr(v)) * fm::index())),
               fm::aliasing_error);
  // Reading the target at its own index is fine.
  u = 2.0 * u + 1.0;
  const auto doubled = values(u);
  for (std::size_t i = 0; i < uv.size(); ++i) ASSERT_EQ(doubled[i], 2.0 * uv[i] + 1.0);
  EXPECT_GT(u.write_count(), before);
}

inline void fused_equals_separate() {
  const fm::index_t n = 2001;
  field x = random_field(n, 31), y = random_field(n, 32);
  field a1(n), b1(n), a2(n), b2(n);
  a1 = x + y;
  b1 = a1 * 2.0 - x;
  b1 += y;
  fm::run({}, fm::set(a2, x + y), fm::set(b2, a2 * 2.0 - x), fm::add_to(b2, y));
  EXPECT_EQ(values(a1), values(a2));
  EXPECT_EQ(values(b1), values(b2));
  // Many targets in one loop (more than the binder keeps inline), each reading the last.
  field t1(n), t2(n), t3(n), t4(n), t5(n), t6(n);
  fm::run({}, fm::set(t1, x + 1.0), fm::set(t2, t1 * 2.0), fm::set(t3, t2 - y),
          fm::set(t4, t3 * t1), fm::set(t5, t4 + t2), fm::set(t6, t5 - t3));
  const auto xv = values(x), yv = values(y), t6v = values(t6);
  for (std::size_t i = 0; i < xv.size(); ++i) {
    const double v1 = xv[i] + 1.0, v2 = v1 * 2.0, v3 = v2 - yv[i], v4 = v3 * v1, v5 = v4 + v2;
    ASSERT_EQ(t6v[i], v5 - v3) << i;
  }
  // A target that an earlier statement reads keeps its old values: on a device they must
  // be copied in, although the later statement overwrites the target whole.
  field u = random_field(n, 33), w(n, "w"), c(n, "c");
  const auto old_u = values(u);
  fm::run({}, fm::set(w, u * 2.0), fm::set(u, fm::pure(1.0)));
  fm::run({}, fm::set(c, fm::pure(0.0)), fm::add_to(c, w), fm::set(c, c + 1.0));
  const auto wv = values(w), uv = values(u), cv = values(c);
  for (std::size_t i = 0; i < old_u.size(); ++i) {
    ASSERT_EQ(wv[i], old_u[i] * 2.0) << i;
    ASSERT_EQ(uv[i], 1.0) << i;
    ASSERT_EQ(cv[i], wv[i] + 1.0) << i;
  }
  field other(n + 1);
  EXPECT_THROW(fm::run({}, fm::set(a2, x), fm::set(other, fm::pure(1.0))), fm::error);
  // Reading a smaller function at the loop's indices would read past its end.
  field shorter(n - 1, "shorter");
  try {
    a1 = x + shorter;
    ADD_FAILURE() << "a read past the end of 'shorter' was not refused";
  } catch (const fm::error& failure) {
    EXPECT_NE(std::string(failure.what()).find("'shorter'"), std::string::npos);
  }
}

inline void iteration_spaces() {
  const fm::index_t owned = 100, halo = 17;
  field u(owned, halo, "u");
  u.assign(fm::pure(-1.0), {.over = fm::iteration_space::owned_and_halo()});
  u = fm::pure(1.0);  // owned only
  auto check = [&](fm::index_t i, double expected) {
    ASSERT_EQ(values(u)[static_cast<std::size_t>(i)], expected) << i;
  };
  for (fm::index_t i = 0; i < owned; ++i) check(i, 1.0);
  for (fm::index_t i = owned; i < owned + halo; ++i) check(i, -1.0);
  u.assign(fm::pure(2.0), {.over = fm::iteration_space::range(90, 110)});
  for (fm::index_t i = 0; i < owned + halo; ++i)
    check(i, i >= 90 && i < 110 ? 2.0 : (i < owned ? 1.0 : -1.0));
  // Interior, then boundary: one assignment run over two ranges (what comm does around
  // a halo exchange) equals one run over the whole range.
  field x = random_field(owned, 41, -1, 1, halo), whole(owned, halo, "whole");
  whole = fm::sin(x);
  u.assign(fm::sin(x), {.over = fm::iteration_space::range(0, 60)});
  u.assign(fm::sin(x), {.over = fm::iteration_space::range(60, owned)});
  const auto uv = values(u), wv = values(whole);
  for (std::size_t i = 0; i < static_cast<std::size_t>(owned); ++i) ASSERT_EQ(uv[i], wv[i]);
  // An index list touches exactly the listed entries.
  fm::array<fm::index_t> list{3, 50, 116, 7};
  u = fm::pure(0.0);
  u.assign(fm::index() * 1.0, {.over = fm::iteration_space::list(list)});
  const auto lv = values(u);
  for (fm::index_t i = 0; i < owned; ++i) {
    const bool listed = i == 3 || i == 50 || i == 7;
    ASSERT_EQ(lv[static_cast<std::size_t>(i)], listed ? static_cast<double>(i) : 0.0);
  }
  EXPECT_EQ(lv[116], 116.0);
  EXPECT_THROW(u.assign(fm::pure(0.0), {.over = fm::iteration_space::range(0, owned + halo + 1)}),
               fm::error);
}

inline void vector_values() {
  using state = fm::vec<double, 4>;
  const fm::index_t n = 777;
  fm::grid_function<state> u(n, "u"), k(n, "k"), next(n, "next");
  {
    auto uw = u.write();
    auto kw = k.write();
    for (fm::index_t i = 0; i < n; ++i)
      for (int c = 0; c < 4; ++c) {
        uw[i][c] = static_cast<double>(i + c);
        kw[i][c] = 0.5 * c - static_cast<double>(i % 3);
      }
  }
  const double dt = 0.1;
  next = u + dt * k;
  next -= 0.5 * k;
  auto density = fm::_([] FUNCMESH_DEVICE(state s) { return s[0] + s[3]; });
  field rho(n, "rho");
  rho = density / next;
  const auto nv = next.to_vector(), uv = u.to_vector(), kv = k.to_vector();
  const auto rv = values(rho);
  for (std::size_t i = 0; i < nv.size(); ++i) {
    for (int c = 0; c < 4; ++c) ASSERT_EQ(nv[i][c], uv[i][c] + dt * kv[i][c] - 0.5 * kv[i][c]);
    ASSERT_EQ(rv[i], nv[i][0] + nv[i][3]);
  }
}

// A plain functor with one concrete operator(), for the named fmap (no _() needed).
struct swirl {
  FUNCMESH_DEVICE double operator()(const fm::vec<double, 3>& x) const {
    return x[0] * x[1] - x[2];
  }
};

inline void components_and_make_vec() {
  using point = fm::vec<double, 3>;
  for (const fm::index_t n : sizes) {
    const field a = random_field(n, 7), b = random_field(n, 8);
    fm::grid_function<point> p(n, "p");
    p = fm::make_vec(a, b, 2.5);  // an expression, another, a number
    field x(n, "x"), y(n, "y"), z(n, "z"), s(n, "s");
    x = fm::component<0>(p);
    y = fm::component<1>(p);
    z = fm::component<2>(p);
    s = fm::fmap(swirl{}, p);
    const auto av = values(a), bv = values(b);
    const auto pv = p.to_vector();
    const auto xv = values(x), yv = values(y), zv = values(z), sv = values(s);
    for (std::size_t i = 0; i < av.size(); ++i) {
      ASSERT_EQ(pv[i][0], av[i]);
      ASSERT_EQ(pv[i][1], bv[i]);
      ASSERT_EQ(pv[i][2], 2.5);
      ASSERT_EQ(xv[i], av[i]);
      ASSERT_EQ(yv[i], bv[i]);
      ASSERT_EQ(zv[i], 2.5);
      ASSERT_EQ(sv[i], av[i] * bv[i] - 2.5);
    }
    // Mixed operand types share their common type; components compose with arithmetic.
    fm::grid_function<fm::vec<double, 2>> q(n, "q");
    q = fm::make_vec(1, fm::component<1>(p) * 2.0);
    const auto qv = q.to_vector();
    for (std::size_t i = 0; i < qv.size(); ++i) {
      ASSERT_EQ(qv[i][0], 1.0);
      ASSERT_EQ(qv[i][1], bv[i] * 2.0);
    }
  }
}

inline void gather_and_scatter() {
  const fm::index_t n = 1000;
  field u = random_field(n, 51, -1, 1, 20), v(n, 20, "v");
  fm::array<fm::index_t> list{999, 0, 5, 1019, 512, 3};
  fm::array<double> packed;
  fm::gather(u, list, packed);
  const auto uv = values(u);
  const auto pv = packed.to_vector();
  const auto lv = list.to_vector();
  ASSERT_EQ(pv.size(), lv.size());
  for (std::size_t k = 0; k < pv.size(); ++k) ASSERT_EQ(pv[k], uv[static_cast<std::size_t>(lv[k])]);
  v = fm::pure(0.0);
  fm::scatter(packed, list, v);
  const auto vv = values(v);
  for (std::size_t k = 0; k < lv.size(); ++k) ASSERT_EQ(vv[static_cast<std::size_t>(lv[k])], pv[k]);
  fm::array<fm::index_t> bad{0, 1020};
  EXPECT_THROW(fm::gather(u, bad, packed), fm::error);
  // vec values move whole.
  fm::grid_function<fm::vec<float, 3>> s(10, "s");
  {
    auto w = s.write();
    for (fm::index_t i = 0; i < 10; ++i) w[i] = {float(i), float(2 * i), float(3 * i)};
  }
  fm::array<fm::vec<float, 3>> packed_vectors;
  fm::array<fm::index_t> few{9, 2};
  fm::gather(s, few, packed_vectors);
  const auto got = packed_vectors.to_vector();
  EXPECT_EQ(got[0][2], 27.0f);
  EXPECT_EQ(got[1][1], 4.0f);
}

inline void serial_only_work_runs_on_one_thread() {
  fm::exec::scoped_thread_policy policy(4, 0);
  const fm::index_t n = 10000;
  field x = random_field(n, 61), y(n);
  auto not_thread_safe = fm::serial_only([] FUNCMESH_DEVICE(double v) { return v + 1.0; });
  y = not_thread_safe / x;
  EXPECT_EQ(fm::exec::last_actual_threads(), 1);
  const auto xv = values(x), yv = values(y);
  for (std::size_t i = 0; i < xv.size(); ++i) ASSERT_EQ(yv[i], xv[i] + 1.0);
}

inline void host_access_during_assignment_is_an_error_not_a_hang() {
  field u(10, "u");
  auto held = u.write();
  EXPECT_THROW(u = fm::pure(1.0), fm::token_error);
}

}  // namespace expression_cases

// Every case above and in reduction_cases.hpp as a TEST_P of `fixture` (a
// TestWithParam<executor> that makes its parameter the default executor), so each
// executor's test file runs the same list.
#define FUNCMESH_EXPRESSION_CASES(fixture)                                                  \
  TEST_P(fixture, functor_laws) { expression_cases::functor_laws(); }                       \
  TEST_P(fixture, applicative_laws) { expression_cases::applicative_laws(); }               \
  TEST_P(fixture, monad_laws) { expression_cases::monad_laws(); }                           \
  TEST_P(fixture, arithmetic_matches_plain_loops) {                                         \
    expression_cases::arithmetic_matches_plain_loops();                                     \
  }                                                                                         \
  TEST_P(fixture, paper_examples) { expression_cases::paper_examples(); }                   \
  TEST_P(fixture, proxies_and_aliasing) { expression_cases::proxies_and_aliasing(); }       \
  TEST_P(fixture, fused_equals_separate) { expression_cases::fused_equals_separate(); }     \
  TEST_P(fixture, iteration_spaces) { expression_cases::iteration_spaces(); }               \
  TEST_P(fixture, vector_values) { expression_cases::vector_values(); }                     \
  TEST_P(fixture, gather_and_scatter) { expression_cases::gather_and_scatter(); }           \
  TEST_P(fixture, components_and_make_vec) { expression_cases::components_and_make_vec(); } \
  TEST_P(fixture, serial_only_work_runs_on_one_thread) {                                    \
    expression_cases::serial_only_work_runs_on_one_thread();                                \
  }                                                                                         \
  TEST_P(fixture, host_access_during_assignment_is_an_error_not_a_hang) {                   \
    expression_cases::host_access_during_assignment_is_an_error_not_a_hang();               \
  }                                                                                         \
  TEST_P(fixture, ordinary_reductions) { reduction_cases::ordinary_reductions(); }          \
  TEST_P(fixture, reproducible_sums) { reduction_cases::reproducible_sums(GetParam()); }
