// The non-template checks of distributed assignments.
#include <funcmesh/comm/distributed_assign.hpp>

#include <string>

namespace funcmesh::detail {

void check_distributed_space(const run_options& options) {
  if (options.over.what() == iteration_space::kind::owned) return;
  throw error(
      "funcmesh: a distributed assignment runs over the owned cells (their halo copies are "
      "the owners' to compute and send); for another iteration space, assign to u.local()");
}

void check_target_layout(const distributed_layout& layout, const halo_state* target) {
  if (target == nullptr || target->layout() == layout) return;
  throw error("funcmesh: one fused loop assigns " + target->function().describe() + " on " +
              target->layout().describe() + " and a function on " + layout.describe() +
              ": the targets of one loop must share one layout");
}

}  // namespace funcmesh::detail
