// Ids made compact: marked in a table over their range (linear, no sort) when the range is
// small enough, else sorted and deduplicated.
#include "compact_ids.hpp"

#include <algorithm>

namespace funcmesh::setup_detail {

namespace {

constexpr std::uint32_t absent = UINT32_MAX;

using funcmesh::detail::at;

}  // namespace

compact_ids::compact_ids(std::span<const index_t> entries) {
  if (entries.empty()) return;
  const auto [low, high] = std::minmax_element(entries.begin(), entries.end());
  const auto range = static_cast<std::size_t>(*high - *low) + 1;
  if (range <= 2 * entries.size() + 1024 && range < absent) {
    first_ = *low;
    table_.assign(range, absent);
    for (index_t id : entries) table_[at(id - first_)] = 0;
    for (std::size_t k = 0; k < range; ++k) {
      if (table_[k] == absent) continue;
      table_[k] = static_cast<std::uint32_t>(ids_.size());
      ids_.push_back(first_ + static_cast<index_t>(k));
    }
    return;
  }
  ids_.assign(entries.begin(), entries.end());
  std::sort(ids_.begin(), ids_.end());
  ids_.erase(std::unique(ids_.begin(), ids_.end()), ids_.end());
}

index_t compact_ids::operator()(index_t id) const {
  if (!table_.empty()) {
    const index_t k = id - first_;
    if (k < 0 || k >= static_cast<index_t>(table_.size()) || table_[at(k)] == absent) return -1;
    return static_cast<index_t>(table_[at(k)]);
  }
  const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  return it != ids_.end() && *it == id ? static_cast<index_t>(it - ids_.begin()) : -1;
}

}  // namespace funcmesh::setup_detail
