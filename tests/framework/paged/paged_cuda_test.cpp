// find() on CUDA stores scans where the pages live (a kernel on the device, only the
// matches come back) and agrees with std::find, alone and beside host and simulated
// channels. Runs where a GPU is visible (the cuda label); skipped elsewhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <funcmesh/memory/memory_manager.hpp>
#include <funcmesh/memory/simulated_device.hpp>
#include <funcmesh/paged/paged.hpp>

namespace funcmesh {
namespace {

bool gpu_visible() { return memory_manager_for(space_kind::cuda).device_count() > 0; }

std::vector<index_t> std_find_all(const std::vector<std::int32_t>& values, std::int32_t value) {
  std::vector<index_t> found;
  for (auto it = std::find(values.begin(), values.end(), value); it != values.end();
       it = std::find(it + 1, values.end(), value))
    found.push_back(it - values.begin());
  return found;
}

void expect_find_agrees(paged_array<std::int32_t>& a, std::vector<std::int32_t> oracle) {
  const auto n = static_cast<index_t>(oracle.size());
  a.write(0, oracle);
  a.set(n - 1, 1000);  // cached and dirty: find flushes first
  oracle.back() = 1000;
  for (std::int32_t value : {0, 5, 96, 1000, 4242}) {
    EXPECT_EQ(a.find(value), std_find_all(oracle, value)) << "value " << value;
  }
  // At most 2 per channel, the lowest of each channel.
  std::vector<index_t> expected;
  std::vector<int> kept(static_cast<std::size_t>(a.channels()), 0);
  for (const index_t i : std_find_all(oracle, 5)) {
    const int channel = a.layout().channel_of(a.layout().page_of_element(i));
    if (kept[static_cast<std::size_t>(channel)]++ < 2) expected.push_back(i);
  }
  EXPECT_EQ(a.find(5, 2), expected);
  EXPECT_TRUE(a.find(5, 0).empty());
}

std::vector<std::int32_t> pattern(index_t n, std::int32_t period) {
  std::vector<std::int32_t> values(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i)
    values[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i % period);
  return values;
}

TEST(paged_cuda, find_on_a_device_store_agrees_with_std_find) {
  if (!gpu_visible()) GTEST_SKIP() << "no GPU is visible";
  constexpr index_t n = 100 * 50 + 7;  // a short last page: its unused slots never match
  paged_array<std::int32_t> a(n, space_store(cuda_space(0), 2), {.page = 50, .cached = 2});
  expect_find_agrees(a, pattern(n, 97));
}

TEST(paged_cuda, find_beside_host_and_simulated_channels_agrees_with_std_find) {
  if (!gpu_visible()) GTEST_SKIP() << "no GPU is visible";
  constexpr index_t n = 64 * 40 + 3;
  paged_array<std::int32_t> a(
      n, space_store({{cuda_space(0), 2}, {host_space, 1}, {simulated_space(0), 1}}),
      {.page = 40, .cached = 1});
  expect_find_agrees(a, pattern(n, 97));
}

// Channels of several million slots: the device scans in chunks and stops at the cap.
TEST(paged_cuda, find_over_many_chunks_keeps_the_lowest_matches) {
  if (!gpu_visible()) GTEST_SKIP() << "no GPU is visible";
  constexpr index_t n = 5 * (index_t{1} << 20) + 11;
  paged_array<std::int32_t> a(n, space_store(cuda_space(0), 2), {.page = 4096, .cached = 2});
  const std::vector<std::int32_t> oracle = pattern(n, 65537);
  a.write(0, oracle);
  EXPECT_EQ(a.find(12345), std_find_all(oracle, 12345));
  EXPECT_EQ(a.find(-1), std::vector<index_t>{});
}

struct particle {
  std::int32_t id;
  float x;
  double y;
};

TEST(paged_cuda, find_by_member_on_a_device_store) {
  if (!gpu_visible()) GTEST_SKIP() << "no GPU is visible";
  constexpr index_t n = 30 * 20;
  paged_array<particle> a(n, space_store(cuda_space(0), 3), {.page = 20, .cached = 1});
  for (index_t i = 0; i < n; ++i)
    a.set(i, particle{static_cast<std::int32_t>(i % 13), static_cast<float>(i), 0.5});
  std::vector<index_t> expected;
  for (index_t i = 7; i < n; i += 13) expected.push_back(i);
  EXPECT_EQ(a.find(&particle::id, 7), expected);
  EXPECT_EQ(a.find(&particle::x, 123.0f), std::vector<index_t>{123});
  EXPECT_EQ(a.find(&particle::y, 0.25).size(), 0u);
}

}  // namespace
}  // namespace funcmesh
