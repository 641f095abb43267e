// Global reductions: the framework's local reduction over this rank's owned values (on
// its executor) followed by one MPI_Allreduce. Reproducible sums merge exact_sum words
// with a custom MPI_Op, so they are bitwise identical for any rank and thread count.
#pragma once

#include <mpi.h>

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include <funcmesh/core/error.hpp>
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

template <class T>
constexpr void check_global_reduction_value() {
  static_assert(std::is_floating_point_v<T> || (std::is_integral_v<T> && std::is_signed_v<T> &&
                                                sizeof(T) <= sizeof(long long)),
                "funcmesh: global reductions are of floating-point or signed integer "
                "expressions (reduce vec values per component)");
}

}  // namespace detail

// Sum over the owned values of every rank. Plain mode: each rank's local sum, then
// MPI_SUM (rounding depends on the rank count). o.reproducible: exact sums merged across
// ranks and rounded once, bitwise identical for any rank count, thread count, executor.
template <class Compiler = exec::this_compiler, Expression E>
expr_value_t<E> global_sum(MPI_Comm comm, const E& expression, const reduce_options& o = {}) {
  using value = expr_value_t<E>;
  detail::check_global_reduction_value<value>();
  detail::refuse_halo_in_global_reduction(o, "global_sum");
  if constexpr (std::is_floating_point_v<value>) {
    if (o.reproducible) {
      return static_cast<value>(
          allreduce_exact(comm, exact_sum_of<Compiler>(expression, o)).value());
    }
  }
  if constexpr (std::is_integral_v<value>) {
    // Integers add up in long long locally and across ranks (a sum of int flags over more
    // than 2^31 cells must not wrap), then must fit the value type again.
    const long long total = allreduce_sum(comm, reduce<Compiler>(expression, 0LL, ops::plus{}, o));
    if (total < std::numeric_limits<value>::min() || total > std::numeric_limits<value>::max()) {
      throw error("funcmesh::global_sum: the sum " + std::to_string(total) +
                  " does not fit the expression's integer type; sum a long long expression");
    }
    return static_cast<value>(total);
  } else {
    return static_cast<value>(
        allreduce_sum(comm, static_cast<double>(sum<Compiler>(expression, o))));
  }
}

// A rank with no owned values contributes the neutral element (+Inf for min of doubles).
template <class Compiler = exec::this_compiler, Expression E>
expr_value_t<E> global_min(MPI_Comm comm, const E& expression, const reduce_options& o = {}) {
  using value = expr_value_t<E>;
  detail::check_global_reduction_value<value>();
  detail::refuse_halo_in_global_reduction(o, "global_min");
  using wire = detail::mpi_reduction_t<value>;
  return static_cast<value>(allreduce_min(comm, static_cast<wire>(min<Compiler>(expression, o))));
}

template <class Compiler = exec::this_compiler, Expression E>
expr_value_t<E> global_max(MPI_Comm comm, const E& expression, const reduce_options& o = {}) {
  using value = expr_value_t<E>;
  detail::check_global_reduction_value<value>();
  detail::refuse_halo_in_global_reduction(o, "global_max");
  using wire = detail::mpi_reduction_t<value>;
  return static_cast<value>(allreduce_max(comm, static_cast<wire>(max<Compiler>(expression, o))));
}

// One local pass and, for floating point, one MPI_Allreduce for both ends.
template <class Compiler = exec::this_compiler, Expression E>
minmax_result<expr_value_t<E>> global_minmax(MPI_Comm comm, const E& expression,
                                             const reduce_options& o = {}) {
  using value = expr_value_t<E>;
  detail::check_global_reduction_value<value>();
  detail::refuse_halo_in_global_reduction(o, "global_minmax");
  const minmax_result<value> local = minmax<Compiler>(expression, o);
  using wire = detail::mpi_reduction_t<value>;
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

// Sum of a * b over every rank's owned values; norm2 = sqrt of the global sum of squares.
template <class Compiler = exec::this_compiler, Expression A, Expression B>
auto global_dot(MPI_Comm comm, const A& a, const B& b, const reduce_options& o = {}) {
  return global_sum<Compiler>(comm, a * b, o);
}

template <class Compiler = exec::this_compiler, Expression A>
auto global_norm2(MPI_Comm comm, const A& a, const reduce_options& o = {}) {
  using std::sqrt;
  return sqrt(global_sum<Compiler>(comm, a * a, o));
}

}  // namespace funcmesh
