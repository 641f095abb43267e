// Assignments to distributed functions: the statements set(u, e), add_to(u, e), ... on a
// dist_function, the fused run(options, s...) that takes them, and the one path every such
// assignment follows (comm/README.md lists it step by step): visit the expression for the
// halos it reads at neighbours, keep the dirty ones, and if any, exchange them around the
// owned-interior cells.
#pragma once

#include <exception>
#include <type_traits>

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/halo_progress.hpp>
#include <funcmesh/comm/halo_state.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/exec/backend.hpp>
#include <funcmesh/expr/assign.hpp>
#include <funcmesh/expr/grid_read.hpp>

namespace funcmesh {

// A framework statement whose target is a distributed function's local values.
template <class S>
struct dist_statement {
  S statement;
  halo_state* target;
};

template <class S>
inline constexpr bool is_dist_statement_v = false;
template <class S>
inline constexpr bool is_dist_statement_v<dist_statement<S>> = true;

namespace detail {

template <class S>
const auto& plain_statement(const S& s) {
  if constexpr (is_dist_statement_v<S>) {
    return s.statement;
  } else {
    return s;
  }
}

// Refuses a non-default iteration space: a distributed assignment computes the owned cells
// (the halo is the owners' to compute and to send).
void check_distributed_space(const run_options& options);
// Throws unless `target` has the layout's owned and total counts (a plain grid function in a
// fused run with distributed targets).
void check_target_sizes(const distributed_layout& layout, const grid_function_base& target);
// Throws unless the distributed target `s` (if it is one) is on `layout`.
void check_target_layout(const distributed_layout& layout, const halo_state* target);

// Steps 4-5, after keep_dirty: with no dirty halo among `reads`, loop(owned(), whole) alone,
// no message. Otherwise the round is begun, loop(range(0, interior), chunks) overlaps it
// (one bound loop run in chunks, the round let progress between them: halo_progress.hpp),
// the round is ended (also when that loop throws: the peers' messages still arrive, and
// the loop's failure is the one reported), then loop(range(interior, owned), whole).
// loop(over, pieces) runs over `over`, pieces(range, piece) calling piece(sub) per piece.
template <class Loop>
void halo_round_in_pieces(const distributed_layout& layout, const halo_reads& reads,
                          const executor& on, const Loop& loop) {
  if (reads.empty()) {
    loop(iteration_space::owned(), whole_range{});
    return;
  }
  begin_round(layout, reads, on);
  try {
    const index_t interior = layout.interior_count();
    const index_t chunks = progress_chunk_count(interior);
    loop(iteration_space::range(0, interior), [&](index_range, const auto& piece) {
      for (index_t k = 0; k < chunks; ++k) {
        if (k > 0) progress_round(layout);
        piece(index_range{chunk_begin(interior, chunks, k), chunk_begin(interior, chunks, k + 1)});
      }
    });
  } catch (...) {
    try {
      end_round(layout, reads, on);
    } catch (...) {
    }
    throw;
  }
  end_round(layout, reads, on);
  loop(iteration_space::range(layout.interior_count(), layout.owned_count()), whole_range{});
}

// The same for a loop(over) that binds per call (paged assignments bind page by page).
template <class Loop>
void around_halo_round(const distributed_layout& layout, const halo_reads& reads,
                       const executor& on, const Loop& loop) {
  halo_round_in_pieces(layout, reads, on, [&](const iteration_space& over, const auto& pieces) {
    if (over.what() == iteration_space::kind::owned) {
      loop(over);
      return;
    }
    pieces(over.resolve_unbounded(),
           [&](index_range piece) { loop(iteration_space::range(piece)); });
  });
}

// Step 2: visits every statement's expression once: refuses a target read through a
// proxy and a distributed function of another layout, and collects the halos read at
// neighbours. Nothing has been sent yet, so an error leaves no round in flight.
template <class... S>
void collect_halo_reads(const distributed_layout& layout, halo_reads& reads,
                        const S&... statements) {
  auto visit_one = [&](const auto& s) {
    auto reader = [&s] { return "an assignment to " + s.target->describe(); };
    auto visitor = [&](const grid_read& read) {
      (check_not_aliased(*statements.target, read), ...);
      note_halo_read(layout, read, reads, reader, "funcmesh");
    };
    s.expression.visit(visitor);
  };
  (visit_one(statements), ...);
}

// Steps 2-5 for framework statements whose targets have `layout`'s sizes.
template <class Compiler, class... S>
void run_distributed(const run_options& options, const distributed_layout& layout,
                     const S&... statements) {
  check_distributed_space(options);
  halo_reads reads;
  // Everything the loops would refuse is checked here, before any message. Aliasing and
  // layouts are alike on every rank: thrown as they are. Sizes are a rank's own part's:
  // kept for keep_dirty, which agrees on them with the check on.
  collect_halo_reads(layout, reads, statements...);
  std::exception_ptr failure;
  try {
    (check_target_sizes(layout, *statements.target), ...);
    (check_reads(statements, layout.owned_count(), statements...), ...);
  } catch (...) {
    failure = std::current_exception();
  }
  keep_dirty(layout, reads, "funcmesh: a distributed assignment", failure, true);
  const executor on = options.on.value_or(default_executor<Compiler>());
  // One bound loop per piece of the round: the chunks of the interior share one.
  halo_round_in_pieces(layout, reads, on, [&](const iteration_space& over, const auto& pieces) {
    run_in_pieces<Compiler>(run_options{.on = on, .over = over}, pieces, statements...);
  });
}

template <class S, class... Rest>
const halo_state& first_distributed_target(const S& s, const Rest&... rest) {
  if constexpr (is_dist_statement_v<S>) {
    return *s.target;
  } else {
    return first_distributed_target(rest...);
  }
}

template <class S>
const halo_state* target_of(const S& s) {
  if constexpr (is_dist_statement_v<S>) {
    return s.target;
  } else {
    return nullptr;
  }
}

}  // namespace detail

// Runs the statements in one loop, as the framework's run does, over the owned cells of the
// first distributed target's layout: halos the statements read at neighbours are exchanged
// first when dirty, overlapped with the owned-interior cells. Statements on plain grid
// functions may join (they must have the layout's sizes). Collective over the layout.
template <class Compiler = exec::this_compiler, class... S>
requires(((is_dist_statement_v<S> || is_statement_v<S>)&&...) &&
         (is_dist_statement_v<S> || ...)) void run(const run_options& options,
                                                   const S&... statements) {
  const distributed_layout& layout = detail::first_distributed_target(statements...).layout();
  (detail::check_target_layout(layout, detail::target_of(statements)), ...);
  detail::run_distributed<Compiler>(options, layout, detail::plain_statement(statements)...);
}

}  // namespace funcmesh
