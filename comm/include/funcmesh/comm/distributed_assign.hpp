// Assignments to distributed functions: the statements set(u, e), add_to(u, e), ... on a
// dist_function, the fused run(options, s...) that takes them, and the one path every such
// assignment follows (comm/README.md lists it step by step): visit the expression for the
// halos it reads at neighbours, keep the dirty ones, and if any, exchange them around the
// owned-interior cells.
#pragma once

#include <array>
#include <exception>
#include <optional>
#include <span>
#include <string>
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

// Refuses an iteration space other than the owned cells (the default) and, where
// `halo_too` (assignments of grid functions), owned_and_halo(): the halo is the owners'
// to compute and send, unless every rank computes its halo cells itself.
void check_distributed_space(const run_options& options, bool halo_too = true);
// Throws: `reader`, over owned and halo cells, reads `read` at neighbours.
[[noreturn]] void refuse_neighbour_read_with_halo(const std::string& reader, const grid_read& read);
// After an assignment over owned and halo cells: its target's halo holds what its owners
// computed (the same expression on the same fresh values), so it is clean.
void mark_halo_computed(halo_state* target);
// Throws unless `target` has the layout's owned and total counts (a plain grid function in a
// fused run with distributed targets).
void check_target_sizes(const distributed_layout& layout, const grid_function_base& target);
// Throws unless the distributed target `s` (if it is one) is on `layout`.
void check_target_layout(const distributed_layout& layout, const halo_state* target);

