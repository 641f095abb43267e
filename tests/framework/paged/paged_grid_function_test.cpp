// paged_grid_function: assignments and reductions page by page over a file 4x larger than
// each function's cache, bitwise equal to the same expressions over in-memory grid
// functions on the serial executor (the oracle), on every host executor; neighbour reads
// through the cache; the time driver stepping a paged state; and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <funcmesh/expr/expr.hpp>
#include <funcmesh/reduce/reduce.hpp>
#include <funcmesh/time.hpp>

#include "../../common/executor_params.hpp"
#include "paged_test_support.hpp"

namespace funcmesh::testing {
namespace {

// 32 pages of 4096 (the last one short), 2 channels x 4 cached pages: each function has
// a quarter of its pages in memory, the rest in the file.
constexpr index_t page = 4096;
constexpr index_t n = page * 32 - 100;
constexpr paged_options four_times_the_cache{.page = page, .cached = 4};

std::vector<double> random_values(index_t count, unsigned seed, double low = -2, double high = 2) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> pick(low, high);
  std::vector<double> v(static_cast<std::size_t>(count));
  for (double& x : v) x = pick(engine);
  return v;
}

grid_function<double> in_memory(const std::vector<double>& v, std::string name) {
  grid_function<double> f(static_cast<index_t>(v.size()), std::move(name));
  auto w = f.write();
  for (std::size_t i = 0; i < v.size(); ++i) w[static_cast<index_t>(i)] = v[i];
  return f;
}

bool bitwise_equal(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same_bits(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_TRUE(bitwise_equal(got[i], want[i]))
        << "element " << i << ": " << got[i] << " vs " << want[i];
}

// Element i's neighbours i - 1 and i + 1 (clamped) and one half the array away: a read
// that falls on another page nearly always.
struct neighbours {
  index_t size;
  template <class P>
  double operator()(const P& u, index_t i) const {
    const index_t left = i > 0 ? i - 1 : i, right = i + 1 < size ? i + 1 : i;
    return u[left] - 2.0 * u[i] + u[right] + 0.25 * u[(i + size / 2) % size];
  }
};

class paged_grid_function_on : public ::testing::TestWithParam<executor> {
 protected:
  // Splits even one page into an odd number of blocks, so every page runs on threads.
  exec::scoped_thread_policy policy_{3, 0};
  temporary_directory dir_;
  file_store disk_{dir_.path(), {.channels = 2}};
  std::vector<double> xv_ = random_values(n, 1), yv_ = random_values(n, 2, 0.5, 3.0);
  paged_grid_function<double> x_{n, disk_, four_times_the_cache, "x"};
  paged_grid_function<double> y_{n, disk_, four_times_the_cache, "y"};
  grid_function<double> xs_ = in_memory(xv_, "xs"), ys_ = in_memory(yv_, "ys");

  void SetUp() override {
    x_.write(0, xv_);
    y_.write(0, yv_);
    ASSERT_EQ(x_.array().channels() * x_.array().cached_pages_per_channel() * 4, x_.pages());
  }
  run_options on() const { return {.on = GetParam()}; }
  static run_options oracle() { return {.on = executor::serial()}; }
};

TEST_P(paged_grid_function_on, out_of_core_assignment_equals_the_in_memory_result_bitwise) {
  const grid_function<double> ws = in_memory(random_values(n, 3), "ws");  // in memory, read too
  paged_grid_function<double> z(n, disk_, four_times_the_cache, "z");
  z.assign(2.5 * x_ + sqrt(y_) / (1.0 + x_ * x_) - ws * index() * 1e-6, on());
  grid_function<double> zs(n, "zs");
  zs.assign(2.5 * xs_ + sqrt(ys_) / (1.0 + xs_ * xs_) - ws * index() * 1e-6, oracle());
  // Pages of z were overwritten, never read from the file first.
  EXPECT_EQ(z.array().statistics().bytes_from_store, 0u);
  EXPECT_GT(z.array().statistics().write_backs, 0u);
  expect_same_bits(z.to_vector(), zs.to_vector());

  // Compound forms read the target at its own index, in place.
  z.assign(z * 0.5 + y_, on());
  zs.assign(zs * 0.5 + ys_, oracle());
  detail::assign_pages<assign_ops::add>(z, x_ * y_, on());
  zs += xs_ * ys_;
  z /= 3.0;
  zs /= 3.0;
  expect_same_bits(z.to_vector(), zs.to_vector());

  // A range that starts and ends inside pages; values outside it stay.
  const iteration_space part = iteration_space::range(1000, n - 5000);
  z.assign(-x_, {.on = GetParam(), .over = part});
  zs.assign(-xs_, {.on = executor::serial(), .over = part});
  expect_same_bits(z.to_vector(), zs.to_vector());

  // The whole array written back: the file holds the result.
  z.flush();
  std::vector<double> from_file(static_cast<std::size_t>(n));
  z.array().read(0, from_file);
  expect_same_bits(from_file, zs.to_vector());
}

TEST_P(paged_grid_function_on, reductions_equal_the_in_memory_results) {
  const reduce_options exact{.on = GetParam(), .reproducible = true};
  const reduce_options serial_exact{.on = executor::serial(), .reproducible = true};
  EXPECT_TRUE(bitwise_equal(sum(x_, exact), sum(xs_, serial_exact)));
  EXPECT_TRUE(bitwise_equal(sum(x_ * y_ - 1.0, exact), sum(xs_ * ys_ - 1.0, serial_exact)));
  EXPECT_TRUE(bitwise_equal(dot(x_, y_, exact), dot(xs_, ys_, serial_exact)));
  EXPECT_TRUE(bitwise_equal(norm2(x_, exact), norm2(xs_, serial_exact)));
  const reduce_options range_exact{
      .on = GetParam(), .over = iteration_space::range(777, n - 3333), .reproducible = true};
  EXPECT_TRUE(bitwise_equal(
      sum(x_, range_exact),
      sum(xs_, {.on = executor::serial(), .over = range_exact.over, .reproducible = true})));
  // Reductions of pages and memory together.
  EXPECT_TRUE(bitwise_equal(sum(x_ * ys_, exact), sum(xs_ * ys_, serial_exact)));
  // min and max are exact in any order.
  EXPECT_EQ(min(x_, {.on = GetParam()}), min(xs_, {.on = executor::serial()}));
  EXPECT_EQ(max(x_ - y_, {.on = GetParam()}), max(xs_ - ys_, {.on = executor::serial()}));
  const auto both = minmax(y_, {.on = GetParam()});
  EXPECT_EQ(both.min, min(ys_));
  EXPECT_EQ(both.max, max(ys_));
  // On the serial executor an ordinary sum is the in-memory left fold, page after page,
  // and init enters once.
  if (GetParam().kind() == executor_kind::serial) {
    EXPECT_TRUE(bitwise_equal(sum(x_, {.on = GetParam()}), sum(xs_, {.on = GetParam()})));
    EXPECT_EQ(reduce(x_, 5.0, ops::plus{}, {.on = GetParam()}),
              reduce(xs_, 5.0, ops::plus{}, {.on = GetParam()}));
  } else {
    EXPECT_NEAR(sum(x_, {.on = GetParam()}), sum(xs_, serial_exact), 1e-9);
  }
}

TEST_P(paged_grid_function_on, neighbour_reads_go_through_the_cache) {
  paged_grid_function<double> z(n, disk_, four_times_the_cache, "z");
  x_.array().reset_statistics();
  z.assign(make_zip(neighbours{n}, pure(pr(x_)), index()) + y_, on());
  grid_function<double> zs(n, "zs");
  zs.assign(make_zip(neighbours{n}, pure(pr(xs_)), index()) + ys_, oracle());
  expect_same_bits(z.to_vector(), zs.to_vector());
  // Reads across page borders and half the array away came from x's cache.
  EXPECT_GT(x_.array().statistics().hits + x_.array().statistics().misses, 0u);
  // A reduction over neighbour reads, reproducible: the same bits.
  EXPECT_TRUE(bitwise_equal(
      sum(make_zip(neighbours{n}, pure(pr(x_)), index()), {.on = GetParam(), .reproducible = true}),
      sum(make_zip(neighbours{n}, pure(pr(xs_)), index()), {.reproducible = true})));
}

// Out of core on threads, whole pages run side by side (each on one thread); when every
// page fits the cache, the threads share each page. Both give the serial oracle's bits.
TEST_P(paged_grid_function_on, pages_side_by_side_and_shared_pages_give_the_same_bits) {
  const bool threaded = GetParam().kind() == executor_kind::openmp;
  grid_function<double> zs(n, "zs");
  zs.assign(make_zip(neighbours{n}, pure(pr(xs_)), index()) * ys_ + 1.0, oracle());

  paged_grid_function<double> out_of_core(n, disk_, four_times_the_cache, "out_of_core");
  out_of_core.assign(make_zip(neighbours{n}, pure(pr(x_)), index()) * y_ + 1.0, on());
  expect_same_bits(out_of_core.to_vector(), zs.to_vector());
  if (threaded) {
    EXPECT_EQ(exec::last_actual_threads(), 3) << "one worker per thread";
  }

  const paged_options all_cached{.page = page, .cached = 16};  // 2 channels x 16 pages
  paged_grid_function<double> in_cache(n, disk_, all_cached, "in_cache");
  ASSERT_GE(in_cache.array().channels() * in_cache.array().cached_pages_per_channel(),
            in_cache.pages());
  in_cache.assign(make_zip(neighbours{n}, pure(pr(x_)), index()) * y_ + 1.0, on());
  expect_same_bits(in_cache.to_vector(), zs.to_vector());
  if (threaded) {
    EXPECT_EQ(exec::last_actual_threads(), 3) << "the last page's threads";
  }
  // In the cache, nothing went to the file.
  EXPECT_EQ(in_cache.array().statistics().write_backs, 0u);
}

// du/dt = discrete Laplacian of u (neighbour reads) with SSP-RK3: a paged state and its
// stage registers (similar(): more files in the directory) step to the same bits as an
// in-memory one.
TEST_P(paged_grid_function_on, the_time_driver_steps_a_paged_state_to_the_same_bits) {
  const scoped_executor chosen(GetParam());
  auto rhs = [](const auto& v) { return make_zip(neighbours{n}, pure(pr(v)), index()) * 0.1; };
  time::options o;
  o.steps = 3;
  o.dt = 0.2;
  paged_grid_function<double> u(n, disk_, four_times_the_cache, "u");
  u.write(0, xv_);
  time::driver(time::ssp_rk3{}, o)(u, rhs);
  grid_function<double> us = in_memory(xv_, "us");
  {
    const scoped_executor serial(executor::serial());
    time::driver(time::ssp_rk3{}, o)(us, rhs);
  }
  expect_same_bits(u.to_vector(), us.to_vector());
}

// The worked example of docs/paged.md, as written there, against memory.
TEST_P(paged_grid_function_on, the_worked_example_of_docs_paged_md) {
  const scoped_executor chosen(GetParam());
  paged_grid_function<double> x(n, disk_, four_times_the_cache, "x");
  paged_grid_function<double> y(n, disk_, four_times_the_cache, "y");
  x = sin(0.001 * index());  // pages overwritten: nothing read from the file
  EXPECT_EQ(x.array().statistics().bytes_from_store, 0u);
  y = 1.0 / (1.0 + index());
  y = 2.5 * x + y;  // y's page in place, x's copied, page by page
  const double total = sum(x * y, {.reproducible = true});
  y.flush();
  grid_function<double> xs(n), ys(n);
  {
    const scoped_executor serial(executor::serial());
    xs = sin(0.001 * index());
    ys = 1.0 / (1.0 + index());
    ys = 2.5 * xs + ys;
  }
  EXPECT_TRUE(bitwise_equal(total, sum(xs * ys, {.on = executor::serial(), .reproducible = true})));
  expect_same_bits(y.to_vector(), ys.to_vector());
}

INSTANTIATE_TEST_SUITE_P(host, paged_grid_function_on,
                         ::testing::ValuesIn(test_support::host_executors()),
                         test_support::executor_name{});

TEST(paged_grid_function, refuses_what_cannot_run_page_by_page_with_clear_messages) {
  temporary_directory dir;
  const file_store disk(dir.path());
  paged_grid_function<double> u(1000, disk, {.page = 100, .cached = 2}, "u");
  paged_grid_function<double> shorter(500, disk, {.page = 100, .cached = 2}, "shorter");
  grid_function<double> small(10, "small");
  grid_function<double> g(1000, "g");
  // Sizes: a function read at the loop's indices must have a value at each.
  expect_error<error>([&] { u = shorter + 1.0; },
                      {"assignment to paged grid function 'u'", "paged grid function 'shorter'",
                       "indices up to 999", "only 500 values"});
  expect_error<error>([&] { u = small * 2.0; }, {"grid function 'small'", "only 10 values"});
  expect_error<error>([&] { (void)sum(u + shorter); }, {"different sizes", "'shorter'"});
  // The target read at other indices.
  expect_error<aliasing_error>([&] { u = make_zip(neighbours{1000}, pure(pr(u)), index()); },
                               {"paged grid function 'u'", "through a proxy", "swap"});
  // A paged function in a loop that is not paged.
  expect_error<paged_error>([&] { g = u + 1.0; },
                            {"paged grid function 'u'", "not paged", "paged_grid_function"});
  // Executors whose data live elsewhere, and index lists.
  expect_error<paged_error>([&] { u.assign(u * 2.0, {.on = executor::simulated_device(0)}); },
                            {"serial@sim:0", "host executor"});
  expect_error<paged_error>([&] { (void)sum(u, {.on = executor::simulated_device(0)}); },
                            {"serial@sim:0", "host executor"});
  array<index_t> list{1, 2, 3};
  expect_error<paged_error>([&] { u.assign(u * 2.0, {.over = iteration_space::list(list)}); },
                            {"list of indices", "page by page"});
  expect_error<paged_error>([&] { (void)sum(u, {.over = iteration_space::list(list)}); },
                            {"list of indices"});
  EXPECT_THROW(u.assign(u * 2.0, {.over = iteration_space::range(0, 1001)}), error);
  // A neighbour read outside the function, on an OpenMP worker: rethrown by the loop.
  for (const executor& e : test_support::host_executors()) {
    EXPECT_THROW(u.assign(make_zip(neighbours{2000}, pure(pr(shorter)), index()) * 0.0,
                          {.on = e, .over = iteration_space::range(0, 500)}),
                 index_error)
        << e.name();
  }
  // The array's own checks at construction.
  EXPECT_THROW(paged_grid_function<double>(100, disk, {.page = 0}), paged_error);
}

}  // namespace
}  // namespace funcmesh::testing
