// exact_sum: correct rounding against an independent big-integer reference, order and
// merge-tree independence, the normalization threshold, special values and serialization.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include <funcmesh/reduce/exact_sum.hpp>

namespace funcmesh::testing {
namespace {

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __float128 f128;

static_assert(std::is_trivially_copyable_v<exact_sum>);
static_assert(std::is_standard_layout_v<exact_sum>);
static_assert(sizeof(exact_sum) == exact_sum::word_count * sizeof(std::int64_t));

std::uint64_t bits_of(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

constexpr double dmin = std::numeric_limits<double>::denorm_min();

// The exact sum as a plain two's complement integer in units of 2^-1074, with full carry
// propagation on every add, rounded through __float128 with round-to-odd: rounding to odd
// at 113 bits and then to nearest at 53 or fewer bits is correct rounding.
class reference_sum {
 public:
  void add(double x) {
    if (x == 0) return;
    int e = 0;
    const double f = std::frexp(std::fabs(x), &e);  // |x| = f 2^e, f in [0.5, 1)
    // |x| = m 2^(e - 53) with a 53-bit integer m; in units of 2^-1074 shift by e + 1021.
    auto m = static_cast<std::uint64_t>(std::ldexp(f, 53));
    int shift = e + 1021;
    while (shift < 0) {  // subnormals: the dropped bits are zero
      m >>= 1;
      ++shift;
    }
    add_shifted(m, shift, x < 0);
  }

  void add_shifted(std::uint64_t m, int shift, bool negative) {
    u128 rest = static_cast<u128>(m) << (shift % 32);
    std::int64_t carry = 0;
    for (auto w = static_cast<std::size_t>(shift / 32); w < words_.size(); ++w, rest >>= 32) {
      const auto p = static_cast<std::int64_t>(rest & 0xffffffff);
      const std::int64_t t = std::int64_t{words_[w]} + (negative ? -p : p) + carry;
      carry = t >> 32;
      words_[w] = static_cast<std::uint32_t>(t & 0xffffffff);
    }
  }

  double value() const {
    std::array<std::uint32_t, 80> mag = words_;
    const bool negative = (mag.back() >> 31) != 0;
    if (negative) {
      std::uint64_t carry = 1;
      for (auto& w : mag) {
        const std::uint64_t t = static_cast<std::uint64_t>(~w) + carry;
        w = static_cast<std::uint32_t>(t);
        carry = t >> 32;
      }
    }
    const auto bit = [&](int i) { return (mag[static_cast<std::size_t>(i / 32)] >> (i % 32)) & 1; };
    int top = 80 * 32 - 1;
    while (top >= 0 && bit(top) == 0) --top;
    if (top < 0) return 0.0;
    const int low = std::max(top - 112, 0);
    u128 v = 0;
    for (int i = top; i >= low; --i) v = (v << 1) | bit(i);
    bool sticky = false;
    for (int i = 0; i < low; ++i) sticky = sticky || bit(i) != 0;
    if (sticky) v |= 1;
    f128 q = static_cast<f128>(v) * pow2(low - 1074);
    return negative ? -static_cast<double>(q) : static_cast<double>(q);
  }

 private:
  static f128 pow2(int e) {
    f128 r = 1;
    f128 b = e >= 0 ? 2 : 0.5;
    for (int n = std::abs(e); n != 0; n >>= 1, b *= b) {
      if (n & 1) r *= b;
    }
    return r;
  }

  std::array<std::uint32_t, 80> words_{};
};

exact_sum sum_of(const std::vector<double>& xs) {
  exact_sum s;
  for (double x : xs) s.add(x);
  return s;
}

double reference_of(const std::vector<double>& xs) {
  reference_sum r;
  for (double x : xs) r.add(x);
  return r.value();
}

// Same bits: also tells +0.0 from -0.0 and compares NaNs.
#define EXPECT_SAME_DOUBLE(a, b) EXPECT_EQ(bits_of(a), bits_of(b)) << (a) << " vs " << (b)

// Random doubles around 2^center_exp (spread 2^-spread..2^spread), random signs, and
// exact cancellation of a random half of them so that lower bits decide the result.
std::vector<double> random_values(std::mt19937_64& rng, int n, int center_exp, int spread) {
  std::uniform_int_distribution<int> exp_dist(center_exp - spread, center_exp + spread);
  std::uniform_real_distribution<double> mant(0.5, 1.0);
  std::vector<double> xs;
  for (int i = 0; i < n; ++i) {
    const double x = std::ldexp(mant(rng), exp_dist(rng)) * ((rng() & 1) != 0 ? -1.0 : 1.0);
    xs.push_back(x);
    if ((rng() & 1) != 0) xs.push_back(-x);
  }
  std::shuffle(xs.begin(), xs.end(), rng);
  return xs;
}

TEST(exact_sum, zero_is_positive_zero) {
  EXPECT_SAME_DOUBLE(exact_sum{}.value(), 0.0);
  EXPECT_SAME_DOUBLE(sum_of({-0.0, -0.0}).value(), 0.0);
  EXPECT_SAME_DOUBLE(sum_of({1.5, -1.5}).value(), 0.0);
  EXPECT_SAME_DOUBLE(sum_of({-DBL_MAX, dmin, DBL_MAX, -dmin}).value(), 0.0);
}

TEST(exact_sum, named_cases_round_correctly) {
  const double two53 = 9007199254740992.0;
  const double tiny60 = std::ldexp(1.0, -60);
  const double next1 = std::nextafter(1.0, 2.0);
  EXPECT_SAME_DOUBLE(sum_of({1e308, 1e308, -1e308, -1e308, 1.0}).value(), 1.0);
  EXPECT_SAME_DOUBLE(sum_of({1.0, 1e-30, -1.0}).value(), 1e-30);
  EXPECT_SAME_DOUBLE(sum_of({two53, 1.0, 1.0}).value(), two53 + 2);
  EXPECT_NE(two53 + 1.0 + 1.0, two53 + 2);                  // what naive summation gives instead
  EXPECT_SAME_DOUBLE(sum_of({two53, 1.0}).value(), two53);  // tie, to even
  EXPECT_SAME_DOUBLE(sum_of({two53, 1.0, tiny60}).value(), two53 + 2);
  EXPECT_SAME_DOUBLE(sum_of({two53 + 2, 1.0}).value(), two53 + 4);  // tie, odd goes up
  EXPECT_SAME_DOUBLE(sum_of({two53, 1.0, -tiny60}).value(), two53);
  // The sticky bit reaches across the whole exponent range.
  EXPECT_SAME_DOUBLE(sum_of({1.0, std::ldexp(1.0, -53)}).value(), 1.0);
  EXPECT_SAME_DOUBLE(sum_of({1.0, std::ldexp(1.0, -53), dmin}).value(), next1);
  EXPECT_SAME_DOUBLE(sum_of({-1.0, -std::ldexp(1.0, -53), -dmin}).value(), -next1);
  EXPECT_SAME_DOUBLE(sum_of({DBL_MAX, dmin}).value(), DBL_MAX);
  EXPECT_SAME_DOUBLE(sum_of({DBL_MAX, dmin, -DBL_MAX}).value(), dmin);
  // Below a power of two the spacing halves: 1 - 2^-54 is a tie between 1 - 2^-53 and 1.
  EXPECT_SAME_DOUBLE(sum_of({1.0, -std::ldexp(1.0, -54)}).value(), 1.0);
  EXPECT_SAME_DOUBLE(sum_of({1.0, -std::ldexp(1.0, -54), -dmin}).value(), std::nextafter(1.0, 0.0));
}

TEST(exact_sum, subnormal_results_and_the_normal_boundary) {
  EXPECT_SAME_DOUBLE(sum_of({3 * dmin, -dmin}).value(), 2 * dmin);
  EXPECT_SAME_DOUBLE(sum_of({DBL_MIN, -dmin}).value(), std::nextafter(DBL_MIN, 0.0));
  EXPECT_SAME_DOUBLE(sum_of({DBL_MIN / 2, DBL_MIN / 2}).value(), DBL_MIN);
  EXPECT_SAME_DOUBLE(sum_of({-DBL_MIN, dmin, dmin}).value(), -DBL_MIN + 2 * dmin);
  EXPECT_SAME_DOUBLE(sum_of({1.0, -1.0, -5 * dmin}).value(), -5 * dmin);
}

TEST(exact_sum, finite_overflow_rounds_to_infinity_like_ieee) {
  const double inf = std::numeric_limits<double>::infinity();
  const double half_ulp_max = std::ldexp(1.0, 970);
  EXPECT_SAME_DOUBLE(sum_of({DBL_MAX, DBL_MAX}).value(), inf);
  EXPECT_SAME_DOUBLE(sum_of({-DBL_MAX, -DBL_MAX}).value(), -inf);
  EXPECT_SAME_DOUBLE(sum_of({DBL_MAX, DBL_MAX, -DBL_MAX}).value(), DBL_MAX);
  EXPECT_SAME_DOUBLE(sum_of({DBL_MAX, half_ulp_max}).value(), inf);  // tie, odd goes up
  EXPECT_SAME_DOUBLE(sum_of({DBL_MAX, half_ulp_max, -dmin}).value(), DBL_MAX);
}

TEST(exact_sum, ties_to_even_at_random_magnitudes) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> exp_dist(-1000, 1000);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  for (int i = 0; i < 2000; ++i) {
    const double a = std::ldexp(mant(rng), exp_dist(rng));
    const double up = std::nextafter(a, DBL_MAX);
    const double half_ulp = (up - a) / 2;
    const bool even = (bits_of(a) & 1) == 0;
    EXPECT_SAME_DOUBLE(sum_of({a, half_ulp}).value(), even ? a : up);
    EXPECT_SAME_DOUBLE(sum_of({-a, -half_ulp}).value(), even ? -a : -up);
    // A sticky bit just inside, just below and far below a 64-bit window on the leading one.
    for (double scale : {0x1p-10, 0x1p-11, 0x1p-12, 0x1p-40}) {
      const double tiny = std::max(half_ulp * scale, dmin);
      EXPECT_SAME_DOUBLE(sum_of({a, half_ulp, tiny}).value(), up);
      EXPECT_SAME_DOUBLE(sum_of({a, half_ulp, -tiny}).value(), a);
      EXPECT_SAME_DOUBLE(sum_of({tiny, a, dmin, half_ulp, -dmin}).value(), up);
    }
  }
}

TEST(exact_sum, matches_float128_summation_when_that_is_exact) {
  // k 2^e with k < 2^20 and |e| <= 30: 100 of them fit 113 bits exactly.
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> xs;
    f128 q = 0;
    for (int i = 0; i < 100; ++i) {
      const auto k = static_cast<double>(static_cast<std::int64_t>(rng() % (1u << 20)) - (1 << 19));
      const double x = std::ldexp(k, static_cast<int>(rng() % 61) - 30);
      xs.push_back(x);
      q += x;
    }
    EXPECT_SAME_DOUBLE(sum_of(xs).value(), static_cast<double>(q));
    EXPECT_SAME_DOUBLE(reference_of(xs), static_cast<double>(q));
  }
}

TEST(exact_sum, matches_reference_across_the_exponent_range) {
  std::mt19937_64 rng(3);
  for (int center : {-1074, -1040, -1000, -300, -60, 0, 1, 52, 60, 300, 1000, 1023}) {
    for (int spread : {0, 3, 60, 200}) {
      for (int trial = 0; trial < 6; ++trial) {
        const auto xs = random_values(rng, 60, std::min(center, 1023 - spread), spread);
        EXPECT_SAME_DOUBLE(sum_of(xs).value(), reference_of(xs)) << center << " " << spread;
      }
    }
  }
  // Fully random finite bit patterns.
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> xs;
    for (int i = 0; i < 30; ++i) {
      double x;
      do {
        const std::uint64_t b = rng();
        std::memcpy(&x, &b, sizeof x);
      } while (!std::isfinite(x));
      xs.push_back(x);
    }
    EXPECT_SAME_DOUBLE(sum_of(xs).value(), reference_of(xs));
  }
}

