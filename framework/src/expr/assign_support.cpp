#include <funcmesh/expr/assign.hpp>

#include <string>

namespace funcmesh::detail {

void check_fused_sizes(const grid_function_base& first, const grid_function_base& other) {
  if (first.owned_size() == other.owned_size() && first.total_size() == other.total_size()) {
    return;
  }
  throw error("funcmesh: fused assignments need targets of equal sizes: " + first.describe() +
              " has " + std::to_string(first.owned_size()) + " owned / " +
              std::to_string(first.total_size()) + " total values, " + other.describe() + " has " +
              std::to_string(other.owned_size()) + " / " + std::to_string(other.total_size()));
}

}  // namespace funcmesh::detail
