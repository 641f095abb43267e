// A cell's bounds: the smallest and largest value (component-wise) over the cell, its
// neighbours and its boundary faces' values, in one face loop that combines with min/max
// (combine_over_faces): what Barth-Jespersen's and Venkatakrishnan's limiters clip to.
#pragma once

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/expr/zip_expr.hpp>
#include <funcmesh/faces/combine_ops.hpp>
#include <funcmesh/faces/face_sum.hpp>

namespace funcmesh::fv {

template <class T>
struct bounds {
  T lo{}, hi{};
};

// The bounds' combination: the smaller lo, the larger hi; nothing (lo = +inf, hi = -inf)
// is its identity.
struct merge_bounds {
  template <class B>
  FUNCMESH_DEVICE constexpr B identity() const {
    using T = decltype(B::lo);
    return {minimum{}.identity<T>(), maximum{}.identity<T>()};
  }
  template <class B>
  FUNCMESH_DEVICE constexpr B operator()(const B& a, const B& b) const {
    return {minimum{}(a.lo, b.lo), maximum{}(a.hi, b.hi)};
  }
};

namespace detail {
// Each face gives its other side's value (twice); the cell's own is merged once at the end,
// so each face costs one comparison per bound.
struct bounds_of_face {
  static constexpr index_t work = 2;
  template <class T>
  FUNCMESH_DEVICE constexpr bounds<T> operator()(const T&, const T& other, const face_view&) const {
    return {other, other};
  }
};
template <class B>
struct bounds_of_boundary {
  B value;
  template <class T>
  FUNCMESH_DEVICE constexpr bounds<T> operator()(const T& self, const face_view& f) const {
    const T outside = static_cast<T>(funcmesh::detail::call(value, self, f));
    return {outside, outside};
  }
};
struct with_own_value {
  template <class T>
  FUNCMESH_DEVICE constexpr bounds<T> operator()(const T& self, const bounds<T>& around) const {
    return merge_bounds{}(around, bounds<T>{self, self});
  }
};
}  // namespace detail

// bounds<T> of u at each owned cell: over the cell itself, its neighbours and, on the
// domain boundary, the boundary values given by group (on("inlet", b), on_other_groups(
// fv::cell_value{}): b(u_cell, face), as for gradients). Reads u at neighbours.
template <class U, class... B>
auto neighbour_bounds(const face_set& faces, const U& u,
                      const boundary_flux<B>&... boundary_values) {
  auto around = combine_over_faces(faces, merge_bounds{}, detail::bounds_of_face{}, u,
                                   boundary_flux<detail::bounds_of_boundary<B>>{
                                       boundary_values.name, {boundary_values.flux}}...);
  return make_zip(detail::with_own_value{}, u, around);
}

}  // namespace funcmesh::fv
