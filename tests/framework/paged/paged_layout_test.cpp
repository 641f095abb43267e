// The layout of a paged array: the mapping formula (page p on channel p % channels at
// local page p / channels, in the store too), the short last page, and every constructor
// check with its error type and message.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>

#include <funcmesh/memory/memory_error.hpp>
#include "paged_test_support.hpp"

namespace funcmesh::testing {

TEST(paged_layout, the_mapping_formula) {
  const page_layout l = make_page_layout(1000, 8, 7, 2, 3);
  EXPECT_EQ(l.pages, 143);  // 142 full pages and one of 6 elements
  index_t total = 0;
  for (int c = 0; c < 3; ++c) total += l.pages_on(c);
  EXPECT_EQ(total, l.pages);
  for (index_t p = 0; p < l.pages; ++p) {
    EXPECT_EQ(l.channel_of(p), p % 3);
    EXPECT_EQ(l.local_page_of(p), p / 3);
    EXPECT_EQ(l.page_of(l.channel_of(p), l.local_page_of(p)), p);
    EXPECT_LT(l.local_page_of(p), l.pages_on(l.channel_of(p)));
  }
  EXPECT_EQ(l.pages_on(0), 48);  // pages 0, 3, ..., 141
  EXPECT_EQ(l.pages_on(1), 48);  // 1, ..., 142
  EXPECT_EQ(l.pages_on(2), 47);
  EXPECT_EQ(l.elements_in(142), 6);
  EXPECT_EQ(l.bytes_in(142), 48u);
  EXPECT_TRUE(l.short_last_page());
}

// The multiply-and-shift division behind every page lookup is exact over all indices.
TEST(paged_layout, the_fast_divider_divides_exactly) {
  std::mt19937_64 random(9);
  std::vector<index_t> divisors{1,
                                2,
                                3,
                                7,
                                10,
                                64,
                                100,
                                1000,
                                4095,
                                4096,
                                4097,
                                10000,
                                (index_t{1} << 40) + 3,
                                std::numeric_limits<index_t>::max()};
  for (int k = 0; k < 300; ++k)
    divisors.push_back(static_cast<index_t>(random() >> (1 + random() % 63)) | 1);
  for (const index_t d : divisors) {
    const detail::fast_divider divide(d);
    std::vector<index_t> numbers{0, 1, d - 1, d, std::numeric_limits<index_t>::max()};
    for (int k = 0; k < 300; ++k)
      numbers.push_back(static_cast<index_t>(random() >> (1 + random() % 63)));
    for (const index_t n : numbers) ASSERT_EQ(divide.divide(n), n / d) << n << " / " << d;
  }
}

// Page p's bytes sit in channel p % C's memory at local page p / C.
TEST(paged_layout, the_store_places_pages_by_the_formula) {
  constexpr index_t n = 10 * 16;
  paged_array<std::int64_t> a(n, space_store(host_space, 3), {.page = 16, .cached = 1});
  for (index_t i = 0; i < n; ++i) a.set(i, i);
  a.flush();
  const page_layout& l = a.layout();
  for (index_t p = 0; p < l.pages; ++p) {
    const std::byte* channel = a.store().host_address(l.channel_of(p));
    ASSERT_NE(channel, nullptr);
    std::int64_t first = -1;
    std::memcpy(&first, channel + static_cast<std::size_t>(l.local_page_of(p)) * l.page_bytes(),
                sizeof first);
    EXPECT_EQ(first, p * 16) << "page " << p;
  }
}

TEST(paged_layout, a_short_last_page_is_supported) {
  temporary_directory dir;
  paged_array<double> a(105, file_store(dir.path()), {.page = 10, .cached = 2});
  EXPECT_EQ(a.pages(), 11);
  EXPECT_EQ(a.layout().elements_in(10), 5);
  for (index_t i = 0; i < 105; ++i) a[i] = 0.5 * static_cast<double>(i);
  a.flush();
  // The file is the plain image: exactly 105 elements, the short page not padded.
  EXPECT_EQ(std::filesystem::file_size(a.store().channel_name(0)), 105u * sizeof(double));
  const std::vector<double> back = a.read(0, 105);
  for (index_t i = 0; i < 105; ++i) EXPECT_EQ(back[static_cast<std::size_t>(i)], 0.5 * i);
  EXPECT_THROW(a.get(105), index_error);
}

TEST(paged_layout, zero_page_size_is_refused) {
  expect_error<paged_error>(
      [] { paged_array<double> a(100, space_store(host_space), {.page = 0, .cached = 1}); },
      {"page size 0", "at least 1 element"});
}

TEST(paged_layout, fewer_pages_than_channels_is_refused) {
  expect_error<paged_error>(
      [] { paged_array<double> a(10, space_store(host_space, 4), {.page = 4, .cached = 1}); },
      {"3 pages", "fewer pages than", "4 channels"});
}

TEST(paged_layout, more_cached_pages_than_pages_is_refused) {
  expect_error<paged_error>(
      [] { paged_array<double> a(100, space_store(host_space, 2), {.page = 10, .cached = 6}); },
      {"6 cached pages per channel", "more cached pages than pages", "10 pages"});
}

TEST(paged_layout, byte_count_overflow_is_refused) {
  expect_error<paged_error>(
      [] { paged_array<double> a(index_t{1} << 61, space_store(host_space), {.page = 1024}); },
      {"overflows the byte count", "2305843009213693952 elements"});
  struct big {
    char bytes[1 << 20];
  };
  expect_error<paged_error>(
      [] {
        paged_array<big> a(index_t{1} << 46, space_store(host_space), {.page = index_t{1} << 45});
      },
      {"overflows the byte count", "a page of 35184372088832 elements"});
}

TEST(paged_layout, negative_sizes_and_empty_caches_are_refused) {
  expect_error<paged_error>([] { paged_array<int> a(-1, space_store(host_space)); },
                            {"negative size -1"});
  expect_error<paged_error>(
      [] { paged_array<int> a(100, space_store(host_space), {.page = 10, .cached = 0}); },
      {"0 cached pages per channel"});
  expect_error<paged_error>([] { paged_array<int> a(0, space_store(host_space)); },
                            {"0 pages", "fewer pages than"});
}

TEST(paged_layout, store_channel_counts_are_checked) {
  expect_error<paged_error>(
      [] {
        space_store s({{simulated_space(0), 0}});
      },
      {"no channels", "disabled"});
  expect_error<paged_error>(
      [] {
        space_store s({{simulated_space(0), -2}});
      },
      {"-2 channels for sim:0"});
  expect_error<paged_error>(
      [] {
        space_store s({{simulated_space(0), 1}, {simulated_space(0), 2}});
      },
      {"sim:0 is listed twice"});
  expect_error<device_error>([] { space_store s({{simulated_space(7), 1}}); }, {"sim:7"});
  expect_error<paged_error>([] { file_store s("/tmp", {.channels = 0}); }, {"0 channels"});
}

TEST(paged_layout, an_open_store_instance_is_refused) {
  paged_array<int> a(100, space_store(host_space), {.page = 10, .cached = 1});
  // The opened instance as a recipe is fine (a fresh instance is opened) ...
  paged_array<int> b(100, a.store(), {.page = 10, .cached = 1});
  EXPECT_EQ(b.channels(), 1);
  // ... but handing over an opened instance is not.
  auto opened = std::make_unique<space_store>(host_space);
  opened->open(make_page_layout(100, 4, 10, 1, 1));
  expect_error<paged_error>([&] { paged_array<int> c(100, std::move(opened)); }, {"already open"});
}

}  // namespace funcmesh::testing
