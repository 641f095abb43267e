// vec<T, N>: a fixed-size vector value (a cell's conserved variables, a coordinate).
// An aggregate, trivially copyable, usable in kernels; arithmetic comes with grid
// expressions.
#pragma once

#include <cstddef>
#include <type_traits>

#include <funcmesh/core/device_macros.hpp>

namespace funcmesh {

template <class T, int N>
struct vec {
  static_assert(N > 0, "vec<T, N> needs at least one component");
  static_assert(std::is_trivially_copyable_v<T>, "vec components must be trivially copyable");
  using value_type = T;
  static constexpr int size() { return N; }

  T components[N];

  FUNCMESH_DEVICE constexpr T& operator[](int k) { return components[k]; }
  FUNCMESH_DEVICE constexpr const T& operator[](int k) const { return components[k]; }

  FUNCMESH_DEVICE friend constexpr bool operator==(const vec& a, const vec& b) {
    for (int k = 0; k < N; ++k) {
      if (!(a.components[k] == b.components[k])) return false;
    }
    return true;
  }
};

}  // namespace funcmesh
