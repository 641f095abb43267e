// The stores: channel counts (explicit, by ratio, by free memory), "no room" errors, the
// simulated devices' copy counters (direct page traffic, no needless copy), find against
// std::find on every store, and file_store's files and I/O errors.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>

#include <funcmesh/exec/thread_policy.hpp>
#include <funcmesh/memory/memory_error.hpp>

#include "paged_test_support.hpp"

namespace funcmesh::testing {

TEST(paged_space_store, channels_by_ratio_and_by_free_memory) {
  EXPECT_EQ(apportion_channels({1, 3}, 8), (std::vector<int>{2, 6}));
  EXPECT_EQ(apportion_channels({0, 1, 1}, 5), (std::vector<int>{0, 3, 2}));
  EXPECT_EQ(apportion_channels({1000, 1}, 4), (std::vector<int>{3, 1}));  // at least 1 each
  expect_error<paged_error>([] { apportion_channels({1, 1, 1}, 2); }, {"2 channels", "3 enabled"});
  expect_error<paged_error>([] { apportion_channels({0, 0}, 2); }, {"disabled"});

  const auto ratio = space_store::by_ratio({{simulated_space(0), 1}, {simulated_space(1), 3}}, 8);
  ASSERT_EQ(ratio.spaces().size(), 2u);
  EXPECT_EQ(ratio.spaces()[0].channels, 2);
  EXPECT_EQ(ratio.spaces()[1].channels, 6);

  // A small device gets fewer channels; a 0 entry stays disabled.
  scoped_simulated_capacity small(0, 1 << 20), large(1, 3 << 20);
  const auto by_memory =
      space_store::by_free_memory({{simulated_space(0), 4}, {simulated_space(1), 4}});
  EXPECT_EQ(by_memory.spaces()[0].channels, 2);
  EXPECT_EQ(by_memory.spaces()[1].channels, 6);
  const auto one = space_store::by_free_memory({{simulated_space(0), 0}, {simulated_space(1), 3}});
  ASSERT_EQ(one.spaces().size(), 1u);
  EXPECT_EQ(one.spaces()[0].space, simulated_space(1));
  EXPECT_EQ(one.channels(), 3);
}

TEST(paged_space_store, channels_alternate_between_spaces) {
  space_store s({{simulated_space(0), 1}, {simulated_space(1), 3}});
  std::vector<memory_space> order;
  for (int c = 0; c < s.channels(); ++c) order.push_back(s.space_of(c));
  EXPECT_EQ(std::count(order.begin(), order.end(), simulated_space(0)), 1);
  EXPECT_NE(order[0], order[1]);  // sequential pages draw on both devices
  EXPECT_EQ(s.describe(), "space_store(sim:0 x1, sim:1 x3)");
}

TEST(paged_space_store, a_space_without_room_is_a_clear_error) {
  scoped_simulated_capacity tiny(1, 4096);
  expect_error<allocation_error>(
      [] {
        paged_array<double> a(8192, space_store({{simulated_space(0), 1}, {simulated_space(1), 1}}),
                              {.page = 256, .cached = 2});
      },
      {"sim:1", "32768 bytes", "only 4096 bytes free"});
  EXPECT_EQ(simulated_allocated_bytes(0), 0u);  // refused before anything was allocated
  EXPECT_EQ(simulated_allocated_bytes(1), 0u);
}

TEST(paged_space_store, simulated_capacity_is_cumulative) {
  scoped_simulated_capacity cap(0, 10000);
  auto& sim = memory_manager_for(simulated_kind());
  void* first = sim.allocate(0, 6000);
  EXPECT_EQ(free_bytes(simulated_space(0)), 4000u);
  EXPECT_THROW(sim.allocate(0, 6000), allocation_error);
  sim.deallocate(0, first);
  EXPECT_EQ(free_bytes(simulated_space(0)), 10000u);
  EXPECT_NE(free_bytes(host_space), memory_manager::unknown_free_bytes);
}

// Page traffic on two simulated devices with 1 and 3 channels: every transfer is one
// page (or one range) between the host and the device that owns it, none is repeated,
// and nothing goes device to device.
TEST(paged_space_store, copy_counters_show_direct_page_traffic) {
  constexpr index_t page = 64, pages = 40, n = page * pages;
  constexpr std::size_t page_bytes = page * sizeof(double);
  reset_simulated_counts();
  paged_array<double> a(n, space_store({{simulated_space(0), 1}, {simulated_space(1), 3}}),
                        {.page = page, .cached = 2});
  std::array<index_t, 2> pages_on{0, 0};
  for (index_t p = 0; p < pages; ++p) {
    const auto& store = static_cast<const space_store&>(a.store());
    ++pages_on[static_cast<std::size_t>(store.space_of(a.layout().channel_of(p)).device)];
  }
  EXPECT_EQ(pages_on[0], 10);
  EXPECT_EQ(pages_on[1], 30);
  auto counts = [](int d) { return simulated_counts(d); };
  EXPECT_EQ(counts(0).allocations, 1);
  EXPECT_EQ(counts(1).allocations, 3);
  EXPECT_EQ(simulated_counts().from_host, 0);  // zeroed in place, no upload

  // A bulk write of everything: one direct upload per page, nothing read first.
  std::vector<double> values(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = static_cast<double>(i);
  a.write(0, values);
  for (int d = 0; d < 2; ++d) {
    EXPECT_EQ(counts(d).from_host, pages_on[static_cast<std::size_t>(d)]);
    EXPECT_EQ(counts(d).bytes_from_host,
              static_cast<std::size_t>(pages_on[static_cast<std::size_t>(d)]) * page_bytes);
    EXPECT_EQ(counts(d).to_host, 0);
  }
  // A sequential read through the cache: one download per page, no write-back of clean
  // pages.
  reset_simulated_counts();
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(a.get(i), static_cast<double>(i));
  for (int d = 0; d < 2; ++d) {
    EXPECT_EQ(counts(d).to_host, pages_on[static_cast<std::size_t>(d)]);
    EXPECT_EQ(counts(d).from_host, 0);
  }
  // find scans the devices in place: no copy at all (everything is clean).
  reset_simulated_counts();
  EXPECT_EQ(a.find(17.0), std::vector<index_t>{17});
  EXPECT_EQ(simulated_counts().to_host + simulated_counts().from_host, 0);
  // Overwriting whole pages in place: no download; one upload each at the flush.
  reset_simulated_counts();
  for (index_t p = 0; p < pages; ++p)
    a.map_page(p, page_access::overwrite, [](double* data, index_t count) {
      for (index_t k = 0; k < count; ++k) data[k] = -1;
    });
  a.flush();
  a.flush();
  EXPECT_EQ(simulated_counts().to_host, 0);
  EXPECT_EQ(simulated_counts().from_host, pages);
  // A streaming cycle reloads nothing; each uncached element is one element's copy.
  reset_simulated_counts();
  a.stream_start();
  a.set_uncached(5, 2.5);
  EXPECT_EQ(a.get_uncached(5), 2.5);
  a.stream_stop();
  EXPECT_EQ(simulated_counts().from_host, 1);
  EXPECT_EQ(simulated_counts().bytes_from_host, sizeof(double));
  EXPECT_EQ(simulated_counts().to_host, 1);
  EXPECT_EQ(simulated_counts().between, 0);
  EXPECT_EQ(a.get(5), 2.5);
}

struct particle {
  std::int32_t id;
  float x;
  double y;
};

class paged_find : public ::testing::TestWithParam<store_case> {
 protected:
  temporary_directory dir_;
};

TEST_P(paged_find, find_agrees_with_std_find) {
  exec::scoped_thread_policy parallel(2, 0);  // the scan splits even this small array
  constexpr index_t n = 100 * 50 + 7;
  paged_array<std::int32_t> a(n, GetParam().make(dir_.path()), {.page = 50, .cached = 2});
  std::vector<std::int32_t> oracle(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i)
    oracle[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i % 97);
  a.write(0, oracle);
  a.set(n - 1, 1000);  // cached and dirty: find flushes first
  oracle.back() = 1000;
  for (std::int32_t value : {0, 5, 96, 1000, 4242}) {
    std::vector<index_t> expected;
    for (auto it = std::find(oracle.begin(), oracle.end(), value); it != oracle.end();
         it = std::find(it + 1, oracle.end(), value))
      expected.push_back(it - oracle.begin());
    EXPECT_EQ(a.find(value), expected) << "value " << value;
  }
  // At most 2 per channel, the lowest of each channel.
  const std::vector<index_t> capped = a.find(5, 2);
  std::vector<index_t> expected;
  std::vector<int> kept(static_cast<std::size_t>(a.channels()), 0);
  for (index_t i = 5; i < n; i += 97)
    if (kept[static_cast<std::size_t>(a.layout().channel_of(i / 50))]++ < 2) expected.push_back(i);
  EXPECT_EQ(capped, expected);
  EXPECT_TRUE(a.find(5, 0).empty());
  EXPECT_THROW(a.find(5, -1), paged_error);
}

TEST_P(paged_find, find_by_member) {
  constexpr index_t n = 30 * 20;
  paged_array<particle> a(n, GetParam().make(dir_.path()), {.page = 20, .cached = 1});
  for (index_t i = 0; i < n; ++i)
    a.set(i, particle{static_cast<std::int32_t>(i % 13), static_cast<float>(i), 0.5});
  std::vector<index_t> expected;
  for (index_t i = 7; i < n; i += 13) expected.push_back(i);
  EXPECT_EQ(a.find(&particle::id, 7), expected);
  EXPECT_EQ(a.find(&particle::x, 123.0f), std::vector<index_t>{123});
  EXPECT_EQ(a.find(&particle::y, 0.25).size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(stores, paged_find, ::testing::ValuesIn(all_store_cases()),
                         store_case_name);

// A file of several 4 MiB scan blocks, scanned on parallel threads, with a short last page.
TEST(paged_file_store, find_scans_a_file_of_many_blocks) {
  exec::scoped_thread_policy parallel(2, 0);
  temporary_directory dir;
  constexpr index_t n = 3 * (1 << 20) + 123;  // 12 MiB of int32
  paged_array<std::int32_t> a(n, file_store(dir.path(), {.channels = 2}),
                              {.page = 4096, .cached = 2});
  std::vector<std::int32_t> values(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i)
    values[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i % 1000003);
  a.write(0, values);
  for (const std::int32_t value : {7, static_cast<std::int32_t>((n - 1) % 1000003)}) {
    std::vector<index_t> expected, capped;
    std::vector<int> kept(2, 0);
    for (index_t i = value; i < n; i += 1000003) {
      expected.push_back(i);
      if (kept[static_cast<std::size_t>(a.layout().channel_of(i / 4096))]++ < 1)
        capped.push_back(i);
    }
    EXPECT_EQ(a.find(value), expected);
    EXPECT_EQ(a.find(value, 1), capped);  // the lowest one per channel
  }
}

TEST(paged_file_store, the_file_exists_while_the_array_does) {
  temporary_directory dir;
  std::filesystem::path file;
  {
    paged_array<int> a(1000, file_store(dir.path()), {.page = 100, .cached = 2});
    file = a.store().channel_name(0);
    EXPECT_EQ(file.parent_path(), dir.path());
    EXPECT_TRUE(std::filesystem::exists(file));
    EXPECT_EQ(std::filesystem::file_size(file), 4000u);  // reserved whole at creation
  }
  EXPECT_FALSE(std::filesystem::exists(file));
}

TEST(paged_file_store, a_kept_file_is_the_arrays_plain_image) {
  temporary_directory dir;
  const auto file = dir.path() / "kept.bin";
  {
    paged_array<std::int32_t> a(1000, file_store(file, {.channels = 2, .keep = true}),
                                {.page = 64, .cached = 2});
    for (index_t i = 0; i < 1000; ++i) a[i] = static_cast<std::int32_t>(i * i);
  }  // dirty pages written back at destruction
  std::ifstream in(file, std::ios::binary);
  std::vector<std::int32_t> image(1000);
  in.read(reinterpret_cast<char*>(image.data()), 4000);
  ASSERT_TRUE(in);
  for (index_t i = 0; i < 1000; ++i) EXPECT_EQ(image[static_cast<std::size_t>(i)], i * i);
  // A file_store never overwrites an existing file.
  expect_error<store_error>(
      [&] { paged_array<int> b(1000, file_store(file), {.page = 100, .cached = 1}); },
      {file.string(), "File exists"});
}

TEST(paged_file_store, a_missing_directory_is_a_clear_error) {
  expect_error<store_error>(
      [] {
        paged_array<double> a(1000, file_store("/nonexistent-funcmesh-dir/a.bin"),
                              {.page = 100, .cached = 1});
      },
      {"/nonexistent-funcmesh-dir/a.bin", "8000 bytes", "No such file or directory"});
}

TEST(paged_file_store, more_than_the_disk_holds_is_refused_at_construction) {
  temporary_directory dir;
  const auto space = std::filesystem::space(dir.path());
  const index_t n = static_cast<index_t>(space.available / sizeof(double)) + (index_t{1} << 30);
  expect_error<store_error>(
      [&] { paged_array<double> a(n, file_store(dir.path()), {.page = 1 << 16, .cached = 1}); },
      {dir.path().string(), std::to_string(static_cast<std::size_t>(n) * sizeof(double)) + " bytes",
       "bytes free"});
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // the file was removed
}

// A write-back that fails (the descriptor swapped for a read-only one) throws and leaves
// the page dirty: once the file is writable again, nothing was lost.
TEST(paged_file_store, a_failed_write_back_is_reported_and_keeps_the_page) {
  temporary_directory dir;
  paged_array<int> a(10 * 16, file_store(dir.path()), {.page = 16, .cached = 1});
  const auto& store = static_cast<const file_store&>(a.store());
  const int fd = store.native_handle();
  const int saved = ::dup(fd);
  ASSERT_GE(saved, 0);
  a.set(3, 33);  // page 0 cached and dirty
  const int read_only = ::open(store.path().c_str(), O_RDONLY);
  ASSERT_GE(read_only, 0);
  ASSERT_GE(::dup2(read_only, fd), 0);
  expect_error<store_error>([&] { a.get(16); },  // evicts page 0
                            {"writing 64 bytes at offset 0", store.path().string()});
  expect_error<store_error>([&] { a.flush(); }, {"writing"});
  ASSERT_GE(::dup2(saved, fd), 0);
  ::close(saved);
  ::close(read_only);
  EXPECT_EQ(a.get(3), 33);  // still cached
  a.flush();
  EXPECT_EQ(a.statistics().write_backs, 1u);
  EXPECT_EQ(a.get(16), 0);  // page 0 evicted now, written
  EXPECT_EQ(a.get(3), 33);
}

// A background write-back (write_behind) that fails is not lost either: the page stays
// cached and dirty, and the eviction that writes it next reports the error.
TEST(paged_file_store, a_failed_write_behind_keeps_the_page_for_the_next_write) {
  temporary_directory dir;
  paged_array<int> a(10 * 16, file_store(dir.path()), {.page = 16, .cached = 1});
  const auto& store = static_cast<const file_store&>(a.store());
  const int fd = store.native_handle();
  const int saved = ::dup(fd);
  ASSERT_GE(saved, 0);
  a.set(3, 33);
  const int read_only = ::open(store.path().c_str(), O_RDONLY);
  ASSERT_GE(read_only, 0);
  ASSERT_GE(::dup2(read_only, fd), 0);
  a.write_behind(3);
  a.wait_for_prefetches();
  EXPECT_EQ(a.statistics().write_backs, 0u);
  expect_error<store_error>([&] { a.get(16); }, {"writing 64 bytes at offset 0"});
  ASSERT_GE(::dup2(saved, fd), 0);
  ::close(saved);
  ::close(read_only);
  a.write_behind(3);
  a.wait_for_prefetches();
  EXPECT_EQ(a.statistics().write_backs, 1u);
  EXPECT_EQ(a.get(16), 0);  // page 0 evicted, clean: nothing more written
  EXPECT_EQ(a.statistics().write_backs, 1u);
  EXPECT_EQ(a.get(3), 33);  // from the file
}

TEST(paged_file_store, a_truncated_file_is_a_read_error) {
  temporary_directory dir;
  paged_array<int> a(10 * 16, file_store(dir.path()), {.page = 16, .cached = 1});
  ASSERT_EQ(::ftruncate(static_cast<const file_store&>(a.store()).native_handle(), 0), 0);
  expect_error<store_error>([&] { a.get(100); }, {"reading", "unexpected end of file"});
  // The slot the failed load left free is usable (overwrite reads nothing).
  a.map_page(0, page_access::overwrite, [](int* data, index_t count) {
    for (index_t k = 0; k < count; ++k) data[k] = 1;
  });
  EXPECT_EQ(a.get(15), 1);
}

}  // namespace funcmesh::testing
