#include <funcmesh/expr/iteration_space.hpp>

#include <string>

namespace funcmesh {

index_range iteration_space::resolve(const grid_function_base& function) const {
  switch (kind_) {
    case kind::owned:
      return {0, function.owned_size()};
    case kind::owned_and_halo:
      return {0, function.total_size()};
    case kind::range:
      if (range_.begin < 0 || range_.end < range_.begin || range_.end > function.total_size()) {
        throw error("funcmesh: index range [" + std::to_string(range_.begin) + ", " +
                    std::to_string(range_.end) + ") is not inside " + function.describe() +
                    " of total size " + std::to_string(function.total_size()));
      }
      return range_;
    case kind::list:
      return {0, indices_->size()};
  }
  return {};
}

index_range iteration_space::resolve_unbounded() const {
  if (kind_ != kind::range || range_.begin < 0 || range_.end < range_.begin) {
    throw error("funcmesh: index range [" + std::to_string(range_.begin) + ", " +
                std::to_string(range_.end) + ") is not a valid range");
  }
  return range_;
}

}  // namespace funcmesh
