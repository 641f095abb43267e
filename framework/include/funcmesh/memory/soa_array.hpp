// soa_array<T, N>: vector values stored as structure of arrays, one buffer per
// component, so that component loops read contiguous memory on every device.
#pragma once

#include <array>
#include <type_traits>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/memory/array.hpp>
#include <funcmesh/memory/detail/index_check.hpp>

namespace funcmesh {

// N pointers and a size: trivially copyable, for kernels. T may be const (read-only).
template <class T, int N>
class soa_view {
 public:
  using value_type = vec<std::remove_const_t<T>, N>;

  constexpr soa_view() = default;
  // Built on the host, from the components' pointers in one space.
  constexpr soa_view(const std::array<T*, N>& components, index_t size) : size_(size) {
    for (int k = 0; k < N; ++k) components_[k] = components[k];
  }

  // Element (i, k): component k of value i.
  FUNCMESH_DEVICE constexpr T& operator()(index_t index, int k) const {
    FUNCMESH_CHECK_INDEX(index, size_);
    return components_[k][index];
  }
  FUNCMESH_DEVICE constexpr value_type operator[](index_t index) const {
    FUNCMESH_CHECK_INDEX(index, size_);
    value_type value{};
    for (int k = 0; k < N; ++k) value[k] = components_[k][index];
    return value;
  }
  FUNCMESH_DEVICE constexpr void set(index_t index, const value_type& value) const
      requires(!std::is_const_v<T>) {
    FUNCMESH_CHECK_INDEX(index, size_);
    for (int k = 0; k < N; ++k) components_[k][index] = value[k];
  }
  FUNCMESH_DEVICE constexpr view<T> component(int k) const { return {components_[k], size_}; }
  FUNCMESH_DEVICE constexpr index_t size() const { return size_; }

 private:
  T* components_[N] = {};
  index_t size_ = 0;
};

static_assert(std::is_trivially_copyable_v<soa_view<const double, 4>>);

template <class T, int N>
class soa_array {
 public:
  using value_type = vec<T, N>;

  soa_array() = default;
  explicit soa_array(index_t size) {
    for (auto& c : components_) c = array<T>(size);
  }

  index_t size() const { return components_[0].size(); }
  void resize(index_t size, preserve keep = preserve::no) {
    for (auto& c : components_) c.resize(size, keep);
  }

  // One token holds all N buffers.
  soa_view<const T, N> read_view(memory_space space, token& holder) const {
    std::array<const T*, N> pointers{};
    for (int k = 0; k < N; ++k) pointers[k] = components_[k].read_view(space, holder).data();
    return {pointers, size()};
  }
  soa_view<T, N> write_view(memory_space space, token& holder) {
    std::array<T*, N> pointers{};
    for (int k = 0; k < N; ++k) pointers[k] = components_[k].write_view(space, holder).data();
    return {pointers, size()};
  }
  soa_view<T, N> overwrite_view(memory_space space, token& holder) {
    std::array<T*, N> pointers{};
    for (int k = 0; k < N; ++k) pointers[k] = components_[k].overwrite_view(space, holder).data();
    return {pointers, size()};
  }

  // Component k as an array of its own, sharing its buffer (resize the soa_array, not
  // the component).
  array<T> component(int k) const { return components_[k]; }

 private:
  std::array<array<T>, N> components_{};
};

}  // namespace funcmesh
