// Assignment to a paged grid function, page by page: each page of the target mapped in
// place in its cache, every other paged function read mapped over the same range, and the
// expression computed there by the executor before the next page. u = e, u += e, ... and
// assign(u, e, {.on, .over}) all come here.
#pragma once

#include <algorithm>
#include <string>
#include <type_traits>

#include <funcmesh/exec/dispatch.hpp>
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

// target op= expression over options.over (the whole function by default) on a host
// executor. Pages go in index order; the target's page is held (its channel locked) while
// the executor computes it, and nothing in the body takes that lock: reading the target
// through a proxy is refused, and other paged functions are read from copies or through
// their own caches.
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
  // Per chunk: what the thread policy weighs against its minimum size.
  constexpr exec::loop_shape shape{node_type::serial_only, (node_type::work + 1) * paged_chunk};
  const exec::loop_label label{"assignment to paged", &target.name(), 1};
  // A plain set that never reads the target overwrites whole pages: a page that is not
  // cached is then not read from the store first.
  const bool overwrite = std::is_same_v<Op, assign_ops::set> && !pages.reads_target();

  target.note_write();
  paged_array<T>& array = target.array();
  const index_t page = array.page_size();
  for (index_t first = range.begin; first < range.end;) {
    const index_t p = first / page;
    const index_t page_begin = p * page;
    const index_t page_end = std::min(array.size(), page_begin + page);
    const index_t last = std::min(range.end, page_end);
    const bool whole = first == page_begin && last == page_end;
    array.map_page(p, overwrite && whole ? page_access::overwrite : page_access::write,
                   [&](T* data, index_t) {
                     pages.map({first, last}, data, page_begin, page_end);
                     token holder;
                     binder b(host_space, holder);
                     b.set_pages(&pages);
                     const auto bound = node.bind(b);
                     const paged_statement_body<T, Op, std::remove_cv_t<decltype(bound)>> body{
                         data, page_begin, first, last, bound};
                     const index_t chunks = (last - first + paged_chunk - 1) / paged_chunk;
                     exec::for_each<exec::host_compiler>(chosen, 0, chunks, body, shape, label);
                   });
    first = last;
  }
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
