// Local reductions of a grid expression over the owned range (or another iteration
// space) on an executor: reduce(e, init, op), sum, min, max, minmax, dot, norm2. These are
// this rank's values only; the comm layer adds the MPI step (global_sum, ...) on top.
//
// reproducible = true makes sums bitwise identical whatever the executor, thread count and
// order: values are added exactly (exact_sum) and rounded once. min and max are then
// order-independent too (NaN wins, -0 < +0).
//
// An expression whose leaves cannot be bound whole (paged grid functions) is reduced piece
// by piece through piecewise_reduction, which such storage specializes
// (paged/detail/page_reduce.hpp): the same results, reproducible sums bitwise.
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include <funcmesh/exec/dispatch.hpp>
#include <funcmesh/expr/components.hpp>
#include <funcmesh/expr/grid_expression.hpp>
#include <funcmesh/expr/iteration_space.hpp>
#include <funcmesh/expr/operators.hpp>
#include <funcmesh/reduce/exact_sum.hpp>

namespace funcmesh {

struct reduce_options {
  std::optional<executor> on{};  // default_executor() when empty
  iteration_space over = iteration_space::owned();
  bool reproducible = false;
};

template <class T>
struct minmax_result {
  T min;
  T max;
};

namespace detail {

// The loop range of a reduction: resolved against the first grid function the expression
// reads (all of them must have its sizes). Throws when it reads none and no explicit
// range or list is given.
struct reduction_extent {
  bool found = false;
  grid_read first;
  void operator()(const grid_read& read);
};
index_range resolve_reduction(const reduction_extent& extent, const iteration_space& over);

template <class Bound>
struct evaluate_at {
  Bound expression;
  FUNCMESH_DEVICE auto operator()(index_t i) const { return expression[i]; }
};
template <class Bound>
struct evaluate_listed {
  Bound expression;
  view<const index_t> list;
  FUNCMESH_DEVICE auto operator()(index_t k) const { return expression[list[k]]; }
};

template <class Map>
struct exact_add {
  Map map;
  FUNCMESH_DEVICE void operator()(exact_sum& total, index_t i) const {
    total.add(static_cast<double>(map(i)));
  }
};

template <class Map>
struct duplicate {
  Map map;
  FUNCMESH_DEVICE auto operator()(index_t i) const {
    const auto value = map(i);
    return minmax_result<std::remove_cvref_t<decltype(value)>>{value, value};
  }
};

// A vec-valued reduction, one reduction of component<k>(e) per component.
template <class Value, class Reduce, class E>
Value per_component(const Reduce& reduce_one, const E& expression) {
  Value result{};
  [&]<int... K>(std::integer_sequence<int, K...>) {
    ((result[K] = reduce_one(component<K>(expression))), ...);
  }
  (std::make_integer_sequence<int, Value::size()>{});
  return result;
}

// Order-independent min/max: NaN propagates, -0 is below +0.
struct ordered_minimum {
  template <class T>
  FUNCMESH_DEVICE T operator()(const T& a, const T& b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return a;
      if (b != b) return b;
      if (a == b) return std::signbit(a) ? a : b;
    }
    return b < a ? b : a;
  }
};
struct ordered_maximum {
  template <class T>
  FUNCMESH_DEVICE T operator()(const T& a, const T& b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a) return a;
      if (b != b) return b;
      if (a == b) return std::signbit(a) ? b : a;
    }
    return a < b ? b : a;
  }
};
struct minmax_combine {
  template <class T>
  FUNCMESH_DEVICE minmax_result<T> operator()(const minmax_result<T>& a,
                                              const minmax_result<T>& b) const {
    return {ordered_minimum{}(a.min, b.min), ordered_maximum{}(a.max, b.max)};
  }
};

// How an expression is reduced when its leaves cannot be bound whole: storage that needs
// it (paged grid functions: paged/detail/page_reduce.hpp) specializes this for the nodes
// it binds, with applies = true and run(node, options, what, init, run, shape) reducing
// piece by piece, each piece's result the next one's carry. Every other node binds whole.
template <class Node, class = void>
struct piecewise_reduction {
  static constexpr bool applies = false;
};

// Binds the expression where the executor runs and returns run(executor, range, map,
// shape, label, init). Expressions with paged leaves go piece by piece (piecewise_reduction).
template <class Compiler, class E, class T, class Run>
T with_bound_map(const E& expression, const reduce_options& options, const char* what, T init,
                 const Run& run) {
  const auto node = as_node(expression);
  using node_type = std::remove_cvref_t<decltype(node)>;
  constexpr exec::loop_shape shape{node_type::serial_only, node_type::work};
  if constexpr (piecewise_reduction<node_type>::applies) {
    return piecewise_reduction<node_type>::run(node, options, what, init, run, shape);
  } else {
    reduction_extent extent;
    node.visit(extent);
    const index_range range = resolve_reduction(extent, options.over);
    const executor chosen = exec::effective_executor(
        options.on.value_or(default_executor<Compiler>()), node_type::serial_only);
    token holder;
    binder b(chosen.space(), holder);
    auto bound = node.bind_to(b);
    if (options.over.what() == iteration_space::kind::list) {
      evaluate_listed<decltype(bound)> map{
          bound, options.over.indices()->read_view(chosen.space(), holder)};
      return run(chosen, range, map, shape, exec::loop_label{what}, init);
    }
    return run(chosen, range, evaluate_at<decltype(bound)>{bound}, shape, exec::loop_label{what},
               init);
  }
}

}  // namespace detail

