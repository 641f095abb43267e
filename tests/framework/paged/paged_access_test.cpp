// Element, proxy, bulk, mapped, per-page and streaming access, on every store, against a
// std::vector oracle; concurrent get/set/+= from 2 and 7 OpenMP threads with no lost write.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <random>
#include <thread>

#include "paged_test_support.hpp"

#if defined(_OPENMP)
#include <omp.h>
#include <funcmesh/memory/memory_error.hpp>
#endif

namespace funcmesh::testing {

class paged_access : public ::testing::TestWithParam<store_case> {
 protected:
  // 37 pages of 64 over the store's channels, 2 cached per channel: most accesses evict.
  template <class T>
  paged_array<T> make(index_t n = 37 * 64 - 5, index_t page = 64, index_t cached = 2) {
    return paged_array<T>(n, GetParam().make(dir_.path()), {.page = page, .cached = cached});
  }
  temporary_directory dir_;
};

TEST_P(paged_access, a_new_array_reads_as_zeros) {
  auto a = make<std::int64_t>();
  for (index_t i = 0; i < a.size(); i += 17) EXPECT_EQ(a.get(i), 0);
}

TEST_P(paged_access, random_get_and_set_match_a_vector) {
  auto a = make<std::int64_t>();
  std::vector<std::int64_t> oracle(static_cast<std::size_t>(a.size()), 0);
  std::mt19937_64 random(7);
  std::uniform_int_distribution<index_t> pick(0, a.size() - 1);
  for (int step = 0; step < 20000; ++step) {
    const index_t i = pick(random);
    if (step % 3 == 0) {
      EXPECT_EQ(a.get(i), oracle[static_cast<std::size_t>(i)]);
    } else {
      a.set(i, step);
      oracle[static_cast<std::size_t>(i)] = step;
    }
  }
  EXPECT_EQ(a.read(0, a.size()), oracle);
}

TEST_P(paged_access, indices_are_bounds_checked) {
  auto a = make<int>();
  expect_error<index_error>([&] { a.get(a.size()); }, {"index 2363 outside [0, 2363)"});
  EXPECT_THROW(a.set(-1, 1), index_error);
  EXPECT_THROW(a[a.size()] = 1, index_error);
  EXPECT_THROW(a.read(a.size() - 3, 4), index_error);
  EXPECT_THROW(a.read(-1, 2), index_error);
  EXPECT_THROW(a.get_uncached(a.size()), index_error);
  EXPECT_THROW(a.map_page(a.pages(), page_access::read, [](int*, index_t) {}), index_error);
  EXPECT_THROW(a.read(0, -1), paged_error);
  EXPECT_NO_THROW(a.read(a.size(), 0));
}

TEST_P(paged_access, proxy_forms) {
  auto a = make<double>();
  a[3] = 1.5;             // a[i] = v
  const double v = a[3];  // T v = a[i]
  EXPECT_EQ(v, 1.5);
  a[700] = a[3];  // a[i] = a[j]: the value, across pages
  EXPECT_EQ(a.get(700), 1.5);
  a[700] += 2.0;  // compound forms
  a[700] -= 0.5;
  a[700] *= 4.0;
  a[700] /= 2.0;
  EXPECT_EQ(a.get(700), 6.0);
  EXPECT_EQ(a.get(3), 1.5);
  const auto& c = a;
  EXPECT_EQ(c[700], 6.0);
  a.update(5, [](double& x) { x = 42; });
  EXPECT_EQ(a[5], 42.0);
}

TEST_P(paged_access, bulk_round_trips_cross_pages) {
  auto a = make<std::int32_t>();
  std::vector<std::int32_t> values(300);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<std::int32_t>(k * 3 + 1);
  a.get(100);  // one of the pages cached, the others moved directly
  a.write(37, values);
  EXPECT_EQ(a.read(37, 300), values);
  for (index_t k = 0; k < 300; ++k) EXPECT_EQ(a.get(37 + k), values[static_cast<std::size_t>(k)]);
  std::vector<std::int32_t> tail(4);
  a.read(a.size() - 4, std::span<std::int32_t>(tail));  // ends in the short last page
  EXPECT_EQ(tail, std::vector<std::int32_t>(4, 0));
}

TEST_P(paged_access, mapped_round_trips_cross_pages) {
  auto a = make<double>();
  for (index_t i = 0; i < a.size(); ++i) a.set(i, static_cast<double>(i));
  a.map(13, 500, [](double* ptr) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(ptr) % 4096, 0u);
    for (index_t k = 0; k < 500; ++k) {
      EXPECT_EQ(ptr[k], static_cast<double>(13 + k));  // ptr[k] is element 13 + k
      ptr[k] *= -1;
    }
  });
  for (index_t i = 0; i < a.size(); ++i)
    ASSERT_EQ(a.get(i), (i >= 13 && i < 513) ? -static_cast<double>(i) : static_cast<double>(i));
  // Read-only: changes stay in the buffer.
  a.map(0, 100, [](double* ptr) { ptr[0] = 99; }, {.read = true, .write = false});
  EXPECT_EQ(a.get(0), 0.0);
  // Write-only: the buffer starts zeroed, so untouched elements become 0, not garbage.
  a.map(60, 10, [](double* ptr) { ptr[1] = 7; }, {.read = false, .write = true});
  EXPECT_EQ(a.get(60), 0.0);
  EXPECT_EQ(a.get(61), 7.0);
  // Pinned: page-locked with the size in bytes.
  a.map(200, 300, [](double* ptr) { ptr[299] = 5; }, {.pinned = true});
  EXPECT_EQ(a.get(499), 5.0);
}

