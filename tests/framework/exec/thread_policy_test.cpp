// The auto-threading policy (PDL's split table, thresholds, blocks, environment parsing)
// and the OpenMP loops that follow it: every index once, what ran is what is reported, and
// a worker's exception surfaces once on the caller.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/exec/openmp/for_each.hpp>
#include <funcmesh/exec/thread_policy.hpp>

namespace funcmesh::testing {

using exec::scoped_thread_policy;

namespace {

// OMP_DYNAMIC=true in the environment would let OpenMP hand out fewer threads than asked;
// the counts checked here are what the policy asks for.
const bool dynamic_off = (omp_set_dynamic(0), true);

struct split_case {
  int target;
  std::vector<index_t> extents;
  int dimension;
  int threads;
};

// Counters per index, incremented from any worker.
class visit_counts {
 public:
  explicit visit_counts(index_t n) : counts_(static_cast<std::size_t>(n)) {}
  void visit(index_t i) const { counts_[static_cast<std::size_t>(i)].fetch_add(1); }
  // Indices not visited exactly once.
  index_t wrong() const {
    index_t bad = 0;
    for (const auto& c : counts_) bad += c.load() == 1 ? 0 : 1;
    return bad;
  }

 private:
  mutable std::vector<std::atomic<int>> counts_;
};

class chunk_failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace

TEST(thread_policy, choose_split_follows_the_pdl_table) {
  const std::vector<split_case> table = {
      {6, {7, 12}, 1, 6}, {6, {12, 7}, 0, 6},    {6, {4, 5}, 1, 5},
      {6, {7, 5}, 0, 6},  {6, {4, 5, 12}, 2, 6}, {4, {9, 6, 2}, 1, 4},
  };
  for (const auto& c : table) {
    const exec::split_choice s = exec::choose_split(c.extents, c.target);
    EXPECT_EQ(s.dimension, c.dimension)
        << "target " << c.target << ", " << c.extents.size() << " dims";
    EXPECT_EQ(s.threads, c.threads) << "target " << c.target;
  }
}

TEST(thread_policy, choose_split_edge_cases) {
  const std::vector<index_t> none;
  EXPECT_EQ(exec::choose_split(none, 4).threads, 1);
  const std::vector<index_t> some = {100, 200};
  EXPECT_EQ(exec::choose_split(some, 1).threads, 1);
  EXPECT_EQ(exec::choose_split(some, 0).threads, 1);
  // An empty dimension is not "divisible": it offers nothing to split.
  const std::vector<index_t> with_zero = {0, 9};
  EXPECT_EQ(exec::choose_split(with_zero, 4).dimension, 1);
  const std::vector<index_t> tiny = {1, 1};
  EXPECT_EQ(exec::choose_split(tiny, 4).threads, 1);
  // Ties on the remainder and on the longest dimension go to the first.
  const std::vector<index_t> ties = {5, 9, 3, 3};
  EXPECT_EQ(exec::choose_split(ties, 4).dimension, 0);
  const std::vector<index_t> short_ties = {2, 3, 3};
  EXPECT_EQ(exec::choose_split(short_ties, 4).dimension, 1);
  EXPECT_EQ(exec::choose_split(short_ties, 4).threads, 3);
}

TEST(thread_policy, threads_for_follows_target_and_minimum_size) {
  scoped_thread_policy policy(4, 100);
  EXPECT_EQ(exec::threads_for(99), 1);
  EXPECT_EQ(exec::threads_for(100), 4);
  EXPECT_EQ(exec::threads_for(100, true), 1);
  exec::set_parallel_min_size(0);
  EXPECT_EQ(exec::threads_for(0), 1);
  EXPECT_EQ(exec::threads_for(3), 3);
  exec::set_threads_target(1);
  EXPECT_EQ(exec::threads_for(1000), 1);
  exec::set_threads_target(0);
  EXPECT_EQ(exec::threads_for(1000), 1);
}

TEST(thread_policy, scoped_policy_restores_the_settings) {
  const int target = exec::threads_target();
  const index_t min_size = exec::parallel_min_size();
  {
    scoped_thread_policy policy(target + 3, min_size + 7);
    EXPECT_EQ(exec::threads_target(), target + 3);
    EXPECT_EQ(exec::parallel_min_size(), min_size + 7);
  }
  EXPECT_EQ(exec::threads_target(), target);
  EXPECT_EQ(exec::parallel_min_size(), min_size);
  EXPECT_THROW(scoped_thread_policy(-1, 0), error);
  EXPECT_THROW(scoped_thread_policy(2, -1), error);
  EXPECT_EQ(exec::threads_target(), target);
  EXPECT_THROW(exec::set_threads_target(-1), error);
  EXPECT_THROW(exec::set_parallel_min_size(-1), error);
}

TEST(thread_policy, blocks_cover_the_range_once) {
  for (index_t d = 0; d <= 40; ++d) {
    for (int n = 1; n <= 12; ++n) {
      const index_t begin = 5;
      index_t next = begin;
      for (int t = 0; t < n; ++t) {
        const exec::block b = exec::block_of(begin, begin + d, t, n);
        ASSERT_EQ(b.begin, next) << "d=" << d << " n=" << n << " t=" << t;
        const index_t expected = d / n + (t < d % n ? 1 : 0);
        ASSERT_EQ(b.end - b.begin, expected) << "d=" << d << " n=" << n << " t=" << t;
        next = b.end;
      }
      ASSERT_EQ(next, begin + d) << "d=" << d << " n=" << n;
    }
  }
  static_assert(exec::block_of(0, 10, 0, 3).end == 4);
  static_assert(exec::block_of(0, 10, 2, 3).begin == 7);
}

TEST(thread_policy, small_loops_stay_on_the_calling_thread) {
  scoped_thread_policy policy(4, 1000);
  visit_counts counts(999);
  exec::openmp::for_each(0, 999, [&](index_t i) { counts.visit(i); });
  EXPECT_EQ(counts.wrong(), 0);
  EXPECT_EQ(exec::last_actual_threads(), 1);
  EXPECT_EQ(exec::last_split_dimension(), -1);

  visit_counts big(1000);
  exec::openmp::for_each(0, 1000, [&](index_t i) { big.visit(i); });
  EXPECT_EQ(big.wrong(), 0);
  EXPECT_EQ(exec::last_actual_threads(), 4);
  EXPECT_EQ(exec::last_split_dimension(), 0);
}

TEST(thread_policy, size_target_and_serial_flag_limit_the_threads) {
  scoped_thread_policy policy(8, 0);
  visit_counts counts(3);
  exec::openmp::for_each(0, 3, [&](index_t i) { counts.visit(i); });
  EXPECT_EQ(counts.wrong(), 0);
  EXPECT_EQ(exec::last_actual_threads(), 3);

  EXPECT_NO_THROW(exec::openmp::for_each(0, 0, [](index_t) { throw chunk_failure("never"); }));
  EXPECT_NO_THROW(exec::openmp::for_each(7, 3, [](index_t) { throw chunk_failure("never"); }));
  EXPECT_EQ(exec::last_actual_threads(), 1);

  exec::openmp::for_each(
      0, 100, [](index_t) {}, true);
  EXPECT_EQ(exec::last_actual_threads(), 1);

  for (int target : {0, 1}) {
    exec::set_threads_target(target);
    exec::openmp::for_each(0, 100, [](index_t) {});
    EXPECT_EQ(exec::last_actual_threads(), 1) << "target " << target;
  }
}

TEST(thread_policy, for_each_visits_every_index_once) {
  for (int threads = 1; threads <= 8; ++threads) {
    scoped_thread_policy policy(threads, 0);
    for (index_t n : {1, 7, 8, 1000, 1001}) {
      visit_counts counts(n + 3);
      exec::openmp::for_each(3, n + 3, [&](index_t i) { counts.visit(i); });
      // Indices below begin must stay untouched: visited here once, they count as right.
      for (index_t i = 0; i < 3; ++i) counts.visit(i);
      EXPECT_EQ(counts.wrong(), 0) << threads << " threads, n=" << n;
      EXPECT_EQ(exec::last_actual_threads(), n < threads ? n : threads);
    }
  }
}

TEST(thread_policy, for_each_2d_visits_every_pair_once_on_the_chosen_dimension) {
  const std::vector<std::pair<index_t, index_t>> shapes = {{7, 12},  {12, 7},  {4, 5}, {7, 5},
                                                           {1, 100}, {100, 1}, {3, 3}, {0, 5}};
  for (int target = 1; target <= 8; ++target) {
    scoped_thread_policy policy(target, 0);
    for (const auto& shape : shapes) {
      const index_t n0 = shape.first;  // not a structured binding: lambdas capture it
      const index_t n1 = shape.second;
      visit_counts counts(n0 * n1);
      exec::openmp::for_each_2d(n0, n1,
                                [&](index_t i0, index_t i1) { counts.visit(i0 * n1 + i1); });
      EXPECT_EQ(counts.wrong(), 0) << "target " << target << ", " << n0 << "x" << n1;
      const int wanted = exec::threads_for(n0 * n1);
      const index_t extents[2] = {n0, n1};
      const exec::split_choice split =
          wanted > 1 ? exec::choose_split(extents, wanted) : exec::split_choice{0, 1};
      EXPECT_EQ(exec::last_actual_threads(), split.threads)
          << "target " << target << ", " << n0 << "x" << n1;
      EXPECT_EQ(exec::last_split_dimension(), split.threads > 1 ? split.dimension : -1)
          << "target " << target << ", " << n0 << "x" << n1;
    }
  }
  scoped_thread_policy policy(6, 0);
  exec::openmp::for_each_2d(7, 12, [](index_t, index_t) {});
  EXPECT_EQ(exec::last_split_dimension(), 1);
  EXPECT_EQ(exec::last_actual_threads(), 6);
}

TEST(thread_policy, transform_reduce_matches_the_serial_result) {
  const auto map = [](index_t i) { return static_cast<std::int64_t>(i * i % 1009); };
  const auto plus = [](std::int64_t a, std::int64_t b) { return a + b; };
  for (index_t n : {0, 1, 5, 1000, 12345}) {
    std::int64_t expected = 17;
    for (index_t i = 2; i < n + 2; ++i) expected += map(i);
    for (int threads = 1; threads <= 8; ++threads) {
      scoped_thread_policy policy(threads, 0);
      EXPECT_EQ(exec::openmp::transform_reduce(2, n + 2, std::int64_t{17}, map, plus), expected)
          << threads << " threads, n=" << n;
    }
  }
  // Order matters for a non-commutative combine: partials must join in thread order.
  scoped_thread_policy policy(5, 0);
  const auto digit = [](index_t i) { return std::string(1, static_cast<char>('a' + i % 26)); };
  const auto concat = [](std::string a, const std::string& b) { return a + b; };
  const std::string joined = exec::openmp::transform_reduce(0, 52, std::string(">"), digit, concat);
  EXPECT_EQ(joined, ">abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz");
  EXPECT_EQ(exec::last_actual_threads(), 5);
}

TEST(thread_policy, transform_reduce_is_deterministic_for_a_thread_count) {
  const auto map = [](index_t i) { return 1.0 / static_cast<double>(i + 1); };
  const auto plus = [](double a, double b) { return a + b; };
  scoped_thread_policy policy(7, 0);
  const double first = exec::openmp::transform_reduce(0, 100000, 0.0, map, plus);
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(exec::openmp::transform_reduce(0, 100000, 0.0, map, plus), first);
  }
}

TEST(thread_policy, an_exception_in_one_chunk_surfaces_once) {
  scoped_thread_policy policy(4, 0);
  int caught = 0;
  try {
    exec::openmp::for_each(0, 400, [](index_t i) {
      if (i == 250) throw chunk_failure("chunk 2");
    });
  } catch (const chunk_failure& e) {
    ++caught;
    EXPECT_STREQ(e.what(), "chunk 2");
  }
  EXPECT_EQ(caught, 1);
  EXPECT_EQ(exec::last_actual_threads(), 4);

  // The policy and the pool still work afterwards.
  visit_counts counts(400);
  exec::openmp::for_each(0, 400, [&](index_t i) { counts.visit(i); });
  EXPECT_EQ(counts.wrong(), 0);
  EXPECT_EQ(exec::last_actual_threads(), 4);
}

TEST(thread_policy, exceptions_in_every_chunk_surface_once) {
  scoped_thread_policy policy(4, 0);
  std::atomic<int> thrown{0};
  int caught = 0;
  try {
    exec::openmp::for_each(0, 400, [&](index_t) {
      thrown.fetch_add(1);
      throw chunk_failure("every chunk");
    });
  } catch (const chunk_failure&) {
    ++caught;
  }
  EXPECT_EQ(caught, 1);
  EXPECT_GE(thrown.load(), 1);
  EXPECT_LE(thrown.load(), 4);  // each worker stops at its first failure

  caught = 0;
  try {
    exec::openmp::for_each_2d(8, 8, [](index_t, index_t) { throw chunk_failure("2d"); });
  } catch (const chunk_failure&) {
    ++caught;
  }
  EXPECT_EQ(caught, 1);

  caught = 0;
  try {
    (void)exec::openmp::transform_reduce(
        0, 100, 0, [](index_t) -> int { throw chunk_failure("reduce"); },
        [](int a, int b) { return a + b; });
  } catch (const chunk_failure&) {
    ++caught;
  }
  EXPECT_EQ(caught, 1);

  EXPECT_EQ(exec::openmp::transform_reduce(
                0, 100, 0, [](index_t) { return 1; }, [](int a, int b) { return a + b; }),
            100);
  EXPECT_EQ(exec::last_actual_threads(), 4);
}

TEST(thread_policy, parse_count_accepts_plain_counts) {
  const index_t max = std::numeric_limits<index_t>::max();
  EXPECT_FALSE(exec::detail::parse_count("X", nullptr, max).has_value());
  EXPECT_EQ(exec::detail::parse_count("X", "0", max), 0);
  EXPECT_EQ(exec::detail::parse_count("X", "42", max), 42);
  EXPECT_EQ(exec::detail::parse_count("X", "007", max), 7);
  EXPECT_EQ(exec::detail::parse_count("X", "9223372036854775807", max), max);
  EXPECT_EQ(exec::detail::parse_count("X", "2147483647", 2147483647), 2147483647);
}

TEST(thread_policy, parse_count_rejects_malformed_values) {
  const index_t max = std::numeric_limits<index_t>::max();
  for (const char* bad : {"", "abc", "-1", "+4", " 4", "4 ", "4x", "1.5", "0x10", "-"}) {
    try {
      (void)exec::detail::parse_count("FUNCMESH_THREADS_TARGET", bad, max);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const error& e) {
      EXPECT_EQ(std::string(e.what()),
                "FUNCMESH_THREADS_TARGET='" + std::string(bad) + "' is not a non-negative integer");
    }
  }
  EXPECT_THROW((void)exec::detail::parse_count("X", "9223372036854775808", max), error);
  EXPECT_THROW((void)exec::detail::parse_count("X", "99999999999999999999999", max), error);
  EXPECT_THROW((void)exec::detail::parse_count("X", "2147483648", 2147483647), error);
  try {
    (void)exec::detail::parse_count("FUNCMESH_PARALLEL_MIN_SIZE", "2147483648", 2147483647);
    ADD_FAILURE() << "accepted a value above max";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("FUNCMESH_PARALLEL_MIN_SIZE='2147483648'"),
              std::string::npos);
  }
}

