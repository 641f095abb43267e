// Global reductions under mpirun: every rank owns a slice of one global array generated
// from the global index, so any rank count sees the same data and the reproducible sum
// must match, bit for bit, the exact sum each rank computes over the whole array. The
// slices are plain grid functions reduced over a layout's ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/global_reduce.hpp>
#include <funcmesh/exec/thread_policy.hpp>
#include <funcmesh/expr/grid_function.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/profile/device_activity.hpp>

#include "../common/executor_params.hpp"
#include "collective_counter.hpp"

namespace funcmesh::testing {
namespace {

namespace fm = funcmesh;

constexpr index_t global_n = 2003;
constexpr index_t halo_n = 5;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

int rank_of(MPI_Comm comm = MPI_COMM_WORLD) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
int size_of(MPI_Comm comm = MPI_COMM_WORLD) {
  int s = 1;
  MPI_Comm_size(comm, &s);
  return s;
}

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Wide exponents (up to +-max_exponent, subnormals when that is over 1022), both signs,
// exact zeros of both signs, and partners cancelling their predecessor.
double base_value(index_t g, int max_exponent, std::uint64_t seed) {
  const std::uint64_t h = mix(static_cast<std::uint64_t>(g) ^ seed);
  const double mantissa = 1.0 + static_cast<double>(h >> 12) * 0x1p-52;
  const double sign = (h & 1) != 0 ? -1.0 : 1.0;
  const int exponent =
      static_cast<int>((h >> 4) % static_cast<std::uint64_t>(2 * max_exponent + 1)) - max_exponent;
  switch ((h >> 1) % 8) {
    case 0:
      return sign * 0.0;
    case 1:
      return sign * std::ldexp(mantissa, -max_exponent - 30);  // tiny
    default:
      return sign * std::ldexp(mantissa, exponent);
  }
}
double nasty(index_t g, int max_exponent = 1000, std::uint64_t seed = 17) {
  if (g > 0 && mix(static_cast<std::uint64_t>(g) * 7 + seed) % 5 == 0)
    return -base_value(g - 1, max_exponent, seed);
  return base_value(g, max_exponent, seed);
}

// The ranks of MPI_COMM_WORLD as a layout (of a small mesh): the reductions below reduce
// plain grid functions of any size over its ranks. Made once, on every rank alike.
const distributed_layout& world_layout() {
  static const distributed_layout layout =
      distribute_generated(MPI_COMM_WORLD, [] { return box2d_quad(4, 4); });
  return layout;
}

// This rank's share [begin, end) of n global values; uneven for most rank counts.
struct slice {
  index_t begin;
  index_t end;
};
slice my_slice(index_t n) {
  const index_t r = rank_of(), p = size_of();
  return {n * r / p, n * (r + 1) / p};
}

// Owned values from value(global index), then halo garbage that must never be counted.
template <class F>
grid_function<double> distributed(slice s, const F& value, const std::string& name) {
  grid_function<double> u(s.end - s.begin, halo_n, name);
  auto w = u.write();
  for (index_t i = s.begin; i < s.end; ++i) w[i - s.begin] = value(i);
  const double garbage[halo_n] = {1e300, -1e300, nan, -inf, -0.0};
  for (index_t k = 0; k < halo_n; ++k) w[s.end - s.begin + k] = garbage[k];
  return u;
}

// The host executors, each at 1 and 3 threads, and the simulated device (its loops run on
// one host thread: the same bits as serial, reached through the device's path).
template <class Check>
void for_each_setting(const Check& check) {
  for (const executor& e : test_support::host_and_simulated_executors()) {
    for (int threads : {1, 3}) {
      if (e.on_device() && threads > 1) continue;
      exec::scoped_thread_policy policy(threads, 0);
      SCOPED_TRACE(e.name() + " threads=" + std::to_string(threads) +
                   " ranks=" + std::to_string(size_of()));
      check(reduce_options{.on = e});
      check(reduce_options{.on = e, .reproducible = true});
    }
  }
}

TEST(global_reduce, reproducible_sum_is_the_exact_sum_of_the_whole_array_bit_for_bit) {
  const auto value = [](index_t g) { return nasty(g); };
  const grid_function<double> u = distributed(my_slice(global_n), value, "u");
  exact_sum exact;
  double magnitude = 0;
  for (index_t g = 0; g < global_n; ++g) {
    exact.add(value(g));
    magnitude += std::fabs(value(g));
  }
  const double expected = exact.value();
  ASSERT_TRUE(std::isfinite(expected));
  for_each_setting([&](const reduce_options& o) {
    const double got = global_sum(world_layout(), u, o);
    if (o.reproducible) {
      EXPECT_EQ(bits(got), bits(expected)) << got << " vs " << expected;
    } else {
      const double n = static_cast<double>(global_n);
      EXPECT_LE(std::fabs(got - expected), n * 0x1p-52 * magnitude);
    }
  });
}

TEST(global_reduce, dot_and_norm2_match_the_exact_results) {
  const auto a = [](index_t g) { return nasty(g, 400, 3); };
  const auto b = [](index_t g) { return nasty(g, 400, 5); };
  const slice s = my_slice(global_n);
  const grid_function<double> x = distributed(s, a, "x");
  const grid_function<double> y = distributed(s, b, "y");
  exact_sum dot_exact, squares;
  double dot_magnitude = 0;
  for (index_t g = 0; g < global_n; ++g) {
    dot_exact.add(a(g) * b(g));
    squares.add(a(g) * a(g));
    dot_magnitude += std::fabs(a(g) * b(g));
  }
  const double n = static_cast<double>(global_n);
  for_each_setting([&](const reduce_options& o) {
    const double dot = global_dot(world_layout(), x, y, o);
    const double norm = global_norm2(world_layout(), x, o);
    if (o.reproducible) {
      EXPECT_EQ(bits(dot), bits(dot_exact.value()));
      EXPECT_EQ(bits(norm), bits(std::sqrt(squares.value())));
    } else {
      EXPECT_LE(std::fabs(dot - dot_exact.value()), n * 0x1p-52 * dot_magnitude);
      EXPECT_LE(std::fabs(norm - std::sqrt(squares.value())),
                n * 0x1p-52 * std::sqrt(squares.value()));
    }
  });
}

TEST(global_reduce, min_and_max_are_exact_and_ignore_the_halo) {
  const auto value = [](index_t g) { return nasty(g); };
  const grid_function<double> u = distributed(my_slice(global_n), value, "u");
  double lo = inf, hi = -inf;
  for (index_t g = 0; g < global_n; ++g) {
    lo = fm::detail::ordered_minimum{}(lo, value(g));
    hi = fm::detail::ordered_maximum{}(hi, value(g));
  }
  for_each_setting([&](const reduce_options& o) {
    EXPECT_EQ(bits(global_min(world_layout(), u, o)), bits(lo));
    EXPECT_EQ(bits(global_max(world_layout(), u, o)), bits(hi));
    const minmax_result<double> both = global_minmax(world_layout(), u, o);
    EXPECT_EQ(bits(both.min), bits(lo));
    EXPECT_EQ(bits(both.max), bits(hi));
  });
}

TEST(global_reduce, a_nan_on_any_rank_wins_everywhere) {
  for (index_t where : {index_t{0}, global_n / 2, global_n - 1}) {
    const auto value = [where](index_t g) { return g == where ? nan : nasty(g); };
    const grid_function<double> u = distributed(my_slice(global_n), value, "u");
    for_each_setting([&](const reduce_options& o) {
      EXPECT_TRUE(std::isnan(global_min(world_layout(), u, o)));
      EXPECT_TRUE(std::isnan(global_max(world_layout(), u, o)));
      const minmax_result<double> both = global_minmax(world_layout(), u, o);
      EXPECT_TRUE(std::isnan(both.min));
      EXPECT_TRUE(std::isnan(both.max));
      EXPECT_TRUE(std::isnan(global_sum(world_layout(), u, o)));
    });
  }
}

TEST(global_reduce, negative_zero_is_below_positive_zero_across_ranks) {
  // One -0 at the end (last rank), one +0 at the start (rank 0), the rest of the other sign.
  const auto mostly_positive = [](index_t g) { return g == global_n - 1 ? -0.0 : 0.0; };
  const auto mostly_negative = [](index_t g) { return g == 0 ? 0.0 : -0.0; };
  const slice s = my_slice(global_n);
  const grid_function<double> p = distributed(s, mostly_positive, "p");
  const grid_function<double> m = distributed(s, mostly_negative, "m");
  for_each_setting([&](const reduce_options& o) {
    EXPECT_EQ(bits(global_min(world_layout(), p, o)), bits(-0.0));
    EXPECT_EQ(bits(global_max(world_layout(), m, o)), bits(0.0));
    const minmax_result<double> both = global_minmax(world_layout(), p, o);
    EXPECT_EQ(bits(both.min), bits(-0.0));
    EXPECT_EQ(bits(both.max), bits(0.0));
  });
}

TEST(global_reduce, ranks_without_owned_values_contribute_nothing) {
  // Everything on the last rank; the others own nothing and hold only halo garbage.
  const bool last = rank_of() == size_of() - 1;
  const slice s = last ? slice{0, global_n} : slice{0, 0};
  const auto value = [](index_t g) { return nasty(g, 300, 11); };
  const grid_function<double> u = distributed(s, value, "u");
  exact_sum exact;
  double lo = inf, hi = -inf;
  for (index_t g = 0; g < global_n; ++g) {
    exact.add(value(g));
    lo = fm::detail::ordered_minimum{}(lo, value(g));
    hi = fm::detail::ordered_maximum{}(hi, value(g));
  }
  for_each_setting([&](const reduce_options& o) {
    if (o.reproducible) {
      EXPECT_EQ(bits(global_sum(world_layout(), u, o)), bits(exact.value()));
    }
    EXPECT_EQ(bits(global_min(world_layout(), u, o)), bits(lo));
    EXPECT_EQ(bits(global_max(world_layout(), u, o)), bits(hi));
  });
}

// Device data: the local part is one launch and one wait on the device (the host reads
// its result), then the ranks' parts meet in one MPI_Allreduce; the values stay on the
// device. On the simulated device, at every rank count.
TEST(global_reduce, device_data_is_reduced_once_on_the_device_then_by_mpi_allreduce) {
  const auto value = [](index_t g) { return nasty(g, 300); };
  grid_function<double> u = distributed(my_slice(global_n), value, "u");
  const executor device = executor::simulated_device(0);
  u.assign(u * 1.0, {.on = device});  // written on the device: its only copy is there now
  const auto allreduces = [] { return collective_counter::by_name()["MPI_Allreduce"]; };
  const auto expect_one_each = [&](const char* what, const auto& reduce) {
    SCOPED_TRACE(what);
    reset_device_activity();
    const std::uint64_t before = allreduces();
    reduce();
    const device_activity_counts seen = device_activity();
    EXPECT_EQ(seen.launches, 1u);
    EXPECT_EQ(seen.synchronizations, 1u);
    EXPECT_EQ(seen.copies_to_host + seen.copies_from_host, 0u) << "the values stayed put";
    EXPECT_EQ(allreduces() - before, 1u);
  };
  double sum = 0, exact = 0, lo = 0, hi = 0;
  expect_one_each("sum", [&] { sum = global_sum(world_layout(), u, {.on = device}); });
  expect_one_each("reproducible sum", [&] {
    exact = global_sum(world_layout(), u, {.on = device, .reproducible = true});
  });
  expect_one_each("min", [&] { lo = global_min(world_layout(), u, {.on = device}); });
  expect_one_each("max", [&] { hi = global_max(world_layout(), u, {.on = device}); });
  expect_one_each("minmax", [&] { (void)global_minmax(world_layout(), u, {.on = device}); });
  EXPECT_EQ(bits(exact), bits(global_sum(world_layout(), u, {.reproducible = true})));
  EXPECT_EQ(bits(sum), bits(global_sum(world_layout(), u, {.on = executor::serial()})));
  EXPECT_EQ(bits(lo), bits(global_min(world_layout(), u)));
  EXPECT_EQ(bits(hi), bits(global_max(world_layout(), u)));
}

TEST(global_reduce, integer_reductions) {
  const slice s = my_slice(global_n);
  grid_function<int> k(s.end - s.begin, 2, "k");
  {
    auto w = k.write();
    for (index_t g = s.begin; g < s.end; ++g) w[g - s.begin] = static_cast<int>(g % 17) - 8;
    w[s.end - s.begin] = 1000;
    w[s.end - s.begin + 1] = -1000;
  }
  long long expected = 0;
  for (index_t g = 0; g < global_n; ++g) expected += g % 17 - 8;
  EXPECT_EQ(global_sum(world_layout(), k), expected);
  EXPECT_EQ(global_min(world_layout(), k), -8);
  EXPECT_EQ(global_max(world_layout(), k), 8);
  const minmax_result<int> both = global_minmax(world_layout(), k);
  EXPECT_EQ(both.min, -8);
  EXPECT_EQ(both.max, 8);
}

TEST(global_reduce, reducing_over_the_halo_is_refused_on_every_rank) {
  const grid_function<double> u = distributed(
      my_slice(global_n), [](index_t) { return 1.0; }, "u");
  const reduce_options o{.over = iteration_space::owned_and_halo()};
  EXPECT_THROW(global_sum(world_layout(), u, o), error);
  EXPECT_THROW(global_min(world_layout(), u, o), error);
  // Nobody entered a collective, so the communicator is still usable.
  EXPECT_EQ(global_sum(world_layout(), u), static_cast<double>(global_n));
}

TEST(global_reduce, allreduce_exact_merges_values_and_special_flags) {
  const int r = rank_of(), p = size_of();
  exact_sum local;
  local.add(std::ldexp(1.0, 100 * r - 150));
  local.add(-std::ldexp(1.0, 100 * r - 150) * 0.75);
  exact_sum expected;
  for (int q = 0; q < p; ++q) {
    expected.add(std::ldexp(1.0, 100 * q - 150));
    expected.add(-std::ldexp(1.0, 100 * q - 150) * 0.75);
  }
  const exact_sum finite = allreduce_exact(MPI_COMM_WORLD, local);
  EXPECT_TRUE(finite == expected);
  EXPECT_EQ(bits(finite.value()), bits(expected.value()));

  // +Inf on rank 0, -Inf on rank 1: NaN when both exist, else +Inf.
  exact_sum special = local;
  if (r == 0) special.add(inf);
  if (r == 1) special.add(-inf);
  const double merged = allreduce_exact(MPI_COMM_WORLD, special).value();
  if (p > 1) {
    EXPECT_TRUE(std::isnan(merged));
  } else {
    EXPECT_EQ(merged, inf);
  }
  // Only one infinity anywhere: it wins over the finite part.
  exact_sum one_inf = local;
  if (r == p - 1) one_inf.add(-inf);
  EXPECT_EQ(allreduce_exact(MPI_COMM_WORLD, one_inf).value(), -inf);
}

TEST(global_reduce, allreduce_of_doubles_follows_the_ordered_rules) {
  const int r = rank_of(), p = size_of();
  EXPECT_EQ(allreduce_sum(MPI_COMM_WORLD, 1.5), 1.5 * p);
  EXPECT_EQ(allreduce_min(MPI_COMM_WORLD, static_cast<double>(r)), 0.0);
  EXPECT_EQ(allreduce_max(MPI_COMM_WORLD, static_cast<double>(r)), p - 1.0);
  // Signed zeros: rank 0 holds -0 for min and +0 for max, the rest the other sign.
  EXPECT_EQ(bits(allreduce_min(MPI_COMM_WORLD, r == 0 ? -0.0 : 0.0)), bits(-0.0));
  EXPECT_EQ(bits(allreduce_max(MPI_COMM_WORLD, r == 0 ? 0.0 : -0.0)), bits(0.0));
  // Different NaNs on different ranks: every rank gets the same one.
  const double payload_nan = std::nan(std::to_string(r + 1).c_str());
  const double got = allreduce_min(MPI_COMM_WORLD, r == p - 1 ? 1.0 : payload_nan);
  if (p > 1) {
    ASSERT_TRUE(std::isnan(got));
    std::uint64_t low = bits(got), high = bits(got);
    MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(low, high);
  }
  const minmax_result<double> mm =
      allreduce_minmax(MPI_COMM_WORLD, {static_cast<double>(-r), static_cast<double>(r)});
  EXPECT_EQ(mm.min, 1.0 - p);
  EXPECT_EQ(mm.max, p - 1.0);
}

}  // namespace
}  // namespace funcmesh::testing