TEST_P(paged_access, pages_map_in_place) {
  auto a = make<std::int64_t>();
  for (index_t p = 0; p < a.pages(); ++p)
    a.map_page(p, page_access::overwrite, [&](std::int64_t* data, index_t count) {
      EXPECT_EQ(count, a.layout().elements_in(p));
      for (index_t k = 0; k < count; ++k) data[k] = p * 1000 + k;
    });
  for (index_t i = 0; i < a.size(); ++i) ASSERT_EQ(a.get(i), (i / 64) * 1000 + i % 64);
  a.map_page(2, page_access::write, [](std::int64_t* data, index_t) { data[1] += 1; });
  EXPECT_EQ(a.get(129), 2002);
}

TEST_P(paged_access, the_streaming_cycle_keeps_cached_writes) {
  auto a = make<int>();
  a.set(10, 1);  // cached and dirty
  a.set(64 * 5, 2);
  a.stream_start();
  EXPECT_TRUE(a.streaming());
  EXPECT_EQ(a.get_uncached(10), 1);  // flushed: the store has it
  a.set_uncached(11, 3);             // a page that is cached
  a.set_uncached(64 * 20, 4);        // one that is not
  EXPECT_EQ(a.get_uncached(11), 3);
  EXPECT_EQ(a.get_uncached(64 * 20), 4);
  a.stream_stop();
  EXPECT_FALSE(a.streaming());
  EXPECT_EQ(a.get(10), 1);
  EXPECT_EQ(a.get(64 * 5), 2);
  EXPECT_EQ(a.get(11), 3);
  EXPECT_EQ(a.get(64 * 20), 4);
  // Outside a cycle uncached access still agrees with the cache (a dirty page wins).
  a.set(12, 5);
  EXPECT_EQ(a.get_uncached(12), 5);
}

// Pinning failure must be reported: provoked with RLIMIT_MEMLOCK at 0, which binds only
// processes without CAP_IPC_LOCK (not root).
TEST(paged_map, a_pinning_failure_is_reported) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may lock memory whatever RLIMIT_MEMLOCK says";
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer replaces mlock with a call that always succeeds";
#endif
  paged_array<double> a(64 * 10, space_store(host_space), {.page = 64, .cached = 2});
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_MEMLOCK, &saved), 0);
  rlimit none = saved;
  none.rlim_cur = 0;
  ASSERT_EQ(::setrlimit(RLIMIT_MEMLOCK, &none), 0);
  expect_error<allocation_error>([&] { a.map(0, 600, [](double*) {}, {.pinned = true}); },
                                 {"4800 bytes", "mlock", "RLIMIT_MEMLOCK"});
  ::setrlimit(RLIMIT_MEMLOCK, &saved);
}

INSTANTIATE_TEST_SUITE_P(stores, paged_access, ::testing::ValuesIn(all_store_cases()),
                         store_case_name);

// Each thread sets its own elements (spread over every page and channel) and adds 1 to
// shared counters; afterwards every element and the counters' sum must be exact.
void concurrent_round(int threads) {
  constexpr index_t n = 60 * 32;
  paged_array<std::int64_t> a(
      n, space_store(std::vector<space_channels>{{simulated_space(0), 2}, {simulated_space(1), 1}}),
      {.page = 32, .cached = 2});
  constexpr index_t counters = 40;  // elements 0..39: one per page of the first 2 pages
  constexpr int adds_per_thread = 500;
  auto body = [&](int t) {
    for (index_t i = counters + t; i < n; i += threads) a.set(i, i * 10 + t);
    for (int k = 0; k < adds_per_thread; ++k) a[(k * 7 + t) % counters] += 1;
    for (index_t i = counters + t; i < n; i += threads) EXPECT_EQ(a.get(i), i * 10 + t);
  };
#if defined(_OPENMP)
#pragma omp parallel num_threads(threads)
  {
    EXPECT_EQ(omp_get_num_threads(), threads);
    body(omp_get_thread_num());
  }
#else
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(body, t);
  for (auto& thread : pool) thread.join();
#endif
  std::int64_t total = 0;
  for (index_t i = 0; i < counters; ++i) total += a.get(i);
  EXPECT_EQ(total, std::int64_t{threads} * adds_per_thread);
  for (index_t i = counters; i < n; ++i)
    ASSERT_EQ(a.get(i), i * 10 + (i - counters) % threads) << "element " << i;
  const auto s = a.statistics();
  EXPECT_GT(s.misses, 0u);
  EXPECT_GT(s.write_backs, 0u);
}

TEST(paged_concurrency, two_threads_lose_no_write) { concurrent_round(2); }
TEST(paged_concurrency, seven_threads_lose_no_write) { concurrent_round(7); }

}  // namespace funcmesh::testing