std::array<std::int64_t, exact_sum::word_count> words_of(const exact_sum& s) {
  std::array<std::int64_t, exact_sum::word_count> w{};
  s.to_words(w.data());
  return w;
}

TEST(exact_sum, permutations_give_identical_bits_and_words) {
  std::mt19937_64 rng(5);
  auto xs = random_values(rng, 1000, 0, 400);
  const auto more = random_values(rng, 1000, -1000, 60);
  xs.insert(xs.end(), more.begin(), more.end());
  const exact_sum first = sum_of(xs);
  const double expected = reference_of(xs);
  EXPECT_SAME_DOUBLE(first.value(), expected);
  for (int p = 0; p < 40; ++p) {
    std::shuffle(xs.begin(), xs.end(), rng);
    const exact_sum s = sum_of(xs);
    EXPECT_SAME_DOUBLE(s.value(), expected);
    EXPECT_EQ(words_of(s), words_of(first));
    EXPECT_TRUE(s == first);
  }
}

TEST(exact_sum, random_chunkings_and_merge_trees_give_identical_state) {
  std::mt19937_64 rng(9);
  auto xs = random_values(rng, 1500, 100, 300);
  const auto words = words_of(sum_of(xs));
  const double expected = reference_of(xs);
  for (int trial = 0; trial < 40; ++trial) {
    std::shuffle(xs.begin(), xs.end(), rng);
    std::vector<exact_sum> pool(1 + rng() % 64);
    for (double x : xs) pool[rng() % pool.size()].add(x);
    while (pool.size() > 1) {  // a random binary tree, each merge in a random direction
      std::swap(pool[rng() % pool.size()], pool.back());
      exact_sum b = pool.back();
      pool.pop_back();
      exact_sum& a = pool[rng() % pool.size()];
      if ((rng() & 1) != 0) std::swap(a, b);
      a.merge(b);
    }
    EXPECT_EQ(words_of(pool[0]), words) << trial;
    EXPECT_SAME_DOUBLE(pool[0].value(), expected);
  }
}

