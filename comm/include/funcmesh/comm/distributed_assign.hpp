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

// Step 5, after keep_dirty found `reads` dirty: the round is begun, then loop(pieces) runs
// the owned cells through pieces(owned, piece, hold) (run_in_pieces' form): the
// owned-interior cells [0, interior) in up to progress_chunk_count chunks with the round
// let progress between them (halo_progress.hpp), the round ended with the received halos
// written through hold.holder on hold.on (the loop's token and executor: its views see
// them with no second bind), then the cells beside the halo, [interior, owned). When the
// loop fails before the round ended (an interior chunk, its binding), the round is ended
// all the same (the peers' messages still arrive) and the loop's failure is the one
// reported.
template <class Loop>
void halo_round_in_pieces(const distributed_layout& layout, const halo_reads& reads,
                          const executor& on, const Loop& loop) {
  begin_round(layout, reads, on);
  bool ended = false;
  try {
    loop([&](index_range owned, const auto& piece, const loop_hold& hold) {
      const index_t interior = layout.interior_count();
      const index_t chunks = progress_chunk_count(interior);
      for (index_t k = 0; k < chunks; ++k) {
        if (k > 0) progress_round(layout);
        piece(index_range{chunk_begin(interior, chunks, k), chunk_begin(interior, chunks, k + 1)});
      }
      ended = true;  // a failure of the end itself is reported as it is
      end_round(layout, reads, hold.on, &hold.holder);
      piece(index_range{interior, owned.end});
    });
  } catch (...) {
    if (!ended) {
      try {
        end_round(layout, reads, on);
      } catch (...) {
      }
    }
    throw;
  }
}

// The same for a loop(over) that binds per call (paged assignments bind page by page):
// each chunk and the cells beside the halo a call of their own; nothing bound holds the
// halos when the round ends. No dirty read: loop(owned()) alone, no message.
template <class Loop>
void around_halo_round(const distributed_layout& layout, const halo_reads& reads,
                       const executor& on, const Loop& loop) {
  if (reads.empty()) {
    loop(iteration_space::owned());
    return;
  }
  halo_round_in_pieces(layout, reads, on, [&](const auto& pieces) {
    token round;  // the round's end writes the halos with it
    pieces(
        index_range{0, layout.owned_count()},
        [&](index_range piece) {
          round.release();  // each call binds with a token of its own: this one holds nothing
          loop(iteration_space::range(piece));
        },
        loop_hold{on, round});
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
  if (reads.empty()) {  // step 4
    run_in_pieces<Compiler>(run_options{.on = on}, whole_range{}, statements...);
    return;
  }
  // One bound loop for the whole round: the interior's chunks and the cells beside the
  // halo, which the round's end unpacks through the loop's token.
  halo_round_in_pieces(layout, reads, on, [&](const auto& pieces) {
    run_in_pieces<Compiler>(run_options{.on = on}, pieces, statements...);
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
