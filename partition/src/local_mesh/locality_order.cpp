// Cuthill-McKee ordering of a part's cells, from a pseudo-peripheral start (George and
// Liu) per connected piece, with ties broken by position so that the input order does not
// leak into the result.
#include "locality_order.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <tuple>

#include <funcmesh/core/error.hpp>

namespace funcmesh::local_mesh_detail {

namespace {

using funcmesh::detail::at;

// Group members carry -first_position - k in the scratch map: their position k in `cells`.
constexpr index_t first_position = 10;
// Start cells tried per piece: the level count settles after two or three.
constexpr int max_start_tries = 8;
// The mark of the first piece's cells once it is placed (searches count up from 1).
constexpr int placed = -1;

class ordering {
 public:
  ordering(const mesh& global, const graph& dual, const std::vector<index_t>& cells,
           std::vector<index_t>& scratch)
      : cells_(cells), centre_(cells.size()), degree_(cells.size(), 0), seen_(cells.size(), 0) {
    if (cells.size() >= std::numeric_limits<std::uint32_t>::max()) {
      throw error("funcmesh::build_local_mesh: a part of " + std::to_string(cells.size()) +
                  " cells or more (at most 2^32 - 2 in one part)");
    }
    for (std::size_t k = 0; k < cells.size(); ++k) {
      scratch[at(cells[k])] = -first_position - static_cast<index_t>(k);
    }
    const auto position = [&](index_t cell) {
      const index_t mark = scratch[at(cell)];
      return mark <= -first_position ? -first_position - mark : index_t{-1};
    };
    // The dual graph among the part's cells, in positions: the searches below run over it
    // several times, and a compact copy reads far less memory than the global graph.
    offsets_.assign(cells.size() + 1, 0);
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
      offsets_[k + 1] = offsets_[k] + static_cast<std::size_t>(degree_[k]);
    }
    adjacency_.resize(offsets_.back());
    for (std::size_t k = 0; k < cells.size(); ++k) {
      std::uint32_t* out = adjacency_.data() + offsets_[k];
      for (const index_t neighbour : dual.neighbours(cells[k])) {
        const index_t p = position(neighbour);
        if (p >= 0) *out++ = static_cast<std::uint32_t>(p);
      }
      // Each list in `before` order once, so that a search meets new neighbours in the
      // order Cuthill-McKee numbers them, without sorting them on every search.
      std::sort(adjacency_.data() + offsets_[k], out,
                [this](std::uint32_t a, std::uint32_t b) { return before(a, b); });
    }
  }

  // The positions in Cuthill-McKee order, piece after piece: the pieces (connected parts)
  // in the order of their first cell by `before`, each searched from a pseudo-peripheral
  // cell found from that one.
  std::vector<index_t> order() {
    std::vector<index_t> result, piece, trial;
    if (cells_.empty()) return result;
    result.reserve(cells_.size());
    piece.reserve(cells_.size());
    trial.reserve(cells_.size());
    // The first piece starts at the first cell of all; most parts are one piece.
    index_t first = 0;
    for (std::size_t p = 1; p < cells_.size(); ++p) {
      if (before(static_cast<index_t>(p), first)) first = static_cast<index_t>(p);
    }
    std::vector<index_t> starts{first};
    for (std::size_t s = 0; s < starts.size(); ++s) {
      index_t start = starts[s];
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
      result.insert(result.end(), piece.begin(), piece.end());
      if (s == 0 && result.size() < cells_.size()) {
        for (const index_t p : result) seen_[at(p)] = placed;
        const std::vector<index_t> more = piece_starts();
        starts.insert(starts.end(), more.begin(), more.end());
      }
    }
    return result;
  }

 private:
  std::span<const std::uint32_t> neighbours(index_t p) const {
    return {adjacency_.data() + offsets_[at(p)], offsets_[at(p) + 1] - offsets_[at(p)]};
  }
  // Fewer neighbours first, then by position, then by global index.
  bool before(index_t a, index_t b) const {
    return std::tie(degree_[at(a)], centre_[at(a)], cells_[at(a)]) <
           std::tie(degree_[at(b)], centre_[at(b)], cells_[at(b)]);
  }
  // The first position by `before` of each piece not yet placed, the pieces in that order.
  // (One search per piece: sorting every cell by `before` instead cost a third of the
  // ordering.)
  std::vector<index_t> piece_starts() {
    ++search_;
    std::vector<index_t> starts, queue;
    for (std::size_t p = 0; p < cells_.size(); ++p) {
      if (seen_[p] == search_ || seen_[p] == placed) continue;
      index_t least = static_cast<index_t>(p);
      queue.assign(1, least);
      seen_[p] = search_;
      for (std::size_t k = 0; k < queue.size(); ++k) {
        if (before(queue[k], least)) least = queue[k];
        for (const std::uint32_t n : neighbours(queue[k])) {
          if (seen_[n] != search_) {
            seen_[n] = search_;
            queue.push_back(n);
          }
        }
      }
      starts.push_back(least);
    }
    std::sort(starts.begin(), starts.end(), [this](index_t a, index_t b) { return before(a, b); });
    return starts;
  }
  // Breadth first from position `start` over its piece into `out`, each cell's new
  // neighbours in `before` order; returns the number of levels and where the last begins.
  int breadth_first(index_t start, std::vector<index_t>& out, std::size_t& last_level) {
    ++search_;
    out.clear();
    out.push_back(start);
    seen_[at(start)] = search_;
    int levels = 0;
    for (std::size_t begin = 0; begin < out.size();) {
      const std::size_t end = out.size();
      last_level = begin;
      ++levels;
      for (std::size_t k = begin; k < end; ++k) {
        for (const std::uint32_t n : neighbours(out[k])) {
          if (seen_[n] != search_) {
            seen_[n] = search_;
            out.push_back(n);
          }
        }
      }
      begin = end;
    }
    return levels;
  }

  const std::vector<index_t>& cells_;
  std::vector<std::array<double, 3>> centre_;
  std::vector<int> degree_;
  std::vector<std::size_t> offsets_;
  std::vector<std::uint32_t> adjacency_;
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
