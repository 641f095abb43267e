// Assignment to a paged grid function, page by page: each page of the target mapped in
// place in its cache, every other paged function read mapped over the same range, and the
// expression computed there by the executor before the next page. u = e, u += e, ... and
// assign(u, e, {.on, .over}) all come here.
#pragma once

#include <algorithm>
#include <atomic>
#include <limits>
#include <string>
#include <type_traits>

#include <funcmesh/exec/dispatch.hpp>
#include <funcmesh/exec/thread_policy.hpp>
#include <funcmesh/expr/assign.hpp>
#include <funcmesh/expr/grid_expression.hpp>
#include <funcmesh/expr/iteration_space.hpp>
#include <funcmesh/paged/detail/page_loop.hpp>
#include <funcmesh/paged/paged_expression.hpp>

namespace funcmesh {

namespace detail {

// What the executor runs for one page: chunks of paged_chunk indices of [first, last),
// element i of the target at page[i - page_begin]. Each chunk works on a local copy of the
// bound expression: a local whose address never escapes stays in registers (the stores to
// the page cannot alias it), so the compiler unswitches on the windows' completeness and
// a function read only at the loop's own indices costs a plain load, vectorized.
inline constexpr index_t paged_chunk = 512;

template <class T, class Op, class Bound>
struct paged_statement_body {
  T* page;
  index_t page_begin;
  index_t first;
  index_t last;
  Bound expression;
  FUNCMESH_DEVICE void operator()(index_t chunk) const {
    const Bound local = expression;
    T* const out = page;
    const index_t begin = first + chunk * paged_chunk;
    const index_t end = last - begin < paged_chunk ? last : begin + paged_chunk;
    for (index_t i = begin; i < end; ++i) Op{}(out[i - page_begin], local[i]);
  }
};

std::string paged_assignment_name(const paged_function_base& target);

// One page of an assignment: `piece`, within one of the target's pages, the other paged reads
// mapped first (their I/O outside the target's lock), then the target's page mapped in
// place and the expression computed there on `on`.
template <class Op, class T, class Node>
void assign_one_page(paged_array<T>& array, page_binding& pages, const Node& node,
                     index_range piece, bool overwrite, const executor& on,
                     const exec::loop_label& label) {
  const index_t first = piece.begin, last = piece.end;
  using node_type = std::remove_cvref_t<Node>;
  // Per chunk: what the thread policy weighs against its minimum size.
  constexpr exec::loop_shape shape{node_type::serial_only, (node_type::work + 1) * paged_chunk};
  const index_t page = array.page_size();
  const index_t p = first / page;
  const index_t page_begin = p * page;
  const index_t page_end = std::min(array.size(), page_begin + page);
  const bool whole = first == page_begin && last == page_end;
  pages.map({first, last});
  array.map_page(p, overwrite && whole ? page_access::overwrite : page_access::write,
                 [&](T* data, index_t) {
                   pages.map_target(data, page_begin, page_end);
                   token holder;
                   binder b(host_space, holder);
                   b.set_pages(&pages);
                   const auto bound = node.bind_to(b);
                   const paged_statement_body<T, Op, std::remove_cv_t<decltype(bound)>> body{
                       data, page_begin, first, last, bound};
                   const index_t chunks = (last - first + paged_chunk - 1) / paged_chunk;
                   exec::for_each<exec::host_compiler>(on, 0, chunks, body, shape, label);
                 });
}

// target op= expression over options.over (the whole function by default) on a host
// executor. In memory (every page fits the cache, or one thread), pages go in index order
// and the executor's threads share each page. Out of core on several threads, the threads
// take whole pages (the next one free, each computed serially), so that their transfers
// run side by side, as the computation does. Either way the target's page is held (its
// channel locked) while it is computed, and nothing in the body takes that lock: reading
// the target through a proxy is refused, and other paged functions are read from copies
// or through their own caches. Every element is computed as in memory: the same bits.
template <class Op, class T, class Tag, class E>
void assign_pages(paged_grid_function<T, Tag>& target, const E& expression,
                  const run_options& options) {
  const auto node = as_node(expression);
  using node_type = std::remove_cvref_t<decltype(node)>;
  static_assert(std::is_same_v<typename node_type::tag_type, Tag> ||
                    std::is_same_v<typename node_type::tag_type, any_tag>,
                "funcmesh: the expression's grid kind differs from the paged target's");
  static_assert(std::is_convertible_v<typename node_type::value_type, T> ||
                    std::is_constructible_v<T, typename node_type::value_type>,
                "funcmesh: the expression's value type does not convert to the target's");

  page_binding pages(&target, paged_assignment_name(target));
  node.visit(pages);
  const index_range range = pages.resolve(options.over, target);
  pages.check(range.end);
  const executor chosen = pages.host_executor(options.on, node_type::serial_only);
  const exec::loop_label label{"assignment to paged", &target.name(), 1};
  // A plain set that never reads the target overwrites whole pages: a page that is not
  // cached is then not read from the store first.
  const bool overwrite = std::is_same_v<Op, assign_ops::set> && !pages.reads_target();

  target.note_write();
  paged_array<T>& array = target.array();
  const index_t page = array.page_size();
  const index_t first_page = range.begin / page;
  const index_t end_page = range.end > range.begin ? (range.end - 1) / page + 1 : first_page;
  const bool out_of_core = array.pages() > array.channels() * array.cached_pages_per_channel();
  const int workers =
      out_of_core && chosen.kind() == executor_kind::openmp
          ? exec::threads_for(range.end - range.begin, node_type::serial_only, node_type::work + 1)
          : 1;
  const auto piece = [&](index_t p) {
    return index_range{std::max(range.begin, p * page), std::min(range.end, (p + 1) * page)};
  };
  if (workers <= 1 || end_page - first_page < 2) {
    for (index_t p = first_page; p < end_page; ++p) {
      assign_one_page<Op>(array, pages, node, piece(p), overwrite, chosen, label);
      // Out of core, each page is written back in the background while the next ones are
      // computed: the victims the sweep evicts are then clean.
      if (out_of_core) array.write_behind(p * page);
    }
    return;
  }
  std::atomic<index_t> next{first_page};
  std::atomic<bool> failed{false};
  const auto worker = [&](index_t) {
    page_binding mine(&target, pages.what());
    node.visit(mine);
    for (index_t p = next++; p < end_page && !failed.load(std::memory_order_relaxed); p = next++) {
      try {
        assign_one_page<Op>(array, mine, node, piece(p), overwrite, executor::serial(), label);
      } catch (...) {
        failed = true;  // the others stop at their next page; the backend rethrows this
        throw;
      }
    }
  };
  // One index per worker: each counts as large enough to get a thread of its own.
  exec::for_each<exec::host_compiler>(
      chosen, 0, std::min<index_t>(workers, end_page - first_page), worker,
      exec::loop_shape{false, std::numeric_limits<index_t>::max()}, label);
}

}  // namespace detail

// assign(u, e, options): u = e over options.over on options.on (a host executor).
template <class T, class Tag, class E>
requires(Expression<E> || Scalar<E>) void assign(paged_grid_function<T, Tag>& target,
                                                 const E& expression,
                                                 const run_options& options = {}) {
  detail::assign_pages<assign_ops::set>(target, expression, options);
}

}  // namespace funcmesh