// Step 5, after keep_dirty found `reads` dirty: the round is begun, then loop(pieces) runs
// the owned cells through pieces(owned, piece, hold) (run_in_pieces' form): the
// owned-interior cells [0, interior) in up to progress_chunk_count chunks with the round
// let progress between them (halo_progress.hpp; one loop on a device or without a
// neighbour), the round ended with the received halos written through hold.holder on
// hold.on (the loop's token and executor: its views see them with no second bind), then the
// cells beside the halo, [interior, owned). When the loop fails before the round ended (an
// interior chunk, its binding), the round is ended all the same (the peers' messages still
// arrive) and the loop's failure is the one reported.
//
// `split`: the cells [0, split) read no halo (the owned-interior cells, the default); an
// assignment over owned and halo cells passes the owned count, and its loop's range then
// ends at the halo's end.
template <class Loop>
void halo_round_in_pieces(const distributed_layout& layout, const halo_reads& reads,
                          const executor& on, const Loop& loop, index_t split = -1) {
  const index_t before = split < 0 ? layout.interior_count() : split;
  begin_round(layout, reads, on);
  bool ended = false;
  try {
    loop([&](index_range range, const auto& piece, const loop_hold& hold) {
      const index_t chunks = progress_chunk_count(layout, on, before);
      for (index_t k = 0; k < chunks; ++k) {
        if (k > 0) progress_round(layout);
        piece(index_range{chunk_begin(before, chunks, k), chunk_begin(before, chunks, k + 1)});
      }
      ended = true;  // a failure of the end itself is reported as it is
      end_round(layout, reads, hold.on, &hold.holder);
      piece(index_range{before, range.end});
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

// Step 2 over owned and halo cells: every read must be of a cell's own value (a halo
// cell's neighbours are not all on this rank): a read at neighbours is refused. Collected:
// the distributed functions whose old values the loop reads, halo included: those the
// expressions read, but for a target an earlier statement of the loop wrote (its new
// value, computed on halo cells too), and the targets of statements other than set
// (`targets`: the statements' distributed targets, null for a plain one; may be empty).
template <class... S>
void collect_own_reads(const distributed_layout& layout, halo_reads& reads,
                       std::span<halo_state* const> targets, const S&... statements) {
  const std::array<const halo_source*, sizeof...(S)> written{statements.target...};
  std::size_t index = 0;
  auto visit_one = [&](const auto& s) {
    auto reader = [&s] { return "an assignment to " + s.target->describe(); };
    auto visitor = [&](const grid_read& read) {
      (check_not_aliased(*statements.target, read), ...);
      if (read.mode == read_mode::proxy) refuse_neighbour_read_with_halo(reader(), read);
      halo_state* const halo = halo_state::of(read);
      if (halo == nullptr) return;
      if (!(halo->layout() == layout)) refuse_mixed_layouts(layout, reader(), read, "funcmesh");
      for (std::size_t k = 0; k < index; ++k) {
        if (written[k] == &halo->source()) return;
      }
      reads.add(halo);
    };
    s.expression.visit(visitor);
    using statement = std::remove_cvref_t<decltype(s)>;
    if (!std::is_same_v<typename statement::operation, assign_ops::set> && index < targets.size() &&
        targets[index] != nullptr) {
      reads.add(targets[index]);  // u op= e reads u's old value at every cell
    }
    ++index;
  };
  (visit_one(statements), ...);
}

// Steps 2-5 for framework statements whose targets have `layout`'s sizes. Over owned and
// halo cells (options.over), the halos the statements read at their own index are the
// ones exchanged when dirty (one round, overlapped with the owned cells, which read none),
// and the loop runs on to the halo's end.
template <class Compiler, class... S>
void run_distributed(const run_options& options, const distributed_layout& layout,
                     std::span<halo_state* const> targets, const S&... statements) {
  check_distributed_space(options);
  const bool with_halo = options.over.what() == iteration_space::kind::owned_and_halo;
  halo_reads reads;
  // Everything the loops would refuse is checked here, before any message. Aliasing and
  // layouts are alike on every rank: thrown as they are. Sizes are a rank's own part's:
  // kept for keep_dirty, which agrees on them with the check on.
  if (with_halo) {
    collect_own_reads(layout, reads, targets, statements...);
  } else {
    collect_halo_reads(layout, reads, statements...);
  }
  std::exception_ptr failure;
  try {
    (check_target_sizes(layout, *statements.target), ...);
    const index_t needed = with_halo ? layout.total_count() : layout.owned_count();
    (check_reads(statements, needed, statements...), ...);
  } catch (...) {
    failure = std::current_exception();
  }
  keep_dirty(layout, reads, "funcmesh: a distributed assignment", failure, true);
  const executor on = options.on.value_or(default_executor<Compiler>());
  const run_options loop{.on = on, .over = options.over};
  if (reads.empty()) {  // step 4
    run_in_pieces<Compiler>(loop, whole_range{}, statements...);
    return;
  }
  // One bound loop for the whole round: the interior's chunks (over owned and halo cells:
  // every owned cell) and the cells after them, which read the halo the round's end
  // unpacks through the loop's token.
  halo_round_in_pieces(
      layout, reads, on,
      [&](const auto& pieces) { run_in_pieces<Compiler>(loop, pieces, statements...); },
      with_halo ? layout.owned_count() : -1);
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
halo_state* target_of(const S& s) {
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
//
// With options.over = iteration_space::owned_and_halo() (or with_halo()), the loop also
// computes the halo cells, and the distributed targets' halos are clean afterwards: no
// round is needed to read them at neighbours. Every read must be of a cell's own value
// (zip_with, sum_over_cell_faces, geometry; a read at neighbours, such as a face sum, is
// refused before any message), and the distributed functions read have their halos
// exchanged first when dirty (one round, overlapped with the owned cells). Worth it when
// the work per halo cell is cheaper than a message's latency (docs/distributed.md).
template <class Compiler = exec::this_compiler, class... S>
requires(((is_dist_statement_v<S> || is_statement_v<S>)&&...) &&
         (is_dist_statement_v<S> || ...)) void run(const run_options& options,
                                                   const S&... statements) {
  const distributed_layout& layout = detail::first_distributed_target(statements...).layout();
  (detail::check_target_layout(layout, detail::target_of(statements)), ...);
  const std::array<halo_state*, sizeof...(S)> targets{detail::target_of(statements)...};
  detail::run_distributed<Compiler>(options, layout, targets,
                                    detail::plain_statement(statements)...);
  if (options.over.what() == iteration_space::kind::owned_and_halo) {
    (detail::mark_halo_computed(detail::target_of(statements)), ...);
  }
}

// run's options for a loop over owned and halo cells: run(with_halo(), set(adt, e)).
inline run_options with_halo(std::optional<executor> on = {}) {
  return run_options{.on = std::move(on), .over = iteration_space::owned_and_halo()};
}

}  // namespace funcmesh
