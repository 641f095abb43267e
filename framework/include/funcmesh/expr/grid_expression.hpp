// grid_expression<Derived>: the CRTP base of lazy grid expressions (a value at every
// index, computed when an assignment or reduction evaluates it), and its leaves: pure
// values, the index itself, and proxies that let a function read a grid function anywhere.
//
// Every node E provides
//   tag_type, value_type, static constexpr bool serial_only, static constexpr index_t work
//                       (cost units per element for the thread policy: 1 per value read)
//   E::bind_to(binder&) -> a node of the same shape whose leaves are views (trivially
//                       copyable, FUNCMESH_DEVICE operator[](index_t)): what a kernel sees
//   E::visit(visitor)  -> calls visitor(const grid_read&) per read (grid_read.hpp)
#pragma once

#include <type_traits>
#include <utility>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/expr/grid_function_base.hpp>
#include <funcmesh/expr/grid_read.hpp>
#include <funcmesh/expr/tags.hpp>
#include <funcmesh/memory/view.hpp>

namespace funcmesh {

template <class Derived>
struct grid_expression {
  FUNCMESH_DEVICE constexpr const Derived& self() const {
    return static_cast<const Derived&>(*this);
  }
};

template <class E>
inline constexpr bool is_grid_expression_v =
    std::is_base_of_v<grid_expression<std::remove_cvref_t<E>>, std::remove_cvref_t<E>>;

template <class T, class Tag>
class grid_function;

template <class T>
inline constexpr bool is_grid_function_v = false;
template <class T, class Tag>
inline constexpr bool is_grid_function_v<grid_function<T, Tag>> = true;

// A type outside the framework that takes part in expressions by turning into a node: the
// comm layer's dist_function (its local values, reported with its halo state).
template <class E>
concept ExpressionSource = requires(const E& e) {
  e.as_expression();
  requires is_grid_expression_v<decltype(e.as_expression())>;
};

// Anything that takes part in a grid expression as an operand: a node, a grid function or
// an expression source.
template <class E>
concept Expression = is_grid_expression_v<E> || is_grid_function_v<std::remove_cvref_t<E>> ||
    ExpressionSource<std::remove_cvref_t<E>>;

// Values that become pure(v) when they meet an expression: numbers and vec values.
template <class T>
inline constexpr bool is_scalar_v = std::is_arithmetic_v<T>;
template <class T, int N>
inline constexpr bool is_scalar_v<vec<T, N>> = true;

template <class T>
concept Scalar = is_scalar_v<std::remove_cvref_t<T>>;

// A proxy is what a kernel sees of a grid function read at arbitrary indices.
template <class T>
using proxy = view<T>;

// The value of pure(pr(f)) before binding: which grid function, and the halo state of
// the distributed function it belongs to (null for a plain grid function).
template <class T, class Tag>
struct proxy_source {
  const grid_function<T, Tag>* function;
  halo_state_base* halo = nullptr;
};

// pr(f): f as a value that can be passed through pure() and indexed anywhere. Its values
// are read as they are: a grid function has no halo to refresh.
template <class T, class Tag>
proxy_source<T, Tag> pr(const grid_function<T, Tag>& function) {
  return {&function, nullptr};
}

namespace detail {
template <class V>
struct bound_value {
  static V bind_to(const V& value, binder&) { return value; }
  template <class Visitor>
  static void visit(const V&, Visitor&) {}
};
template <class T, class Tag>
struct bound_value<proxy_source<T, Tag>> {
  static proxy<const T> bind_to(const proxy_source<T, Tag>& source, binder& b) {
    const auto& base = static_cast<const grid_function_base&>(*source.function);
    return {static_cast<const T*>(b.bind_read(base)), base.total_size()};
  }
  template <class Visitor>
  static void visit(const proxy_source<T, Tag>& source, Visitor& visitor) {
    visitor(grid_read::of(*source.function, read_mode::proxy, source.halo));
  }
};
template <class V>
using bound_value_t =
    decltype(bound_value<V>::bind_to(std::declval<const V&>(), std::declval<binder&>()));
}  // namespace detail

// pure(v): v at every index (the Applicative's pure). Any grid kind.
template <class V>
class pure_expr : public grid_expression<pure_expr<V>> {
 public:
  using tag_type = any_tag;
  using value_type = detail::bound_value_t<V>;
  static constexpr bool serial_only = false;
  static constexpr index_t work = 0;

