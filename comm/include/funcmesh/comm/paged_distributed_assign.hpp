// Assignments to paged distributed functions: the path of distributed_assign.hpp (collect
// the halos read at neighbours, keep the dirty ones, exchange them around the owned-
// interior cells) with each of the loops run page by page (paged/paged_assign.hpp).
#pragma once

#include <exception>
#include <string>
#include <type_traits>

#include <funcmesh/comm/distributed_assign.hpp>
#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/halo_state.hpp>
#include <funcmesh/exec/backend.hpp>
#include <funcmesh/paged/detail/page_binding.hpp>
#include <funcmesh/paged/paged_assign.hpp>

namespace funcmesh {

template <class T, class Tag>
class paged_grid_function;

namespace detail {

// Throws unless the paged target has the layout's owned and total counts.
void check_paged_target(const distributed_layout& layout, const paged_function_base& target);

// target op= expression over the owned cells of `layout`. Everything the page loops would
// refuse (a proxy read of the target, short operands, a device executor, sizes) is checked
// before any message, and agreed across ranks when the SPMD check is on.
template <class Op, class T, class Tag, class E>
void assign_paged_distributed(const distributed_layout& layout, paged_grid_function<T, Tag>& target,
                              const E& expression, const run_options& options) {
  check_distributed_space(options, false);
  const auto node = as_node(expression);
  using node_type = std::remove_cvref_t<decltype(node)>;
  halo_reads reads;
  std::exception_ptr failure;
  try {
    auto reader = [&target] { return paged_assignment_name(target); };
    auto visitor = [&](const grid_read& read) {
      note_halo_read(layout, read, reads, reader, "funcmesh");
    };
    node.visit(visitor);
  } catch (...) {
    failure = std::current_exception();
  }
  executor on = default_executor<exec::host_compiler>();
  if (!failure) {
    try {
      check_paged_target(layout, target);
      page_binding pages(&target, paged_assignment_name(target));
      node.visit(pages);
      pages.check(layout.owned_count());
      on = pages.host_executor(options.on, node_type::serial_only);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  keep_dirty(layout, reads, "funcmesh: a distributed assignment", failure, true);
  around_halo_round(layout, reads, on, [&](const iteration_space& over) {
    assign_pages<Op>(target, expression, run_options{.on = on, .over = over});
  });
}

}  // namespace detail
}  // namespace funcmesh
