// The bandwidth probe: real timings on the host and the simulated devices, and channel
// proposals monotone in bandwidth.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "paged_test_support.hpp"

namespace funcmesh::testing {

TEST(paged_bandwidth, proposals_are_monotone_in_bandwidth) {
  EXPECT_EQ(propose_channel_ratios({1e9, 2e9, 4e9}, 2), (std::vector<int>{2, 4, 8}));
  EXPECT_EQ(propose_channel_ratios({3e9, 1e9}, 1), (std::vector<int>{3, 1}));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(propose_channel_ratios({0, 1e9, -1, nan}, 2), (std::vector<int>{0, 2, 0, 0}));
  std::mt19937 random(11);
  std::uniform_real_distribution<double> speed(1e8, 3e10);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<double> bandwidths(5);
    for (double& b : bandwidths) b = speed(random);
    const auto channels = propose_channel_ratios(bandwidths, 3);
    for (std::size_t i = 0; i < bandwidths.size(); ++i)
      for (std::size_t j = 0; j < bandwidths.size(); ++j)
        if (bandwidths[i] < bandwidths[j]) {
          EXPECT_LE(channels[i], channels[j]);
        }
    EXPECT_EQ(*std::min_element(channels.begin(), channels.end()), 3);
  }
  expect_error<paged_error>([] { propose_channel_ratios({1}, 0); }, {"at least 1 channel"});
}

TEST(paged_bandwidth, the_probe_times_every_space) {
  const std::vector<memory_space> spaces{host_space, simulated_space(0), simulated_space(1)};
  const auto measured = probe_bandwidth(spaces, {.bytes = 1 << 20, .repeats = 2});
  ASSERT_EQ(measured.size(), 3u);
  for (const auto& m : measured) {
    EXPECT_GT(m.to_space, 0) << to_string(m.space);
    EXPECT_GT(m.to_host, 0);
    EXPECT_TRUE(std::isfinite(m.combined));
  }
  const auto proposal = propose_channels(measured, 2);
  ASSERT_EQ(proposal.size(), 3u);
  for (const auto& p : proposal) EXPECT_GE(p.channels, 2);
  paged_array<int> a(64 * 1024, space_store(proposal), {.page = 64, .cached = 1});
  a[5] = 5;
  EXPECT_EQ(a[5], 5);
  EXPECT_THROW(probe_bandwidth(spaces, {.bytes = 0}), paged_error);
}

}  // namespace funcmesh::testing