TEST(thread_policy, default_target_reads_omp_num_threads) {
  EXPECT_EQ(exec::detail::default_threads_target("3"), 3);
  EXPECT_EQ(exec::detail::default_threads_target("5,2,1"), 5);
  EXPECT_EQ(exec::detail::default_threads_target(" 6 , 2"), 6);
  const int cpus = exec::detail::default_threads_target(nullptr);
  EXPECT_GE(cpus, 1);
  for (const char* invalid : {"", "0", "abc", "-2", "4x"}) {
    EXPECT_EQ(exec::detail::default_threads_target(invalid), cpus) << "'" << invalid << "'";
  }
}

namespace {
// Exits 0 when the policy resolves to (target, min_size), 1 when it resolves to something
// else, 3 (the error on stderr) when resolving throws.
[[noreturn]] void exit_with_policy_check(int target, index_t min_size) {
  try {
    std::exit(exec::threads_target() == target && exec::parallel_min_size() == min_size ? 0 : 1);
  } catch (const error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::exit(3);
  }
}
}  // namespace

// The environment is read once per process, so each case runs in a fresh one: the
// threadsafe death-test style re-executes this binary, where nothing has resolved yet.
TEST(thread_policy_env, environment_variables_set_the_policy) {
  using ::testing::ExitedWithCode;
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const index_t fallback = exec::default_parallel_min_size;
  ::setenv("FUNCMESH_THREADS_TARGET", "3", 1);
  ::setenv("FUNCMESH_PARALLEL_MIN_SIZE", "77", 1);
  EXPECT_EXIT(exit_with_policy_check(3, 77), ExitedWithCode(0), "");
  ::unsetenv("FUNCMESH_THREADS_TARGET");
  ::unsetenv("FUNCMESH_PARALLEL_MIN_SIZE");
  ::setenv("OMP_NUM_THREADS", "5,2", 1);
  EXPECT_EXIT(exit_with_policy_check(5, fallback), ExitedWithCode(0), "");
  ::setenv("FUNCMESH_THREADS_TARGET", "abc", 1);
  EXPECT_EXIT(exit_with_policy_check(5, fallback), ExitedWithCode(3),
              "FUNCMESH_THREADS_TARGET='abc' is not a non-negative integer");
  // A setter that runs first wins: the malformed value is never read.
  EXPECT_EXIT((exec::set_threads_target(2), exit_with_policy_check(2, fallback)), ExitedWithCode(0),
              "");
  ::unsetenv("FUNCMESH_THREADS_TARGET");
  ::setenv("FUNCMESH_PARALLEL_MIN_SIZE", "12junk", 1);
  EXPECT_EXIT(exit_with_policy_check(5, fallback), ExitedWithCode(3),
              "FUNCMESH_PARALLEL_MIN_SIZE='12junk' is not a non-negative integer");
  ::unsetenv("FUNCMESH_PARALLEL_MIN_SIZE");
  ::unsetenv("OMP_NUM_THREADS");
}

TEST(thread_policy, last_actual_threads_is_per_thread) {
  scoped_thread_policy policy(4, 0);
  exec::openmp::for_each(0, 100, [](index_t) {});
  int seen_elsewhere = 0;
  std::thread other([&] { seen_elsewhere = exec::last_actual_threads(); });
  other.join();
  EXPECT_EQ(seen_elsewhere, 1);
  EXPECT_EQ(exec::last_actual_threads(), 4);
}

}  // namespace funcmesh::testing
