// The page caches: statistics of sequential and random scans (sequential: one miss per
// page), LRU eviction order, write-backs only of dirty pages, prefetching.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "paged_test_support.hpp"

namespace funcmesh::testing {

TEST(paged_cache, statistics_start_at_zero_and_are_never_nan) {
  paged_array<int> a(1000, space_store(host_space), {.page = 10, .cached = 4});
  const cache_statistics s = a.statistics();
  EXPECT_EQ(s.hits + s.misses + s.write_backs + s.bytes_from_store + s.bytes_to_store, 0u);
  EXPECT_EQ(s.hit_ratio(), 0.0);
  EXPECT_FALSE(std::isnan(s.hit_ratio()));
}

TEST(paged_cache, a_sequential_scan_misses_once_per_page) {
  constexpr index_t n = 50 * 100 - 30;  // a short last page too
  paged_array<double> a(
      n, space_store(std::vector<space_channels>{{simulated_space(0), 1}, {simulated_space(1), 2}}),
      {.page = 100, .cached = 2});
  double sum = 0;
  for (index_t i = 0; i < n; ++i) sum += a.get(i);
  EXPECT_EQ(sum, 0.0);
  const cache_statistics s = a.statistics();
  EXPECT_EQ(s.misses, static_cast<std::uint64_t>(a.pages()));
  EXPECT_EQ(s.hits, static_cast<std::uint64_t>(n - a.pages()));
  EXPECT_EQ(s.write_backs, 0u);  // clean victims are dropped, never written
  EXPECT_EQ(s.bytes_from_store, static_cast<std::uint64_t>(n) * sizeof(double));
  EXPECT_NEAR(s.hit_ratio(), 0.99, 0.001);
  std::uint64_t per_channel = 0;
  for (int c = 0; c < a.channels(); ++c) per_channel += a.statistics(c).misses;
  EXPECT_EQ(per_channel, s.misses);
  a.reset_statistics();
  EXPECT_EQ(a.statistics().hits, 0u);
}

TEST(paged_cache, a_random_scan_hits_about_as_often_as_the_cache_covers) {
  constexpr index_t n = 64 * 200;
  paged_array<double> a(n, space_store(host_space, 2), {.page = 64, .cached = 10});
  std::mt19937_64 random(3);
  std::uniform_int_distribution<index_t> pick(0, n - 1);
  constexpr int accesses = 40000;
  for (int k = 0; k < accesses; ++k) a.get(pick(random));
  const cache_statistics s = a.statistics();
  EXPECT_EQ(s.hits + s.misses, static_cast<std::uint64_t>(accesses));
  // 20 of 200 pages cached: a uniform random access hits about 10% of the time, far below
  // the sequential scan's 1 - 1/64.
  EXPECT_NEAR(s.hit_ratio(), 0.1, 0.03);
}

TEST(paged_cache, the_least_recently_used_page_goes_first) {
  paged_array<int> a(10 * 4, space_store(host_space), {.page = 4, .cached = 3});
  auto misses = [&] { return a.statistics().misses; };
  auto touch = [&](index_t page) { a.get(page * 4); };
  touch(0), touch(1), touch(2);  // cache: 2 1 0 (most recent first)
  EXPECT_EQ(misses(), 3u);
  touch(0);  // hit: 0 2 1
  EXPECT_EQ(misses(), 3u);
  touch(3);  // evicts 1: 3 0 2
  EXPECT_EQ(misses(), 4u);
  touch(0), touch(2), touch(3);
  EXPECT_EQ(misses(), 4u);
  touch(1);  // evicts 0, now the least recent: 1 3 2
  EXPECT_EQ(misses(), 5u);
  touch(2), touch(3);
  EXPECT_EQ(misses(), 5u);
  touch(0);
  EXPECT_EQ(misses(), 6u);
}

// CLOCK: a hit sets the page's bit; a miss sweeps from the hand, clearing bits, to the
// first unreferenced page, and a new page starts referenced. The trace, slot by slot (page
// and bit), is in the comments; the last two steps tell it from LRU, which would evict 4.
TEST(paged_cache, clock_gives_a_referenced_page_a_second_chance) {
  paged_array<int> a(10 * 4, space_store(host_space),
                     {.page = 4, .cached = 3, .replacement = page_replacement::clock});
  auto misses = [&] { return a.statistics().misses; };
  auto touch = [&](index_t page) { a.get(page * 4); };
  touch(0), touch(1), touch(2);  // 0* 1* 2*, hand at slot 0
  EXPECT_EQ(misses(), 3u);
  touch(3);  // a full sweep clears every bit, then evicts 0: 3* 1 2, hand at 1
  EXPECT_EQ(misses(), 4u);
  touch(1);  // hit: 3* 1* 2
  EXPECT_EQ(misses(), 4u);
  touch(4);  // 1 keeps its page (second chance), 2 goes: 3* 1 4*, hand at 0
  EXPECT_EQ(misses(), 5u);
  touch(1);  // hit: 3* 1* 4*
  EXPECT_EQ(misses(), 5u);
  touch(2);  // a full sweep, then 3 goes: 2* 1 4, hand at 1
  EXPECT_EQ(misses(), 6u);
  touch(3);  // 1 goes: 2* 3* 4, hand at 2
  EXPECT_EQ(misses(), 7u);
  touch(4);  // still cached (LRU would have evicted 4, the least recent, at touch(3))
  EXPECT_EQ(misses(), 7u);
  touch(1);  // a full sweep, then 4 goes: 2 3 1*, hand at 0
  EXPECT_EQ(misses(), 8u);
  touch(2), touch(3);  // both still cached
  EXPECT_EQ(misses(), 8u);
}

TEST(paged_cache, clock_scans_like_lru_sequentially_and_at_random) {
  constexpr index_t n = 50 * 100 - 30;  // a short last page too
  paged_array<double> a(
      n, space_store(std::vector<space_channels>{{simulated_space(0), 1}, {simulated_space(1), 2}}),
      {.page = 100, .cached = 2, .replacement = page_replacement::clock});
  for (index_t i = 0; i < n; ++i) a.set(i, static_cast<double>(i));
  double sum = 0;
  for (index_t i = 0; i < n; ++i) sum += a.get(i);
  EXPECT_EQ(sum, 0.5 * static_cast<double>(n) * static_cast<double>(n - 1));
  EXPECT_EQ(a.statistics().misses, 2 * static_cast<std::uint64_t>(a.pages()));  // two passes
  a.reset_statistics();
  std::mt19937_64 random(3);
  std::uniform_int_distribution<index_t> pick(0, n - 1);
  constexpr int accesses = 40000;
  for (int k = 0; k < accesses; ++k) {
    const index_t i = pick(random);
    ASSERT_EQ(a.get(i), static_cast<double>(i));
  }
  // 6 of 50 pages cached (2 per channel): a uniform random access hits about 12% of the
  // time, as under LRU.
  EXPECT_NEAR(a.statistics().hit_ratio(), 6.0 / 50.0, 0.03);
}

TEST(paged_cache, only_dirty_pages_are_written_back_once) {
  paged_array<int> a(20 * 8, space_store(host_space), {.page = 8, .cached = 2});
  for (index_t i = 0; i < a.size(); ++i) a.set(i, static_cast<int>(i));
  EXPECT_EQ(a.statistics().write_backs, 18u);  // 2 still cached, dirty
  a.flush();
  EXPECT_EQ(a.statistics().write_backs, 20u);
  a.flush();  // nothing dirty: nothing written
  EXPECT_EQ(a.statistics().write_backs, 20u);
  for (index_t i = 0; i < a.size(); ++i) ASSERT_EQ(a.get(i), i);
  EXPECT_EQ(a.statistics().write_backs, 20u);
}

TEST(paged_cache, prefetch_loads_in_the_background_without_changing_values) {
  paged_array<int> a(40 * 16, space_store(std::vector<space_channels>{{simulated_space(0), 2}}),
                     {.page = 16, .cached = 4});
  for (index_t i = 0; i < a.size(); ++i) a.set(i, static_cast<int>(3 * i));
  a.flush();
  a.get(0);  // pages 0 and 1 become the cached ones of their channels
  a.get(16);
  a.reset_statistics();
  for (index_t p = 20; p < 24; ++p) a.prefetch(p * 16);
  a.wait_for_prefetches();
  EXPECT_EQ(a.statistics().prefetches, 4u);
  for (index_t p = 20; p < 24; ++p)
    for (index_t k = 0; k < 16; ++k) EXPECT_EQ(a.get(p * 16 + k), 3 * (p * 16 + k));
  EXPECT_EQ(a.statistics().misses, 0u);  // every page was already there
  for (index_t i = 0; i < a.size(); ++i) ASSERT_EQ(a.get(i), 3 * i);
  // A dirty least recently used page is never written back in the background.
  paged_array<int> b(8 * 4, space_store(host_space), {.page = 4, .cached = 1});
  b.set(0, 1);
  b.reset_statistics();
  b.prefetch(20);
  b.wait_for_prefetches();
  EXPECT_EQ(b.statistics().prefetches, 0u);
  EXPECT_EQ(b.statistics().write_backs, 0u);
  EXPECT_EQ(b.get(0), 1);
  EXPECT_THROW(b.prefetch(32), index_error);
}

// write_behind: a dirty cached page is written back in the background and stays cached,
// clean (evicting it later writes nothing); clean or uncached pages are left alone.
TEST(paged_cache, write_behind_cleans_a_dirty_page_in_the_background) {
  paged_array<int> a(8 * 4, space_store(host_space), {.page = 4, .cached = 2});
  a.set(1, 11);  // page 0 dirty
  a.get(4);      // page 1 cached, clean
  a.reset_statistics();
  a.write_behind(1);
  a.write_behind(5);
  a.write_behind(20);  // not cached
  a.wait_for_prefetches();
  EXPECT_EQ(a.statistics().write_backs, 1u);
  EXPECT_EQ(a.statistics().bytes_to_store, 4 * sizeof(int));
  a.get(8);  // evicts page 0 (least recently used): clean, nothing written
  a.get(12);
  EXPECT_EQ(a.statistics().write_backs, 1u);
  EXPECT_EQ(a.get(1), 11);  // read back from the store
  EXPECT_THROW(a.write_behind(32), index_error);
}

}  // namespace funcmesh::testing
