// Cell records: their length, and the store's index.
#include "cell_records.hpp"

#include <algorithm>

namespace funcmesh::setup_detail {

std::size_t cell_record::size() const {
  const index_t* e = at_ + boundary_at() + 1;
  for (index_t k = 0; k < boundary_count(); ++k) e += 5 + e[4];
  return static_cast<std::size_t>(e - at_);
}

cell_store::cell_store(raw_vector<index_t> data) : data_(std::move(data)) {
  index_from(0);
  sort();
}

void cell_store::append(std::span<const index_t> records) {
  const std::size_t base = data_.size();
  data_.insert(data_.end(), records.begin(), records.end());
  index_from(base);
}

void cell_store::index_from(std::size_t base) {
  std::size_t count = 0;
  for (std::size_t at = base; at < data_.size(); ++count)
    at += cell_record(data_.data() + at).size();
  index_.reserve(index_.size() + count);
  for (std::size_t at = base; at < data_.size();) {
    const cell_record r(data_.data() + at);
    index_.emplace_back(r.gid(), at);
    at += r.size();
  }
}

// Records arrive as runs ascending by gid (one per source and round): often sorted already.
void cell_store::sort() {
  if (!std::is_sorted(index_.begin(), index_.end())) std::sort(index_.begin(), index_.end());
}

const index_t* cell_store::find(index_t gid) const {
  const auto it =
      std::lower_bound(index_.begin(), index_.end(), std::pair<index_t, std::size_t>{gid, 0});
  if (it == index_.end() || it->first != gid) return nullptr;
  return data_.data() + it->second;
}

}  // namespace funcmesh::setup_detail
