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

namespace funcmesh {

// Component-wise arithmetic, so that grid expressions over vec values (a cell's
// conserved variables) read like scalar ones: u + dt * k, u / volume.
template <class T, int N>
FUNCMESH_DEVICE constexpr vec<T, N> operator+(const vec<T, N>& a, const vec<T, N>& b) {
  vec<T, N> r{};
  for (int k = 0; k < N; ++k) r[k] = a[k] + b[k];
  return r;
}
template <class T, int N>
FUNCMESH_DEVICE constexpr vec<T, N> operator-(const vec<T, N>& a, const vec<T, N>& b) {
  vec<T, N> r{};
  for (int k = 0; k < N; ++k) r[k] = a[k] - b[k];
  return r;
}
template <class T, int N>
FUNCMESH_DEVICE constexpr vec<T, N> operator-(const vec<T, N>& a) {
  vec<T, N> r{};
  for (int k = 0; k < N; ++k) r[k] = -a[k];
  return r;
}
template <class T, int N>
FUNCMESH_DEVICE constexpr vec<T, N> operator*(const vec<T, N>& a, const vec<T, N>& b) {
  vec<T, N> r{};
  for (int k = 0; k < N; ++k) r[k] = a[k] * b[k];
  return r;
}
template <class T, int N>
FUNCMESH_DEVICE constexpr vec<T, N> operator/(const vec<T, N>& a, const vec<T, N>& b) {
  vec<T, N> r{};
  for (int k = 0; k < N; ++k) r[k] = a[k] / b[k];
  return r;
}
template <class T, int N, class S>
requires std::is_arithmetic_v<S> FUNCMESH_DEVICE constexpr vec<T, N> operator*(S s,
                                                                               const vec<T, N>& a) {
  vec<T, N> r{};
  for (int k = 0; k < N; ++k) r[k] = static_cast<T>(s) * a[k];
  return r;
}
template <class T, int N, class S>
requires std::is_arithmetic_v<S> FUNCMESH_DEVICE constexpr vec<T, N> operator*(const vec<T, N>& a,
                                                                               S s) {
  return s * a;
}
template <class T, int N, class S>
requires std::is_arithmetic_v<S> FUNCMESH_DEVICE constexpr vec<T, N> operator/(const vec<T, N>& a,
                                                                               S s) {
  vec<T, N> r{};
  for (int k = 0; k < N; ++k) r[k] = a[k] / static_cast<T>(s);
  return r;
}
template <class T, int N>
FUNCMESH_DEVICE constexpr vec<T, N>& operator+=(vec<T, N>& a, const vec<T, N>& b) {
  return a = a + b;
}
template <class T, int N>
FUNCMESH_DEVICE constexpr vec<T, N>& operator-=(vec<T, N>& a, const vec<T, N>& b) {
  return a = a - b;
}
template <class T, int N>
FUNCMESH_DEVICE constexpr vec<T, N>& operator*=(vec<T, N>& a, const vec<T, N>& b) {
  return a = a * b;
}
template <class T, int N>
FUNCMESH_DEVICE constexpr vec<T, N>& operator/=(vec<T, N>& a, const vec<T, N>& b) {
  return a = a / b;
}
template <class T, int N, class S>
requires std::is_arithmetic_v<S> FUNCMESH_DEVICE constexpr vec<T, N>& operator*=(vec<T, N>& a,
                                                                                 S s) {
  return a = a * s;
}
template <class T, int N, class S>
requires std::is_arithmetic_v<S> FUNCMESH_DEVICE constexpr vec<T, N>& operator/=(vec<T, N>& a,
                                                                                 S s) {
  return a = a / s;
}

}  // namespace funcmesh
