// strided_view<T> and strided_array<T>: element i lives at
// ((i / divisor) % modulo) * stride + offset of a buffer of T (modulo 0: no wrap). One
// type reads a component of an AoS array, a repeated pattern, or a plain array.
#pragma once

#include <type_traits>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/memory/array.hpp>
#include <funcmesh/memory/detail/index_check.hpp>

namespace funcmesh {

struct stride_layout {
  index_t stride = 1;
  index_t offset = 0;
  index_t divisor = 1;  // each underlying element repeats `divisor` times
  index_t modulo = 0;   // the index wraps after `modulo` elements; 0: never

  FUNCMESH_DEVICE constexpr index_t location(index_t index) const {
    if (divisor > 1) index /= divisor;
    if (modulo > 0) index %= modulo;
    return index * stride + offset;
  }
};

template <class T>
class strided_view {
 public:
  using value_type = std::remove_const_t<T>;

  constexpr strided_view() = default;
  FUNCMESH_DEVICE constexpr strided_view(T* data, index_t size, stride_layout layout)
      : data_(data), size_(size), layout_(layout) {}

  FUNCMESH_DEVICE constexpr T& operator[](index_t index) const {
    FUNCMESH_CHECK_INDEX(index, size_);
    return data_[layout_.location(index)];
  }
  FUNCMESH_DEVICE constexpr index_t size() const { return size_; }
  FUNCMESH_DEVICE constexpr stride_layout layout() const { return layout_; }

 private:
  T* data_ = nullptr;
  index_t size_ = 0;
  stride_layout layout_{};
};

static_assert(std::is_trivially_copyable_v<strided_view<const double>>);

namespace detail {
// Throws funcmesh::error unless every index in [0, size) maps inside [0, elements).
void check_stride_layout(index_t size, stride_layout layout, index_t elements);
}  // namespace detail

// A strided reading of a shared buffer: `size` elements of T laid out by `layout`.
template <class T>
class strided_array {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  strided_array(buffer storage, index_t size, stride_layout layout)
      : storage_(std::move(storage)), size_(size), layout_(layout) {}

  index_t size() const { return size_; }
  stride_layout layout() const { return layout_; }

  // The layout is checked once the buffer is held, so its size cannot change under us.
  strided_view<const T> read_view(memory_space space, token& holder) const {
    const auto* data = static_cast<const T*>(storage_.read_pointer(space, holder));
    check();
    return {data, size_, layout_};
  }
  strided_view<T> write_view(memory_space space, token& holder) {
    auto* data = static_cast<T*>(storage_.write_pointer(space, holder));
    check();
    return {data, size_, layout_};
  }

 private:
  void check() const {
    detail::check_stride_layout(size_, layout_,
                                static_cast<index_t>(storage_.size_bytes() / sizeof(T)));
  }
  buffer storage_;
  index_t size_;
  stride_layout layout_;
};

// Component k of an array of vec<T, N> (array of structures), sharing its buffer.
template <class T, int N>
strided_array<T> component(const array<vec<T, N>>& values, int k) {
  static_assert(sizeof(vec<T, N>) == N * sizeof(T), "vec<T, N> must be packed to be strided");
  return strided_array<T>(values.storage(), values.size(), stride_layout{.stride = N, .offset = k});
}

}  // namespace funcmesh
