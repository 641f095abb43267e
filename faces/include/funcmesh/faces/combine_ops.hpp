// How a face loop combines its faces' values: `op(a, b)` and `op.identity<T>()`, the value
// that changes nothing. Sums use add_values; minimum and maximum (component-wise on vec
// values) give a cell's neighbour bounds in one loop (combine_over_faces).
#pragma once

#include <limits>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/vec.hpp>

namespace funcmesh {

// A user's own combination is any struct of this form whose operation is associative and
// commutative (the gather form combines each cell's faces in one fixed order, so the result
// has the same bits on every executor and rank count either way).
struct add_values {
  template <class T>
  FUNCMESH_DEVICE constexpr T identity() const {
    return T{};
  }
  template <class T>
  FUNCMESH_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

namespace detail {
// a filled with x: a number, or every component of a vec (of vecs).
template <class T>
FUNCMESH_DEVICE constexpr T filled(double x) {
  if constexpr (requires { T::size(); }) {
    T r{};
    for (int k = 0; k < T::size(); ++k) r[k] = filled<typename T::value_type>(x);
    return r;
  } else {
    return static_cast<T>(x);
  }
}
// Component-wise a or b by `pick_b(a_k, b_k)`.
template <class T, class Pick>
FUNCMESH_DEVICE constexpr T pick_components(const T& a, const T& b, Pick pick_b) {
  if constexpr (requires { T::size(); }) {
    T r{};
    for (int k = 0; k < T::size(); ++k) r[k] = pick_components(a[k], b[k], pick_b);
    return r;
  } else {
    return pick_b(a, b) ? b : a;
  }
}
struct b_is_less {
  template <class S>
  FUNCMESH_DEVICE constexpr bool operator()(const S& a, const S& b) const {
    return b < a;
  }
};
struct b_is_greater {
  template <class S>
  FUNCMESH_DEVICE constexpr bool operator()(const S& a, const S& b) const {
    return b > a;
  }
};
}  // namespace detail

// The smaller value, component-wise; +infinity changes nothing. A NaN in b is kept out (a
// comparison with NaN is false), one in a stays.
struct minimum {
  template <class T>
  FUNCMESH_DEVICE constexpr T identity() const {
    return detail::filled<T>(std::numeric_limits<double>::infinity());
  }
  template <class T>
  FUNCMESH_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return detail::pick_components(a, b, detail::b_is_less{});
  }
};
// The larger value, component-wise; -infinity changes nothing.
struct maximum {
  template <class T>
  FUNCMESH_DEVICE constexpr T identity() const {
    return detail::filled<T>(-std::numeric_limits<double>::infinity());
  }
  template <class T>
  FUNCMESH_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return detail::pick_components(a, b, detail::b_is_greater{});
  }
};

}  // namespace funcmesh
