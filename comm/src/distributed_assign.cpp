// The non-template checks of distributed assignments.
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distributed_assign.hpp>

#include <string>

#include <funcmesh/comm/mpi_error.hpp>

namespace funcmesh::detail {

void check_distributed_space(const run_options& options, bool halo_too) {
  const auto what = options.over.what();
  if (what == iteration_space::kind::owned) return;
  if (what == iteration_space::kind::owned_and_halo) {
    if (halo_too) return;
    throw error(
        "funcmesh: a paged distributed assignment runs over the owned cells only (it binds "
        "page by page): with_halo() is for dist_function targets; assign over the owned cells "
        "and read the halo exchanged");
  }
  throw error(
      "funcmesh: a distributed assignment runs over the owned cells (their halo copies are "
      "the owners' to compute and send), or over owned and halo cells "
      "(iteration_space::owned_and_halo(), with_halo()); for another iteration space, assign "
      "to u.local_values()");
}

void refuse_neighbour_read_with_halo(const std::string& reader, const grid_read& read) {
  throw error("funcmesh: " + reader + " over owned and halo cells reads " + read.describe() +
              " at neighbours (a face sum or a proxy): a halo cell's neighbours are not all on "
              "this rank. Over owned and halo cells read only each cell's own values "
              "(zip_with, sum_over_cell_faces, geometry); for a face sum, assign over the owned "
              "cells (the default)");
}

void mark_halo_computed(halo_state* target) {
  if (target != nullptr) target->mark_exchanged();
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
