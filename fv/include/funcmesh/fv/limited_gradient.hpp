// A cell limiter applied: each component's gradient scaled by the smallest factor its
// faces allow (Barth-Jespersen, Venkatakrishnan: limiters.hpp), so that the linear
// reconstruction at every face centroid stays within the cell's neighbour bounds.
#pragma once

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/expr/zip_expr.hpp>
#include <funcmesh/faces/combine_ops.hpp>
#include <funcmesh/faces/face_sum.hpp>
#include <funcmesh/fv/detail/gradient_algebra.hpp>
#include <funcmesh/fv/neighbour_bounds.hpp>

namespace funcmesh::fv {

namespace detail {

// What a cell's limiter reads: its gradient, how far its bounds lie below and above its
// value (lo - u <= 0, hi - u >= 0: the same for each face, so taken once per cell) and
// Venkatakrishnan's eps^2.
template <class T, class G>
struct limiter_input {
  G gradient;
  T below;
  T above;
  double eps2;
};
struct gather_limiter_input {
  template <class T, class G>
  FUNCMESH_DEVICE constexpr limiter_input<T, G> operator()(const T& value, const G& gradient,
                                                           const bounds<T>& range,
                                                           double eps2) const {
    return {gradient, range.lo - value, range.hi - value, eps2};
  }
};

// The factor one face allows, per component: one loop over the components, each
// increment and limiter together (the form the compiler vectorises across components).
template <int D, class Limiter>
struct face_factor {
  Limiter limiter;
  static constexpr index_t work = 12;
  template <class T, class G>
  FUNCMESH_DEVICE T operator()(const limiter_input<T, G>& in, const face_view& f) const {
    if constexpr (requires { T::size(); }) {
      T factor{};
      FUNCMESH_SIMD
      for (int k = 0; k < T::size(); ++k) {
        factor[k] =
            limiter(increment<D>(in.gradient[k], f.self_offset), in.below[k], in.above[k], in.eps2);
      }
      return factor;
    } else {
      return limiter(increment<D>(in.gradient, f.self_offset), in.below, in.above, in.eps2);
    }
  }
};

// The smaller factor per component: `minimum` with its loop over the components marked
// FUNCMESH_SIMD, so that a cell's running minimum stays in one vector register beside the
// vectorised face_factor (minimum's own loop unrolls into one scalar per component).
struct smallest_factor {
  template <class T>
  FUNCMESH_DEVICE constexpr T identity() const {
    return minimum{}.identity<T>();
  }
  template <class T>
  FUNCMESH_DEVICE constexpr T operator()(const T& a, const T& b) const {
    if constexpr (requires { T::size(); }) {
      T r{};
      FUNCMESH_SIMD
      for (int k = 0; k < T::size(); ++k) r[k] = b[k] < a[k] ? b[k] : a[k];
      return r;
    } else {
      return minimum{}(a, b);
    }
  }
};

struct scale_gradient {
  template <class G, class T>
  FUNCMESH_DEVICE constexpr G operator()(const G& gradient, const T& factor) const {
    return scaled(gradient, factor);
  }
};

struct venkatakrishnan_eps2 {
  double k_over_length;
  FUNCMESH_DEVICE constexpr double operator()(double h) const {
    const double kh = k_over_length * h;
    return kh * kh * kh;
  }
};

}  // namespace detail

// The limited gradient at each owned cell: each component of `gradient` times the smallest
// factor limiter(g . r_f, lo - u, hi - u, eps2) over the cell's faces (r_f = face_view::
// self_offset), with bounds = neighbour_bounds(faces, u, ...). Reads only the cell's own
// values (no halo); the flux loop that reconstructs from it then needs its halo. eps2: a
// number or cells expression (venkatakrishnan_eps2(K, cell_size) for Venkatakrishnan; 0.0
// for Barth-Jespersen, which ignores it).
template <int D, class Limiter, class U, class G, class B, class E>
auto limited_gradient(const face_set& faces, Limiter limiter, const U& u, const G& gradient,
                      const B& bounds, const E& eps2) {
  auto input = make_zip(detail::gather_limiter_input{}, u, gradient, bounds, eps2);
  auto factor = combine_over_cell_faces(faces, detail::smallest_factor{},
                                        detail::face_factor<D, Limiter>{limiter}, input);
  return make_zip(detail::scale_gradient{}, gradient, factor);
}

// Venkatakrishnan's eps^2 = (K h / L)^3 per cell, h a cell size (layout.cell_size()) and L
// the length over which the solution varies by its own size (1 for a problem made
// dimensionless so; the formula assumes values of order 1): K ~ 0.3 limits nearly as
// Barth-Jespersen does, larger K leaves more of the smooth extrema alone.
template <class H>
auto venkatakrishnan_eps2(double k, const H& cell_size, double reference_length = 1.0) {
  return make_zip(detail::venkatakrishnan_eps2{k / reference_length}, cell_size);
}

}  // namespace funcmesh::fv