  FUNCMESH_DEVICE constexpr explicit pure_expr(V value) : value_(value) {}

  FUNCMESH_DEVICE constexpr value_type operator[](index_t) const { return value_; }
  FUNCMESH_DEVICE constexpr const V& value() const { return value_; }

  auto bind_to(binder& b) const {
    return pure_expr<value_type>(detail::bound_value<V>::bind_to(value_, b));
  }
  template <class Visitor>
  void visit(Visitor& visitor) const {
    detail::bound_value<V>::visit(value_, visitor);
  }

 private:
  V value_;
};

template <class V>
FUNCMESH_DEVICE constexpr pure_expr<V> pure(V value) {
  return pure_expr<V>(value);
}

// The index itself, as an expression (of any kind unless a tag is given).
template <class Tag = any_tag>
class index_expr : public grid_expression<index_expr<Tag>> {
 public:
  using tag_type = Tag;
  using value_type = index_t;
  static constexpr bool serial_only = false;
  static constexpr index_t work = 0;

  FUNCMESH_DEVICE constexpr value_type operator[](index_t i) const { return i; }
  index_expr bind_to(binder&) const { return *this; }
  template <class Visitor>
  void visit(Visitor&) const {}
};

template <class Tag = any_tag>
FUNCMESH_DEVICE constexpr index_expr<Tag> index() {
  return {};
}

// A grid function read at the index being computed: before binding, a pointer to it.
template <class T, class Tag>
class function_read : public grid_expression<function_read<T, Tag>> {
 public:
  using tag_type = Tag;
  using value_type = T;
  static constexpr bool serial_only = false;
  static constexpr index_t work = 1;

  // `halo`: the state of the distributed function whose local values these are, if any.
  FUNCMESH_DEVICE constexpr explicit function_read(const grid_function<T, Tag>& function,
                                                   halo_state_base* halo = nullptr)
      : function_(&function), halo_(halo) {}

  auto bind_to(binder& b) const;
  template <class Visitor>
  void visit(Visitor& visitor) const {
    visitor(grid_read::of(*function_, read_mode::own_index, halo_));
  }

 private:
  const grid_function<T, Tag>* function_;
  halo_state_base* halo_;
};

// ...and after binding: a view.
template <class T, class Tag>
class function_view : public grid_expression<function_view<T, Tag>> {
 public:
  using tag_type = Tag;
  using value_type = T;
  static constexpr bool serial_only = false;
  static constexpr index_t work = 1;

  FUNCMESH_DEVICE constexpr explicit function_view(view<const T> values) : values_(values) {}
  FUNCMESH_DEVICE constexpr T operator[](index_t i) const { return values_[i]; }
  function_view bind_to(binder&) const { return *this; }
  template <class Visitor>
  void visit(Visitor&) const {}

 private:
  view<const T> values_;
};

template <class T, class Tag>
auto function_read<T, Tag>::bind_to(binder& b) const {
  const auto& base = static_cast<const grid_function_base&>(*function_);
  return function_view<T, Tag>(
      view<const T>(static_cast<const T*>(b.bind_read(base)), base.total_size()));
}

// An operand as a node stored by value: grid functions by reference, expression sources
// as the node they give, scalars as pure.
FUNCMESH_EXEC_CHECK_DISABLE
template <class E>
FUNCMESH_DEVICE constexpr auto as_node(const E& operand) {
  if constexpr (is_grid_function_v<E>) {
    return function_read<typename E::value_type, typename E::tag_type>(operand);
  } else if constexpr (ExpressionSource<E>) {
    return operand.as_expression();
  } else if constexpr (is_grid_expression_v<E>) {
    return operand;
  } else {
    return pure_expr<E>(operand);
  }
}
template <class E>
using node_t = decltype(as_node(std::declval<const E&>()));

template <class E>
using expr_value_t = typename node_t<E>::value_type;
template <class E>
using expr_tag_t = typename node_t<E>::tag_type;

}  // namespace funcmesh
