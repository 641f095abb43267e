// Global reductions over a distributed layout: dirty halos the expression reads at
// neighbours are exchanged first, then the framework's local reduction over this rank's
// owned values (on its executor), then one MPI_Allreduce. Reproducible sums merge
// exact_sum words with a custom MPI_Op, so they are bitwise identical for any rank and
// thread count. global_sum(layout, e), or global_sum(e) with the layout of the
// distributed functions e reads.
#pragma once

#include <mpi.h>

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/halo_state.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/expr/components.hpp>
#include <funcmesh/expr/grid_read.hpp>
#include <funcmesh/reduce/exact_sum.hpp>
#include <funcmesh/reduce/reduce.hpp>

namespace funcmesh {

// The MPI step alone. Every rank of comm must call it (a collective). min and max of
// doubles follow the local reductions' order-independent rule (NaN wins, -0 < +0) rather
// than MPI_MIN/MPI_MAX, whose NaN and signed-zero behaviour MPI leaves open; when ranks
// hold different NaNs, all of them get the same one.
double allreduce_sum(MPI_Comm comm, double value);
long long allreduce_sum(MPI_Comm comm, long long value);
int allreduce_sum(MPI_Comm comm, int value);
double allreduce_min(MPI_Comm comm, double value);
long long allreduce_min(MPI_Comm comm, long long value);
int allreduce_min(MPI_Comm comm, int value);
double allreduce_max(MPI_Comm comm, double value);
long long allreduce_max(MPI_Comm comm, long long value);
int allreduce_max(MPI_Comm comm, int value);
minmax_result<double> allreduce_minmax(MPI_Comm comm, minmax_result<double> value);
// The exact sum over all ranks (special-value flags merged too: +Inf on one rank and -Inf
// on another give NaN). Identical words, hence identical value(), on every rank.
exact_sum allreduce_exact(MPI_Comm comm, const exact_sum& value);

namespace detail {

// Halo entries are copies of other ranks' owned values: reducing over them would count
// those values twice. Options are the same on every rank, so all ranks throw together.
void refuse_halo_in_global_reduction(const reduce_options& options, const char* what);

// The MPI-side type a local result travels as: double for floating point, int or long
// long for signed integers.
template <class T>
using mpi_reduction_t =
    std::conditional_t<std::is_floating_point_v<T>, double,
                       std::conditional_t<std::is_same_v<T, int>, int, long long>>;

// Throws: `call` was given an expression that reads no distributed function.
[[noreturn]] void refuse_no_layout(const char* call);

// The layout of the distributed functions `e` reads (all one layout).
template <class E>
const distributed_layout& layout_read_by(const E& e, const char* call) {
  grid_read first;
  auto visitor = [&](const grid_read& read) {
    const halo_state* halo = halo_state::of(read);
    if (halo == nullptr) return;
    if (first.halo == nullptr) {
      first = read;
    } else if (!(halo->layout() == halo_state::of(first)->layout())) {
      refuse_mixed_layouts(halo_state::of(first)->layout(),
                           "an expression reading " + first.describe(), read, call);
    }
  };
  as_node(e).visit(visitor);
  if (first.halo == nullptr) refuse_no_layout(call);
  return halo_state::of(first)->layout();
}

// Before the local reduction: the dirty halos `e` reads at neighbours, exchanged in one
// round (a reduction of sum_over_faces(..., u) reads u's halo). Collective over `layout`.
template <class Compiler, class E>
void refresh_halos(const distributed_layout& layout, const E& e, const reduce_options& o,
                   const char* call) {
  halo_reads reads;
  auto reader = [] { return std::string("a reduction"); };
  auto visitor = [&](const grid_read& read) { note_halo_read(layout, read, reads, reader, call); };
  as_node(e).visit(visitor);
  exchange_dirty(layout, reads, o.on.value_or(default_executor<Compiler>()), call);
}

template <class T>
constexpr void check_global_reduction_value() {
  using component = vec_component_t<T>;
  static_assert(std::is_floating_point_v<component> ||
                    (std::is_integral_v<component> && std::is_signed_v<component> &&
                     sizeof(component) <= sizeof(long long)),
                "funcmesh: global reductions are of floating-point or signed integer "
                "expressions, or of vec values of those (reduced per component)");
}

}  // namespace detail

// Sum over the owned values of every rank. Plain mode: each rank's local sum, then
// MPI_SUM (rounding depends on the rank count). o.reproducible: exact sums merged across
// ranks and rounded once, bitwise identical for any rank count, thread count, executor.
// Every global reduction of a vec-valued expression reduces each component on its own
// (one pass and one collective per component): global_sum(volume * u) of a vec<double, 3>
// state is the vec of the three totals.
template <class Compiler = exec::this_compiler, Expression E>
expr_value_t<E> global_sum(const distributed_layout& layout, const E& expression,
                           const reduce_options& o = {}) {
  using value = expr_value_t<E>;
  detail::check_global_reduction_value<value>();
  if constexpr (detail::is_vec_v<value>) {
    return detail::per_component<value>(
        [&](const auto& c) { return global_sum<Compiler>(layout, c, o); }, expression);
  } else {
    detail::refuse_halo_in_global_reduction(o, "global_sum");
    detail::refresh_halos<Compiler>(layout, expression, o, "funcmesh::global_sum");
    const MPI_Comm comm = layout.comm();
    if constexpr (std::is_floating_point_v<value>) {
      if (o.reproducible) {
        return static_cast<value>(
            allreduce_exact(comm, exact_sum_of<Compiler>(as_node(expression), o)).value());
      }
    }
    if constexpr (std::is_integral_v<value>) {
      // Integers add up in long long locally and across ranks (a sum of int flags over more
      // than 2^31 cells must not wrap), then must fit the value type again.
      const long long total =
          allreduce_sum(comm, reduce<Compiler>(as_node(expression), 0LL, ops::plus{}, o));
      if (total < std::numeric_limits<value>::min() || total > std::numeric_limits<value>::max()) {
        throw error("funcmesh::global_sum: the sum " + std::to_string(total) +
                    " does not fit the expression's integer type; sum a long long expression");
      }
      return static_cast<value>(total);
    } else {
      return static_cast<value>(
          allreduce_sum(comm, static_cast<double>(sum<Compiler>(as_node(expression), o))));
    }
  }
}

// A rank with no owned values contributes the neutral element (+Inf for min of doubles).
template <class Compiler = exec::this_compiler, Expression E>
expr_value_t<E> global_min(const distributed_layout& layout, const E& expression,
                           const reduce_options& o = {}) {
  using value = expr_value_t<E>;
  detail::check_global_reduction_value<value>();
  if constexpr (detail::is_vec_v<value>) {
    return detail::per_component<value>(
        [&](const auto& c) { return global_min<Compiler>(layout, c, o); }, expression);
  } else {
    detail::refuse_halo_in_global_reduction(o, "global_min");
    detail::refresh_halos<Compiler>(layout, expression, o, "funcmesh::global_min");
    using wire = detail::mpi_reduction_t<value>;
    return static_cast<value>(
        allreduce_min(layout.comm(), static_cast<wire>(min<Compiler>(as_node(expression), o))));
  }
}

template <class Compiler = exec::this_compiler, Expression E>
expr_value_t<E> global_max(const distributed_layout& layout, const E& expression,
                           const reduce_options& o = {}) {
  using value = expr_value_t<E>;
  detail::check_global_reduction_value<value>();
  if constexpr (detail::is_vec_v<value>) {
    return detail::per_component<value>(
        [&](const auto& c) { return global_max<Compiler>(layout, c, o); }, expression);
  } else {
    detail::refuse_halo_in_global_reduction(o, "global_max");
    detail::refresh_halos<Compiler>(layout, expression, o, "funcmesh::global_max");
    using wire = detail::mpi_reduction_t<value>;
    return static_cast<value>(
        allreduce_max(layout.comm(), static_cast<wire>(max<Compiler>(as_node(expression), o))));
  }
}

// One local pass and, for floating point, one MPI_Allreduce for both ends (per component
// of a vec: min and max are then vec values).
template <class Compiler = exec::this_compiler, Expression E>
minmax_result<expr_value_t<E>> global_minmax(const distributed_layout& layout, const E& expression,
                                             const reduce_options& o = {}) {
  using value = expr_value_t<E>;
  detail::check_global_reduction_value<value>();
  if constexpr (detail::is_vec_v<value>) {
    minmax_result<value> result{};
    [&]<int... K>(std::integer_sequence<int, K...>) {
      (
          (void)[&] {
            const auto one = global_minmax<Compiler>(layout, component<K>(expression), o);
            result.min[K] = one.min;
            result.max[K] = one.max;
          }(),
          ...);
    }
    (std::make_integer_sequence<int, value::size()>{});
    return result;
  } else {
    detail::refuse_halo_in_global_reduction(o, "global_minmax");
    detail::refresh_halos<Compiler>(layout, expression, o, "funcmesh::global_minmax");
    const minmax_result<value> local = minmax<Compiler>(as_node(expression), o);
    using wire = detail::mpi_reduction_t<value>;
    const MPI_Comm comm = layout.comm();
    if constexpr (std::is_floating_point_v<value>) {
      const minmax_result<double> global = allreduce_minmax(
          comm,
          minmax_result<double>{static_cast<double>(local.min), static_cast<double>(local.max)});
      return {static_cast<value>(global.min), static_cast<value>(global.max)};
    } else {
      return {static_cast<value>(allreduce_min(comm, static_cast<wire>(local.min))),
              static_cast<value>(allreduce_max(comm, static_cast<wire>(local.max)))};
    }
  }
}

// Sum of a * b over every rank's owned values; norm2 = sqrt of the global sum of squares
// (per component for vec values, as every global reduction).
template <class Compiler = exec::this_compiler, Expression A, Expression B>
auto global_dot(const distributed_layout& layout, const A& a, const B& b,
                const reduce_options& o = {}) {
  return global_sum<Compiler>(layout, a * b, o);
}

template <class Compiler = exec::this_compiler, Expression A>
auto global_norm2(const distributed_layout& layout, const A& a, const reduce_options& o = {}) {
  using std::sqrt;
  auto squares = global_sum<Compiler>(layout, a * a, o);
  if constexpr (detail::is_vec_v<decltype(squares)>) {
    for (int k = 0; k < squares.size(); ++k) squares[k] = sqrt(squares[k]);
    return squares;
  } else {
    return sqrt(squares);
  }
}

// The local reductions (sum, min, max, minmax, reduce, dot, norm2) of a dist_function
// itself would reduce this rank's part alone, silently: a compile error that says what
// to write. (Their values over this rank's cells: sum(u.local_values()).)
#define FUNCMESH_LOCAL_REDUCTION_OF_DIST_FUNCTION(name)                                     \
  template <class Compiler = exec::this_compiler, class T, class Tag, class... Rest>        \
  T name(const dist_function<T, Tag>&, const Rest&...) {                                    \
    static_assert(detail::always_false_v<T>,                                                \
                  "funcmesh::" #name                                                        \
                  "(u) of a dist_function reduces this rank's part only: use global_" #name \
                  "(u) (one value for all ranks), or " #name                                \
                  "(u.local_values()) for this rank's part");                               \
    return T{};                                                                             \
  }
FUNCMESH_LOCAL_REDUCTION_OF_DIST_FUNCTION(sum)
FUNCMESH_LOCAL_REDUCTION_OF_DIST_FUNCTION(min)
FUNCMESH_LOCAL_REDUCTION_OF_DIST_FUNCTION(max)
FUNCMESH_LOCAL_REDUCTION_OF_DIST_FUNCTION(minmax)
FUNCMESH_LOCAL_REDUCTION_OF_DIST_FUNCTION(norm2)
#undef FUNCMESH_LOCAL_REDUCTION_OF_DIST_FUNCTION

// The same over the layout of the distributed functions the expression reads (u, or
// volume * u): global_sum(u), global_norm2(u - v). An expression of no distributed
// function names no ranks: it throws, on every rank alike, asking for the layout.
// global_f(comm, e), the form before layouts, is a compile error saying what to write.
#define FUNCMESH_GLOBAL_REDUCTION_FORMS(name)                                                     \
  template <class Compiler = exec::this_compiler, Expression E>                                   \
  auto name(const E& expression, const reduce_options& o = {}) {                                  \
    return name<Compiler>(detail::layout_read_by(expression, "funcmesh::" #name), expression, o); \
  }                                                                                               \
  template <class Compiler = exec::this_compiler, class E>                                        \
  double name(MPI_Comm, const E&, const reduce_options& = {}) {                                   \
    static_assert(detail::always_false_v<E>,                                                      \
                  "funcmesh::" #name                                                              \
                  "(comm, e) is gone: reductions take the distributed "                           \
                  "layout, " #name "(layout, e), or find it in e, " #name "(e)");                 \
    return 0.0;                                                                                   \
  }
FUNCMESH_GLOBAL_REDUCTION_FORMS(global_sum)
FUNCMESH_GLOBAL_REDUCTION_FORMS(global_min)
FUNCMESH_GLOBAL_REDUCTION_FORMS(global_max)
FUNCMESH_GLOBAL_REDUCTION_FORMS(global_minmax)
FUNCMESH_GLOBAL_REDUCTION_FORMS(global_norm2)
#undef FUNCMESH_GLOBAL_REDUCTION_FORMS

template <class Compiler = exec::this_compiler, Expression A, Expression B>
auto global_dot(const A& a, const B& b, const reduce_options& o = {}) {
  return global_dot<Compiler>(detail::layout_read_by(a * b, "funcmesh::global_dot"), a, b, o);
}

}  // namespace funcmesh
