// Typed arrays, views, strided and SoA layouts on the host.
#include <gtest/gtest.h>

#include <type_traits>

#include <funcmesh/memory/memory.hpp>

namespace funcmesh::testing {

static_assert(std::is_trivially_copyable_v<view<const int>>);
static_assert(std::is_trivially_copyable_v<strided_view<double>>);
static_assert(std::is_trivially_copyable_v<soa_view<float, 3>>);
static_assert(std::is_trivially_copyable_v<vec<double, 4>>);
static_assert(std::is_convertible_v<view<int>, view<const int>>);
static_assert(!std::is_convertible_v<view<const int>, view<int>>);

TEST(array, construction_size_and_values) {
  array<int> a(5, 7);
  EXPECT_EQ(a.size(), 5);
  EXPECT_EQ(a.to_vector(), (std::vector<int>{7, 7, 7, 7, 7}));
  array<double> b{1.0, 2.0, 3.0};
  EXPECT_EQ(b.size(), 3);
  EXPECT_EQ(b.read()[2], 3.0);
  array<int> empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.to_vector(), std::vector<int>{});
}

TEST(array, copies_share_and_clone_does_not) {
  array<int> a{1, 2, 3};
  array<int> shared = a;
  array<int> cloned = a.clone();
  a.write()[0] = 100;
  EXPECT_EQ(shared.read()[0], 100);
  EXPECT_EQ(cloned.read()[0], 1);
}

TEST(array, resize_with_and_without_preserve) {
  array<int> a{1, 2, 3, 4};
  a.resize(6, preserve::yes);
  auto grown = a.to_vector();
  ASSERT_EQ(grown.size(), 6u);
  EXPECT_EQ(std::vector<int>(grown.begin(), grown.begin() + 4), (std::vector<int>{1, 2, 3, 4}));
  a.resize(2, preserve::yes);
  EXPECT_EQ(a.to_vector(), (std::vector<int>{1, 2}));
  a.resize(3);
  EXPECT_EQ(a.size(), 3);
  EXPECT_FALSE(a.storage().is_allocated(host_space));
}

TEST(array, views_read_and_write_through_a_token) {
  array<double> a(4, 0.0);
  {
    token t;
    view<double> w = a.write_view(host_space, t);
    for (index_t i = 0; i < w.size(); ++i) w[i] = 0.5 * static_cast<double>(i);
    view<const double> r = w;
    EXPECT_EQ(r[3], 1.5);
  }
  token t;
  view<const double> r = a.read_view(host_space, t);
  EXPECT_EQ(r.size(), 4);
  EXPECT_EQ(r[2], 1.0);
}

TEST(array, adopts_user_memory) {
  int calls = 0;
  {
    auto* raw = new long[3]{4, 5, 6};
    auto a = array<long>::adopt(raw, 3, host_space, [&calls](void* p) {
      ++calls;
      delete[] static_cast<long*>(p);
    });
    EXPECT_EQ(a.to_vector(), (std::vector<long>{4, 5, 6}));
  }
  EXPECT_EQ(calls, 1);
}

TEST(array, bad_sizes_are_refused) {
  EXPECT_THROW(array<int>(-1), error);
  EXPECT_THROW(array<double>(index_t{1} << 62), error);  // 2^65 bytes overflows
  EXPECT_THROW(array<double>(buffer(12)), error);        // not a whole number of doubles
}

TEST(strided, layout_formula) {
  const stride_layout layout{.stride = 3, .offset = 1, .divisor = 2, .modulo = 4};
  for (index_t i = 0; i < 20; ++i) EXPECT_EQ(layout.location(i), ((i / 2) % 4) * 3 + 1);
  const stride_layout plain{};
  EXPECT_EQ(plain.location(17), 17);
}

TEST(strided, a_component_of_an_array_of_structures) {
  array<vec<double, 3>> points(4);
  {
    auto w = points.write();
    for (int i = 0; i < 4; ++i) w[i] = vec<double, 3>{{1.0 * i, 10.0 * i, 100.0 * i}};
  }
  strided_array<double> y = component(points, 1);
  EXPECT_EQ(y.size(), 4);
  {
    token t;
    strided_view<const double> r = y.read_view(host_space, t);
    for (index_t i = 0; i < 4; ++i) EXPECT_EQ(r[i], 10.0 * static_cast<double>(i));
  }
  {
    token t;
    strided_view<double> w = component(points, 2).write_view(host_space, t);
    w[3] = -1;
  }
  EXPECT_EQ(points.read()[3][2], -1.0);  // the strided write landed in the AoS array
}

TEST(strided, repeat_and_wrap_over_a_small_array) {
  array<int> pattern{10, 20, 30};
  // Each value twice, the whole pattern repeating: 10 10 20 20 30 30 10 10 ...
  strided_array<int> repeated(pattern.storage(), 10, stride_layout{.divisor = 2, .modulo = 3});
  token t;
  auto r = repeated.read_view(host_space, t);
  const std::vector<int> expected{10, 10, 20, 20, 30, 30, 10, 10, 20, 20};
  for (index_t i = 0; i < 10; ++i) EXPECT_EQ(r[i], expected[static_cast<std::size_t>(i)]);
}

TEST(strided, a_layout_past_the_end_is_refused) {
  array<int> small{1, 2, 3};
  strided_array<int> too_far(small.storage(), 3, stride_layout{.stride = 2});
  token t;
  EXPECT_THROW(too_far.read_view(host_space, t), error);
  strided_array<int> negative(small.storage(), 1, stride_layout{.divisor = 0});
  EXPECT_THROW(negative.read_view(host_space, t), error);
}

TEST(soa, values_and_components) {
  soa_array<double, 4> q(3);
  EXPECT_EQ(q.size(), 3);
  {
    token t;
    auto w = q.overwrite_view(host_space, t);
    for (index_t i = 0; i < 3; ++i) {
      const double x = static_cast<double>(i);
      w.set(i, vec<double, 4>{{x, x + 0.25, x + 0.5, x + 0.75}});
    }
    w(1, 3) = 9.0;
  }
  token t;
  auto r = q.read_view(host_space, t);
  EXPECT_EQ(r[2], (vec<double, 4>{{2.0, 2.25, 2.5, 2.75}}));
  EXPECT_EQ(r(1, 3), 9.0);
  view<const double> rho_u = r.component(1);
  EXPECT_EQ(rho_u[0], 0.25);
  EXPECT_EQ(t.held_buffers(), 4u);  // one token, four component buffers
  EXPECT_EQ(q.component(2).to_vector(), (std::vector<double>{0.5, 1.5, 2.5}));
}

TEST(soa, resize_preserves_every_component) {
  soa_array<int, 2> a(2);
  {
    token t;
    auto w = a.overwrite_view(host_space, t);
    w.set(0, vec<int, 2>{{1, 2}});
    w.set(1, vec<int, 2>{{3, 4}});
  }
  a.resize(5, preserve::yes);
  token t;
  auto r = a.read_view(host_space, t);
  EXPECT_EQ(r.size(), 5);
  EXPECT_EQ(r[1], (vec<int, 2>{{3, 4}}));
}

}  // namespace funcmesh::testing
