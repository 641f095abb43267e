// Private to the parallel set-up: cells as they travel between ranks (one flat run of
// integers each: the cell, its nodes, its graph neighbours with their parts, its boundary
// elements), and a store of them looked up by global cell id.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include <funcmesh/core/index.hpp>

#include <funcmesh/comm/detail/raw_vector.hpp>

namespace funcmesh::setup_detail {

// Record layout: [gid, type, id, physical, n, nodes (n global ids), m, m x (neighbour gid,
// neighbour part), b, b x (row, type, id, physical, k, k node ids)].
class cell_record {
 public:
  explicit cell_record(const index_t* at) : at_(at) {}
  index_t gid() const { return at_[0]; }
  index_t type() const { return at_[1]; }
  index_t id() const { return at_[2]; }
  index_t physical() const { return at_[3]; }
  std::span<const index_t> nodes() const { return {at_ + 5, static_cast<std::size_t>(at_[4])}; }
  index_t neighbour_count() const { return at_[neighbours_at()]; }
  index_t neighbour(index_t k) const { return at_[neighbours_at() + 1 + 2 * k]; }
  int neighbour_part(index_t k) const {
    return static_cast<int>(at_[neighbours_at() + 1 + 2 * k + 1]);
  }
  index_t boundary_count() const { return at_[boundary_at()]; }
  // Calls f(row, type, id, physical, nodes) for each boundary element.
  template <class F>
  void for_each_boundary(F&& f) const {
    const index_t* e = at_ + boundary_at() + 1;
    for (index_t k = 0; k < boundary_count(); ++k) {
      f(e[0], e[1], e[2], e[3], std::span<const index_t>(e + 5, static_cast<std::size_t>(e[4])));
      e += 5 + e[4];
    }
  }
  // The record's length in integers.
  std::size_t size() const;

 private:
  std::size_t neighbours_at() const { return 5 + static_cast<std::size_t>(at_[4]); }
  std::size_t boundary_at() const {
    return neighbours_at() + 1 + 2 * static_cast<std::size_t>(neighbour_count());
  }
  const index_t* at_;
};

// Records in one array, found by global cell id.
class cell_store {
 public:
  cell_store() = default;
  // Takes a run of whole records (as received), and indexes them.
  explicit cell_store(raw_vector<index_t> data);
  // Appends whole records.
  void append(std::span<const index_t> records);
  std::size_t count() const { return index_.size(); }
  // The record with this gid, or nullptr. (Sorted index: call sort() after append.)
  const index_t* find(index_t gid) const;
  void sort();
  // Records in ascending gid order.
  cell_record operator[](std::size_t k) const {
    return cell_record(data_.data() + index_[k].second);
  }

 private:
  void index_from(std::size_t base);
  raw_vector<index_t> data_;
  std::vector<std::pair<index_t, std::size_t>> index_;  // (gid, offset), by gid after sort()
};

}  // namespace funcmesh::setup_detail
