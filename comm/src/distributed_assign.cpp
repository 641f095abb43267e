// The non-template checks of distributed assignments.
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distributed_assign.hpp>

#include <string>

#include <funcmesh/comm/mpi_error.hpp>

namespace funcmesh::detail {

void check_distributed_space(const run_options& options) {
  if (options.over.what() == iteration_space::kind::owned) return;
  throw error(
      "funcmesh: a distributed assignment runs over the owned cells (their halo copies are "
      "the owners' to compute and send); for another iteration space, assign to u.local_values()");
}

void check_target_sizes(const distributed_layout& layout, const grid_function_base& target) {
  if (target.owned_size() == layout.owned_count() && target.total_size() == layout.total_count()) {
    return;
  }
  throw error(mpi::rank_prefix() + "funcmesh: a distributed assignment on " + layout.describe() +
              " writes " + target.describe() + " of " + std::to_string(target.owned_size()) +
              " owned / " + std::to_string(target.total_size()) +
              " values; the layout's part here has " + std::to_string(layout.owned_count()) +
              " / " + std::to_string(layout.total_count()));
}

void check_target_layout(const distributed_layout& layout, const halo_state* target) {
  if (target == nullptr || target->layout() == layout) return;
  throw error("funcmesh::assign: one fused loop assigns " + target->describe() + " on " +
              target->layout().describe() + " and a function on " + layout.describe() +
              ": the targets of one loop must share one layout");
}

void refuse_moved_from_dist_function() {
  throw error(
      "funcmesh: use of a moved-from dist_function (it has no layout and no values until it "
      "is given a function: u = v or u = std::move(v))");
}

}  // namespace funcmesh::detail
