// The page loop shared by assignments to paged grid functions and reductions over them:
// binds_paged_v (does an expression bind a paged leaf?) and for_each_read_page, which maps
// each page's range and binds the expression to it before the executor runs it there.
#pragma once

#include <algorithm>
#include <type_traits>
#include <utility>

#include <funcmesh/expr/grid_function_base.hpp>
#include <funcmesh/memory/memory_space.hpp>
#include <funcmesh/memory/token.hpp>
#include <funcmesh/paged/detail/page_binding.hpp>
#include <funcmesh/paged/paged_function_base.hpp>

namespace funcmesh {

template <class T, class Tag>
class paged_view;

namespace detail {

// Whether a bound expression type holds a paged_view anywhere in its template arguments
// (zip_expr<F, A, paged_view<...>>, pure_expr<paged_view<...>>, a face sum over one...).
// Decided at compile time, so expressions without paged leaves compile exactly as before.
template <class T>
struct mentions_paged_view : std::false_type {};
template <class T, class Tag>
struct mentions_paged_view<paged_view<T, Tag>> : std::true_type {};
template <template <class...> class Template, class... A>
struct mentions_paged_view<Template<A...>>
    : std::bool_constant<(mentions_paged_view<std::remove_cv_t<A>>::value || ...)> {};

template <class Node>
inline constexpr bool binds_paged_v =
    mentions_paged_view<decltype(std::declval<const Node&>().bind_to(
        std::declval<binder&>()))>::value;

// step(range, binder&) for each piece of `range` within one page of pages.walked(), its
// windows mapped (copies: nothing is written) and the binder pointing at them. Pages go
// in index order on the calling thread; the executor parallelizes within each.
template <class Step>
void for_each_read_page(page_binding& pages, index_range range, const Step& step) {
  const index_t page = pages.walked().page_size();
  for (index_t first = range.begin; first < range.end;) {
    const index_t last = std::min(range.end, (first / page + 1) * page);
    pages.map({first, last});
    token holder;
    binder b(host_space, holder);
    b.set_pages(&pages);
    step(index_range{first, last}, b);
    first = last;
  }
}

}  // namespace detail
}  // namespace funcmesh
