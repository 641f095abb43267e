// The tags of halo messages (detail::halo_tags): every field comes back from its tag, every
// tag fits the communicator's MPI_TAG_UB, and two messages that differ in size (below the
// modulus), group, group count or parity never share a tag, so no receive of one size can
// match a message of another.
#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <set>

#include <funcmesh/comm/detail/halo_tags.hpp>
#include <funcmesh/core/error.hpp>

namespace {

using funcmesh::detail::halo_tags;

TEST(halo_tags, every_field_comes_back_and_every_tag_fits) {
  for (const int tag_ub : {32767, 524287, INT_MAX}) {
    for (const int max_groups : {2, 64}) {
      const halo_tags tags(tag_ub, max_groups);
      EXPECT_GE(tags.size_modulus(), std::size_t{2}) << tag_ub << " " << max_groups;
      std::set<int> seen;
      const std::size_t m = tags.size_modulus();
      for (const std::size_t bytes : std::set<std::size_t>{0, 1, m / 2, m - 1}) {
        for (int groups = 1; groups <= max_groups; groups += (max_groups > 2 ? 21 : 1)) {
          for (int group = 0; group < groups; group += (groups > 2 ? 10 : 1)) {
            for (const unsigned parity : {0u, 1u}) {
              const int tag = tags.encode(parity, groups, group, bytes);
              ASSERT_GE(tag, 0);
              ASSERT_LE(tag, tag_ub);
              EXPECT_TRUE(seen.insert(tag).second) << "tag " << tag << " twice";
              const auto back = tags.decode(tag);
              ASSERT_TRUE(back.has_value()) << tag;
              EXPECT_EQ(*back, (halo_tags::fields{parity, groups, group, bytes}));
            }
          }
        }
      }
    }
  }
}

TEST(halo_tags, sizes_differing_by_the_modulus_share_a_tag_and_no_others_do) {
  const halo_tags tags(INT_MAX, 2);
  EXPECT_EQ(tags.size_modulus(), std::size_t{1} << 28);  // 2^31 tags / (2 parities * 2 * 2)
  const std::size_t m = tags.size_modulus();
  EXPECT_EQ(tags.encode(0, 1, 0, 100), tags.encode(0, 1, 0, 100 + m));
  EXPECT_NE(tags.encode(0, 1, 0, 100), tags.encode(0, 1, 0, 101));
  EXPECT_NE(tags.encode(0, 1, 0, 100), tags.encode(0, 2, 0, 100)) << "the group count";
  EXPECT_NE(tags.encode(0, 2, 0, 100), tags.encode(0, 2, 1, 100)) << "the group";
  EXPECT_NE(tags.encode(0, 1, 0, 100), tags.encode(1, 1, 0, 100)) << "the parity";
}

TEST(halo_tags, refuses_what_it_cannot_encode) {
  const halo_tags tags(32767, 2);
  EXPECT_THROW((void)tags.encode(0, 3, 0, 8), funcmesh::error);
  EXPECT_THROW((void)tags.encode(0, 2, 2, 8), funcmesh::error);
  EXPECT_THROW((void)tags.encode(0, 0, 0, 8), funcmesh::error);
  EXPECT_FALSE(tags.decode(-1).has_value());
  EXPECT_FALSE(tags.decode(32767 + 1).has_value());
  EXPECT_FALSE(tags.decode(2).has_value()) << "message 1 of 1";
  EXPECT_THROW(halo_tags(100, 64), funcmesh::error) << "fewer tags than groups need";
}

}  // namespace
