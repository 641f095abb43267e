// fast_divider: n / d for a divisor fixed at run time (elements per page, channels) by a
// multiply and a shift instead of a hardware division, which costs as much as the rest of
// a cache hit. Granlund and Montgomery's round-up method, exact for every 0 <= n < 2^63.
#pragma once

#include <bit>
#include <cstdint>

#include <funcmesh/core/index.hpp>

namespace funcmesh::detail {

class fast_divider {
 public:
  fast_divider() = default;
  // d >= 1. With l = ceil(log2 d) and m = ceil(2^(63 + l) / d), m fits in 64 bits and
  // floor(n / d) = floor(n m / 2^(63 + l)) for all n < 2^63 (m d - 2^(63 + l) < d <= 2^l).
  explicit fast_divider(index_t d) : divisor_(d) {
    const auto ud = static_cast<std::uint64_t>(d);
    shift_ = ud <= 1 ? 0 : 64 - std::countl_zero(ud - 1);
    if (shift_ == 0) return;  // d == 1: the identity
    const wide numerator = wide{1} << (63 + shift_);
    multiplier_ = static_cast<std::uint64_t>((numerator + ud - 1) / ud);
  }
  index_t divisor() const { return divisor_; }
  // n / d for 0 <= n < 2^63.
  index_t divide(index_t n) const {
    if (shift_ == 0) return n;
    const wide product = static_cast<wide>(static_cast<std::uint64_t>(n)) * multiplier_;
    return static_cast<index_t>(static_cast<std::uint64_t>(product >> 64) >> (shift_ - 1));
  }

 private:
  __extension__ typedef unsigned __int128 wide;  // GCC, Clang and nvcc's host compilers
  index_t divisor_ = 1;
  std::uint64_t multiplier_ = 0;
  int shift_ = 0;
};

}  // namespace funcmesh::detail
