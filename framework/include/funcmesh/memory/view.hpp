// view<T>: what a kernel sees of an array: a pointer and a size, trivially copyable,
// the same type on the host and on every device (one portal for all spaces).
#pragma once

#include <type_traits>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/memory/detail/index_check.hpp>

namespace funcmesh {

// view<const T> reads, view<T> reads and writes. A view does not own its memory: it is
// valid while the token that produced it holds the array.
template <class T>
class view {
 public:
  using value_type = std::remove_const_t<T>;
  using element_type = T;

  constexpr view() = default;
  FUNCMESH_DEVICE constexpr view(T* data, index_t size) : data_(data), size_(size) {}
  // A writable view converts to a read-only one.
  template <class U>
  requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>) FUNCMESH_DEVICE
      constexpr view(view<U> other)
      : data_(other.data()), size_(other.size()) {}

  FUNCMESH_DEVICE constexpr T& operator[](index_t index) const {
    FUNCMESH_CHECK_INDEX(index, size_);
    return data_[index];
  }
  FUNCMESH_DEVICE constexpr T* data() const { return data_; }
  FUNCMESH_DEVICE constexpr index_t size() const { return size_; }
  FUNCMESH_DEVICE constexpr bool empty() const { return size_ == 0; }
  FUNCMESH_DEVICE constexpr T* begin() const { return data_; }
  FUNCMESH_DEVICE constexpr T* end() const { return data_ + size_; }

 private:
  T* data_ = nullptr;
  index_t size_ = 0;
};

static_assert(std::is_trivially_copyable_v<view<double>>);
static_assert(std::is_trivially_copyable_v<view<const double>>);

}  // namespace funcmesh
