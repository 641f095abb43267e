// The checks every parallel partitioner runs on a distributed_graph before handing it to
// its library: PT-Scotch and ParMETIS validate little and, on bad input, crash, hang or
// fail on some ranks only. Here every rank agrees first, so bad input is one clear error.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/distributed_graph.hpp>

namespace funcmesh::detail {

// What the checks learned, alike on every rank.
struct distributed_graph_shape {
  // Rank r holds the vertices [vertex_begin[r], vertex_begin[r + 1]) (ParMETIS's vtxdist).
  std::vector<index_t> vertex_begin;
  bool weighted = false;  // options.cell_weights given (on every rank that has vertices)
};

// Collective. Checks the graph's shape on each rank (offsets, neighbour ids in
// [0, global_vertices), sorted, no self loops, no duplicates), that the ranks' ranges
// follow each other from 0 to global_vertices, that parts, options.imbalance and
// options.seed are alike on every rank, 1 <= parts <= global_vertices, that the weights
// (one positive weight per vertex, or none) and every count fit `index_max` (the
// library's index type), and that every edge has its reverse. Throws
// mpi::collective_error on every rank alike, its message starting with `caller`.
distributed_graph_shape check_distributed_graph(const mpi::communicator& comm,
                                                const distributed_graph& graph, int parts,
                                                const partition_options& options, index_t index_max,
                                                std::string_view caller);

// Collective: the first `count` entries of a library's answer as parts, after agreeing
// that every one is in [0, parts), so that a library's wrong answer becomes one error on
// every rank instead of a crash later.
template <class Number>
std::vector<int> checked_parts(const mpi::communicator& comm, const std::vector<Number>& raw,
                               index_t count, int parts, std::string_view caller) {
  std::vector<int> part(static_cast<std::size_t>(count));
  std::string problem;
  for (std::size_t v = 0; v < part.size(); ++v) {
    if (raw[v] < 0 || raw[v] >= static_cast<Number>(parts)) {
      problem = std::string(caller) + ": the library put local vertex " + std::to_string(v) +
                " in part " + std::to_string(raw[v]) + ", outside [0, " + std::to_string(parts) +
                ")";
      break;
    }
    part[v] = static_cast<int>(raw[v]);
  }
  mpi::agree(comm, problem);
  return part;
}

}  // namespace funcmesh::detail
