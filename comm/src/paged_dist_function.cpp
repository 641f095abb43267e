// Paged distributed functions: the checks of their assignments that are not templates.
#include <funcmesh/comm/paged_dist_function.hpp>

#include <string>

#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/error.hpp>

namespace funcmesh::detail {

void check_paged_target(const distributed_layout& layout, const paged_function_base& target) {
  if (target.owned_size() == layout.owned_count() && target.size() == layout.total_count()) {
    return;
  }
  throw error(mpi::rank_prefix() + "funcmesh: a distributed assignment to " + target.describe() +
              " (" + std::to_string(target.owned_size()) + " owned of " +
              std::to_string(target.size()) + " values) on " + layout.describe() + " (" +
              std::to_string(layout.owned_count()) + " owned of " +
              std::to_string(layout.total_count()) + " cells)");
}

void refuse_moved_from_paged_dist_function() {
  throw error(
      "funcmesh: use of a moved-from paged_dist_function (it has no layout and no values until "
      "it is given a function by move)");
}

}  // namespace funcmesh::detail
