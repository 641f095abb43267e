// distributed_graph: a graph whose vertices are split over the ranks in contiguous ranges
// of global ids (ParMETIS's vtxdist, PT-Scotch's dgraph), and the parallel partitioners
// that take it: PT-Scotch, ParMETIS, each where it was found at build time.
#pragma once

#include <span>
#include <vector>

#include <mpi.h>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/partitioning.hpp>

namespace funcmesh {

struct distributed_graph {
  // This rank's vertices are the global ids [first_vertex, first_vertex + vertex_count()),
  // consecutive ranks' ranges following each other from 0 to global_vertices.
  index_t first_vertex = 0;
  index_t global_vertices = 0;
  std::vector<index_t> offsets{
      0};  // local vertex v's neighbours: adjacency[offsets[v], offsets[v+1])
  std::vector<index_t> adjacency;  // global vertex ids, sorted per vertex, no self loops

  index_t vertex_count() const { return static_cast<index_t>(offsets.size()) - 1; }
};

// Collective. The part in [0, parts) of each of this rank's vertices, with PT-Scotch's
// SCOTCH_dgraphPart (options.imbalance, options.seed, options.cell_weights as this rank's
// vertex weights when not empty). Throws mpi::collective_error on every rank alike when
// PT-Scotch fails or was not found at build time ("built without PT-Scotch: ...").
std::vector<int> partition_ptscotch(MPI_Comm comm, const distributed_graph& graph, int parts,
                                    const partition_options& options = {});
// The same with ParMETIS_V3_PartKway (found only where ParMETIS is installed, e.g. Spack's
// +parmetis); "built without ParMETIS: ..." otherwise.
std::vector<int> partition_parmetis(MPI_Comm comm, const distributed_graph& graph, int parts,
                                    const partition_options& options = {});
// Whether this build has them.
bool have_ptscotch();
bool have_parmetis();

}  // namespace funcmesh