// A state at the edge of the limb bound: pending count threshold - 1 and limbs 0..3 at
// sign * (threshold 2^32 - 1), the largest magnitude the invariant allows.
exact_sum edge_state(bool negative) {
  std::array<std::int64_t, exact_sum::word_count> w{};
  const std::int64_t big = exact_sum::normalize_threshold * (std::int64_t{1} << 32) - 1;
  for (int j = 0; j < 4; ++j) w[static_cast<std::size_t>(j)] = negative ? -big : big;
  w[exact_sum::limb_count] = exact_sum::normalize_threshold - 1;
  return exact_sum::from_words(w.data());
}

void add_edge_state(reference_sum& r, bool negative) {
  const std::uint64_t big = (std::uint64_t{1} << 62) - 1;
  for (int j = 0; j < 4; ++j) r.add_shifted(big, 32 * j, negative);
}

bool limbs_normalized(const exact_sum& s) {
  for (int j = 0; j + 1 < exact_sum::limb_count; ++j) {
    if (s.limbs()[j] < 0 || s.limbs()[j] >= (std::int64_t{1} << 32)) return false;
  }
  return s.pending_adds() == 0;
}

TEST(exact_sum, add_normalizes_at_the_threshold) {
  static_assert(exact_sum::normalize_threshold == std::int64_t{1} << 30);
  exact_sum s = edge_state(false);
  EXPECT_EQ(s.pending_adds(), exact_sum::normalize_threshold - 1);
  // The largest pieces: ones in bits 31..83 of the fixed-point integer.
  const double x = std::ldexp(static_cast<double>((std::uint64_t{1} << 53) - 1), 31 - 1074);
  s.add(x);
  EXPECT_TRUE(limbs_normalized(s));
  reference_sum r;
  add_edge_state(r, false);
  r.add(x);
  EXPECT_SAME_DOUBLE(s.value(), r.value());
  for (int i = 0; i < 1000; ++i) s.add(-x);
  EXPECT_EQ(s.pending_adds(), 1000);
  for (int i = 0; i < 1000; ++i) r.add(-x);
  EXPECT_SAME_DOUBLE(s.value(), r.value());
}

