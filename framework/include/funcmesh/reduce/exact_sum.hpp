// exact_sum: a reproducible floating-point sum. It keeps the exact sum of its inputs as a
// fixed-point integer, so the rounded result is bitwise identical whatever the summation
// order, thread count, merge tree or executor (OpenMP, CUDA blocks, MPI_Op on its words).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <funcmesh/core/device_macros.hpp>

namespace funcmesh {

// The exact sum is an integer multiple of 2^-1074 (the smallest subnormal), held in
// limb_count signed 64-bit limbs; limb j has weight 2^(32 j - 1074). Limbs 0..65 cover
// the 2098 bits any finite double needs (bits 2098..2111 of limb 65 are spare); limb 66
// only receives carries, giving headroom for about 2^77 additions of the largest double.
//
// Normalized state (canonical for a given exact value): limbs 0..65 in [0, 2^32), the top
// limb signed, pending_adds() == 0. Every add or merge may leave limbs outside that range;
// each add moves a limb by less than 2^32, so with at most normalize_threshold (2^30)
// pending contributions no limb, nor the carry normalize() brings it, can leave int64.
// add() and merge() normalize on their own when the threshold is reached; value(),
// to_words() and operator== work on a normalized copy.
//
// Special values: value() is NaN if a NaN was added or both +Inf and -Inf were, else +Inf
// or -Inf if only that infinity was added (the finite part is then ignored). A finite exact
// sum beyond the double range rounds to +-Inf as IEEE addition would. An exact zero is
// +0.0, even for a sum of -0.0 values only.
//
// CUDA (exec/cuda/accumulate.cuh): each thread accumulates into its own exact_sum (local
// memory, 552 bytes); each block merges its threads' sums with merge() in a tree in shared
// memory, and a second one-block kernel merges the block partials, so only one exact_sum
// is copied back. merge() alone keeps the limb bound, whatever the tree. The default
// constructor is constexpr but not trivial, so the __shared__ slots are raw storage into
// which the (trivially copyable) sums are copied.
class exact_sum {
 public:
  static constexpr int limb_bits = 32;
  static constexpr int limb_count = 67;
  // Serialized form: limb_count limbs, then pending_adds, then the special-value flags.
  static constexpr int word_count = limb_count + 2;
  static constexpr std::int64_t normalize_threshold = std::int64_t{1} << 30;

  // Flag bits of the special-value word (merged by OR).
  static constexpr std::uint64_t saw_nan = 1;
  static constexpr std::uint64_t saw_pos_inf = 2;
  static constexpr std::uint64_t saw_neg_inf = 4;

  constexpr exact_sum() = default;

  FUNCMESH_DEVICE void add(double x) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const std::uint64_t biased = (bits >> 52) & 0x7ff;
    std::uint64_t m = bits & ((std::uint64_t{1} << 52) - 1);
    if (biased == 0x7ff) {
      flags_ |= m != 0 ? saw_nan : ((bits >> 63) != 0 ? saw_neg_inf : saw_pos_inf);
      return;
    }
    // x = m * 2^shift in units of 2^-1074; subnormals share the shift of the smallest normal.
    std::uint64_t shift = biased;
    if (biased != 0) {
      m |= std::uint64_t{1} << 52;
      shift = biased - 1;
    }
    const std::uint64_t j = shift >> 5;
    const std::uint64_t r = shift & 31;
    const std::uint64_t low = m << r;
    const std::uint64_t high = (m >> 1) >> (63 - r);  // the bits m << r pushes past 64
    // Conditional negation without a branch: (p ^ mask) - mask is p or -p.
    const std::int64_t mask = -static_cast<std::int64_t>(bits >> 63);
    limbs_[j] += (static_cast<std::int64_t>(low & 0xffffffff) ^ mask) - mask;
    limbs_[j + 1] += (static_cast<std::int64_t>(low >> 32) ^ mask) - mask;
    limbs_[j + 2] += (static_cast<std::int64_t>(high) ^ mask) - mask;
    if (++count_ >= normalize_threshold) normalize();
  }

  // Every float is exactly a double.
  FUNCMESH_DEVICE void add(float x) { add(static_cast<double>(x)); }

  // A merged accumulator counts as one more pending contribution on top of its own, which
  // keeps the limb bound: limbs stay within (-count 2^32, (count + 1) 2^32), count never
  // passes the threshold, so limbs plus the carries normalize() adds stay far from 2^63.
  FUNCMESH_DEVICE void merge(const exact_sum& other) {
    if (count_ + other.count_ >= normalize_threshold) normalize();
    for (int j = 0; j < limb_count; ++j) limbs_[j] += other.limbs_[j];
    flags_ |= other.flags_;
    count_ += other.count_ + 1;
    if (count_ >= normalize_threshold) normalize();
  }

  // Propagates carries upwards; the arithmetic shift floors, so negative limbs borrow.
  FUNCMESH_DEVICE void normalize() {
    for (int j = 0; j + 1 < limb_count; ++j) {
      const std::int64_t carry = limbs_[j] >> limb_bits;
      limbs_[j] &= 0xffffffff;
      limbs_[j + 1] += carry;
    }
    count_ = 0;
  }

  // The exact sum rounded to nearest, ties to even (see the class comment for specials).
  FUNCMESH_DEVICE double value() const {
    if (flags_ != 0) return special_value();
    exact_sum a = *this;
    a.normalize();
    const bool negative = a.limbs_[limb_count - 1] < 0;
    if (negative) {
      // Negating every limb and normalizing again gives the magnitude's limbs.
      for (int j = 0; j < limb_count; ++j) a.limbs_[j] = -a.limbs_[j];
      a.normalize();
    }
    return a.magnitude_to_double(negative);
  }

