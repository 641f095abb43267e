// Reductions over expressions that read paged grid functions: reduce.hpp's
// piecewise_reduction specialized for them, page by page on a host executor, so sum(u),
// min(u), ... of a paged u give the same results (reproducible sums bitwise) as in memory.
#pragma once

#include <string>
#include <type_traits>

#include <funcmesh/paged/detail/page_loop.hpp>
#include <funcmesh/reduce/reduce.hpp>

namespace funcmesh::detail {

// Each page's windows mapped and the expression bound to them, its result the next page's
// carry, so init enters once and a serial reduction is the same left fold as over memory.
// Exact sums merge exactly, hence the same bits on every executor.
template <class Node>
struct piecewise_reduction<Node, std::enable_if_t<binds_paged_v<Node>>> {
  static constexpr bool applies = true;

  template <class T, class Run>
  static T run(const Node& node, const reduce_options& options, const char* what, T carry,
               const Run& run, const exec::loop_shape& shape) {
    reduction_extent extent;
    node.visit(extent);  // every read of the same size
    page_binding pages(nullptr, std::string("a ") + what + " over paged grid functions");
    node.visit(pages);
    const index_range range = pages.resolve(options.over, pages.walked());
    const executor chosen = pages.host_executor(options.on, Node::serial_only);
    for_each_read_page(pages, range, [&](index_range piece, binder& b) {
      const auto bound = node.bind_to(b);
      carry = run(chosen, piece, evaluate_at<std::remove_cv_t<decltype(bound)>>{bound}, shape,
                  exec::loop_label{what}, carry);
    });
    return carry;
  }
};

}  // namespace funcmesh::detail
