#include <funcmesh/partition/local_cell_lookup.hpp>

#include <algorithm>

namespace funcmesh {

local_cell_lookup::local_cell_lookup(const local_mesh& m) {
  by_global_.reserve(m.global_cell.size());
  for (std::size_t l = 0; l < m.global_cell.size(); ++l) {
    by_global_.emplace_back(m.global_cell[l], static_cast<index_t>(l));
  }
  std::ranges::sort(by_global_);
}

index_t local_cell_lookup::operator()(index_t global) const {
  const auto it = std::ranges::lower_bound(by_global_, global, {},
                                           [](const auto& entry) { return entry.first; });
  return it != by_global_.end() && it->first == global ? it->second : -1;
}

}  // namespace funcmesh