  // Contributions (adds or merges) since the last normalization.
  FUNCMESH_DEVICE std::int64_t pending_adds() const { return count_; }
  FUNCMESH_DEVICE std::uint64_t flags() const { return flags_; }

  // Raw limbs (limb j has weight 2^(32 j - 1074)), for checks of the normalized form.
  FUNCMESH_DEVICE std::int64_t* limbs() { return limbs_; }
  FUNCMESH_DEVICE const std::int64_t* limbs() const { return limbs_; }

  // Writes word_count words of the normalized state: identical words for equal sums.
  FUNCMESH_DEVICE void to_words(std::int64_t* out) const {
    exact_sum a = *this;
    a.normalize();
    for (int j = 0; j < limb_count; ++j) out[j] = a.limbs_[j];
    out[limb_count] = a.count_;
    out[limb_count + 1] = static_cast<std::int64_t>(a.flags_);
  }

  // Restores a state written by to_words (or raw words respecting the limb bound); a
  // pending count outside [0, normalize_threshold) is normalized away.
  FUNCMESH_DEVICE static exact_sum from_words(const std::int64_t* in) {
    exact_sum a;
    for (int j = 0; j < limb_count; ++j) a.limbs_[j] = in[j];
    a.count_ = in[limb_count];
    a.flags_ = static_cast<std::uint64_t>(in[limb_count + 1]);
    if (a.count_ < 0 || a.count_ >= normalize_threshold) a.normalize();
    return a;
  }

  // inout = in + inout on serialized words: the body of an MPI user-defined reduction.
  FUNCMESH_DEVICE static void merge_words(const std::int64_t* in, std::int64_t* inout) {
    exact_sum a = from_words(inout);
    a.merge(from_words(in));
    a.to_words(inout);
  }

  // Same exact value and same special-value flags.
  FUNCMESH_DEVICE friend bool operator==(const exact_sum& a, const exact_sum& b) {
    exact_sum x = a;
    exact_sum y = b;
    x.normalize();
    y.normalize();
    if (x.flags_ != y.flags_) return false;
    for (int j = 0; j < limb_count; ++j) {
      if (x.limbs_[j] != y.limbs_[j]) return false;
    }
    return true;
  }

 private:
  FUNCMESH_DEVICE double special_value() const {
    const std::uint64_t inf_bits = std::uint64_t{0x7ff} << 52;
    std::uint64_t bits = inf_bits | (std::uint64_t{1} << 51);  // quiet NaN
    const bool pos = (flags_ & saw_pos_inf) != 0;
    const bool neg = (flags_ & saw_neg_inf) != 0;
    if ((flags_ & saw_nan) == 0 && pos != neg) bits = inf_bits | (neg ? sign_bit : 0);
    return from_bits(bits);
  }

  // Rounds the non-negative normalized limbs to a double and applies the sign.
  FUNCMESH_DEVICE double magnitude_to_double(bool negative) const {
    const std::uint64_t sign = negative ? sign_bit : 0;
    int top = limb_count - 1;
    while (top >= 0 && limbs_[top] == 0) --top;
    if (top < 0) return 0.0;
    // Limb 66 starts at 2^(2112 - 1074), far past the largest double.
    if (top == limb_count - 1) return from_bits(sign | (std::uint64_t{0x7ff} << 52));
    const auto limb = [this](int j) {
      return j >= 0 ? static_cast<std::uint64_t>(limbs_[j]) : std::uint64_t{0};
    };
    const int width = bit_width(limb(top));  // 1..32
    // The 64 bits below and including the leading one, left-aligned, and whether any
    // lower bit is set.
    const std::uint64_t window =
        (limb(top) << (64 - width)) | (limb(top - 1) << (32 - width)) | (limb(top - 2) >> width);
    bool sticky = (limb(top - 2) & ((std::uint64_t{1} << width) - 1)) != 0;
    for (int j = top - 3; j >= 0 && !sticky; --j) sticky = limbs_[j] != 0;
    // The leading one has weight 2^(lead - 1074).
    const int lead = limb_bits * top + width - 1;
    if (lead < 52) return from_bits(sign | (window >> (63 - lead)));  // subnormal: exact
    std::uint64_t mantissa = window >> 11;                            // 53 bits
    const std::uint64_t rest = window & 0x7ff;
    if (rest > 0x400 || (rest == 0x400 && (sticky || (mantissa & 1) != 0))) ++mantissa;
    // Biased exponent lead - 51; adding the mantissa (with its leading one) rather than
    // OR-ing it lets a rounding carry to 2^53 bump the exponent, up to Inf.
    if (lead - 51 >= 0x7ff) return from_bits(sign | (std::uint64_t{0x7ff} << 52));
    const std::uint64_t bits = (static_cast<std::uint64_t>(lead - 52) << 52) + mantissa;
    return from_bits(sign | bits);
  }

  FUNCMESH_DEVICE static int bit_width(std::uint64_t v) {
    int n = 0;
    while (v != 0) {
      v >>= 1;
      ++n;
    }
    return n;
  }

  FUNCMESH_DEVICE static double from_bits(std::uint64_t bits) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }

  static constexpr std::uint64_t sign_bit = std::uint64_t{1} << 63;

  std::int64_t limbs_[limb_count] = {};
  std::int64_t count_ = 0;
  std::uint64_t flags_ = 0;
};

// The correctly rounded sum of values[0..n).
FUNCMESH_DEVICE inline double exact_sum_of(const double* values, std::size_t n) {
  exact_sum s;
  for (std::size_t i = 0; i < n; ++i) s.add(values[i]);
  return s.value();
}

}  // namespace funcmesh
