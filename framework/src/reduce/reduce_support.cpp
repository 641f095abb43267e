#include <funcmesh/reduce/reduce.hpp>

#include <string>

namespace funcmesh::detail {

void reduction_extent::operator()(const grid_read& read) {
  if (!found) {
    found = true;
    first = read;
    return;
  }
  if (read.owned_size != first.owned_size || read.total_size != first.total_size) {
    throw error("funcmesh::reduce: a reduction reads grid functions of different sizes: " +
                first.describe() + " (" + std::to_string(first.owned_size) + " owned) and " +
                read.describe() + " (" + std::to_string(read.owned_size) + " owned)");
  }
}

index_range resolve_reduction(const reduction_extent& extent, const iteration_space& over) {
  if (over.what() == iteration_space::kind::list) return {0, over.indices()->size()};
  if (!extent.found) {
    if (over.what() == iteration_space::kind::range) {
      // Nothing to bound it by: an expression of pure values and indices.
      const index_range range = over.resolve_unbounded();
      return range;
    }
    throw error(
        "funcmesh: this reduction reads no grid function, so it has no owned range: give "
        "an explicit iteration_space::range(begin, end)");
  }
  return over.resolve(extent.first.owned_size, extent.first.total_size, extent.first.describe());
}

}  // namespace funcmesh::detail
