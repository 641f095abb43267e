// Splitting a mesh's cells into parts: METIS (k-way or recursive bisection) on the dual
// graph, or a geometric recursive coordinate bisection of cell centroids. Every input is
// validated first because METIS 5.1 validates nothing and is unsafe after an error.
#pragma once

#include <array>
#include <span>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/dual_graph.hpp>
#include <funcmesh/partition/mesh.hpp>

namespace funcmesh {

// hilbert: the space-filling-curve cut of partition_hilbert (hilbert.hpp), the one the
// parallel set-up also computes, so both set-up paths can be given the same partition.
enum class partition_method { metis_kway, metis_recursive, geometric, hilbert };
enum class partition_objective { edge_cut, communication_volume };

struct partition_options {
  partition_method method = partition_method::metis_kway;
  // communication_volume needs metis_kway (METIS's recursive bisection only cuts edges).
  partition_objective objective = partition_objective::edge_cut;
  // Largest allowed part weight / mean part weight; METIS's ufactor = (imbalance - 1) * 1000.
  double imbalance = 1.03;
  int seed = -1;            // -1: METIS's default seed
  bool contiguous = false;  // every part connected (metis_kway only; the graph must be connected)
  std::vector<index_t> cell_weights;  // empty: all 1; otherwise one positive weight per cell
  adjacency by = adjacency::face;     // which dual graph partition_mesh builds
};

// Partitions a graph with METIS (options.method must be metis_kway or metis_recursive):
// part[v] in [0, parts) for each vertex, every part non-empty. Throws funcmesh::error on
// invalid input (asymmetric graph, more parts than vertices, ...) before calling METIS,
// and metis_error when METIS fails.
std::vector<int> partition_graph(const graph& g, int parts, const partition_options& options = {});

// Partitions a mesh's cells: METIS on dual_graph(m, options.by), or, with
// partition_method::geometric, partition_points on the cells' node means, or with
// partition_method::hilbert, partition_hilbert (which takes no cell weights).
std::vector<int> partition_mesh(const mesh& m, int parts, const partition_options& options = {});

// Recursive coordinate bisection: splits along the longest extent of the bounding box,
// with counts (or weights) proportional to the parts on each side, so that part sizes
// differ by at most one point when unweighted. Deterministic (ties broken by index).
std::vector<int> partition_points(std::span<const std::array<double, 3>> points, int parts,
                                  std::span<const index_t> weights = {});

}  // namespace funcmesh
