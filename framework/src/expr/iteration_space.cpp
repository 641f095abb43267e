#include <funcmesh/expr/iteration_space.hpp>

#include <string>

namespace funcmesh {

index_range iteration_space::resolve(const grid_function_base& function) const {
  return resolve(function.owned_size(), function.total_size(), function.describe());
}

index_range iteration_space::resolve(index_t owned_size, index_t total_size,
                                     const std::string& what) const {
  switch (kind_) {
    case kind::owned:
      return {0, owned_size};
    case kind::owned_and_halo:
      return {0, total_size};
    case kind::range:
      if (range_.begin < 0 || range_.end < range_.begin || range_.end > total_size) {
        throw error("funcmesh::iteration_space::resolve: index range [" +
                    std::to_string(range_.begin) + ", " + std::to_string(range_.end) +
                    ") is not inside " + what + " of total size " + std::to_string(total_size));
      }
      return range_;
    case kind::list:
      return {0, indices_->size()};
  }
  return {};
}

index_range iteration_space::resolve_unbounded() const {
  if (kind_ != kind::range || range_.begin < 0 || range_.end < range_.begin) {
    throw error("funcmesh::iteration_space::resolve: index range [" + std::to_string(range_.begin) +
                ", " + std::to_string(range_.end) + ") is not a valid range");
  }
  return range_;
}

}  // namespace funcmesh