TEST(exact_sum, merge_normalizes_before_limbs_can_overflow) {
  reference_sum r;
  exact_sum s = edge_state(false);
  add_edge_state(r, false);
  // Adding the limbs first and normalizing after would overflow: 2^63 - 2 plus a carry.
  s.merge(edge_state(false));
  add_edge_state(r, false);
  EXPECT_TRUE(limbs_normalized(s));
  EXPECT_SAME_DOUBLE(s.value(), r.value());
  s.merge(edge_state(false));
  add_edge_state(r, false);
  EXPECT_SAME_DOUBLE(s.value(), r.value());
  exact_sum n = edge_state(true);
  n.merge(edge_state(true));
  n.merge(edge_state(true));
  n.merge(edge_state(true));
  s.merge(n);
  for (int i = 0; i < 4; ++i) add_edge_state(r, true);
  EXPECT_SAME_DOUBLE(s.value(), r.value());
  EXPECT_LT(s.value(), 0.0);
}

TEST(exact_sum, the_carry_limb_holds_far_beyond_the_double_range) {
  exact_sum pos;
  exact_sum neg;
  for (int i = 0; i < 1024; ++i) pos.add(DBL_MAX);
  for (int i = 0; i < 1024; ++i) neg.add(-DBL_MAX);
  for (int k = 0; k < 56; ++k) {  // 2^66 copies of DBL_MAX each
    pos.merge(exact_sum(pos));
    neg.merge(exact_sum(neg));
  }
  EXPECT_SAME_DOUBLE(pos.value(), std::numeric_limits<double>::infinity());
  EXPECT_SAME_DOUBLE(neg.value(), -std::numeric_limits<double>::infinity());
  pos.merge(neg);
  pos.add(1.0);
  EXPECT_SAME_DOUBLE(pos.value(), 1.0);
  pos.add(-DBL_MAX);
  pos.merge(neg);
  EXPECT_SAME_DOUBLE(pos.value(), -std::numeric_limits<double>::infinity());
}

