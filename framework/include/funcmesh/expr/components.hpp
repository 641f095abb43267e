// Components of vec expressions: component<k>(e) reads one component of a vec-valued
// expression, make_vec(a, b, ...) builds a vec value from scalar expressions (or numbers),
// so that initial conditions and diagnostics need no hand-written functors.
#pragma once

#include <type_traits>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/expr/grid_expression.hpp>
#include <funcmesh/expr/zip_expr.hpp>

namespace funcmesh {

namespace detail {

template <class T>
inline constexpr bool is_vec_v = false;
template <class T, int N>
inline constexpr bool is_vec_v<vec<T, N>> = true;

// T for vec<T, N>, else the type itself.
template <class T>
struct vec_component {
  using type = T;
};
template <class T, int N>
struct vec_component<vec<T, N>> {
  using type = T;
};
template <class T>
using vec_component_t = typename vec_component<T>::type;

// Concrete call signatures: funcmesh functions need them (curry, compose, zip).
template <int K, class T, int N>
struct component_of {
  static_assert(K >= 0 && K < N, "funcmesh::component<k>: k is past the vec's last component");
  FUNCMESH_DEVICE constexpr T operator()(const vec<T, N>& value) const { return value[K]; }
};

template <class T, class... A>
struct make_vec_of {
  FUNCMESH_DEVICE constexpr vec<T, static_cast<int>(sizeof...(A))> operator()(A... values) const {
    return {{static_cast<T>(values)...}};
  }
};

// An operand of make_vec: an expression as it is, a number as pure(number).
template <class A>
constexpr auto vec_operand(const A& a) {
  if constexpr (Expression<A>) {
    return as_node(a);
  } else {
    return pure_expr<A>(a);
  }
}

template <class A>
struct operand_value {
  using type = A;
};
template <Expression A>
struct operand_value<A> {
  using type = expr_value_t<A>;
};

}  // namespace detail

// Component k (from 0) of a vec-valued expression: component<0>(u) is the density of a
// vec<double, 3> state. Read-only: assign a whole vec (make_vec) to change one.
template <int K, Expression E>
constexpr auto component(const E& e) {
  static_assert(detail::is_vec_v<expr_value_t<E>>,
                "funcmesh::component<k>(e): e's values are not vec<T, N> (component reads one "
                "component of a vec-valued expression)");
  using value = expr_value_t<E>;
  return zip_with(detail::component_of<K, typename value::value_type, value::size()>{}, e);
}

// vec<T, N> from N scalar operands, each an expression or a number (at least one an
// expression, which gives the loop its extent); T is their common type.
template <class... A>
requires(sizeof...(A) > 0 && (Expression<A> || ...)) constexpr auto make_vec(const A&... operands) {
  static_assert(((Scalar<typename detail::operand_value<A>::type> &&
                  !detail::is_vec_v<typename detail::operand_value<A>::type>)&&...),
                "funcmesh::make_vec(a, b, ...): every operand must be a scalar expression or a "
                "number (component<k> reads a vec's components)");
  using value = std::common_type_t<typename detail::operand_value<A>::type...>;
  return make_zip(_(detail::make_vec_of<value, typename detail::operand_value<A>::type...>{}),
                  detail::vec_operand(operands)...);
}

}  // namespace funcmesh