// combine(...combine(init, e[i0])..., e[ik]) in an unspecified grouping: op must be
// associative (and commutative for the parallel executors) and device-callable.
template <class Compiler = exec::this_compiler, Expression E, class T, class Op>
T reduce(const E& expression, T init, Op op, const reduce_options& options = {}) {
  return detail::with_bound_map<Compiler>(
      expression, options, "reduce", init,
      [&](const executor& chosen, index_range range, const auto& map, const exec::loop_shape& shape,
          const exec::loop_label& label, T carry) {
        return exec::transform_reduce<Compiler>(chosen, range.begin, range.end, carry, map, op,
                                                shape, label);
      });
}

// The exact, not yet rounded, sum: what the comm layer merges across ranks.
template <class Compiler = exec::this_compiler, Expression E>
exact_sum exact_sum_of(const E& expression, const reduce_options& options = {}) {
  static_assert(std::is_arithmetic_v<expr_value_t<E>>,
                "funcmesh::exact_sum_of: exact sums are of numbers (sum(e, {.reproducible = "
                "true}) sums vec values per component)");
  return detail::with_bound_map<Compiler>(
      expression, options, "reproducible sum", exact_sum{},
      [&](const executor& chosen, index_range range, const auto& map, const exec::loop_shape& shape,
          const exec::loop_label& label, const exact_sum& carry) {
        using map_type = std::remove_cvref_t<decltype(map)>;
        exact_sum total = exec::accumulate<Compiler, exact_sum>(
            chosen, range.begin, range.end, detail::exact_add<map_type>{map}, shape, label);
        total.merge(carry);  // exact: the pages' partial sums in any grouping, same bits
        return total;
      });
}

template <class Compiler = exec::this_compiler, Expression E>
expr_value_t<E> sum(const E& expression, const reduce_options& options = {}) {
  using value = expr_value_t<E>;
  if (options.reproducible) {
    if constexpr (std::is_floating_point_v<value>) {
      return static_cast<value>(exact_sum_of<Compiler>(expression, options).value());
    } else if constexpr (detail::is_vec_v<value>) {
      return detail::per_component<value>([&](const auto& c) { return sum<Compiler>(c, options); },
                                          expression);
    }
  }
  return reduce<Compiler>(expression, value{}, ops::plus{}, options);
}

template <class Compiler = exec::this_compiler, Expression E>
expr_value_t<E> min(const E& expression, const reduce_options& options = {}) {
  using value = expr_value_t<E>;
  if constexpr (detail::is_vec_v<value>) {
    return detail::per_component<value>([&](const auto& c) { return min<Compiler>(c, options); },
                                        expression);
  } else {
    static_assert(std::is_arithmetic_v<value>,
                  "funcmesh::min of an expression of numbers or vec values of numbers");
    return reduce<Compiler>(expression,
                            std::numeric_limits<value>::has_infinity
                                ? std::numeric_limits<value>::infinity()
                                : std::numeric_limits<value>::max(),
                            detail::ordered_minimum{}, options);
  }
}

template <class Compiler = exec::this_compiler, Expression E>
expr_value_t<E> max(const E& expression, const reduce_options& options = {}) {
  using value = expr_value_t<E>;
  if constexpr (detail::is_vec_v<value>) {
    return detail::per_component<value>([&](const auto& c) { return max<Compiler>(c, options); },
                                        expression);
  } else {
    static_assert(std::is_arithmetic_v<value>,
                  "funcmesh::max of an expression of numbers or vec values of numbers");
    return reduce<Compiler>(expression,
                            std::numeric_limits<value>::has_infinity
                                ? -std::numeric_limits<value>::infinity()
                                : std::numeric_limits<value>::lowest(),
                            detail::ordered_maximum{}, options);
  }
}

template <class Compiler = exec::this_compiler, Expression E>
minmax_result<expr_value_t<E>> minmax(const E& expression, const reduce_options& options = {}) {
  using value = expr_value_t<E>;
  static_assert(std::is_arithmetic_v<value>,
                "funcmesh::minmax of an expression of numbers (min and max reduce vec values "
                "per component)");
  constexpr value high = std::numeric_limits<value>::has_infinity
                             ? std::numeric_limits<value>::infinity()
                             : std::numeric_limits<value>::max();
  constexpr value low = std::numeric_limits<value>::has_infinity
                            ? -std::numeric_limits<value>::infinity()
                            : std::numeric_limits<value>::lowest();
  return detail::with_bound_map<Compiler>(
      expression, options, "minmax", minmax_result<value>{high, low},
      [&](const executor& chosen, index_range range, const auto& map, const exec::loop_shape& shape,
          const exec::loop_label& label, const minmax_result<value>& carry) {
        using map_type = std::remove_cvref_t<decltype(map)>;
        return exec::transform_reduce<Compiler>(chosen, range.begin, range.end, carry,
                                                detail::duplicate<map_type>{map},
                                                detail::minmax_combine{}, shape, label);
      });
}

// sum of a * b at every index; norm2 = sqrt(sum of squares).
template <class Compiler = exec::this_compiler, Expression A, Expression B>
auto dot(const A& a, const B& b, const reduce_options& options = {}) {
  return sum<Compiler>(a * b, options);
}

template <class Compiler = exec::this_compiler, Expression A>
auto norm2(const A& a, const reduce_options& options = {}) {
  using std::sqrt;
  return sqrt(sum<Compiler>(a * a, options));
}

}  // namespace funcmesh
