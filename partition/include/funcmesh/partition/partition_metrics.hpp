// How good a partition is for a halo-exchange code: edge cut, load imbalance, halo size,
// neighbours per part and communication volume, measured on the dual graph.
#pragma once

#include <span>
#include <string>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/dual_graph.hpp>

namespace funcmesh {

struct partition_metrics {
  int parts = 0;
  index_t edge_cut = 0;        // graph edges between different parts
  double imbalance = 0;        // largest part size / mean part size
  double halo_to_owned = 0;    // sum over parts of distinct depth-1 halo cells / cells
  int max_neighbours = 0;      // most parts any part touches
  double mean_neighbours = 0;  // mean over parts of the parts it touches
  // Sum over cells of the number of other parts among its neighbours (METIS's volume; on a
  // symmetric graph it equals the total depth-1 halo size).
  index_t communication_volume = 0;
  std::vector<index_t> part_sizes;
};

// Throws funcmesh::error when part has the wrong size or a part outside [0, parts).
partition_metrics measure_partition(const graph& g, std::span<const int> part, int parts);

// A multi-line, human-readable table of the metrics (for funcmesh-partition).
std::string describe(const partition_metrics& metrics);

}  // namespace funcmesh
