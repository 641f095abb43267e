// Index checks in views: this translation unit is compiled with FUNCMESH_DEBUG_CHECKS,
// as every debug build of funcmesh and of its consumers is.
#include <gtest/gtest.h>

#include <funcmesh/memory/memory.hpp>

#ifndef FUNCMESH_DEBUG_CHECKS
#error "index_check_test must be compiled with FUNCMESH_DEBUG_CHECKS"
#endif

namespace funcmesh::testing {

TEST(index_checks, views_refuse_indices_outside_their_range) {
  array<int> a{1, 2, 3};
  auto r = a.read();
  EXPECT_EQ(r[2], 3);
  EXPECT_THROW(r[3], index_error);
  EXPECT_THROW(r[-1], index_error);
  try {
    r[7];
    FAIL();
  } catch (const index_error& e) {
    EXPECT_STREQ(e.what(), "index 7 outside [0, 3)");
  }
}

TEST(index_checks, strided_and_soa_views_are_checked_too) {
  array<int> a{1, 2, 3, 4};
  strided_array<int> odd(a.storage(), 2, stride_layout{.stride = 2, .offset = 1});
  token t;
  auto s = odd.read_view(host_space, t);
  EXPECT_EQ(s[1], 4);
  EXPECT_THROW(s[2], index_error);
  soa_array<double, 2> q(3);
  auto w = q.overwrite_view(host_space, t);
  EXPECT_THROW(w(3, 0), index_error);
  EXPECT_THROW(w.set(-1, vec<double, 2>{}), index_error);
}

}  // namespace funcmesh::testing
