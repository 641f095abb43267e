// Private to the parallel set-up: the distinct global ids (of nodes, or cells) a rank holds,
// ascending, and each id's position among them: the set-up's arrays are indexed so.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <funcmesh/core/index.hpp>

namespace funcmesh::setup_detail {

// A table over the ids' range when that is compact (at most twice the entries: built-in
// boxes' slabs, parts of most meshes), else the sorted list, searched per lookup.
class compact_ids {
 public:
  compact_ids() = default;
  // Ids in any order, with repeats.
  explicit compact_ids(std::span<const index_t> entries);
  // The distinct ids, ascending.
  const std::vector<index_t>& ids() const { return ids_; }
  std::size_t size() const { return ids_.size(); }
  // The position of `id` in ids(), or -1 when it is not there.
  index_t operator()(index_t id) const;

 private:
  std::vector<index_t> ids_;
  index_t first_ = 0;
  std::vector<std::uint32_t> table_;  // id - first_ -> position, or UINT32_MAX
};

}  // namespace funcmesh::setup_detail