TEST(exact_sum, special_values) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(sum_of({1.0, nan, 2.0}).value()));
  EXPECT_SAME_DOUBLE(sum_of({1.0, inf, -DBL_MAX}).value(), inf);
  EXPECT_SAME_DOUBLE(sum_of({1.0, -inf, DBL_MAX, DBL_MAX}).value(), -inf);
  EXPECT_SAME_DOUBLE(sum_of({inf, inf}).value(), inf);
  EXPECT_TRUE(std::isnan(sum_of({inf, 1.0, -inf}).value()));
  EXPECT_TRUE(std::isnan(sum_of({inf, -nan}).value()));
  exact_sum a = sum_of({1.0, inf});
  exact_sum b = sum_of({2.0, -inf});
  EXPECT_SAME_DOUBLE(a.value(), inf);
  a.merge(b);
  EXPECT_TRUE(std::isnan(a.value()));
  EXPECT_EQ(a.flags(), exact_sum::saw_pos_inf | exact_sum::saw_neg_inf);
  EXPECT_FALSE(sum_of({1.0, inf}) == sum_of({1.0}));
  const exact_sum back = exact_sum::from_words(words_of(sum_of({3.0, -inf})).data());
  EXPECT_SAME_DOUBLE(back.value(), -inf);
}

TEST(exact_sum, words_round_trip_and_merge) {
  std::mt19937_64 rng(13);
  const auto xs = random_values(rng, 300, -20, 500);
  const auto ys = random_values(rng, 300, 700, 100);
  exact_sum a = sum_of(xs);
  const exact_sum b = sum_of(ys);
  const auto wa = words_of(a);
  EXPECT_EQ(wa[exact_sum::limb_count], 0);  // pending count of a normalized state
  const exact_sum back = exact_sum::from_words(wa.data());
  EXPECT_TRUE(back == a);
  EXPECT_EQ(words_of(back), wa);
  EXPECT_SAME_DOUBLE(back.value(), a.value());

  auto inout = words_of(b);
  exact_sum::merge_words(wa.data(), inout.data());
  a.merge(b);
  EXPECT_EQ(inout, words_of(a));
  auto all = xs;
  all.insert(all.end(), ys.begin(), ys.end());
  EXPECT_SAME_DOUBLE(exact_sum::from_words(inout.data()).value(), reference_of(all));
  EXPECT_FALSE(a == b);
}

TEST(exact_sum, floats_and_the_array_helper) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<float> dist(-1e30f, 1e30f);
  std::vector<double> as_double;
  exact_sum s;
  for (int i = 0; i < 500; ++i) {
    const float f = dist(rng) * std::ldexp(1.0f, -static_cast<int>(rng() % 200));
    s.add(f);
    as_double.push_back(static_cast<double>(f));
  }
  EXPECT_TRUE(s == sum_of(as_double));
  EXPECT_SAME_DOUBLE(exact_sum_of(as_double.data(), as_double.size()), reference_of(as_double));
  EXPECT_SAME_DOUBLE(exact_sum_of(nullptr, 0), 0.0);
}

}  // namespace
}  // namespace funcmesh::testing
