// Cuthill-McKee ordering of a part's cells, from a pseudo-peripheral start (George and
// Liu) per connected piece, with ties broken by position so that the input order does not
// leak into the result.
#include "locality_order.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>
#include <tuple>

namespace funcmesh::local_mesh_detail {

namespace {

using funcmesh::detail::at;

// Group members carry -first_position - k in the scratch map: their position k in `cells`.
constexpr index_t first_position = 10;
// Start cells tried per piece: the level count settles after two or three.
constexpr int max_start_tries = 8;

class ordering {
 public:
  ordering(const mesh& global, const graph& dual, const std::vector<index_t>& cells,
           std::vector<index_t>& scratch)
      : dual_(dual),
        cells_(cells),
        scratch_(scratch),
        centre_(cells.size()),
        degree_(cells.size(), 0),
        seen_(cells.size(), 0) {
    for (std::size_t k = 0; k < cells.size(); ++k) {
      scratch_[at(cells[k])] = -first_position - static_cast<index_t>(k);
    }
    for (std::size_t k = 0; k < cells.size(); ++k) {
      std::array<double, 3> sum{0, 0, 0};
      const auto nodes = global.cells.nodes_of(cells[k]);
      for (const index_t node : nodes) {
        const auto& x = global.coordinates[at(node)];
        for (std::size_t d = 0; d < 3; ++d) sum[d] += x[d];
      }
      const double n = nodes.empty() ? 1.0 : static_cast<double>(nodes.size());
      centre_[k] = {sum[0] / n, sum[1] / n, sum[2] / n};
      for (const index_t neighbour : dual.neighbours(cells[k])) {
        if (position(neighbour) >= 0) ++degree_[k];
      }
    }
  }

  // The positions in Cuthill-McKee order, piece after piece.
  std::vector<index_t> order() {
    std::vector<index_t> by_key(cells_.size());
    std::iota(by_key.begin(), by_key.end(), index_t{0});
    std::sort(by_key.begin(), by_key.end(), [this](index_t a, index_t b) { return before(a, b); });
    std::vector<char> placed(cells_.size(), 0);
    std::vector<index_t> result, piece, trial;
    result.reserve(cells_.size());
    for (const index_t first : by_key) {
      if (placed[at(first)] != 0) continue;
      index_t start = first;
      std::size_t last_level = 0;
      int levels = breadth_first(start, piece, last_level);
      for (int attempt = 0; attempt < max_start_tries; ++attempt) {
        const auto candidate =
            std::min_element(piece.begin() + static_cast<std::ptrdiff_t>(last_level), piece.end(),
                             [this](index_t a, index_t b) { return before(a, b); });
        std::size_t trial_last = 0;
        const int trial_levels = breadth_first(*candidate, trial, trial_last);
        if (trial_levels <= levels) break;
        start = *candidate;
        levels = trial_levels;
        last_level = trial_last;
        piece.swap(trial);
      }
      for (const index_t p : piece) placed[at(p)] = 1;
      result.insert(result.end(), piece.begin(), piece.end());
    }
    return result;
  }

 private:
  index_t position(index_t cell) const {
    const index_t mark = scratch_[at(cell)];
    return mark <= -first_position ? -first_position - mark : -1;
  }
  // Fewer neighbours first, then by position, then by global index.
  bool before(index_t a, index_t b) const {
    return std::tie(degree_[at(a)], centre_[at(a)], cells_[at(a)]) <
           std::tie(degree_[at(b)], centre_[at(b)], cells_[at(b)]);
  }
  // Breadth first from position `start` over its piece into `out`, each cell's new
  // neighbours in `before` order; returns the number of levels and where the last begins.
  int breadth_first(index_t start, std::vector<index_t>& out, std::size_t& last_level) {
    ++search_;
    out.clear();
    out.push_back(start);
    seen_[at(start)] = search_;
    std::vector<index_t> fresh;
    int levels = 0;
    for (std::size_t begin = 0; begin < out.size();) {
      const std::size_t end = out.size();
      last_level = begin;
      ++levels;
      for (std::size_t k = begin; k < end; ++k) {
        fresh.clear();
        for (const index_t n : dual_.neighbours(cells_[at(out[k])])) {
          const index_t p = position(n);
          if (p >= 0 && seen_[at(p)] != search_) {
            seen_[at(p)] = search_;
            fresh.push_back(p);
          }
        }
        std::sort(fresh.begin(), fresh.end(),
                  [this](index_t a, index_t b) { return before(a, b); });
        out.insert(out.end(), fresh.begin(), fresh.end());
      }
      begin = end;
    }
    return levels;
  }

  const graph& dual_;
  const std::vector<index_t>& cells_;
  std::vector<index_t>& scratch_;
  std::vector<std::array<double, 3>> centre_;
  std::vector<int> degree_;
  std::vector<int> seen_;
  int search_ = 0;
};

}  // namespace

void order_for_locality(const mesh& global, const graph& dual, std::vector<index_t>& cells,
                        std::vector<index_t>& scratch, index_t unmarked) {
  std::vector<index_t> positions = ordering(global, dual, cells, scratch).order();
  std::vector<index_t> ordered(cells.size());
  for (std::size_t k = 0; k < positions.size(); ++k) ordered[k] = cells[at(positions[k])];
  for (const index_t c : cells) scratch[at(c)] = unmarked;
  cells.swap(ordered);
}

}  // namespace funcmesh::local_mesh_detail
