// Assignment statements and the one parallel loop that runs them: set(u, e) (u = e),
// add_to(u, e) (u += e), ...; run(options, s1, s2, ...) runs several statements fused in
// one loop, in order at each index, over the owned range unless told otherwise.
//
// A target read through a proxy by any statement of the loop is refused with
// aliasing_error (other iterations would read values being overwritten); reading a target
// at the index being written (u = 2 * u) is fine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include <funcmesh/exec/dispatch.hpp>
#include <funcmesh/expr/detail/pack.hpp>
#include <funcmesh/expr/grid_expression.hpp>
#include <funcmesh/expr/grid_read.hpp>
#include <funcmesh/expr/iteration_space.hpp>

namespace funcmesh {

namespace assign_ops {
struct set {
  template <class T, class V>
  FUNCMESH_DEVICE constexpr void operator()(T& target, const V& value) const {
    target = static_cast<T>(value);
  }
};
struct add {
  template <class T, class V>
  FUNCMESH_DEVICE constexpr void operator()(T& target, const V& value) const {
    target = static_cast<T>(target + value);
  }
};
struct subtract {
  template <class T, class V>
  FUNCMESH_DEVICE constexpr void operator()(T& target, const V& value) const {
    target = static_cast<T>(target - value);
  }
};
struct multiply {
  template <class T, class V>
  FUNCMESH_DEVICE constexpr void operator()(T& target, const V& value) const {
    target = static_cast<T>(target * value);
  }
};
struct divide {
  template <class T, class V>
  FUNCMESH_DEVICE constexpr void operator()(T& target, const V& value) const {
    target = static_cast<T>(target / value);
  }
};
}  // namespace assign_ops

// target op= expression, not yet run.
template <class T, class Tag, class E, class Op>
struct statement;

template <class S>
inline constexpr bool is_statement_v = false;
template <class T, class Tag, class E, class Op>
inline constexpr bool is_statement_v<statement<T, Tag, E, Op>> = true;

template <class T, class Tag, class E, class Op>
struct statement {
  using target_type = grid_function<T, Tag>;
  using expression_type = E;
  using operation = Op;
  static_assert(std::is_same_v<typename E::tag_type, Tag> ||
                    std::is_same_v<typename E::tag_type, any_tag>,
                "funcmesh: the expression's grid kind differs from the target's (assigning "
                "a faces expression to a cells function, for example)");
  static_assert(std::is_convertible_v<typename E::value_type, T> ||
                    std::is_constructible_v<T, typename E::value_type>,
                "funcmesh: the expression's value type does not convert to the target's");

