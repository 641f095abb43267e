// Grid expressions as Functor, Applicative and Monad: f / x (fmap), fs * x (apply),
// pure(v), and x >>= k (bind: the value at i is k(x[i])[i]).
#pragma once

#include <type_traits>

#include <funcmesh/expr/zip_expr.hpp>
#include <funcmesh/func/typeclasses.hpp>

namespace funcmesh {

// fs * x where the functions differ per index and are not known statically (they come
// from a bind, or from a user's expression of functions): apply_partially(fs[i], x[i]).
template <class FS, class X>
class apply_expr : public grid_expression<apply_expr<FS, X>> {
 public:
  using tag_type = common_tag_t<typename FS::tag_type, typename X::tag_type>;
  using value_type = std::remove_cvref_t<decltype(apply_partially(
      std::declval<typename FS::value_type>(), std::declval<typename X::value_type>()))>;
  static constexpr bool serial_only = FS::serial_only || X::serial_only;
  static constexpr index_t work = FS::work + X::work + 4;

  FUNCMESH_DEVICE constexpr apply_expr(FS functions, X x) : functions_(functions), x_(x) {}
  FUNCMESH_DEVICE constexpr value_type operator[](index_t i) const {
    return apply_partially(functions_[i], x_[i]);
  }
  auto bind_to(binder& b) const {
    using bound = apply_expr<decltype(functions_.bind_to(b)), decltype(x_.bind_to(b))>;
    return bound(functions_.bind_to(b), x_.bind_to(b));
  }
  template <class Visitor>
  void visit(Visitor& visitor) const {
    functions_.visit(visitor);
    x_.visit(visitor);
  }

 private:
  FS functions_;
  X x_;
};

// m >>= k. k maps a value to an expression that needs no binding (built from pure
// values, the index and other such expressions), so it can be built inside the kernel.
template <class M, class K>
class bind_expr : public grid_expression<bind_expr<M, K>> {
  using inner_type = std::remove_cvref_t<decltype(std::declval<const K&>()(
      std::declval<typename M::value_type>()))>;
  static_assert(is_grid_expression_v<inner_type>,
                "funcmesh: in m >>= k, k must return a grid expression (pure(v), index(), "
                "or an expression built from them)");

 public:
  using tag_type = common_tag_t<typename M::tag_type, typename inner_type::tag_type>;
  using value_type = typename inner_type::value_type;
  static constexpr bool serial_only = M::serial_only || is_serial_only_v<K>;
  static constexpr index_t work = M::work + inner_type::work + 4;

  FUNCMESH_DEVICE constexpr bind_expr(M m, K k) : m_(m), k_(k) {}
  FUNCMESH_DEVICE constexpr value_type operator[](index_t i) const { return k_(m_[i])[i]; }
  auto bind_to(binder& b) const {
    using bound = bind_expr<decltype(m_.bind_to(b)), K>;
    return bound(m_.bind_to(b), k_);
  }
  template <class Visitor>
  void visit(Visitor& visitor) const {
    m_.visit(visitor);
  }

 private:
  M m_;
  K k_;
};

template <class E>
inline constexpr bool is_zip_of_function_v = false;
template <class F, class... E>
inline constexpr bool is_zip_of_function_v<zip_expr<F, E...>> = is_function_v<F>;

template <class E>
inline constexpr bool is_pure_function_v = false;
template <class V>
inline constexpr bool is_pure_function_v<pure_expr<V>> = is_function_v<V>;

template <Expression E>
struct functor_impl<E> {
  static constexpr bool enabled = true;
  using value_type = expr_value_t<E>;
  FUNCMESH_EXEC_CHECK_DISABLE
  template <class F>
  FUNCMESH_DEVICE static constexpr auto fmap(const F& f, const E& x) {
    return make_zip(_(f), x);
  }
};

template <Expression E>
struct applicative_impl<E> {
  static constexpr bool enabled = true;
  FUNCMESH_EXEC_CHECK_DISABLE
  template <class X>
  FUNCMESH_DEVICE static constexpr auto apply(const E& functions, const X& x) {
    if constexpr (is_zip_of_function_v<E>) {
      // (f / a * b) * x == zip(f, a, b, x): one direct call of f in the kernel.
      return extend(functions, as_node(x), std::make_index_sequence<zip_operand_count<E>::value>{});
    } else if constexpr (is_pure_function_v<E>) {
      return make_zip(functions.value(), x);
    } else {
      return apply_expr<node_t<E>, node_t<X>>(as_node(functions), as_node(x));
    }
  }

 private:
  template <class Z>
  struct zip_operand_count;
  template <class F, class... A>
  struct zip_operand_count<zip_expr<F, A...>> {
    static constexpr std::size_t value = sizeof...(A);
  };
  FUNCMESH_EXEC_CHECK_DISABLE
  template <class F, class... A, class X, std::size_t... I>
  FUNCMESH_DEVICE static constexpr auto extend(const zip_expr<F, A...>& z, const X& x,
                                               std::index_sequence<I...>) {
    return zip_expr<F, A..., X>(z.function(),
                                detail::make_pack(detail::get<I>(z.operands())..., x));
  }
};

template <Expression E>
struct monad_impl<E> {
  static constexpr bool enabled = true;
  FUNCMESH_EXEC_CHECK_DISABLE
  template <class K>
  FUNCMESH_DEVICE static constexpr auto bind(const E& m, const K& k) {
    return bind_expr<node_t<E>, K>(as_node(m), k);
  }
};

// pure as a function (for the monad laws: m >>= pure_function == m).
struct pure_function {
  template <class V>
  FUNCMESH_DEVICE constexpr pure_expr<V> operator()(V value) const {
    return pure_expr<V>(value);
  }
};

}  // namespace funcmesh
