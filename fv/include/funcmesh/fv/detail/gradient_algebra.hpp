// The algebra of gradients of scalar and vec<double, N> values in D dimensions: the
// gradient type, outer products with a face vector, increments along an offset, scaling by
// per-component factors, and least squares' symmetric matrix applied. Kernel-callable.
#pragma once

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/vec.hpp>

namespace funcmesh::fv {

namespace detail {
template <class T, int D>
struct gradient_of {
  static_assert(sizeof(T) == 0, "fv gradients are of double or vec<double, N> values");
};
template <int D>
struct gradient_of<double, D> {
  using type = vec<double, D>;
};
template <int N, int D>
struct gradient_of<vec<double, N>, D> {
  using type = vec<vec<double, D>, N>;
};
}  // namespace detail

// The gradient of a T in D dimensions: vec<double, D> for a number, one such row per
// component of a vec<double, N>.
template <class T, int D>
using gradient_t = typename detail::gradient_of<T, D>::type;

namespace detail {

// value (x) v: the gradient-shaped product of a value and a face vector's first D
// components.
template <int D>
FUNCMESH_DEVICE constexpr vec<double, D> outer(double value, const vec<double, 3>& v) {
  vec<double, D> r{};
  for (int d = 0; d < D; ++d) r[d] = value * v[d];
  return r;
}
template <int D, int N>
FUNCMESH_DEVICE constexpr vec<vec<double, D>, N> outer(const vec<double, N>& value,
                                                       const vec<double, 3>& v) {
  vec<vec<double, D>, N> r{};
  for (int k = 0; k < N; ++k) r[k] = outer<D>(value[k], v);
  return r;
}

// g . r: the increment of a linear field along the offset r.
template <int D>
FUNCMESH_DEVICE constexpr double increment(const vec<double, D>& g, const vec<double, 3>& r) {
  double sum = 0;
  for (int d = 0; d < D; ++d) sum += g[d] * r[d];
  return sum;
}
template <int D, int N>
FUNCMESH_DEVICE constexpr vec<double, N> increment(const vec<vec<double, D>, N>& g,
                                                   const vec<double, 3>& r) {
  vec<double, N> sum{};
  for (int k = 0; k < N; ++k) sum[k] = increment<D>(g[k], r);
  return sum;
}

// Each component's gradient times its own factor.
template <int D>
FUNCMESH_DEVICE constexpr vec<double, D> scaled(const vec<double, D>& g, double factor) {
  return factor * g;
}
template <int D, int N>
FUNCMESH_DEVICE constexpr vec<vec<double, D>, N> scaled(const vec<vec<double, D>, N>& g,
                                                        const vec<double, N>& factor) {
  vec<vec<double, D>, N> r{};
  for (int k = 0; k < N; ++k) r[k] = factor[k] * g[k];
  return r;
}

// m b for a symmetric matrix stored as its distinct entries (face_set::least_squares_inverse:
// xx, yy, xy in 2-D; xx, yy, zz, xy, xz, yz in 3-D).
FUNCMESH_DEVICE constexpr vec<double, 2> symmetric_times(const vec<double, 3>& m,
                                                         const vec<double, 2>& b) {
  return {{m[0] * b[0] + m[2] * b[1], m[2] * b[0] + m[1] * b[1]}};
}
FUNCMESH_DEVICE constexpr vec<double, 3> symmetric_times(const vec<double, 6>& m,
                                                         const vec<double, 3>& b) {
  return {{m[0] * b[0] + m[3] * b[1] + m[4] * b[2], m[3] * b[0] + m[1] * b[1] + m[5] * b[2],
           m[4] * b[0] + m[5] * b[1] + m[2] * b[2]}};
}
template <int M, int D, int N>
FUNCMESH_DEVICE constexpr vec<vec<double, D>, N> symmetric_times(const vec<double, M>& m,
                                                                 const vec<vec<double, D>, N>& b) {
  vec<vec<double, D>, N> r{};
  for (int k = 0; k < N; ++k) r[k] = symmetric_times(m, b[k]);
  return r;
}

}  // namespace detail
}  // namespace funcmesh::fv