  target_type* target;
  E expression;
};

#define FUNCMESH_STATEMENT(name, op)                                                   \
  template <class T, class Tag, class E>                                               \
  auto name(grid_function<T, Tag>& target, const E& expression) {                      \
    return statement<T, Tag, node_t<E>, assign_ops::op>{&target, as_node(expression)}; \
  }
FUNCMESH_STATEMENT(set, set)
FUNCMESH_STATEMENT(add_to, add)
FUNCMESH_STATEMENT(subtract_from, subtract)
FUNCMESH_STATEMENT(multiply_by, multiply)
FUNCMESH_STATEMENT(divide_by, divide)
#undef FUNCMESH_STATEMENT

namespace detail {

// Whether an expression sums over faces (a face set's extent among its reads).
template <class E>
bool runs_face_loop(const E& expression) {
  bool found = false;
  auto visitor = [&found](const grid_read& read) { found = found || read.face_loop; };
  expression.visit(visitor);
  return found;
}

// What the kernel runs for one statement: the target's view and the bound expression.
template <class T, class Op, class Bound>
struct bound_statement {
  view<T> target;
  Bound expression;
  FUNCMESH_DEVICE void operator()(index_t i) const { Op{}(target[i], expression[i]); }
};

template <class... Statements>
struct fused_body {
  pack<Statements...> statements;
  FUNCMESH_DEVICE void operator()(index_t i) const {
    run_at(i, std::index_sequence_for<Statements...>{});
  }
  template <std::size_t... I>
  FUNCMESH_DEVICE void run_at(index_t i, std::index_sequence<I...>) const {
    (get<I>(statements)(i), ...);
  }
};

// The loop counter k visits list[k].
template <class Body>
struct listed_body {
  Body body;
  view<const index_t> list;
  FUNCMESH_DEVICE void operator()(index_t k) const { body(list[k]); }
};

// Whether s's expression reads `target` (at any index, through any mode).
template <class S>
bool reads_target(const S& s, const grid_function_base& target) {
  bool reads = false;
  auto visitor = [&](const grid_read& read) {
    reads = reads ||
            (read.function != nullptr && read.function->storage().shares_with(target.storage()));
  };
  s.expression.visit(visitor);
  return reads;
}

void check_read_size(const grid_read& read, index_t needed, const grid_function_base& target);

// Refuses targets read through proxies, and grid functions read at the loop's indices
// that have fewer than `needed` values (a smaller function would be read past its end).
template <class S, class... All>
void check_reads(const S& s, index_t needed, const All&... all) {
  auto visitor = [&](const grid_read& read) {
    (check_not_aliased(*all.target, read), ...);
    if (read.mode == read_mode::own_index) check_read_size(read, needed, *s.target);
  };
  s.expression.visit(visitor);
}

void check_fused_sizes(const grid_function_base& first, const grid_function_base& other);

// A target's old values need not be copied in (to the executor's space) when the loop
// covers it whole and none of them is ever read: every statement on it is a plain set and
// no statement of the loop, earlier or later, reads it. Deciding this per statement would
// let `set(w, u), set(u, 1)` skip copying in the u that the first statement reads.
template <class S, class... All>
auto bind_statement(const S& s, binder& b, bool whole_target, const All&... all) {
  using T = typename S::target_type::value_type;
  grid_function_base& target = *s.target;
  const auto keeps_old_values = [&](const auto& other) {
    const bool same_target = other.target->storage().shares_with(target.storage());
    using other_op = typename std::remove_cvref_t<decltype(other)>::operation;
    return reads_target(other, target) ||
           (same_target && !std::is_same_v<other_op, assign_ops::set>);
  };
  const bool overwrite = whole_target && std::is_same_v<typename S::operation, assign_ops::set> &&
                         !(keeps_old_values(all) || ...);
  auto* pointer = static_cast<T*>(b.bind_target(target, overwrite));
  return pointer;
}

template <class S>
using bound_statement_t =
    bound_statement<typename S::target_type::value_type, typename S::operation,
                    decltype(std::declval<const typename S::expression_type&>().bind_to(
                        std::declval<binder&>()))>;

template <class Targets, std::size_t... I, class... S>
auto make_fused_body(binder& b, const Targets& targets, std::index_sequence<I...>,
                     const S&... statements) {
  return fused_body<bound_statement_t<S>...>{make_pack(bound_statement_t<S>{
      view<typename S::target_type::value_type>(get<I>(targets), statements.target->total_size()),
      statements.expression.bind_to(b)}...)};
}

}  // namespace detail

// What the pieces of a run share: the executor its loop runs on (the one asked for, or the
// host's serial one for serial-only work: its memory space is the views') and the token
// that holds the buffers the loop is bound to.
struct loop_hold {
  executor on;
  token& holder;
};

namespace detail {
// Statements bound for a loop in this process (each run binds once, whatever its pieces):
// for tests that count the set-up a loop repeats.
std::uint64_t loop_binds() noexcept;
void count_loop_bind() noexcept;

// The pieces of a run that takes its range whole.
struct whole_range {
  template <class Piece>
  void operator()(index_range range, const Piece& piece, const loop_hold&) const {
    piece(range);
  }
};
}  // namespace detail

// run, with the range run piece by piece by the caller: the statements are checked and
// bound once, then pieces(range, piece, hold) calls piece(sub) for sub-ranges of
// options.over's range (in order, none overlapping; not for lists), each one loop on the
// executor. Between pieces the caller may do other work on the host (a distributed
// assignment lets its halo round progress), provided it touches no buffer the statements
// use, with one exception: it may write a buffer the statements only read (never a
// target) through hold.holder, in hold.on's memory space (a halo round's unpack: the
// pointer the loop's views hold stays, and the later pieces read the new values). The
// targets count as written once, after the last piece, or when a piece throws.
template <class Compiler = exec::this_compiler, class Pieces, class... S>
requires(is_statement_v<S>&&...) void run_in_pieces(const run_options& options,
                                                    const Pieces& pieces, const S&... statements) {
  static_assert(sizeof...(S) > 0, "funcmesh::run needs at least one statement");
  const auto& first = *std::get<0>(std::forward_as_tuple(statements...)).target;
  (detail::check_fused_sizes(first, *statements.target), ...);

  constexpr bool serial_only = (S::expression_type::serial_only || ...);
  // Each statement reads what its expression reads and writes one value.
  constexpr exec::loop_shape shape{serial_only, ((S::expression_type::work + 1) + ...)};
  const executor chosen =
      exec::effective_executor(options.on.value_or(default_executor<Compiler>()), serial_only);
  const index_range range = options.over.resolve(first);
  const bool listed = options.over.what() == iteration_space::kind::list;
  const bool whole = !listed && range.begin == 0 && range.end == first.total_size();
  // A list may name any index of the target: its readers need as many values.
  const index_t needed = listed ? first.total_size() : range.end;
  (detail::check_reads(statements, needed, statements...), ...);

  exec::loop_label label{"assignment to", &first.name(), sizeof...(S)};
  // Only while profiling: a loop that sums over faces gets a row that says so (the gather
  // form's face loops are the assignments of their sums).
  if (profile::active()) [[unlikely]] {
    if ((detail::runs_face_loop(statements.expression) || ...)) {
      label.what = "face loop: assignment to";
    }
  }
  // The copies that binding makes on a device count under this loop.
  const device_activity_scope activity(label);
  token holder;
  binder b(chosen.space(), holder);
  // Targets first, so that reads of a target reuse its writable pointer.
  auto targets = detail::make_pack(detail::bind_statement(statements, b, whole, statements...)...);
  auto body = detail::make_fused_body(b, targets, std::index_sequence_for<S...>{}, statements...);
  detail::count_loop_bind();

  if (listed) {
    const array<index_t>& list = *options.over.indices();
    detail::listed_body<decltype(body)> listed_loop{body, list.read_view(chosen.space(), holder)};
    exec::for_each<Compiler>(chosen, range.begin, range.end, listed_loop, shape, label);
  } else {
    const loop_hold hold{chosen, holder};
    try {
      pieces(
          range,
          [&](index_range piece) {
            exec::for_each<Compiler>(chosen, piece.begin, piece.end, body, shape, label);
          },
          hold);
    } catch (...) {
      // Pieces before the failure may have written: their halos must not look clean.
      (statements.target->mark_written(), ...);
      throw;
    }
  }
  (statements.target->mark_written(), ...);
}

// Runs the statements in one loop on options.on (the default executor when empty) over
// options.over, resolved against the first statement's target. Every target must have the
// same sizes. Returns when the values are written. (Statements on distributed functions
// have their own run in the comm layer, which exchanges halos around this one.)
template <class Compiler = exec::this_compiler, class... S>
requires(is_statement_v<S>&&...) void run(const run_options& options, const S&... statements) {
  run_in_pieces<Compiler>(options, detail::whole_range{}, statements...);
}

}  // namespace funcmesh
