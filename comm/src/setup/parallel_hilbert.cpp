// The k-th cell in (key, global index) order goes to share_of(cells, parts, k). Each part's
// first cell is found by bisection over the 128-bit (key, index) values: every round one
// MPI_Allreduce of parts - 1 counts, at most 128 rounds, all splitters at once.
#include "parallel_hilbert.hpp"

#include <algorithm>
#include <cmath>

#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/partition/hilbert.hpp>

#include "compact_ids.hpp"
#include "node_rows.hpp"

namespace funcmesh::setup_detail {

namespace {

// (key, global index) as one number; __extension__: ISO C++ has no 128-bit integer.
__extension__ using value = unsigned __int128;

std::vector<value> keys_of(MPI_Comm comm, const mesh_slab& slab) {
  const compact_ids node_at(slab.cells.nodes);
  const auto coordinates = fetch_coordinates(comm, slab, node_at.ids());
  std::vector<std::array<double, 3>> centre(static_cast<std::size_t>(slab.cells.size()));
  std::vector<std::array<double, 3>> corners;
  double box[6] = {HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL};  // low, -high
  for (index_t c = 0; c < slab.cells.size(); ++c) {
    corners.clear();
    for (index_t node : slab.cells.nodes_of(c)) {
      corners.push_back(coordinates[static_cast<std::size_t>(node_at(node))]);
    }
    const auto p = node_mean(corners);
    centre[static_cast<std::size_t>(c)] = p;
    for (std::size_t d = 0; d < 3; ++d) {
      box[d] = std::min(box[d], p[d]);
      box[3 + d] = std::min(box[3 + d], -p[d]);
    }
  }
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, box, 6, MPI_DOUBLE, MPI_MIN, comm),
            "MPI_Allreduce (hilbert box)", comm);
  const bounding_box bounds{{box[0], box[1], box[2]}, {-box[3], -box[4], -box[5]}};
  std::vector<value> keys(centre.size());
  for (std::size_t c = 0; c < keys.size(); ++c) {
    const std::uint64_t key = hilbert_key(centre[c], bounds, slab.dimension);
    keys[c] = (static_cast<value>(key) << 64) |
              static_cast<std::uint64_t>(slab.first_cell + static_cast<index_t>(c));
  }
  return keys;
}

}  // namespace

std::vector<int> hilbert_parts(MPI_Comm comm, const mesh_slab& slab, int parts) {
  const std::vector<value> keys = keys_of(comm, slab);
  std::vector<value> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  const auto splitters = static_cast<std::size_t>(parts - 1);
  // Splitter p + 1 is the smallest x with #{values <= x} > share_begin(cells, parts, p + 1).
  std::vector<value> low(splitters, 0), high(splitters, ~value{0} >> 1);
  std::vector<long long> counts(splitters);
  for (;;) {
    bool open = false;
    for (std::size_t p = 0; p < splitters; ++p) {
      open = open || low[p] < high[p];
      const value mid = low[p] + (high[p] - low[p]) / 2;
      counts[p] = std::upper_bound(sorted.begin(), sorted.end(), mid) - sorted.begin();
    }
    if (!open) break;  // alike on every rank: the bounds are updated from agreed counts
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, counts.data(), static_cast<int>(splitters), MPI_LONG_LONG,
                            MPI_SUM, comm),
              "MPI_Allreduce (hilbert splitters)", comm);
    for (std::size_t p = 0; p < splitters; ++p) {
      if (low[p] == high[p]) continue;
      const value mid = low[p] + (high[p] - low[p]) / 2;
      const index_t want = share_begin(slab.global_cells, parts, static_cast<int>(p) + 1);
      if (counts[p] > want) {
        high[p] = mid;
      } else {
        low[p] = mid + 1;
      }
    }
  }
  std::vector<int> part(keys.size());
  for (std::size_t c = 0; c < keys.size(); ++c) {
    part[c] = static_cast<int>(std::upper_bound(low.begin(), low.end(), keys[c]) - low.begin());
  }
  return part;
}

}  // namespace funcmesh::setup_detail
